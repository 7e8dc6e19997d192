//! What the server does with bad or unlucky input: each limit and refusal, one test each.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite;

const UNKNOWN: &str = "0123456789abcdef0123456789abcdef";

async fn spectator(addr: &str, id: &str) -> Ws {
    let mut ws = connect(addr, id, None, "").await;
    until(&mut ws, |m| m["type"] == "snapshot").await;
    // Its own arrival is news to every viewer: the spectator count.
    until(&mut ws, |m| m["event"]["kind"] == "spectators").await;
    ws
}

/// The status and body of a refused WebSocket handshake.
async fn refused(url: String) -> (u16, String) {
    refused_with(url, None).await
}

/// The status and body of a refused WebSocket handshake offering `token`.
async fn refused_with(url: String, token: Option<&str>) -> (u16, String) {
    match tokio_tungstenite::connect_async(ws_request(&url, token)).await {
        Err(tungstenite::Error::Http(resp)) => (
            resp.status().as_u16(),
            String::from_utf8_lossy(resp.body().as_deref().unwrap_or_default()).into_owned(),
        ),
        Err(e) => panic!("unexpected error {e}"),
        Ok(_) => panic!("the handshake succeeded"),
    }
}

/// A started three-player table and each player's socket after its snapshot; returns the
/// sockets, the snapshots, and the seat to act.
async fn started(addr: &str) -> (TableInfo, Vec<Ws>, Vec<Value>, usize) {
    let info = table(addr, json!("sochi"), 3, true).await;
    let mut ws = Vec::new();
    let mut snaps = Vec::new();
    for t in &info.tokens {
        let mut w = connect(addr, &info.id, Some(t), "").await;
        snaps.push(until(&mut w, |m| m["type"] == "snapshot").await);
        ws.push(w);
    }
    let to_act = snaps[0]["turn"]["to_act"].as_u64().unwrap() as usize;
    (info, ws, snaps, to_act)
}

#[tokio::test]
async fn frame_too_large_is_answered_then_closed() {
    let (addr, _) = server("frame", |_| {}).await;
    let info = table(&addr, json!("sochi"), 0, false).await;
    let mut ws = spectator(&addr, &info.id).await;
    let big = format!("{{\"type\":\"chat\",\"text\":\"{}\"}}", "x".repeat(5000));
    send_raw(&mut ws, big).await;
    let m = until(&mut ws, |m| m["type"] == "error").await;
    assert_eq!(m["code"], "too_large");
    assert!(next_json(&mut ws).await.is_none(), "the socket stays open");
}

async fn send_raw(ws: &mut Ws, text: String) {
    use futures_util::SinkExt;
    ws.send(tungstenite::Message::Text(text.into()))
        .await
        .unwrap();
}

#[tokio::test]
async fn rate_limit_drops_excess_messages() {
    let (addr, _) = server("rate", |c| {
        c.limits.messages_per_second = 1;
        c.limits.message_burst = 3;
    })
    .await;
    let info = table(&addr, json!("sochi"), 0, false).await;
    let mut ws = spectator(&addr, &info.id).await;
    for _ in 0..10 {
        send(&mut ws, json!({"type": "resync"})).await;
    }
    let (mut snapshots, mut limited) = (0, 0);
    while snapshots + limited < 10 {
        let m = next_json(&mut ws).await.expect("closed");
        match m["type"].as_str() {
            Some("snapshot") => snapshots += 1,
            Some("error") if m["code"] == "rate_limited" => limited += 1,
            _ => {}
        }
    }
    assert!(limited >= 6, "{limited} limited");
    assert!(snapshots >= 3);
}

#[tokio::test]
async fn malformed_json_gets_a_typed_error_and_the_socket_stays() {
    let (addr, _) = server("malformed", |_| {}).await;
    let info = table(&addr, json!("sochi"), 0, false).await;
    let mut ws = spectator(&addr, &info.id).await;
    for bad in [
        "{not json",
        r#"{"type":"dance"}"#,
        r#"{"type":"action","id":"1"}"#,
    ] {
        send_raw(&mut ws, bad.to_owned()).await;
        let m = next_json(&mut ws).await.unwrap();
        assert_eq!(
            (m["type"].as_str(), m["code"].as_str()),
            (Some("error"), Some("malformed")),
            "{m}"
        );
    }
    send(&mut ws, json!({"type": "resync"})).await;
    let m = next_json(&mut ws).await.unwrap();
    assert_eq!(m["type"], "snapshot");
}

#[tokio::test]
async fn unknown_table_is_404() {
    let (addr, _) = server("404", |_| {}).await;
    for path in [
        format!("/api/tables/{UNKNOWN}"),
        "/api/tables/nonsense".to_owned(),
    ] {
        let (status, body) = http(&addr, "GET", &path, None, None).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (404, Some("no_table")),
            "{body}"
        );
    }
    let (status, _) = refused(format!("ws://{addr}/api/tables/{UNKNOWN}/ws")).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn wrong_tokens_are_refused_with_a_reason() {
    let (addr, _) = server("token", |_| {}).await;
    let info = table(&addr, json!("sochi"), 3, false).await;
    let url = format!("ws://{addr}/api/tables/{}/ws", info.id);
    let (status, body) = refused_with(url.clone(), Some(UNKNOWN)).await;
    assert_eq!(status, 403);
    assert!(body.contains("seat token is not valid"), "{body}");
    let (status, body) = refused_with(url.clone(), Some("abc")).await;
    assert_eq!(status, 403);
    assert!(body.contains("malformed"), "{body}");
    // A token in the URL (written to access logs) is refused, even a valid one.
    let (status, body) = refused(format!("{url}?token={}", info.tokens[0])).await;
    assert_eq!(status, 400);
    assert!(body.contains("Sec-WebSocket-Protocol"), "{body}");
    let start = format!("/api/tables/{}/start", info.id);
    let (status, body) = http(&addr, "POST", &start, None, Some(UNKNOWN)).await;
    assert_eq!(status, 403);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("host token is not valid"),
        "{body}"
    );
    let (status, body) = http(&addr, "POST", &start, None, None).await;
    assert_eq!(status, 403);
    assert!(
        body["message"].as_str().unwrap().contains("Bearer"),
        "{body}"
    );
    // A seat token is not a host token.
    let (status, _) = http(&addr, "POST", &start, None, Some(&info.tokens[0])).await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn stale_version_is_refused_and_followed_by_a_snapshot() {
    let (addr, _) = server("stale", |_| {}).await;
    let (_, mut ws, snaps, p) = started(&addr).await;
    let legal = snaps[p]["turn"]["legal"][0].clone();
    send(
        &mut ws[p],
        json!({"type": "action", "id": "old", "version": 0, "action": legal}),
    )
    .await;
    let m = until(&mut ws[p], |m| m["type"] == "rejected").await;
    assert_eq!(
        (m["id"].as_str(), m["reason"].as_str()),
        (Some("old"), Some("stale_version"))
    );
    let snap = next_json(&mut ws[p]).await.unwrap();
    assert_eq!(snap["type"], "snapshot");
    let version = snap["version"].as_u64().unwrap();
    send(
        &mut ws[p],
        json!({"type": "action", "id": "new", "version": version, "action": legal}),
    )
    .await;
    let m = until(&mut ws[p], |m| m["type"] == "ack").await;
    assert_eq!(m["id"], "new");
}

#[tokio::test]
async fn turn_and_rule_refusals_carry_the_reason() {
    let (addr, _) = server("rules", |_| {}).await;
    let (_, mut ws, snaps, p) = started(&addr).await;
    let version = snaps[p]["version"].as_u64().unwrap();
    let other = (p + 1) % 3;
    send(
        &mut ws[other],
        json!({"type": "action", "id": "x", "version": version, "action": {"bid": "pass"}}),
    )
    .await;
    let m = until(&mut ws[other], |m| m["type"] == "rejected").await;
    assert_eq!(m["reason"], "not_your_turn", "{m}");
    send(
        &mut ws[p],
        json!({"type": "action", "id": "y", "version": version, "action": {"play": "AS"}}),
    )
    .await;
    let m = until(&mut ws[p], |m| m["type"] == "rejected").await;
    assert_eq!(m["reason"], "rule", "{m}");
    assert!(m["message"].as_str().unwrap().contains("auction"), "{m}");
    send(
        &mut ws[p],
        json!({"type": "action", "id": "z", "version": version, "action": {"bid": "9NT"}}),
    )
    .await;
    let m = until(&mut ws[p], |m| m["type"] == "rejected").await;
    assert_eq!(
        (m["reason"].as_str(), m["rule"].as_str()),
        (Some("rule"), Some("R3.3")),
        "{m}"
    );
}

#[tokio::test]
async fn chat_limits_and_spectator_stubs() {
    let (addr, _) = server("chat", |c| c.limits.chat_max_chars = 10).await;
    let (info, mut ws, _, _) = started(&addr).await;
    let mut spec = spectator(&addr, &info.id).await;
    send(&mut ws[0], json!({"type": "chat", "text": "hello"})).await;
    let m = until(&mut ws[1], |m| m["event"]["kind"] == "chat").await;
    assert_eq!(m["event"]["text"], "hello");
    // Spectators are not in the chat at this table: they get the version as a stub.
    let m = until(&mut spec, |m| m["type"] == "event").await;
    assert_eq!(m["event"], Value::Null, "{m}");
    send(&mut spec, json!({"type": "chat", "text": "hi"})).await;
    let m = until(&mut spec, |m| m["type"] == "error").await;
    assert_eq!(m["code"], "chat_forbidden");
    send(
        &mut ws[0],
        json!({"type": "chat", "text": "far too long a line"}),
    )
    .await;
    let m = until(&mut ws[0], |m| m["type"] == "error").await;
    assert_eq!(m["code"], "chat_length");
    send(
        &mut spec,
        json!({"type": "action", "id": "s", "version": 99, "action": {"bid": "pass"}}),
    )
    .await;
    let m = until(&mut spec, |m| m["type"] == "rejected").await;
    assert_eq!(m["reason"], "not_seated");
}

#[tokio::test]
async fn idle_socket_is_closed() {
    let (addr, _) = server("idle", |c| {
        c.limits.ping_secs = pref_server::config::Secs(1);
        c.limits.idle_timeout_secs = pref_server::config::Secs(1);
    })
    .await;
    let info = table(&addr, json!("sochi"), 0, false).await;
    let mut ws = connect(&addr, &info.id, None, "").await;
    // Not reading means not answering pings. A real wait: reading (or polling) the socket
    // would answer the server's pings and keep it alive, and the server's idle timeout runs
    // on its own clock, in its own process.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        while next_json(&mut ws).await.is_some() {}
    })
    .await;
    assert!(closed.is_ok(), "the idle socket stayed open");
}

#[tokio::test]
async fn reconnect_with_last_version_gets_the_missed_events() {
    let (addr, _) = server("resume", |_| {}).await;
    let (info, mut ws, snaps, _) = started(&addr).await;
    let epoch = snaps[0]["epoch"].as_str().unwrap().to_owned();
    let since = snaps[0]["version"].as_u64().unwrap();
    let _ = ws.remove(0);
    send(&mut ws[0], json!({"type": "chat", "text": "missed"})).await;
    until(&mut ws[0], |m| m["event"]["kind"] == "chat").await;
    let mut again = connect(
        &addr,
        &info.id,
        Some(&info.tokens[0]),
        &format!("&since={since}&epoch={epoch}"),
    )
    .await;
    let mut versions = Vec::new();
    loop {
        let m = next_json(&mut again).await.unwrap();
        assert_eq!(
            m["type"], "event",
            "a resume sends events, not a snapshot: {m}"
        );
        versions.push(m["version"].as_u64().unwrap());
        if m["event"]["kind"] == "chat" {
            break;
        }
    }
    let expected: Vec<u64> = (since + 1..=since + versions.len() as u64).collect();
    assert_eq!(versions, expected);
    // An unknown epoch gets a snapshot instead.
    let mut other = connect(
        &addr,
        &info.id,
        Some(&info.tokens[0]),
        &format!("&since={since}&epoch=feed"),
    )
    .await;
    assert_eq!(next_json(&mut other).await.unwrap()["type"], "snapshot");
}

#[tokio::test]
async fn http_lifecycle_and_refusals() {
    let (addr, _) = server("http", |_| {}).await;
    let bad = json!({"profile": {"preset": "sochi", "pool_size": 5}});
    let (status, body) = http(&addr, "POST", "/api/tables", Some(&bad), None).await;
    assert_eq!(status, 422);
    assert!(
        body["message"].as_str().unwrap().contains("pool_size"),
        "{body}"
    );
    let info = table(&addr, json!("sochi"), 2, false).await;
    let (host, seat0) = (Some(info.host.as_str()), Some(info.tokens[0].as_str()));
    let key = invite(&info.host);
    let name = |n: &str| Some(json!({ "name": n, "invite": key }));
    // (method, path after the table, body, bearer, expected status, why)
    let steps = [
        ("POST", "/start", None, host, 409, "seats are free"),
        (
            "PUT",
            "/profile",
            Some(json!({"preset": "sochi4"})),
            host,
            200,
            "profile in the lobby",
        ),
        ("POST", "/seats", name("c"), None, 200, "third seat"),
        ("POST", "/seats", name("d"), None, 200, "fourth seat"),
        (
            "POST",
            "/seats",
            name("e"),
            None,
            409,
            "every seat is taken",
        ),
        (
            "GET",
            "/record",
            None,
            None,
            409,
            "no record before the start",
        ),
        ("POST", "/start", None, host, 200, "start"),
        (
            "PUT",
            "/profile",
            Some(json!("sochi")),
            host,
            409,
            "the profile is frozen",
        ),
        (
            "POST",
            "/leave",
            None,
            seat0,
            409,
            "no leaving during a deal",
        ),
        (
            "POST",
            "/seats",
            name("f"),
            None,
            403,
            "only the host seats players now",
        ),
        (
            "POST",
            "/seats/0/remove",
            None,
            host,
            409,
            "no removal during a deal",
        ),
        ("POST", "/end", None, host, 409, "no ending during a deal"),
        ("GET", "/record", None, None, 200, "finished deals only"),
    ];
    for (method, path, body, bearer, expected, why) in steps {
        let path = format!("/api/tables/{}{path}", info.id);
        let (status, answer) = http(&addr, method, &path, body.as_ref(), bearer).await;
        assert_eq!(status, expected, "{why}: {answer}");
        if path.ends_with("/record") && status == 200 {
            assert_eq!(
                answer["deals"],
                json!([]),
                "the deal in progress is not exported"
            );
        }
    }
    let (status, text) = http_text(&addr, "GET", "/metrics", None, None).await;
    assert_eq!(status, 200);
    assert!(text.contains("# TYPE pref_tables gauge"), "{text}");
    let (status, text) = http_text(&addr, "GET", "/", None, None).await;
    assert_eq!(status, 200);
    // The browser client's page, which loads its ES modules.
    assert!(
        text.contains(r#"<script type="module" src="/js/main.js">"#),
        "{text}"
    );
    let (status, text) = http_text(&addr, "GET", &format!("/t/{}", info.id), None, None).await;
    assert_eq!(status, 200, "{text}");
}
