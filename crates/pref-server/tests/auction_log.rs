//! The auction's history over the real protocol (R3.4): every `called` event says whether the
//! call is *here*, and a snapshot taken during the auction and after it carries the whole
//! auction in order (`auction`), the same for a player and a spectator, so a page that
//! connects late or reloads shows every call and not only each seat's last one.

mod common;

use common::*;
use pref_protocol::AuctionCall;
use serde_json::{Value, json};

/// Reads a seat's socket to its next turn with legal actions: each of the seat's turns
/// reaches it once, on a snapshot or on an action's last item.
async fn next_legal(ws: &mut Ws) -> Value {
    let m = until(ws, |m| {
        m["turn"]["legal"].as_array().is_some_and(|l| !l.is_empty())
    })
    .await;
    m["turn"]["legal"].clone()
}

/// A fresh snapshot's `auction` for the viewer of `token`.
async fn snapshot_auction(addr: &str, id: &str, token: Option<&str>) -> Vec<AuctionCall> {
    let mut ws = connect(addr, id, token, "").await;
    let m = until(&mut ws, |m| m["type"] == "snapshot").await;
    strict(&m.get("auction").cloned().unwrap_or(json!([])))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r3_4_called_events_and_snapshots_carry_the_whole_auction_with_here_named() {
    let addr = quick_server("auction-log").await;
    let t = table(&addr, json!({"preset": "sochi"}), 3, true).await;
    let mut seats = Vec::new();
    for token in &t.tokens {
        seats.push(connect(&addr, &t.id, Some(token), "").await);
    }
    // Last, so that its snapshot follows the seats' presence items.
    let mut watcher = connect(&addr, &t.id, None, "").await;
    // Every seat bids twice, taking *here* when it is offered (the first bid listed after
    // the pass), then passes: the auction always has a *here*.
    let mut bids = [0u8; 3];
    let mut called: Vec<AuctionCall> = Vec::new();
    let mut n = 0;
    let mut midway = None;
    loop {
        let m = until(&mut watcher, |m| {
            m["type"] == "event" || m["type"] == "snapshot"
        })
        .await;
        let item = &m["event"];
        if item["kind"] == "deal" && item["event"]["type"] == "called" {
            called.push(
                serde_json::from_value(json!({
                    "seat": item["event"]["seat"], "call": item["event"]["call"],
                    "here": item["event"].get("here").cloned().unwrap_or(json!(false)),
                }))
                .expect("a call"),
            );
            if called.len() == 4 {
                midway = Some(snapshot_auction(&addr, &t.id, None).await);
            }
        }
        let Some(turn) = m.get("turn") else { continue };
        // The snapshot holds the deal's state in `deal`, an event's turn in `turn.deal`.
        let stage = if m["type"] == "snapshot" {
            &m["deal"]["stage"]
        } else {
            &turn["deal"]["stage"]
        };
        if stage != "auction" {
            break;
        }
        let seat = turn["to_act"].as_u64().expect("a seat to act") as usize;
        let legal = next_legal(&mut seats[seat]).await;
        let legal = legal.as_array().expect("legal actions");
        let second = legal
            .get(1)
            .filter(|a| a.get("bid").is_some_and(|b| b != "misere" && b != "pass"));
        let action = match second {
            Some(bid) if bids[seat] < 2 => {
                bids[seat] += 1;
                bid.clone()
            }
            _ => json!({"bid": "pass"}),
        };
        n += 1;
        send(
            &mut seats[seat],
            json!({"type": "action", "id": format!("a{n}"), "version": m["version"], "action": action}),
        )
        .await;
    }
    // The events name *here* exactly where the call says the standing bid (the last bid) again.
    let mut standing: Option<String> = None;
    for c in &called {
        let v = serde_json::to_value(c).expect("JSON");
        let call = v["call"].as_str().expect("a call").to_owned();
        assert_eq!(
            c.here,
            standing.as_deref() == Some(call.as_str()),
            "R3.4: {called:?}"
        );
        if call != "pass" {
            standing = Some(call);
        }
    }
    assert!(
        called.iter().any(|c| c.here),
        "the auction had a here: {called:?}"
    );
    let midway = midway.expect("a snapshot after four calls");
    assert_eq!(midway, called[..4], "the snapshot during the auction");
    for token in [None, Some(t.tokens[0].as_str()), Some(t.tokens[2].as_str())] {
        assert_eq!(
            snapshot_auction(&addr, &t.id, token).await,
            called,
            "the snapshot after the auction, for {token:?}"
        );
    }
}
