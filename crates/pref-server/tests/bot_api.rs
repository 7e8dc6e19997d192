//! The bot API over real HTTP and WebSockets (`docs/bot-api.md`): a fresh account becomes
//! a bot account and makes a token; a host invites it by name; it takes the seat and plays
//! a whole game through the browser's own messages beside a person and a house bot, every
//! card it receives judged against the stored deck and actions (an independent replay, not
//! the server's projection); a revoked token is refused by the next request and closes the
//! socket opened with it at once; a table for people only refuses it; and the Python
//! example (`examples/bot.py`) plays a deal against this server when python3 and
//! `websockets` are present (under `CI=true` they must be).

mod common;

use std::sync::Arc;

use common::*;
use futures_util::StreamExt;
use pref_core::{Action, CardSet, DealView, Seat, ViewEvent, Viewer};
use pref_protocol::{Invitations, Me, PlayerProfile, ServerMessage, Summary, TokenMade, Tokens};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// Cheap password hashes, bots at once, budgets no test reaches unless it means to.
fn quick(c: &mut pref_server::config::Config) {
    c.accounts.argon2_memory_kib = 8;
    c.accounts.argon2_iterations = 1;
    c.accounts.signups_per_ip_per_minute = 1000;
    c.accounts.signup_burst_per_ip = 1000;
    c.limits.bot_delay_min_ms = pref_server::config::Millis(0);
    c.limits.bot_delay_max_ms = pref_server::config::Millis(0);
    c.limits.messages_per_second = 10_000;
    c.limits.message_burst = 10_000;
}

/// One request with extra header lines; status, lower-cased head and JSON body.
async fn raw(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
    headers: &str,
) -> (u16, String, Value) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap();
    (
        head[9..12].parse().unwrap(),
        head.to_ascii_lowercase(),
        serde_json::from_str(rest).unwrap_or(Value::Null),
    )
}

/// A signed-in browser: its cookie and this site's Origin.
struct Browser {
    addr: String,
    headers: String,
}

impl Browser {
    async fn sign_up(addr: &str, name: &str) -> Browser {
        let origin = format!("Origin: http://{addr}\r\n");
        let body = json!({"name": name, "password": "a long password"});
        let (status, head, made) = raw(addr, "POST", "/api/accounts", Some(body), &origin).await;
        assert_eq!(status, 201, "{made}");
        let cookie = head
            .lines()
            .find_map(|l| l.strip_prefix("set-cookie:"))
            .and_then(|c| c.split(';').next())
            .unwrap()
            .trim()
            .to_owned();
        Browser {
            addr: addr.to_owned(),
            headers: format!("{origin}Cookie: {cookie}\r\n"),
        }
    }

    async fn send(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let (status, _, body) = raw(&self.addr, method, path, body, &self.headers).await;
        (status, body)
    }
}

/// A request with the bot's API token.
async fn as_bot(
    addr: &str,
    token: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let (status, _, body) = raw(
        addr,
        method,
        path,
        body,
        &format!("Authorization: Bearer {token}\r\n"),
    )
    .await;
    (status, body)
}

/// A bot account named `name` with one token: the browser and the token.
async fn bot_account(addr: &str, name: &str) -> (Browser, String) {
    let owner = Browser::sign_up(addr, name).await;
    let (status, me) = owner.send("POST", "/api/me/bot", None).await;
    assert_eq!(status, 200, "{me}");
    let me: Me = strict(&me);
    assert!(me.bot);
    let (status, made) = owner
        .send("POST", "/api/me/tokens", Some(json!({"name": "laptop"})))
        .await;
    assert_eq!(status, 200, "{made}");
    let made: TokenMade = strict(&made);
    assert!(made.token.starts_with("prefbot_"));
    (owner, made.token)
}

/// The bot's socket: the browser's upgrade with `Authorization: Bearer` instead of a seat
/// token in the subprotocol.
async fn bot_socket(addr: &str, id: &str, token: &str) -> Ws {
    let mut req = format!("ws://{addr}/api/tables/{id}/ws")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

/// One seat's client: plays random legal actions and judges every card it receives.
struct Seated {
    ws: Ws,
    viewer: Viewer,
    truth: Arc<Truth>,
    rng: StdRng,
    version: u64,
    /// The deal watched, its dealer and the actions completed in it.
    deal: Option<(u32, Seat, usize)>,
    /// The person drives the next deals up to a cap; says whether the game ended itself.
    driver: Option<(u32, mpsc::UnboundedSender<bool>)>,
    /// Cards checked.
    cards: usize,
}

impl Seated {
    fn check(&mut self, cards: CardSet, ok: CardSet, m: &Value) {
        let extra = CardSet(cards.0 & !ok.0);
        assert!(
            extra.is_empty(),
            "{:?} received {extra} it may not see: {m}",
            self.viewer
        );
        self.cards += cards.len() as usize;
    }

    async fn allowed_after(&self, deal_no: u32, dealer: Seat, k: usize) -> CardSet {
        let (deck, actions) = self.truth.deal(deal_no).await;
        let streak = self.truth.raspasy_before(deal_no).await;
        allowed(
            self.viewer,
            &self.truth.replay(dealer, &deck, &actions, k, streak).1,
        )
    }

    /// Plays until the game is over; the cards checked.
    async fn run(mut self) -> usize {
        loop {
            let m = next_json(&mut self.ws)
                .await
                .expect("socket closed before the game ended");
            let _: ServerMessage = strict(&m);
            match m["type"].as_str().unwrap() {
                "snapshot" => self.snapshot(&m).await,
                "event" if self.event(&m).await => return self.cards,
                _ => {}
            }
        }
    }

    async fn snapshot(&mut self, m: &Value) {
        self.version = m["version"].as_u64().unwrap();
        assert_eq!(strict::<Viewer>(&m["you"]), self.viewer, "{m}");
        if m["deal"].is_null() {
            return;
        }
        let view: DealView = strict(&m["deal"]);
        let deal_no = m["deal_no"].as_u64().unwrap() as u32;
        let (deck, actions) = self.truth.deal(deal_no).await;
        let streak = self.truth.raspasy_before(deal_no).await;
        let k = (0..=actions.len())
            .find(|&k| {
                self.truth
                    .replay(view.dealer, &deck, &actions, k, streak)
                    .0
                    .view(self.viewer)
                    == view
            })
            .unwrap_or_else(|| panic!("snapshot matches no stored state: {m}"));
        let ok = allowed(
            self.viewer,
            &self.truth.replay(view.dealer, &deck, &actions, k, streak).1,
        );
        self.check(view.cards(), ok, m);
        self.deal = Some((deal_no, view.dealer, k));
        self.act(m).await;
    }

    async fn event(&mut self, m: &Value) -> bool {
        self.version = m["version"].as_u64().unwrap();
        let has_turn = m.get("turn").is_some();
        let e = &m["event"];
        assert!(!e.is_null(), "a stub to a seat: {m}");
        if e["kind"] == "deal" {
            let event: ViewEvent = strict(&e["event"]);
            let deal_no = e["deal_no"].as_u64().unwrap() as u32;
            let k = if let ViewEvent::Dealt { dealer, .. } = event {
                self.deal = Some((deal_no, dealer, 0));
                0
            } else {
                let (_, dealer, done) = self.deal.expect("a deal event before the deal");
                if has_turn {
                    self.deal = Some((deal_no, dealer, done + 1));
                }
                done + 1
            };
            let (_, dealer, _) = self.deal.unwrap();
            let ok = self.allowed_after(deal_no, dealer, k).await;
            self.check(event.cards(), ok, m);
        } else {
            if has_turn && let Some((d, dealer, done)) = self.deal {
                self.deal = Some((d, dealer, done + 1));
            }
            match e["kind"].as_str().unwrap() {
                "game_over" => return true,
                "deal_finished" => {
                    if let Some((cap, done)) = &self.driver {
                        let deal_no = e["deal_no"].as_u64().unwrap() as u32;
                        if e["game_over"] == true {
                            done.send(true).unwrap();
                        } else if deal_no + 1 < *cap {
                            let next =
                                json!({"type": "next_deal", "id": "n", "version": self.version});
                            send(&mut self.ws, next).await;
                        } else {
                            done.send(false).unwrap();
                        }
                    }
                }
                _ => {}
            }
        }
        if has_turn {
            self.act(m).await;
        }
        false
    }

    async fn act(&mut self, m: &Value) {
        let legal: Vec<Action> = serde_json::from_value(m["turn"]["legal"].clone()).unwrap();
        if let Some((d, dealer, done)) = self.deal {
            let ok = self.allowed_after(d, dealer, done).await;
            self.check(action_cards(&legal), ok, m);
        }
        if let Some(a) = legal.choose(&mut self.rng) {
            let msg = json!({"type": "action", "id": "a", "version": self.version, "action": a});
            send(&mut self.ws, msg).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invited_bot_account_plays_a_whole_game_through_the_api_and_sees_only_its_seat() {
    let (addr, dir) = server("bot-api-game", quick).await;
    let (owner, token) = bot_account(&addr, "Robo").await;
    let (status, me) = as_bot(&addr, &token, "GET", "/api/bot", None).await;
    assert_eq!(
        (status, me["name"].as_str(), me["bot"].as_bool()),
        (200, Some("Robo"), Some(true))
    );

    let profile = json!({"preset": "sochi", "pool_target": 1});
    let (id, host) = lobby(&addr, profile.clone()).await;
    // The host keeps seat 1 for the bot by its name; the bot finds the invitation.
    let path = format!("/api/tables/{id}/seats/1/invite");
    let (status, summary) = http(
        &addr,
        "POST",
        &path,
        Some(&json!({"name": "robo"})),
        Some(&host),
    )
    .await;
    assert_eq!(status, 200, "{summary}");
    let summary: Summary = strict(&summary);
    assert_eq!(summary.seats[1].reserved.as_deref(), Some("Robo"));
    let (status, nobody) = http(
        &addr,
        "POST",
        &path,
        Some(&json!({"name": "Nobody"})),
        Some(&host),
    )
    .await;
    assert_eq!((status, nobody["error"].as_str()), (404, Some("no_player")));
    let (status, list) = as_bot(&addr, &token, "GET", "/api/bot/invitations", None).await;
    assert_eq!(status, 200, "{list}");
    let list: Invitations = strict(&list);
    assert_eq!(list.invitations.len(), 1);
    assert_eq!(
        (list.invitations[0].table.as_str(), list.invitations[0].seat),
        (id.as_str(), 1)
    );

    // The bot takes the kept seat with the browser's claim; a person and a house bot sit.
    let claim = format!("/api/tables/{id}/seats");
    let (status, seat) = as_bot(
        &addr,
        &token,
        "POST",
        &claim,
        Some(json!({"name": "whatever"})),
    )
    .await;
    assert_eq!((status, seat["seat"].as_u64()), (200, Some(1)), "{seat}");
    let (status, anna) = http(
        &addr,
        "POST",
        &claim,
        Some(&json!({"name": "Anna", "invite": invite(&host)})),
        None,
    )
    .await;
    assert_eq!(status, 200, "{anna}");
    seat_bots(&addr, &id, &host, &[2], "easy").await;
    let (_, summary) = http(&addr, "GET", &format!("/api/tables/{id}"), None, None).await;
    let summary: Summary = strict(&summary);
    let marks: Vec<_> = summary
        .seats
        .iter()
        .map(|s| (s.name.clone(), s.bot_account))
        .collect();
    assert_eq!(
        marks,
        [
            (Some("Anna".into()), false),
            (Some("Robo".into()), true),
            (Some("Bot 3".into()), false)
        ]
    );
    let (_, list) = as_bot(&addr, &token, "GET", "/api/bot/invitations", None).await;
    assert_eq!(
        list["invitations"],
        json!([]),
        "a taken seat is no longer listed"
    );

    let truth =
        Arc::new(Truth::open(&dir, &id, pref_core::Profile::from_json(&profile).unwrap()).await);
    let (done_tx, mut done_rx) = mpsc::unbounded_channel();
    let person = Seated {
        ws: connect(&addr, &id, anna["token"].as_str(), "").await,
        viewer: Viewer::Seat(Seat(0)),
        truth: truth.clone(),
        rng: StdRng::seed_from_u64(1),
        version: 0,
        deal: None,
        driver: Some((6, done_tx)),
        cards: 0,
    };
    let bot = Seated {
        ws: bot_socket(&addr, &id, &token).await,
        viewer: Viewer::Seat(Seat(1)),
        truth,
        rng: StdRng::seed_from_u64(2),
        version: 0,
        deal: None,
        driver: None,
        cards: 0,
    };
    let tasks = [tokio::spawn(person.run()), tokio::spawn(bot.run())];
    start_table(&addr, &id, &host).await;
    let natural = done_rx
        .recv()
        .await
        .expect("a client failed before the last deal");
    if !natural {
        let (status, body) = http(
            &addr,
            "POST",
            &format!("/api/tables/{id}/end"),
            None,
            Some(&host),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    let [person, bot] = tasks;
    person.await.unwrap();
    let bot_cards = bot.await.unwrap();
    assert!(
        bot_cards >= 10,
        "the bot was dealt and shown cards: {bot_cards}"
    );
    // The finished game is on the bot's page, marked as a bot's.
    let record = record(&addr, &id).await;
    assert!(!record.deals().is_empty());
    // The record marks the seats programs played: the bot account's and the house bot's.
    assert_eq!(record.bots(), [Seat(1), Seat(2)]);
    let (status, page) = http(&addr, "GET", "/api/players/Robo", None, None).await;
    assert_eq!(status, 200, "{page}");
    let page: PlayerProfile = strict(&page);
    assert!(page.bot && page.games == 1, "{page:?}");
    let (_, games) = http(&addr, "GET", "/api/players/Robo/games", None, None).await;
    assert_eq!(
        games["games"][0]["players"][1]["bot_account"], true,
        "{games}"
    );
    // Its token shows when it was last used, never the token itself.
    let (_, tokens) = owner.send("GET", "/api/me/tokens", None).await;
    let tokens: Tokens = strict(&tokens);
    assert!(tokens.tokens[0].used.is_some());
    assert!(!serde_json::to_string(&tokens).unwrap().contains(&token));
    // A rematch invites the bot again instead of keeping its seat for a seat token.
    let (status, again) = http(
        &addr,
        "POST",
        &format!("/api/tables/{id}/rematch"),
        None,
        Some(&host),
    )
    .await;
    assert_eq!(status, 201, "{again}");
    let new_id = again["id"].as_str().unwrap();
    assert_eq!(again["table"]["seats"][1]["reserved"], "Robo", "{again}");
    let (_, list) = as_bot(&addr, &token, "GET", "/api/bot/invitations", None).await;
    assert_eq!(list["invitations"][0]["table"], new_id, "{list}");
    let old_seat = seat["token"].as_str().unwrap();
    let (status, _) = http(
        &addr,
        "POST",
        &format!("/api/tables/{id}/rematch/seat"),
        None,
        Some(old_seat),
    )
    .await;
    assert_eq!(
        status, 403,
        "a bot account's old seat token does not take the kept seat"
    );
    let (status, taken) = as_bot(
        &addr,
        &token,
        "POST",
        &format!("/api/tables/{new_id}/seats"),
        Some(json!({"name": "x"})),
    )
    .await;
    assert_eq!((status, taken["seat"].as_u64()), (200, Some(1)), "{taken}");
    let (_, summary) = http(&addr, "GET", &format!("/api/tables/{new_id}"), None, None).await;
    assert_eq!(summary["seats"][1]["bot_account"], true, "{summary}");
}

#[tokio::test]
async fn a_revoked_token_is_refused_at_once_and_its_socket_closes() {
    let (addr, _) = server("bot-api-revoke", quick).await;
    let (owner, token) = bot_account(&addr, "Robo").await;
    let (id, host) = lobby(&addr, json!("sochi")).await;
    let claim = format!("/api/tables/{id}/seats");
    let body = json!({"name": "x", "invite": invite(&host)});
    let (status, seat) = as_bot(&addr, &token, "POST", &claim, Some(body.clone())).await;
    assert_eq!(status, 200, "{seat}");
    let mut ws = bot_socket(&addr, &id, &token).await;
    let snap = next_json(&mut ws).await.unwrap();
    assert_eq!(snap["you"], json!({"seat": 0}), "{snap}");

    let (_, tokens) = owner.send("GET", "/api/me/tokens", None).await;
    let no = tokens["tokens"][0]["id"].as_i64().unwrap();
    let (status, revoked) = owner
        .send("POST", &format!("/api/me/tokens/{no}/revoke"), None)
        .await;
    assert_eq!((status, revoked), (200, json!({"revoked": true})));
    // The open socket is closed with 4003 without a message of its own.
    let close = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                Some(Ok(_)) => {}
                _ => return None,
            }
        }
    })
    .await
    .expect("the socket stays open after the revocation");
    assert_eq!(close, Some(4003));
    // Every request with it is refused in the documented shape, and a new socket too.
    for (method, path) in [
        ("GET", "/api/bot"),
        ("GET", "/api/bot/invitations"),
        ("POST", claim.as_str()),
    ] {
        let (status, err) = as_bot(&addr, &token, method, path, Some(body.clone())).await;
        assert_eq!(
            (status, err["error"].as_str()),
            (401, Some("bad_token")),
            "{path}: {err}"
        );
        assert!(err["message"].is_string());
    }
    let mut req = format!("ws://{addr}/api/tables/{id}/ws")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_err());
    // Revoked twice is nothing to revoke; the list no longer holds it.
    let (status, _) = owner
        .send("POST", &format!("/api/me/tokens/{no}/revoke"), None)
        .await;
    assert_eq!(status, 409);
    let (_, tokens) = owner.send("GET", "/api/me/tokens", None).await;
    assert_eq!(tokens, json!({"tokens": []}));
}

#[tokio::test]
async fn only_a_fresh_account_becomes_a_bot_and_no_bot_sits_at_a_table_for_people_only() {
    let (addr, _) = server("bot-api-people", quick).await;
    // An account that has held a seat stays a person's.
    let anna = Browser::sign_up(&addr, "Anna").await;
    let (id, host) = lobby(&addr, json!("sochi")).await;
    let claim = format!("/api/tables/{id}/seats");
    let (status, _) = anna
        .send(
            "POST",
            &claim,
            Some(json!({"name": "A", "invite": invite(&host)})),
        )
        .await;
    assert_eq!(status, 200);
    let (status, err) = anna.send("POST", "/api/me/bot", None).await;
    assert_eq!(
        (status, err["error"].as_str()),
        (409, Some("conflict")),
        "{err}"
    );
    let (status, err) = anna
        .send("POST", "/api/me/tokens", Some(json!({"name": "t"})))
        .await;
    assert_eq!(status, 409, "a person's account makes no token: {err}");

    let (_, token) = bot_account(&addr, "Robo").await;
    let (status, created) = http(
        &addr,
        "POST",
        "/api/tables",
        Some(&json!({"people_only": true})),
        None,
    )
    .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["table"]["people_only"], true);
    let (pid, phost) = (
        created["id"].as_str().unwrap(),
        created["host_token"].as_str().unwrap(),
    );
    let claim = format!("/api/tables/{pid}/seats");
    let (status, err) = as_bot(
        &addr,
        &token,
        "POST",
        &claim,
        Some(json!({"name": "x", "invite": invite(phost)})),
    )
    .await;
    assert_eq!(
        (status, err["error"].as_str()),
        (403, Some("people_only")),
        "{err}"
    );
    let invite_path = format!("/api/tables/{pid}/seats/0/invite");
    let (status, err) = http(
        &addr,
        "POST",
        &invite_path,
        Some(&json!({"name": "Robo"})),
        Some(phost),
    )
    .await;
    assert_eq!(
        (status, err["error"].as_str()),
        (403, Some("people_only")),
        "{err}"
    );
    let (_, summary) = http(&addr, "GET", &format!("/api/tables/{pid}"), None, None).await;
    assert!(
        summary["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["name"].is_null()),
        "{summary}"
    );
    // A person still sits there.
    let (status, _) = http(
        &addr,
        "POST",
        &claim,
        Some(&json!({"name": "Anna", "invite": invite(phost)})),
        None,
    )
    .await;
    assert_eq!(status, 200);
    // A malformed bot token is refused as unknown, not read as a seat token.
    let (status, err) = as_bot(&addr, "prefbot_zz", "GET", "/api/bot", None).await;
    assert_eq!((status, err["error"].as_str()), (401, Some("bad_token")));
}

/// A python3 that has `websockets`, if there is one: `python3` first, then the system's.
fn python_with_websockets() -> Option<&'static str> {
    ["python3", "/usr/bin/python3"].into_iter().find(|p| {
        std::process::Command::new(p)
            .args(["-c", "import websockets"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_example_plays_a_deal_beside_a_person_and_a_house_bot() {
    let Some(python) = python_with_websockets() else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true: python3 with websockets (python3-websockets) is required"
        );
        eprintln!("skipped: no python3 with websockets");
        return;
    };
    let (addr, dir) = server("bot-api-python", quick).await;
    let (_, token) = bot_account(&addr, "Pybot").await;
    let profile = json!({"preset": "sochi", "pool_target": 1});
    let (id, host) = lobby(&addr, profile.clone()).await;
    let claim = format!("/api/tables/{id}/seats");
    let (status, anna) = http(
        &addr,
        "POST",
        &claim,
        Some(&json!({"name": "Anna", "invite": invite(&host)})),
        None,
    )
    .await;
    assert_eq!(status, 200, "{anna}");
    seat_bots(&addr, &id, &host, &[2], "easy").await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/bot.py");
    let child = std::process::Command::new(python)
        .args([
            script,
            "--server",
            &format!("http://{addr}"),
            "--token",
            &token,
        ])
        .args([
            "--table",
            &id,
            "--invite",
            &invite(&host),
            "--deals",
            "1",
            "--seed",
            "7",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = tokio::task::spawn_blocking(move || child.wait_with_output());
    // The example is another process: its seat is awaited on the real clock, with a deadline.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let (_, s) = http(&addr, "GET", &format!("/api/tables/{id}"), None, None).await;
        if s["seats"][1]["name"] == "Pybot" {
            assert_eq!(s["seats"][1]["bot_account"], true, "{s}");
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the example took no seat: {s}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let truth =
        Arc::new(Truth::open(&dir, &id, pref_core::Profile::from_json(&profile).unwrap()).await);
    let (done_tx, mut done_rx) = mpsc::unbounded_channel();
    let person = Seated {
        ws: connect(&addr, &id, anna["token"].as_str(), "").await,
        viewer: Viewer::Seat(Seat(0)),
        truth,
        rng: StdRng::seed_from_u64(3),
        version: 0,
        deal: None,
        driver: Some((1, done_tx)),
        cards: 0,
    };
    let person = tokio::spawn(person.run());
    start_table(&addr, &id, &host).await;
    let natural = done_rx.recv().await.expect("the person's client failed");
    let out = tokio::time::timeout(std::time::Duration::from_secs(60), out)
        .await
        .expect("the example did not end after its deal")
        .unwrap()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("Pybot sits in seat 1") && stdout.contains("deal 0 finished"),
        "{stdout}"
    );
    if !natural {
        let (status, body) = http(
            &addr,
            "POST",
            &format!("/api/tables/{id}/end"),
            None,
            Some(&host),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    person.await.unwrap();
}

#[tokio::test]
async fn a_token_revoked_on_one_node_is_refused_by_another_and_its_socket_closes_at_the_next_message()
 {
    let Some(url) = postgres("botapi").await else {
        return;
    };
    let (one, _) = server("bot-api-pg-1", |c| {
        quick(c);
        c.database = Some(url.clone());
    })
    .await;
    let (two, _) = server("bot-api-pg-2", |c| {
        quick(c);
        c.database = Some(url.clone());
    })
    .await;
    let (owner, token) = bot_account(&one, "Robo").await;
    let (id, host) = lobby(&one, json!("sochi")).await;
    let claim = format!("/api/tables/{id}/seats");
    let (status, seat) = as_bot(
        &one,
        &token,
        "POST",
        &claim,
        Some(json!({"name": "x", "invite": invite(&host)})),
    )
    .await;
    assert_eq!(status, 200, "{seat}");
    let mut ws = bot_socket(&one, &id, &token).await;
    assert_eq!(next_json(&mut ws).await.unwrap()["you"], json!({"seat": 0}));
    // The owner revokes it on the other node: this node's next check refuses it.
    let owner_there = Browser {
        addr: two.clone(),
        headers: owner.headers.replace(&one, &two),
    };
    let (_, tokens) = owner_there.send("GET", "/api/me/tokens", None).await;
    let no = tokens["tokens"][0]["id"].as_i64().unwrap();
    let (status, _) = owner_there
        .send("POST", &format!("/api/me/tokens/{no}/revoke"), None)
        .await;
    assert_eq!(status, 200);
    let (status, err) = as_bot(&one, &token, "GET", "/api/bot", None).await;
    assert_eq!((status, err["error"].as_str()), (401, Some("bad_token")));
    send(&mut ws, json!({"type": "resync"})).await;
    let close = loop {
        match ws.next().await {
            Some(Ok(Message::Close(frame))) => break frame.map(|f| u16::from(f.code)),
            // Items already on their way may come; the resync is not answered.
            Some(Ok(Message::Text(t))) => assert!(!t.contains("snapshot"), "answered: {t}"),
            Some(Ok(_)) => {}
            _ => break None,
        }
    };
    assert_eq!(close, Some(4003));
}

#[tokio::test]
async fn tokens_and_requests_with_them_have_their_limits() {
    let (addr, _) = server("bot-api-limits", |c| {
        quick(c);
        c.accounts.bot_tokens_per_account = 2;
        c.accounts.bot_requests_per_token_per_minute = 1;
        c.accounts.bot_request_burst_per_token = 3;
    })
    .await;
    let (owner, token) = bot_account(&addr, "Robo").await;
    let (status, _) = owner
        .send("POST", "/api/me/tokens", Some(json!({"name": "two"})))
        .await;
    assert_eq!(status, 200);
    let (status, err) = owner
        .send("POST", "/api/me/tokens", Some(json!({"name": "three"})))
        .await;
    assert_eq!(
        (status, err["error"].as_str()),
        (409, Some("conflict")),
        "{err}"
    );
    let (status, err) = owner
        .send("POST", "/api/me/tokens", Some(json!({"name": ""})))
        .await;
    assert_eq!(status, 400, "{err}");
    // A token's budget: three at once, then refused; another token has its own.
    for _ in 0..3 {
        assert_eq!(as_bot(&addr, &token, "GET", "/api/bot", None).await.0, 200);
    }
    let (status, err) = as_bot(&addr, &token, "GET", "/api/bot/invitations", None).await;
    assert_eq!(
        (status, err["error"].as_str()),
        (429, Some("rate_limited")),
        "{err}"
    );
    // Token-made requests need no Origin, but the owner's need his session: a token is no
    // session.
    let (status, _) = as_bot(&addr, &token, "GET", "/api/me/tokens", None).await;
    assert_eq!(status, 401);
}
