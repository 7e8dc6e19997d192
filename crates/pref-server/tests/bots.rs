//! Bots in seats through the real protocol: the host seats and removes them, they play with
//! people, a table of three bots plays a whole pulka to settlement, and a table of bots
//! killed mid-deal goes on after a restart.

mod common;

use std::path::Path;
use std::process::Child;
use std::time::Duration;

use common::*;
use num_rational::Ratio;
use pref_core::{Action, Game, Record};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::{Value, json};

async fn add_bot(addr: &str, id: &str, host: &str, seat: u8, level: &str) -> (u16, Value) {
    http(
        addr,
        "POST",
        &format!("/api/tables/{id}/seats/{seat}/bot"),
        Some(&json!({ "level": level })),
        Some(host),
    )
    .await
}

/// Starts the game at table `id`.
async fn start_game(addr: &str, id: &str, host: &str) {
    let (status, body) = http(
        addr,
        "POST",
        &format!("/api/tables/{id}/start"),
        None,
        Some(host),
    )
    .await;
    assert_eq!(status, 200, "{body}");
}

/// `GET …/record`: the status and the body.
async fn record_text(addr: &str, id: &str) -> (u16, String) {
    http_text(addr, "GET", &format!("/api/tables/{id}/record"), None, None).await
}

/// The table's exported record, read (and so replayed) by the rules core.
async fn replayed(addr: &str, id: &str) -> (Record, Game) {
    let (status, text) = record_text(addr, id).await;
    assert_eq!(status, 200, "{text}");
    Record::read(&text).expect("a valid record that replays")
}

async fn summary(addr: &str, id: &str) -> Value {
    let (status, s) = http(addr, "GET", &format!("/api/tables/{id}"), None, None).await;
    assert_eq!(status, 200, "{s}");
    s
}

/// Reads a spectator socket until the game is over, checking that versions have no gaps;
/// returns the settlement and the number of deals finished.
async fn watch_to_the_end(ws: &mut Ws, limit: Duration) -> (Value, u64) {
    let mut version = None;
    let mut deals = 0;
    let end = tokio::time::Instant::now() + limit;
    loop {
        let m = tokio::time::timeout_at(end, next_json(ws))
            .await
            .expect("the game did not end in time")
            .expect("socket closed");
        let v = m["version"].as_u64().unwrap();
        match m["type"].as_str().unwrap() {
            "snapshot" => version = Some(v),
            "event" => {
                let last = version.expect("an event before the snapshot");
                assert_eq!(v, last + 1, "a gap or a reordering in the versions");
                version = Some(v);
                match m["event"]["kind"].as_str() {
                    Some("deal_finished") => deals += 1,
                    Some("game_over") => return (m["event"].clone(), deals),
                    _ => {}
                }
            }
            other => panic!("unexpected {other}: {m}"),
        }
    }
}

fn balance_sums_to_zero(settlement: &Value) {
    let total: Ratio<i64> = settlement["balance"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap().parse::<Ratio<i64>>().unwrap())
        .sum();
    assert_eq!(total, Ratio::from_integer(0), "{settlement}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_bots_play_a_whole_pulka_to_settlement() {
    let addr = quick_server("bots-pulka").await;
    let (id, host) = lobby(&addr, json!({"preset": "sochi", "pool_target": 4})).await;
    for (seat, level) in [(0, "easy"), (1, "normal"), (2, "easy")] {
        let (status, body) = add_bot(&addr, &id, &host, seat, level).await;
        assert_eq!(status, 200, "{body}");
    }
    let s = summary(&addr, &id).await;
    for (seat, level) in ["easy", "normal", "easy"].iter().enumerate() {
        assert_eq!(s["seats"][seat]["bot"], json!(level));
        assert_eq!(s["seats"][seat]["connected"], json!(true));
        assert_eq!(s["seats"][seat]["name"], json!(format!("Bot {}", seat + 1)));
    }
    let mut spectator = connect(&addr, &id, None, "").await;
    start_game(&addr, &id, &host).await;
    let (over, deals) = watch_to_the_end(&mut spectator, Duration::from_secs(240)).await;
    assert_eq!(over["agreed"], json!(false), "the pool closed by itself");
    balance_sums_to_zero(&over);

    // The record of the game replays through the rules core to the same settlement.
    let (record, game) = replayed(&addr, &id).await;
    assert_eq!(record.deals().len() as u64, deals);
    let balance: Vec<String> = game
        .settlement()
        .expect("the replayed pulka is closed")
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(json!(balance), over["balance"]);
    let s = summary(&addr, &id).await;
    assert_eq!(s["phase"], json!("over"));
    assert_eq!(s["deals_finished"], json!(deals));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_bots_play_a_four_handed_pulka() {
    let addr = quick_server("bots-four").await;
    let (id, host) = lobby(&addr, json!({"preset": "sochi4", "pool_target": 3})).await;
    for (seat, level) in [(0, "normal"), (1, "easy"), (2, "strong"), (3, "easy")] {
        let (status, body) = add_bot(&addr, &id, &host, seat, level).await;
        assert_eq!(status, 200, "{body}");
    }
    let mut spectator = connect(&addr, &id, None, "").await;
    start_game(&addr, &id, &host).await;
    let (over, deals) = watch_to_the_end(&mut spectator, Duration::from_secs(240)).await;
    assert_eq!(over["balance"].as_array().map(Vec::len), Some(4));
    balance_sums_to_zero(&over);
    let (record, _) = replayed(&addr, &id).await;
    assert_eq!(record.deals().len() as u64, deals);
}

/// A person at a table with bots: acts at random from the legal actions the server sends.
async fn person(mut ws: Ws, seat: u64, seed: u64) -> Ws {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut n = 0;
    loop {
        let m = next_json(&mut ws).await.expect("socket closed");
        if m["type"] == "event" && m["event"]["kind"] == "deal_finished" {
            return ws;
        }
        let turn = &m["turn"];
        if turn["to_act"].as_u64() == Some(seat) {
            let legal: Vec<Action> = serde_json::from_value(turn["legal"].clone()).unwrap();
            let action = *legal
                .choose(&mut rng)
                .expect("legal actions for the player to act");
            n += 1;
            send(
                &mut ws,
                json!({"type": "action", "id": format!("p{seat}-{n}"),
                       "version": m["version"], "action": action}),
            )
            .await;
        }
        assert_ne!(m["type"], "rejected", "{m}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_seats_and_removes_bots_and_people_play_with_them() {
    let addr = quick_server("bots-host").await;
    let (id, host) = lobby(&addr, json!("sochi")).await;
    let mut tokens = Vec::new();
    for name in ["Anna", "Boris"] {
        let (status, seat) = http(
            &addr,
            "POST",
            &format!("/api/tables/{id}/seats"),
            Some(&json!({ "name": name, "invite": invite(&host) })),
            None,
        )
        .await;
        assert_eq!(status, 200, "{seat}");
        tokens.push(seat["token"].as_str().unwrap().to_owned());
    }
    // Bad requests change nothing.
    assert_eq!(add_bot(&addr, &id, &tokens[0], 2, "easy").await.0, 403);
    assert_eq!(add_bot(&addr, &id, &host, 2, "genius").await.0, 400);
    assert_eq!(add_bot(&addr, &id, &host, 3, "easy").await.0, 400);
    assert_eq!(add_bot(&addr, &id, &host, 0, "easy").await.0, 409);
    let s = summary(&addr, &id).await;
    assert_eq!(s["seats"][2]["name"], Value::Null);
    assert_eq!(s["seats"][0]["bot"], Value::Null);

    let (status, body) = add_bot(&addr, &id, &host, 2, "normal").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["seats"][2]["bot"], json!("normal"));
    let mut ws = Vec::new();
    for t in &tokens {
        ws.push(connect(&addr, &id, Some(t), "").await);
    }
    start_game(&addr, &id, &host).await;
    // A bot cannot be taken out in the middle of a deal.
    let remove = format!("/api/tables/{id}/seats/2/remove");
    let (status, _) = http(&addr, "POST", &remove, None, Some(&host)).await;
    assert_eq!(status, 409);
    let mut tasks = Vec::new();
    for (seat, w) in ws.into_iter().enumerate() {
        tasks.push(tokio::spawn(person(w, seat as u64, 40 + seat as u64)));
    }
    for t in tasks {
        tokio::time::timeout(Duration::from_secs(120), t)
            .await
            .expect("the deal did not finish")
            .unwrap();
    }
    let s = summary(&addr, &id).await;
    assert_eq!(s["deals_finished"], json!(1));
    assert_eq!(s["phase"], json!("between_deals"));
    // Between deals the host takes the bot out, and the seat is free for a person.
    let (status, body) = http(&addr, "POST", &remove, None, Some(&host)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["seats"][2]["name"], Value::Null);
    assert_eq!(body["seats"][2]["bot"], Value::Null);
    let (status, body) = http(
        &addr,
        "POST",
        &format!("/api/tables/{id}/seats"),
        Some(&json!({ "name": "Vera", "seat": 2 })),
        Some(&host),
    )
    .await;
    assert_eq!(status, 200, "{body}");
}

/// Starts the real binary on `dir` with bots that wait `delay_ms`; returns it and its address.
fn spawn(dir: &Path, delay_ms: u64) -> (Child, String) {
    let delay = delay_ms.to_string();
    spawn_binary(
        dir,
        &[
            ("PREF_BOT_DELAY_MIN_MS", delay.as_str()),
            ("PREF_BOT_DELAY_MAX_MS", delay.as_str()),
        ],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_go_on_after_a_restart_mid_deal() {
    let dir = temp_dir("bots-restart");
    let (mut child, addr) = spawn(&dir, 20);
    let (id, host) = lobby(&addr, json!({"preset": "sochi", "pool_target": 2})).await;
    for seat in 0..3 {
        let (status, body) = add_bot(&addr, &id, &host, seat, "easy").await;
        assert_eq!(status, 200, "{body}");
    }
    let mut spectator = connect(&addr, &id, None, "").await;
    start_game(&addr, &id, &host).await;
    // Kill the server after a few cards of the first deal.
    let mut played = 0;
    while played < 4 {
        let m = next_json(&mut spectator).await.expect("socket closed");
        if m["event"]["event"]["type"] == "played" {
            played += 1;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let (mut child, addr) = spawn(&dir, 0);
    let mut spectator = connect(&addr, &id, None, "").await;
    let (over, deals) = watch_to_the_end(&mut spectator, Duration::from_secs(240)).await;
    balance_sums_to_zero(&over);
    assert!(deals >= 1);
    let (record, game) = replayed(&addr, &id).await;
    assert!(game.settlement().is_some(), "the replayed pulka is closed");
    let s = summary(&addr, &id).await;
    assert_eq!(s["phase"], json!("over"));
    assert_eq!(
        json!(record.deals().len()),
        s["deals_finished"],
        "every deal, the one cut by the restart included, is in the record"
    );
    child.kill().unwrap();
    child.wait().unwrap();
}

/// What must read the same before and after a restart.
fn lasting(summary: &Value) -> Value {
    json!([
        summary["phase"],
        summary["settlement"],
        summary["deals_finished"],
        summary["sheet"],
        summary["seats"]
            .as_array()
            .map(|s| s.iter().map(|s| s["name"].clone()).collect::<Vec<_>>())
    ])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_games_come_back_after_a_restart() {
    let dir = temp_dir("bots-finished");
    let (mut child, addr) = spawn(&dir, 0);
    // A pulka the bots close by themselves.
    let (closed, closed_host) = lobby(&addr, json!({"preset": "sochi", "pool_target": 1})).await;
    for seat in 0..3 {
        assert_eq!(
            add_bot(&addr, &closed, &closed_host, seat, "easy").await.0,
            200
        );
    }
    let mut watcher = connect(&addr, &closed, None, "").await;
    let start = |id: &str| format!("/api/tables/{id}/start");
    let (status, _) = http(&addr, "POST", &start(&closed), None, Some(&closed_host)).await;
    assert_eq!(status, 200);
    watch_to_the_end(&mut watcher, Duration::from_secs(240)).await;

    // A game ended by agreement after one deal a person played with two bots.
    let (agreed, agreed_host) = lobby(&addr, json!("sochi")).await;
    for seat in 0..2 {
        assert_eq!(
            add_bot(&addr, &agreed, &agreed_host, seat, "easy").await.0,
            200
        );
    }
    let (status, vera) = http(
        &addr,
        "POST",
        &format!("/api/tables/{agreed}/seats"),
        Some(&json!({ "name": "Vera", "invite": invite(&agreed_host) })),
        None,
    )
    .await;
    assert_eq!(status, 200, "{vera}");
    let ws = connect(&addr, &agreed, vera["token"].as_str(), "").await;
    let (status, _) = http(&addr, "POST", &start(&agreed), None, Some(&agreed_host)).await;
    assert_eq!(status, 200);
    tokio::time::timeout(Duration::from_secs(120), person(ws, 2, 9))
        .await
        .expect("the deal did not finish");
    // Vera is a person the host did not seat as himself: his end asks her (R10.3).
    let vera = vera["token"].as_str().unwrap();
    let body = end_game(&addr, &agreed, &agreed_host, &[(2, vera)]).await;
    assert_eq!(body["settlement"]["agreed"], json!(true));

    // A table the host closed in the lobby.
    let (empty, empty_host) = lobby(&addr, json!("sochi")).await;
    let end = format!("/api/tables/{empty}/end");
    assert_eq!(
        http(&addr, "POST", &end, None, Some(&empty_host)).await.0,
        200
    );

    let mut before = Vec::new();
    for id in [&closed, &agreed, &empty] {
        let record = record_text(&addr, id).await;
        before.push((lasting(&summary(&addr, id).await), record));
    }
    assert_eq!(before[0].0[0], json!("over"));
    assert_eq!(before[1].1.0, 200, "the agreed game's record");
    child.kill().unwrap();
    child.wait().unwrap();

    let (mut child, addr) = spawn(&dir, 0);
    let (status, health) = http(&addr, "GET", "/health", None, None).await;
    assert_eq!(
        (status, health["tables"].clone()),
        (200, json!(0)),
        "nothing restored at start"
    );
    for (id, (summary_before, record_before)) in [&closed, &agreed, &empty].into_iter().zip(&before)
    {
        assert_eq!(
            &lasting(&summary(&addr, id).await),
            summary_before,
            "table {id}"
        );
        let record = record_text(&addr, id).await;
        assert_eq!(&record, record_before, "table {id}'s record");
    }
    // Over is over: the host cannot act and a socket gets the final picture.
    let (status, _) = http(&addr, "POST", &start(&closed), None, Some(&closed_host)).await;
    assert_eq!(status, 409);
    let mut ws = connect(&addr, &agreed, None, "").await;
    let snap = until(&mut ws, |m| m["type"] == "snapshot").await;
    assert_eq!(snap["table"]["phase"], json!("over"));
    assert_eq!(snap["deal"]["stage"], json!("finished"));
    child.kill().unwrap();
    child.wait().unwrap();
}
