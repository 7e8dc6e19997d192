//! After the deal, over HTTP (`docs/protocol.md`, `docs/analysis.md`): a deal's analysis is
//! refused, naming no card, to a spectator and to a player while the deal runs and while a
//! finished deal's hands stay hidden; once every card may be seen it is exactly
//! `pref-analysis`'s document for the deal. A finished deal's hands position by position
//! (`/deals/{n}/hands`) follow the same rule, with every hand before each trick exactly the
//! cards its seat plays from there. An uploaded record is analysed one deal at a time,
//! within a size and a rate limit, with errors in the API's one shape.

mod common;

use std::time::Duration;

use common::*;
use pref_analysis::{Analyser, Parts, json as analysis_json};
use pref_core::{Card, Record};
use pref_protocol::ApiErrorBody;
use serde_json::{Value, json};

async fn analysis(addr: &str, id: &str, deal: usize, bearer: Option<&str>) -> (u16, String) {
    let path = format!("/api/tables/{id}/deals/{deal}/analysis");
    http_text(addr, "GET", &path, None, bearer).await
}

async fn hands(addr: &str, id: &str, deal: usize, bearer: Option<&str>) -> (u16, String) {
    let path = format!("/api/tables/{id}/deals/{deal}/hands");
    http_text(addr, "GET", &path, None, bearer).await
}

/// Checks a deal's hands against `record`: as dealt, and before each trick exactly the cards
/// each seat plays from that trick on (the bots' deal is played out, or ended by a claim
/// whose unplayed cards are in `left`).
fn check_hands(record: &Record, deal: usize, got: &Value) {
    let pref_core::RecordDeal::Played { hands, actions, .. } = &record.deals()[deal] else {
        panic!("a played deal");
    };
    assert_eq!(got["deal"], json!(deal));
    let dealt: Vec<Vec<String>> = hands
        .iter()
        .map(|h| {
            let set: pref_core::CardSet = h.iter().copied().collect();
            set.iter().map(|c| c.to_string()).collect()
        })
        .collect();
    assert_eq!(got["dealt"], json!(dealt));
    let plays: Vec<(usize, String)> = actions
        .iter()
        .filter_map(|&(s, a)| match a {
            pref_core::Action::Play(c) => Some((s.index(), c.to_string())),
            _ => None,
        })
        .collect();
    let tricks = got["tricks"].as_array().unwrap();
    assert_eq!(tricks.len(), plays.len().div_ceil(3), "{got}");
    for (k, position) in tricks.iter().enumerate() {
        for (s, held) in position.as_array().unwrap().iter().enumerate() {
            let mut want: std::collections::BTreeSet<String> = got["left"][s]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_owned())
                .collect();
            want.extend(
                plays[3 * k..]
                    .iter()
                    .filter(|p| p.0 == s)
                    .map(|p| p.1.clone()),
            );
            let shown: std::collections::BTreeSet<String> = held
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_owned())
                .collect();
            assert_eq!(shown, want, "trick {k}, seat {s}");
        }
    }
}

/// A refusal in the API's error shape, with code `code`, naming no card.
fn refused(status: u16, text: &str, want: u16, code: &str) -> ApiErrorBody {
    assert_eq!(status, want, "{text}");
    let body: ApiErrorBody = strict(&serde_json::from_str(text).expect("a JSON error"));
    assert_eq!(body.error, code, "{text}");
    for i in 0..32 {
        let card = Card::from_index(i).to_string();
        let named = text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w == card);
        assert!(!named, "the refusal {text} names {card}");
    }
    body
}

/// What `pref analyze --json --deal N` gives for deal `deal` of `record`.
fn expected(record: &Record, deal: usize) -> Value {
    let deals = Analyser::new()
        .record(record, Some(deal), Parts::ALL)
        .unwrap();
    analysis_json::document(record.players(), &deals)
}

async fn record_of(addr: &str, id: &str) -> Record {
    let (status, text) =
        http_text(addr, "GET", &format!("/api/tables/{id}/record"), None, None).await;
    assert_eq!(status, 200, "{text}");
    Record::from_json_str(&text).unwrap()
}

async fn bots_table(addr: &str, profile: Value) -> (String, Ws) {
    let (id, host) = lobby(addr, profile).await;
    for seat in 0..3 {
        let path = format!("/api/tables/{id}/seats/{seat}/bot");
        let (status, body) = http(
            addr,
            "POST",
            &path,
            Some(&json!({"level": "easy"})),
            Some(&host),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    let spectator = connect(addr, &id, None, "").await;
    let (status, body) = http(
        addr,
        "POST",
        &format!("/api/tables/{id}/start"),
        None,
        Some(&host),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    (id, spectator)
}

/// Reads the spectator's socket until an item of `kind`.
async fn until_item(ws: &mut Ws, kind: &str) {
    tokio::time::timeout(
        Duration::from_secs(240),
        until(ws, |m| m["event"]["kind"] == kind),
    )
    .await
    .unwrap_or_else(|_| panic!("no {kind} in time"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_deal_is_refused_to_a_spectator_and_to_its_players() {
    let addr = quick_server("analysis-running").await;
    let t = table(&addr, json!("sochi"), 3, true).await;
    for bearer in [None, Some(t.tokens[0].as_str()), Some(t.tokens[2].as_str())] {
        let (status, text) = analysis(&addr, &t.id, 0, bearer).await;
        let body = refused(status, &text, 409, "conflict");
        assert_eq!(body.message, "deal 0 is not finished (0 deals are)");
        let (status, text) = analysis(&addr, &t.id, 5, bearer).await;
        refused(status, &text, 409, "conflict");
        let (status, text) = hands(&addr, &t.id, 0, bearer).await;
        let body = refused(status, &text, 409, "conflict");
        assert_eq!(body.message, "deal 0 is not finished (0 deals are)");
    }
    let (status, text) = http_text(
        &addr,
        "GET",
        &format!("/api/tables/{}/deals/x/analysis", t.id),
        None,
        None,
    )
    .await;
    refused(status, &text, 400, "bad_request");
    let (status, text) = analysis(&addr, "00000000000000000000000000000000", 0, None).await;
    refused(status, &text, 404, "no_table");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revealed_deal_is_served_as_pref_analysis_gives_it() {
    let addr = quick_server("analysis-revealed").await;
    let (id, mut spectator) =
        bots_table(&addr, json!({"preset": "sochi", "pool_target": 20})).await;
    until_item(&mut spectator, "deal_finished").await;
    let record = record_of(&addr, &id).await;
    let want = expected(&record, 0);
    for bearer in [None, Some("0123456789abcdef0123456789abcdef")] {
        let (status, text) = analysis(&addr, &id, 0, bearer).await;
        assert_eq!(status, 200, "{text}");
        let got: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(got, want);
        assert_eq!(got["deals"][0]["deal"], json!(0));
        let (status, text) = hands(&addr, &id, 0, bearer).await;
        assert_eq!(status, 200, "{text}");
        check_hands(&record, 0, &serde_json::from_str(&text).unwrap());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_deal_is_refused_until_the_game_is_over() {
    let addr = quick_server("analysis-hidden").await;
    let profile = json!({"preset": "sochi", "pool_target": 2, "reveal_after_deal": false});
    let (id, mut spectator) = bots_table(&addr, profile).await;
    until_item(&mut spectator, "deal_finished").await;
    let (status, text) = analysis(&addr, &id, 0, None).await;
    if status != 200 {
        // Unless the pool closed already, the finished deal's hands are still hidden.
        let body = refused(status, &text, 409, "conflict");
        assert!(
            body.message.contains("reveal_after_deal = false"),
            "{}",
            body.message
        );
        let (status, text) = hands(&addr, &id, 0, None).await;
        if status != 200 {
            let body = refused(status, &text, 409, "conflict");
            assert!(body.message.contains("reveal_after_deal = false"), "{text}");
        }
    }
    until_item(&mut spectator, "game_over").await;
    let record = record_of(&addr, &id).await;
    let (status, text) = analysis(&addr, &id, 0, None).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        expected(&record, 0)
    );
    let (status, text) = hands(&addr, &id, 0, None).await;
    assert_eq!(status, 200, "{text}");
    check_hands(&record, 0, &serde_json::from_str(&text).unwrap());
}

fn records() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/records")
}

/// `POST /api/analysis` with a raw body.
async fn upload(addr: &str, query: &str, body: &str) -> (u16, String) {
    post_raw(addr, "/api/analysis", query, body).await
}

/// `POST /api/analysis/hands` with a raw body.
async fn upload_hands(addr: &str, query: &str, body: &str) -> (u16, String) {
    post_raw(addr, "/api/analysis/hands", query, body).await
}

/// A POST of `body` as it is to `path` and `query`.
async fn post_raw(addr: &str, path: &str, query: &str, body: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "POST {path}{query} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw).await;
    let text = String::from_utf8_lossy(&raw).to_string();
    let status = text[9..12].parse().unwrap();
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uploaded_record_is_analysed_as_pref_analyze_prints_it() {
    let addr = quick_server("analysis-upload").await;
    let text = std::fs::read_to_string(records().join("misere.json")).unwrap();
    let (status, body) = upload(&addr, "?deal=0", &text).await;
    assert_eq!(status, 200, "{body}");
    let want: Value = serde_json::from_str(
        &std::fs::read_to_string(records().join("misere.analysis.out.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap(), want);

    let (status, body) = upload(&addr, "?deal=1", &text).await;
    let e = refused(status, &body, 400, "bad_request");
    assert_eq!(
        e.message,
        "the record has 1 deals; deal 1 is not one of them"
    );
    let (status, body) = upload(&addr, "?deal=one", &text).await;
    refused(status, &body, 400, "bad_request");
    let (status, body) = upload(&addr, "?deals=0", &text).await;
    refused(status, &body, 400, "bad_request");
    let (status, body) = upload(&addr, "", "{\"format\": \"pref-record/1\"}").await;
    let e = refused(status, &body, 400, "bad_request");
    assert!(
        e.message.starts_with("the record does not read: "),
        "{}",
        e.message
    );
    let big = " ".repeat(600 * 1024);
    let (status, body) = upload(&addr, "", &big).await;
    refused(status, &body, 413, "too_large");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uploaded_records_hands_are_every_hand_before_each_trick() {
    let (addr, _) = server("analysis-upload-hands", |c| {
        c.limits.analysis_burst = 10_000
    })
    .await;
    // Trick contracts, raspasy, misère, a claim, four players: every deal of each file, hand
    // by hand against the record's own plays.
    let mut deals = 0;
    for name in [
        "leningrad",
        "raspasy",
        "misere",
        "claims",
        "four-players",
        "open-defence",
    ] {
        let text = std::fs::read_to_string(records().join(format!("{name}.json"))).unwrap();
        let record = Record::from_json_str(&text).unwrap();
        for deal in 0..record.deals().len() {
            let (status, body) = upload_hands(&addr, &format!("?deal={deal}"), &text).await;
            assert_eq!(status, 200, "{name} deal {deal}: {body}");
            check_hands(&record, deal, &serde_json::from_str(&body).unwrap());
            deals += 1;
        }
    }
    assert!(deals >= 10, "{deals} deals");
    // The first deal when no deal is named; one past the end, a bad query, a record that
    // does not read and an oversized body are refused as the analysis's upload is.
    let text = std::fs::read_to_string(records().join("misere.json")).unwrap();
    let (status, body) = upload_hands(&addr, "", &text).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["deal"],
        json!(0)
    );
    let (status, body) = upload_hands(&addr, "?deal=1", &text).await;
    let e = refused(status, &body, 400, "bad_request");
    assert_eq!(
        e.message,
        "the record has 1 deals; deal 1 is not one of them"
    );
    let (status, body) = upload_hands(&addr, "?hand=0", &text).await;
    refused(status, &body, 400, "bad_request");
    let (status, body) = upload_hands(&addr, "", "{\"format\": \"pref-record/1\"}").await;
    let e = refused(status, &body, 400, "bad_request");
    assert!(
        e.message.starts_with("the record does not read: "),
        "{}",
        e.message
    );
    let (status, body) = upload_hands(&addr, "", &" ".repeat(600 * 1024)).await;
    refused(status, &body, 413, "too_large");
    // A deal written from its outcome alone has no cards to step through.
    let text = std::fs::read_to_string(records().join("house-rules.json")).unwrap();
    let (status, body) = upload_hands(&addr, "?deal=0", &text).await;
    let e = refused(status, &body, 409, "conflict");
    assert!(
        e.message.contains("scored from its outcome"),
        "{}",
        e.message
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hands_of_uploads_spend_the_uploads_budget() {
    let (addr, _) = server("analysis-upload-hands-rate", |c| {
        c.limits.analysis_burst = 2;
        c.limits.analysis_every_ms = pref_server::config::Millis(600_000);
    })
    .await;
    let text = std::fs::read_to_string(records().join("misere.json")).unwrap();
    let (status, body) = upload(&addr, "", &text).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = upload_hands(&addr, "", &text).await;
    assert_eq!(status, 200, "{body}");
    // The burst of two is spent by one of each: the third, of either kind, waits.
    let (status, body) = upload_hands(&addr, "", &text).await;
    let e = refused(status, &body, 429, "rate_limited");
    assert!(e.message.contains("try again in 600 s"), "{}", e.message);
    let (status, body) = upload(&addr, "", &text).await;
    refused(status, &body, 429, "rate_limited");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_past_the_rate_are_refused_with_their_own_code() {
    let addr = quick_server("analysis-rate").await;
    // The bucket is taken before the record is read, so refused records count too.
    let mut limited = None;
    for _ in 0..20 {
        let (status, body) = upload(&addr, "", "[]").await;
        if status == 429 {
            limited = Some(body);
            break;
        }
        refused(status, &body, 400, "bad_request");
    }
    let body = limited.expect("twenty uploads at once pass the burst of ten");
    let e = refused(429, &body, 429, "rate_limited");
    assert!(
        e.message.starts_with("too many records analysed"),
        "{}",
        e.message
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_upload_size_and_rate_are_settings() {
    let (addr, _) = server("analysis-settings", |c| {
        c.limits.analysis_max_record_bytes = 4096;
        c.limits.analysis_burst = 2;
        c.limits.analysis_every_ms = pref_server::config::Millis(600_000);
    })
    .await;
    let (status, body) = upload(&addr, "", &" ".repeat(5000)).await;
    let e = refused(status, &body, 413, "too_large");
    assert!(e.message.contains("up to 4 KiB"), "{}", e.message);
    // A body under the size reaches the bucket: two pass (and are refused as records), the
    // third waits for the interval.
    for _ in 0..2 {
        let (status, body) = upload(&addr, "", "[]").await;
        refused(status, &body, 400, "bad_request");
    }
    let (status, body) = upload(&addr, "", "[]").await;
    let e = refused(status, &body, 429, "rate_limited");
    assert!(e.message.contains("try again in 600 s"), "{}", e.message);
}
