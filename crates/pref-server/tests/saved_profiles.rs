//! Saved profiles over HTTP (`docs/protocol.md`, `/api/profiles`): a host saves his club's
//! rules under a name, reads them back by id, opens a table with them; bad input is refused
//! with the error naming the key and nothing is stored; the number saved is limited by a
//! setting; and a saved profile survives a restart of the server.

mod common;

use common::*;
use pref_protocol::SavedProfile;
use serde_json::{Value, json};

const UNKNOWN: &str = "0123456789abcdef0123456789abcdef";

fn club() -> Value {
    json!({
        "name": "  Club on Nevsky ",
        "profile": {"preset": "leningrad", "surrender": 3, "whist_pass_half": true, "whist_scale": 2}
    })
}

async fn save(addr: &str, body: &Value) -> (u16, Value) {
    http(addr, "POST", "/api/profiles", Some(body), None).await
}

#[tokio::test]
async fn r4_5_r5_3_a_saved_profile_reads_back_and_opens_a_table() {
    let (addr, _) = server("saved", |_| {}).await;
    let (status, body) = save(&addr, &club()).await;
    assert_eq!(status, 201, "{body}");
    let saved: SavedProfile = strict(&body);
    assert_eq!(saved.id.len(), 32);
    assert!(saved.id.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(saved.name, "Club on Nevsky");
    assert_eq!(saved.preset, "leningrad");
    // Leningrad's whist_scale is 2 already: only the differences are kept.
    assert_eq!(
        saved.profile,
        json!({"preset": "leningrad", "surrender": 3, "whist_pass_half": true})
    );
    assert_eq!(saved.resolved["surrender"], 3);
    assert_eq!(saved.resolved["whist_scale"], 2);
    assert_eq!(saved.resolved["pool_target"], 20);
    assert_eq!(saved.link, format!("http://{addr}/?profile={}", saved.id));

    let (status, again) = http(
        &addr,
        "GET",
        &format!("/api/profiles/{}", saved.id),
        None,
        None,
    )
    .await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again, body);

    let (status, created) = http(
        &addr,
        "POST",
        "/api/tables",
        Some(&json!({"profile": saved.profile})),
        None,
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id");
    let (_, summary) = http(&addr, "GET", &format!("/api/tables/{id}"), None, None).await;
    assert_eq!(summary["profile"]["surrender"], 3);
    assert_eq!(summary["profile"]["whist_pass_half"], true);
    assert_eq!(summary["profile"]["whist_scale"], 2);
}

#[tokio::test]
async fn bad_saved_profiles_are_refused_and_nothing_is_stored() {
    let (addr, _) = server("saved-bad", |c| c.limits.max_profiles = 1).await;
    let cases = [
        (
            json!({"name": "A", "profile": {"preset": "sochi", "no_such": 1}}),
            422,
            "bad_profile",
            "no_such",
        ),
        (
            json!({"name": "A", "profile": {"preset": "sochi", "surrender": 4}}),
            422,
            "bad_profile",
            "surrender",
        ),
        (
            json!({"name": "A", "profile": {"preset": "sochi", "surrender_max_level": 5}}),
            422,
            "bad_profile",
            "surrender_max_level",
        ),
        (
            json!({"name": "A", "profile": {"preset": "moscow"}}),
            422,
            "bad_profile",
            "moscow",
        ),
        (
            json!({"name": "A", "profile": {"pool_target": 10}}),
            422,
            "bad_profile",
            "preset",
        ),
        (
            json!({"name": "   ", "profile": "sochi"}),
            400,
            "bad_request",
            "name",
        ),
        (
            json!({"name": "A".repeat(61), "profile": "sochi"}),
            400,
            "bad_request",
            "name",
        ),
        (
            json!({"name": "A", "profile": "sochi", "extra": 1}),
            400,
            "bad_request",
            "extra",
        ),
        (json!({"profile": "sochi"}), 400, "bad_request", "name"),
    ];
    for (body, status, error, names) in cases {
        let (got, answer) = save(&addr, &body).await;
        assert_eq!(got, status, "{body}: {answer}");
        assert_eq!(answer["error"], error, "{body}: {answer}");
        let message = answer["message"].as_str().expect("a message");
        assert!(message.contains(names), "{body}: {message}");
    }
    for path in [
        format!("/api/profiles/{UNKNOWN}"),
        "/api/profiles/not-hex".to_owned(),
    ] {
        let (status, answer) = http(&addr, "GET", &path, None, None).await;
        assert_eq!(
            (status, answer["error"].as_str()),
            (404, Some("no_profile"))
        );
    }
    // Nothing above was stored: the one profile the limit allows is still free.
    let (status, body) = save(&addr, &json!({"name": "Mine", "profile": "rostov"})).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = save(&addr, &json!({"name": "Another", "profile": "sochi"})).await;
    assert_eq!((status, body["error"].as_str()), (503, Some("full")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_saved_profile_survives_a_restart() {
    let dir = temp_dir("saved-restart");
    let (mut child, addr) = spawn_binary(&dir, &[]);
    let (status, body) = save(&addr, &club()).await;
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().expect("an id").to_owned();
    child.kill().expect("killed");
    child.wait().expect("stopped");

    let (mut child, addr) = spawn_binary(&dir, &[]);
    let (status, again) = http(&addr, "GET", &format!("/api/profiles/{id}"), None, None).await;
    child.kill().expect("killed");
    child.wait().expect("stopped");
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["name"], body["name"]);
    assert_eq!(again["profile"], body["profile"]);
    assert_eq!(again["resolved"], body["resolved"]);
}

/// A profile's name may hold no character a seat's name may not (bidi overrides and
/// isolates, zero-width characters), and one address saves at most its budget: then `429
/// rate_limited` with the documented body, and nothing more is stored.
#[tokio::test]
async fn names_follow_the_seat_names_rules_and_saves_are_budgeted_per_address() {
    let (addr, _) = server("saved-budget", |c| {
        c.limits.profiles_per_ip_per_minute = 1;
        c.limits.profile_burst_per_ip = 2;
    })
    .await;
    let refused = json!({"error": "bad_request", "message":
        "a profile's name is 1 to 60 characters without control, bidi or zero-width characters"});
    for name in [
        "Club\u{202E}7",
        "Club\u{2066}7\u{2069}",
        "Club\u{200B}7",
        "Club\u{200D}7",
    ] {
        let body = json!({"name": name, "profile": "sochi"});
        assert_eq!(save(&addr, &body).await, (400, refused.clone()), "{name:?}");
    }
    let body = json!({"name": "Club 7", "profile": "sochi"});
    for _ in 0..2 {
        assert_eq!(save(&addr, &body).await.0, 201);
    }
    let (status, refusal) = save(&addr, &body).await;
    assert_eq!(status, 429, "{refusal}");
    assert_eq!(refusal["error"], "rate_limited", "{refusal}");
    let message = refusal["message"].as_str().expect("a message");
    assert!(
        message.starts_with("too many profiles saved from this address; try again in"),
        "{message}"
    );
}
