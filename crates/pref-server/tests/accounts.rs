//! Accounts over real HTTP: signing up, in and out, wrong passwords and unknown names
//! refused alike, the sign-in budgets, the cookie's flags, the Origin check, a seat fetched
//! again from a second device, guest seats attached, hidden pages, deletion, the statistics
//! of a game played with bots, and (PostgreSQL) a session made on one node used on another.
//! Argon2id runs at its least cost here (`cheap`), so the suite stays fast.

mod common;

use std::time::Duration;

use common::*;
use pref_core::stats;
use pref_protocol::{Attached, GamesPage, Me, PlayerProfile, PlayerStats, SeatToken, TablePlayers};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// An answer: status, head (lower-cased) and JSON body.
struct Answer {
    status: u16,
    head: String,
    body: Value,
}

impl Answer {
    /// The session cookie this answer sets, as `name=value`.
    fn cookie(&self) -> String {
        let line = self
            .head
            .lines()
            .find(|l| l.starts_with("set-cookie:"))
            .unwrap_or_else(|| panic!("no cookie set: {}", self.head));
        line["set-cookie:".len()..]
            .split(';')
            .next()
            .unwrap()
            .trim()
            .to_owned()
    }
}

/// A browser: its cookie and the origin its page sends.
#[derive(Clone)]
struct Browser {
    addr: String,
    cookie: Option<String>,
    origin: Option<String>,
}

impl Browser {
    fn new(addr: &str) -> Browser {
        Browser {
            addr: addr.to_owned(),
            cookie: None,
            origin: Some(format!("http://{addr}")),
        }
    }

    async fn send(&self, method: &str, path: &str, body: Option<Value>) -> Answer {
        let mut s = TcpStream::connect(&self.addr).await.unwrap();
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let mut extra = String::new();
        if let Some(c) = &self.cookie {
            extra.push_str(&format!("Cookie: other=1; {c}\r\n"));
        }
        if let Some(o) = &self.origin {
            extra.push_str(&format!("Origin: {o}\r\n"));
        }
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{extra}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        s.write_all(req.as_bytes()).await.unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).await.unwrap();
        let text = String::from_utf8_lossy(&raw).to_string();
        let (head, rest) = text.split_once("\r\n\r\n").unwrap();
        Answer {
            status: head[9..12].parse().unwrap(),
            head: head.to_ascii_lowercase(),
            body: serde_json::from_str(rest).unwrap_or(Value::Null),
        }
    }

    /// Signs up (`path` = `/api/accounts`) or in (`/api/session`) and keeps the cookie.
    async fn enter(&mut self, path: &str, name: &str, password: &str) -> Answer {
        let a = self
            .send(
                "POST",
                path,
                Some(json!({"name": name, "password": password})),
            )
            .await;
        if a.status == 200 || a.status == 201 {
            self.cookie = Some(a.cookie());
        }
        a
    }
}

async fn cheap_server(tag: &str) -> String {
    server(tag, cheap).await.0
}

/// Anna, signed up on her laptop, takes `seat` of a new lobby (the name she types is not the
/// one she sits under): her browser, the table's id, its host token and her seat token.
async fn anna_seated(addr: &str, seat: u8) -> (Browser, String, String, String) {
    let mut laptop = Browser::new(addr);
    assert_eq!(
        laptop
            .enter("/api/accounts", "Anna", "a long password")
            .await
            .status,
        201
    );
    let (id, host) = lobby(addr, json!("sochi")).await;
    let claim = laptop
        .send(
            "POST",
            &format!("/api/tables/{id}/seats"),
            Some(json!({"name": "whatever I typed", "seat": seat, "invite": invite(&host)})),
        )
        .await;
    assert_eq!(claim.status, 200, "{}", claim.body);
    let token = claim.body["token"].as_str().unwrap().to_owned();
    (laptop, id, host, token)
}

#[tokio::test]
async fn sign_up_in_and_out_wrong_passwords_and_unknown_names_are_refused_alike() {
    let addr = cheap_server("acc-basic").await;
    let mut anna = Browser::new(&addr);
    let made = anna.enter("/api/accounts", "Anna", "a long password").await;
    assert_eq!(made.status, 201, "{}", made.body);
    let me: Me = strict(&made.body);
    assert_eq!((me.name.as_str(), me.hidden), ("Anna", false));
    // The cookie: HttpOnly, SameSite=Lax, the whole site, not Secure without TLS.
    let set = made
        .head
        .lines()
        .find(|l| l.starts_with("set-cookie:"))
        .unwrap();
    for flag in ["httponly", "samesite=lax", "path=/", "max-age=2592000"] {
        assert!(set.contains(flag), "{set}");
    }
    assert!(!set.contains("secure"), "{set}");
    let me = anna.send("GET", "/api/me", None).await;
    assert_eq!((me.status, me.body["name"].clone()), (200, json!("Anna")));

    // The name is taken whatever its case and spacing; a short password is refused.
    let mut other = Browser::new(&addr);
    let taken = other
        .enter("/api/accounts", " ANNA ", "another password")
        .await;
    assert_eq!(
        (taken.status, taken.body["error"].clone()),
        (409, json!("name_taken"))
    );
    let short = other.enter("/api/accounts", "Boris", "short").await;
    assert_eq!(
        (short.status, short.body["error"].clone()),
        (400, json!("bad_request"))
    );
    let reserved = other
        .enter("/api/accounts", "Admin", "a long password")
        .await;
    assert_eq!(reserved.status, 400, "{}", reserved.body);

    // A wrong password and an unknown name: the same answer.
    let wrong = other
        .enter("/api/session", "anna", "a wrong password")
        .await;
    let unknown = other
        .enter("/api/session", "Nobody", "a wrong password")
        .await;
    assert_eq!((wrong.status, unknown.status), (401, 401));
    assert_eq!(wrong.body, unknown.body);
    assert_eq!(wrong.body["error"], json!("sign_in_refused"));
    assert!(!wrong.head.contains("set-cookie"));
    assert_eq!(other.send("GET", "/api/me", None).await.status, 401);

    // Signing in on a second browser, by any case of the name.
    let mut second = Browser::new(&addr);
    let signed = second
        .enter("/api/session", "aNNa", "a long password")
        .await;
    assert_eq!(signed.status, 200, "{}", signed.body);
    assert_ne!(second.cookie, anna.cookie, "a session of its own");

    // Signing out ends that session only.
    let out = anna.send("POST", "/api/session/end", None).await;
    assert_eq!(out.status, 200, "{}", out.body);
    assert!(out.head.contains("max-age=0"), "{}", out.head);
    let me = anna.send("GET", "/api/me", None).await;
    assert_eq!(
        (me.status, me.body["error"].clone()),
        (401, json!("not_signed_in"))
    );
    assert_eq!(second.send("GET", "/api/me", None).await.status, 200);

    // A new password: the old one no longer signs in, other sessions end, this one stays.
    let mut third = Browser::new(&addr);
    assert_eq!(
        third
            .enter("/api/session", "Anna", "a long password")
            .await
            .status,
        200
    );
    let changed = second
        .send(
            "POST",
            "/api/me/password",
            Some(json!({"password": "a long password", "new_password": "a longer password"})),
        )
        .await;
    assert_eq!(changed.status, 200, "{}", changed.body);
    assert_eq!(second.send("GET", "/api/me", None).await.status, 200);
    assert_eq!(third.send("GET", "/api/me", None).await.status, 401);
    let mut fourth = Browser::new(&addr);
    assert_eq!(
        fourth
            .enter("/api/session", "Anna", "a long password")
            .await
            .status,
        401
    );
    assert_eq!(
        fourth
            .enter("/api/session", "Anna", "a longer password")
            .await
            .status,
        200
    );
}

#[tokio::test]
async fn the_cookie_is_secure_behind_tls() {
    let (addr, _) = server("acc-tls", |c| {
        cheap(c);
        c.accounts.behind_tls = true;
    })
    .await;
    let mut anna = Browser::new(&addr);
    let made = anna.enter("/api/accounts", "Anna", "a long password").await;
    let set = made
        .head
        .lines()
        .find(|l| l.starts_with("set-cookie:"))
        .unwrap();
    assert!(set.contains("; secure"), "{set}");
    let out = anna.send("POST", "/api/session/end", None).await;
    assert!(out.head.contains("; secure"), "{}", out.head);
}

#[tokio::test]
async fn a_signed_in_request_from_another_page_or_without_origin_changes_nothing() {
    let addr = cheap_server("acc-origin").await;
    let mut anna = Browser::new(&addr);
    assert_eq!(
        anna.enter("/api/accounts", "Anna", "a long password")
            .await
            .status,
        201
    );
    for origin in [
        None,
        Some("https://evil.example".to_owned()),
        Some("null".to_owned()),
    ] {
        let page = Browser {
            origin: origin.clone(),
            ..anna.clone()
        };
        let hide = page
            .send("POST", "/api/me/hidden", Some(json!({"hidden": true})))
            .await;
        assert_eq!(
            (hide.status, hide.body["error"].clone()),
            (403, json!("forbidden")),
            "{origin:?}"
        );
        let out = page.send("POST", "/api/session/end", None).await;
        assert_eq!(out.status, 403, "{origin:?}");
        let delete = page
            .send(
                "POST",
                "/api/me/delete",
                Some(json!({"password": "a long password"})),
            )
            .await;
        assert_eq!(delete.status, 403, "{origin:?}");
    }
    // Nothing changed: still signed in, the page not hidden.
    let me = anna.send("GET", "/api/me", None).await;
    assert_eq!((me.status, me.body["hidden"].clone()), (200, json!(false)));
    // A foreign page cannot sign anybody in either (login CSRF).
    let mut evil = Browser {
        origin: Some("https://evil.example".into()),
        ..Browser::new(&addr)
    };
    assert_eq!(
        evil.enter("/api/session", "Anna", "a long password")
            .await
            .status,
        403
    );
    // Taking a seat with the cookie from another page is refused; as a guest it works.
    let (id, host) = lobby(&addr, json!("sochi")).await;
    let claim = json!({"name": "Anna", "invite": invite(&host)});
    let foreign = Browser {
        origin: Some("https://evil.example".into()),
        ..anna.clone()
    };
    let refused = foreign
        .send(
            "POST",
            &format!("/api/tables/{id}/seats"),
            Some(claim.clone()),
        )
        .await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    let guest = Browser {
        cookie: None,
        origin: Some("https://evil.example".into()),
        ..anna.clone()
    };
    let seated = guest
        .send("POST", &format!("/api/tables/{id}/seats"), Some(claim))
        .await;
    assert_eq!(seated.status, 200, "guests play as before: {}", seated.body);
}

#[tokio::test]
async fn sign_ins_spend_a_budget_per_address_and_one_per_name() {
    let (addr, _) = server("acc-budget", |c| {
        cheap(c);
        c.accounts.signins_per_ip_per_minute = 1;
        c.accounts.signin_burst_per_ip = 4;
        c.accounts.signins_per_account_per_minute = 1;
        c.accounts.signin_burst_per_account = 2;
    })
    .await;
    let mut anna = Browser::new(&addr);
    assert_eq!(
        anna.enter("/api/accounts", "Anna", "a long password")
            .await
            .status,
        201
    );
    let mut b = Browser::new(&addr);
    // The name's budget: two attempts, then refused even with the right password.
    assert_eq!(
        b.enter("/api/session", "Anna", "wrong password 1")
            .await
            .status,
        401
    );
    assert_eq!(
        b.enter("/api/session", "ANNA", "wrong password 2")
            .await
            .status,
        401
    );
    let spent = b.enter("/api/session", "Anna", "a long password").await;
    assert_eq!(
        (spent.status, spent.body["error"].clone()),
        (429, json!("rate_limited"))
    );
    assert!(
        spent.body["message"]
            .as_str()
            .unwrap()
            .contains("this name"),
        "{}",
        spent.body
    );
    // An unknown name has a budget too, refused the same way (nothing told).
    assert_eq!(b.enter("/api/session", "Nobody", "x").await.status, 401);
    // The address's budget: its fourth check was the last.
    let spent = b.enter("/api/session", "Boris", "a long password").await;
    assert_eq!(spent.status, 429);
    assert!(
        spent.body["message"]
            .as_str()
            .unwrap()
            .contains("from this address"),
        "{}",
        spent.body
    );
}

#[tokio::test]
async fn a_seat_taken_signed_in_is_fetched_again_from_a_second_device() {
    let addr = cheap_server("acc-rejoin").await;
    let (_, id, _, token) = anna_seated(&addr, 1).await;
    let (_, summary) = http(&addr, "GET", &format!("/api/tables/{id}"), None, None).await;
    assert_eq!(summary["seats"][1]["name"], json!("Anna"), "the user name");
    // The table says whose account holds the seat (a guest's or a bot's is nobody's).
    let (_, players) = http(
        &addr,
        "GET",
        &format!("/api/tables/{id}/players"),
        None,
        None,
    )
    .await;
    let players: TablePlayers = strict(&players);
    assert_eq!(players.players.len(), 1);
    assert_eq!(
        (
            players.players[0].seat,
            players.players[0].account.as_deref()
        ),
        (1, Some("Anna"))
    );
    let (status, _) = http(
        &addr,
        "GET",
        "/api/tables/0123456789abcdef0123456789abcdef/players",
        None,
        None,
    )
    .await;
    assert_eq!(status, 404);

    let mut phone = Browser::new(&addr);
    assert_eq!(
        phone
            .enter("/api/session", "Anna", "a long password")
            .await
            .status,
        200
    );
    let got = phone
        .send("GET", &format!("/api/me/seats/{id}"), None)
        .await;
    assert_eq!(got.status, 200, "{}", got.body);
    let got: SeatToken = strict(&got.body);
    assert_eq!((got.seat, got.token.as_str()), (1, token.as_str()));
    // The token works: the phone's socket is seat 1's.
    let mut ws = connect(&addr, &id, Some(&got.token), "").await;
    let snap = until(&mut ws, |m| m["type"] == "snapshot").await;
    assert_eq!(snap["you"]["seat"], json!(1), "{snap}");

    // Another account holds nothing there; a guest seat is nobody's to fetch.
    let mut boris = Browser::new(&addr);
    assert_eq!(
        boris
            .enter("/api/accounts", "Boris", "a long password")
            .await
            .status,
        201
    );
    let none = boris
        .send("GET", &format!("/api/me/seats/{id}"), None)
        .await;
    assert_eq!(none.status, 409, "{}", none.body);
    // Once the seat is left, it is no longer given.
    let (status, _) = http(
        &addr,
        "POST",
        &format!("/api/tables/{id}/leave"),
        None,
        Some(&token),
    )
    .await;
    assert_eq!(status, 200);
    let gone = phone
        .send("GET", &format!("/api/me/seats/{id}"), None)
        .await;
    assert_eq!(gone.status, 409, "{}", gone.body);
    // Without a session: 401.
    let anon = Browser::new(&addr);
    assert_eq!(
        anon.send("GET", &format!("/api/me/seats/{id}"), None)
            .await
            .status,
        401
    );
}

#[tokio::test]
async fn guest_seats_held_by_the_browser_are_attached_at_sign_up_and_only_with_their_token() {
    let addr = cheap_server("acc-attach").await;
    let (id, host) = lobby(&addr, json!("sochi")).await;
    let (status, seat) = http(
        &addr,
        "POST",
        &format!("/api/tables/{id}/seats"),
        Some(&json!({"name": "Vera", "invite": invite(&host)})),
        None,
    )
    .await;
    assert_eq!(status, 200);
    let token = seat["token"].as_str().unwrap().to_owned();
    let (other, other_host) = lobby(&addr, json!("sochi")).await;
    let (_, other_seat) = http(
        &addr,
        "POST",
        &format!("/api/tables/{other}/seats"),
        Some(&json!({"name": "Gleb", "invite": invite(&other_host)})),
        None,
    )
    .await;
    let mut vera = Browser::new(&addr);
    assert_eq!(
        vera.enter("/api/accounts", "Vera", "a long password")
            .await
            .status,
        201
    );
    let attached = vera
        .send(
            "POST",
            "/api/me/seats",
            Some(json!({"seats": [
                {"table": id, "token": token},
                // Somebody else's seat with a made-up token, and with the host token.
                {"table": other, "token": "0123456789abcdef0123456789abcdef"},
                {"table": other, "token": other_host},
                {"table": "not-an-id", "token": token}
            ]})),
        )
        .await;
    assert_eq!(attached.status, 200, "{}", attached.body);
    let attached: Attached = strict(&attached.body);
    assert_eq!(attached.attached, std::slice::from_ref(&id));
    assert_eq!(
        attached.refused,
        [other.clone(), other.clone(), "not-an-id".to_owned()]
    );
    assert!(other_seat["token"].is_string());
    // The attached game is on Vera's page, in progress, and its token comes back.
    let page = vera.send("GET", "/api/players/vera", None).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let page: PlayerProfile = strict(&page.body);
    assert_eq!((page.name.as_str(), page.games), ("Vera", 1));
    assert_eq!(page.in_progress[0].table, id);
    assert_eq!(
        page.in_progress[0].players[0].account.as_deref(),
        Some("Vera")
    );
    let got = vera.send("GET", &format!("/api/me/seats/{id}"), None).await;
    assert_eq!(got.body["token"], json!(token));
}

/// Plays seat `seat`'s turns at random until the deal is finished.
async fn play_a_deal(ws: Ws, seat: u64) {
    play_random_deal(ws, seat, seat + 7).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_played_signed_in_is_on_the_page_with_the_core_s_statistics_and_deletion_keeps_it() {
    let (addr, dir) = server("acc-stats", cheap).await;
    let mut anna = Browser::new(&addr);
    assert_eq!(
        anna.enter("/api/accounts", "Anna", "a long password")
            .await
            .status,
        201
    );
    let (id, host) = lobby(&addr, json!({"preset": "sochi", "pool_target": 1000})).await;
    let claim = anna
        .send(
            "POST",
            &format!("/api/tables/{id}/seats"),
            Some(json!({"name": "A", "invite": invite(&host)})),
        )
        .await;
    let token = claim.body["token"].as_str().unwrap().to_owned();
    seat_bots(&addr, &id, &host, &[1, 2], "easy").await;
    let ws = connect(&addr, &id, Some(&token), "").await;
    start_table(&addr, &id, &host).await;
    tokio::time::timeout(Duration::from_secs(120), play_a_deal(ws, 0))
        .await
        .expect("the deal finished");
    // Stopped by agreement after the deal (R10.3): the host's end, which A accepts; the game
    // is over with a settlement.
    end_game(&addr, &id, &host, &[(0, &token)]).await;

    let expected = stats::of_record(&record(&addr, &id).await).unwrap();
    // Counted by the write that ended the game, before any page was asked for: the
    // account's running sum is a stored row already.
    let pool =
        sqlx::SqlitePool::connect(&format!("sqlite://{}", dir.join("pref.sqlite3").display()))
            .await
            .unwrap();
    let stored: (String, String) = sqlx::query_as(
        "SELECT s.totals, g.result FROM account_stats s
         JOIN account_games g ON g.account_no = s.account_no",
    )
    .fetch_one(&pool)
    .await
    .expect("the game's end counted it");
    let mut totals: stats::SeatStats = serde_json::from_str(&stored.0).unwrap();
    // The analysis adds its figures in the background, maybe already (checked below).
    (totals.analysed_deals, totals.tricks_lost) = (0, 0);
    assert_eq!(totals, expected.seats[0]);
    assert_eq!(
        stored.1,
        stats::ratio_to_text(&expected.settlement.as_ref().unwrap()[0])
    );
    let stats_answer = anna.send("GET", "/api/players/anna/stats", None).await;
    assert_eq!(stats_answer.status, 200, "{}", stats_answer.body);
    let s: PlayerStats = strict(&stats_answer.body);
    let mine = &expected.seats[0];
    let result = expected.settlement.as_ref().unwrap()[0].to_string();
    assert_eq!((s.games, s.deals, s.declared), (1, 1, mine.declared));
    assert_eq!(s.raspasy.played, mine.raspasy);
    assert_eq!(s.whists.written, mine.whist_points);
    assert_eq!(s.balance, result);
    assert_eq!(s.over_time.len(), 1);
    assert_eq!(
        (s.over_time[0].games, s.over_time[0].balance.as_str()),
        (1, result.as_str())
    );
    // Counted once: asking again changes nothing (but the background analysis's figures).
    let again = anna.send("GET", "/api/players/Anna/stats", None).await;
    let without = |mut v: Value| {
        v.as_object_mut().unwrap().remove("accuracy");
        v
    };
    assert_eq!(without(again.body), without(stats_answer.body.clone()));

    // The accuracy (#31): once the background analysis counted the game, the tricks Anna's
    // own cards lost to the solver, exactly as the analysis of the record values them.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let analysed: i64 = sqlx::query_scalar("SELECT analysed FROM account_games")
            .fetch_one(&pool)
            .await
            .unwrap();
        if analysed == 1 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the game was not analysed"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    pool.close().await;
    let lost = pref_analysis::accuracy::of_record(&record(&addr, &id).await)[0];
    let s: PlayerStats = strict(&anna.send("GET", "/api/players/anna/stats", None).await.body);
    assert_eq!(
        (s.accuracy.deals, s.accuracy.tricks_lost),
        (lost.deals, lost.lost)
    );
    let per_deal = (lost.deals > 0).then(|| {
        stats::ratio_to_text(&num_rational::Ratio::new(
            lost.lost as i64,
            lost.deals as i64,
        ))
    });
    assert_eq!(s.accuracy.per_deal, per_deal);
    assert!(lost.deals <= 1, "one deal was played: {lost:?}");

    let games = anna.send("GET", "/api/players/anna/games", None).await;
    let page: GamesPage = strict(&games.body);
    assert_eq!(page.next, None);
    let game = &page.games[0];
    assert_eq!(
        (
            game.table.as_str(),
            game.phase.as_str(),
            game.profile.as_str()
        ),
        (id.as_str(), "over", "sochi")
    );
    assert_eq!(game.result.as_deref(), Some(result.as_str()));
    assert_eq!(game.links.record, format!("/api/tables/{id}/record"));
    assert_eq!(game.players[1].bot.as_deref(), Some("easy"));
    assert_eq!(game.players[0].account.as_deref(), Some("Anna"));

    // A hidden page is refused to others with its own error, and shown to its player.
    assert_eq!(
        anna.send("POST", "/api/me/hidden", Some(json!({"hidden": true})))
            .await
            .status,
        200
    );
    let (status, body) = http(&addr, "GET", "/api/players/anna/stats", None, None).await;
    assert_eq!((status, body["error"].clone()), (403, json!("hidden")));
    assert_eq!(
        anna.send("GET", "/api/players/anna", None).await.status,
        200
    );
    assert_eq!(
        anna.send("POST", "/api/me/hidden", Some(json!({"hidden": false})))
            .await
            .status,
        200
    );

    // Deletion needs the password; then the page is gone, the name free, the game stays.
    let wrong = anna
        .send(
            "POST",
            "/api/me/delete",
            Some(json!({"password": "not it at all"})),
        )
        .await;
    assert_eq!(wrong.status, 401);
    let deleted = anna
        .send(
            "POST",
            "/api/me/delete",
            Some(json!({"password": "a long password"})),
        )
        .await;
    assert_eq!(deleted.status, 200, "{}", deleted.body);
    assert_eq!(anna.send("GET", "/api/me", None).await.status, 401);
    let (status, body) = http(&addr, "GET", "/api/players/anna", None, None).await;
    assert_eq!((status, body["error"].clone()), (404, json!("no_player")));
    let (status, _) = http(
        &addr,
        "GET",
        &format!("/api/tables/{id}/record"),
        None,
        None,
    )
    .await;
    assert_eq!(status, 200, "the game stays");
    let mut new_anna = Browser::new(&addr);
    assert_eq!(
        new_anna
            .enter("/api/accounts", "Anna", "a new password!")
            .await
            .status,
        201
    );
    // The old game is not the new Anna's, and its seat token is not hers to fetch.
    let (_, page) = http(&addr, "GET", "/api/players/anna/games", None, None).await;
    assert_eq!(page["games"], json!([]));
    let none = new_anna
        .send("GET", &format!("/api/me/seats/{id}"), None)
        .await;
    assert_eq!(none.status, 409, "{}", none.body);
}

#[tokio::test]
async fn a_deleted_player_is_shown_as_such_in_the_games_of_the_others() {
    let addr = cheap_server("acc-deleted").await;
    let (id, host) = lobby(&addr, json!("sochi")).await;
    let mut anna = Browser::new(&addr);
    let mut boris = Browser::new(&addr);
    assert_eq!(
        anna.enter("/api/accounts", "Anna", "a long password")
            .await
            .status,
        201
    );
    assert_eq!(
        boris
            .enter("/api/accounts", "Boris", "a long password")
            .await
            .status,
        201
    );
    for b in [&anna, &boris] {
        let c = b
            .send(
                "POST",
                &format!("/api/tables/{id}/seats"),
                Some(json!({"name": "x", "invite": invite(&host)})),
            )
            .await;
        assert_eq!(c.status, 200, "{}", c.body);
    }
    assert_eq!(
        anna.send(
            "POST",
            "/api/me/delete",
            Some(json!({"password": "a long password"}))
        )
        .await
        .status,
        200
    );
    let games = boris.send("GET", "/api/players/boris/games", None).await;
    let page: GamesPage = strict(&games.body);
    let players = &page.games[0].players;
    assert_eq!(
        (
            players[0].name.as_deref(),
            players[0].account.as_deref(),
            players[0].deleted
        ),
        (None, None, true)
    );
    assert_eq!(players[1].account.as_deref(), Some("Boris"));
}

#[tokio::test]
async fn a_session_made_on_one_node_is_known_on_another() {
    let Some(url) = postgres("accounts").await else {
        return;
    };
    let (one, _) = server("acc-pg-1", |c| {
        cheap(c);
        c.database = Some(url.clone());
    })
    .await;
    let (two, _) = server("acc-pg-2", |c| {
        cheap(c);
        c.database = Some(url.clone());
    })
    .await;
    let mut anna = Browser::new(&one);
    assert_eq!(
        anna.enter("/api/accounts", "Anna", "a long password")
            .await
            .status,
        201
    );
    let (id, host) = lobby(&one, json!("sochi")).await;
    let claim = anna
        .send(
            "POST",
            &format!("/api/tables/{id}/seats"),
            Some(json!({"name": "A", "invite": invite(&host)})),
        )
        .await;
    assert_eq!(claim.status, 200);
    // The same cookie on the other node: signed in, the seat's token given there.
    let there = Browser {
        addr: two.clone(),
        origin: Some(format!("http://{two}")),
        ..anna.clone()
    };
    let me = there.send("GET", "/api/me", None).await;
    assert_eq!((me.status, me.body["name"].clone()), (200, json!("Anna")));
    let got = there
        .send("GET", &format!("/api/me/seats/{id}"), None)
        .await;
    assert_eq!(got.body["token"], claim.body["token"], "{}", got.body);
    // Signed out there, unknown here too.
    assert_eq!(
        there.send("POST", "/api/session/end", None).await.status,
        200
    );
    assert_eq!(anna.send("GET", "/api/me", None).await.status, 401);
}

/// A rematch keeps a signed-in player's seat for his account, not only for his seat token:
/// from a second device without the token he takes it through the account, and the new seat
/// is tied to the account (the new game is on his page, its token fetched again).
#[tokio::test]
async fn a_kept_rematch_seat_is_taken_through_the_account_and_tied_to_it() {
    let addr = cheap_server("acc-rematch").await;
    let (laptop, id, host, _) = anna_seated(&addr, 0).await;
    seat_bots(&addr, &id, &host, &[1, 2], "easy").await;
    let (status, body) = http(
        &addr,
        "POST",
        &format!("/api/tables/{id}/end"),
        None,
        Some(&host),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, rematch) = http(
        &addr,
        "POST",
        &format!("/api/tables/{id}/rematch"),
        None,
        Some(&host),
    )
    .await;
    assert_eq!(status, 201, "{rematch}");
    let again = rematch["id"].as_str().unwrap().to_owned();

    // A stranger without a token or a session gets nothing; Anna's phone, signed in and
    // holding no token, takes her kept seat through the account.
    let (status, _) = http(
        &addr,
        "POST",
        &format!("/api/tables/{id}/rematch/seat"),
        None,
        None,
    )
    .await;
    assert_eq!(status, 403, "neither a seat token nor a session");
    let mut phone = Browser::new(&addr);
    assert_eq!(
        phone
            .enter("/api/session", "Anna", "a long password")
            .await
            .status,
        200
    );
    let seated = phone
        .send("POST", &format!("/api/tables/{id}/rematch/seat"), None)
        .await;
    assert_eq!(seated.status, 200, "{}", seated.body);
    assert_eq!(
        (seated.body["table"].clone(), seated.body["seat"].clone()),
        (json!(again), json!(0))
    );
    // The new seat is the account's: its token is fetched again from the laptop, and the
    // new game (started by itself, every seat being back) is on her page.
    let got = laptop
        .send("GET", &format!("/api/me/seats/{again}"), None)
        .await;
    assert_eq!(got.status, 200, "{}", got.body);
    assert_eq!(got.body["token"], seated.body["token"]);
    let (status, page) = http(&addr, "GET", "/api/players/anna", None, None).await;
    assert_eq!(status, 200);
    let page: PlayerProfile = strict(&page);
    assert_eq!(
        page.in_progress
            .iter()
            .map(|g| g.table.as_str())
            .collect::<Vec<_>>(),
        vec![again.as_str()]
    );
}
