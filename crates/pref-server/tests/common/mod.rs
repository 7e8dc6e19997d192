//! Test helpers: a server on a free port with its own data directory, a minimal HTTP/1.1
//! client, WebSocket clients, and the hidden-card oracle that judges every message.
#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use pref_core::{Action, Card, CardSet, Deal, Event, Profile, Seat, Viewer};
use pref_protocol::{Claimed, ClientMessage, Created, ServerMessage};
use pref_server::config::Config;
use serde_json::{Value, json};
use sqlx::Row;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A fresh, empty directory under the system's temp directory.
pub fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "pref-server-test-{tag}-{}-{}",
        std::process::id(),
        rand::random::<u64>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A server in this process with `tweak` applied to the default settings.
pub async fn server(tag: &str, tweak: impl FnOnce(&mut Config)) -> (String, PathBuf) {
    let dir = temp_dir(tag);
    let mut config = Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.clone(),
        web_dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web"),
        ..Config::default()
    };
    tweak(&mut config);
    let running = pref_server::start(config).await.unwrap();
    (running.addr.to_string(), dir)
}

/// The least Argon2id cost, and budgets no test reaches unless it means to.
pub fn cheap(c: &mut Config) {
    c.accounts.argon2_memory_kib = 8;
    c.accounts.argon2_iterations = 1;
    c.accounts.signups_per_ip_per_minute = 1000;
    c.accounts.signup_burst_per_ip = 1000;
    c.accounts.signins_per_ip_per_minute = 1000;
    c.accounts.signin_burst_per_ip = 1000;
    c.limits.bot_delay_min_ms = pref_server::config::Millis(0);
    c.limits.bot_delay_max_ms = pref_server::config::Millis(0);
    c.limits.messages_per_second = 1000;
    c.limits.message_burst = 1000;
}

/// A server in this process whose bots act at once and whose sockets are not rate-limited
/// in practice.
pub async fn quick_server(tag: &str) -> String {
    let (addr, _) = server(tag, |c| {
        c.limits.bot_delay_min_ms = pref_server::config::Millis(0);
        c.limits.bot_delay_max_ms = pref_server::config::Millis(0);
        c.limits.messages_per_second = 1000;
        c.limits.message_burst = 1000;
    })
    .await;
    addr
}

/// Starts the real `pref-server` binary on data directory `dir` with `env` on top of the
/// test settings (port 0, no config file, warnings only); returns the child and the address
/// it printed.
pub fn spawn_binary(dir: &Path, env: &[(&str, &str)]) -> (std::process::Child, String) {
    spawn_binary_at(Path::new(env!("CARGO_BIN_EXE_pref-server")), dir, env)
}

/// [`spawn_binary`] with another build of the server (a measurement's "before" binary).
pub fn spawn_binary_at(
    bin: &Path,
    dir: &Path,
    env: &[(&str, &str)],
) -> (std::process::Child, String) {
    use std::io::BufRead;
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
    let mut command = std::process::Command::new(bin);
    command
        .env("PREF_CONFIG", dir.join("no-such-config.toml"))
        .env("PREF_BIND", "127.0.0.1:0")
        .env("PREF_DATA_DIR", dir)
        .env("PREF_WEB_DIR", web)
        .env("PREF_LOG", "warn");
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .trim()
        .trim_end_matches('/')
        .to_owned();
    (child, addr)
}

/// One HTTP request; returns the status and the JSON body (`Null` if not JSON).
pub async fn http(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    bearer: Option<&str>,
) -> (u16, Value) {
    let (status, text) = http_text(addr, method, path, body, bearer).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// One HTTP request; returns the status and the body text.
pub async fn http_text(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    bearer: Option<&str>,
) -> (u16, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let auth = bearer
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8_lossy(&raw).to_string();
    let status: u16 = text[9..12].parse().unwrap();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap();
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_owned()
    };
    (status, body)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

/// The table's game record, read back strictly by the core.
pub async fn record(addr: &str, id: &str) -> pref_core::Record {
    let path = format!("/api/tables/{id}/record");
    let (status, text) = http_text(addr, "GET", &path, None, None).await;
    assert_eq!(status, 200, "{text}");
    pref_core::Record::from_json_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// A created table.
#[derive(Clone, Debug)]
pub struct TableInfo {
    pub id: String,
    pub host: String,
    pub tokens: Vec<String>,
}

/// Creates a table in the lobby with `profile`; returns its id and host token.
pub async fn lobby(addr: &str, profile: Value) -> (String, String) {
    let (status, created) = http(
        addr,
        "POST",
        "/api/tables",
        Some(&json!({ "profile": profile })),
        None,
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let created: Created = strict(&created);
    // The invite link carries the key in its fragment; the watch link does not.
    let key = created.invite_key();
    assert_eq!(
        key,
        Some(invite(&created.host_token).as_str()),
        "{created:?}"
    );
    assert!(created.watch.ends_with(&format!("/t/{}?watch", created.id)));
    (created.id, created.host_token)
}

/// The invite key of the table whose host token is `host`, as its invite link carries it.
pub fn invite(host: &str) -> String {
    let host = pref_server::ids::Secret::parse(host).expect("a host token");
    host.invite_key().expose()
}

/// Creates a table with `profile`, fills every seat and (if `start`) starts it.
pub async fn table(addr: &str, profile: Value, players: u8, start: bool) -> TableInfo {
    let (id, host) = lobby(addr, profile).await;
    let mut tokens = Vec::new();
    for i in 0..players {
        let (status, seat) = http(
            addr,
            "POST",
            &format!("/api/tables/{id}/seats"),
            Some(&json!({ "name": format!("player {i}"), "invite": invite(&host) })),
            None,
        )
        .await;
        assert_eq!(status, 200, "{seat}");
        let seat: Claimed = strict(&seat);
        assert_eq!(seat.seat, i);
        tokens.push(seat.token);
    }
    if start {
        start_table(addr, &id, &host).await;
    }
    TableInfo { id, host, tokens }
}

/// Seats a bot of `level` in each of `seats`, as the host.
pub async fn seat_bots(addr: &str, id: &str, host: &str, seats: &[u8], level: &str) {
    for s in seats {
        let (status, body) = http(
            addr,
            "POST",
            &format!("/api/tables/{id}/seats/{s}/bot"),
            Some(&json!({ "level": level })),
            Some(host),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
}

/// A long game started: "Anna" in seat 0 (a person), easy bots in seats 1 and 2, a pool of
/// 1000; the table's id and Anna's token.
pub async fn person_and_bots(addr: &str) -> (String, String) {
    let (id, host) = lobby(addr, json!({"preset": "sochi", "pool_target": 1000})).await;
    let (status, seat) = http(
        addr,
        "POST",
        &format!("/api/tables/{id}/seats"),
        Some(&json!({ "name": "Anna", "invite": invite(&host) })),
        None,
    )
    .await;
    assert_eq!(status, 200, "{seat}");
    seat_bots(addr, &id, &host, &[1, 2], "easy").await;
    start_table(addr, &id, &host).await;
    (id, seat["token"].as_str().unwrap().to_owned())
}

/// Starts the game, as the host.
pub async fn start_table(addr: &str, id: &str, host: &str) {
    let (status, body) = http(
        addr,
        "POST",
        &format!("/api/tables/{id}/start"),
        None,
        Some(host),
    )
    .await;
    assert_eq!(status, 200, "{body}");
}

/// Ends the game between deals as the host (`POST /api/tables/{id}/end`) and, when other
/// people sit at the table so that the end is a proposal they answer (R10.3), accepts it
/// with each of `seats` (seat number, seat token) not yet agreed. Returns the last answer,
/// the summary of the game over.
pub async fn end_game(addr: &str, id: &str, host: &str, seats: &[(u8, &str)]) -> Value {
    let (status, mut body) = http(
        addr,
        "POST",
        &format!("/api/tables/{id}/end"),
        None,
        Some(host),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    for (seat, token) in seats {
        let asked = body["stop"]["accepted"]
            .as_array()
            .is_some_and(|a| !a.contains(&json!(seat)));
        if asked {
            let vote = json!({"vote": "accept"});
            let path = format!("/api/tables/{id}/stop");
            let (status, answer) = http(addr, "POST", &path, Some(&vote), Some(token)).await;
            assert_eq!(status, 200, "{answer}");
            body = answer;
        }
    }
    assert_eq!(body["phase"], json!("over"), "{body}");
    body
}

pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The upgrade request for `url`, with the seat token (if any) offered as a subprotocol,
/// as every client sends it.
pub fn ws_request(
    url: &str,
    token: Option<&str>,
) -> tokio_tungstenite::tungstenite::handshake::client::Request {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = url.into_client_request().unwrap();
    req.headers_mut().insert(
        "sec-websocket-protocol",
        pref_protocol::subprotocol::offer(token).parse().unwrap(),
    );
    req
}

/// Opens a socket to table `id` with an optional seat token and query suffix (`&since=…`).
pub async fn connect(addr: &str, id: &str, token: Option<&str>, extra: &str) -> Ws {
    let url = format!(
        "ws://{addr}/api/tables/{id}/ws?{}",
        extra.trim_start_matches('&')
    );
    let (ws, _) = tokio_tungstenite::connect_async(ws_request(&url, token))
        .await
        .unwrap();
    ws
}

/// The next text message as JSON; `None` when the socket closes. Fails after 20 s.
pub async fn next_json(ws: &mut Ws) -> Option<Value> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("no message within 20 s");
        match msg {
            Some(Ok(Message::Text(t))) => return Some(serde_json::from_str(&t).unwrap()),
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
            Some(Ok(_)) => {}
        }
    }
}

/// Reads until a message satisfies `pred`; returns it.
pub async fn until(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        let m = next_json(ws).await.expect("socket closed");
        if pred(&m) {
            return m;
        }
    }
}

pub async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

/// Sends one of the protocol's client messages.
pub async fn send_msg(ws: &mut Ws, m: &ClientMessage) {
    let text = serde_json::to_string(m).unwrap();
    ws.send(Message::Text(text.into())).await.unwrap();
}

/// The next message read strictly as the protocol's [`ServerMessage`] (every field of the
/// JSON accounted for); `None` when the socket closes.
pub async fn next_msg(ws: &mut Ws) -> Option<ServerMessage> {
    next_json(ws).await.map(|v| strict(&v))
}

/// Reads the database the server writes, as an independent witness of the truth.
pub struct Truth {
    pool: sqlx::SqlitePool,
    no: i64,
    profile: Profile,
}

impl Truth {
    pub async fn open(dir: &Path, id: &str, profile: Profile) -> Truth {
        let url = format!("sqlite://{}?mode=ro", dir.join("pref.sqlite3").display());
        let pool = sqlx::sqlite::SqlitePoolOptions::new()
            .max_connections(1)
            .connect(&url)
            .await
            .unwrap();
        let no: i64 = sqlx::query("SELECT no FROM tables WHERE id = ?")
            .bind(id)
            .fetch_one(&pool)
            .await
            .unwrap()
            .get(0);
        Truth { pool, no, profile }
    }

    /// The deck and the stored actions of deal `deal_no`.
    pub async fn deal(&self, deal_no: u32) -> ([Card; 32], Vec<(Seat, Action)>) {
        let deck: String = sqlx::query("SELECT deck FROM deals WHERE table_no = ? AND deal_no = ?")
            .bind(self.no)
            .bind(i64::from(deal_no))
            .fetch_one(&self.pool)
            .await
            .unwrap()
            .get(0);
        let deck: Vec<Card> = deck.split(' ').map(|c| c.parse().unwrap()).collect();
        let rows = sqlx::query(
            "SELECT player, action FROM actions WHERE table_no = ? AND deal_no = ? ORDER BY seq",
        )
        .bind(self.no)
        .bind(i64::from(deal_no))
        .fetch_all(&self.pool)
        .await
        .unwrap();
        let actions = rows
            .iter()
            .map(|r| {
                (
                    Seat(r.get::<i64, _>(0) as u8),
                    serde_json::from_str(&r.get::<String, _>(1)).unwrap(),
                )
            })
            .collect();
        (deck.try_into().unwrap(), actions)
    }

    /// The server seed stored for deal `deal_no` (`docs/fairness.md`), 64 hex digits.
    pub async fn seed(&self, deal_no: u32) -> String {
        sqlx::query("SELECT seed FROM fair_seeds WHERE table_no = ? AND deal_no = ?")
            .bind(self.no)
            .bind(i64::from(deal_no))
            .fetch_one(&self.pool)
            .await
            .unwrap()
            .get(0)
    }

    /// The stored state a snapshot's `view` of deal `deal_no` shows to `viewer`: the number
    /// of stored actions after which the core's view is exactly `view`, and the cards
    /// `viewer` may have seen then; `None` when no prefix gives that view.
    pub async fn matching(
        &self,
        deal_no: u32,
        viewer: Viewer,
        view: &pref_core::DealView,
    ) -> Option<(usize, CardSet)> {
        let (deck, actions) = self.deal(deal_no).await;
        let streak = self.raspasy_before(deal_no).await;
        (0..=actions.len()).find_map(|k| {
            let (deal, events) = self.replay(view.dealer, &deck, &actions, k, streak);
            (deal.view(viewer) == *view).then(|| (k, allowed(viewer, &events)))
        })
    }

    /// The table's profile.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// How many deals just before `deal_no` were raspasy (nobody bid), which sets the
    /// deal's lowest bid (R3.3).
    pub async fn raspasy_before(&self, deal_no: u32) -> u32 {
        let mut streak = 0;
        for before in (0..deal_no).rev() {
            let (_, actions) = self.deal(before).await;
            let bid = actions.iter().any(|(_, a)| {
                matches!(
                    a,
                    Action::Bid(pref_core::Call::Bid(_)) | Action::Dark(pref_core::Call::Bid(_))
                )
            });
            if bid {
                break;
            }
            streak += 1;
        }
        streak
    }

    /// The deal after its first `k` actions and every event so far; `raspasy_before` is
    /// [`Truth::raspasy_before`].
    pub fn replay(
        &self,
        dealer: Seat,
        deck: &[Card; 32],
        actions: &[(Seat, Action)],
        k: usize,
        raspasy_before: u32,
    ) -> (Deal, Vec<Event>) {
        let mut deal = Deal::new(&self.profile, dealer, deck, raspasy_before).unwrap();
        let mut events = vec![deal.deal_event()];
        for &(p, a) in &actions[..k] {
            events.extend(deal.act(p, a).unwrap());
        }
        (deal, events)
    }
}

/// The cards `viewer` may have seen, by the rules, given every event of the deal so far:
/// own hand as dealt (when dealt closed, R2.3: once its owner looked), the turned talon (a
/// dark misère's to its declarer, R4.7.1), a declarer's own discard, opened hands, played
/// cards, and everything once revealed.
pub fn allowed(viewer: Viewer, events: &[Event]) -> CardSet {
    let mut ok = CardSet::EMPTY;
    for e in events {
        match *e {
            Event::Dealt { hands, closed, .. } => {
                if let Viewer::Seat(s) = viewer
                    && !closed
                {
                    ok = ok.or(hands[s.index()]);
                }
            }
            Event::Looked { seat, hand } => {
                if viewer == Viewer::Seat(seat) {
                    ok = ok.or(hand);
                }
            }
            Event::TalonSeen { seat, cards } => {
                if viewer == Viewer::Seat(seat) {
                    ok = ok.with(cards[0]).with(cards[1]);
                }
            }
            Event::TalonTurned { cards } => ok = ok.with(cards[0]).with(cards[1]),
            Event::Discarded { seat, cards } => {
                if viewer == Viewer::Seat(seat) {
                    ok = ok.or(cards);
                }
            }
            Event::HandOpened { hand, .. } => ok = ok.or(hand),
            Event::TalonCardTurned { card, .. } | Event::Played { card, .. } => ok = ok.with(card),
            Event::Revealed {
                hands,
                talon,
                discard,
            } => {
                for h in hands {
                    ok = ok.or(h);
                }
                ok = ok.with(talon[0]).with(talon[1]).or(discard);
            }
            Event::Called { .. }
            | Event::AuctionWon { .. }
            | Event::AllPassed
            | Event::Declared { .. }
            | Event::Surrendered { .. }
            | Event::Whisted { .. }
            | Event::DefenceChosen { .. }
            | Event::TrickTaken { .. }
            | Event::Claimed { .. }
            | Event::Answered { .. }
            | Event::ClaimAccepted { .. }
            | Event::DealOver => {}
        }
    }
    ok
}

/// Every card in a list of legal actions.
pub fn action_cards(legal: &[Action]) -> CardSet {
    let mut c = CardSet::EMPTY;
    for a in legal {
        match a {
            Action::Play(card) => c = c.with(*card),
            Action::Discard(cards) => c = c.or(*cards),
            Action::Bid(_)
            | Action::Dark(_)
            | Action::Look
            | Action::Declare(_)
            | Action::Whist(_)
            | Action::Defence(_)
            | Action::Surrender
            | Action::Claim(_)
            | Action::Answer(_) => {}
        }
    }
    c
}

/// Parses `v` as `T` and checks that nothing in `v` was left out of `T` (no extra fields).
pub fn strict<T: serde::de::DeserializeOwned + serde::Serialize>(v: &Value) -> T {
    let t: T = serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{e}: {v}"));
    assert_eq!(&serde_json::to_value(&t).unwrap(), v, "unexpected fields");
    t
}

/// The variable naming a PostgreSQL server for the tests that need one.
pub const POSTGRES_URL_VAR: &str = "PREF_TEST_POSTGRES_URL";

/// A fresh, empty PostgreSQL database on the server named by `PREF_TEST_POSTGRES_URL`, as
/// a URL; `None` (with the reason printed) when the variable is unset. Under `CI=true` an
/// unset variable fails the test instead: CI must not skip PostgreSQL silently.
pub async fn postgres(tag: &str) -> Option<String> {
    let url = match std::env::var(POSTGRES_URL_VAR) {
        Ok(url) if !url.trim().is_empty() => url,
        _ => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "{POSTGRES_URL_VAR} is not set under CI=true: the PostgreSQL tests cannot be skipped"
            );
            eprintln!("skipped on PostgreSQL: {POSTGRES_URL_VAR} is not set");
            return None;
        }
    };
    let name = format!(
        "pref_{tag}_{}_{}",
        std::process::id(),
        rand::random::<u32>()
    );
    let admin = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .unwrap_or_else(|e| panic!("{POSTGRES_URL_VAR}={url} does not connect: {e}"));
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
    Some(with_database(&url, &name))
}

/// `url` with its database name replaced by `name`.
pub fn with_database(url: &str, name: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap();
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, format!("?{q}")),
        None => (rest, String::new()),
    };
    let host = rest.split('/').next().unwrap();
    format!("{scheme}://{host}/{name}{query}")
}

/// One raw request with `cookie` and this site's `Origin`; returns the status, the session
/// cookie it sets (if any) and the JSON body.
pub async fn with_cookie(
    addr: &str,
    (method, path): (&str, &str),
    body: Option<Value>,
    cookie: Option<&str>,
) -> (u16, Option<String>, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let cookie = cookie
        .map(|c| format!("Cookie: {c}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nOrigin: http://{addr}\r\n{cookie}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap();
    let set = head
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))
        })
        .map(|l| l.split(';').next().unwrap().trim().to_owned());
    (
        head[9..12].parse().unwrap(),
        set,
        serde_json::from_str(rest).unwrap_or(Value::Null),
    )
}

/// Plays `seat`'s turns with random legal actions (an RNG seeded with `seed`) until the
/// deal is finished.
pub async fn play_random_deal(mut ws: Ws, seat: u64, seed: u64) {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut n = 0;
    loop {
        let m = next_json(&mut ws).await.expect("socket closed");
        if m["type"] == "event" && m["event"]["kind"] == "deal_finished" {
            return;
        }
        if m["turn"]["to_act"].as_u64() == Some(seat) {
            let legal: Vec<Value> = serde_json::from_value(m["turn"]["legal"].clone()).unwrap();
            let action = legal.choose(&mut rng).unwrap().clone();
            n += 1;
            let msg = json!({"type": "action", "id": format!("a{n}"), "version": m["version"], "action": action});
            send(&mut ws, msg).await;
        }
    }
}
