//! The deal so far over the real protocol: a snapshot's `so_far` holds the shown deal's
//! completed tricks and the talon everybody was shown (R4.1, R7.3), exactly as the events
//! told them, for a player and for a spectator, so a reload or a late viewer can look back
//! over the deal during play.

mod common;

use common::*;
use serde_json::{Value, json};

/// A fresh snapshot's `so_far` for the viewer of `token`.
async fn snapshot_so_far(addr: &str, id: &str, token: Option<&str>) -> Value {
    let mut ws = connect(addr, id, token, "").await;
    let m = until(&mut ws, |m| m["type"] == "snapshot").await;
    m.get("so_far").cloned().unwrap_or(json!(null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_snapshot_carries_the_deal_s_tricks_and_talon_as_the_events_told_them() {
    let addr = quick_server("so-far").await;
    let (id, anna) = person_and_bots(&addr).await;
    let mut ws = connect(&addr, &id, Some(&anna), "").await;
    let (mut tricks, mut talon, mut trick) = (Vec::new(), Vec::new(), Vec::new());
    // Anna plays her first legal action at each turn until four tricks are taken or the
    // deal ends another way.
    loop {
        let m = until(&mut ws, |m| m["type"] == "event" || m["type"] == "snapshot").await;
        let e = &m["event"]["event"];
        match e["type"].as_str() {
            Some("talon_turned") => talon = e["cards"].as_array().cloned().unwrap_or_default(),
            Some("talon_card_turned") => talon.push(e["card"].clone()),
            Some("played") => trick.push(json!({"seat": e["seat"], "card": e["card"]})),
            Some("trick_taken") => {
                tricks.push(json!({"cards": std::mem::take(&mut trick), "winner": e["seat"]}));
            }
            _ => {}
        }
        if tricks.len() == 4 || e["type"] == "deal_over" {
            break;
        }
        let legal = &m["turn"]["legal"];
        if let Some(action) = legal.as_array().and_then(|l| l.first()) {
            let msg =
                json!({"type": "action", "id": "a", "version": m["version"], "action": action});
            send(&mut ws, msg).await;
        }
    }
    assert!(
        !tricks.is_empty() || !talon.is_empty(),
        "the deal showed something"
    );
    // The bots may play on (a passer's cards are the whister's in open defence): the
    // snapshot's tricks begin with those the events told.
    for (who, token) in [("Anna", Some(anna.as_str())), ("a spectator", None)] {
        let so_far = snapshot_so_far(&addr, &id, token).await;
        let got = so_far["tricks"].as_array().cloned().unwrap_or_default();
        assert!(got.len() >= tricks.len(), "{who}: {so_far}");
        assert_eq!(got[..tricks.len()], tricks[..], "{who}: the tricks");
        assert_eq!(
            so_far["talon"].as_array().cloned().unwrap_or_default(),
            talon,
            "{who}: the talon"
        );
    }
}
