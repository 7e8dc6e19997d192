//! The scorekeeper's refusals over HTTP (`docs/protocol.md`, "Scorekeeping"): bad input is
//! refused with a typed error and changes nothing, an impossible deal names its rule and the
//! deal, and every budget and stream cap refuses each address over its own.

mod common;
mod keeper_common;

use common::{http, server, strict};
use pref_protocol::KeeperCreated;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use keeper_common::*;

/// Bad input gets a typed error naming what to fix, and the sheet stays as it was; limits
/// on sheets, deals and changes are settings.
#[tokio::test]
async fn bad_input_is_refused_and_changes_nothing() {
    let (addr, _dir) = server("keeper-bad", |c| {
        roomy(c);
        c.limits.max_keepers = 2;
        c.limits.keeper_max_deals = 2;
    })
    .await;
    let bad_create = [
        (
            json!({"players": ["A", "B"]}),
            400,
            "2 players named for a table of 3",
        ),
        (json!({"players": ["A", "B", ""]}), 400, ""),
        (
            json!({"players": ["A", "B", "C"], "first_dealer": 3}),
            400,
            "seat 3 is not at the table (R1.2)",
        ),
        (
            json!({"players": ["A", "B", "C"], "profile": "nowhere"}),
            422,
            "",
        ),
        (json!({"players": ["A", "B", "C"], "colour": 1}), 400, ""),
    ];
    for (body, status, message) in bad_create {
        let (s, v) = http(&addr, "POST", "/api/keeper", Some(&body), None).await;
        assert_eq!(s, status, "{body}: {v}");
        assert!(v["message"].as_str().unwrap().contains(message), "{v}");
    }
    let (s, v) = http(
        &addr,
        "POST",
        "/api/keeper",
        Some(&json!({"players": ["Anna", "Boris", "Vera"]})),
        None,
    )
    .await;
    assert_eq!(s, 201, "{v}");
    let k: KeeperCreated = strict(&v);
    let deals = format!("/api/keeper/{}/deals", k.id);
    let raspasy = json!({"outcome": {"kind": "raspasy", "tricks": [4, 3, 3]}});
    let refused = [
        // No token, a wrong token.
        (None, raspasy.clone(), 403, "Bearer"),
        (Some("0".repeat(32)), raspasy.clone(), 403, "keeper token"),
        // R5.2: half-whist only against 6 and 7.
        (
            Some(k.keeper_token.clone()),
            json!({"outcome": {"kind": "game", "declarer": 1, "contract": "8S", "whist": ["half", null, "pass"]}}),
            422,
            "deal 1: half-whist is only against 6 and 7, not 8 (R5.2)",
        ),
        (
            Some(k.keeper_token.clone()),
            json!({"outcome": {"kind": "raspasy", "tricks": [4, 3, 4]}}),
            422,
            "deal 1: the tricks add up to 11, not 10 (R6.1)",
        ),
        (
            Some(k.keeper_token.clone()),
            json!({"outcome": {"kind": "raspasy", "tricks": [4, 3, 3], "when": 1}}),
            422,
            "deal 1: unknown key \"when\"",
        ),
        (
            Some(k.keeper_token.clone()),
            json!({"outcome": {"kind": "misere", "declarer": 5, "tricks": [0, 5, 5]}}),
            422,
            "deal 1: seat 5 is not at the table (R1.2)",
        ),
        (
            Some(k.keeper_token.clone()),
            json!({"deal": 1}),
            400,
            "bad JSON body",
        ),
    ];
    for (token, body, status, message) in refused {
        let (s, v) = http(&addr, "POST", &deals, Some(&body), token.as_deref()).await;
        assert_eq!(s, status, "{body}: {v}");
        assert!(
            v["message"].as_str().unwrap().contains(message),
            "{message} in {v}"
        );
        assert!(v["error"].is_string());
        assert_eq!(view(&addr, &k.id).await, k.sheet, "nothing changed");
    }
    // Correcting or deleting a deal that is not there; an unknown sheet.
    let (s, _) = http(
        &addr,
        "DELETE",
        &format!("{deals}/0"),
        None,
        Some(&k.keeper_token),
    )
    .await;
    assert_eq!(s, 400);
    let (s, v) = http(
        &addr,
        "GET",
        &format!("/api/keeper/{}", "1".repeat(32)),
        None,
        None,
    )
    .await;
    assert_eq!((s, v["error"].as_str()), (404, Some("no_table")));
    let (s, _) = http(&addr, "GET", "/api/keeper/zz", None, None).await;
    assert_eq!(s, 404);
    // The check endpoint answers the same without changing anything.
    let check = format!("/api/keeper/{}/check", k.id);
    let (s, v) = http(
        &addr,
        "POST",
        &check,
        Some(&json!({"outcome": {"kind": "raspasy", "tricks": [4, 3, 4]}})),
        None,
    )
    .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (422, Some("deal 1: the tricks add up to 11, not 10 (R6.1)"))
    );
    let (s, v) = http(&addr, "POST", &check, Some(&raspasy), None).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["deal"]["sheet"]["mountain"], json!([4, 3, 3]));
    assert_eq!(view(&addr, &k.id).await, k.sheet);
    // An agreed stop bars new deals until it is taken back.
    let stop = format!("/api/keeper/{}/stop", k.id);
    assert_eq!(
        http(
            &addr,
            "POST",
            &stop,
            Some(&json!({"agreed": true})),
            Some(&k.keeper_token)
        )
        .await
        .0,
        200
    );
    let stopped = view(&addr, &k.id).await;
    assert_eq!(stopped.settlement.as_ref().map(|s| s.agreed), Some(true));
    assert_eq!(
        http(&addr, "POST", &deals, Some(&raspasy), Some(&k.keeper_token))
            .await
            .0,
        409
    );
    assert_eq!(view(&addr, &k.id).await, stopped);
    assert_eq!(
        http(
            &addr,
            "POST",
            &stop,
            Some(&json!({"agreed": false})),
            Some(&k.keeper_token)
        )
        .await
        .0,
        200
    );
    // The deal limit.
    for _ in 0..2 {
        assert_eq!(
            http(&addr, "POST", &deals, Some(&raspasy), Some(&k.keeper_token))
                .await
                .0,
            200
        );
    }
    let full = view(&addr, &k.id).await;
    let (s, v) = http(&addr, "POST", &deals, Some(&raspasy), Some(&k.keeper_token)).await;
    assert_eq!(s, 400, "{v}");
    assert!(v["message"].as_str().unwrap().contains("at most 2 deals"));
    assert_eq!(view(&addr, &k.id).await, full);
    // The sheet limit.
    let body = json!({"players": ["Anna", "Boris", "Vera"]});
    assert_eq!(
        http(&addr, "POST", "/api/keeper", Some(&body), None)
            .await
            .0,
        201
    );
    let (s, v) = http(&addr, "POST", "/api/keeper", Some(&body), None).await;
    assert_eq!((s, v["error"].as_str()), (503, Some("full")));
    // An import of a played record is refused: a sheet holds outcomes.
    let played: Value =
        serde_json::from_str(&std::fs::read_to_string(records_dir().join("misere.json")).unwrap())
            .unwrap();
    let (s, v) = http(&addr, "POST", "/api/keeper/import", Some(&played), None).await;
    assert_eq!(s, 400, "{v}");
}

/// R1.2, R5, R6.1, R6.5, R7.1, R9.4: every refusal of an impossible deal names the deal as the
/// sheet and its form count it (from 1) and the rule it breaks, word for word; a misère
/// entered with whists is told that misère has no whists, not that a key is unknown.
#[tokio::test]
async fn every_refusal_of_an_impossible_deal_names_its_rule_and_the_deal_as_the_form_counts() {
    let (addr, _dir) = server("keeper-words", roomy).await;
    let body = json!({"players": ["A", "B", "C"], "first_dealer": 3});
    let (s, v) = http(&addr, "POST", "/api/keeper", Some(&body), None).await;
    assert_eq!(
        (s, v),
        (
            400,
            json!({"error": "bad_request", "message": "seat 3 is not at the table (R1.2)"})
        )
    );
    let body =
        json!({"profile": {"preset": "sochi", "pool_target": 2}, "players": ["A", "B", "C"]});
    let (_, v) = http(&addr, "POST", "/api/keeper", Some(&body), None).await;
    let k: KeeperCreated = strict(&v);
    for _ in 0..3 {
        let (s, v) = add(&addr, &k, &json!({"kind": "raspasy", "tricks": [4, 3, 3]})).await;
        assert_eq!(s, 200, "{v}");
    }
    // The form shows the next deal as deal 4.
    let refused = [
        (
            json!({"kind": "raspasy", "tricks": [4, 3, 2]}),
            "deal 4: the tricks add up to 9, not 10 (R6.1)",
        ),
        (
            json!({"kind": "misere", "declarer": 3, "tricks": [0, 5, 5]}),
            "deal 4: seat 3 is not at the table (R1.2)",
        ),
        (
            json!({"kind": "misere", "declarer": 1, "whist": [null, null, "whist"], "tricks": [5, 0, 5]}),
            "deal 4: a misère has no whist decisions: whist is for trick contracts only (R5)",
        ),
        (
            json!({"kind": "misere", "declarer": 1}),
            "deal 4: the tricks are missing: a misère is always played (R6.5)",
        ),
        (
            json!({"kind": "raspasy"}),
            "deal 4: the tricks are missing: raspasy is always played (R7.1)",
        ),
        (
            json!({"kind": "game", "declarer": 1, "contract": "7H", "tricks": [3, 7, 0]}),
            "deal 4: the whist decisions are missing (R5.1)",
        ),
        (
            json!({"kind": "game", "declarer": 1, "contract": "7H", "whist": ["whist", "pass", "pass"], "tricks": [3, 7, 0]}),
            "deal 4: the declarer (seat 1) makes no whist decision: his entry must be null (R5.1)",
        ),
    ];
    let check = format!("/api/keeper/{}/check", k.id);
    for (outcome, message) in refused {
        let expected = json!({"error": "bad_deal", "message": message});
        let (s, v) = add(&addr, &k, &outcome).await;
        assert_eq!((s, &v), (422, &expected), "{outcome}");
        let (s, v) = http(
            &addr,
            "POST",
            &check,
            Some(&json!({"outcome": outcome})),
            None,
        )
        .await;
        assert_eq!((s, &v), (422, &expected), "check {outcome}");
    }
    // A correction of the second deal names deal 2.
    let (s, v) = http(
        &addr,
        "PUT",
        &format!("/api/keeper/{}/deals/1", k.id),
        Some(&json!({"outcome": {"kind": "raspasy", "tricks": [4, 4, 4]}})),
        Some(&k.keeper_token),
    )
    .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (422, Some("deal 2: the tricks add up to 12, not 10 (R6.1)"))
    );
    // A record imported with a deal after the last pool closed (R9.4).
    let closed =
        json!({"kind": "game", "declarer": 0, "contract": "6S", "whist": [null, "pass", "pass"]});
    let doc = json!({
        "format": "pref-record/1",
        "profile": {"preset": "sochi", "pool_target": 2},
        "players": ["A", "B", "C"],
        "first_dealer": 0,
        "deals": [{"outcome": closed}, {"outcome": closed}, {"outcome": closed}, {"outcome": closed}],
    });
    let (s, v) = http(&addr, "POST", "/api/keeper/import", Some(&doc), None).await;
    assert_eq!(
        (s, v["message"].as_str()),
        (
            422,
            Some("deal 4: the game is over: every pool is closed (R9.4)")
        ),
        "{v}"
    );
    assert_eq!(view(&addr, &k.id).await.deals.len(), 3, "nothing changed");
}

/// Opening and importing sheets spend one budget of the client's address, every request on
/// a sheet (its view, a check, a change, a stream) another: over each, `429 rate_limited`
/// with the documented body, and nothing is opened.
#[tokio::test]
async fn budgets_refuse_each_address_over_its_own() {
    let (addr, _dir) = server("keeper-budgets", |c| {
        c.limits.keeper_sheets_per_ip_per_minute = 1;
        c.limits.keeper_sheet_burst_per_ip = 2;
        c.limits.keeper_requests_per_ip_per_second = 1;
        c.limits.keeper_request_burst_per_ip = 3;
    })
    .await;
    let body = json!({"players": ["Anna", "Boris", "Vera"]});
    let (s, v) = http(&addr, "POST", "/api/keeper", Some(&body), None).await;
    assert_eq!(s, 201, "{v}");
    let k: KeeperCreated = strict(&v);
    let doc = json!({"format": "pref-record/1", "profile": "sochi", "players": ["A", "B", "C"],
        "first_dealer": 0, "deals": []});
    assert_eq!(
        http(&addr, "POST", "/api/keeper/import", Some(&doc), None)
            .await
            .0,
        201
    );
    let over = "too many scorekeeping sheets opened or imported from this address; try again in";
    refused_over(
        http(&addr, "POST", "/api/keeper", Some(&body), None).await,
        over,
    );
    refused_over(
        http(&addr, "POST", "/api/keeper/import", Some(&doc), None).await,
        over,
    );
    // Requests on the sheet: a burst of 3, then one a second.
    let started = std::time::Instant::now();
    let path = format!("/api/keeper/{}", k.id);
    let check = format!("/api/keeper/{}/check", k.id);
    let raspasy = json!({"outcome": {"kind": "raspasy", "tricks": [4, 3, 3]}});
    let mut answers = Vec::new();
    for i in 0..8 {
        answers.push(if i % 2 == 0 {
            http(&addr, "GET", &path, None, None).await
        } else {
            http(&addr, "POST", &check, Some(&raspasy), None).await
        });
    }
    let secs = started.elapsed().as_secs() as usize;
    let ok = answers.iter().filter(|(s, _)| *s == 200).count();
    assert!(answers[..3].iter().all(|(s, _)| *s == 200), "{answers:?}");
    assert!(ok <= 3 + secs, "{ok} answered in {secs} s: {answers:?}");
    let refused = answers.iter().find(|(s, _)| *s == 429).expect("a refusal");
    refused_over(
        refused.clone(),
        "too many requests on scorekeeping sheets from this address; try again in",
    );
}

/// `answer` is a `429 rate_limited` whose message begins with `words` (the seconds to wait
/// follow them).
fn refused_over(answer: (u16, Value), words: &str) {
    let (status, body) = &answer;
    assert_eq!(*status, 429, "{body}");
    assert_eq!(body["error"], "rate_limited", "{body}");
    let message = body["message"].as_str().expect("a message");
    assert!(message.starts_with(words), "{message}");
    assert_eq!(body.as_object().map(|o| o.len()), Some(2), "{body}");
}

/// An event stream from `ip` (a loopback address of its own) on `sheet`: the status, what
/// was read of the answer, and the connection while it is open.
async fn stream(addr: &str, ip: [u8; 4], sheet: &str) -> (u16, String, tokio::net::TcpStream) {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind((std::net::Ipv4Addr::from(ip), 0).into())
        .unwrap();
    let mut s = socket.connect(addr.parse().unwrap()).await.unwrap();
    let req = format!(
        "GET /api/keeper/{sheet}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    let status = loop {
        let n = tokio::time::timeout(std::time::Duration::from_secs(10), s.read(&mut buf))
            .await
            .expect("an answer in time")
            .unwrap();
        assert!(n > 0, "an answer");
        seen.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&seen);
        let status: u16 = text[9..12].parse().unwrap();
        if (status != 200 && text.contains("\"}")) || text.contains("event: sheet") {
            break status;
        }
    };
    (status, String::from_utf8_lossy(&seen).into_owned(), s)
}

/// A thousand streams from one address no longer hold a thousand descriptors: streams are
/// counted per address, per sheet and on the node, refused beyond each cap before the
/// stream starts (`429`, `503` for the node's), and a stream that ends gives its place back.
#[tokio::test]
async fn sheet_streams_are_counted_and_refused_over_each_cap() {
    let (addr, _dir) = server("keeper-streams", |c| {
        roomy(c);
        c.limits.max_streams_per_ip = 2;
        c.limits.max_streams_per_sheet = 3;
        c.limits.max_streams = 4;
    })
    .await;
    let body = json!({"players": ["Anna", "Boris", "Vera"]});
    let mut sheets = Vec::new();
    for _ in 0..2 {
        let (_, v) = http(&addr, "POST", "/api/keeper", Some(&body), None).await;
        sheets.push(strict::<KeeperCreated>(&v).id);
    }
    let (a, b) = (sheets[0].as_str(), sheets[1].as_str());
    let (s1, _, first) = stream(&addr, [127, 0, 0, 1], a).await;
    let (s2, _, _second) = stream(&addr, [127, 0, 0, 1], a).await;
    assert_eq!((s1, s2), (200, 200));
    // The address's third.
    let (s, text, _) = stream(&addr, [127, 0, 0, 1], b).await;
    assert_eq!(s, 429);
    assert!(
        text.contains(
            r#"{"error":"rate_limited","message":"too many sheet streams from this address"}"#
        ),
        "{text}"
    );
    // The sheet's fourth.
    let (s3, _, _third) = stream(&addr, [127, 0, 0, 2], a).await;
    assert_eq!(s3, 200);
    assert_eq!(stream(&addr, [127, 0, 0, 2], a).await.0, 429);
    // The node's fifth.
    let (s4, _, _fourth) = stream(&addr, [127, 0, 0, 2], b).await;
    assert_eq!(s4, 200);
    let (s, text, _) = stream(&addr, [127, 0, 0, 3], b).await;
    assert_eq!(s, 503);
    assert!(
        text.contains(r#"{"error":"full","message":"the server is full; try again later"}"#),
        "{text}"
    );
    // The first stream ends: its place comes back (once the node sees it closed).
    drop(first);
    let started = std::time::Instant::now();
    loop {
        let (s, _, _again) = stream(&addr, [127, 0, 0, 3], b).await;
        if s == 200 {
            eprintln!("the place came back after {:?}", started.elapsed());
            break;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(40),
            "the place came back"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}
