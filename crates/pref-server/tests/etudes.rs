//! Études over HTTP (`docs/protocol.md`, "Études"): the list names the day's étude
//! and never an answer; an attempt is the player's cards so far, answered with the solver's
//! replies; the stated answer of `m1` solves it (R6.4: the misère declarer takes a trick), a
//! wrong lead is lost with the refutation, bad cards and unknown études are refused in the
//! API's error shape, and one address's moves are bounded. (The scan of stored games is
//! tested in `src/etudes/tests.rs`, on a game stored there.)

mod common;

use common::*;
use pref_protocol::{ApiErrorBody, EtudeAttempt, EtudeList, EtudeStatus};
use serde_json::{Value, json};

async fn attempt(addr: &str, id: &str, cards: &[&str]) -> (u16, Value) {
    http(
        addr,
        "POST",
        &format!("/api/etudes/{id}/attempt"),
        Some(&json!({ "cards": cards })),
        None,
    )
    .await
}

#[tokio::test]
async fn an_etude_is_solved_by_its_answer_and_lost_by_another_lead() {
    let (addr, _) = server("etudes", |_| {}).await;
    let (status, list) = http(&addr, "GET", "/api/etudes", None, None).await;
    assert_eq!(status, 200, "{list}");
    let list: EtudeList = strict(&list);
    assert_eq!(list.etudes.len(), 5);
    assert!(list.etudes.iter().any(|e| e.id == list.daily));
    assert_eq!(list.date.len(), 10);
    let text = serde_json::to_string(&list).unwrap();
    assert!(!text.contains("answer"), "{text}");

    // The start: player 0 (the player's) to lead, every card of his a legal lead.
    let (status, start) = attempt(&addr, "m1", &[]).await;
    assert_eq!(status, 200, "{start}");
    let start: EtudeAttempt = strict(&start);
    assert_eq!(start.status, EtudeStatus::Playing);
    assert_eq!(start.to_play, Some(0));
    assert_eq!(start.legal.len(), 5);

    // The answer, then at each turn the first legal card the server does not call lost.
    let mut cards: Vec<String> = vec!["QD".into()];
    let done = loop {
        let refs: Vec<&str> = cards.iter().map(String::as_str).collect();
        let (status, a) = attempt(&addr, "m1", &refs).await;
        assert_eq!(status, 200, "{a}");
        let a: EtudeAttempt = strict(&a);
        assert_ne!(a.status, EtudeStatus::Lost, "{cards:?}");
        if a.status == EtudeStatus::Solved {
            break a;
        }
        let mut next = None;
        for c in a.legal.iter() {
            let mut more = refs.clone();
            let c = c.to_string();
            more.push(&c);
            let (_, b) = attempt(&addr, "m1", &more).await;
            if b["status"] != "lost" {
                next = Some(c);
                break;
            }
        }
        cards.push(next.expect("a card that keeps the goal"));
    };
    assert!(done.declarer_tricks >= 1);
    assert_eq!(done.steps.len(), 15);
    assert_eq!(done.steps.iter().filter(|s| s.mine).count(), 10);
    assert!(done.steps.iter().filter(|s| !s.mine).all(|s| s.player == 2));

    // Another lead: lost at once, with the rest of the deal as refutation.
    let (status, lost) = attempt(&addr, "m1", &["9S"]).await;
    assert_eq!(status, 200, "{lost}");
    let lost: EtudeAttempt = strict(&lost);
    assert_eq!(lost.status, EtudeStatus::Lost);
    assert_eq!(lost.steps.len(), 1);
    assert_eq!(lost.refutation.len(), 14);
    assert_eq!(lost.to_play, None);
    assert!(lost.legal.is_empty());
}

fn refused(status: u16, body: &Value, want: u16, code: &str) -> String {
    assert_eq!(status, want, "{body}");
    let body: ApiErrorBody = strict(body);
    assert_eq!(body.error, code);
    body.message
}

#[tokio::test]
async fn bad_moves_unknown_etudes_and_too_many_moves_are_refused() {
    let (addr, _) = server("etudes-refused", |c| {
        c.limits.etude_requests_per_ip_per_minute = 1;
        c.limits.etude_request_burst_per_ip = 3;
    })
    .await;
    let (s, b) = attempt(&addr, "nope", &[]).await;
    refused(s, &b, 404, "no_etude");
    let (s, b) = http(&addr, "GET", "/api/etudes/nope", None, None).await;
    refused(s, &b, 404, "no_etude");
    // Player 1's ace of clubs is not player 0's to lead.
    let (s, b) = attempt(&addr, "m1", &["AC"]).await;
    let why = refused(s, &b, 400, "bad_request");
    assert_eq!(why, "card 1 (AC) may not be played at that turn");
    // A card after a lost one.
    let (s, b) = attempt(&addr, "m1", &["9S", "8S"]).await;
    let why = refused(s, &b, 400, "bad_request");
    assert!(why.starts_with("the attempt ended after 1"), "{why}");
    let (s, b) = http(
        &addr,
        "POST",
        "/api/etudes/m1/attempt",
        Some(&json!({"cards": ["QD"], "answer": "QD"})),
        None,
    )
    .await;
    refused(s, &b, 400, "bad_request");
    // The two refused moves spent two of the burst of 3 (the unknown étude and the unread
    // body nothing): one more is answered, the next refused.
    let (s, b) = attempt(&addr, "m1", &["QD"]).await;
    assert_eq!(s, 200, "{b}");
    let (s, b) = attempt(&addr, "m1", &["QD"]).await;
    let why = refused(s, &b, 429, "rate_limited");
    assert!(
        why.starts_with("too many étude moves from this address"),
        "{why}"
    );
}
