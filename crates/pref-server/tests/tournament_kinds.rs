//! The two kinds of entrant and the server's own tournament: a signed-in player enters under
//! his user name, once; a guest under the name he gives; with `tournaments.daily_tournament`
//! on, the server opens the day's tournament of `tournaments.daily_deals` deals by itself
//! (off by default: no other test sees one).

mod common;

use common::{http, server, strict};
use pref_protocol::{Entered, TournamentKind, TournamentList, TournamentPage};
use serde_json::{Value, json};

/// A POST with `cookie` and this site's `Origin`: the status, the session cookie it sets
/// and the JSON body.
async fn send(
    addr: &str,
    path: &str,
    body: &Value,
    cookie: Option<&str>,
) -> (u16, Option<String>, Value) {
    common::with_cookie(addr, ("POST", path), Some(body.clone()), cookie).await
}

#[tokio::test]
async fn a_signed_in_player_enters_under_his_name_once_and_a_guest_under_his_own() {
    let (addr, _dir) = server("tourney-acc", |c| {
        c.accounts.argon2_memory_kib = 8;
        c.accounts.argon2_iterations = 1;
    })
    .await;
    let (status, cookie, v) = send(
        &addr,
        "/api/accounts",
        &json!({"name": "Anna", "password": "a long password"}),
        None,
    )
    .await;
    assert_eq!(status, 201, "{v}");
    let cookie = cookie.expect("a session");
    let body = json!({"name": "Cup", "preset": "rostov", "level": "easy", "deals": 1, "hours": 1});
    let (status, c) = http(&addr, "POST", "/api/tournaments", Some(&body), None).await;
    assert_eq!(status, 201, "{c}");
    let path = format!("/api/tournaments/{}/entrants", c["id"].as_str().unwrap());
    // Signed in, a name of one's own is refused: the user name is the name.
    let (status, _, _) = send(&addr, &path, &json!({"name": "Other"}), Some(&cookie)).await;
    assert_eq!(status, 400);
    let (status, _, v) = send(&addr, &path, &json!({}), Some(&cookie)).await;
    assert_eq!(status, 201, "{v}");
    let anna: Entered = strict(&v);
    let (status, _, v) = send(&addr, &path, &json!({}), Some(&cookie)).await;
    assert_eq!(
        (status, v["error"].as_str()),
        (409, Some("conflict")),
        "entered once"
    );
    // A guest needs a name.
    let (status, _, _) = send(&addr, &path, &json!({}), None).await;
    assert_eq!(status, 400);
    let (status, _, v) = send(&addr, &path, &json!({"name": "Boris"}), None).await;
    assert_eq!(status, 201, "{v}");
    let page_path = format!("/api/tournaments/{}", c["id"].as_str().unwrap());
    let (_, v) = http(&addr, "GET", &page_path, None, Some(&anna.token)).await;
    let page: TournamentPage = strict(&v);
    let rows: Vec<(&str, bool)> = page
        .standings
        .iter()
        .map(|r| (r.name.as_str(), r.account))
        .collect();
    assert_eq!(rows, vec![("Anna", true), ("Boris", false)]);
}

#[tokio::test]
async fn the_server_opens_the_daily_tournament_of_twelve_deals() {
    let (addr, _dir) = server("tourney-daily", |c| c.tournaments.daily_tournament = true).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let daily = loop {
        let list: TournamentList =
            strict(&http(&addr, "GET", "/api/tournaments", None, None).await.1);
        if let Some(d) = list
            .open
            .into_iter()
            .find(|t| t.kind == TournamentKind::Daily)
        {
            break d;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no daily tournament opened"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_eq!((daily.deals, daily.preset.as_str()), (12, "sochi"));
    assert!(daily.starts <= pref_now() && pref_now() < daily.ends);
    assert_eq!(daily.ends - daily.starts, 86_400);
    // Only the creator of a challenge closes it; a daily one has none.
    let close = format!("/api/tournaments/{}/close", daily.id);
    let (status, _) = http(
        &addr,
        "POST",
        &close,
        None,
        Some("0123456789abcdef0123456789abcdef"),
    )
    .await;
    assert_eq!(status, 403);
}

fn pref_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}
