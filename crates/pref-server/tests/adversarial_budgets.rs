//! Attacks on a running server's budgets and caps (the real binary, over real sockets and
//! HTTP): binary floods, socket openings from one address, the connection caps, table
//! openings, clients behind a trusted proxy, many sockets on one seat. Each is refused and
//! the server still serves an honest table afterwards; `docs/security.md` lists them.

mod adversarial_common;
mod common;

use std::time::{Duration, Instant};

use common::*;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite;

use adversarial_common::*;

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
    sockets_closed(addr).await;
    still_serves(addr, Duration::from_secs(10)).await;
}

/// Waits (at most 10 s) until the node counts no open socket (`pref_connections 0` in
/// `/metrics`): each socket gives its places back as it ends, right after that count.
async fn sockets_closed(addr: &str) {
    let began = Instant::now();
    loop {
        let (_, text) = http_text(addr, "GET", "/metrics", None, None).await;
        if text.lines().any(|l| l == "pref_connections 0") {
            return;
        }
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "sockets still open: {text}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
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
