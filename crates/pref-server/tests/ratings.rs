//! Rated tables over real HTTP and WebSockets (`docs/ratings.md`): who may open and sit at
//! one (a standard preset unchanged with a clock; signed-in accounts only, one kind of
//! account, no house bots, one rated table at a time), a game's end changing its players'
//! ratings by the documented method exactly once (ending it again, a restarted server or a
//! second node on PostgreSQL change nothing), an abandoner ranked last, the same players'
//! fourth game of a day weighted down, and the bots' games on the bots' board only.

mod bot_api_common;
mod common;

use std::time::Duration;

use bot_api_common::{Browser, as_bot, bot_account, bot_socket, quick};
use common::*;
use pref_protocol::{Leaderboard, PlayerRatings, Summary, TableRatings};
use pref_rating::{Finish, Params, Rating};
use serde_json::{Value, json};

/// Opens a table asking for `rated` with `profile` and `clock`: the status and the body.
async fn open(addr: &str, profile: Value, clock: Value) -> (u16, Value) {
    let body = json!({"profile": profile, "clock": clock, "rated": true});
    http(addr, "POST", "/api/tables", Some(&body), None).await
}

/// A rated Sochi table with the relaxed clock: its id, host token and invite key.
async fn rated_table(addr: &str) -> (String, String, String) {
    let (status, created) = open(addr, json!("sochi"), json!("relaxed")).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["table"]["rated"], "sochi", "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let host = created["host_token"].as_str().unwrap().to_owned();
    let key = invite(&host);
    (id, host, key)
}

/// `who` takes a seat at table `id`: status and body.
async fn sit(who: &Browser, id: &str, key: &str) -> (u16, Value) {
    who.send(
        "POST",
        &format!("/api/tables/{id}/seats"),
        Some(json!({"name": "typed", "invite": key})),
    )
    .await
}

/// `who` takes a seat and the test keeps its token.
async fn seated(who: &Browser, id: &str, key: &str) -> String {
    let (status, seat) = sit(who, id, key).await;
    assert_eq!(status, 200, "{seat}");
    seat["token"].as_str().unwrap().to_owned()
}

/// Plays random legal actions for `seat` until the deal is finished.
async fn play_a_deal(ws: Ws, seat: u64) {
    play_random_deal(ws, seat, seat + 11).await;
}

/// Starts the game, plays its first deal with `sockets` (each with its seat and the seat's
/// token) and ends it by agreement (R10.3), each seat given a token accepting the host's
/// stop: the summary of the finished table.
async fn play_and_end(
    addr: &str,
    id: &str,
    host: &str,
    sockets: Vec<(Ws, u64, Option<String>)>,
) -> Summary {
    start_table(addr, id, host).await;
    let tokens: Vec<(u8, String)> = sockets
        .iter()
        .filter_map(|(_, seat, t)| t.clone().map(|t| (*seat as u8, t)))
        .collect();
    let plays = sockets
        .into_iter()
        .map(|(ws, seat, _)| tokio::spawn(play_a_deal(ws, seat)));
    let all = futures_util::future::join_all(plays);
    for done in tokio::time::timeout(Duration::from_secs(120), all)
        .await
        .expect("the deal finished")
    {
        done.unwrap();
    }
    let seats: Vec<(u8, &str)> = tokens.iter().map(|(s, t)| (*s, t.as_str())).collect();
    end_game(addr, id, host, &seats).await;
    let (_, summary) = http(addr, "GET", &format!("/api/tables/{id}"), None, None).await;
    strict(&summary)
}

/// Three signed-up people at a new rated table, the game played and ended: the table's id,
/// the browsers and the finished summary.
async fn a_rated_game(addr: &str, people: &[Browser; 3]) -> (String, Summary) {
    let (id, host, key) = rated_table(addr).await;
    let mut sockets = Vec::new();
    for (seat, who) in people.iter().enumerate() {
        let token = seated(who, &id, &key).await;
        let ws = connect(addr, &id, Some(&token), "").await;
        sockets.push((ws, seat as u64, Some(token)));
    }
    let summary = play_and_end(addr, &id, &host, sockets).await;
    (id, summary)
}

async fn table_ratings(addr: &str, id: &str) -> TableRatings {
    let (status, body) = http(
        addr,
        "GET",
        &format!("/api/tables/{id}/ratings"),
        None,
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    strict(&body)
}

async fn board(addr: &str, kind: &str) -> Leaderboard {
    let path = format!("/api/ratings/sochi?kind={kind}");
    let (status, body) = http(addr, "GET", &path, None, None).await;
    assert_eq!(status, 200, "{body}");
    strict(&body)
}

/// Each seat's finish read from the settlement: the method's input.
fn finishes(summary: &Summary) -> Vec<Finish> {
    let settlement = summary.settlement.as_ref().expect("a settled game");
    settlement
        .balance
        .iter()
        .map(|b| Finish::Balance(pref_core::stats::ratio_from_text(b).unwrap()))
        .collect()
}

#[tokio::test]
async fn rated_tables_take_a_standard_preset_with_a_clock_and_refuse_guests_and_house_bots() {
    let (addr, _) = server("rated-rules", quick).await;
    for (profile, clock) in [
        (
            json!({"preset": "sochi", "pool_target": 10}),
            json!("relaxed"),
        ),
        (
            json!({"preset": "leningrad", "pool_target": 20}),
            json!("relaxed"),
        ),
        (json!("sochi"), json!("off")),
    ] {
        let (status, body) = open(&addr, profile.clone(), clock).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (422, Some("not_ratable")),
            "{profile}"
        );
    }
    let (status, four) = open(&addr, json!({"preset": "sochi4"}), json!("blitz")).await;
    assert_eq!(
        (status, four["table"]["rated"].as_str()),
        (201, Some("four")),
        "{four}"
    );

    let (id, host, key) = rated_table(&addr).await;
    // A guest (no session) is refused, and nothing changed at the table.
    let claim = json!({"name": "Guest", "invite": key});
    let path = format!("/api/tables/{id}/seats");
    let (status, body) = http(&addr, "POST", &path, Some(&claim), None).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("rated_guest")),
        "{body}"
    );
    // The host may not seat a house bot nor change the preset.
    let bot = format!("/api/tables/{id}/seats/0/bot");
    let (status, body) = http(
        &addr,
        "POST",
        &bot,
        Some(&json!({"level": "easy"})),
        Some(&host),
    )
    .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("rated_rules")),
        "{body}"
    );
    let profile = format!("/api/tables/{id}/profile");
    let (status, body) = http(&addr, "PUT", &profile, Some(&json!("rostov")), Some(&host)).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("rated_rules")),
        "{body}"
    );
    let (_, summary) = http(&addr, "GET", &format!("/api/tables/{id}"), None, None).await;
    let summary: Summary = strict(&summary);
    assert!(summary.seats.iter().all(|s| s.name.is_none()));
    assert_eq!(
        (summary.preset.as_deref(), summary.rated.as_deref()),
        (Some("sochi"), Some("sochi"))
    );
    // A signed-in person sits.
    let anna = Browser::sign_up(&addr, "Anna").await;
    seated(&anna, &id, &key).await;
}

#[tokio::test]
async fn a_player_sits_at_one_rated_table_at_a_time() {
    let (addr, _) = server("rated-once", quick).await;
    let anna = Browser::sign_up(&addr, "Anna").await;
    let (one, _, key_one) = rated_table(&addr).await;
    let (two, _, key_two) = rated_table(&addr).await;
    let token = seated(&anna, &one, &key_one).await;
    let (status, body) = sit(&anna, &two, &key_two).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (409, Some("rated_elsewhere")),
        "{body}"
    );
    // An unrated table is no matter.
    let (plain, host) = lobby(&addr, json!("sochi")).await;
    assert_eq!(sit(&anna, &plain, &invite(&host)).await.0, 200);
    // Once she left the first, she sits at the second.
    let (status, body) = http(
        &addr,
        "POST",
        &format!("/api/tables/{one}/leave"),
        None,
        Some(&token),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    seated(&anna, &two, &key_two).await;
    let (status, body) = sit(&anna, &one, &key_one).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (409, Some("rated_elsewhere")),
        "{body}"
    );
}

/// The ratings a game's end stored, as the player pages read them.
async fn pages(addr: &str, names: &[&str]) -> Vec<PlayerRatings> {
    let mut all = Vec::new();
    for name in names {
        let (status, body) = http(
            addr,
            "GET",
            &format!("/api/players/{name}/ratings"),
            None,
            None,
        )
        .await;
        assert_eq!(status, 200, "{body}");
        all.push(strict(&body));
    }
    all
}

/// Plays one rated game on `addr` and checks the ratings are the method's; returns the
/// table's id, the summary and the player pages after.
async fn rated_once(addr: &str) -> (String, Summary, Vec<PlayerRatings>) {
    let people = [
        Browser::sign_up(addr, "Anna").await,
        Browser::sign_up(addr, "Boris").await,
        Browser::sign_up(addr, "Vera").await,
    ];
    let (id, summary) = a_rated_game(addr, &people).await;
    let params = Params::STANDARD;
    let want = pref_rating::rate(
        &[Rating::new(&params); 3],
        &finishes(&summary),
        1.0,
        &params,
    );
    let got = table_ratings(addr, &id).await;
    assert_eq!(got.family, "sochi");
    assert_eq!(got.seats.len(), 3);
    for (seat, (r, w)) in got.seats.iter().zip(&want).enumerate() {
        assert_eq!(
            (r.seat as usize, r.rating.rating, r.rating.games),
            (seat, w.shown(), 1)
        );
        assert!(r.rating.provisional);
        assert_eq!(r.change, Some(w.shown() - 1500), "{r:?}");
    }
    let after = pages(addr, &["Anna", "Boris", "Vera"]).await;
    for (page, w) in after.iter().zip(&want) {
        assert_eq!(page.families.len(), 1);
        let f = &page.families[0];
        assert_eq!(
            (f.rating.rating, f.rating.deviation),
            (w.shown(), w.shown_deviation())
        );
        assert_eq!(f.history.len(), 1);
        assert_eq!(
            (f.history[0].table.as_str(), f.history[0].change),
            (id.as_str(), w.shown() - 1500)
        );
    }
    (id, summary, after)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_changes_ratings_once_though_ended_again_or_restarted() {
    let (addr, dir) = server("rated-exactly-once", quick).await;
    let (id, _, after) = rated_once(&addr).await;
    // The end path again, as a restart that replays the finished game would run it: the
    // game's rows are there, nothing changes.
    let store = pref_server::store::Store::open(&dir).await.unwrap();
    let no: i64 = {
        let pool =
            sqlx::SqlitePool::connect(&format!("sqlite://{}", dir.join("pref.sqlite3").display()))
                .await
                .unwrap();
        let no = sqlx::query_scalar("SELECT no FROM tables WHERE id = $1")
            .bind(&id)
            .fetch_one(&pool)
            .await
            .unwrap();
        pool.close().await;
        no
    };
    let figures = pref_server::store::SeatFigures::of_record(&record(&addr, &id).await).unwrap();
    store.set_over(no, &figures).await.unwrap();
    store.set_over(no, &figures).await.unwrap();
    assert_eq!(pages(&addr, &["Anna", "Boris", "Vera"]).await, after);
    // A server started again on the same data reads the same ratings.
    let (again, _) = server("rated-exactly-once-again", |c| {
        quick(c);
        c.data_dir = dir.clone();
    })
    .await;
    assert_eq!(pages(&again, &["Anna", "Boris", "Vera"]).await, after);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_second_node_never_rates_a_game_again() {
    let Some(url) = postgres("ratings").await else {
        return;
    };
    let (one, _) = server("rated-pg-1", |c| {
        quick(c);
        c.database = Some(url.clone());
    })
    .await;
    let (id, _, after) = rated_once(&one).await;
    let (two, _) = server("rated-pg-2", |c| {
        quick(c);
        c.database = Some(url.clone());
    })
    .await;
    assert_eq!(pages(&two, &["Anna", "Boris", "Vera"]).await, after);
    // Another node does not hold the table: its end path is refused, nothing changes.
    let db = pref_server::store::Database::Postgres(url.clone());
    let store = pref_server::store::Store::connect(&db, Duration::from_secs(10))
        .await
        .unwrap();
    let pool = sqlx::PgPool::connect(&url).await.unwrap();
    let no: i64 = sqlx::query_scalar("SELECT no FROM tables WHERE id = $1")
        .bind(&id)
        .fetch_one(&pool)
        .await
        .unwrap();
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM rating_changes")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(rows, 3);
    pool.close().await;
    let figures = pref_server::store::SeatFigures::of_record(&record(&one, &id).await).unwrap();
    assert!(store.set_over(no, &figures).await.is_err());
    assert_eq!(pages(&one, &["Anna", "Boris", "Vera"]).await, after);
    assert_eq!(pages(&two, &["Anna", "Boris", "Vera"]).await, after);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_three_players_fourth_game_of_the_day_counts_half() {
    let (addr, dir) = server("rated-trio", quick).await;
    let people = [
        Browser::sign_up(&addr, "Anna").await,
        Browser::sign_up(&addr, "Boris").await,
        Browser::sign_up(&addr, "Vera").await,
    ];
    let mut tables = Vec::new();
    for _ in 0..4 {
        tables.push(a_rated_game(&addr, &people).await.0);
    }
    let pool = lite(&dir).await;
    let mut weights = Vec::new();
    for id in &tables {
        let w: Vec<f64> =
            sqlx::query_scalar("SELECT weight FROM rating_changes WHERE table_id = $1")
                .bind(id)
                .fetch_all(&pool)
                .await
                .unwrap();
        assert_eq!(w.len(), 3);
        weights.push(w[0]);
    }
    pool.close().await;
    assert_eq!(weights, [1.0, 1.0, 1.0, 0.5]);
    let (_, page) = http(&addr, "GET", "/api/players/anna/ratings", None, None).await;
    let page: PlayerRatings = strict(&page);
    assert_eq!(page.families[0].history.len(), 4);
    assert_eq!(page.families[0].rating.games, 4);
}

/// A rated game of Anna, Boris and Vera on `addr` that Anna abandons: three seconds a move
/// and no bank, and Anna, who never comes, is away after two turns and the clock's
/// autopilot plays her seat to the end. The table's id and its finished summary.
async fn an_abandoned_game(addr: &str) -> (String, Summary) {
    let people = [
        Browser::sign_up(addr, "Anna").await,
        Browser::sign_up(addr, "Boris").await,
        Browser::sign_up(addr, "Vera").await,
    ];
    let clock = json!({"preset": "blitz", "move": 3, "bank": 0, "refill": 0});
    let (status, created) = open(addr, json!("sochi"), clock).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let host = created["host_token"].as_str().unwrap().to_owned();
    let key = invite(&host);
    let mut sockets = Vec::new();
    for (seat, who) in people.iter().enumerate() {
        let token = seated(who, &id, &key).await;
        if seat > 0 {
            let ws = connect(addr, &id, Some(&token), "").await;
            sockets.push((ws, seat as u64, Some(token)));
        }
    }
    let summary = play_and_end(addr, &id, &host, sockets).await;
    (id, summary)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_away_at_the_end_abandoned_and_is_ranked_last() {
    let (addr, dir) = server("rated-abandon", quick).await;
    let (id, summary) = an_abandoned_game(&addr).await;
    let pool = lite(&dir).await;
    let places: Vec<(i64, i64)> =
        sqlx::query_as("SELECT seat, place FROM rating_changes WHERE table_id = $1 ORDER BY seat")
            .bind(&id)
            .fetch_all(&pool)
            .await
            .unwrap();
    pool.close().await;
    let mut f = finishes(&summary);
    f[0] = Finish::Abandoned;
    let want: Vec<(i64, i64)> = pref_rating::places(&f)
        .into_iter()
        .enumerate()
        .map(|(s, p)| (s as i64, p as i64))
        .collect();
    assert_eq!(places, want, "{:?}", summary.settlement);
    assert_eq!(places[0], (0, 3));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_rated_games_are_on_the_bots_board_only_and_the_kinds_never_sit_together() {
    let (addr, _) = server("rated-bots", quick).await;
    let mut bots = Vec::new();
    for name in ["Robo", "Deep", "Mech"] {
        bots.push(bot_account(&addr, name).await.1);
    }
    let anna = Browser::sign_up(&addr, "Anna").await;
    // A person's rated table takes no bot account.
    let (people_table, _, people_key) = rated_table(&addr).await;
    seated(&anna, &people_table, &people_key).await;
    let claim = json!({"name": "Robo", "invite": people_key});
    let path = format!("/api/tables/{people_table}/seats");
    let (status, body) = as_bot(&addr, &bots[0], "POST", &path, Some(claim)).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("rated_rules")),
        "{body}"
    );

    let (id, host, key) = rated_table(&addr).await;
    let path = format!("/api/tables/{id}/seats");
    let mut sockets = Vec::new();
    for (seat, token) in bots.iter().enumerate() {
        if seat == 2 {
            // Nor does the bots' table take a person.
            let boris = Browser::sign_up(&addr, "Boris").await;
            let (status, body) = sit(&boris, &id, &key).await;
            assert_eq!(
                (status, body["error"].as_str()),
                (403, Some("rated_rules")),
                "{body}"
            );
        }
        let claim = json!({"name": "x", "invite": key});
        let (status, body) = as_bot(&addr, token, "POST", &path, Some(claim)).await;
        assert_eq!(
            (status, body["seat"].as_u64()),
            (200, Some(seat as u64)),
            "{body}"
        );
        sockets.push((bot_socket(&addr, &id, token).await, seat as u64, None));
    }
    play_and_end(&addr, &id, &host, sockets).await;
    let bots_board = board(&addr, "bots").await;
    let mut names: Vec<&str> = bots_board.players.iter().map(|p| p.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["Deep", "Mech", "Robo"]);
    assert_eq!(
        bots_board
            .players
            .iter()
            .map(|p| p.place)
            .collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert_eq!(board(&addr, "people").await.players, []);
}

/// A lobby socket signed in by `cookie` (none for a guest), past its snapshot.
async fn lobby_socket(addr: &str, cookie: Option<&str>) -> Ws {
    let mut req = ws_request(&format!("ws://{addr}/api/lobby/ws"), None);
    if let Some(cookie) = cookie {
        req.headers_mut().insert("cookie", cookie.parse().unwrap());
        req.headers_mut()
            .insert("origin", format!("http://{addr}").parse().unwrap());
    }
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    next_json(&mut ws).await.unwrap();
    ws
}

/// A quick server whose lobby sockets are not rate-limited in practice: its address and
/// data directory.
async fn lobby_server(tag: &str) -> (String, std::path::PathBuf) {
    server(tag, |c| {
        quick(c);
        c.limits.sockets_per_ip_per_second = 1000;
        c.limits.socket_burst_per_ip = 1000;
    })
    .await
}

/// A rated seek's answer: `waiting` or an error.
async fn seek(ws: &mut Ws, profile: Value, clock: &str, bots: Option<u32>) -> Value {
    let mut request =
        json!({"type": "seek", "name": "x", "profile": profile, "clock": clock, "rated": true});
    if let Some(b) = bots {
        request["bots_after_secs"] = json!(b);
    }
    send(ws, request).await;
    until(ws, |m| m["type"] == "waiting" || m["type"] == "error").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_pairing_seats_rated_seekers_at_a_rated_table_and_the_lobby_shows_it() {
    let (addr, _) = lobby_server("rated-lobby").await;
    let mut guest = lobby_socket(&addr, None).await;
    let refused = seek(&mut guest, json!("sochi"), "relaxed", None).await;
    assert_eq!(refused["error"], "rated_guest", "{refused}");
    let mut cookies = Vec::new();
    for name in ["Anna", "Boris", "Vera"] {
        let credentials = json!({"name": name, "password": "a long password"});
        let (status, cookie, _) =
            with_cookie(&addr, ("POST", "/api/accounts"), Some(credentials), None).await;
        assert_eq!(status, 201);
        cookies.push(cookie.unwrap());
    }
    let mut sockets = Vec::new();
    for cookie in &cookies {
        sockets.push(lobby_socket(&addr, Some(cookie)).await);
    }
    for (profile, clock, bots, code) in [
        (
            json!({"preset": "sochi", "pool_target": 10}),
            "relaxed",
            None,
            "not_ratable",
        ),
        (json!("sochi"), "off", None, "not_ratable"),
        (json!("sochi"), "relaxed", Some(5), "rated_rules"),
    ] {
        let refused = seek(&mut sockets[0], profile, clock, bots).await;
        assert_eq!(refused["error"], code, "{refused}");
    }
    for ws in &mut sockets {
        let waiting = seek(ws, json!("sochi"), "relaxed", None).await;
        assert_eq!(waiting["type"], "waiting", "{waiting}");
    }
    let m = until(&mut sockets[0], |m| m["type"] == "paired").await;
    let id = m["table"].as_str().unwrap();
    // The game starts once every seat is open (`docs/protocol.md`, "The lobby").
    let mut open = vec![connect(&addr, id, m["token"].as_str(), "").await];
    for ws in &mut sockets[1..] {
        let p = until(ws, |m| m["type"] == "paired").await;
        open.push(connect(&addr, id, p["token"].as_str(), "").await);
    }
    let (_, summary) = http(&addr, "GET", &format!("/api/tables/{id}"), None, None).await;
    let summary: Summary = strict(&summary);
    assert_eq!(summary.rated.as_deref(), Some("sochi"));
    let mut names: Vec<String> = summary
        .seats
        .iter()
        .filter_map(|s| s.name.clone())
        .collect();
    names.sort();
    assert_eq!(names, ["Anna", "Boris", "Vera"]);
    // The seats are the accounts': the table's ratings name them.
    let ratings = table_ratings(&addr, id).await;
    assert_eq!(ratings.seats.len(), 3);
    assert!(
        ratings
            .seats
            .iter()
            .all(|s| s.rating.rating == 1500 && s.change.is_none())
    );
    // The game in progress is listed as rated.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (_, lobby) = http(&addr, "GET", "/api/lobby", None, None).await;
        let view: pref_protocol::LobbyView = strict(&lobby);
        if let Some(live) = view.live.iter().find(|l| l.id == id) {
            assert_eq!(live.rated.as_deref(), Some("sochi"));
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "never listed: {lobby}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Polls the lobby until `pick` finds its row; panics after ten seconds.
async fn lobby_row<T>(addr: &str, pick: impl Fn(&pref_protocol::LobbyView) -> Option<T>) -> T {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (_, lobby) = http(addr, "GET", "/api/lobby", None, None).await;
        if let Some(row) = pick(&strict(&lobby)) {
            return row;
        }
        assert!(tokio::time::Instant::now() < deadline, "never: {lobby}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Public table `id`'s row in the lobby once exactly the players `seated` sit at it (a row
/// read before the last seat change, with as many seats taken by others, does not count).
async fn listed_with(addr: &str, id: &str, seated: &[&str]) -> pref_protocol::PublicTable {
    lobby_row(addr, |v| {
        v.tables
            .iter()
            .find(|t| {
                let mut names: Vec<&str> = t.seats.iter().flatten().map(String::as_str).collect();
                names.sort_unstable();
                t.id == id && names == seated
            })
            .cloned()
    })
    .await
}

/// A public rated Sochi table with the relaxed clock: its id and invite key.
async fn public_rated_table(addr: &str) -> (String, String) {
    let body = json!({"profile": "sochi", "clock": "relaxed", "rated": true, "public": true,
        "name": "host"});
    let (status, created) = http(addr, "POST", "/api/tables", Some(&body), None).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let key = invite(created["host_token"].as_str().unwrap());
    (id, key)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_shows_each_seated_players_rating_at_a_rated_table_only() {
    let (addr, _) = server("rated-lobby-ratings", quick).await;
    let people = [
        Browser::sign_up(&addr, "Anna").await,
        Browser::sign_up(&addr, "Boris").await,
        Browser::sign_up(&addr, "Vera").await,
    ];
    a_rated_game(&addr, &people).await;
    let anna = pages(&addr, &["Anna"]).await[0].families[0].rating;
    assert_eq!(anna.games, 1);
    // Anna, rated once, sits at a public rated table; a newcomer sits beside her.
    let (id, key) = public_rated_table(&addr).await;
    seated(&people[0], &id, &key).await;
    let newcomer = Browser::sign_up(&addr, "Gleb").await;
    seated(&newcomer, &id, &key).await;
    let row = listed_with(&addr, &id, &["Anna", "Gleb"]).await;
    assert_eq!(row.rated.as_deref(), Some("sochi"));
    let at = |name: &str| {
        row.seats
            .iter()
            .position(|s| s.as_deref() == Some(name))
            .unwrap()
    };
    assert_eq!(row.ratings.len(), 3, "{row:?}");
    assert_eq!(row.ratings[at("Anna")], Some(anna), "{row:?}");
    let fresh = Rating::new(&Params::STANDARD);
    let gleb = row.ratings[at("Gleb")].unwrap();
    assert_eq!(
        (gleb.rating, gleb.deviation, gleb.games, gleb.provisional),
        (fresh.shown(), fresh.shown_deviation(), 0, true)
    );
    assert_eq!(row.ratings.iter().flatten().count(), 2, "{row:?}");
    // An unrated public table's row carries no ratings.
    let body = json!({"profile": "sochi", "public": true, "name": "host"});
    let (status, plain) = http(&addr, "POST", "/api/tables", Some(&body), None).await;
    assert_eq!(status, 201, "{plain}");
    let plain_id = plain["id"].as_str().unwrap().to_owned();
    let key = invite(plain["host_token"].as_str().unwrap());
    seated(&people[1], &plain_id, &key).await;
    let row = listed_with(&addr, &plain_id, &["Boris"]).await;
    assert!(row.ratings.is_empty(), "{row:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_games_record_names_its_family_and_an_unrated_ones_has_no_mark() {
    let (addr, _) = server("rated-record", quick).await;
    let people = [
        Browser::sign_up(&addr, "Anna").await,
        Browser::sign_up(&addr, "Boris").await,
        Browser::sign_up(&addr, "Vera").await,
    ];
    let (rated, _) = a_rated_game(&addr, &people).await;
    assert_eq!(record(&addr, &rated).await.rated(), Some("sochi"));
    // The same people's unrated game.
    let (plain, host) = lobby(&addr, json!("sochi")).await;
    let key = invite(&host);
    let mut sockets = Vec::new();
    for (seat, who) in people.iter().enumerate() {
        let token = seated(who, &plain, &key).await;
        let ws = connect(&addr, &plain, Some(&token), "").await;
        sockets.push((ws, seat as u64, Some(token)));
    }
    let summary = play_and_end(&addr, &plain, &host, sockets).await;
    assert_eq!(summary.rated, None);
    assert_eq!(record(&addr, &plain).await.rated(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_whose_end_was_not_counted_is_rated_once_by_the_repair() {
    let (addr, dir) = server("rated-repair", quick).await;
    let (id, _, after) = rated_once(&addr).await;
    // As if `set_over` had failed after the last action: the table is over, but nothing of
    // its end (figures, ratings, history) was written.
    let pool = lite(&dir).await;
    forget_the_end(&pool).await;
    let rows = |pool: sqlx::SqlitePool| async move {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM rating_changes")
            .fetch_one(&pool)
            .await
            .unwrap()
    };
    assert_eq!(rows(pool.clone()).await, 0);
    // The first player page read repairs the game: counted and rated, all three players.
    for name in ["Boris", "Anna", "Vera", "Boris"] {
        let (status, body) = http(
            &addr,
            "GET",
            &format!("/api/players/{name}/stats"),
            None,
            None,
        )
        .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(rows(pool.clone()).await, 3, "after {name}");
    }
    // The same ratings and changes as the game's own end gave (only the time differs).
    let undated = |pages: Vec<PlayerRatings>| -> Vec<_> {
        pages
            .into_iter()
            .map(|p| {
                let f = &p.families[0];
                let h: Vec<_> = f
                    .history
                    .iter()
                    .map(|h| (h.table.clone(), h.rating, h.change))
                    .collect();
                (f.family.clone(), f.rating, h)
            })
            .collect()
    };
    assert_eq!(
        undated(pages(&addr, &["Anna", "Boris", "Vera"]).await),
        undated(after)
    );
    let changes = table_ratings(&addr, &id).await;
    assert_eq!(
        changes.seats.iter().filter(|s| s.change.is_some()).count(),
        3
    );
    pool.close().await;
}

/// Deletes what a rated game's end wrote (figures, ratings, history), as if `set_over` had
/// failed after the last action: the table is over, its game neither counted nor rated.
async fn forget_the_end(pool: &sqlx::SqlitePool) {
    for sql in [
        "DELETE FROM rating_changes",
        "DELETE FROM ratings",
        "DELETE FROM account_games",
        "DELETE FROM account_stats",
        "UPDATE account_seats SET counted = 0",
    ] {
        sqlx::query(sql).execute(pool).await.unwrap();
    }
}

/// The SQLite database of the server whose data are in `dir`.
async fn lite(dir: &std::path::Path) -> sqlx::SqlitePool {
    let url = format!("sqlite://{}", dir.join("pref.sqlite3").display());
    sqlx::SqlitePool::connect(&url).await.unwrap()
}

/// A server's database, read by the tests: SQLite's file or PostgreSQL's.
enum Db {
    Lite(sqlx::SqlitePool),
    Pg(sqlx::PgPool),
}

impl Db {
    async fn sqlite(dir: &std::path::Path) -> Db {
        Db::Lite(lite(dir).await)
    }

    async fn postgres(url: &str) -> Db {
        Db::Pg(sqlx::PgPool::connect(url).await.unwrap())
    }

    /// The seats account `name` holds at rated tables whose game goes on, read from the
    /// seats themselves (the account's links whose token is still the seat's), not from the
    /// claim the store keeps: what a race would give two of.
    async fn rated_seats_held(&self, name: &str) -> i64 {
        let sql = "SELECT COUNT(*) FROM account_seats a
                   JOIN accounts u ON u.no = a.account_no
                   JOIN tables t ON t.id = a.table_id
                   JOIN rated_tables r ON r.table_no = t.no
                   JOIN seats s ON s.table_no = t.no AND s.seat = a.seat AND s.token = a.token_hash
                   WHERE u.folded = $1 AND t.state IN ('lobby', 'playing')";
        let name = name.to_lowercase();
        match self {
            Db::Lite(pool) => sqlx::query_scalar(sql).bind(name).fetch_one(pool).await,
            Db::Pg(pool) => sqlx::query_scalar(sql).bind(name).fetch_one(pool).await,
        }
        .unwrap()
    }

    async fn close(self) {
        match self {
            Db::Lite(pool) => pool.close().await,
            Db::Pg(pool) => pool.close().await,
        }
    }
}

/// Leaves the seat `token` holds at table `id`.
async fn leave(addr: &str, id: &str, token: &str) {
    let path = format!("/api/tables/{id}/leave");
    let (status, body) = http(addr, "POST", &path, None, Some(token)).await;
    assert_eq!(status, 200, "{body}");
}

/// `rounds` times, `anna` (on `addrs.0`) asks for a seat at rated tables `one` (on
/// `addrs.0`) and `two` (on `addrs.1`) at once: one request is seated and the other is
/// refused with `rated_elsewhere`, and she holds one seat; then she leaves it.
async fn seat_races(
    (anna, anna_two): (&Browser, &Browser),
    (one, two): (&(String, String, String), &(String, String, String)),
    pool: &Db,
    rounds: usize,
) {
    for round in 0..rounds {
        let (a, b) = tokio::join!(sit(anna, &one.0, &one.2), sit(anna_two, &two.0, &two.2));
        let mut got = [
            (a.0, a.1["error"].as_str().map(str::to_owned)),
            (b.0, b.1["error"].as_str().map(str::to_owned)),
        ];
        got.sort();
        assert_eq!(
            got,
            [(200, None), (409, Some("rated_elsewhere".to_owned()))],
            "round {round}: {a:?} {b:?}"
        );
        assert_eq!(pool.rated_seats_held("Anna").await, 1, "round {round}");
        if a.0 == 200 {
            leave(&anna.addr, &one.0, a.1["token"].as_str().unwrap()).await;
        } else {
            leave(&anna_two.addr, &two.0, b.1["token"].as_str().unwrap()).await;
        }
        assert_eq!(pool.rated_seats_held("Anna").await, 0, "round {round}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue33_two_seat_requests_at_once_at_two_rated_tables_give_one_seat_kept_on_restart() {
    let (addr, dir) = server("rated-race", quick).await;
    let anna = Browser::sign_up(&addr, "Anna").await;
    let one = rated_table(&addr).await;
    let two = rated_table(&addr).await;
    let pool = Db::sqlite(&dir).await;
    seat_races((&anna, &anna), (&one, &two), &pool, 20).await;
    // Seated at the first, she is refused at the second by a server started again on the
    // same data: the claim is a stored row.
    seated(&anna, &one.0, &one.2).await;
    let (again, _) = server("rated-race-again", |c| {
        quick(c);
        c.data_dir = dir.clone();
    })
    .await;
    let anna_again = Browser {
        addr: again.clone(),
        headers: anna.headers.replace(&addr, &again),
    };
    let three = rated_table(&again).await;
    let (status, body) = sit(&anna_again, &three.0, &three.2).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (409, Some("rated_elsewhere")),
        "{body}"
    );
    assert_eq!(pool.rated_seats_held("Anna").await, 1);
    pool.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue33_on_postgres_two_nodes_seating_one_account_at_once_give_one_seat() {
    let Some(url) = postgres("rated_race").await else {
        return;
    };
    let node = |tag: &'static str| {
        let url = url.clone();
        async move {
            server(tag, |c| {
                quick(c);
                c.database = Some(url);
            })
            .await
            .0
        }
    };
    let (one_addr, two_addr) = (node("rated-race-pg-1").await, node("rated-race-pg-2").await);
    let anna = Browser::sign_up(&one_addr, "Anna").await;
    let anna_two = Browser {
        addr: two_addr.clone(),
        headers: anna.headers.replace(&one_addr, &two_addr),
    };
    // Each node holds one of the tables: the two seats are written by two nodes at once.
    let one = rated_table(&one_addr).await;
    let two = rated_table(&two_addr).await;
    let pool = Db::postgres(&url).await;
    seat_races((&anna, &anna_two), (&one, &two), &pool, 20).await;
    pool.close().await;
}

/// Each seat's rating change stored for the game at table `id`: seat, place, weight and the
/// rating before and after.
type Change = (i64, i64, f64, f64, f64, f64, f64);

async fn changes_of(pool: &sqlx::SqlitePool, id: &str) -> Vec<Change> {
    sqlx::query_as(
        "SELECT seat, place, weight, mu_before, sigma_before, mu_after, sigma_after
         FROM rating_changes WHERE table_id = $1 ORDER BY seat",
    )
    .bind(id)
    .fetch_all(pool)
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue33_a_repaired_game_ranks_its_abandoner_last_as_its_own_end_did() {
    let (addr, dir) = server("rated-repair-abandon", quick).await;
    let (id, summary) = an_abandoned_game(&addr).await;
    let pool = lite(&dir).await;
    let live = changes_of(&pool, &id).await;
    assert_eq!(live.len(), 3);
    assert_eq!((live[0].0, live[0].1), (0, 3), "{:?}", summary.settlement);
    // Anna's balance alone would not rank her last: the repair must know she abandoned.
    let by_balance = pref_rating::places(&finishes(&summary));
    assert_ne!(by_balance[0], 3, "{:?}", summary.settlement);
    // As if `set_over` had failed after the last action: nothing of the end was written.
    forget_the_end(&pool).await;
    // A server started again rebuilds the finished table from the store (its clock from
    // the stored actions' autopilot marks) and repairs the game on a player page's read.
    let (again, _) = server("rated-repair-abandon-again", |c| {
        quick(c);
        c.data_dir = dir.clone();
    })
    .await;
    let (status, body) = http(&again, "GET", "/api/players/Boris/stats", None, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(changes_of(&pool, &id).await, live);
    pool.close().await;
}

/// The session cookie of `who`, for a lobby socket.
fn cookie_of(who: &Browser) -> String {
    let line = who.headers.lines().find_map(|l| l.strip_prefix("Cookie: "));
    line.unwrap().trim().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue33_quick_pairing_never_gives_a_player_a_second_rated_table() {
    let (addr, dir) = lobby_server("rated-pairing-once").await;
    let mut people = Vec::new();
    for name in ["Anna", "Boris", "Vera", "Gleb"] {
        people.push(Browser::sign_up(&addr, name).await);
    }
    let mut sockets = Vec::new();
    for who in &people {
        sockets.push(lobby_socket(&addr, Some(&cookie_of(who))).await);
    }
    let db = Db::sqlite(&dir).await;
    // Seated at a rated table, Anna's rated seek is refused.
    let (table, _, key) = rated_table(&addr).await;
    let token = seated(&people[0], &table, &key).await;
    let refused = seek(&mut sockets[0], json!("sochi"), "relaxed", None).await;
    assert_eq!(refused["error"], "rated_elsewhere", "{refused}");
    leave(&addr, &table, &token).await;
    // She seeks, then sits at the rated table while her seek waits: the pairing that takes
    // her (second in line) is refused her seat, her seek goes, and Boris, seated first
    // there, is freed and waits again with Vera.
    let boris = seek(&mut sockets[1], json!("sochi"), "relaxed", None).await;
    assert_eq!(boris["type"], "waiting", "{boris}");
    let anna = seek(&mut sockets[0], json!("sochi"), "relaxed", None).await;
    assert_eq!(anna["type"], "waiting", "{anna}");
    seated(&people[0], &table, &key).await;
    for ws in &mut sockets[2..] {
        let waiting = seek(ws, json!("sochi"), "relaxed", None).await;
        assert_eq!(waiting["type"], "waiting", "{waiting}");
    }
    // Boris, Vera and Gleb are paired together: Boris's seat at the table that did not
    // start holds no rated seat.
    let mut tables = Vec::new();
    for ws in &mut sockets[1..] {
        let paired = until(ws, |m| m["type"] == "paired");
        let paired = tokio::time::timeout(Duration::from_secs(30), paired)
            .await
            .expect("Boris, Vera and Gleb paired");
        tables.push(paired["table"].as_str().unwrap().to_owned());
    }
    assert!(
        tables.iter().all(|t| *t == tables[0] && *t != table),
        "{tables:?}"
    );
    assert_eq!(db.rated_seats_held("Anna").await, 1);
    for name in ["Boris", "Vera", "Gleb"] {
        assert_eq!(db.rated_seats_held(name).await, 1, "{name}");
    }
    db.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue33_the_lobby_reads_a_rated_seats_rating_from_the_seats_own_write() {
    let (addr, dir) = server("rated-lobby-claim", quick).await;
    let anna = Browser::sign_up(&addr, "Anna").await;
    let gleb = Browser::sign_up(&addr, "Gleb").await;
    let (id, key) = public_rated_table(&addr).await;
    let token = seated(&anna, &id, &key).await;
    seated(&gleb, &id, &key).await;
    // The moment between Gleb's seat and its link to his account, which is written after
    // it: a lobby read then (a tick) still shows his rating beside his name.
    let pool = lite(&dir).await;
    sqlx::query(
        "DELETE FROM account_seats WHERE account_no = (SELECT no FROM accounts WHERE folded = 'gleb')",
    )
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    leave(&addr, &id, &token).await;
    let row = listed_with(&addr, &id, &["Gleb"]).await;
    let at = row
        .seats
        .iter()
        .position(|s| s.as_deref() == Some("Gleb"))
        .unwrap();
    let fresh = Rating::new(&Params::STANDARD);
    let shown = row.ratings[at].expect("Gleb's rating");
    assert_eq!((shown.rating, shown.games), (fresh.shown(), 0), "{row:?}");
    assert_eq!(row.ratings.iter().flatten().count(), 1, "{row:?}");
}
