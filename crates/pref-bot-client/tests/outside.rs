//! The `pref-bot` binary, another process, plays the server's strong bot through the bot
//! API beside a person (random legal moves over her own socket) and a house bot: it waits
//! for the host's invitation, takes the kept seat, plays every deal from the view its seat
//! is sent, and leaves when the game is over. The game is two deals, then ended by
//! agreement (R10.3), so that the test stays short.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use pref_server::config::{Config, Millis};
use rand::seq::SliceRandom;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// One request with extra header lines: status, lower-cased head, JSON body.
async fn raw(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
    headers: &str,
) -> (u16, String, Value) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap();
    (
        head[9..12].parse().unwrap(),
        head.to_ascii_lowercase(),
        serde_json::from_str(rest).unwrap_or(Value::Null),
    )
}

/// A bot account's token, made as its owner would in a browser.
async fn bot_token(addr: &str) -> String {
    let origin = format!("Origin: http://{addr}\r\n");
    let body = json!({"name": "Strongbot", "password": "a long password"});
    let (status, head, made) = raw(addr, "POST", "/api/accounts", Some(body), &origin).await;
    assert_eq!(status, 201, "{made}");
    let cookie = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie:"))
        .and_then(|c| c.split(';').next())
        .unwrap()
        .trim()
        .to_owned();
    let signed = format!("{origin}Cookie: {cookie}\r\n");
    let (status, _, me) = raw(addr, "POST", "/api/me/bot", None, &signed).await;
    assert_eq!((status, me["bot"].as_bool()), (200, Some(true)), "{me}");
    let (status, _, made) = raw(
        addr,
        "POST",
        "/api/me/tokens",
        Some(json!({"name": "ci"})),
        &signed,
    )
    .await;
    assert_eq!(status, 200, "{made}");
    made["token"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_strong_bot_plays_a_game_as_an_outside_program() {
    let dir = std::env::temp_dir().join(format!(
        "pref-bot-outside-{}-{}",
        std::process::id(),
        rand::random::<u32>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.clone(),
        ..Config::default()
    };
    config.accounts.argon2_memory_kib = 8;
    config.accounts.argon2_iterations = 1;
    config.limits.bot_delay_min_ms = Millis(0);
    config.limits.bot_delay_max_ms = Millis(0);
    // Anna answers every turn at once, for both defenders when she whists openly: some
    // thirty actions a second against an instant house bot, above a person's budget (10 a
    // second, 20 at once), which drops the one over it and leaves her waiting for a turn.
    config.limits.messages_per_second = 1_000;
    config.limits.message_burst = 1_000;
    let addr = pref_server::start(config).await.unwrap().addr.to_string();
    let token = bot_token(&addr).await;
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_pref-bot"))
        .args([
            "--server",
            &format!("http://{addr}"),
            "--token",
            &token,
            "--poll",
            "1",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let done = tokio::task::spawn_blocking(move || child.wait_with_output());

    let (status, _, created) = raw(
        &addr,
        "POST",
        "/api/tables",
        Some(json!({"profile": {"preset": "sochi", "pool_target": 1}})),
        "",
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let host = format!(
        "Authorization: Bearer {}\r\n",
        created["host_token"].as_str().unwrap()
    );
    let key = created["invite"]
        .as_str()
        .unwrap()
        .split_once("#invite=")
        .unwrap()
        .1
        .to_owned();
    let (status, _, s) = raw(
        &addr,
        "POST",
        &format!("/api/tables/{id}/seats/1/invite"),
        Some(json!({"name": "Strongbot"})),
        &host,
    )
    .await;
    assert_eq!(status, 200, "{s}");
    let (status, _, anna) = raw(
        &addr,
        "POST",
        &format!("/api/tables/{id}/seats"),
        Some(json!({"name": "Anna", "invite": key})),
        "",
    )
    .await;
    assert_eq!(status, 200, "{anna}");
    let (status, _, s) = raw(
        &addr,
        "POST",
        &format!("/api/tables/{id}/seats/2/bot"),
        Some(json!({"level": "easy"})),
        &host,
    )
    .await;
    assert_eq!(status, 200, "{s}");
    // The bot is another process polling for its invitation: its seat is awaited on the
    // real clock, with a deadline.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (_, _, s) = raw(&addr, "GET", &format!("/api/tables/{id}"), None, "").await;
        if s["seats"][1]["name"] == "Strongbot" {
            assert_eq!(s["seats"][1]["bot_account"], true, "{s}");
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the bot took no seat: {s}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // Anna plays random legal moves and starts the second deal; then the host ends.
    let url = format!("ws://{addr}/api/tables/{id}/ws");
    let mut req =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(url)
            .unwrap();
    let offer = pref_protocol::subprotocol::offer(anna["token"].as_str());
    req.headers_mut()
        .insert("sec-websocket-protocol", offer.parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    let (status, _, s) = raw(
        &addr,
        "POST",
        &format!("/api/tables/{id}/start"),
        None,
        &host,
    )
    .await;
    assert_eq!(status, 200, "{s}");
    let mut rng = rand::thread_rng();
    let mut finished = 0;
    // The server's pings come every 20 s: the game has stalled when no text came for two
    // minutes, whatever else did.
    let mut quiet_until = tokio::time::Instant::now() + Duration::from_secs(120);
    let over = loop {
        let msg = tokio::time::timeout_at(quiet_until, ws.next())
            .await
            .expect("the game stalled: no event for two minutes");
        let Some(Ok(Message::Text(text))) = msg else {
            assert!(msg.is_some(), "Anna's socket closed");
            continue;
        };
        quiet_until = tokio::time::Instant::now() + Duration::from_secs(120);
        let m: Value = serde_json::from_str(&text).unwrap();
        let version = m["version"].as_u64().unwrap_or(0);
        match m["event"]["kind"].as_str() {
            Some("deal_finished") if m["event"]["game_over"] == true => break false,
            Some("deal_finished") => {
                finished += 1;
                if finished == 2 {
                    let (status, _, s) =
                        raw(&addr, "POST", &format!("/api/tables/{id}/end"), None, &host).await;
                    assert_eq!(status, 200, "{s}");
                    // Anna, a person, is asked (R10.3); the bot account accepted at once.
                    let anna_auth = format!(
                        "Authorization: Bearer {}\r\n",
                        anna["token"].as_str().unwrap()
                    );
                    let vote = json!({"vote": "accept"});
                    let path = format!("/api/tables/{id}/stop");
                    let (status, _, s) = raw(&addr, "POST", &path, Some(vote), &anna_auth).await;
                    assert_eq!(status, 200, "{s}");
                    assert_eq!(s["phase"], "over", "{s}");
                } else {
                    let next = json!({"type": "next_deal", "id": "n", "version": version});
                    ws.send(Message::Text(next.to_string().into()))
                        .await
                        .unwrap();
                }
            }
            Some("game_over") => break true,
            _ => {}
        }
        let legal = m["turn"]["legal"].as_array().cloned().unwrap_or_default();
        if let Some(a) = legal.choose(&mut rng) {
            let act = json!({"type": "action", "id": "a", "version": version, "action": a});
            ws.send(Message::Text(act.to_string().into()))
                .await
                .unwrap();
        }
    };
    let out = tokio::time::timeout(Duration::from_secs(60), done)
        .await
        .expect("the bot did not leave after the game")
        .unwrap()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Strongbot sits in seat 1"), "{stdout}");
    assert!(stdout.contains("the game is over"), "{stdout}");
    let acted: u32 = stdout
        .split("deals, ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(acted >= 2, "the bot acted in every deal: {stdout}");
    let _ = over;
    let _ = std::fs::remove_dir_all(dir);
}
