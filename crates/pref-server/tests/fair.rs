//! Provably fair deals over the real protocol (`docs/fairness.md`): the seed commitment and
//! the deck commitment reach every viewer before any card of the deal; a seat's
//! contribution changes the deck; a late one is recorded as late, left out and said so; the
//! seed is never sent before the deal's cards may be seen; a restart in the contribution
//! window keeps the same commitment; and every record the server writes verifies. The
//! restart and the bots' table run on SQLite and, with `PREF_TEST_POSTGRES_URL`, PostgreSQL.

mod common;

use common::*;
use pref_core::fair::{Arrival, Contributed, Contribution, Place, Scheme, Seed, TableTag};
use pref_core::{Action, Record, Seat};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::{Value, json};

/// Deal `deal`'s deck at table `id` (`pref-fair/2`, the scheme the server deals under).
fn shuffle(
    id: &str,
    deal: u32,
    seed: &Seed,
    contributions: &[Contributed],
) -> [pref_core::Card; 32] {
    let place = Place {
        table: TableTag::of(id),
        deal,
    };
    pref_core::fair::shuffle(&Scheme::V2(place), seed, contributions)
}

/// Table `id`'s record as `pref verify` checks it: the record reads (every fairness object
/// recomputed and checked against the deal's cards) and every deal has fairness data.
async fn verified(addr: &str, id: &str) -> Record {
    let record = record(addr, id).await;
    for i in 0..record.deals().len() {
        assert!(record.fairness(i).is_some(), "deal {i} has fairness data");
    }
    record
}

/// A table with a person in seat 0 and bots in 1 and 2; returns id, host and seat token.
async fn one_person(addr: &str) -> (String, String, String) {
    let profile = json!({"preset": "sochi", "pool_target": 10, "reveal_after_deal": true});
    let (id, host) = lobby(addr, profile).await;
    let (status, seat) = http(
        addr,
        "POST",
        &format!("/api/tables/{id}/seats"),
        Some(&json!({ "name": "Anna", "invite": invite(&host) })),
        None,
    )
    .await;
    assert_eq!(status, 200, "{seat}");
    seat_bots(addr, &id, &host, &[1, 2], "easy").await;
    let token = seat["token"].as_str().unwrap().to_owned();
    (id, host, token)
}

/// Seat 0's socket, having said that its client contributes to every deal.
async fn joined(addr: &str, id: &str, token: &str) -> Ws {
    let mut player = connect(addr, id, Some(token), "").await;
    until(&mut player, |m| m["type"] == "snapshot").await;
    send(&mut player, json!({"type": "fair_join"})).await;
    // The join has no answer; a resync's snapshot after it shows that it arrived.
    send(&mut player, json!({"type": "resync"})).await;
    until(&mut player, |m| m["type"] == "snapshot").await;
    player
}

/// Every message a socket reads until `stop` holds for one; all of them, in order.
async fn read_until(ws: &mut Ws, stop: impl Fn(&Value) -> bool) -> Vec<Value> {
    let mut out = Vec::new();
    loop {
        let m = next_json(ws).await.expect("socket closed");
        let done = stop(&m);
        out.push(m);
        if done {
            return out;
        }
    }
}

fn kind(m: &Value) -> &str {
    m["event"]["kind"].as_str().unwrap_or("")
}

/// Plays seat 0 at random until deal `deal_no`'s values are revealed; returns every message.
async fn play_until_revealed(ws: &mut Ws, rng: &mut StdRng, deal_no: u64) -> Vec<Value> {
    let mut seen = Vec::new();
    let mut n = 0;
    loop {
        let m = next_json(ws).await.expect("socket closed");
        seen.push(m.clone());
        if kind(&m) == "fair_revealed" && m["event"]["deal_no"] == deal_no {
            return seen;
        }
        if m["turn"]["to_act"].as_u64() == Some(0) {
            let legal: Vec<Action> = serde_json::from_value(m["turn"]["legal"].clone()).unwrap();
            if let Some(action) = legal.choose(rng) {
                n += 1;
                let id = format!("a{n}");
                let msg =
                    json!({"type": "action", "id": id, "version": m["version"], "action": action});
                send(ws, msg).await;
            }
        }
    }
}

/// The position of the first message matching `pred`.
fn first(msgs: &[Value], pred: impl Fn(&Value) -> bool) -> usize {
    msgs.iter()
        .position(pred)
        .unwrap_or_else(|| panic!("no such message in {msgs:#?}"))
}

/// A deal item that carries cards to this viewer.
fn has_cards(m: &Value) -> bool {
    m["type"] == "event" && m["event"]["kind"] == "deal"
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commitments_come_before_any_card_and_a_contribution_changes_the_deck() {
    let addr = quick_server("fair-wire").await;
    let (id, host, token) = one_person(&addr).await;
    let mut spectator = connect(&addr, &id, None, "").await;
    until(&mut spectator, |m| m["type"] == "snapshot").await;
    let mut player = joined(&addr, &id, &token).await;
    start_table(&addr, &id, &host).await;

    let value = Contribution::from_bytes([0x5a; 32]);
    let mine = value.commitment(Seat(0)).to_string();
    let opened = read_until(&mut player, |m| kind(m) == "fair_seed").await;
    assert!(
        !opened.iter().any(has_cards),
        "no card before the seed commitment"
    );
    let seed_commitment = opened.last().unwrap()["event"]["seed_commitment"].clone();
    assert_eq!(
        opened.last().unwrap()["event"]["seats"],
        json!([0]),
        "bots are not asked"
    );
    send(
        &mut player,
        json!({"type": "fair_commit", "id": "c", "deal_no": 0, "commitment": mine}),
    )
    .await;
    let listed = read_until(&mut player, |m| kind(m) == "fair_commitments").await;
    assert!(
        !listed.iter().any(has_cards),
        "no card before the commitments close"
    );
    assert_eq!(
        listed.last().unwrap()["event"]["commitments"],
        json!([{"seat": 0, "commitment": mine}])
    );
    send(
        &mut player,
        json!({"type": "fair_reveal", "id": "r", "deal_no": 0, "value": value.to_string()}),
    )
    .await;
    let mut rng = StdRng::seed_from_u64(19);
    let mut msgs = play_until_revealed(&mut player, &mut rng, 0).await;
    msgs.splice(0..0, listed);
    msgs.splice(0..0, opened);
    let acks: Vec<&Value> = msgs
        .iter()
        .filter(|m| m["type"] == "ack" || m["type"] == "rejected")
        .collect();
    assert!(
        acks.iter()
            .filter(|m| m["id"] == "c" || m["id"] == "r")
            .all(|m| m["type"] == "ack"),
        "{acks:#?}"
    );

    // On the wire: the seed commitment, then the deck commitment, then the first card; and
    // the same for the spectator.
    let spectated = read_until(&mut spectator, |m| kind(m) == "fair_revealed").await;
    for seen in [&msgs, &spectated] {
        let seed_at = first(seen, |m| kind(m) == "fair_seed");
        let deck_at = first(seen, |m| kind(m) == "fair_deck");
        let card_at = first(seen, has_cards);
        assert!(
            seed_at < deck_at && deck_at < card_at,
            "{seed_at} {deck_at} {card_at}"
        );
    }
    let deck_commitment = msgs[first(&msgs, |m| kind(m) == "fair_deck")]["event"].clone();
    assert_eq!(
        deck_commitment["seats"],
        json!([0]),
        "the contribution is in the deck"
    );

    // The revealed values: the commitments published, the seat's own value in time, and a
    // deck that is not the one the server seed alone gives.
    let f = &msgs.last().unwrap()["event"]["fairness"];
    // Dealt under pref-fair/2, at this table (its tag) as its first deal.
    assert_eq!(f["scheme"], "pref-fair/2");
    assert_eq!(f["table"], TableTag::of(&id).to_string());
    assert_eq!(f["deal"], 0);
    assert_eq!(f["seed_commitment"], seed_commitment);
    assert_eq!(f["deck_commitment"], deck_commitment["deck_commitment"]);
    assert_eq!(
        f["contributions"],
        json!([{"seat": 0, "value": value.to_string()}])
    );
    let seed: Seed = f["server_seed"].as_str().unwrap().parse().unwrap();
    let with = shuffle(
        &id,
        0,
        &seed,
        &[Contributed {
            seat: Seat(0),
            value,
            arrival: Arrival::InTime,
        }],
    );
    let without = shuffle(&id, 0, &seed, &[]);
    let deck: Vec<String> = with.iter().map(ToString::to_string).collect();
    assert_eq!(f["deck"].as_str().unwrap(), deck.join(" "));
    assert_ne!(with, without, "the seat's contribution changes the deck");

    // The seed is nowhere on either socket before it is revealed.
    for seen in [&msgs, &spectated] {
        let before = &seen[..seen.len() - 1];
        let text = serde_json::to_string(before).unwrap();
        assert!(
            !text.contains(&seed.to_string()),
            "the seed is sent before the reveal"
        );
    }

    let record = verified(&addr, &id).await;
    assert_eq!(record.fairness(0).unwrap().server_seed(), seed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_contribution_is_recorded_as_late_left_out_and_said_so() {
    let (addr, _) = server("fair-late", |c| {
        c.limits.bot_delay_min_ms = pref_server::config::Millis(0);
        c.limits.bot_delay_max_ms = pref_server::config::Millis(0);
        c.limits.fair_window_ms = pref_server::config::Millis(300);
        c.limits.messages_per_second = 1000;
        c.limits.message_burst = 1000;
    })
    .await;
    let (id, host, token) = one_person(&addr).await;
    let mut player = joined(&addr, &id, &token).await;
    start_table(&addr, &id, &host).await;
    until(&mut player, |m| kind(m) == "fair_seed").await;
    let value = Contribution::from_bytes([0x33; 32]);
    let mine = value.commitment(Seat(0)).to_string();
    send(
        &mut player,
        json!({"type": "fair_commit", "id": "c", "deal_no": 0, "commitment": mine}),
    )
    .await;
    // The value is held back until the deadline has fixed the deck without it.
    let fixed = read_until(&mut player, |m| kind(m) == "fair_deck").await;
    assert_eq!(fixed.last().unwrap()["event"]["seats"], json!([]));
    send(
        &mut player,
        json!({"type": "fair_reveal", "id": "late", "deal_no": 0, "value": value.to_string()}),
    )
    .await;
    let answer = until(&mut player, |m| m["id"] == "late").await;
    assert_eq!(answer["type"], "rejected", "{answer}");
    assert_eq!(answer["reason"], "late", "{answer}");
    // The deal may have reached seat 0's turn while the answer was awaited: a snapshot
    // brings the turn back.
    send(&mut player, json!({"type": "resync"})).await;
    let mut rng = StdRng::seed_from_u64(20);
    let msgs = play_until_revealed(&mut player, &mut rng, 0).await;
    let f = &msgs.last().unwrap()["event"]["fairness"];
    assert_eq!(
        f["contributions"],
        json!([{"seat": 0, "value": value.to_string(), "late": true}])
    );
    let seed: Seed = f["server_seed"].as_str().unwrap().parse().unwrap();
    let deck: Vec<String> = shuffle(&id, 0, &seed, &[])
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        f["deck"].as_str().unwrap(),
        deck.join(" "),
        "the late value is not in the deck"
    );
    let record = verified(&addr, &id).await;
    assert_eq!(
        record.fairness(0).unwrap().late().collect::<Vec<_>>(),
        [Seat(0)]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_of_bots_does_not_wait_and_its_record_verifies() {
    bots_do_not_wait_and_the_record_verifies(&quick_server("fair-bots").await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgresql_a_table_of_bots_does_not_wait_and_its_record_verifies() {
    let Some(url) = postgres("fair_bots").await else {
        return;
    };
    let (addr, _) = server("fair-bots-pg", |c| {
        c.database = Some(url);
        c.limits.bot_delay_min_ms = pref_server::config::Millis(0);
        c.limits.bot_delay_max_ms = pref_server::config::Millis(0);
        c.limits.messages_per_second = 1000;
        c.limits.message_burst = 1000;
    })
    .await;
    bots_do_not_wait_and_the_record_verifies(&addr).await;
}

/// Three bots play three deals on the server at `addr` without waiting for contributions,
/// the deck's commitment comes before the first card, and the record verifies.
async fn bots_do_not_wait_and_the_record_verifies(addr: &str) {
    let addr = addr.to_owned();
    let t = std::time::Instant::now();
    let profile = json!({"preset": "sochi", "pool_target": 4});
    let (id, host) = lobby(&addr, profile).await;
    for s in [0, 1, 2] {
        let path = format!("/api/tables/{id}/seats/{s}/bot");
        let (status, body) = http(
            &addr,
            "POST",
            &path,
            Some(&json!({"level": "easy"})),
            Some(&host),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    let mut spectator = connect(&addr, &id, None, "").await;
    start_table(&addr, &id, &host).await;
    let seen = read_until(&mut spectator, |m| {
        kind(m) == "game_over" || kind(m) == "fair_revealed" && m["event"]["deal_no"] == 2
    })
    .await;
    assert!(first(&seen, |m| kind(m) == "fair_deck") < first(&seen, has_cards));
    assert!(t.elapsed() < std::time::Duration::from_secs(60));
    let (status, body) = http(
        &addr,
        "POST",
        &format!("/api/tables/{id}/end"),
        None,
        Some(&host),
    )
    .await;
    assert!(status == 200 || status == 409, "{body}");
    let record = verified(&addr, &id).await;
    assert!(record.deals().len() >= 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_in_the_window_keeps_the_seed_commitment() {
    a_restart_keeps_the_seed_commitment(&[]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgresql_a_restart_in_the_window_keeps_the_seed_commitment() {
    let Some(url) = postgres("fair_restart").await else {
        return;
    };
    // The killed process keeps the table's lease until it runs out; a short lease keeps the
    // wait short.
    let env = [
        ("PREF_DATABASE_URL", url.as_str()),
        ("PREF_LEASE_MS", "2000"),
    ];
    a_restart_keeps_the_seed_commitment(&env).await;
}

/// The server binary (with `store` naming its database, SQLite when empty) is killed inside
/// deal 0's contribution window and started again: the same seed commitment, commitments
/// and window come back, the deal completes with seat 0's value, and the record verifies.
async fn a_restart_keeps_the_seed_commitment(store: &[(&str, &str)]) {
    let dir = temp_dir("fair-restart");
    let mut env = vec![
        ("PREF_FAIR_WINDOW_MS", "60000"),
        ("PREF_BOT_DELAY_MIN_MS", "0"),
        ("PREF_BOT_DELAY_MAX_MS", "0"),
        ("PREF_MESSAGES_PER_SECOND", "1000"),
        ("PREF_MESSAGE_BURST", "1000"),
    ];
    env.extend_from_slice(store);
    let (mut child, addr) = spawn_binary(&dir, &env);
    let (id, host, token) = one_person(&addr).await;
    let mut player = joined(&addr, &id, &token).await;
    start_table(&addr, &id, &host).await;
    let opened = until(&mut player, |m| kind(m) == "fair_seed").await;
    let commitment = opened["event"]["seed_commitment"].clone();
    let value = Contribution::from_bytes([0x77; 32]);
    let mine = value.commitment(Seat(0)).to_string();
    send(
        &mut player,
        json!({"type": "fair_commit", "id": "c", "deal_no": 0, "commitment": mine}),
    )
    .await;
    until(&mut player, |m| kind(m) == "fair_commitments").await;
    child.kill().unwrap();
    child.wait().unwrap();

    let (mut child, addr) = spawn_binary(&dir, &env);
    // On PostgreSQL the table is served again once the killed process's lease has run out.
    let url = format!("ws://{addr}/api/tables/{id}/ws");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let mut player = loop {
        match tokio_tungstenite::connect_async(ws_request(&url, Some(&token))).await {
            Ok((ws, _)) => break ws,
            Err(e) => assert!(std::time::Instant::now() < deadline, "no restore: {e}"),
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    };
    let snap = until(&mut player, |m| m["type"] == "snapshot").await;
    let window = &snap["fair"]["window"];
    assert_eq!(window["seed_commitment"], commitment, "{snap}");
    assert_eq!(window["revealing"], true);
    assert_eq!(
        window["commitments"],
        json!([{"seat": 0, "commitment": mine}])
    );
    assert!(snap["deal"].is_null(), "nothing dealt yet");
    send(
        &mut player,
        json!({"type": "fair_reveal", "id": "r", "deal_no": 0, "value": value.to_string()}),
    )
    .await;
    let mut rng = StdRng::seed_from_u64(21);
    let msgs = play_until_revealed(&mut player, &mut rng, 0).await;
    let f = &msgs.last().unwrap()["event"]["fairness"];
    assert_eq!(
        f["seed_commitment"], commitment,
        "the commitment never changes"
    );
    assert_eq!(
        f["contributions"],
        json!([{"seat": 0, "value": value.to_string()}])
    );
    verified(&addr, &id).await;
    child.kill().unwrap();
    child.wait().unwrap();
}
