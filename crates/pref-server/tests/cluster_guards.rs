//! A node nobody can pass for, and random ids that cost no database: two nodes on one
//! PostgreSQL database share a secret; a request claiming to be forwarded without it is
//! refused, forwarding with it serves HTTP and sockets; a flood of unknown ids is answered
//! from the miss cache or refused by the lookup budget, and the node keeps its heartbeat and
//! its tables. Runs when `PREF_TEST_POSTGRES_URL` is set.

mod common;

use std::time::{Duration, Instant};

use common::*;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const SECRET: &str = "a-secret-only-the-nodes-know";

fn node(url: &str, dir: &std::path::Path, extra: &[(&str, &str)]) -> (std::process::Child, String) {
    let mut env = vec![
        ("PREF_DATABASE_URL", url),
        ("PREF_LEASE_MS", "3000"),
        ("PREF_CLUSTER_SECRET", SECRET),
    ];
    env.extend_from_slice(extra);
    spawn_binary(dir, &env)
}

/// `GET path` with `headers`; the status.
async fn get(addr: &str, path: &str, headers: &[(&str, &str)]) -> u16 {
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    let mut req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        req.push_str(&format!("{name}: {value}\r\n"));
    }
    req.push_str("\r\n");
    tcp.write_all(req.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tcp.read_to_end(&mut answer).await.unwrap();
    let text = String::from_utf8_lossy(&answer);
    text.split(' ').nth(1).unwrap().parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_node_with_the_secret_may_forward_and_forwarding_with_it_serves_http_and_sockets() {
    let Some(url) = postgres("guards_secret").await else {
        return;
    };
    let dir = temp_dir("guards-secret");
    let (mut a, addr_a) = node(&url, &dir, &[]);
    let (mut b, addr_b) = node(&url, &dir, &[]);
    let (id, _) = lobby(&addr_a, json!("sochi")).await;
    let path = format!("/api/tables/{id}");

    // Through the other node: forwarded with the secret.
    assert_eq!(get(&addr_b, &path, &[]).await, 200);
    let mut ws = connect(&addr_b, &id, None, "").await;
    let first = next_json(&mut ws)
        .await
        .expect("no snapshot through the forwarding node");
    assert_eq!(first["type"], json!("snapshot"), "{first}");

    // Claiming to be a node without the secret, or with another one: refused on both.
    for addr in [&addr_a, &addr_b] {
        for value in ["1", "a-guess", ""] {
            let status = get(addr, &path, &[("x-pref-forwarded", value)]).await;
            assert_eq!(status, 403, "x-pref-forwarded: {value:?} at {addr}");
        }
    }
    // With the secret: served by the table's node; a node that does not hold the table
    // never forwards a forwarded request again.
    assert_eq!(
        get(&addr_a, &path, &[("x-pref-forwarded", SECRET)]).await,
        200
    );
    assert_eq!(
        get(&addr_b, &path, &[("x-pref-forwarded", SECRET)]).await,
        503
    );
    for child in [&mut a, &mut b] {
        child.kill().unwrap();
        child.wait().unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_unknown_ids_is_answered_without_the_database_and_the_node_keeps_its_tables() {
    let Some(url) = postgres("guards_flood").await else {
        return;
    };
    let dir = temp_dir("guards-flood");
    let (mut a, addr) = node(&url, &dir, &[("PREF_LOOKUPS_PER_SECOND", "50")]);
    let (id, _) = lobby(&addr, json!("sochi")).await;

    // One unknown id asked again and again: one lookup, then the miss cache.
    let unknown = format!("/api/tables/{}", "0123456789abcdef0123456789abcdef");
    for _ in 0..300 {
        assert_eq!(get(&addr, &unknown, &[]).await, 404);
    }

    // Random ids, from eight clients at once: at most the budget reaches the database.
    let started = Instant::now();
    let mut clients = Vec::new();
    for _ in 0..8 {
        let addr = addr.clone();
        clients.push(tokio::spawn(async move {
            let (mut missing, mut refused) = (0u32, 0u32);
            for _ in 0..250 {
                let id: String = (0..32)
                    .map(|_| char::from_digit(rand::random::<u32>() % 16, 16).unwrap())
                    .collect();
                match get(&addr, &format!("/api/tables/{id}"), &[]).await {
                    404 => missing += 1,
                    503 => refused += 1,
                    other => panic!("a random id answered {other}"),
                }
            }
            (missing, refused)
        }));
    }
    let (mut missing, mut refused) = (0, 0);
    for c in clients {
        let (m, r) = c.await.unwrap();
        missing += m;
        refused += r;
    }
    let secs = started.elapsed().as_secs_f64();
    println!("2000 random ids in {secs:.2} s: {missing} looked up (404), {refused} refused (503)");
    let budget = 100.0 + 50.0 * secs;
    assert!(
        f64::from(missing) <= budget + 1.0,
        "{missing} lookups in {secs:.2} s"
    );
    assert!(refused > 0);

    // The node kept its heartbeat and its table, and serves it at once.
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .unwrap();
    let alive: bool = sqlx::query_scalar("SELECT bool_and(expires > now()) FROM nodes")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(alive, "a heartbeat lapsed during the flood");
    let t = Instant::now();
    assert_eq!(get(&addr, &format!("/api/tables/{id}"), &[]).await, 200);
    assert!(t.elapsed() < Duration::from_secs(1));
    a.kill().unwrap();
    a.wait().unwrap();
}

/// Opens a socket to table `id` at `addr` as a client behind a proxy at `xff`; the status
/// of a refusal, or the socket.
async fn socket_for(addr: &str, id: &str, xff: Option<&str>) -> Result<Ws, u16> {
    let mut req = ws_request(&format!("ws://{addr}/api/tables/{id}/ws"), None);
    if let Some(xff) = xff {
        req.headers_mut()
            .insert("x-forwarded-for", xff.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((mut ws, _)) => {
            until(&mut ws, |m| m["type"] == "snapshot").await;
            Ok(ws)
        }
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => Err(resp.status().as_u16()),
        Err(e) => panic!("{e}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forwarded_socket_passes_its_node_s_admission_and_the_owner_counts_the_real_client() {
    let Some(url) = postgres("guards_client").await else {
        return;
    };
    let dir = temp_dir("guards-client");
    // A holds the table and trusts no proxy; B stands behind a proxy on 127.0.0.1.
    let (mut a, addr_a) = node(&url, &dir, &[("PREF_MAX_CONNS_PER_IP", "2")]);
    let (mut b, addr_b) = node(
        &url,
        &dir,
        &[
            ("PREF_MAX_CONNS_PER_IP", "1"),
            ("PREF_TRUSTED_PROXIES", "127.0.0.1"),
        ],
    );
    let (id, _) = lobby(&addr_a, json!("sochi")).await;
    let x = socket_for(&addr_b, &id, Some("203.0.113.1")).await.unwrap();
    // B counts the socket it forwards: the client's second one is refused there.
    assert_eq!(
        socket_for(&addr_b, &id, Some("203.0.113.1")).await.err(),
        Some(429)
    );
    let y = socket_for(&addr_b, &id, Some("203.0.113.2")).await.unwrap();
    // A counted those two under their clients, as B named them, not under B's address:
    // this client on 127.0.0.1 still has its two sockets at A, and not a third.
    let direct: Vec<_> = [
        socket_for(&addr_a, &id, None).await,
        socket_for(&addr_a, &id, None).await,
        socket_for(&addr_a, &id, None).await,
    ]
    .into_iter()
    .map(|r| r.err())
    .collect();
    assert_eq!(direct, [None, None, Some(429)]);
    drop((x, y));
    for child in [&mut a, &mut b] {
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
