//! Three nodes on one PostgreSQL database: tables spread over them, players connected to
//! every node (directly or forwarded), one node killed hard in the middle of a deal. Every
//! one of its tables must go on at another node with the same cards, every acknowledged
//! action must be stored exactly once, and every client's versions must stay gap-free
//! (a new epoch begins with a snapshot). Runs when `PREF_TEST_POSTGRES_URL` is set.

mod common;

use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

use common::*;
use futures_util::future::join_all;
use pref_core::{Action, Card, CardSet, Deal, DealView, Event, Profile, Seat, Viewer};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::{Value, json};
use sqlx::Row;

/// Lease length for the test: a dead node's tables move within about this long. Long enough
/// that a node of a busy CI machine does not miss its heartbeat (it stops after 2.25 s).
const LEASE_MS: &str = "3000";

/// A server node: the real binary.
struct Node {
    child: Child,
    addr: String,
}

fn spawn_node(url: &str, dir: &Path) -> Node {
    let (child, addr) = spawn_binary(
        dir,
        &[
            ("PREF_DATABASE_URL", url),
            ("PREF_LEASE_MS", LEASE_MS),
            ("PREF_CLUSTER_SECRET", "the-test-cluster-secret"),
            // The test's players act as fast as the server answers, far above a person's rate.
            ("PREF_MESSAGES_PER_SECOND", "1000"),
            ("PREF_MESSAGE_BURST", "1000"),
        ],
    );
    Node { child, addr }
}

/// One player's socket and everything it has been told.
struct Client {
    seat: usize,
    token: String,
    ws: Option<Ws>,
    epoch: String,
    version: u64,
    to_act: Option<usize>,
    legal: Vec<Action>,
    /// The hand dealt to this seat, from the first snapshot.
    dealt: Option<CardSet>,
    finished: bool,
    /// Snapshots that began a new epoch after the first.
    new_epochs: usize,
}

enum Reply {
    Ack(u64),
    Stale,
}

impl Client {
    /// Takes in one message; checks that versions never skip or go back.
    fn absorb(&mut self, m: &Value) -> Option<Reply> {
        match m["type"].as_str().unwrap() {
            "snapshot" => {
                let epoch = m["epoch"].as_str().unwrap();
                let version = m["version"].as_u64().unwrap();
                if epoch == self.epoch {
                    assert!(
                        version >= self.version,
                        "seat {}: snapshot went back",
                        self.seat
                    );
                } else if !self.epoch.is_empty() {
                    self.new_epochs += 1;
                }
                self.epoch = epoch.to_owned();
                self.version = version;
                assert_eq!(m["deal_no"], json!(0), "one deal is played");
                let view: DealView = serde_json::from_value(m["deal"].clone()).unwrap();
                if self.dealt.is_none() {
                    self.dealt = view.hand;
                }
                if m["table"]["deals_finished"].as_u64().unwrap() > 0 {
                    self.finished = true;
                }
                self.turn(&m["turn"]);
                None
            }
            "event" => {
                let version = m["version"].as_u64().unwrap();
                assert_eq!(
                    version,
                    self.version + 1,
                    "seat {}: a gap in epoch {}",
                    self.seat,
                    self.epoch
                );
                self.version = version;
                if m["event"]["kind"] == "deal_finished" {
                    self.finished = true;
                }
                if let Some(turn) = m.get("turn") {
                    self.turn(turn);
                }
                None
            }
            "ack" => Some(Reply::Ack(m["version"].as_u64().unwrap())),
            "rejected" => {
                assert_eq!(m["reason"], "stale_version", "seat {}: {m}", self.seat);
                Some(Reply::Stale)
            }
            "error" => {
                let code = m["code"].as_str().unwrap();
                assert!(
                    code == "table_closed" || code == "lagged",
                    "seat {}: {m}",
                    self.seat
                );
                None
            }
            other => panic!("unexpected message {other}: {m}"),
        }
    }

    fn turn(&mut self, turn: &Value) {
        self.to_act = turn["to_act"].as_u64().map(|p| p as usize);
        self.legal = serde_json::from_value(turn["legal"].clone()).unwrap();
    }

    /// The next message, or `None` once the socket has closed (it is then dropped).
    async fn read(&mut self) -> Option<Value> {
        let m = next_json(self.ws.as_mut()?).await;
        if m.is_none() {
            self.ws = None;
        }
        m
    }

    /// Connects to one of `nodes`, resuming from the last version seen, and reads up to a
    /// snapshot (asked for, so that the client knows where it stands).
    async fn reconnect(&mut self, id: &str, nodes: &[String]) {
        let started = Instant::now();
        let mut attempt = self.seat;
        loop {
            let addr = &nodes[attempt % nodes.len()];
            attempt += 1;
            let url = format!(
                "ws://{addr}/api/tables/{id}/ws?since={}&epoch={}",
                self.version, self.epoch
            );
            match tokio_tungstenite::connect_async(ws_request(&url, Some(&self.token))).await {
                Ok((ws, _)) => {
                    self.ws = Some(ws);
                    break;
                }
                Err(e) => {
                    assert!(
                        started.elapsed() < Duration::from_secs(30),
                        "seat {} cannot reconnect: {e}",
                        self.seat
                    );
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
        send(self.ws.as_mut().unwrap(), json!({"type": "resync"})).await;
        loop {
            let Some(m) = self.read().await else {
                return Box::pin(self.reconnect(id, nodes)).await;
            };
            self.absorb(&m);
            if m["type"] == "snapshot" {
                return;
            }
        }
    }

    /// Reads until this client has seen `version` of `epoch`, reconnecting when needed.
    async fn catch_up(&mut self, id: &str, nodes: &[String], epoch: &str, version: u64) {
        while !(self.epoch == epoch && self.version >= version) {
            match self.read().await {
                Some(m) => {
                    self.absorb(&m);
                }
                None => self.reconnect(id, nodes).await,
            }
        }
    }
}

/// A table and its three players.
struct Play {
    info: TableInfo,
    clients: Vec<Client>,
    rng: StdRng,
    acks: usize,
}

impl Play {
    /// Makes one action; `false` once the deal is over.
    async fn step(&mut self, nodes: &[String]) -> bool {
        let id = self.info.id.clone();
        if self.clients[0].finished {
            return false;
        }
        let p = self.clients[0].to_act.expect("nobody to act");
        let actor = &mut self.clients[p];
        if actor.ws.is_none() || actor.to_act != Some(p) {
            actor.reconnect(&id, nodes).await;
            return true;
        }
        let action = *actor.legal.choose(&mut self.rng).expect("no legal action");
        let msg = json!({"type": "action", "id": format!("a{}", self.acks), "version": actor.version, "action": action});
        send(actor.ws.as_mut().unwrap(), msg).await;
        let reply = loop {
            match actor.read().await {
                Some(m) => {
                    if let Some(r) = actor.absorb(&m) {
                        break Some(r);
                    }
                }
                None => break None,
            }
        };
        match reply {
            Some(Reply::Ack(version)) => {
                self.acks += 1;
                let epoch = actor.epoch.clone();
                for c in &mut self.clients {
                    c.catch_up(&id, nodes, &epoch, version).await;
                }
            }
            Some(Reply::Stale) => {
                let actor = &mut self.clients[p];
                loop {
                    let m = actor.read().await.expect("no snapshot after stale_version");
                    actor.absorb(&m);
                    if m["type"] == "snapshot" {
                        break;
                    }
                }
            }
            // The socket closed before the answer: the node behind it died with the action
            // unsent or unanswered. Reconnect; the snapshot says whether it was applied.
            None => self.clients[p].reconnect(&id, nodes).await,
        }
        true
    }
}

/// The hands dealt from a stored deck, and every seat's view after the stored actions.
fn replay(
    dealer: Seat,
    deck: &[Card; 32],
    actions: &[(Seat, Action)],
) -> (Vec<CardSet>, Vec<Value>) {
    let mut deal = Deal::new(&Profile::sochi(), dealer, deck, 0).unwrap();
    let Event::Dealt { hands, .. } = deal.deal_event() else {
        panic!("no hands")
    };
    for &(p, a) in actions {
        deal.act(p, a).unwrap();
    }
    let views = (0..3)
        .map(|s| serde_json::to_value(deal.view(Viewer::Seat(Seat(s)))).unwrap())
        .collect();
    (hands[..3].to_vec(), views)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_nodes_tables_go_on_elsewhere_with_the_same_cards_and_no_gaps() {
    let Some(url) = postgres("cluster").await else {
        return;
    };
    let dir = temp_dir("cluster");
    let mut nodes: Vec<Node> = (0..3).map(|_| spawn_node(&url, &dir)).collect();
    let addrs: Vec<String> = nodes.iter().map(|n| n.addr.clone()).collect();

    // Two tables opened on each node; seat s of table t connects to node (t + s) % 3, so
    // every node serves some sockets directly and forwards others.
    let mut plays = Vec::new();
    for t in 0..6 {
        let info = table(&addrs[t / 2], json!("sochi"), 3, true).await;
        let mut clients = Vec::new();
        for (s, token) in info.tokens.iter().enumerate() {
            let mut c = Client {
                seat: s,
                token: token.clone(),
                ws: Some(connect(&addrs[(t + s) % 3], &info.id, Some(token), "").await),
                epoch: String::new(),
                version: 0,
                to_act: None,
                legal: Vec::new(),
                dealt: None,
                finished: false,
                new_epochs: 0,
            };
            let snap = c.read().await.unwrap();
            assert_eq!(snap["type"], "snapshot");
            c.absorb(&snap);
            clients.push(c);
        }
        plays.push(Play {
            info,
            clients,
            rng: StdRng::seed_from_u64(t as u64),
            acks: 0,
        });
    }
    // Everybody is connected: read the presence news up to the last version.
    for p in &mut plays {
        let id = p.info.id.clone();
        let (status, summary) =
            http(&addrs[0], "GET", &format!("/api/tables/{id}"), None, None).await;
        assert_eq!(status, 200, "{summary}");
        let version = summary["version"].as_u64().unwrap();
        let epoch = p.clients[0].epoch.clone();
        for c in &mut p.clients {
            c.catch_up(&id, &addrs, &epoch, version).await;
        }
    }

    // Three actions at every table, then node 0 dies in the middle of its deals.
    join_all(plays.iter_mut().map(|p| async {
        for _ in 0..3 {
            assert!(p.step(&addrs).await);
        }
    }))
    .await;
    let killed = nodes.remove(0);
    let mut child = killed.child;
    child.kill().unwrap();
    child.wait().unwrap();
    let survivors: Vec<String> = nodes.iter().map(|n| n.addr.clone()).collect();

    let started = Instant::now();
    join_all(
        plays
            .iter_mut()
            .map(|p| async { while p.step(&survivors).await {} }),
    )
    .await;
    eprintln!("every deal finished {:?} after the kill", started.elapsed());

    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .unwrap();
    for (t, p) in plays.iter_mut().enumerate() {
        let row = sqlx::query(
            "SELECT t.no, l.epoch, n.addr FROM tables t JOIN leases l ON l.table_no = t.no
             JOIN nodes n ON n.id = l.node WHERE t.id = $1",
        )
        .bind(&p.info.id)
        .fetch_one(&pool)
        .await
        .unwrap();
        let (no, epoch, owner): (i64, i64, String) = (row.get(0), row.get(1), row.get(2));
        if t < 2 {
            assert!(epoch >= 2, "table {t} was not taken over");
            assert!(survivors.contains(&owner), "table {t} is held by {owner}");
            for c in &p.clients {
                assert!(c.new_epochs >= 1, "table {t} seat {}: no new epoch", c.seat);
            }
        } else {
            assert_eq!(epoch, 1, "table {t} moved although its node lives");
            assert_eq!(owner, addrs[t / 2]);
        }
        let deck: String = sqlx::query_scalar("SELECT deck FROM deals WHERE table_no = $1")
            .bind(no)
            .fetch_one(&pool)
            .await
            .unwrap();
        let deck: [Card; 32] = deck
            .split(' ')
            .map(|c| c.parse().unwrap())
            .collect::<Vec<Card>>()
            .try_into()
            .unwrap();
        let actions: Vec<(Seat, Action)> = sqlx::query(
            "SELECT player, action FROM actions WHERE table_no = $1 AND deal_no = 0 ORDER BY seq",
        )
        .bind(no)
        .fetch_all(&pool)
        .await
        .unwrap()
        .iter()
        .map(|r| {
            (
                Seat(r.get::<i64, _>(0) as u8),
                serde_json::from_str(&r.get::<String, _>(1)).unwrap(),
            )
        })
        .collect();
        assert_eq!(
            actions.len(),
            p.acks,
            "table {t}: stored actions ≠ acknowledged ones"
        );
        // Each seat's final snapshot is exactly the stored deck and actions, replayed; and
        // the hands the players were dealt before the kill are that deck's.
        let id = p.info.id.clone();
        let mut finals = Vec::new();
        for c in &mut p.clients {
            match c.ws.as_mut() {
                Some(ws) => send(ws, json!({"type": "resync"})).await,
                None => c.reconnect(&id, &survivors).await,
            }
            let snap = loop {
                let m = c.read().await.expect("socket closed at the end");
                c.absorb(&m);
                if m["type"] == "snapshot" {
                    break m;
                }
            };
            finals.push(snap);
        }
        let dealer = Seat(finals[0]["deal"]["dealer"].as_u64().unwrap() as u8);
        let (hands, views) = replay(dealer, &deck, &actions);
        for (s, c) in p.clients.iter().enumerate() {
            assert_eq!(c.dealt, Some(hands[s]), "table {t} seat {s}: other cards");
            assert_eq!(
                finals[s]["deal"], views[s],
                "table {t} seat {s}: another deal"
            );
        }
    }
    for mut n in nodes {
        n.child.kill().unwrap();
        n.child.wait().unwrap();
    }
}
