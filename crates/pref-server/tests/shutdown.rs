//! Graceful shutdown of the real binary: on SIGTERM every socket closes with 1001 after the
//! action it was handling is acknowledged, the process exits 0, and every acknowledged
//! action is stored. With two nodes on PostgreSQL the other node serves the table again in
//! well under the lease time, because the stopping node lets its leases go.

mod common;

use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

use common::*;
use futures_util::StreamExt;
use pref_core::{Action, Profile};
use serde_json::{Value, json};
use sqlx::Row;
use tokio_tungstenite::tungstenite::Message;

/// Sends SIGTERM to `child`.
fn sigterm(child: &Child) {
    let status = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Waits for `child` to exit (at most 20 s); whether it exited 0.
fn exits_zero(child: &mut Child) -> bool {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.success();
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no exit after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Resyncs every player's socket and lets the one whose turn it is act with its first legal
/// action; returns that player and the action, after sending it (the answer is not read).
async fn act(ws: &mut [Ws]) -> (usize, String) {
    let mut chosen = None;
    for (i, w) in ws.iter_mut().enumerate() {
        send(w, json!({"type": "resync"})).await;
        let snap = until(w, |m| m["type"] == "snapshot").await;
        if snap["turn"]["to_act"].as_u64() == Some(i as u64) {
            let legal: Vec<Action> = serde_json::from_value(snap["turn"]["legal"].clone()).unwrap();
            chosen = Some((i, snap["version"].as_u64().unwrap(), legal[0]));
        }
    }
    let (i, version, action) = chosen.expect("nobody to act");
    let id = format!("a{version}");
    send(
        &mut ws[i],
        json!({"type": "action", "id": id, "version": version, "action": action}),
    )
    .await;
    (i, id)
}

/// Reads `ws` until its close frame; the ids acknowledged on the way and the close code.
async fn read_to_close(ws: &mut Ws) -> (Vec<String>, Option<u16>) {
    let mut acks = Vec::new();
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("no close within 20 s");
        match msg {
            Some(Ok(Message::Text(t))) => {
                let m: Value = serde_json::from_str(&t).unwrap();
                if m["type"] == "ack" {
                    acks.push(m["id"].as_str().unwrap().to_owned());
                }
            }
            Some(Ok(Message::Close(frame))) => return (acks, frame.map(|f| u16::from(f.code))),
            None | Some(Err(_)) => return (acks, None),
            Some(Ok(_)) => {}
        }
    }
}

/// Plays `n` acknowledged actions.
async fn play(ws: &mut [Ws], n: usize) {
    for _ in 0..n {
        let (i, id) = act(ws).await;
        until(&mut ws[i], |m| m["type"] == "ack" && m["id"] == id.as_str()).await;
    }
}

/// Connects the three players of `info` to `addr`, each read up to its snapshot.
async fn players(addr: &str, info: &TableInfo) -> Vec<Ws> {
    let mut ws = Vec::new();
    for t in &info.tokens {
        let mut w = connect(addr, &info.id, Some(t), "").await;
        until(&mut w, |m| m["type"] == "snapshot").await;
        ws.push(w);
    }
    ws
}

/// Sends an action and SIGTERM right behind it; checks that the action is acknowledged,
/// then every socket closes with 1001; returns how many actions were acknowledged in all.
async fn act_then_sigterm(child: &Child, ws: &mut [Ws], before: usize) -> usize {
    let (actor, id) = act(ws).await;
    sigterm(child);
    for (i, w) in ws.iter_mut().enumerate() {
        let (acks, code) = read_to_close(w).await;
        if i == actor {
            assert_eq!(
                acks,
                std::slice::from_ref(&id),
                "the action sent before SIGTERM is answered"
            );
        }
        assert_eq!(code, Some(1001), "seat {i} closes with 1001 (going away)");
    }
    before + 1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_closes_sockets_with_1001_and_exits_0_with_every_action_stored() {
    let dir = temp_dir("shutdown");
    let (mut child, addr) = spawn_binary(&dir, &[]);
    let info = table(&addr, json!("sochi"), 3, true).await;
    let mut ws = players(&addr, &info).await;
    play(&mut ws, 3).await;
    let acked = act_then_sigterm(&child, &mut ws, 3).await;
    assert!(exits_zero(&mut child), "exit status 0 after SIGTERM");

    let truth = Truth::open(&dir, &info.id, Profile::sochi()).await;
    let (_, stored) = truth.deal(0).await;
    assert_eq!(
        stored.len(),
        acked,
        "every acknowledged action is stored, no more"
    );

    // The restarted server goes on from there.
    let (mut child, addr) = spawn_binary(&dir, &[]);
    let mut ws = players(&addr, &info).await;
    play(&mut ws, 1).await;
    let (_, stored) = truth.deal(0).await;
    assert_eq!(stored.len(), acked + 1);
    sigterm(&child);
    assert!(exits_zero(&mut child));
}

/// The actions stored for table `id` on PostgreSQL.
async fn stored(pool: &sqlx::PgPool, id: &str) -> i64 {
    sqlx::query("SELECT COUNT(*) FROM actions a JOIN tables t ON t.no = a.table_no WHERE t.id = $1")
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap()
        .get(0)
}

/// The lease for the two-node test: long, so that a takeover that waited for it would fail.
const LEASE_MS: u64 = 8000;

fn spawn_node(url: &str, dir: &Path) -> (Child, String) {
    spawn_binary(
        dir,
        &[
            ("PREF_DATABASE_URL", url),
            ("PREF_LEASE_MS", &LEASE_MS.to_string()),
        ],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_sigterm_another_node_takes_the_tables_well_within_the_lease() {
    let Some(url) = postgres("shutdown").await else {
        return;
    };
    let (mut a, a_addr) = spawn_node(&url, &temp_dir("shutdown-a"));
    let (mut b, b_addr) = spawn_node(&url, &temp_dir("shutdown-b"));
    let info = table(&a_addr, json!("sochi"), 3, true).await;
    let mut ws = players(&a_addr, &info).await;
    play(&mut ws, 2).await;
    let start = Instant::now();
    let acked = act_then_sigterm(&a, &mut ws, 2).await;
    // Node b serves the table as soon as a reconnecting client asks.
    let mut w = loop {
        let url = format!("ws://{b_addr}/api/tables/{}/ws", info.id);
        if let Ok((mut w, _)) =
            tokio_tungstenite::connect_async(ws_request(&url, Some(&info.tokens[0]))).await
            && let Some(m) = next_json(&mut w).await
            && m["type"] == "snapshot"
        {
            break w;
        }
        assert!(
            start.elapsed() < Duration::from_millis(LEASE_MS),
            "no takeover within the lease"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let takeover = start.elapsed();
    eprintln!(
        "takeover {} ms after SIGTERM (lease {LEASE_MS} ms)",
        takeover.as_millis()
    );
    assert!(
        takeover < Duration::from_millis(LEASE_MS / 4),
        "takeover took {takeover:?}, lease {LEASE_MS} ms"
    );
    assert!(exits_zero(&mut a), "node a exits 0 after SIGTERM");

    // Every acknowledged action is there, and the game goes on at node b.
    send(&mut w, json!({"type": "resync"})).await;
    until(&mut w, |m| m["type"] == "snapshot").await;
    let mut ws = vec![w];
    for t in &info.tokens[1..] {
        let mut w = connect(&b_addr, &info.id, Some(t), "").await;
        until(&mut w, |m| m["type"] == "snapshot").await;
        ws.push(w);
    }
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .unwrap();
    assert_eq!(stored(&pool, &info.id).await, acked as i64);
    play(&mut ws, 1).await;
    assert_eq!(stored(&pool, &info.id).await, acked as i64 + 1);
    sigterm(&b);
    assert!(exits_zero(&mut b));
}
