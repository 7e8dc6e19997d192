//! Slow clients over real sockets (`docs/security.md`, "HTTP timeouts"): a connection that
//! sends half a request head, or nothing, is closed after the node's header-read timeout; a
//! request whose body stalls answers the documented JSON timeout error; meanwhile other
//! clients are served at once, and an upgraded WebSocket outlives both timeouts.
//!
//! The timeouts are set small through the settings, so the waits here are real but short:
//! hyper's timer and the body deadline run on tokio's clock, but sockets make progress only
//! in real time, so a paused clock would fire the timeouts before the bytes arrive.

mod common;

use std::time::{Duration, Instant};

use common::{connect, http, lobby, next_json, send, server, until};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The header-read timeout of these servers.
const HEADER: Duration = Duration::from_millis(300);
/// The body timeout of these servers.
const BODY: Duration = Duration::from_millis(300);

async fn slow_server(tag: &str) -> String {
    let (addr, _) = server(tag, |c| {
        c.limits.header_read_timeout_ms = pref_server::config::Millis(300);
        c.limits.body_read_timeout_ms = pref_server::config::Millis(300);
    })
    .await;
    addr
}

/// Reads until the server closes the connection; the bytes it sent and when it closed.
async fn until_closed(s: &mut TcpStream) -> (String, Instant) {
    let mut raw = Vec::new();
    // A reset is a close too.
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut raw))
        .await
        .expect("the server kept a stalled connection open for 10 s");
    (String::from_utf8_lossy(&raw).into_owned(), Instant::now())
}

/// A normal request, answered at once (within a bound loose enough for a loaded machine:
/// the stalled clients hold nothing it waits for).
async fn served_promptly(addr: &str) {
    let asked = Instant::now();
    let (status, body) = http(addr, "GET", "/health", None, None).await;
    assert_eq!((status, &body["status"]), (200, &json!("ok")), "{body}");
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "a normal client waited {:?} beside the stalled ones",
        asked.elapsed()
    );
}

#[tokio::test]
async fn a_stalled_request_head_is_closed_after_the_header_timeout_while_others_are_served() {
    let addr = slow_server("slow-head").await;
    let opened = Instant::now();
    // Half a request line.
    let mut half_line = TcpStream::connect(&addr).await.unwrap();
    half_line.write_all(b"GET /hea").await.unwrap();
    // A whole request line and a header, but never the blank line that ends the head.
    let mut half_head = TcpStream::connect(&addr).await.unwrap();
    half_head
        .write_all(format!("GET /health HTTP/1.1\r\nHost: {addr}\r\n").as_bytes())
        .await
        .unwrap();
    // Nothing at all.
    let mut silent = TcpStream::connect(&addr).await.unwrap();

    // While they stall, others are served (several times, over the timeout's span).
    for _ in 0..3 {
        served_promptly(&addr).await;
        tokio::time::sleep(HEADER / 4).await;
    }

    for (what, s) in [
        ("half a request line", &mut half_line),
        ("half a head", &mut half_head),
        ("nothing", &mut silent),
    ] {
        let (sent, closed) = until_closed(s).await;
        let after = closed - opened;
        assert!(
            after >= HEADER,
            "{what}: closed after {after:?}, before the header timeout"
        );
        assert!(after < HEADER * 10, "{what}: closed only after {after:?}");
        assert!(
            !sent.contains(" 200 "),
            "{what}: a stalled head was answered as if whole: {sent:?}"
        );
    }
    served_promptly(&addr).await;
}

#[tokio::test]
async fn a_request_whose_body_stalls_gets_the_json_timeout_error() {
    let addr = slow_server("slow-body").await;
    let body = json!({ "profile": "sochi" }).to_string();
    let mut stalled = TcpStream::connect(&addr).await.unwrap();
    let sent_at = Instant::now();
    // The head promises the whole body; a third of it comes, then nothing.
    stalled
        .write_all(
            format!(
                "POST /api/tables HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
                 Content-Length: {}\r\n\r\n{}",
                body.len(),
                &body[..body.len() / 3]
            )
            .as_bytes(),
        )
        .await
        .unwrap();

    // Meanwhile a whole request is served, and a table opened by another client.
    served_promptly(&addr).await;
    lobby(&addr, json!("sochi")).await;

    let (answer, answered) = until_closed(&mut stalled).await;
    let after = answered - sent_at;
    assert!(
        after >= BODY,
        "answered after {after:?}, before the body timeout"
    );
    assert!(after < BODY * 10, "answered only after {after:?}");
    let (head, json_body) = answer.split_once("\r\n\r\n").expect(&answer);
    assert!(head.starts_with("HTTP/1.1 408 "), "{answer}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{head}"
    );
    let err: Value = serde_json::from_str(json_body.trim()).expect(json_body);
    assert_eq!(err["error"], "timeout", "{err}");
    assert!(
        err["message"]
            .as_str()
            .is_some_and(|m| m.contains("300 ms")),
        "{err}"
    );
    // The stalled request opened nothing: the only table is the other client's.
    let (status, health) = http(&addr, "GET", "/health", None, None).await;
    assert_eq!((status, &health["tables"]), (200, &json!(1)), "{health}");
}

#[tokio::test]
async fn a_body_sent_in_pieces_within_the_timeout_is_read_whole() {
    let addr = slow_server("pieces").await;
    let body = json!({ "profile": "sochi" }).to_string();
    let mut s = TcpStream::connect(&addr).await.unwrap();
    s.write_all(
        format!(
            "POST /api/tables HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    let (first, rest) = body.split_at(body.len() / 2);
    s.write_all(first.as_bytes()).await.unwrap();
    tokio::time::sleep(BODY / 3).await;
    s.write_all(rest.as_bytes()).await.unwrap();
    let (answer, _) = until_closed(&mut s).await;
    assert!(answer.starts_with("HTTP/1.1 201 "), "{answer}");
}

#[tokio::test]
async fn a_body_trickled_past_the_deadline_times_out_though_no_pause_is_long() {
    // One deadline for the whole body, not a wait per piece: pieces come every 0.45 of the
    // timeout, so a per-piece timer would fire only a whole timeout after the last one.
    let timeout = Duration::from_millis(600);
    let (addr, _) = server("trickle", |c| {
        c.limits.body_read_timeout_ms = pref_server::config::Millis(600)
    })
    .await;
    let body = json!({ "profile": "sochi" }).to_string();
    let mut s = TcpStream::connect(&addr).await.unwrap();
    let sent_at = Instant::now();
    s.write_all(
        format!(
            "POST /api/tables HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n",
            body.len()
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    let gap = timeout.mul_f64(0.45);
    for piece in body.as_bytes().chunks(3).take(3) {
        s.write_all(piece).await.unwrap();
        tokio::time::sleep(gap).await;
    }
    let (answer, answered) = until_closed(&mut s).await;
    assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
    let after = answered - sent_at;
    assert!(
        after >= timeout && after < gap * 2 + timeout,
        "answered after {after:?}"
    );
}

#[tokio::test]
async fn an_upgraded_socket_outlives_the_header_and_body_timeouts() {
    let addr = slow_server("slow-ws").await;
    let (id, _host) = lobby(&addr, json!("sochi")).await;
    let mut ws = connect(&addr, &id, None, "").await;
    let first = next_json(&mut ws).await.expect("a snapshot on connect");
    assert_eq!(first["type"], "snapshot", "{first}");
    // Quiet for several times both timeouts, then still answered.
    tokio::time::sleep((HEADER + BODY) * 3).await;
    send(&mut ws, json!({ "type": "resync" })).await;
    // The answer, after the spectators' count this socket caused.
    let again = until(&mut ws, |m| m["type"] != "event").await;
    assert_eq!(again["type"], "snapshot", "{again}");
}

#[tokio::test]
async fn a_kept_alive_connection_serves_a_second_request_within_the_timeout() {
    let addr = slow_server("keep-alive").await;
    let mut s = TcpStream::connect(&addr).await.unwrap();
    let ask = format!("GET /health HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    let mut seen = String::new();
    for _ in 0..2 {
        s.write_all(ask.as_bytes()).await.unwrap();
        let mut buf = [0u8; 4096];
        let n = tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf))
            .await
            .unwrap()
            .unwrap();
        seen = String::from_utf8_lossy(&buf[..n]).into_owned();
        assert!(seen.starts_with("HTTP/1.1 200 "), "{seen}");
        tokio::time::sleep(HEADER / 3).await;
    }
    // Idle past the timeout, the connection is let go.
    let (rest, _) = until_closed(&mut s).await;
    assert!(rest.is_empty(), "after {seen:?}: {rest:?}");
}
