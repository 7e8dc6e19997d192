//! Kill the server hard in the middle of a deal, start a new one on the same data
//! directory, reconnect with the old tokens and finish the same deal with the same cards.

mod common;

use std::path::Path;
use std::process::Child;

use common::*;
use pref_core::{Action, CardSet, DealView, ViewEvent};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::{Value, json};

/// Starts the real binary on `dir`; returns the child and its address.
fn spawn(dir: &Path) -> (Child, String) {
    spawn_binary(dir, &[])
}

/// The players' sockets and what they know.
struct Players {
    ws: Vec<Ws>,
    version: u64,
    to_act: Option<usize>,
    legal: Vec<Action>,
    /// Cards each seat played, as everybody saw them.
    played: Vec<CardSet>,
    /// Hands as revealed after the deal.
    revealed: Option<Vec<CardSet>>,
    finished: bool,
}

impl Players {
    fn new() -> Players {
        Players {
            ws: Vec::new(),
            version: 0,
            to_act: None,
            legal: Vec::new(),
            played: vec![CardSet::EMPTY; 3],
            revealed: None,
            finished: false,
        }
    }

    /// Reads every socket up to the last item of the current batch.
    async fn settle(&mut self) {
        for (i, ws) in self.ws.iter_mut().enumerate() {
            loop {
                let m = next_json(ws).await.expect("socket closed");
                if m["type"] != "event" {
                    continue;
                }
                let e = &m["event"];
                if i == 0 && e["kind"] == "deal" {
                    match serde_json::from_value::<ViewEvent>(e["event"].clone()).unwrap() {
                        ViewEvent::Played { seat, card } => {
                            self.played[seat.index()] = self.played[seat.index()].with(card);
                        }
                        ViewEvent::Revealed(r) => self.revealed = Some(r.hands),
                        _ => {}
                    }
                }
                if e["kind"] == "deal_finished" {
                    self.finished = true;
                }
                if let Some(turn) = m.get("turn") {
                    self.version = m["version"].as_u64().unwrap();
                    if let Some(p) = turn["to_act"].as_u64() {
                        self.to_act = Some(p as usize);
                        if p as usize == i {
                            self.legal = serde_json::from_value(turn["legal"].clone()).unwrap();
                        }
                    } else {
                        self.to_act = None;
                    }
                    break;
                }
            }
        }
    }

    async fn step(&mut self, rng: &mut StdRng) {
        let p = self.to_act.expect("nobody to act");
        let a = *self.legal.choose(rng).expect("no legal action");
        let id = format!("d{}", self.version);
        send(
            &mut self.ws[p],
            json!({"type": "action", "id": id, "version": self.version, "action": a}),
        )
        .await;
        self.settle().await;
    }
}

/// Each player's snapshot after asking for one.
async fn snapshots(ws: &mut [Ws]) -> Vec<Value> {
    let mut out = Vec::new();
    for w in ws.iter_mut() {
        send(w, json!({"type": "resync"})).await;
        out.push(until(w, |m| m["type"] == "snapshot").await);
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_mid_deal_restart_and_finish_the_same_deal() {
    let dir = temp_dir("durability");
    let (mut child, addr) = spawn(&dir);
    let info = table(&addr, json!("sochi"), 3, true).await;
    let mut ws = Vec::new();
    let mut dealt = Vec::new();
    let mut players = Players::new();
    for (i, t) in info.tokens.iter().enumerate() {
        let mut w = connect(&addr, &info.id, Some(t), "").await;
        let snap = until(&mut w, |m| m["type"] == "snapshot").await;
        let view: DealView = serde_json::from_value(snap["deal"].clone()).unwrap();
        dealt.push(view.hand.unwrap());
        if let Some(p) = snap["turn"]["to_act"].as_u64() {
            players.to_act = Some(p as usize);
            if p as usize == i {
                players.legal = serde_json::from_value(snap["turn"]["legal"].clone()).unwrap();
            }
        }
        players.version = players.version.max(snap["version"].as_u64().unwrap());
        ws.push(w);
    }
    players.ws = ws;
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..6 {
        players.step(&mut rng).await;
    }
    assert!(!players.finished);
    let before = snapshots(&mut players.ws).await;
    let epoch = before[0]["epoch"].as_str().unwrap().to_owned();
    let since = before[0]["version"].as_u64().unwrap();

    child.kill().unwrap();
    child.wait().unwrap();
    let (mut child, addr) = spawn(&dir);

    let (status, health) = http(&addr, "GET", "/health", None, None).await;
    assert_eq!((status, health["tables"].clone()), (200, json!(1)));
    let mut ws = Vec::new();
    for (i, t) in info.tokens.iter().enumerate() {
        let extra = format!("&since={since}&epoch={epoch}");
        let mut w = connect(&addr, &info.id, Some(t), &extra).await;
        let snap = until(&mut w, |m| m["type"] == "snapshot").await;
        assert_ne!(
            snap["epoch"].as_str().unwrap(),
            epoch,
            "a restart starts a new epoch"
        );
        assert_eq!(
            snap["deal"], before[i]["deal"],
            "seat {i} sees another deal"
        );
        assert_eq!(snap["turn"], before[i]["turn"]);
        if snap["turn"]["to_act"].as_u64() == Some(i as u64) {
            players.legal = serde_json::from_value(snap["turn"]["legal"].clone()).unwrap();
        }
        players.version = snap["version"].as_u64().unwrap();
        ws.push(w);
    }
    players.ws = ws;
    // The others see each reconnect as presence; drain up to a quiet point.
    let _ = snapshots(&mut players.ws).await;
    while !players.finished {
        players.step(&mut rng).await;
    }
    for (seat, (played, hand)) in players.played.iter().zip(&dealt).enumerate() {
        let extra = CardSet(played.0 & !hand.0);
        // A declarer may play talon cards he took; nobody else plays a card not dealt to him.
        assert!(
            extra.len() <= 2,
            "seat {seat} played {extra}, not dealt to it"
        );
    }
    assert_eq!(
        players.revealed.expect("sochi reveals after the deal"),
        dealt
    );
    let _ = child.kill();
    let _ = child.wait();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_replaces_a_player_between_deals() {
    let (addr, _) = server("replace", |_| {}).await;
    let info = table(&addr, json!("sochi"), 3, true).await;
    let mut players = Players::new();
    for t in &info.tokens {
        let mut w = connect(&addr, &info.id, Some(t), "").await;
        until(&mut w, |m| m["type"] == "snapshot").await;
        players.ws.push(w);
    }
    // Fresh snapshots, after which each socket's stream is all new.
    let snaps = snapshots(&mut players.ws).await;
    for (i, s) in snaps.iter().enumerate() {
        if s["turn"]["to_act"].as_u64() == Some(i as u64) {
            players.to_act = Some(i);
            players.legal = serde_json::from_value(s["turn"]["legal"].clone()).unwrap();
        }
        players.version = s["version"].as_u64().unwrap();
    }
    let mut rng = StdRng::seed_from_u64(11);
    while !players.finished {
        players.step(&mut rng).await;
    }
    let base = format!("/api/tables/{}", info.id);
    let (status, record) = http(&addr, "GET", &format!("{base}/record"), None, None).await;
    assert_eq!(status, 200);
    assert_eq!(record["deals"].as_array().unwrap().len(), 1, "{record}");

    let (status, body) = http(
        &addr,
        "POST",
        &format!("{base}/seats/1/remove"),
        None,
        Some(&info.host),
    )
    .await;
    assert_eq!(
        (status, body["seats"][1]["name"].clone()),
        (200, Value::Null),
        "{body}"
    );
    let old = &mut players.ws[1];
    let freed = until(old, |m| m["event"]["kind"] == "seat_freed").await;
    assert_eq!(freed["event"]["seat"], 1);
    assert!(
        next_json(old).await.is_none(),
        "the removed player's socket stays open"
    );
    let url = format!("ws://{addr}/api/tables/{}/ws", info.id);
    assert!(
        tokio_tungstenite::connect_async(ws_request(&url, Some(&info.tokens[1])))
            .await
            .is_err(),
        "the old token still works"
    );

    let version =
        until(&mut players.ws[0], |m| m["event"]["kind"] == "seat_freed").await["version"]
            .as_u64()
            .unwrap();
    send(
        &mut players.ws[0],
        json!({"type": "next_deal", "id": "n", "version": version}),
    )
    .await;
    let m = until(&mut players.ws[0], |m| m["type"] == "rejected").await;
    assert_eq!(m["reason"], "seats_free");

    let seat = json!({"name": "Gleb", "seat": 1});
    let (status, _) = http(&addr, "POST", &format!("{base}/seats"), Some(&seat), None).await;
    assert_eq!(
        status, 403,
        "only the host seats a player once the game has started"
    );
    let (status, body) = http(
        &addr,
        "POST",
        &format!("{base}/seats"),
        Some(&seat),
        Some(&info.host),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let mut gleb = connect(&addr, &info.id, body["token"].as_str(), "").await;
    let snap = until(&mut gleb, |m| m["type"] == "snapshot").await;
    assert_eq!(snap["table"]["seats"][1]["name"], "Gleb");
    let version = snap["version"].as_u64().unwrap();
    send(
        &mut players.ws[0],
        json!({"type": "next_deal", "id": "n2", "version": version}),
    )
    .await;
    until(&mut players.ws[0], |m| m["type"] == "ack").await;
    let dealt = until(&mut gleb, |m| m["event"]["event"]["type"] == "dealt").await;
    assert_eq!(dealt["event"]["deal_no"], 1);
    assert_eq!(
        dealt["event"]["event"]["hand"].as_array().unwrap().len(),
        10
    );
}
