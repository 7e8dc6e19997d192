//! A long game can always be reopened: a snapshot carries only the score log's last deals and
//! its total, whatever the game's length, and the client pages back through the rest
//! (`score_page`, on a budget of its own); a message larger than the socket's write buffer
//! closes the socket with 4002 instead of dropping it without a word.
//!
//! - `a_300_deal_game_reconnects_with_a_small_snapshot_and_pages_the_whole_log`: a seated
//!   player plays 300 deals against two bots, reconnects, gets a snapshot under 32 KiB and the
//!   whole log through `score_page`, exactly the entries `deal_finished` sent.
//! - `score_pages_spend_a_budget_of_their_own`: the spectators' burst, then `rate_limited`.
//! - `a_message_larger_than_the_write_buffer_closes_the_socket_with_4002`.

mod common;

use common::*;
use futures_util::StreamExt;
use pref_core::{Action, Call};
use pref_protocol::{ScoreEntry, ScorePage, Snapshot};
use serde_json::{Value, json};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// The bound a snapshot of any game stays under: half the socket's write buffer.
const SNAPSHOT_BOUND: usize = 32 * 1024;

/// The next text message as raw text and JSON.
async fn next_text(ws: &mut Ws) -> (usize, Value) {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("no message within 20 s");
        match msg {
            Some(Ok(Message::Text(t))) => return (t.len(), serde_json::from_str(&t).unwrap()),
            Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => {}
            other => panic!("the socket ended: {other:?}"),
        }
    }
}

/// The action seat 0 takes: a pass where it may (the deals go quickly), else the first.
fn pick(legal: &[Action]) -> Option<Action> {
    let pass = Action::Bid(Call::Pass);
    legal
        .iter()
        .find(|&&a| a == pass)
        .or_else(|| legal.first())
        .copied()
}

/// Plays seat 0 through `deals` deals (seats 1 and 2 are bots), starting each next deal;
/// returns every `deal_finished` entry in order.
async fn play(ws: &mut Ws, deals: usize) -> Vec<ScoreEntry> {
    let mut log = Vec::new();
    let mut n = 0u64;
    loop {
        let (_, m) = next_text(ws).await;
        let turn = match m["type"].as_str() {
            Some("snapshot") => &m["turn"],
            Some("event") => {
                if m["event"]["kind"] == "deal_finished" {
                    log.push(strict::<ScoreEntry>(&m["event"]["score"]));
                    if log.len() == deals {
                        return log;
                    }
                    n += 1;
                    send(
                        ws,
                        json!({"type": "next_deal", "id": format!("n{n}"), "version": m["version"]}),
                    )
                    .await;
                }
                &m["turn"]
            }
            // A stale action (a snapshot follows) or an answer.
            Some("ack" | "rejected") => continue,
            _ => panic!("unexpected {m}"),
        };
        if turn["to_act"].as_u64() != Some(0) {
            continue;
        }
        let legal: Vec<Action> = serde_json::from_value(turn["legal"].clone()).unwrap();
        if let Some(action) = pick(&legal) {
            n += 1;
            send(
                ws,
                json!({"type": "action", "id": format!("a{n}"), "version": m["version"], "action": action}),
            )
            .await;
        }
    }
}

/// Reads the snapshot a new socket starts with: its size and the snapshot.
async fn snapshot(ws: &mut Ws) -> (usize, Snapshot) {
    let (len, mut m) = next_text(ws).await;
    assert_eq!(m["type"], "snapshot", "{m}");
    m.as_object_mut().unwrap().remove("type");
    (len, strict(&m))
}

/// Asks for the page before `before` and reads it (skipping the table's items).
async fn page(ws: &mut Ws, before: u32) -> (usize, ScorePage) {
    send(ws, json!({"type": "score_page", "before": before})).await;
    loop {
        let (len, mut m) = next_text(ws).await;
        if m["type"] == "score_page" {
            m.as_object_mut().unwrap().remove("type");
            return (len, strict(&m));
        }
        assert_ne!(m["type"], "error", "{m}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_300_deal_game_reconnects_with_a_small_snapshot_and_pages_the_whole_log() {
    let addr = quick_server("long-game").await;
    let (id, token) = person_and_bots(&addr).await;
    let mut ws = connect(&addr, &id, Some(&token), "").await;
    let log = play(&mut ws, 300).await;
    assert_eq!(
        log.iter().map(|e| e.deal_no).collect::<Vec<_>>(),
        (0..300).collect::<Vec<_>>()
    );
    drop(ws);

    // The seated player reconnects: the snapshot carries the last 10 deals and the total.
    let mut ws = connect(&addr, &id, Some(&token), "").await;
    let (len, snap) = snapshot(&mut ws).await;
    assert!(len < SNAPSHOT_BOUND, "a snapshot of {len} bytes");
    eprintln!("the snapshot after 300 deals: {len} bytes");
    assert_eq!(snap.score_total, 300);
    assert_eq!(snap.score_log, log[290..]);

    // Paging back from the first deal held gives the rest, 20 deals a page.
    let mut held = snap.score_log.clone();
    let mut pages = 0;
    while let Some(first) = held.first().map(|e| e.deal_no).filter(|&n| n > 0) {
        let (len, p) = page(&mut ws, first).await;
        assert!(len < SNAPSHOT_BOUND, "a page of {len} bytes");
        assert_eq!((p.before, p.total), (first, 300));
        assert_eq!(p.entries.len(), 20.min(first as usize));
        held.splice(0..0, p.entries);
        pages += 1;
    }
    assert_eq!(pages, 15);
    assert_eq!(held, log, "the whole log, exactly as deal_finished sent it");

    // Past the end and at the start: clamped, and empty.
    let (_, p) = page(&mut ws, 1000).await;
    assert_eq!((p.before, p.total), (300, 300));
    assert_eq!(p.entries, log[280..]);
    let (_, p) = page(&mut ws, 0).await;
    assert_eq!((p.before, p.entries.len()), (0, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn score_pages_spend_a_budget_of_their_own() {
    let (addr, _) = server("score-pages", |c| {
        c.limits.messages_per_second = 1000;
        c.limits.message_burst = 1000;
        c.limits.score_page_burst = 3;
        c.limits.score_pages_per_second = 1;
    })
    .await;
    let (id, token) = person_and_bots(&addr).await;
    let mut seat = connect(&addr, &id, Some(&token), "").await;
    let mut watcher = connect(&addr, &id, None, "").await;
    let mut other = connect(&addr, &id, None, "").await;
    let _ = snapshot(&mut seat).await;
    let _ = snapshot(&mut watcher).await;
    let _ = snapshot(&mut other).await;
    // The spectators share a burst of 3 for the table: the fourth, from another socket,
    // is refused; the seat's own budget is untouched.
    for n in 0..3 {
        let ws = if n == 1 { &mut other } else { &mut watcher };
        let (_, p) = page(ws, 0).await;
        assert_eq!(p.entries.len(), 0);
    }
    send(&mut other, json!({"type": "score_page", "before": 0})).await;
    let refused = until(&mut other, |m| m["type"] == "error").await;
    assert_eq!(refused["code"], "rate_limited", "{refused}");
    let (_, p) = page(&mut seat, 0).await;
    assert_eq!(p.total, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_larger_than_the_write_buffer_closes_the_socket_with_4002() {
    // A write buffer smaller than the lobby's snapshot: before, the transport refused it
    // and the connection dropped without a close frame.
    let (addr, _) = server("write-buffer", |c| {
        c.limits.socket_write_buffer_bytes = 1024;
    })
    .await;
    let (id, _) = lobby(&addr, json!({"preset": "sochi"})).await;
    let mut ws = connect(&addr, &id, None, "").await;
    let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
        .await
        .expect("an answer within 20 s");
    match msg {
        Some(Ok(Message::Close(Some(frame)))) => {
            assert_eq!(frame.code, CloseCode::from(4002), "{frame:?}");
        }
        other => panic!("expected a close frame with 4002, got {other:?}"),
    }
}
