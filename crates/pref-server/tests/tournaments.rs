//! Duplicate tournaments over HTTP (`docs/tournaments.md`, "Tournaments" in
//! `docs/protocol.md`): the standings are the core's duplicate scoring of the results the
//! server shows; two entrants with the same cards and the same play get the same result; a
//! deal's cards are on the wire only once the entrant reaches it; the decks revealed at the
//! close verify as `pref verify` checks them; a restart mid-tournament loses nothing; bad
//! input is refused and changes nothing.

mod common;

use common::{http, http_text, server, spawn_binary, strict, temp_dir};
use pref_core::duplicate::{Exact, Standings};
use pref_core::fair::{Place, Scheme, Seed, TableTag, deck_commitment, shuffle};
use pref_core::{CardSet, Deal, Profile, Record};
use pref_protocol::{
    DealComparisonView, Entered, EntrantTable, TournamentCreated, TournamentList, TournamentPage,
};
use serde_json::{Value, json};

fn ratio(s: &str) -> Exact {
    match s.split_once('/') {
        Some((n, d)) => Exact::new(n.parse().unwrap(), d.parse().unwrap()),
        None => Exact::from_integer(s.parse().unwrap()),
    }
}

async fn create(addr: &str, deals: u32) -> TournamentCreated {
    let body =
        json!({"name": "Friday", "preset": "sochi", "level": "easy", "deals": deals, "hours": 2});
    let (status, v) = http(addr, "POST", "/api/tournaments", Some(&body), None).await;
    assert_eq!(status, 201, "{v}");
    strict(&v)
}

async fn enter(addr: &str, id: &str, name: &str) -> Entered {
    let path = format!("/api/tournaments/{id}/entrants");
    let (status, v) = http(addr, "POST", &path, Some(&json!({"name": name})), None).await;
    assert_eq!(status, 201, "{v}");
    strict(&v)
}

async fn page(addr: &str, id: &str, token: Option<&str>) -> TournamentPage {
    let (status, v) = http(addr, "GET", &format!("/api/tournaments/{id}"), None, token).await;
    assert_eq!(status, 200, "{v}");
    strict(&v)
}

/// Every answer the entrant got, as text, in order.
type Wire = Vec<String>;

async fn get_table(addr: &str, id: &str, token: &str, wire: &mut Wire) -> EntrantTable {
    let path = format!("/api/tournaments/{id}/play");
    let (status, text) = http_text(addr, "GET", &path, None, Some(token)).await;
    assert_eq!(status, 200, "{text}");
    wire.push(text.clone());
    strict(&serde_json::from_str(&text).unwrap())
}

/// Plays the deal the entrant is on to its end, always taking the legal action `pick`
/// chooses; the table after the deal.
async fn play_deal(
    addr: &str,
    id: &str,
    token: &str,
    wire: &mut Wire,
    pick: impl Fn(usize, usize) -> usize,
) -> EntrantTable {
    let mut t = get_table(addr, id, token, wire).await;
    let deal = t.deal;
    let mut step = 0;
    while t.deal == deal {
        assert!(
            !t.legal.is_empty(),
            "the entrant is to act while the deal lasts: {t:?}"
        );
        let action = t.legal[pick(step, t.legal.len())];
        let body = json!({"deal": deal, "action": action});
        let path = format!("/api/tournaments/{id}/play");
        let (status, text) = http_text(addr, "POST", &path, Some(&body), Some(token)).await;
        assert_eq!(status, 200, "{text}");
        wire.push(text.clone());
        t = strict(&serde_json::from_str(&text).unwrap());
        step += 1;
    }
    assert_eq!(
        t.view, None,
        "the next deal is not dealt before the entrant asks for it"
    );
    t
}

fn first(_: usize, _: usize) -> usize {
    0
}

fn last(_: usize, n: usize) -> usize {
    n - 1
}

async fn comparison(addr: &str, id: &str, k: u32, token: Option<&str>) -> (u16, Value) {
    http(
        addr,
        "GET",
        &format!("/api/tournaments/{id}/deals/{k}"),
        None,
        token,
    )
    .await
}

async fn close(addr: &str, c: &TournamentCreated) {
    let path = format!("/api/tournaments/{}/close", c.id);
    let (status, v) = http(addr, "POST", &path, None, Some(&c.host_token)).await;
    assert_eq!(status, 204, "{v}");
}

/// The standings and every deal's comparison are the core's duplicate scoring
/// (`docs/tournaments.md`) of the results the server shows; the same cards and the same play
/// give the same result (a tie: 1 matchpoint each), another play its own.
#[tokio::test]
async fn same_cards_same_play_same_result_and_the_standings_are_the_cores() {
    let (addr, _dir) = server("tourney-same", |_| {}).await;
    same_cards_scenario(&addr).await;
}

/// The same on PostgreSQL (skipped when `PREF_TEST_POSTGRES_URL` is unset), with a restart
/// of the server on the same database in the middle.
#[tokio::test]
async fn the_same_on_postgresql() {
    let Some(url) = common::postgres("tourney").await else {
        return;
    };
    let (addr, _dir) = server("tourney-pg", |c| c.database = Some(url.clone())).await;
    same_cards_scenario(&addr).await;
    let (again, _dir) = server("tourney-pg2", |c| c.database = Some(url.clone())).await;
    let list: TournamentList = strict(&http(&again, "GET", "/api/tournaments", None, None).await.1);
    assert_eq!(list.open.len(), 1);
    let id = &list.open[0].id;
    let before = page(&addr, id, None).await;
    assert_eq!(
        page(&again, id, None).await,
        before,
        "a second node loads the same tournament"
    );
}

async fn same_cards_scenario(addr: &str) {
    let addr = addr.to_owned();
    let c = create(&addr, 2).await;
    let a = enter(&addr, &c.id, "Anna").await;
    let b = enter(&addr, &c.id, "Boris").await;
    let v = enter(&addr, &c.id, "Vera").await;
    let mut wire = Wire::new();
    let mut results = vec![Vec::new(); 3];
    for (i, (who, pick)) in [
        (&a, first as fn(usize, usize) -> usize),
        (&b, first),
        (&v, last),
    ]
    .into_iter()
    .enumerate()
    {
        for _ in 0..2 {
            let t = play_deal(&addr, &c.id, &who.token, &mut wire, pick).await;
            results[i].push(t.last.expect("the deal just finished"));
        }
    }
    assert_eq!(
        results[0], results[1],
        "same cards, same play, same result on every deal"
    );
    let mut core = Standings::new(2);
    for (e, deals) in results.iter().enumerate() {
        core.enter();
        for (d, played) in deals.iter().enumerate() {
            assert!(core.finish(e, d, ratio(&played.result)));
        }
    }
    for d in 0..2u32 {
        let (status, v) = comparison(&addr, &c.id, d, Some(&a.token)).await;
        assert_eq!(status, 200, "{v}");
        let cmp: DealComparisonView = strict(&v);
        assert_eq!(cmp.entrants.len(), 3);
        for row in &cmp.entrants {
            let e = row.entrant as usize;
            let place = core.place(e, d as usize).unwrap();
            let deal = core.deal(d as usize).unwrap();
            assert_eq!(row.matchpoints, deal.matchpoints(place).unwrap());
            assert_eq!(ratio(&row.percentage), deal.percentage(place).unwrap());
            assert_eq!(row.result, results[e][d as usize].result);
        }
        let mp: u64 = cmp.entrants.iter().map(|r| r.matchpoints).sum();
        assert_eq!(mp, 6, "n (n − 1) matchpoints");
        assert!(cmp.par.is_some(), "Sochi's deals have the solver's par");
    }
    let p = page(&addr, &c.id, Some(&a.token)).await;
    assert_eq!(p.you, Some(0));
    for row in &p.standings {
        let e = row.entrant as usize;
        assert_eq!(row.finished, 2);
        assert_eq!(
            row.standing.as_deref().map(ratio),
            core.standing(e),
            "{row:?}"
        );
    }
    // A stranger sees names and counts while it is open, no result.
    let stranger = page(&addr, &c.id, None).await;
    assert!(
        stranger
            .standings
            .iter()
            .all(|r| r.standing.is_none() && r.counted == 0)
    );
}

/// A deal's cards reach the entrant only when he asks for the deal: no answer before it
/// shows any hand of that deal, no answer shows a seed before the close; a deal's comparison
/// is refused before the entrant finished it; and the decks revealed at the close verify:
/// the seeds match their commitments, the decks are the seeds' shuffles at the deal's place,
/// and each deal's record passes `pref verify`'s check (it reads, with fairness data).
#[tokio::test]
async fn cards_only_once_reached_and_the_revealed_decks_verify() {
    let (addr, _dir) = server("tourney-wire", |_| {}).await;
    let c = create(&addr, 3).await;
    let published = page(&addr, &c.id, None).await.commitments;
    assert!(
        published.iter().all(|d| d.seed.is_none()),
        "no seed while open"
    );
    let a = enter(&addr, &c.id, "Anna").await;
    let mut wire = Wire::new();
    let (status, v) = comparison(&addr, &c.id, 0, Some(&a.token)).await;
    assert_eq!(
        (status, v["error"].as_str()),
        (403, Some("forbidden")),
        "{v}"
    );
    play_deal(&addr, &c.id, &a.token, &mut wire, first).await;
    let (status, _) = comparison(&addr, &c.id, 1, Some(&a.token)).await;
    assert_eq!(status, 403, "deal 1 not finished");
    let (status, v) = comparison(&addr, &c.id, 0, Some(&a.token)).await;
    assert_eq!(status, 200, "{v}");
    wire.push(v.to_string());
    wire.push(serde_json::to_string(&page(&addr, &c.id, Some(&a.token)).await).unwrap());
    let wire_before_1 = wire.clone();
    play_deal(&addr, &c.id, &a.token, &mut wire, first).await;
    // The record is refused while open.
    let rec = format!("/api/tournaments/{}/deals/0/record?entrant=0", c.id);
    assert_eq!(http_text(&addr, "GET", &rec, None, None).await.0, 409);
    close(&addr, &c).await;
    let closed = page(&addr, &c.id, None).await;
    assert!(closed.tournament.closed);
    let profile = Profile::preset("sochi").unwrap();
    for (k, d) in closed.commitments.iter().enumerate() {
        assert_eq!(d.seed_commitment, published[k].seed_commitment);
        assert_eq!(d.deck_commitment, published[k].deck_commitment);
        let seed: Seed = d.seed.as_deref().expect("revealed").parse().unwrap();
        let tag = TableTag::of(&format!("{}-{k}", c.id));
        assert_eq!(d.table, tag.to_string());
        let scheme = Scheme::V2(Place {
            table: tag,
            deal: 0,
        });
        let deck = shuffle(&scheme, &seed, &[]);
        assert_eq!(seed.commitment(&scheme).to_string(), d.seed_commitment);
        assert_eq!(
            deck_commitment(&scheme, &deck, &seed).to_string(),
            d.deck_commitment
        );
        for text in &wire {
            assert!(
                !text.contains(d.seed.as_deref().unwrap()),
                "a seed on the wire before the close"
            );
        }
        if k < 2 {
            // `pref verify`: the record reads (the core recomputes the deck from its
            // fairness data and checks the commitments, hands, talon and play), and every
            // deal has fairness data.
            let path = format!("/api/tournaments/{}/deals/{k}/record?entrant=0", c.id);
            let (status, text) = http_text(&addr, "GET", &path, None, None).await;
            assert_eq!(status, 200, "{text}");
            let record = Record::from_json_str(&text).unwrap();
            let f = record.fairness(0).expect("fairness data");
            assert_eq!(f.deck(), &deck);
            assert_eq!(f.deck_commitment().to_string(), d.deck_commitment);
        }
        if k == 1 {
            let dealer = Record::from_json_str(
                &http_text(
                    &addr,
                    "GET",
                    &format!("/api/tournaments/{}/deals/1/record?entrant=0", c.id),
                    None,
                    None,
                )
                .await
                .1,
            )
            .unwrap()
            .first_dealer();
            let hands = Deal::new(&profile, dealer, &deck, 0).unwrap().dealt_hands();
            for text in &wire_before_1 {
                for set in card_sets(&serde_json::from_str(text).unwrap()) {
                    assert!(
                        !hands.iter().any(|h| !h.is_empty() && *h == set),
                        "a hand of deal 1 on the wire before the entrant reached it: {text}"
                    );
                }
            }
        }
    }
    // A closed tournament shows every deal to anyone, and takes no more actions.
    assert_eq!(comparison(&addr, &c.id, 1, None).await.0, 200);
    let body = json!({"deal": 2, "action": {"bid": "pass"}});
    let path = format!("/api/tournaments/{}/play", c.id);
    assert_eq!(
        http(&addr, "POST", &path, Some(&body), Some(&a.token))
            .await
            .0,
        409
    );
}

/// Every card set (a hand) anywhere in `v`: `hand` values and the `open_hands` entries.
fn card_sets(v: &Value) -> Vec<CardSet> {
    let mut out = Vec::new();
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k == "hand" {
                    out.extend(serde_json::from_value::<CardSet>(x.clone()).ok());
                }
                if k == "open_hands" {
                    for h in x.as_array().into_iter().flatten() {
                        out.extend(serde_json::from_value::<CardSet>(h.clone()).ok());
                    }
                }
                out.extend(card_sets(x));
            }
        }
        Value::Array(a) => a.iter().for_each(|x| out.extend(card_sets(x))),
        _ => {}
    }
    out
}

/// Durability: a server killed mid-tournament shows, once restarted, the same table and the
/// same standings, and the entrant plays on to the end.
#[tokio::test]
async fn a_restart_mid_tournament_loses_nothing() {
    let dir = temp_dir("tourney-restart");
    let (mut child, addr) = spawn_binary(&dir, &[]);
    let c = create(&addr, 2).await;
    let a = enter(&addr, &c.id, "Anna").await;
    let b = enter(&addr, &c.id, "Boris").await;
    let mut wire = Wire::new();
    play_deal(&addr, &c.id, &a.token, &mut wire, first).await;
    play_deal(&addr, &c.id, &b.token, &mut wire, last).await;
    // Anna makes one action on deal 1.
    let t = get_table(&addr, &c.id, &a.token, &mut wire).await;
    let body = json!({"deal": 1, "action": t.legal[0]});
    let path = format!("/api/tournaments/{}/play", c.id);
    let (status, v) = http(&addr, "POST", &path, Some(&body), Some(&a.token)).await;
    assert_eq!(status, 200, "{v}");
    let table_before: EntrantTable = strict(&v);
    let page_before = page(&addr, &c.id, Some(&a.token)).await;
    let (status, deal0_before) = comparison(&addr, &c.id, 0, Some(&a.token)).await;
    assert_eq!(status, 200, "{deal0_before}");
    child.kill().unwrap();
    child.wait().unwrap();
    // Deal 0's par was kept in the rows when first shown (0160_tournament_news).
    let db = format!("sqlite://{}", dir.join("pref.sqlite3").display());
    let pool = sqlx::sqlite::SqlitePoolOptions::new()
        .connect(&db)
        .await
        .unwrap();
    let kept: Vec<(i64, String)> = sqlx::query_as("SELECT deal, par FROM tournament_pars")
        .fetch_all(&pool)
        .await
        .unwrap();
    pool.close().await;
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(kept[0].0, 0);
    assert_eq!(
        serde_json::from_str::<Value>(&kept[0].1).unwrap(),
        deal0_before["par"]
    );
    let (mut child, addr) = spawn_binary(&dir, &[]);
    let table_after = get_table(&addr, &c.id, &a.token, &mut wire).await;
    assert_eq!(table_after, table_before);
    assert_eq!(page(&addr, &c.id, Some(&a.token)).await, page_before);
    assert_eq!(
        comparison(&addr, &c.id, 0, Some(&a.token)).await,
        (200, deal0_before),
        "deal 0's comparison, its par read back from the rows"
    );
    let list: TournamentList = strict(&http(&addr, "GET", "/api/tournaments", None, None).await.1);
    assert_eq!(list.open.len(), 1);
    assert_eq!(list.open[0].entrants, 2);
    let end = play_deal(&addr, &c.id, &a.token, &mut wire, first).await;
    assert_eq!((end.deal, end.deals), (2, 2));
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Bad input is refused with the documented error and changes nothing.
#[tokio::test]
async fn bad_input_is_refused_and_changes_nothing() {
    let (addr, _dir) = server("tourney-bad", |c| c.tournaments.max_entrants = 1).await;
    let bad = [
        ("preset", json!("nope")),
        ("deals", json!(0)),
        ("deals", json!(25)),
        ("name", json!("")),
        ("hours", json!(0)),
        ("level", json!("godlike")),
    ];
    for (key, value) in bad {
        let mut body =
            json!({"name": "x", "preset": "sochi", "level": "easy", "deals": 2, "hours": 1});
        body[key] = value;
        let code = 400;
        let (status, v) = http(&addr, "POST", "/api/tournaments", Some(&body), None).await;
        assert_eq!(status, code, "{body}: {v}");
        assert!(v["error"].is_string() && v["message"].is_string(), "{v}");
    }
    let listed: TournamentList =
        strict(&http(&addr, "GET", "/api/tournaments", None, None).await.1);
    assert!(listed.open.is_empty());
    let c = create(&addr, 1).await;
    let (status, v) = http(
        &addr,
        "GET",
        "/api/tournaments/0123456789abcdef0123456789abcdef",
        None,
        None,
    )
    .await;
    assert_eq!((status, v["error"].as_str()), (404, Some("no_tournament")));
    let a = enter(&addr, &c.id, "Anna").await;
    let path = format!("/api/tournaments/{}/entrants", c.id);
    let (status, _) = http(&addr, "POST", &path, Some(&json!({"name": "Boris"})), None).await;
    assert_eq!(status, 503, "max_entrants is 1");
    let play = format!("/api/tournaments/{}/play", c.id);
    assert_eq!(
        http(&addr, "GET", &play, None, Some(&c.host_token)).await.0,
        403
    );
    let mut wire = Wire::new();
    let t = get_table(&addr, &c.id, &a.token, &mut wire).await;
    // A stale deal number, then an action the rules refuse: 409, the table unchanged.
    let (status, _) = http(
        &addr,
        "POST",
        &play,
        Some(&json!({"deal": 1, "action": t.legal[0]})),
        Some(&a.token),
    )
    .await;
    assert_eq!(status, 409);
    let (status, v) = http(
        &addr,
        "POST",
        &play,
        Some(&json!({"deal": 0, "action": {"play": "7S"}})),
        Some(&a.token),
    )
    .await;
    assert_eq!(status, 409, "{v}");
    assert_eq!(get_table(&addr, &c.id, &a.token, &mut wire).await, t);
    // Only the creator closes a challenge.
    let close = format!("/api/tournaments/{}/close", c.id);
    assert_eq!(
        http(&addr, "POST", &close, None, Some(&a.token)).await.0,
        403
    );
}
