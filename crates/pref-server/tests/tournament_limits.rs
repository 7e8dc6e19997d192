//! Every tournament resource a stranger can make or open has a limit and a setting
//! (`docs/security.md`, the limits table): each test sets one low, goes past it, and checks
//! the documented error and that nothing changed. Tournaments have no sockets; their pages
//! are plain reads, except an old tournament's, which is read back from the database.

mod common;

use common::{http, server, strict};
use pref_protocol::{Entered, TournamentCreated, TournamentList, TournamentPage};
use serde_json::{Value, json};

fn challenge(deals: u32, hours: u32) -> Value {
    json!({"name": "Limits", "preset": "sochi", "level": "easy", "deals": deals, "hours": hours})
}

/// Posts a one-deal, one-hour challenge: the status and the body, whatever they are.
async fn try_create(addr: &str) -> (u16, Value) {
    http(
        addr,
        "POST",
        "/api/tournaments",
        Some(&challenge(1, 1)),
        None,
    )
    .await
}

async fn create(addr: &str) -> TournamentCreated {
    let (status, v) = try_create(addr).await;
    assert_eq!(status, 201, "{v}");
    strict(&v)
}

async fn list(addr: &str) -> TournamentList {
    strict(&http(addr, "GET", "/api/tournaments", None, None).await.1)
}

async fn page(addr: &str, id: &str) -> TournamentPage {
    let (status, v) = http(addr, "GET", &format!("/api/tournaments/{id}"), None, None).await;
    assert_eq!(status, 200, "{v}");
    strict(&v)
}

async fn enter(addr: &str, id: &str, name: &str) -> (u16, Value) {
    let path = format!("/api/tournaments/{id}/entrants");
    http(addr, "POST", &path, Some(&json!({"name": name})), None).await
}

/// The documented error body with this code.
fn refused(v: &Value, code: &str) {
    assert_eq!(v["error"].as_str(), Some(code), "{v}");
    assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()), "{v}");
}

#[tokio::test]
async fn open_tournaments_stop_at_max_open_tournaments() {
    let (addr, _dir) = server("tlim-open", |c| {
        c.tournaments.max_open_tournaments = 2;
        c.tournaments.challenge_burst_per_ip = 10;
    })
    .await;
    create(&addr).await;
    create(&addr).await;
    let before = list(&addr).await;
    let (status, v) = try_create(&addr).await;
    assert_eq!(status, 503);
    refused(&v, "full");
    assert_eq!(list(&addr).await, before);
    assert_eq!(before.open.len(), 2);
}

#[tokio::test]
async fn challenges_from_one_client_stop_at_the_burst() {
    let (addr, _dir) = server("tlim-burst", |c| {
        c.tournaments.challenge_burst_per_ip = 1;
        c.tournaments.challenges_per_ip_per_hour = 1;
    })
    .await;
    create(&addr).await;
    let before = list(&addr).await;
    let (status, v) = try_create(&addr).await;
    assert_eq!(status, 429);
    refused(&v, "rate_limited");
    assert_eq!(list(&addr).await, before);
}

#[tokio::test]
async fn a_challenge_has_at_most_max_deals_and_max_hours() {
    let (addr, _dir) = server("tlim-size", |c| {
        c.tournaments.max_tournament_deals = 3;
        c.tournaments.max_tournament_hours = 5;
    })
    .await;
    for body in [challenge(4, 1), challenge(1, 6)] {
        let (status, v) = http(&addr, "POST", "/api/tournaments", Some(&body), None).await;
        assert_eq!(status, 400, "{body}");
        refused(&v, "bad_request");
    }
    assert_eq!(
        list(&addr).await,
        TournamentList {
            open: vec![],
            past: vec![]
        }
    );
    for body in [challenge(3, 1), challenge(1, 5)] {
        let (status, v) = http(&addr, "POST", "/api/tournaments", Some(&body), None).await;
        assert_eq!(status, 201, "at the limit: {v}");
    }
}

#[tokio::test]
async fn entrants_stop_at_max_entrants() {
    let (addr, _dir) = server("tlim-entrants", |c| c.tournaments.max_entrants = 2).await;
    let c = create(&addr).await;
    for name in ["Anna", "Boris"] {
        assert_eq!(enter(&addr, &c.id, name).await.0, 201);
    }
    let before = page(&addr, &c.id).await;
    let (status, v) = enter(&addr, &c.id, "Clara").await;
    assert_eq!(status, 503);
    refused(&v, "full");
    let after = page(&addr, &c.id).await;
    assert_eq!(after, before);
    assert_eq!(after.tournament.entrants, 2);
}

#[tokio::test]
async fn entries_from_one_client_stop_at_the_burst() {
    let (addr, _dir) = server("tlim-entries", |c| {
        c.tournaments.entry_burst_per_ip = 1;
        c.tournaments.entries_per_ip_per_minute = 1;
    })
    .await;
    let c = create(&addr).await;
    let (status, v) = enter(&addr, &c.id, "Anna").await;
    assert_eq!(status, 201, "{v}");
    let _: Entered = strict(&v);
    let before = page(&addr, &c.id).await;
    let (status, v) = enter(&addr, &c.id, "Boris").await;
    assert_eq!(status, 429);
    refused(&v, "rate_limited");
    assert_eq!(page(&addr, &c.id).await, before);
}

/// Two challenges, closed, their close moved ten days back in the rows: old tournaments,
/// which a server started afterwards does not load until their link is asked for.
async fn two_old_tournaments(tag: &str) -> (std::path::PathBuf, [String; 2]) {
    let (addr, dir) = server(tag, |_| {}).await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let c = create(&addr).await;
        let close = format!("/api/tournaments/{}/close", c.id);
        assert_eq!(
            http(&addr, "POST", &close, None, Some(&c.host_token))
                .await
                .0,
            204
        );
        ids.push(c.id);
    }
    let url = format!("sqlite://{}", dir.join("pref.sqlite3").display());
    let pool = sqlx::sqlite::SqlitePoolOptions::new()
        .connect(&url)
        .await
        .unwrap();
    let ten_days_ago = pref_now() - 10 * 86_400;
    sqlx::query("UPDATE tournaments SET ends = $1")
        .bind(ten_days_ago)
        .execute(&pool)
        .await
        .unwrap();
    (dir, [ids[0].clone(), ids[1].clone()])
}

fn pref_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

#[tokio::test]
async fn old_tournaments_read_back_stop_at_the_clients_budget() {
    let (dir, [a, b]) = two_old_tournaments("tlim-old").await;
    let (addr, _) = server("tlim-old-2", |c| {
        c.data_dir = dir.clone();
        c.tournaments.old_loads_per_ip_per_minute = 1;
    })
    .await;
    let first = page(&addr, &a).await;
    assert!(first.tournament.closed);
    let (status, v) = http(&addr, "GET", &format!("/api/tournaments/{b}"), None, None).await;
    assert_eq!(status, 429);
    refused(&v, "rate_limited");
    assert_eq!(
        page(&addr, &a).await,
        first,
        "the one read is held, for free"
    );
}

#[tokio::test]
async fn old_tournaments_held_stop_at_max_old_loaded() {
    let (dir, [a, b]) = two_old_tournaments("tlim-held").await;
    let (addr, _) = server("tlim-held-2", |c| {
        c.data_dir = dir.clone();
        c.tournaments.old_loads_per_ip_per_minute = 3;
        c.tournaments.max_old_loaded = 1;
    })
    .await;
    // a read, b read (a let go), a read again (b let go): three reads, the budget's.
    page(&addr, &a).await;
    page(&addr, &b).await;
    page(&addr, &a).await;
    // Were b still held, this would be free; it was let go, so it is a fourth read.
    let (status, v) = http(&addr, "GET", &format!("/api/tournaments/{b}"), None, None).await;
    assert_eq!(status, 429, "{v}");
    refused(&v, "rate_limited");
}
