//! Attacks on a running server (the real binary, over real sockets and HTTP), each tried and
//! refused, and the server still serving an honest table afterwards. `docs/security.md`
//! lists the threats these answer.

mod adversarial_common;
mod common;

use std::time::Duration;

use common::*;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use adversarial_common::*;

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
