//! The attacks' shared pieces (`adversarial*.rs`): the real binary, raw requests, the
//! documented error shape, and the honest table that must still be served afterwards.
#![allow(dead_code, unreachable_pub)]

use std::time::{Duration, Instant};

use super::common::*;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The real binary on a fresh data directory; killed when dropped.
pub struct Binary {
    pub child: std::process::Child,
    pub addr: String,
}

impl Binary {
    pub fn start(tag: &str, env: &[(&str, &str)]) -> Binary {
        let dir = temp_dir(tag);
        let (child, addr) = spawn_binary(&dir, env);
        Binary { child, addr }
    }
}

impl Drop for Binary {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One raw HTTP request: the status, the lower-cased head and the body.
pub async fn raw(addr: &str, request: String) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(request.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out))
        .await
        .expect("the server answers")
        .unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text[9..12].parse().unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    (status, head.to_ascii_lowercase(), body.to_owned())
}

/// A request with a body (sent as given) and its answer.
pub async fn request(addr: &str, method: &str, path: &str, body: &str) -> (u16, String, String) {
    raw(
        addr,
        format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    )
    .await
}

/// Checks that `body` is the documented error shape with `code`.
pub fn json_error(what: &str, head: &str, body: &str, code: &str) {
    assert!(
        head.contains("content-type: application/json"),
        "{what}: not JSON: {head}"
    );
    let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{what}: {e}: {body}"));
    let e: pref_protocol::ApiErrorBody = strict(&v);
    assert_eq!(e.error, code, "{what}: {body}");
    assert!(!e.message.is_empty(), "{what}");
}

/// An honest table still plays: a started table whose first player's bid is accepted, in
/// less than `within`.
pub async fn still_serves(addr: &str, within: Duration) {
    let began = Instant::now();
    let info = table(addr, json!("sochi"), 3, true).await;
    let mut sockets = Vec::new();
    let mut snaps = Vec::new();
    for t in &info.tokens {
        let mut ws = connect(addr, &info.id, Some(t), "").await;
        snaps.push(until(&mut ws, |m| m["type"] == "snapshot").await);
        sockets.push(ws);
    }
    let p = snaps[0]["turn"]["to_act"].as_u64().unwrap() as usize;
    let legal = snaps[p]["turn"]["legal"][0].clone();
    let version = snaps[p]["version"].clone();
    send(
        &mut sockets[p],
        json!({"type": "action", "id": "ok", "version": version, "action": legal}),
    )
    .await;
    let m = until(&mut sockets[p], |m| {
        m["type"] == "ack" || m["type"] == "rejected"
    })
    .await;
    assert_eq!(m["type"], "ack", "{m}");
    assert!(
        began.elapsed() < within,
        "an honest table took {:?}",
        began.elapsed()
    );
}
