//! What the lobby costs (numbers in `docs/performance.md`): a thousand lobby sockets on one
//! node, a public table opened twenty times, and the time until every socket has the item
//! that lists it; then seekers arriving fifty a second, paired in threes, and the time from
//! the third seek of a table to its seats. `#[ignore]`d: run with
//! `cargo test -p pref-server --release --test lobby_load -- --ignored --nocapture`.

mod common;

use std::time::{Duration, Instant};

use common::{Ws, http, next_json, send, server, ws_request};
use pref_server::config::Config;
use serde_json::json;

fn roomy(c: &mut Config) {
    c.lobby.seeks_per_ip = 10_000;
    c.lobby.seeks_per_ip_per_minute = 100_000;
    c.lobby.seek_burst_per_ip = 10_000;
    c.lobby.lobby_sockets_per_ip = 10_000;
    c.lobby.public_tables_per_ip = 1000;
    c.limits.max_conns_per_ip = 10_000;
    c.limits.sockets_per_ip_per_second = 100_000;
    c.limits.socket_burst_per_ip = 100_000;
    c.limits.tables_per_ip_per_minute = 100_000;
    c.limits.table_burst_per_ip = 100_000;
}

async fn socket(addr: &str) -> Ws {
    let url = format!("ws://{addr}/api/lobby/ws");
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_request(&url, None))
        .await
        .unwrap();
    next_json(&mut ws).await.unwrap();
    ws
}

fn percentile(sorted: &[Duration], p: usize) -> Duration {
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run it on its own with --release"]
async fn a_lobby_change_reaches_a_thousand_sockets() {
    let (addr, _) = server("lobby-load", roomy).await;
    let watchers = 1000;
    let rounds = 20;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(String, Instant)>();
    for _ in 0..watchers {
        let mut ws = socket(&addr).await;
        let tx = tx.clone();
        tokio::spawn(async move {
            while let Some(m) = next_json(&mut ws).await {
                if m["type"] == "listed" {
                    let _ = tx.send((
                        m["table"]["id"].as_str().unwrap().to_owned(),
                        Instant::now(),
                    ));
                }
            }
        });
    }
    let mut delays = Vec::new();
    for _ in 0..rounds {
        let t0 = Instant::now();
        let (status, created) = http(
            &addr,
            "POST",
            "/api/tables",
            Some(&json!({"public": true})),
            None,
        )
        .await;
        assert_eq!(status, 201);
        let id = created["id"].as_str().unwrap().to_owned();
        let mut got = 0;
        while got < watchers {
            let (seen, at) = tokio::time::timeout(Duration::from_secs(30), rx.recv())
                .await
                .unwrap()
                .unwrap();
            if seen == id {
                delays.push(at - t0);
                got += 1;
            }
        }
    }
    delays.sort_unstable();
    println!(
        "lobby change to {watchers} sockets, {rounds} rounds: p50 {:?}, p99 {:?}, max {:?}",
        percentile(&delays, 50),
        percentile(&delays, 99),
        delays.last().unwrap()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run it on its own with --release"]
async fn seekers_fifty_a_second_are_paired() {
    let (addr, _) = server("lobby-load-seek", roomy).await;
    let seekers = 150;
    let mut waits = Vec::new();
    let mut tasks = Vec::new();
    let started = Instant::now();
    for i in 0..seekers {
        let addr = addr.clone();
        tasks.push(tokio::spawn(async move {
            let mut ws = socket(&addr).await;
            send(&mut ws, json!({"type": "seek", "name": format!("p{i}"), "profile": "sochi", "clock": "normal"})).await;
            let sent = Instant::now();
            loop {
                let m = next_json(&mut ws).await.unwrap();
                if m["type"] == "paired" {
                    return (i, sent, Instant::now(), ws);
                }
            }
        }));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut done = Vec::new();
    for t in tasks {
        done.push(t.await.unwrap());
    }
    // The time from the third seek of each table (the one that filled it) to its seats.
    done.sort_by_key(|d| d.0);
    for trio in done.chunks(3) {
        let filled = trio.iter().map(|d| d.1).max().unwrap();
        for d in trio {
            waits.push(d.2 - filled);
        }
    }
    waits.sort_unstable();
    println!(
        "{seekers} seekers at 50/s over {:?}: from the filling seek to the seat p50 {:?}, p99 {:?}, max {:?}",
        started.elapsed(),
        percentile(&waits, 50),
        percentile(&waits, 99),
        waits.last().unwrap()
    );
}
