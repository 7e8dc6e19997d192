//! Complete games over real WebSockets with random legal actions: every preset, three and
//! four players, dark games and the no-talon calls too, a spectator attached. After every message each client checks that it
//! holds no card it could not see at that moment, judged against the deck and the actions
//! the server stored (an independent replay through the rules, not the server's projection).
//! Players claim now and then at a trick boundary on their turn, with random splits, and
//! answer claims at random (R6.7): from a claim on every viewer sees the claimer's hand,
//! and nothing else.
//! The fair-deal values follow the same rule (`docs/fairness.md`): no message carries a
//! deal's server seed (read from the database) before that deal's `fair_revealed`, which
//! comes only once the deal is finished and its cards may be seen by everybody; and a deal
//! the client saw open has its deck commitment before its first card.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::*;
use pref_core::{Action, CardSet, Claim, ClaimRoom, DealView, Seat, ViewEvent, Viewer};
use pref_protocol::ServerMessage;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// Claims sent, and claims every player accepted (seen by the spectators), in all games.
static CLAIMS: AtomicUsize = AtomicUsize::new(0);
static ACCEPTED: AtomicUsize = AtomicUsize::new(0);

/// Per-client bookkeeping.
struct Client {
    ws: Ws,
    viewer: Viewer,
    truth: Arc<Truth>,
    rng: StdRng,
    /// Last version seen.
    version: u64,
    /// The deal being watched, its dealer, and action batches completed in it.
    deal: Option<(u32, Seat, usize)>,
    /// Seat 0 starts each next deal up to a cap and reports how the game ended: `true`
    /// when the last pool closed, `false` when the cap was reached.
    driver: Option<(u32, mpsc::UnboundedSender<bool>)>,
    /// Messages checked.
    checked: usize,
    /// The server seeds of the deals opened and not yet revealed, by deal.
    seeds: BTreeMap<u32, String>,
    /// Deals whose deck commitment arrived.
    decks: BTreeSet<u32>,
    /// Deals finished.
    finished: BTreeSet<u32>,
}

impl Client {
    fn check(&self, what: &str, cards: CardSet, allowed: CardSet, m: &Value) {
        let extra = CardSet(cards.0 & !allowed.0);
        assert!(
            extra.is_empty(),
            "{:?} received {extra} in a {what} it could not see: {m}",
            self.viewer
        );
    }

    async fn allowed_after(&self, deal_no: u32, dealer: Seat, k: usize) -> CardSet {
        let (deck, actions) = self.truth.deal(deal_no).await;
        assert!(
            k <= actions.len(),
            "item of action {k} before it was stored"
        );
        let streak = self.truth.raspasy_before(deal_no).await;
        let (_, events) = self.truth.replay(dealer, &deck, &actions, k, streak);
        allowed(self.viewer, &events)
    }

    /// The player to act, the viewer's legal actions, and a claim the viewer may make on
    /// his own turn (R6.7), now and then.
    fn turn(&mut self, m: &Value) -> (Option<Seat>, Vec<Action>) {
        let t = &m["turn"];
        let to_act: Option<Seat> = serde_json::from_value(t["to_act"].clone()).unwrap();
        let mut legal: Vec<Action> = serde_json::from_value(t["legal"].clone()).unwrap();
        let room: Option<ClaimRoom> = serde_json::from_value(t["claim"].clone()).unwrap();
        if Some(self.viewer) != to_act.map(Viewer::Seat) {
            assert!(
                legal.is_empty(),
                "legal actions sent to a viewer not to act: {m}"
            );
            // Claims are made on the claimer's own turn here, so that they never race a
            // card; a claim out of turn goes through the same path (tests/claims.rs).
            return (to_act, legal);
        }
        if let Some(room) = room
            && self.rng.gen_ratio(1, 4)
        {
            legal = vec![Action::Claim(random_claim(&mut self.rng, room))];
            CLAIMS.fetch_add(1, Ordering::Relaxed);
        }
        (to_act, legal)
    }

    /// Plays until the game is over; returns the number of messages checked.
    async fn run(mut self) -> usize {
        loop {
            let Some(m) = next_json(&mut self.ws).await else {
                panic!("{:?}: socket closed before the game ended", self.viewer)
            };
            self.checked += 1;
            // Every message is exactly one of the protocol's, with no field left over.
            let _: ServerMessage = strict(&m);
            self.fair(&m).await;
            match m["type"].as_str().unwrap() {
                "snapshot" => self.snapshot(&m).await,
                "event" => {
                    if self.event(&m).await {
                        return self.checked;
                    }
                }
                "ack" => {}
                other => panic!("{:?}: unexpected {other}: {m}", self.viewer),
            }
        }
    }

    /// The fair-deal values of one message: seeds learnt as deals open, revealed only when
    /// the deal's cards may be seen, and never sent before.
    async fn fair(&mut self, m: &Value) {
        let e = &m["event"];
        let mut opened: Vec<u32> = Vec::new();
        if m["type"] == "snapshot" {
            let f = &m["fair"];
            opened.extend(f["window"]["deal_no"].as_u64().map(|n| n as u32));
            for d in f["dealt"].as_array().into_iter().flatten() {
                opened.push(d["deal_no"].as_u64().unwrap() as u32);
                self.decks.insert(d["deal_no"].as_u64().unwrap() as u32);
            }
        }
        let deal_no = e["deal_no"].as_u64().map(|n| n as u32);
        match (e["kind"].as_str().unwrap_or(""), deal_no) {
            ("fair_seed", Some(n)) => opened.push(n),
            ("fair_deck", Some(n)) => {
                self.decks.insert(n);
            }
            ("deal_finished", Some(n)) => {
                self.finished.insert(n);
            }
            ("fair_revealed", Some(n)) => {
                let reveal = self.truth.profile().reveal_after_deal();
                assert!(
                    self.finished.contains(&n) && reveal,
                    "{:?}: deal {n}'s values before its cards may be seen: {m}",
                    self.viewer
                );
                let seed = self.seeds.remove(&n);
                assert_eq!(e["fairness"]["server_seed"].as_str(), seed.as_deref());
            }
            ("deal", Some(n)) if e["event"]["type"] == "dealt" && self.seeds.contains_key(&n) => {
                assert!(
                    self.decks.contains(&n),
                    "{:?}: deal {n}'s first card before its deck commitment: {m}",
                    self.viewer
                );
            }
            _ => {}
        }
        for n in opened {
            let seed = self.truth.seed(n).await;
            self.seeds.insert(n, seed);
        }
        let text = m.to_string();
        for (n, seed) in &self.seeds {
            assert!(
                !text.contains(seed.as_str()),
                "{:?}: deal {n}'s seed sent before its cards may be seen: {m}",
                self.viewer
            );
        }
    }

    async fn snapshot(&mut self, m: &Value) {
        self.version = m["version"].as_u64().unwrap();
        if m["deal"].is_null() {
            assert!(m["turn"]["legal"].as_array().unwrap().is_empty());
            return;
        }
        let view: DealView = strict(&m["deal"]);
        let deal_no = m["deal_no"].as_u64().unwrap() as u32;
        // The snapshot must be the core's view of the deal after some prefix of the stored
        // actions; the cards it may hold are judged at that prefix.
        let (k, ok) = self
            .truth
            .matching(deal_no, self.viewer, &view)
            .await
            .unwrap_or_else(|| panic!("snapshot matches no stored state: {m}"));
        self.check("snapshot", view.cards(), ok, m);
        // A pending claim shows the claimer's hand to everybody (R6.7).
        if let Some(c) = view.claim.as_ref().filter(|c| c.to_answer.is_some()) {
            assert!(
                view.open_hands[c.seat.index()].is_some() || view.hand_sizes[c.seat.index()] == 0,
                "{:?}: a pending claim without the claimer's hand: {m}",
                self.viewer
            );
        }
        let (_, legal) = self.turn(m);
        self.check("snapshot's legal actions", action_cards(&legal), ok, m);
        self.deal = Some((deal_no, view.dealer, k));
        self.act(&legal).await;
    }

    /// Handles one event; `true` once the game is over.
    async fn event(&mut self, m: &Value) -> bool {
        let version = m["version"].as_u64().unwrap();
        assert_eq!(
            version,
            self.version + 1,
            "{:?}: gap before {m}",
            self.viewer
        );
        self.version = version;
        let has_turn = m.get("turn").is_some();
        let e = &m["event"];
        if e.is_null() {
            assert_eq!(self.viewer, Viewer::Spectator, "stub to a player: {m}");
            assert!(!has_turn);
            return false;
        }
        let mut over = false;
        if e["kind"] == "deal" {
            let event: ViewEvent = strict(&e["event"]);
            if self.viewer == Viewer::Spectator && matches!(event, ViewEvent::ClaimAccepted { .. })
            {
                ACCEPTED.fetch_add(1, Ordering::Relaxed);
            }
            let deal_no = e["deal_no"].as_u64().unwrap() as u32;
            let k = if let ViewEvent::Dealt { dealer, .. } = event {
                self.deal = Some((deal_no, dealer, 0));
                0
            } else {
                let (d, dealer, done) = self.deal.expect("deal event before the deal");
                assert_eq!(d, deal_no);
                if has_turn {
                    self.deal = Some((d, dealer, done + 1));
                }
                done + 1
            };
            let (_, dealer, _) = self.deal.unwrap();
            let ok = self.allowed_after(deal_no, dealer, k).await;
            self.check("deal event", event.cards(), ok, m);
        } else {
            let kind = e["kind"].as_str().unwrap();
            if has_turn && let Some((d, dealer, done)) = self.deal {
                self.deal = Some((d, dealer, done + 1));
            }
            match kind {
                "deal_finished" => {
                    if let Some((target, done)) = &self.driver {
                        let deal_no = e["deal_no"].as_u64().unwrap() as u32;
                        if e["game_over"] == true {
                            done.send(true).unwrap();
                        } else if deal_no + 1 < *target {
                            let id = format!("next-{deal_no}");
                            send(
                                &mut self.ws,
                                json!({"type": "next_deal", "id": id, "version": self.version}),
                            )
                            .await;
                        } else {
                            done.send(false).unwrap();
                        }
                    }
                }
                "game_over" => over = true,
                _ => {}
            }
        }
        if has_turn {
            let (_, legal) = self.turn(m);
            if let Some((d, dealer, done)) = self.deal {
                let ok = self.allowed_after(d, dealer, done).await;
                self.check("legal actions", action_cards(&legal), ok, m);
            }
            self.act(&legal).await;
        }
        over
    }

    async fn act(&mut self, legal: &[Action]) {
        if let Some(a) = legal.choose(&mut self.rng) {
            let id = format!("a{}", self.version);
            send(
                &mut self.ws,
                json!({"type": "action", "id": id, "version": self.version, "action": a}),
            )
            .await;
            if self.rng.gen_ratio(1, 20) {
                send(&mut self.ws, json!({"type": "chat", "text": "hm"})).await;
            }
        }
    }
}

/// A random split of the tricks left that `room` allows: any entries summing to
/// `tricks_left`, a four-player dealer's 0.
fn random_claim(rng: &mut StdRng, room: ClaimRoom) -> Claim {
    let mut entries = vec![0u8; usize::from(room.seats)];
    let takers: Vec<usize> = (0..entries.len())
        .filter(|&s| room.dealer != Some(Seat(s as u8)))
        .collect();
    for _ in 0..room.tricks_left {
        entries[*takers.choose(rng).unwrap()] += 1;
    }
    Claim::new(&entries).unwrap()
}

/// Plays `deals` deals at one table and ends the game by agreement.
async fn play(
    addr: &str,
    dir: &std::path::Path,
    profile: Value,
    deals: u32,
    connect_late: bool,
    seed: u64,
) -> (usize, bool) {
    let p = pref_core::Profile::from_json(&profile).unwrap();
    let players = p.players();
    let info = table(addr, profile, players, connect_late).await;
    let truth = Arc::new(Truth::open(dir, &info.id, p).await);
    let (done_tx, mut done_rx) = mpsc::unbounded_channel();
    let mut tasks = Vec::new();
    let mut viewers: Vec<(Viewer, Option<String>)> = info
        .tokens
        .iter()
        .enumerate()
        .map(|(i, t)| (Viewer::Seat(Seat(i as u8)), Some(t.clone())))
        .collect();
    viewers.push((Viewer::Spectator, None));
    for (i, (viewer, token)) in viewers.into_iter().enumerate() {
        let ws = connect(addr, &info.id, token.as_deref(), "").await;
        let client = Client {
            ws,
            viewer,
            truth: truth.clone(),
            rng: StdRng::seed_from_u64(seed * 10 + i as u64),
            version: 0,
            deal: None,
            driver: (i == 0).then(|| (deals, done_tx.clone())),
            checked: 0,
            seeds: BTreeMap::new(),
            decks: BTreeSet::new(),
            finished: BTreeSet::new(),
        };
        tasks.push(tokio::spawn(client.run()));
    }
    drop(done_tx);
    if !connect_late {
        let (status, body) = http(
            addr,
            "POST",
            &format!("/api/tables/{}/start", info.id),
            None,
            Some(&info.host),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    // A client that panics drops its sender; the game then ends here instead of hanging.
    let natural = done_rx
        .recv()
        .await
        .expect("a client failed before the last deal ended");
    if !natural {
        // Every seat is a person's, so the host's end is a proposal each accepts (R10.3).
        let seats: Vec<(u8, &str)> = (0u8..)
            .zip(info.tokens.iter().map(String::as_str))
            .collect();
        let body = end_game(addr, &info.id, &info.host, &seats).await;
        assert_eq!(body["settlement"]["agreed"], true, "{body}");
    }
    let mut checked = 0;
    for t in tasks {
        checked += t.await.unwrap();
    }
    // The whole game as a record, read back strictly by the core.
    let record = record(addr, &info.id).await;
    assert!(!record.deals().is_empty());
    // What `pref verify` checks: every deal has fairness data, checked as the record is read.
    for i in 0..record.deals().len() {
        assert!(
            record.fairness(i).is_some(),
            "deal {i} has no fairness data"
        );
    }
    assert_eq!(record.agreed_stop(), !natural);
    (checked, natural)
}

/// Small pools so that random play closes them within a few deals.
fn short(preset: &str, extra: Value) -> Value {
    let mut v = json!({"preset": preset, "pool_target": 1});
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_games_leak_no_card() {
    // Random players answer at machine speed, far above a person's pace: the per-connection
    // rate limit (tested in bad_input.rs) is lifted so it cannot drop their moves.
    let (addr, dir) = server("random", |c| {
        c.limits.messages_per_second = 10_000;
        c.limits.message_burst = 10_000;
    })
    .await;
    let none = json!({});
    let configs = [
        (short("sochi", none.clone()), false),
        (short("leningrad", none.clone()), false),
        (short("rostov", none.clone()), true),
        (short("sochi4", none.clone()), false),
        (
            short(
                "sochi4",
                json!({"reveal_after_deal": false, "must_overtake": true}),
            ),
            true,
        ),
        (
            short(
                "sochi",
                json!({"reveal_after_deal": false, "stalingrad": true}),
            ),
            false,
        ),
        (short("leningrad", json!({"players": 4})), false),
        (
            short("rostov", json!({"half_whist": false, "ten_whisted": false})),
            false,
        ),
        // Closed hands, looks and dark calls, misère and nine without talon (R2.3, R3.9, R3.10).
        (
            short(
                "sochi",
                json!({"dark_games": true, "misere_without_talon": true}),
            ),
            false,
        ),
        (
            short(
                "sochi4",
                json!({"dark_games": true, "misere_without_talon": true, "reveal_after_deal": false}),
            ),
            true,
        ),
    ];
    let mut games = Vec::new();
    for (i, (profile, late)) in configs.into_iter().enumerate() {
        let addr = addr.clone();
        let dir = dir.clone();
        games.push(tokio::spawn(async move {
            play(&addr, &dir, profile, 10, late, i as u64).await
        }));
    }
    let (mut total, mut natural) = (0, 0);
    for g in games {
        let (checked, ended) = g.await.unwrap();
        total += checked;
        natural += usize::from(ended);
    }
    eprintln!("checked {total} messages; {natural} games closed their pools");
    assert!(total > 1000, "only {total} messages checked");
    let (claims, accepted) = (
        CLAIMS.load(Ordering::Relaxed),
        ACCEPTED.load(Ordering::Relaxed),
    );
    eprintln!("{claims} claims, {accepted} accepted by all");
    assert!(
        claims > 10 && accepted > 0,
        "{claims} claims, {accepted} accepted"
    );
}
