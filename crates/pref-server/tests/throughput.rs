//! A measurement, not a check (`--ignored`): tables played concurrently by clients that act
//! as soon as it is their turn; prints accepted actions per second and the latency from
//! sending an action to its ack, every action committed to SQLite before it is answered.
//!
//! `cargo test -p pref-server --release --test throughput -- --ignored --nocapture`

mod common;

use std::time::{Duration, Instant};

use common::*;
use pref_core::Action;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::json;

/// One player: acts when it is to act, starts the next deal (seat 0) until `deals` are done.
async fn player(mut ws: Ws, seat: u64, deals: u64, seed: u64) -> Vec<Duration> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut version = 0;
    let mut sent: Option<Instant> = None;
    let mut latencies = Vec::new();
    loop {
        let Some(m) = next_json(&mut ws).await else {
            return latencies;
        };
        if let Some(v) = m["version"].as_u64() {
            version = version.max(v);
        }
        match m["type"].as_str() {
            Some("ack") => {
                if let Some(t) = sent.take() {
                    latencies.push(t.elapsed());
                }
            }
            Some("event") if m["event"]["kind"] == "game_over" => return latencies,
            Some("event") if m["event"]["kind"] == "deal_finished" && seat == 0 => {
                let n = m["event"]["deal_no"].as_u64().unwrap();
                if n + 1 < deals && m["event"]["game_over"] == false {
                    send(
                        &mut ws,
                        json!({"type": "next_deal", "id": "n", "version": version}),
                    )
                    .await;
                }
            }
            _ => {}
        }
        if m["turn"]["to_act"].as_u64() == Some(seat) {
            let legal: Vec<Action> = serde_json::from_value(m["turn"]["legal"].clone()).unwrap();
            if let Some(a) = legal.choose(&mut rng) {
                sent = Some(Instant::now());
                send(
                    &mut ws,
                    json!({"type": "action", "id": "a", "version": version, "action": a}),
                )
                .await;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement; run with --ignored --nocapture"]
async fn actions_per_second_and_ack_latency() {
    let (addr, _) = server("throughput", |c| c.limits.messages_per_second = 1000).await;
    let (tables, deals) = (8u64, 6u64);
    let started = Instant::now();
    let mut tasks = Vec::new();
    let mut infos = Vec::new();
    for t in 0..tables {
        let info = table(
            &addr,
            json!({"preset": "sochi", "pool_target": 50}),
            3,
            false,
        )
        .await;
        for (s, tok) in info.tokens.iter().enumerate() {
            let mut ws = connect(&addr, &info.id, Some(tok), "").await;
            until(&mut ws, |m| m["type"] == "snapshot").await;
            tasks.push(tokio::spawn(player(ws, s as u64, deals, t * 10 + s as u64)));
        }
        infos.push(info);
    }
    for info in &infos {
        let path = format!("/api/tables/{}/start", info.id);
        assert_eq!(
            http(&addr, "POST", &path, None, Some(&info.host)).await.0,
            200
        );
    }
    // Seat 0 stops asking for deals after the last; end each game once it is between deals.
    let mut ended = 0;
    while ended < infos.len() {
        ended = 0;
        for info in &infos {
            let (_, s) = http(
                &addr,
                "GET",
                &format!("/api/tables/{}", info.id),
                None,
                None,
            )
            .await;
            if s["deals_finished"].as_u64() >= Some(deals) || s["phase"] == "over" {
                // The host holds no seat: his end is a proposal the players accept (R10.3).
                let path = format!("/api/tables/{}/end", info.id);
                let _ = http(&addr, "POST", &path, None, Some(&info.host)).await;
                let accept = json!({"vote": "accept"});
                let stop = format!("/api/tables/{}/stop", info.id);
                for token in &info.tokens {
                    let _ = http(&addr, "POST", &stop, Some(&accept), Some(token)).await;
                }
                ended += 1;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut lat = Vec::new();
    for t in tasks {
        lat.extend(t.await.unwrap());
    }
    let secs = started.elapsed().as_secs_f64();
    lat.sort();
    let pct = |p: f64| lat[((lat.len() as f64 - 1.0) * p) as usize];
    eprintln!(
        "{tables} tables × {deals} deals: {} actions in {secs:.2} s = {:.0} actions/s; ack latency p50 {:?}, p99 {:?}, max {:?}",
        lat.len(),
        lat.len() as f64 / secs,
        pct(0.5),
        pct(0.99),
        lat[lat.len() - 1]
    );
}
