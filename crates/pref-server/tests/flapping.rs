//! Watcher flapping against a seated player's latency, measured in one run (ignored by
//! default: it takes about twenty seconds and prints numbers, it asserts only what must
//! hold). A player plays against two bots that act at once, timing each action from its send
//! to its `ack`: first alone, then while eight loopback clients open and close spectator
//! sockets as fast as they can. Before the count was coalesced, each open and close was an
//! item for every viewer; now the player is told the count at most once a second, and the
//! address's socket budget refuses the flood before the table builds a snapshot for it.
//!
//! `cargo test -p pref-server --release --test flapping -- --ignored --nocapture`

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use common::*;
use pref_core::{Action, Call};
use serde_json::json;

/// Actions the player times in each phase.
const ACTIONS: usize = 400;

/// The `p`th percentile of `xs` (sorted here), in microseconds.
fn percentile(xs: &mut [u128], p: usize) -> u128 {
    xs.sort_unstable();
    xs[(xs.len() * p / 100).min(xs.len() - 1)]
}

/// Plays seat 0 (a pass where it may, else the first legal action; the next deal when one
/// ends) until it has timed `actions` actions; returns their latencies in microseconds and
/// the spectator counts it was told meanwhile.
async fn timed(ws: &mut Ws, actions: usize, n: &mut u64) -> (Vec<u128>, usize) {
    let mut lat = Vec::new();
    let mut counts = 0;
    let mut sent: Option<(String, Instant)> = None;
    while lat.len() < actions {
        let m = next_json(ws).await.expect("the player's socket stays open");
        match m["type"].as_str() {
            Some("ack") => {
                if let Some((_, at)) = sent.take_if(|(id, _)| m["id"] == id.as_str()) {
                    lat.push(at.elapsed().as_micros());
                }
                continue;
            }
            Some("rejected") => {
                sent = None;
                continue;
            }
            _ => {}
        }
        if m["event"]["kind"] == "spectators" {
            counts += 1;
        }
        if m["event"]["kind"] == "deal_finished" {
            *n += 1;
            send(
                ws,
                json!({"type": "next_deal", "id": format!("n{n}"), "version": m["version"]}),
            )
            .await;
        }
        let turn = &m["turn"];
        if sent.is_some() || turn["to_act"].as_u64() != Some(0) {
            continue;
        }
        let legal: Vec<Action> = serde_json::from_value(turn["legal"].clone()).unwrap();
        let pass = Action::Bid(Call::Pass);
        if let Some(action) = legal.iter().find(|&&a| a == pass).or(legal.first()) {
            *n += 1;
            let id = format!("a{n}");
            send(
                ws,
                json!({"type": "action", "id": id, "version": m["version"], "action": action}),
            )
            .await;
            sent = Some((id, Instant::now()));
        }
    }
    (lat, counts)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run with --ignored --nocapture"]
async fn watcher_flapping_leaves_a_seated_player_s_latency_alone() {
    let addr = quick_server("flapping").await;
    let (id, token) = person_and_bots(&addr).await;
    let mut ws = connect(&addr, &id, Some(&token), "").await;
    let mut n = 0;

    let started = Instant::now();
    let (mut quiet, quiet_counts) = timed(&mut ws, ACTIONS, &mut n).await;
    let quiet_secs = started.elapsed().as_secs_f64();

    // Eight clients, on a runtime of their own, open a spectator socket, read its snapshot,
    // and close it, again and again, until the player is done.
    let stop = Arc::new(AtomicBool::new(false));
    let flaps = Arc::new(AtomicUsize::new(0));
    let refused = Arc::new(AtomicUsize::new(0));
    let flapping = {
        let (addr, id, stop, flaps, refused) = (
            addr.clone(),
            id.clone(),
            stop.clone(),
            flaps.clone(),
            refused.clone(),
        );
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let mut flappers = Vec::new();
                for _ in 0..8 {
                    let (addr, id, stop, flaps, refused) = (
                        addr.clone(),
                        id.clone(),
                        stop.clone(),
                        flaps.clone(),
                        refused.clone(),
                    );
                    flappers.push(tokio::spawn(async move {
                        let url = format!("ws://{addr}/api/tables/{id}/ws");
                        while !stop.load(Ordering::Relaxed) {
                            // Refused over the address's socket budget (429): try again at
                            // once, as a script would.
                            let Ok((mut w, _)) =
                                tokio_tungstenite::connect_async(ws_request(&url, None)).await
                            else {
                                refused.fetch_add(1, Ordering::Relaxed);
                                continue;
                            };
                            let _ = next_json(&mut w).await;
                            let _ = w.close(None).await;
                            flaps.fetch_add(1, Ordering::Relaxed);
                        }
                    }));
                }
                for f in flappers {
                    f.await.unwrap();
                }
            });
        })
    };
    let started = Instant::now();
    let (mut busy, busy_counts) = timed(&mut ws, ACTIONS, &mut n).await;
    let busy_secs = started.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    flapping.join().unwrap();
    let flaps = flaps.load(Ordering::Relaxed);
    let refused = refused.load(Ordering::Relaxed);
    println!(
        "quiet:    {ACTIONS} actions in {quiet_secs:.1} s, p50 {} µs, p99 {} µs, {quiet_counts} spectator counts told",
        percentile(&mut quiet, 50),
        percentile(&mut quiet, 99)
    );
    println!(
        "flapping: {ACTIONS} actions in {busy_secs:.1} s, p50 {} µs, p99 {} µs, {busy_counts} spectator counts told for {flaps} sockets opened and closed ({refused} refused over the address's budget)",
        percentile(&mut busy, 50),
        percentile(&mut busy, 99)
    );
    // At most one count a second (and one more at the edges), not two per socket.
    let bound = busy_secs.ceil() as usize + 2;
    assert!(
        busy_counts <= bound,
        "{busy_counts} counts in {busy_secs:.1} s"
    );
}
