//! One tournament served by two nodes on one PostgreSQL database (`docs/scaling.md`,
//! "Tournaments on several nodes"): a challenge made at one node is listed at the other,
//! entrants entering at both at once get one numbering, an entrant plays on at either node,
//! the same action sent to both at once is stored once, and both nodes show the same
//! standings and the close. Runs when `PREF_TEST_POSTGRES_URL` is set.

mod common;

use std::time::{Duration, Instant};

use common::{http, server, strict};
use futures_util::future::join_all;
use pref_protocol::{Entered, EntrantTable, TournamentCreated, TournamentList, TournamentPage};
use serde_json::json;
use sqlx::Row;

/// Polls `f` until it holds, for at most ten seconds of real time (the nodes' news travels
/// through PostgreSQL's `NOTIFY`).
async fn eventually<F, Fut>(what: &str, mut f: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + Duration::from_secs(10);
    while !f().await {
        assert!(Instant::now() < deadline, "never: {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn page(addr: &str, id: &str, token: Option<&str>) -> TournamentPage {
    let (status, v) = http(addr, "GET", &format!("/api/tournaments/{id}"), None, token).await;
    assert_eq!(status, 200, "{v}");
    strict(&v)
}

async fn table(addr: &str, id: &str, token: &str) -> EntrantTable {
    let path = format!("/api/tournaments/{id}/play");
    let (status, v) = http(addr, "GET", &path, None, Some(token)).await;
    assert_eq!(status, 200, "{v}");
    strict(&v)
}

/// Plays entrant `token`'s current deal to its end, the first legal action each time, each
/// action at the node `at(step)` names.
async fn play_deal(nodes: &[&str], id: &str, token: &str, at: impl Fn(usize) -> usize) {
    let mut t = table(nodes[at(0)], id, token).await;
    let deal = t.deal;
    let mut step = 0;
    while t.deal == deal {
        let addr = nodes[at(step)];
        let body = json!({"deal": deal, "action": t.legal[0]});
        let path = format!("/api/tournaments/{id}/play");
        let (status, v) = http(addr, "POST", &path, Some(&body), Some(token)).await;
        assert_eq!(status, 200, "step {step} at node {}: {v}", at(step));
        t = strict(&v);
        step += 1;
        if t.deal == deal && t.legal.is_empty() {
            t = table(nodes[at(step)], id, token).await;
        }
    }
}

#[tokio::test]
async fn two_nodes_serve_one_tournament_and_agree() {
    let Some(url) = common::postgres("tourney_cluster").await else {
        return;
    };
    let tweak = |c: &mut pref_server::config::Config| {
        c.database = Some(url.clone());
        c.tournaments.entry_burst_per_ip = 100;
    };
    let (a, _da) = server("tourney-node-a", tweak).await;
    let (b, _db) = server("tourney-node-b", tweak).await;
    let body =
        json!({"name": "Two nodes", "preset": "sochi", "level": "easy", "deals": 2, "hours": 2});
    let (status, v) = http(&a, "POST", "/api/tournaments", Some(&body), None).await;
    assert_eq!(status, 201, "{v}");
    let c: TournamentCreated = strict(&v);
    eventually("node B lists node A's challenge", || async {
        let list: TournamentList = strict(&http(&b, "GET", "/api/tournaments", None, None).await.1);
        list.open.iter().any(|t| t.id == c.id)
    })
    .await;

    // Eight entrants at once, four at each node: one numbering, 0 to 7.
    let entries = (0..8).map(|i| {
        let (addr, id) = (if i % 2 == 0 { a.clone() } else { b.clone() }, c.id.clone());
        async move {
            let path = format!("/api/tournaments/{id}/entrants");
            let name = format!("Player{i}");
            let (status, v) = http(&addr, "POST", &path, Some(&json!({"name": name})), None).await;
            assert_eq!(status, 201, "{v}");
            strict::<Entered>(&v)
        }
    });
    let entered: Vec<Entered> = join_all(entries).await;
    let mut numbers: Vec<u32> = entered.iter().map(|e| e.entrant).collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (0..8).collect::<Vec<u32>>());

    // The first entered at A and plays deal 0 alternately at B and A; the second at B only.
    let nodes = [a.as_str(), b.as_str()];
    play_deal(&nodes, &c.id, &entered[0].token, |step| (step + 1) % 2).await;
    play_deal(&nodes, &c.id, &entered[1].token, |_| 1).await;

    // The third's same action sent to both nodes at once is stored once: one 200, one 409.
    let t = table(&a, &c.id, &entered[2].token).await;
    let _ = table(&b, &c.id, &entered[2].token).await;
    let body = json!({"deal": 0, "action": t.legal[0]});
    let path = format!("/api/tournaments/{}/play", c.id);
    let both = join_all(nodes.iter().map(|n| {
        let (n, path, body, token) = (
            n.to_string(),
            path.clone(),
            body.clone(),
            entered[2].token.clone(),
        );
        async move { http(&n, "POST", &path, Some(&body), Some(&token)).await }
    }))
    .await;
    let mut codes: Vec<u16> = both.iter().map(|(s, _)| *s).collect();
    codes.sort_unstable();
    assert_eq!(codes, vec![200, 409], "{both:?}");
    let refused = both.iter().find(|(s, _)| *s == 409).unwrap();
    assert_eq!(refused.1["error"], "conflict", "{}", refused.1);
    let after_a = table(&a, &c.id, &entered[2].token).await;
    assert_eq!(
        table(&b, &c.id, &entered[2].token).await,
        after_a,
        "both nodes show one table"
    );

    // Both nodes show the same standings, to the first and to a stranger.
    for token in [Some(entered[0].token.as_str()), None] {
        eventually("both nodes' pages agree", || async {
            page(&a, &c.id, token).await == page(&b, &c.id, token).await
        })
        .await;
    }
    let p = page(&b, &c.id, Some(&entered[0].token)).await;
    assert_eq!(p.tournament.entrants, 8);
    let finished = |k: usize| {
        let e = entered[k].entrant;
        p.standings
            .iter()
            .find(|r| r.entrant == e)
            .unwrap()
            .finished
    };
    assert_eq!(
        (0..8).map(finished).collect::<Vec<u32>>(),
        vec![1, 1, 0, 0, 0, 0, 0, 0]
    );

    // The rows: one result each for entrants 0 and 1, entrant 2's first action once.
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .unwrap();
    let rows = sqlx::query("SELECT entrant, deal FROM tournament_results ORDER BY entrant")
        .fetch_all(&pool)
        .await
        .unwrap();
    let results: Vec<(i64, i64)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
    let mut played = vec![
        (i64::from(entered[0].entrant), 0),
        (i64::from(entered[1].entrant), 0),
    ];
    played.sort_unstable();
    assert_eq!(results, played);
    let third = i64::from(entered[2].entrant);
    let count = "SELECT COUNT(*) FROM tournament_actions WHERE entrant = $1";
    let acts: i64 = sqlx::query_scalar(count)
        .bind(third)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(acts, 1, "the third entrant's action is stored once");

    // Closed at B: A refuses the next action and shows it closed.
    let close = format!("/api/tournaments/{}/close", c.id);
    let (status, v) = http(&b, "POST", &close, None, Some(&c.host_token)).await;
    assert_eq!(status, 204, "{v}");
    let body = json!({"deal": 0, "action": after_a.legal.first()});
    let (status, v) = http(&a, "POST", &path, Some(&body), Some(&entered[2].token)).await;
    assert_eq!(
        (status, v["error"].as_str()),
        (409, Some("conflict")),
        "{v}"
    );
    eventually("node A shows the close", || async {
        page(&a, &c.id, None).await.tournament.closed
    })
    .await;
    let acts: i64 = sqlx::query_scalar(count)
        .bind(third)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(acts, 1, "nothing is stored after the close");
}
