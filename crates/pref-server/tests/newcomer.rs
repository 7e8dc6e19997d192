//! A person seated between deals, over the real protocol, at a table that keeps hands hidden
//! (`reveal_after_deal = false`): the last finished deal reaches him as it reaches a
//! spectator, never as the seat's previous occupant saw it. Not in his snapshot, not after a
//! `resync`, not in a resume from a version before he sat.

mod common;

use common::*;
use pref_core::{CardSet, Viewer};
use pref_protocol::{Item, ServerMessage};
use serde_json::{Value, json};

/// The cards a snapshot's deal shows.
fn snapshot_cards(m: &Value) -> CardSet {
    match strict::<ServerMessage>(m) {
        ServerMessage::Snapshot(s) => s.deal.map(|d| d.cards()).unwrap_or_default(),
        other => panic!("not a snapshot: {other:?}"),
    }
}

/// A fresh snapshot on `ws`.
async fn resync(ws: &mut Ws) -> Value {
    send(ws, json!({"type": "resync"})).await;
    until(ws, |m| m["type"] == "snapshot").await
}

/// Plays seat 2 until the deal finishes: it bids once, the lowest bid, then passes, and
/// surrenders (R4.5) when it wins the auction, so that its hand often stays unplayed.
async fn play_seat_2(ws: &mut Ws, n: &mut u32) {
    let mut bid = false;
    loop {
        let m = next_json(ws).await.expect("socket closed");
        assert_ne!(m["type"], "rejected", "{m}");
        if m["type"] == "event" && m["event"]["kind"] == "deal_finished" {
            return;
        }
        if m["turn"]["to_act"].as_u64() != Some(2) {
            continue;
        }
        let legal = m["turn"]["legal"].as_array().cloned().unwrap_or_default();
        let find = |f: &dyn Fn(&Value) -> bool| legal.iter().find(|a| f(a)).cloned();
        let action = find(&|a| a == "surrender")
            .or_else(|| {
                (!bid)
                    .then(|| find(&|a| a["bid"].is_string() && a["bid"] != "pass"))
                    .flatten()
            })
            .or_else(|| find(&|a| a["bid"] == "pass" || a["whist"] == "pass"))
            .unwrap_or_else(|| legal[0].clone());
        bid |= action["bid"].is_string() && action["bid"] != "pass";
        *n += 1;
        send(
            ws,
            json!({"type": "action", "id": format!("a{n}"), "version": m["version"], "action": action}),
        )
        .await;
    }
}

/// Every card a socket is sent up to version `upto`: snapshots' deals and deal events.
async fn cards_until(ws: &mut Ws, upto: u64) -> CardSet {
    let mut seen = CardSet::default();
    loop {
        let m = next_json(ws).await.expect("socket closed");
        let version = m["version"].as_u64();
        match m["type"].as_str() {
            Some("snapshot") => seen = seen.or(snapshot_cards(&m)),
            Some("event") => {
                if let Some(Item::Deal { event, .. }) = strict::<Option<Item>>(&m["event"]) {
                    seen = seen.or(event.cards());
                }
            }
            _ => {}
        }
        if version.is_some_and(|v| v >= upto) {
            return seen;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_seated_between_deals_never_receives_his_predecessor_s_cards() {
    let addr = quick_server("newcomer").await;
    let (id, host) = lobby(
        &addr,
        json!({"preset": "sochi", "reveal_after_deal": false}),
    )
    .await;
    seat_bots(&addr, &id, &host, &[0, 1], "easy").await;
    let (status, vera) = http(
        &addr,
        "POST",
        &format!("/api/tables/{id}/seats"),
        Some(&json!({"name": "Vera", "seat": 2, "invite": invite(&host)})),
        None,
    )
    .await;
    assert_eq!(status, 200, "{vera}");
    let vera = vera["token"].as_str().unwrap().to_owned();
    let mut ws = connect(&addr, &id, Some(&vera), "").await;
    let mut watcher = connect(&addr, &id, None, "").await;
    until(&mut ws, |m| m["type"] == "snapshot").await;
    until(&mut watcher, |m| m["type"] == "snapshot").await;
    start_table(&addr, &id, &host).await;
    // Deals until one ends with cards of Vera's own that a spectator is not shown (a deal
    // played out to its last trick shows every card to everybody).
    let mut n = 0;
    let (secret, spectator, epoch) = loop {
        play_seat_2(&mut ws, &mut n).await;
        let mine = resync(&mut ws).await;
        let spectator = snapshot_cards(&resync(&mut watcher).await);
        let secret = snapshot_cards(&mine).minus(spectator);
        if !secret.is_empty() {
            break (
                secret,
                spectator,
                mine["epoch"].as_str().unwrap().to_owned(),
            );
        }
        assert!(n < 400, "no deal left Vera's cards hidden");
        send(
            &mut ws,
            json!({"type": "next_deal", "id": format!("n{n}"), "version": mine["version"]}),
        )
        .await;
    };
    let (status, body) = http(
        &addr,
        "POST",
        &format!("/api/tables/{id}/seats/2/remove"),
        None,
        Some(&host),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, gleb) = http(
        &addr,
        "POST",
        &format!("/api/tables/{id}/seats"),
        Some(&json!({"name": "Gleb", "seat": 2})),
        Some(&host),
    )
    .await;
    assert_eq!(status, 200, "{gleb}");
    let gleb = gleb["token"].as_str().unwrap().to_owned();
    let (_, summary) = http(&addr, "GET", &format!("/api/tables/{id}"), None, None).await;
    let now = summary["version"].as_u64().unwrap();

    // His snapshot: the finished deal as a spectator sees it, seen from seat 2.
    let mut g = connect(&addr, &id, Some(&gleb), "").await;
    let snap = until(&mut g, |m| m["type"] == "snapshot").await;
    assert_eq!(snap["you"], json!(Viewer::Seat(pref_core::Seat(2))));
    assert_eq!(snapshot_cards(&snap), spectator, "{}", snap["deal"]);
    assert!(snap["deal"]["hand"].is_null(), "{}", snap["deal"]);
    let resynced = resync(&mut g).await;
    assert_eq!(snapshot_cards(&resynced).and(secret), CardSet::default());

    // A resume from a version before he sat: never the previous occupant's items.
    let mut r = connect(&addr, &id, Some(&gleb), &format!("since=1&epoch={epoch}")).await;
    assert_eq!(
        cards_until(&mut r, now).await.and(secret),
        CardSet::default()
    );
}
