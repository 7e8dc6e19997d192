//! Practice tables over the real protocol: a table opened with `"practice": true` says so in
//! its summary, a seated player asks for a hint on his card-play turn and gets the strong
//! bot's card (one of his legal cards) with its alternatives and reasons, the per-deal budget
//! (`limits.hints_per_deal`) refuses the next one with `hints_spent`, a table that is not a
//! practice table refuses with `not_practice`, and the record carries the practice mark and
//! the deal's hint counts.

mod common;

use common::*;
use serde_json::{Value, json};

/// A started game: a person in seat 0 and easy bots in seats 1 and 2, practice or not; its
/// id and the person's token.
async fn opened(addr: &str, practice: bool) -> (String, String) {
    let profile = json!({"preset": "sochi", "pool_target": 1000, "reveal_after_deal": true});
    let (status, created) = http(
        addr,
        "POST",
        "/api/tables",
        Some(&json!({ "profile": profile, "practice": practice })),
        None,
    )
    .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(
        created["table"]["practice"].as_bool().unwrap_or(false),
        practice
    );
    let (id, host) = (
        created["id"].as_str().unwrap().to_owned(),
        created["host_token"].as_str().unwrap().to_owned(),
    );
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
    start_table(addr, &id, &host).await;
    (id, seat["token"].as_str().unwrap().to_owned())
}

/// Plays Anna's first legal action at every turn until she has a card to choose among two
/// or more after her fourth card of a deal (then returns that message), across deals. (The
/// tests run unoptimised: later in a deal a hint's search is small.)
async fn until_card_choice(ws: &mut Ws) -> Value {
    let mut played = 0;
    loop {
        let m = until(ws, |m| m["type"] == "event" || m["type"] == "snapshot").await;
        let e = &m["event"]["event"];
        if e["type"] == "dealt" {
            played = 0;
        }
        if e["type"] == "played" && e["seat"] == 0 {
            played += 1;
        }
        let legal = m["turn"]["legal"].as_array().cloned().unwrap_or_default();
        let cards = legal.iter().filter(|a| a.get("play").is_some()).count();
        if cards >= 2 && cards == legal.len() && played >= 4 {
            return m;
        }
        if m["event"]["event"]["type"] == "deal_over" || m["type"] == "snapshot" {
            let next = json!({"type": "next_deal", "id": "n", "version": m["version"]});
            if m["phase"] == "between_deals" || m["event"]["event"]["type"] == "deal_over" {
                send(ws, next).await;
                continue;
            }
        }
        if let Some(action) = legal.first() {
            let msg =
                json!({"type": "action", "id": "a", "version": m["version"], "action": action});
            send(ws, msg).await;
        }
    }
}

async fn answer(ws: &mut Ws, id: &str) -> Value {
    until(ws, |m| {
        m["id"] == id && (m["type"] == "hint" || m["type"] == "rejected")
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_practice_seat_gets_a_hint_on_its_turn_within_its_budget() {
    let (addr, _) = server("practice", |c| {
        c.limits.bot_delay_min_ms = pref_server::config::Millis(0);
        c.limits.bot_delay_max_ms = pref_server::config::Millis(0);
        c.limits.messages_per_second = 1000;
        c.limits.message_burst = 1000;
        c.limits.hints_per_deal = 1;
        // The tests run unoptimised: a small search.
        c.limits.hint_nodes = 300_000;
    })
    .await;
    let (id, anna) = opened(&addr, true).await;
    let mut ws = connect(&addr, &id, Some(&anna), "").await;
    let m = until_card_choice(&mut ws).await;
    let version = m["version"].clone();
    send(
        &mut ws,
        json!({"type": "hint", "id": "h1", "version": version}),
    )
    .await;
    let hint = answer(&mut ws, "h1").await;
    assert_eq!(hint["type"], "hint", "{hint}");
    let hint: pref_protocol::HintView = strict(&hint["hint"]);
    assert_eq!((hint.used, hint.per_deal), (1, 1));
    assert!(!hint.cards.is_empty() && hint.cards.len() <= 3, "{hint:?}");
    let legal = m["turn"]["legal"].as_array().unwrap();
    for c in &hint.cards {
        assert!(
            legal.contains(&json!({"play": c.card})),
            "{c:?} in {legal:?}"
        );
    }
    // The deal's one hint is spent.
    send(
        &mut ws,
        json!({"type": "hint", "id": "h2", "version": version}),
    )
    .await;
    let spent = answer(&mut ws, "h2").await;
    assert_eq!(
        (spent["type"].as_str(), spent["reason"].as_str()),
        (Some("rejected"), Some("hints_spent")),
        "{spent}"
    );
    // A spectator is no seat.
    let mut watcher = connect(&addr, &id, None, "").await;
    until(&mut watcher, |m| m["type"] == "snapshot").await;
    send(
        &mut watcher,
        json!({"type": "hint", "id": "s", "version": version}),
    )
    .await;
    let refused = answer(&mut watcher, "s").await;
    assert_eq!(refused["reason"], "not_seated", "{refused}");
    // Anna plays the bot's card and finishes the deal; its record carries the mark and her
    // hint.
    let deal = hint.deal_no as usize;
    let play = json!({"type": "action", "id": "a", "version": version, "action": {"play": hint.cards[0].card}});
    send(&mut ws, play).await;
    loop {
        let m = until(&mut ws, |m| m["type"] == "event" || m["type"] == "snapshot").await;
        if m["event"]["event"]["type"] == "deal_over" {
            break;
        }
        if let Some(action) = m["turn"]["legal"].as_array().and_then(|l| l.first()) {
            let msg =
                json!({"type": "action", "id": "a", "version": m["version"], "action": action});
            send(&mut ws, msg).await;
        }
    }
    let record = record(&addr, &id).await;
    assert!(record.practice());
    assert_eq!(record.hints(deal), Some(&[1, 0, 0][..]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_at_a_table_that_is_not_practice_is_refused() {
    let addr = quick_server("not-practice").await;
    let (id, anna) = opened(&addr, false).await;
    let mut ws = connect(&addr, &id, Some(&anna), "").await;
    let m = until_card_choice(&mut ws).await;
    send(
        &mut ws,
        json!({"type": "hint", "id": "h", "version": m["version"]}),
    )
    .await;
    let refused = answer(&mut ws, "h").await;
    assert_eq!(
        (refused["type"].as_str(), refused["reason"].as_str()),
        (Some("rejected"), Some("not_practice")),
        "{refused}"
    );
    let record = record(&addr, &id).await;
    assert!(!record.practice());
}

/// The practice mark and the hint counts are stored on every backend and read back by a
/// second store on the same database, as a restarted server reads them.
#[tokio::test]
async fn hint_counts_read_back_on_every_backend() {
    use pref_server::ids::Secret;
    use pref_server::store::{Database, Store};
    let mut all = vec![Database::in_dir(&temp_dir("practice-store"))];
    if let Some(url) = postgres("practice").await {
        all.push(Database::Postgres(url));
    }
    let lease = std::time::Duration::from_secs(10);
    for db in all {
        let store = Store::connect(&db, lease).await.unwrap();
        let keys = (&Secret::random().into(), &Secret::random().into());
        let no = store
            .create_table(&Secret::random(), keys, &json!("sochi"), false, 0)
            .await
            .unwrap();
        assert_eq!(store.practice(no).await.unwrap(), None, "{db:?}");
        store.set_practice(no).await.unwrap();
        store.set_practice(no).await.unwrap();
        assert_eq!(store.add_hint(no, 0, 1).await.unwrap(), 1);
        assert_eq!(store.add_hint(no, 0, 1).await.unwrap(), 2);
        assert_eq!(store.add_hint(no, 3, 0).await.unwrap(), 1);
        let again = Store::connect(&db, lease).await.unwrap();
        let counts = again.practice(no).await.unwrap().expect("a practice table");
        let want = std::collections::BTreeMap::from([(0, [0, 2, 0, 0]), (3, [1, 0, 0, 0])]);
        assert_eq!(counts, want, "{db:?}");
    }
}
