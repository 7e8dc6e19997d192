//! The score log over the real protocol: every finished deal's lines (what it wrote and by
//! which rule) and running totals, the same for a player, a spectator and a reconnecting
//! client, built by the server from the game and matching the rules core's own lines for
//! the replayed record; an agreed stop carries R10.3's charges.

mod common;

use common::*;
use pref_core::{Action, Record};
use pref_protocol::{LineView, ScoreEntry, Settlement};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::{Value, json};

/// Plays seat 0 at random until the deal ends; returns the `deal_finished` message.
async fn play_deal(ws: &mut Ws, rng: &mut StdRng, n: &mut u32) -> Value {
    loop {
        let m = next_json(ws).await.expect("socket closed");
        assert_ne!(m["type"], "rejected", "{m}");
        if m["type"] == "event" && m["event"]["kind"] == "deal_finished" {
            return m;
        }
        if m["turn"]["to_act"].as_u64() == Some(0) {
            let legal: Vec<Action> = serde_json::from_value(m["turn"]["legal"].clone()).unwrap();
            if let Some(action) = legal.choose(rng) {
                *n += 1;
                send(
                    ws,
                    json!({"type": "action", "id": format!("a{n}"), "version": m["version"],
                           "action": action}),
                )
                .await;
            }
        }
    }
}

/// The `deal_finished` items a socket reads until `deals` deals have finished.
async fn finished(ws: &mut Ws, deals: usize) -> Vec<Value> {
    let mut out = Vec::new();
    while out.len() < deals {
        let m = next_json(ws).await.expect("socket closed");
        if m["type"] == "event" && m["event"]["kind"] == "deal_finished" {
            out.push(m["event"].clone());
        }
    }
    out
}

/// A fresh connection's snapshot score log.
async fn snapshot_log(addr: &str, id: &str, token: Option<&str>) -> Vec<ScoreEntry> {
    let mut ws = connect(addr, id, token, "").await;
    let m = until(&mut ws, |m| m["type"] == "snapshot").await;
    strict(&m["score_log"])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_a_spectator_and_a_reconnect_get_the_same_score_log() {
    let addr = quick_server("score-log").await;
    let (id, host) = lobby(&addr, json!({"preset": "sochi", "pool_target": 30})).await;
    let (status, seat) = http(
        &addr,
        "POST",
        &format!("/api/tables/{id}/seats"),
        Some(&json!({ "name": "Anna", "invite": invite(&host) })),
        None,
    )
    .await;
    assert_eq!(status, 200, "{seat}");
    let token = seat["token"].as_str().unwrap().to_owned();
    for s in [1, 2] {
        let (status, body) = http(
            &addr,
            "POST",
            &format!("/api/tables/{id}/seats/{s}/bot"),
            Some(&json!({ "level": "easy" })),
            Some(&host),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    let mut player = connect(&addr, &id, Some(&token), "").await;
    let mut spectator = connect(&addr, &id, None, "").await;
    let (status, body) = http(
        &addr,
        "POST",
        &format!("/api/tables/{id}/start"),
        None,
        Some(&host),
    )
    .await;
    assert_eq!(status, 200, "{body}");

    let mut rng = StdRng::seed_from_u64(7);
    let mut n = 0;
    let deals = 3;
    let mut played: Vec<Value> = Vec::new();
    for d in 0..deals {
        if let Some(last) = played.last() {
            let version = last["version"].clone();
            send(
                &mut player,
                json!({"type": "next_deal", "id": format!("n{d}"), "version": version}),
            )
            .await;
        }
        played.push(play_deal(&mut player, &mut rng, &mut n).await);
    }
    let played: Vec<Value> = played.into_iter().map(|m| m["event"].clone()).collect();
    let watched = finished(&mut spectator, deals).await;

    // Each deal_finished carries the same entry for the player and the spectator, and its
    // running totals are the sheet it announces.
    let mut from_events = Vec::new();
    for (p, s) in played.iter().zip(&watched) {
        assert_eq!(p, s, "player and spectator see the same deal_finished");
        let entry: ScoreEntry = strict(&p["score"]);
        assert_eq!(json!(entry.sheet), p["sheet"]);
        assert_eq!(u64::from(entry.deal_no), p["deal_no"].as_u64().unwrap());
        from_events.push(entry);
    }
    // Snapshots: the player's, a spectator's, and the player's again after a reconnect.
    let player_log = snapshot_log(&addr, &id, Some(&token)).await;
    let spectator_log = snapshot_log(&addr, &id, None).await;
    let again = snapshot_log(&addr, &id, Some(&token)).await;
    assert_eq!(player_log, from_events);
    assert_eq!(spectator_log, from_events);
    assert_eq!(again, from_events);
    for entry in &from_events {
        assert!(!entry.lines.is_empty(), "every deal writes something");
        for l in &entry.lines {
            assert_eq!(l.rule, l.line.rule());
        }
    }

    // An agreed stop (R10.3): the host's end, which Anna accepts; the settlement carries the
    // charges of the open pools.
    end_game(&addr, &id, &host, &[(0, &token)]).await;
    let over = until(&mut spectator, |m| m["event"]["kind"] == "game_over").await;
    let settlement: Settlement = strict(&{
        let mut e = over["event"].clone();
        e.as_object_mut().unwrap().remove("kind");
        e
    });
    assert!(settlement.agreed);

    // The record replayed by the core gives the same lines and totals, deal by deal.
    let (status, text) = http_text(
        &addr,
        "GET",
        &format!("/api/tables/{id}/record"),
        None,
        None,
    )
    .await;
    assert_eq!(status, 200, "{text}");
    let (_, game) = Record::read(&text).expect("a valid record that replays");
    assert_eq!(ScoreEntry::log(&game), from_events);
    let stop = LineView::all(&game.sheet().agreed_stop_lines(game.profile()));
    assert!(!stop.is_empty(), "a pool of 30 is open after three deals");
    assert_eq!(settlement.stop, stop);
}
