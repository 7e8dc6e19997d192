//! A flood of analyses does not starve the bots: the real binary plays a table of three
//! strong bots (watched, acting at once) while 0, 16 and 64 clients ask for analyses of an
//! uploaded 102-deal record as fast as they are answered, and the bots' move gap and
//! `/health`'s latency are measured in each phase of the same run. Analyses run in their
//! own lane with a bounded queue, so beyond it the flood is answered `503 busy` at once.
//! A measurement, not a check: run it with
//! `cargo test --release -p pref-server --test analysis_flood -- --ignored --nocapture`.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use common::{connect, http, lobby, seat_bots, spawn_binary, start_table, temp_dir};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// How long each phase lasts.
const PHASE: Duration = Duration::from_secs(30);

/// p50, p99 and max of `samples`, in milliseconds.
fn percentiles(mut samples: Vec<Duration>) -> (f64, f64, f64) {
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let at = |q: f64| ms(samples[((samples.len() - 1) as f64 * q) as usize]);
    (at(0.5), at(0.99), ms(*samples.last().unwrap()))
}

/// One upload of deal `deal` of `record`; the status.
async fn upload(addr: &str, record: &str, deal: usize) -> u16 {
    let Ok(mut tcp) = TcpStream::connect(addr).await else {
        return 0;
    };
    let head = format!(
        "POST /api/analysis?deal={deal} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        record.len()
    );
    if tcp.write_all(head.as_bytes()).await.is_err()
        || tcp.write_all(record.as_bytes()).await.is_err()
    {
        return 0;
    }
    let mut answer = Vec::new();
    let _ = tcp.read_to_end(&mut answer).await;
    String::from_utf8_lossy(&answer)
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// What one phase measured.
struct Phase {
    gaps: Vec<Duration>,
    health: (f64, f64, f64),
    answers: [u64; 3],
}

/// Runs `clients` flooding clients for [`PHASE`] while the bots' moves are timed from
/// `moves` (the instants of their deal events) and `/health` is sampled.
async fn phase(
    addr: &str,
    record: &Arc<String>,
    clients: usize,
    moves: &Arc<std::sync::Mutex<Vec<Instant>>>,
) -> Phase {
    let stop = Arc::new(AtomicBool::new(false));
    let counts = Arc::new([AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)]);
    let mut flood = Vec::new();
    for c in 0..clients {
        let (addr, record, stop, counts) = (
            addr.to_owned(),
            Arc::clone(record),
            Arc::clone(&stop),
            Arc::clone(&counts),
        );
        flood.push(tokio::spawn(async move {
            let mut deal = c;
            while !stop.load(Ordering::Relaxed) {
                let slot = match upload(&addr, &record, deal % 102).await {
                    200 => 0,
                    503 => 1,
                    _ => 2,
                };
                counts[slot].fetch_add(1, Ordering::Relaxed);
                deal += clients;
            }
        }));
    }
    moves.lock().unwrap().clear();
    let began = Instant::now();
    let mut health = Vec::new();
    while began.elapsed() < PHASE {
        let t = Instant::now();
        let (status, _) = http(addr, "GET", "/health", None, None).await;
        health.push(t.elapsed());
        assert_eq!(status, 200);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    stop.store(true, Ordering::Relaxed);
    let seen = moves.lock().unwrap().clone();
    for f in flood {
        let _ = f.await;
    }
    Phase {
        gaps: seen.windows(2).map(|w| w[1] - w[0]).collect(),
        health: percentiles(health),
        answers: [0, 1, 2].map(|i| counts[i].load(Ordering::Relaxed)),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement of about two minutes; run with --ignored --nocapture"]
async fn a_flood_of_analyses_leaves_the_bots_their_pace_and_health_its_latency() {
    let record = Arc::new(
        std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/records/rostov.json"
        ))
        .unwrap(),
    );
    let dir = temp_dir("analysis-flood");
    let (mut child, addr) = spawn_binary(
        &dir,
        &[
            ("PREF_BOT_DELAY_MIN_MS", "0"),
            ("PREF_BOT_DELAY_MAX_MS", "0"),
            // The flood comes from one address: its budget is lifted to measure the lane.
            ("PREF_ANALYSIS_BURST", "1000000"),
            ("PREF_ANALYSIS_EVERY_MS", "1"),
        ],
    );
    let (id, host) = lobby(&addr, json!({"preset": "sochi", "pool_target": 1000})).await;
    seat_bots(&addr, &id, &host, &[0, 1, 2], "strong").await;
    let mut ws = connect(&addr, &id, None, "").await;
    start_table(&addr, &id, &host).await;
    let moves = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = Arc::clone(&moves);
    let watcher = tokio::spawn(async move {
        while let Some(Ok(m)) = ws.next().await {
            let Ok(text) = m.into_text() else { continue };
            let Ok(v) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            if v["type"] == "event" && v["event"]["kind"] == "deal" {
                seen.lock().unwrap().push(Instant::now());
            }
        }
    });
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    for clients in [0, 16, 64] {
        let p = phase(&addr, &record, clients, &moves).await;
        let n = p.gaps.len();
        let (g50, g99, gmax) = percentiles(p.gaps.clone());
        let mean = p.gaps.iter().sum::<Duration>().as_secs_f64() * 1000.0 / n.max(1) as f64;
        println!(
            "cores {cores}, {clients} flooding clients: bot move gap mean {mean:.0} ms, \
             p50/p99/max {g50:.0}/{g99:.0}/{gmax:.0} ms over {n} moves; /health p50/p99/max \
             {:.2}/{:.2}/{:.2} ms; analyses 200 {}, 503 busy {}, other {}",
            p.health.0, p.health.1, p.health.2, p.answers[0], p.answers[1], p.answers[2]
        );
        assert!(n > 0, "the bots did not play");
    }
    watcher.abort();
    child.kill().unwrap();
    child.wait().unwrap();
}
