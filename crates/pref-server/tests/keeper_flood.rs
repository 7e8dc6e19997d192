//! The review's scripts against a real binary, measured (`#[ignore]`d: they take about a
//! minute and print numbers rather than pin them). From one address: two hundred imports of
//! a 500-deal record (27 KB each), then a thousand sheet streams held open; meanwhile a
//! second client, on an address of its own, asks `/health` every 20 ms. Printed: the node's
//! resident memory before, after the imports and after the streams, what each request was
//! answered, and the second client's p50/p99 before and during each flood.
//!
//! ```text
//! cargo test -p pref-server --test keeper_flood -- --ignored --nocapture
//! PREF_FLOOD_BIN=/path/to/an/older/pref-server cargo test -p pref-server --test keeper_flood -- --ignored --nocapture
//! ```

mod common;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{http, spawn_binary_at, temp_dir};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// The server under test, or the build named by `PREF_FLOOD_BIN` (to measure another).
fn spawn(dir: &std::path::Path) -> (std::process::Child, String) {
    let bin = std::env::var("PREF_FLOOD_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_pref-server").to_owned());
    spawn_binary_at(std::path::Path::new(&bin), dir, &[])
}

fn rss_mib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0);
    kb / 1024
}

/// A connection from loopback address `ip`.
async fn connect_from(addr: &str, ip: [u8; 4]) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind((std::net::Ipv4Addr::from(ip), 0).into())
        .unwrap();
    socket.connect(addr.parse().unwrap()).await.unwrap()
}

/// The second client: `/health` every 20 ms from 127.0.0.2, each answer's time recorded.
fn second_client(addr: String, times: Arc<Mutex<Vec<Duration>>>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            let started = Instant::now();
            let mut s = connect_from(&addr, [127, 0, 0, 2]).await;
            let req = format!("GET /health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
            s.write_all(req.as_bytes()).await.unwrap();
            let mut out = Vec::new();
            let _ = tokio::time::timeout(Duration::from_secs(30), s.read_to_end(&mut out)).await;
            times.lock().unwrap().push(started.elapsed());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
}

fn percentiles(times: &Arc<Mutex<Vec<Duration>>>) -> String {
    let mut t = std::mem::take(&mut *times.lock().unwrap());
    t.sort();
    let at = |q: f64| t[((t.len() as f64 - 1.0) * q) as usize];
    format!(
        "{} requests, p50 {:?}, p99 {:?}, max {:?}",
        t.len(),
        at(0.5),
        at(0.99),
        t[t.len() - 1]
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run with --ignored --nocapture"]
async fn two_hundred_large_imports_and_a_thousand_streams_from_one_address() {
    let dir = temp_dir("keeper-flood");
    let (mut child, addr) = spawn(&dir);
    let pid = child.id();
    let times = Arc::new(Mutex::new(Vec::new()));
    let probe = second_client(addr.clone(), Arc::clone(&times));
    tokio::time::sleep(Duration::from_secs(2)).await;
    println!(
        "idle: RSS {} MiB; second client {}",
        rss_mib(pid),
        percentiles(&times)
    );

    let deals: Vec<Value> = (0..500)
        .map(|_| json!({"outcome": {"kind": "raspasy", "tricks": [4, 3, 3]}}))
        .collect();
    let record = json!({"format": "pref-record/1", "profile": "sochi",
        "players": ["Anna", "Boris", "Vera"], "first_dealer": 0, "deals": deals});
    println!("record: {} bytes", record.to_string().len());
    let started = Instant::now();
    let mut answers = BTreeMap::new();
    let mut sheet = None;
    for _ in 0..25 {
        let batch: Vec<_> = (0..8)
            .map(|_| {
                let (addr, record) = (addr.clone(), record.clone());
                tokio::spawn(async move {
                    http(&addr, "POST", "/api/keeper/import", Some(&record), None).await
                })
            })
            .collect();
        for b in batch {
            let (status, v) = b.await.unwrap();
            if status == 201 {
                sheet = v["id"].as_str().map(str::to_owned);
            }
            *answers.entry(status).or_insert(0) += 1;
        }
    }
    println!(
        "200 imports in {:?}: {answers:?}; RSS {} MiB; second client {}",
        started.elapsed(),
        rss_mib(pid),
        percentiles(&times)
    );
    tokio::time::sleep(Duration::from_secs(5)).await;
    println!("5 s later: RSS {} MiB", rss_mib(pid));

    let sheet = sheet.expect("an import was let through");
    let mut held = Vec::new();
    let mut answers = BTreeMap::new();
    let started = Instant::now();
    for _ in 0..1000 {
        let mut s = connect_from(&addr, [127, 0, 0, 1]).await;
        let req = format!(
            "GET /api/keeper/{sheet}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        );
        s.write_all(req.as_bytes()).await.unwrap();
        let mut buf = [0u8; 16];
        let status = match tokio::time::timeout(Duration::from_secs(10), s.read(&mut buf)).await {
            Ok(Ok(n)) if n >= 12 => String::from_utf8_lossy(&buf[9..12]).into_owned(),
            _ => "none".to_owned(),
        };
        *answers.entry(status).or_insert(0) += 1;
        held.push(s);
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    println!(
        "1000 streams in {:?}: {answers:?}; RSS {} MiB; second client {}",
        started.elapsed(),
        rss_mib(pid),
        percentiles(&times)
    );
    drop(held);
    probe.abort();
    child.kill().unwrap();
    child.wait().unwrap();
}
