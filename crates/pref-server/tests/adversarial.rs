//! Attacks on a running server (the real binary, over real sockets and HTTP), each tried and
//! refused, and the server still serving an honest table afterwards. `docs/security.md`
//! lists the threats these answer.

mod common;

use std::time::{Duration, Instant};

use common::*;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// The real binary on a fresh data directory; killed when dropped.
struct Binary {
    child: std::process::Child,
    addr: String,
}

impl Binary {
    fn start(tag: &str, env: &[(&str, &str)]) -> Binary {
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
async fn raw(addr: &str, request: String) -> (u16, String, String) {
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
async fn request(addr: &str, method: &str, path: &str, body: &str) -> (u16, String, String) {
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
fn json_error(what: &str, head: &str, body: &str, code: &str) {
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
async fn still_serves(addr: &str, within: Duration) {
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

#[tokio::test]
async fn positional_arrays_are_refused_on_every_request_and_the_socket() {
    let b = Binary::start("arrays", &[]);
    let addr = &b.addr;
    let (status, head, body) = request(addr, "POST", "/api/tables", r#"["leningrad", true]"#).await;
    assert_eq!(status, 400);
    json_error("create", &head, &body, "bad_request");
    let (id, host) = lobby(addr, json!("sochi")).await;
    let seats = format!("/api/tables/{id}/seats");
    let (status, head, body) = request(addr, "POST", &seats, r#"["Anna", 1]"#).await;
    assert_eq!(status, 400);
    json_error("claim", &head, &body, "bad_request");
    let bot = format!(
        "POST /api/tables/{id}/seats/1/bot HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Authorization: Bearer {host}\r\nContent-Length: 8\r\n\r\n[\"easy\"]"
    );
    let (status, head, body) = raw(addr, bot).await;
    assert_eq!(status, 400);
    json_error("bot", &head, &body, "bad_request");
    let (_, summary) = http(addr, "GET", &format!("/api/tables/{id}"), None, None).await;
    assert!(
        summary["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["name"].is_null()),
        "no seat was taken: {summary}"
    );
    let mut ws = connect(addr, &id, None, "").await;
    until(&mut ws, |m| m["type"] == "snapshot").await;
    send(&mut ws, json!(["resync"])).await;
    // The spectators' count this socket changed may come before the answer.
    let m = until(&mut ws, |m| m["event"]["kind"] != "spectators").await;
    assert_eq!(
        (m["type"].as_str(), m["code"].as_str()),
        (Some("error"), Some("malformed")),
        "{m}"
    );
    still_serves(addr, Duration::from_secs(10)).await;
}

/// Reads `ws` past the items (spectator counts, seats) to the next answer or snapshot.
async fn next_answer(ws: &mut Ws) -> Value {
    until(ws, |m| m["type"] != "event").await
}

#[tokio::test]
async fn every_client_message_with_an_unknown_field_is_malformed_and_a_spectator_cannot_join_the_fair_deals()
 {
    let b = Binary::start("unknown-fields", &[]);
    let addr = &b.addr;
    let info = table(addr, json!("sochi"), 3, true).await;
    let mut seat = connect(addr, &info.id, Some(&info.tokens[0]), "").await;
    let snap = until(&mut seat, |m| m["type"] == "snapshot").await;
    let version = snap["version"].clone();
    let commitment = "0".repeat(64);
    for message in [
        json!({"type": "action", "id": "a", "version": version, "action": "surrender", "zzz": 1}),
        json!({"type": "next_deal", "id": "n", "version": version, "zzz": 1}),
        json!({"type": "chat", "text": "hi", "zzz": 1}),
        json!({"type": "resync", "zzz": 1}),
        json!({"type": "score_page", "before": 1, "zzz": 1}),
        json!({"type": "fair_join", "zzz": 1}),
        json!({"type": "fair_commit", "id": "c", "deal_no": 0, "commitment": commitment, "zzz": 1}),
        json!({"type": "fair_reveal", "id": "r", "deal_no": 0, "value": commitment, "zzz": 1}),
    ] {
        send(&mut seat, message.clone()).await;
        let m = next_answer(&mut seat).await;
        assert_eq!(
            (m["type"].as_str(), m["code"].as_str()),
            (Some("error"), Some("malformed")),
            "{message} was answered {m}"
        );
    }
    // The same resync without the field is answered with a snapshot: the socket still reads.
    send(&mut seat, json!({"type": "resync"})).await;
    assert_eq!(next_answer(&mut seat).await["type"], "snapshot");
    let mut watcher = connect(addr, &info.id, None, "").await;
    until(&mut watcher, |m| m["type"] == "snapshot").await;
    send(&mut watcher, json!({"type": "fair_join"})).await;
    let m = next_answer(&mut watcher).await;
    assert_eq!(
        (m["type"].as_str(), m["code"].as_str()),
        (Some("error"), Some("not_seated")),
        "{m}"
    );
    send(
        &mut watcher,
        json!({"type": "fair_commit", "id": "c", "deal_no": 0, "commitment": commitment}),
    )
    .await;
    let m = next_answer(&mut watcher).await;
    assert_eq!(
        (m["type"].as_str(), m["id"].as_str(), m["reason"].as_str()),
        (Some("rejected"), Some("c"), Some("not_seated")),
        "{m}"
    );
}

#[tokio::test]
async fn a_key_given_twice_is_refused_in_a_body_and_on_the_socket() {
    use futures_util::SinkExt;
    let b = Binary::start("duplicate-keys", &[]);
    let addr = &b.addr;
    let (id, _) = lobby(addr, json!("sochi")).await;
    let seats = format!("/api/tables/{id}/seats");
    let twice = r#"{"name": "Anna", "name": "Boris", "seat": 0}"#;
    let (status, head, body) = request(addr, "POST", &seats, twice).await;
    assert_eq!(status, 400, "{body}");
    json_error("claim", &head, &body, "bad_request");
    assert!(body.contains("given twice"), "{body}");
    let (_, summary) = http(addr, "GET", &format!("/api/tables/{id}"), None, None).await;
    assert!(summary["seats"][0]["name"].is_null(), "{summary}");
    let mut ws = connect(addr, &id, None, "").await;
    until(&mut ws, |m| m["type"] == "snapshot").await;
    ws.send(tungstenite::Message::Text(
        r#"{"type": "resync", "type": "resync"}"#.into(),
    ))
    .await
    .unwrap();
    let m = until(&mut ws, |m| m["event"]["kind"] != "spectators").await;
    assert_eq!(
        (m["type"].as_str(), m["code"].as_str()),
        (Some("error"), Some("malformed")),
        "{m}"
    );
}

#[tokio::test]
async fn every_error_of_every_route_answers_in_the_json_shape() {
    let b = Binary::start("errors", &[("PREF_MAX_BODY_BYTES", "1024")]);
    let addr = &b.addr;
    let (id, _) = lobby(addr, json!("sochi")).await;
    let big = format!(r#"{{"name": "{}"}}"#, "x".repeat(4000));
    let (status, head, body) =
        request(addr, "POST", &format!("/api/tables/{id}/seats"), &big).await;
    assert_eq!(status, 413);
    json_error("body too large", &head, &body, "too_large");
    let ws = format!("/api/tables/{id}/ws?since=soon&epoch=x");
    let (status, head, body) = request(addr, "GET", &ws, "").await;
    assert_eq!(status, 400);
    json_error("bad since", &head, &body, "bad_request");
    for path in ["/api/nothing", "/api/tables/x/y/z/w", "/api/"] {
        let (status, head, body) = request(addr, "GET", path, "").await;
        assert_eq!(status, 404, "{path}");
        json_error(path, &head, &body, "not_found");
    }
    let (status, head, body) = request(addr, "DELETE", "/api/tables", "").await;
    assert_eq!(status, 405);
    json_error("wrong method", &head, &body, "method_not_allowed");
    assert!(
        head.contains("allow: "),
        "a 405 says what is allowed: {head}"
    );
    let (status, head, body) = request(addr, "POST", "/api/tables/zz/seats/x/remove", "").await;
    assert_eq!(status, 400);
    json_error("bad path", &head, &body, "bad_request");
    let (status, head, body) = request(addr, "GET", "/no-such-page.html", "").await;
    assert_eq!(status, 404);
    json_error("static", &head, &body, "not_found");
}

#[tokio::test]
async fn empty_and_malformed_tokens_and_future_versions_are_refused() {
    let b = Binary::start("tokens", &[]);
    let addr = &b.addr;
    let info = table(addr, json!("sochi"), 3, true).await;
    let url = format!("ws://{addr}/api/tables/{}/ws", info.id);
    for token in ["", "abc", "0123456789ABCDEF0123456789abcdeg"] {
        match tokio_tungstenite::connect_async(ws_request(&url, Some(token))).await {
            Err(tungstenite::Error::Http(resp)) => assert_eq!(resp.status(), 403, "{token:?}"),
            other => panic!("token {token:?} was not refused: {:?}", other.map(|_| ())),
        }
    }
    // A token in the URL, where access logs would write it down, is refused, even a good one.
    for query in [format!("?token={}", info.tokens[0]), "?token=".into()] {
        match tokio_tungstenite::connect_async(format!("{url}{query}")).await {
            Err(tungstenite::Error::Http(resp)) => {
                assert_eq!(resp.status(), 400, "{query}");
                let body: Value = serde_json::from_slice(resp.body().as_deref().unwrap()).unwrap();
                assert_eq!(body["error"], "bad_request");
            }
            other => panic!("{query} was not refused: {:?}", other.map(|_| ())),
        }
    }
    let mut ws = connect(addr, &info.id, Some(&info.tokens[0]), "").await;
    let snap = until(&mut ws, |m| m["type"] == "snapshot").await;
    let version = snap["version"].as_u64().unwrap();
    let summary_at = |addr: String, id: String| async move {
        let (_, summary) = http(&addr, "GET", &format!("/api/tables/{id}"), None, None).await;
        summary["version"].as_u64().unwrap()
    };
    let before = summary_at(addr.clone(), info.id.clone()).await;
    // Whoever is to act: a version from the future is refused before the turn is looked at.
    send(
        &mut ws,
        json!({"type": "action", "id": "f", "version": version + 1000, "action": {"bid": "pass"}}),
    )
    .await;
    let m = until(&mut ws, |m| m["type"] == "rejected").await;
    assert_eq!(m["reason"], "future_version", "{m}");
    let after = summary_at(addr.clone(), info.id.clone()).await;
    assert_eq!(after, before, "nothing changed");
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let b = Binary::start("headers", &[]);
    let addr = &b.addr;
    let (id, _) = lobby(addr, json!("sochi")).await;
    for (method, path) in [
        ("GET", "/".to_owned()),
        ("GET", format!("/t/{id}")),
        ("GET", "/js/main.js".to_owned()),
        ("GET", "/api/presets".to_owned()),
        ("GET", format!("/api/tables/{id}")),
        ("GET", "/api/nothing".to_owned()),
        ("POST", "/api/tables/0123/seats".to_owned()),
    ] {
        let (_, head, _) = request(addr, method, &path, "").await;
        for h in [
            "content-security-policy: default-src 'self'",
            "frame-ancestors 'none'",
            "x-frame-options: deny",
            "x-content-type-options: nosniff",
            "referrer-policy: no-referrer",
        ] {
            assert!(head.contains(h), "{path}: no {h}: {head}");
        }
    }
}

#[tokio::test]
async fn a_foreign_origin_cannot_open_a_socket() {
    let b = Binary::start(
        "origin",
        &[("PREF_ALLOWED_ORIGINS", "https://friend.example")],
    );
    let addr = &b.addr;
    let (id, _) = lobby(addr, json!("sochi")).await;
    let open = |origin: Option<String>| {
        let mut req = format!("ws://{addr}/api/tables/{id}/ws")
            .into_client_request()
            .unwrap();
        if let Some(o) = origin {
            req.headers_mut().insert("origin", o.parse().unwrap());
        }
        tokio_tungstenite::connect_async(req)
    };
    match open(Some("https://evil.example".into())).await {
        Err(tungstenite::Error::Http(resp)) => {
            assert_eq!(resp.status(), 403);
            let body: Value = serde_json::from_slice(resp.body().as_deref().unwrap()).unwrap();
            assert_eq!(body["error"], "forbidden");
        }
        other => panic!("a foreign origin connected: {:?}", other.map(|_| ())),
    }
    for ok in [
        Some(format!("http://{addr}")),
        Some("https://friend.example".into()),
        None,
    ] {
        let (mut ws, _) = open(ok.clone())
            .await
            .unwrap_or_else(|e| panic!("{ok:?}: {e}"));
        until(&mut ws, |m| m["type"] == "snapshot").await;
    }
}

#[tokio::test]
async fn the_watch_link_cannot_take_a_seat() {
    let b = Binary::start("watch-link", &[]);
    let addr = &b.addr;
    let (id, host) = lobby(addr, json!("sochi")).await;
    let seats = format!("/api/tables/{id}/seats");
    let (_, before) = http(addr, "GET", &format!("/api/tables/{id}"), None, None).await;
    // From the watch link: no key, a wrong key, a malformed key, a seat token as the key.
    let (_, anna) = http(
        addr,
        "POST",
        &seats,
        Some(&json!({ "name": "Anna", "invite": invite(&host) })),
        None,
    )
    .await;
    let anna_token = anna["token"].as_str().unwrap().to_owned();
    let (_, before_mallory) = http(addr, "GET", &format!("/api/tables/{id}"), None, None).await;
    assert_ne!(before, before_mallory, "the invite seats a player");
    for invite_field in [
        None,
        Some("0123456789abcdef0123456789abcdef".to_owned()),
        Some("nope".to_owned()),
        Some(anna_token.clone()),
        Some(id.clone()),
    ] {
        let mut claim = json!({ "name": "Mallory" });
        if let Some(k) = &invite_field {
            claim["invite"] = json!(k);
        }
        let (status, body) = http(addr, "POST", &seats, Some(&claim), None).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (403, Some("invite_required")),
            "{invite_field:?}: {body}"
        );
    }
    let (_, after) = http(addr, "GET", &format!("/api/tables/{id}"), None, None).await;
    assert_eq!(after, before_mallory, "a refused claim changed the table");
    // The host sits down with the host token alone.
    let (status, body) = http(
        addr,
        "POST",
        &seats,
        Some(&json!({ "name": "Host" })),
        Some(&host),
    )
    .await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn names_with_bidi_or_zero_width_characters_are_refused() {
    let b = Binary::start("names", &[]);
    let addr = &b.addr;
    let (id, _) = lobby(addr, json!("sochi")).await;
    for name in ["Anna\u{202e}", "An\u{200b}na", "\u{2067}Boris"] {
        let (status, body) = http(
            addr,
            "POST",
            &format!("/api/tables/{id}/seats"),
            Some(&json!({ "name": name })),
            None,
        )
        .await;
        assert_eq!(
            (status, body["error"].as_str()),
            (400, Some("bad_request")),
            "{name:?}"
        );
    }
}

#[tokio::test]
async fn chat_with_bidi_or_zero_width_characters_is_refused() {
    let b = Binary::start("chat", &[]);
    let addr = &b.addr;
    let info = table(addr, json!("sochi"), 3, false).await;
    let mut ws = connect(addr, &info.id, Some(&info.tokens[0]), "").await;
    until(&mut ws, |m| m["type"] == "snapshot").await;
    for text in ["gg\u{202e}", "g\u{200d}g", "\u{2066}hi"] {
        send(&mut ws, json!({"type": "chat", "text": text})).await;
        let m = until(&mut ws, |m| m["type"] == "error").await;
        assert_eq!(m["code"], "chat_text", "{text:?}: {m}");
    }
    send(&mut ws, json!({"type": "chat", "text": "gg"})).await;
    let m = until(&mut ws, |m| {
        m["type"] == "event" && m["event"]["kind"] == "chat"
    })
    .await;
    assert_eq!(
        m["event"]["text"], "gg",
        "only the plain line went out: {m}"
    );
}

#[tokio::test]
async fn binary_frames_spend_the_rate_budget_and_a_flood_is_closed() {
    use futures_util::{SinkExt, StreamExt};
    let b = Binary::start("binary", &[]);
    let addr = &b.addr;
    let (id, _) = lobby(addr, json!("sochi")).await;
    let mut ws = connect(addr, &id, None, "").await;
    until(&mut ws, |m| m["type"] == "snapshot").await;
    // 20 pass at once, then each is refused; 100 refusals in a row close the socket. The
    // frames go out while the answers are read: a reset would drop answers left unread.
    let (mut sink, mut stream) = ws.split();
    let flood = tokio::spawn(async move {
        for _ in 0..200 {
            let frame = tungstenite::Message::Binary(vec![0u8; 16].into());
            if sink.send(frame).await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    });
    let mut limited = 0;
    let ended = loop {
        match tokio::time::timeout(Duration::from_secs(5), stream.next()).await {
            Ok(Some(Ok(tungstenite::Message::Text(t)))) => {
                let m: Value = serde_json::from_str(t.as_str()).unwrap();
                if m["code"] == "rate_limited" {
                    limited += 1;
                }
            }
            Ok(Some(Ok(tungstenite::Message::Close(f)))) => {
                assert_eq!(f.map(|f| u16::from(f.code)), Some(1008));
                break true;
            }
            Ok(Some(Ok(_))) => {}
            Ok(Some(Err(_)) | None) => break true,
            Err(_) => break false,
        }
    };
    flood.await.unwrap();
    assert!(
        limited >= 10,
        "binary frames were rate limited {limited} times"
    );
    assert!(ended, "a binary flood ends the socket");
    still_serves(addr, Duration::from_secs(10)).await;
}

/// The refusal of a socket's upgrade: its status and JSON body.
async fn upgrade_refused(url: &str, token: Option<&str>) -> (u16, Value) {
    match tokio_tungstenite::connect_async(ws_request(url, token)).await {
        Err(tungstenite::Error::Http(resp)) => (
            resp.status().as_u16(),
            serde_json::from_slice(resp.body().as_deref().unwrap_or_default()).unwrap(),
        ),
        other => panic!("{url} was not refused: {:?}", other.map(|_| ())),
    }
}

/// A script that opens and closes sockets in a loop costs every table it opens a snapshot
/// each time: one address opens `socket_burst_per_ip` at once, then
/// `sockets_per_ip_per_second`, refused before the upgrade and before the table is asked.
#[tokio::test]
async fn sockets_opened_from_one_address_have_a_budget() {
    let b = Binary::start(
        "socket-budget",
        &[
            ("PREF_SOCKETS_PER_IP_PER_SECOND", "1"),
            ("PREF_SOCKET_BURST_PER_IP", "3"),
        ],
    );
    let addr = &b.addr;
    let (id, _) = lobby(addr, json!("sochi")).await;
    let url = format!("ws://{addr}/api/tables/{id}/ws");
    // Opened and closed at once: the closing gives no budget back.
    for _ in 0..3 {
        let mut ws = connect(addr, &id, None, "").await;
        ws.close(None).await.unwrap();
    }
    let (status, body) = upgrade_refused(&url, None).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (429, Some("rate_limited")),
        "{body}"
    );
    let message = body["message"].as_str().unwrap();
    assert!(
        message.starts_with("too many sockets opened from this address; try again in"),
        "{message}"
    );
    // The budget comes back at its rate.
    let began = Instant::now();
    let mut again = loop {
        match tokio_tungstenite::connect_async(ws_request(&url, None)).await {
            Ok((ws, _)) => break ws,
            Err(_) if began.elapsed() < Duration::from_secs(5) => {
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
            Err(e) => panic!("the budget did not come back: {e}"),
        }
    };
    assert!(
        began.elapsed() >= Duration::from_millis(500),
        "{:?}",
        began.elapsed()
    );
    until(&mut again, |m| m["type"] == "snapshot").await;
}

#[tokio::test]
async fn connection_caps_refuse_the_socket_over_each_cap() {
    let b = Binary::start(
        "conn-caps",
        &[
            ("PREF_MAX_CONNS_PER_TOKEN", "2"),
            ("PREF_MAX_CONNS_PER_TABLE", "5"),
            ("PREF_MAX_CONNS_PER_IP", "9"),
        ],
    );
    let addr = &b.addr;
    let info = table(addr, json!("sochi"), 3, false).await;
    let url = format!("ws://{addr}/api/tables/{}/ws", info.id);
    // Two sockets on Anna's token; a third is refused, before the upgrade.
    let mut held = Vec::new();
    for _ in 0..2 {
        held.push(connect(addr, &info.id, Some(&info.tokens[0]), "").await);
    }
    let (status, body) = upgrade_refused(&url, Some(&info.tokens[0])).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (429, Some("rate_limited"))
    );
    assert!(
        body["message"].as_str().unwrap().contains("seat token"),
        "{body}"
    );
    // The table holds five: Boris, then spectators up to the cap.
    held.push(connect(addr, &info.id, Some(&info.tokens[1]), "").await);
    for _ in 0..2 {
        held.push(connect(addr, &info.id, None, "").await);
    }
    let (status, body) = upgrade_refused(&url, None).await;
    assert_eq!(status, 429);
    assert!(
        body["message"].as_str().unwrap().contains("table"),
        "{body}"
    );
    // A closed socket gives its place back.
    let mut gone = held.pop().unwrap();
    gone.close(None).await.unwrap();
    drop(gone);
    let began = Instant::now();
    let mut again = loop {
        match tokio_tungstenite::connect_async(ws_request(&url, None)).await {
            Ok((ws, _)) => break ws,
            Err(_) if began.elapsed() < Duration::from_secs(5) => {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(e) => panic!("the freed place was not given back: {e}"),
        }
    };
    until(&mut again, |m| m["type"] == "snapshot").await;
    held.push(again);
    // This address holds 5 here; 4 more at another table, then its cap refuses.
    let (other, _) = lobby(addr, json!("sochi")).await;
    for _ in 0..4 {
        held.push(connect(addr, &other, None, "").await);
    }
    let (status, body) = upgrade_refused(&format!("ws://{addr}/api/tables/{other}/ws"), None).await;
    assert_eq!(status, 429);
    assert!(
        body["message"].as_str().unwrap().contains("address"),
        "{body}"
    );
    // Once the address lets go, an honest table is served at once.
    drop(held);
    tokio::time::sleep(Duration::from_millis(300)).await;
    still_serves(addr, Duration::from_secs(10)).await;
}

#[tokio::test]
async fn table_openings_are_budgeted_per_address() {
    let b = Binary::start(
        "create-budget",
        &[
            ("PREF_TABLE_BURST_PER_IP", "4"),
            ("PREF_TABLES_PER_IP_PER_MINUTE", "1"),
        ],
    );
    let addr = &b.addr;
    // `table` opens one table: 4 in a burst, then refused.
    for _ in 0..4 {
        lobby(addr, json!("sochi")).await;
    }
    let (status, body) = http(addr, "POST", "/api/tables", Some(&json!({})), None).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (429, Some("rate_limited")),
        "{body}"
    );
    let (_, health) = http(addr, "GET", "/health", None, None).await;
    assert_eq!(health["tables"], 4, "{health}");
}

/// `POST /api/tables` with `{}` and `X-Forwarded-For: xff`; the status.
async fn open_forwarded_for(addr: &str, xff: &str) -> u16 {
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "POST /api/tables HTTP/1.1\r\nHost: {addr}\r\nX-Forwarded-For: {xff}\r\n\
         Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
    );
    tcp.write_all(req.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tcp.read_to_end(&mut answer).await.unwrap();
    let text = String::from_utf8_lossy(&answer);
    text.split(' ').nth(1).unwrap().parse().unwrap()
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_client_has_its_own_budget_and_a_v6_client_its_64() {
    let env = [
        ("PREF_TABLE_BURST_PER_IP", "2"),
        ("PREF_TABLES_PER_IP_PER_MINUTE", "1"),
    ];
    let proxied = Binary::start(
        "xff-trusted",
        &[
            env[0],
            env[1],
            ("PREF_TRUSTED_PROXIES", "127.0.0.1, 10.0.0.0/8"),
        ],
    );
    let addr = &proxied.addr;
    let mut statuses = Vec::new();
    for xff in [
        // The client's own claim (6.6.6.6) stands left of what the proxies appended.
        "6.6.6.6, 203.0.113.1",
        "7.7.7.7, 203.0.113.1, 10.1.1.1",
        "203.0.113.1",
        "203.0.113.2",
        "2001:db8:1:2::1",
        "2001:db8:1:2::ffff",
        "2001:db8:1:2:aaaa::1",
        "2001:db8:1:3::1",
    ] {
        statuses.push(open_forwarded_for(addr, xff).await);
    }
    assert_eq!(statuses, [201, 201, 429, 201, 201, 201, 429, 201]);

    // A node that trusts no proxy believes no X-Forwarded-For: one address, one budget.
    let direct = Binary::start("xff-untrusted", &env);
    let mut statuses = Vec::new();
    for xff in ["203.0.113.1", "203.0.113.2", "203.0.113.3"] {
        statuses.push(open_forwarded_for(&direct.addr, xff).await);
    }
    assert_eq!(statuses, [201, 201, 429]);
}

#[tokio::test]
async fn a_dns_rebinding_page_cannot_open_a_socket() {
    let b = Binary::start("rebinding", &[]);
    let addr = &b.addr;
    let (id, _) = lobby(addr, json!("sochi")).await;
    let port = addr.rsplit(':').next().unwrap();
    let open = |host: String| {
        let mut req = format!("ws://{addr}/api/tables/{id}/ws")
            .into_client_request()
            .unwrap();
        let origin = format!("http://{host}");
        req.headers_mut().insert("host", host.parse().unwrap());
        req.headers_mut().insert("origin", origin.parse().unwrap());
        tokio_tungstenite::connect_async(req)
    };
    // evil.example resolved to this node: the page's Origin is the Host it asked for.
    match open(format!("evil.example:{port}")).await {
        Err(tungstenite::Error::Http(resp)) => {
            assert_eq!(resp.status(), 403);
            let body: Value = serde_json::from_slice(resp.body().as_deref().unwrap()).unwrap();
            assert_eq!(body["error"], "forbidden");
        }
        other => panic!("a rebinding page connected: {:?}", other.map(|_| ())),
    }
    // The printed link (an address) and localhost still connect.
    for host in [addr.clone(), format!("localhost:{port}")] {
        let (mut ws, _) = open(host.clone())
            .await
            .unwrap_or_else(|e| panic!("{host}: {e}"));
        until(&mut ws, |m| m["type"] == "snapshot").await;
    }
}

#[tokio::test]
async fn many_sockets_on_one_seat_share_its_chat_and_resync_budget() {
    use futures_util::SinkExt;
    let b = Binary::start(
        "seat-budget",
        &[
            ("PREF_SEAT_HEAVY_BURST", "4"),
            ("PREF_SEAT_HEAVY_PER_SECOND", "1"),
            ("PREF_MAX_CONNS_PER_TOKEN", "8"),
        ],
    );
    let addr = &b.addr;
    let info = table(addr, json!("sochi"), 3, true).await;
    let mut anna = Vec::new();
    for _ in 0..4 {
        let mut ws = connect(addr, &info.id, Some(&info.tokens[0]), "").await;
        until(&mut ws, |m| m["type"] == "snapshot").await;
        anna.push(ws);
    }
    // Three resyncs from each of four sockets: twelve asked, the seat's burst of four (and
    // at most one refill per second) answered, the rest refused.
    let began = Instant::now();
    for ws in &mut anna {
        for _ in 0..3 {
            send(ws, json!({"type": "resync"})).await;
        }
    }
    let (mut snapshots, mut limited) = (0, 0);
    for ws in &mut anna {
        for _ in 0..3 {
            let m = until(ws, |m| {
                m["type"] == "snapshot" || m["code"] == "rate_limited"
            })
            .await;
            if m["type"] == "snapshot" {
                snapshots += 1;
            } else {
                limited += 1;
            }
        }
    }
    let refills = began.elapsed().as_secs() as usize + 1;
    assert!(
        snapshots >= 4 && snapshots <= 4 + refills,
        "{snapshots} snapshots"
    );
    assert_eq!(snapshots + limited, 12);
    // Binary frames spend the same budget: three at once, at most one refilled, so at
    // least two are refused as over it.
    let mut over = 0;
    for _ in 0..3 {
        anna[0]
            .send(tungstenite::Message::Binary(vec![0u8; 8].into()))
            .await
            .unwrap();
    }
    for _ in 0..3 {
        let m = until(&mut anna[0], |m| m["type"] == "error").await;
        over += usize::from(m["code"] == "rate_limited");
    }
    assert!(
        over >= 2,
        "{over} binary frames refused as over the seat's budget"
    );
    // Boris's seat has its own budget: his resync is answered at once.
    let mut boris = connect(addr, &info.id, Some(&info.tokens[1]), "").await;
    until(&mut boris, |m| m["type"] == "snapshot").await;
    let asked = Instant::now();
    send(&mut boris, json!({"type": "resync"})).await;
    until(&mut boris, |m| m["type"] == "snapshot").await;
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    still_serves(addr, Duration::from_secs(10)).await;
}
