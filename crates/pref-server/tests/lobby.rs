//! The public lobby and quick pairing, over the real server: public tables listed and
//! joined without the invite link, seekers paired first come first seated into one table,
//! never two; a seek gone with its socket and after a restart; bots filling a table when
//! the seeker allowed it; the bounds on what one client may put in the lobby; and two
//! nodes on PostgreSQL pairing their seekers together; bot accounts seeking by their API
//! token, in their own line.

mod bot_api_common;
mod common;

use std::time::Duration;

use common::{
    Ws, http, next_json, postgres, send, server, spawn_binary, temp_dir, with_cookie, ws_request,
};
use pref_core::{Seat, Viewer};
use pref_protocol::{LobbyMessage, LobbyView, ServerMessage, Summary};
use pref_server::config::{Config, Millis};
use serde_json::{Value, json};

/// Quick ticks, and room for every seeker of a test from 127.0.0.1.
fn roomy(c: &mut Config) {
    c.lobby.lobby_tick_ms = Millis(50);
    c.lobby.seeks_per_ip = 100;
    c.lobby.seek_burst_per_ip = 100;
    c.lobby.lobby_sockets_per_ip = 100;
    c.limits.sockets_per_ip_per_second = 1000;
    c.limits.socket_burst_per_ip = 1000;
    c.limits.bot_delay_min_ms = Millis(0);
    c.limits.bot_delay_max_ms = Millis(0);
}

/// A lobby socket, past its snapshot (returned).
async fn lobby_socket(addr: &str) -> (Ws, LobbyView) {
    let url = format!("ws://{addr}/api/lobby/ws");
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_request(&url, None))
        .await
        .unwrap();
    let first: LobbyMessage = serde_json::from_value(next_json(&mut ws).await.unwrap()).unwrap();
    let LobbyMessage::Snapshot { lobby } = first else {
        panic!("the first message is not the snapshot: {first:?}");
    };
    (ws, lobby)
}

fn seek(name: &str, preset: &str, clock: &str, bots: Option<u32>) -> Value {
    let mut v = json!({"type": "seek", "name": name, "profile": preset, "clock": clock});
    if let Some(b) = bots {
        v["bots_after_secs"] = json!(b);
    }
    v
}

/// Seeks on `ws` and waits for its answer (`waiting`, or an error).
async fn seek_on(ws: &mut Ws, request: Value) -> Value {
    send(ws, request).await;
    common::until(ws, |m| m["type"] == "waiting" || m["type"] == "error").await
}

/// Waits for the seat `ws` is given: (table, seat, token).
async fn paired(ws: &mut Ws) -> (String, u8, String) {
    let m = common::until(ws, |m| m["type"] == "paired").await;
    (
        m["table"].as_str().unwrap().to_owned(),
        u8::try_from(m["seat"].as_u64().unwrap()).unwrap(),
        m["token"].as_str().unwrap().to_owned(),
    )
}

async fn lobby_now(addr: &str) -> LobbyView {
    let (status, body) = http(addr, "GET", "/api/lobby", None, None).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_value(body).unwrap()
}

/// Polls `GET /api/lobby` until `pred` holds (the lobby is read every tick); fails after 10 s.
async fn lobby_until(addr: &str, pred: impl Fn(&LobbyView) -> bool) -> LobbyView {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let view = lobby_now(addr).await;
        if pred(&view) {
            return view;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the lobby never got there: {view:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn seeking(view: &LobbyView, preset: &str, clock: &str) -> u32 {
    view.seeking
        .iter()
        .find(|c| c.preset == preset && c.clock == clock)
        .map_or(0, |c| c.seeking)
}

async fn summary(addr: &str, id: &str) -> Summary {
    let (status, body) = http(addr, "GET", &format!("/api/tables/{id}"), None, None).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_value(body).unwrap()
}

#[tokio::test]
async fn a_public_table_is_listed_joined_without_the_invite_and_leaves_the_list_when_full() {
    let (addr, _) = server("lobby-public", roomy).await;
    let (mut watcher, first) = lobby_socket(&addr).await;
    assert!(first.tables.is_empty(), "{first:?}");
    // A private table is not listed; a public one is, with its host and clock.
    let (status, _) = http(&addr, "POST", "/api/tables", Some(&json!({})), None).await;
    assert_eq!(status, 201);
    let (status, created) = http(
        &addr,
        "POST",
        "/api/tables",
        Some(
            &json!({"profile": {"preset": "sochi", "pool_target": 37}, "clock": "blitz",
            "public": true, "name": "Anna"}),
        ),
        None,
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let listed = common::until(&mut watcher, |m| m["type"] == "listed").await;
    assert_eq!(listed["table"]["id"], json!(id));
    assert_eq!(listed["table"]["host"], json!("Anna"));
    assert_eq!(listed["table"]["clock"], json!("blitz"));
    assert_eq!(listed["table"]["preset"], json!("sochi"));
    assert_eq!(listed["table"]["differs"], json!({"pool_target": 37}));
    assert_eq!(listed["table"]["seats"], json!([null, null, null]));
    let n = listed["n"].as_u64().unwrap();
    // Three strangers sit without the invite key; each seat shows in the list.
    for (i, name) in ["Boris", "Vera", "Gleb"].into_iter().enumerate() {
        let (status, body) = http(
            &addr,
            "POST",
            &format!("/api/tables/{id}/seats"),
            Some(&json!({"name": name})),
            None,
        )
        .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["seat"], json!(i));
    }
    let gone = common::until(&mut watcher, |m| m["type"] == "unlisted").await;
    assert_eq!(gone["id"], json!(id));
    assert!(gone["n"].as_u64().unwrap() > n);
    assert!(lobby_now(&addr).await.tables.is_empty());
    // A private table still needs its invite link.
    let (_, private) = http(&addr, "POST", "/api/tables", Some(&json!({})), None).await;
    let (status, body) = http(
        &addr,
        "POST",
        &format!("/api/tables/{}/seats", private["id"].as_str().unwrap()),
        Some(&json!({"name": "Boris"})),
        None,
    )
    .await;
    assert_eq!(
        (status, body["error"].clone()),
        (403, json!("invite_required"))
    );
}

#[tokio::test]
async fn seekers_are_seated_first_come_first_and_the_fourth_waits() {
    let (addr, _) = server("lobby-fair", roomy).await;
    let mut sockets = Vec::new();
    for name in ["A", "B", "C", "D"] {
        let (mut ws, _) = lobby_socket(&addr).await;
        let answer = seek_on(&mut ws, seek(name, "sochi", "normal", None)).await;
        assert_eq!(answer["type"], "waiting", "{answer}");
        sockets.push(ws);
    }
    let mut tables = Vec::new();
    for ws in &mut sockets[..3] {
        tables.push(paired(ws).await);
    }
    let id = &tables[0].0;
    assert!(tables.iter().all(|(t, _, _)| t == id), "{tables:?}");
    // Seated in the order they came.
    assert_eq!(tables.iter().map(|t| t.1).collect::<Vec<_>>(), [0, 1, 2]);
    let table = summary(&addr, id).await;
    let names: Vec<_> = table.seats.iter().map(|s| s.name.clone()).collect();
    assert_eq!(
        names,
        [Some("A".into()), Some("B".into()), Some("C".into())]
    );
    // Not before every seat is open: the game starts once their pages open the table.
    assert_eq!(table.phase, pref_protocol::Phase::Lobby);
    let mut open = Vec::new();
    for (_, _, token) in &tables {
        open.push(open_seat(&addr, id, token).await);
    }
    // The fourth is still waiting, and counted; the game is in the live list (the table
    // is opened beside the lobby's follower, so it may be listed just after the seats).
    let view = lobby_until(&addr, |v| {
        seeking(v, "sochi", "normal") == 1 && !v.live.is_empty()
    })
    .await;
    assert_eq!(view.live.len(), 1, "{view:?}");
    assert_eq!(view.live[0].id, *id);
    // The seat token works at the table.
    let (mut seat, _) = tokio_tungstenite::connect_async(ws_request(
        &format!("ws://{addr}/api/tables/{id}/ws"),
        Some(&tables[0].2),
    ))
    .await
    .unwrap();
    let snapshot = next_json(&mut seat).await.unwrap();
    assert_eq!(snapshot["type"], "snapshot");
    assert_eq!(snapshot["you"], json!({"seat": 0}), "{snapshot}");
    started(&addr, id).await;
}

#[tokio::test]
async fn a_live_game_s_preview_shows_the_deal_as_a_spectator_sees_it_and_follows_it() {
    let (addr, _) = server("lobby-preview", roomy).await;
    let mut sockets = Vec::new();
    for name in ["Anna", "Boris", "Vera"] {
        let (mut ws, _) = lobby_socket(&addr).await;
        seek_on(&mut ws, seek(name, "sochi", "normal", None)).await;
        sockets.push(ws);
    }
    let mut tables = Vec::new();
    for ws in &mut sockets {
        tables.push(paired(ws).await);
    }
    let id = tables[0].0.clone();
    let mut open = Vec::new();
    for (_, _, token) in &tables {
        open.push(open_seat(&addr, &id, token).await);
    }
    started(&addr, &id).await;
    // A spectator's snapshot: whose turn, at which version.
    let mut watch = common::connect(&addr, &id, None, "").await;
    let seen = next_json(&mut watch).await.unwrap();
    let first = seen["turn"]["to_act"].as_u64().unwrap();
    let view = lobby_until(&addr, |v| {
        v.live.iter().any(|l| l.id == id && l.preview.is_some())
    })
    .await;
    let preview = view.live[0].preview.clone().unwrap();
    let zero = vec![0i64; 3];
    assert_eq!(
        (
            preview.deal,
            preview.contract,
            preview.stage,
            preview.turn,
            &preview.tricks,
            &preview.pool,
            &preview.mountain,
            &preview.balance,
            preview.practice
        ),
        (
            1,
            pref_protocol::PreviewContract::Bidding {
                bid: None,
                by: None
            },
            pref_core::Stage::Auction,
            Some(Seat(u8::try_from(first).unwrap())),
            &vec![0u8; 3],
            &zero,
            &zero,
            &vec!["0".to_owned(); 3],
            false
        )
    );
    assert_eq!(view.live[0].seats, ["Anna", "Boris", "Vera"]);
    // The first hand bids six spades: the live list follows, with the next seat to call.
    let seat = usize::try_from(first).unwrap();
    let msg =
        json!({"type": "action", "id": "a1", "version": seen["version"], "action": {"bid": "6S"}});
    send(&mut open[seat], msg).await;
    let view = lobby_until(&addr, |v| {
        v.live.iter().any(|l| {
            l.preview
                .as_ref()
                .is_some_and(|p| p.contract != preview.contract)
        })
    })
    .await;
    let after = view.live[0].preview.clone().unwrap();
    assert_eq!(
        (after.contract, after.turn),
        (
            pref_protocol::PreviewContract::Bidding {
                bid: Some("6S".parse().unwrap()),
                by: Some(Seat(u8::try_from(first).unwrap()))
            },
            Some(Seat(u8::try_from((first + 1) % 3).unwrap()))
        )
    );
    // The lobby's JSON of it, as a lobby page reads it: no card of any hand.
    let (_, body) = http(&addr, "GET", "/api/lobby", None, None).await;
    assert_eq!(
        body["live"][0]["preview"],
        json!({"deal": 1, "contract": {"kind": "bidding", "bid": "6S", "by": first},
               "stage": "auction", "turn": (first + 1) % 3, "tricks": [0, 0, 0],
               "pool": [0, 0, 0], "mountain": [0, 0, 0], "balance": ["0", "0", "0"]}),
        "{body}"
    );
}

/// Opens seat `token` of table `id` as the seeker's page does, past its snapshot.
async fn open_seat(addr: &str, id: &str, token: &str) -> Ws {
    let mut ws = common::connect(addr, id, Some(token), "").await;
    let snapshot = next_json(&mut ws).await.unwrap();
    assert_eq!(snapshot["type"], "snapshot", "{snapshot}");
    ws
}

/// Polls table `id` until its game started (the lobby starts a paired table at a tick once
/// its seats are open); fails after 10 s.
async fn started(addr: &str, id: &str) -> Summary {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let table = summary(addr, id).await;
        if table.phase != pref_protocol::Phase::Lobby {
            return table;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "never started: {table:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Nine seekers of one choice at once, spread over the nodes of `addrs`: three whole tables,
/// each seeker seated once, and no bot.
async fn nine_at_once(addrs: &[String]) {
    let seekers: Vec<_> = (0..9)
        .map(|i| {
            let addr = addrs[i % addrs.len()].clone();
            tokio::spawn(async move {
                let (mut ws, _) = lobby_socket(&addr).await;
                let answer =
                    seek_on(&mut ws, seek(&format!("p{i}"), "leningrad", "blitz", None)).await;
                assert_eq!(answer["type"], "waiting", "{answer}");
                let seat = paired(&mut ws).await;
                (seat, ws)
            })
        })
        .collect();
    let mut seats = Vec::new();
    let mut keep = Vec::new();
    for s in seekers {
        let (seat, ws) = s.await.unwrap();
        seats.push(seat);
        keep.push(ws);
    }
    let mut by_table = std::collections::BTreeMap::<String, Vec<u8>>::new();
    for (table, seat, _) in &seats {
        by_table.entry(table.clone()).or_default().push(*seat);
    }
    assert_eq!(by_table.len(), 3, "{by_table:?}");
    for (id, mut at) in by_table {
        at.sort_unstable();
        assert_eq!(at, [0, 1, 2], "table {id}");
        let table = summary(&addrs[0], &id).await;
        assert!(table.seats.iter().all(|s| s.bot.is_none()), "{table:?}");
    }
}

#[tokio::test]
async fn many_seekers_at_once_end_at_whole_tables_each_seated_once() {
    let (addr, _) = server("lobby-race", roomy).await;
    nine_at_once(&[addr]).await;
}

#[tokio::test]
async fn many_seekers_at_once_on_two_nodes_end_at_whole_tables_each_seated_once() {
    let Some(url) = postgres("lobbyrace").await else {
        return;
    };
    let node = |c: &mut Config| {
        roomy(c);
        c.database = Some(url.clone());
    };
    let (one, _) = server("lobby-pg-race-1", node).await;
    let (two, _) = server("lobby-pg-race-2", node).await;
    nine_at_once(&[one, two]).await;
}

#[tokio::test]
async fn a_seek_is_gone_when_its_socket_closes_or_is_cancelled() {
    let (addr, _) = server("lobby-close", roomy).await;
    let (mut one, _) = lobby_socket(&addr).await;
    let (mut two, _) = lobby_socket(&addr).await;
    seek_on(&mut one, seek("A", "rostov", "relaxed", None)).await;
    seek_on(&mut two, seek("B", "rostov", "relaxed", None)).await;
    lobby_until(&addr, |v| seeking(v, "rostov", "relaxed") == 2).await;
    drop(one);
    lobby_until(&addr, |v| seeking(v, "rostov", "relaxed") == 1).await;
    send(&mut two, json!({"type": "cancel"})).await;
    lobby_until(&addr, |v| seeking(v, "rostov", "relaxed") == 0).await;
    // A third seeker alone with the one that closed: nobody is paired with a ghost.
    let (mut three, _) = lobby_socket(&addr).await;
    let (mut four, _) = lobby_socket(&addr).await;
    seek_on(&mut three, seek("C", "rostov", "relaxed", None)).await;
    seek_on(&mut four, seek("D", "rostov", "relaxed", None)).await;
    let view = lobby_until(&addr, |v| seeking(v, "rostov", "relaxed") == 2).await;
    assert!(view.live.is_empty(), "{view:?}");
}

#[tokio::test]
async fn a_seeker_who_allowed_bots_gets_a_table_with_bots() {
    let (addr, _) = server("lobby-bots", roomy).await;
    let (mut ws, _) = lobby_socket(&addr).await;
    let answer = seek_on(&mut ws, seek("Anna", "sochi", "off", Some(1))).await;
    assert_eq!(
        answer,
        json!({"type": "waiting", "preset": "sochi", "clock": "off"})
    );
    let (id, seat, token) = paired(&mut ws).await;
    assert_eq!(seat, 0);
    let _open = open_seat(&addr, &id, &token).await;
    let table = started(&addr, &id).await;
    assert_eq!(table.seats[0].name.as_deref(), Some("Anna"));
    assert!(table.seats[0].bot.is_none());
    assert!(
        table.seats[1].bot.is_some() && table.seats[2].bot.is_some(),
        "{table:?}"
    );
}

#[tokio::test]
async fn a_restart_leaves_no_ghost_seek() {
    let dir = temp_dir("lobby-restart");
    let env = [("PREF_LOBBY_TICK_MS", "50")];
    let (mut child, addr) = spawn_binary(&dir, &env);
    let (mut ws, _) = lobby_socket(&addr).await;
    seek_on(&mut ws, seek("A", "sochi", "normal", None)).await;
    lobby_until(&addr, |v| seeking(v, "sochi", "normal") == 1).await;
    // The node dies with the seek in the database.
    child.kill().unwrap();
    child.wait().unwrap();
    drop(ws);
    let (mut child, addr) = spawn_binary(&dir, &env);
    let view = lobby_now(&addr).await;
    assert_eq!(seeking(&view, "sochi", "normal"), 0, "{view:?}");
    // And a new seeker is not paired with the ghost.
    let (mut b, _) = lobby_socket(&addr).await;
    let (mut c, _) = lobby_socket(&addr).await;
    seek_on(&mut b, seek("B", "sochi", "normal", None)).await;
    seek_on(&mut c, seek("C", "sochi", "normal", None)).await;
    let view = lobby_until(&addr, |v| seeking(v, "sochi", "normal") == 2).await;
    assert!(view.live.is_empty(), "{view:?}");
    child.kill().unwrap();
    child.wait().unwrap();
}

#[tokio::test]
async fn each_bound_refuses_the_one_over_it() {
    let (addr, _) = server("lobby-bounds", |c| {
        roomy(c);
        c.lobby.seeks_per_ip = 1;
        c.lobby.lobby_sockets_per_ip = 3;
        c.lobby.public_tables_per_ip = 1;
    })
    .await;
    // Seeks waiting per address: the second socket's seek is refused.
    let (mut one, _) = lobby_socket(&addr).await;
    let (mut two, _) = lobby_socket(&addr).await;
    assert_eq!(
        seek_on(&mut one, seek("A", "sochi", "normal", None)).await["type"],
        "waiting"
    );
    let refused = seek_on(&mut two, seek("B", "sochi", "normal", None)).await;
    assert_eq!(refused["error"], "rate_limited", "{refused}");
    // A seek asking for bots later than the bound allows is refused.
    let late = seek_on(&mut two, seek("B", "sochi", "normal", Some(601))).await;
    assert_eq!(late["error"], "bad_request", "{late}");
    // Lobby sockets per address: the fourth upgrade is refused.
    let (_three, _) = lobby_socket(&addr).await;
    let url = format!("ws://{addr}/api/lobby/ws");
    let Err(tokio_tungstenite::tungstenite::Error::Http(answer)) =
        tokio_tungstenite::connect_async(ws_request(&url, None)).await
    else {
        panic!("a fourth lobby socket was let in");
    };
    assert_eq!(answer.status(), 429);
    // Public tables per address: the second one is refused, a private one is not.
    let public = json!({"public": true});
    let (status, _) = http(&addr, "POST", "/api/tables", Some(&public), None).await;
    assert_eq!(status, 201);
    let (status, body) = http(&addr, "POST", "/api/tables", Some(&public), None).await;
    assert_eq!(
        (status, body["error"].clone()),
        (429, json!("rate_limited"))
    );
    let (status, _) = http(&addr, "POST", "/api/tables", Some(&json!({})), None).await;
    assert_eq!(status, 201);
}

#[tokio::test]
async fn seeks_per_minute_are_budgeted_per_address() {
    let (addr, _) = server("lobby-seek-rate", |c| {
        roomy(c);
        c.lobby.seeks_per_ip_per_minute = 1;
        c.lobby.seek_burst_per_ip = 2;
    })
    .await;
    let (mut ws, _) = lobby_socket(&addr).await;
    // A new seek replaces the socket's own; the third in a minute is refused.
    for _ in 0..2 {
        assert_eq!(
            seek_on(&mut ws, seek("A", "sochi", "normal", None)).await["type"],
            "waiting"
        );
    }
    let refused = seek_on(&mut ws, seek("A", "sochi", "normal", None)).await;
    assert_eq!(refused["error"], "rate_limited", "{refused}");
}

#[tokio::test]
async fn two_nodes_pair_their_seekers_at_one_table() {
    let Some(url) = postgres("lobby").await else {
        return;
    };
    let node = |c: &mut Config| {
        roomy(c);
        c.database = Some(url.clone());
    };
    let (one, _) = server("lobby-pg-1", node).await;
    let (two, _) = server("lobby-pg-2", node).await;
    let (mut a, _) = lobby_socket(&one).await;
    let (mut b, _) = lobby_socket(&two).await;
    let (mut c, _) = lobby_socket(&one).await;
    seek_on(&mut a, seek("A", "sochi", "normal", None)).await;
    seek_on(&mut b, seek("B", "sochi", "normal", None)).await;
    // Both nodes count both seekers.
    lobby_until(&one, |v| seeking(v, "sochi", "normal") == 2).await;
    lobby_until(&two, |v| seeking(v, "sochi", "normal") == 2).await;
    seek_on(&mut c, seek("C", "sochi", "normal", None)).await;
    let (ta, sa, ka) = paired(&mut a).await;
    let (tb, sb, kb) = paired(&mut b).await;
    let (tc, sc, kc) = paired(&mut c).await;
    assert_eq!((&ta, &tb), (&tc, &tc));
    assert_eq!([sa, sb, sc], [0, 1, 2]);
    // The game starts once their pages open the table.
    let mut open = Vec::new();
    for token in [ka, kb, kc] {
        open.push(open_seat(&two, &ta, &token).await);
    }
    // Either node serves the table and lists the game.
    let table = summary(&two, &ta).await;
    assert_eq!(table.seats[1].name.as_deref(), Some("B"));
    lobby_until(&two, |v| v.live.iter().any(|l| l.id == ta)).await;
    lobby_until(&one, |v| v.live.iter().any(|l| l.id == ta)).await;
    // The game's preview, taken by the node that serves the table, shows on both nodes.
    let previews = |v: &LobbyView| {
        v.live
            .iter()
            .find(|l| l.id == ta)
            .and_then(|l| l.preview.clone())
    };
    let on_one = previews(&lobby_until(&one, |v| previews(v).is_some()).await);
    let on_two = previews(&lobby_until(&two, |v| previews(v).is_some()).await);
    assert_eq!(on_one, on_two);
    assert_eq!(on_one.map(|p| p.deal), Some(1));
}

#[tokio::test]
async fn a_signed_in_seeker_sits_under_his_name_and_his_seat_is_tied_to_his_account() {
    let (addr, _) = server("lobby-account", |c| {
        roomy(c);
        c.accounts.argon2_memory_kib = 8;
        c.accounts.argon2_iterations = 1;
    })
    .await;
    let credentials = json!({"name": "Anna", "password": "a long password"});
    let (status, cookie, _) =
        with_cookie(&addr, ("POST", "/api/accounts"), Some(credentials), None).await;
    assert_eq!(status, 201);
    let cookie = cookie.expect("a session cookie");
    let socket = |cookie: String| {
        let addr = addr.clone();
        async move {
            let mut req = ws_request(&format!("ws://{addr}/api/lobby/ws"), None);
            req.headers_mut().insert("cookie", cookie.parse().unwrap());
            req.headers_mut()
                .insert("origin", format!("http://{addr}").parse().unwrap());
            let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
            next_json(&mut ws).await.unwrap();
            ws
        }
    };
    let mut one = socket(cookie.clone()).await;
    let mut two = socket(cookie.clone()).await;
    // One seek waiting per account (`lobby.seeks_per_account`): the second is refused.
    let waiting = seek_on(&mut one, seek("whoever", "sochi", "off", Some(3))).await;
    assert_eq!(waiting["type"], "waiting", "{waiting}");
    let refused = seek_on(&mut two, seek("whoever", "sochi", "off", Some(3))).await;
    assert_eq!(refused["error"], "rate_limited", "{refused}");
    let (id, seat, token) = paired(&mut one).await;
    let table = summary(&addr, &id).await;
    assert_eq!(table.seats[usize::from(seat)].name.as_deref(), Some("Anna"));
    // The seat is the account's: another device of Anna's is given its token.
    let (status, _, held) = with_cookie(
        &addr,
        ("GET", &format!("/api/me/seats/{id}")),
        None,
        Some(&cookie),
    )
    .await;
    assert_eq!(status, 200, "{held}");
    assert_eq!(held["token"], json!(token));
}

/// Opens a public table on `addr` under the host name `name`; its id.
async fn public_table(addr: &str, name: &str) -> String {
    let body = json!({"public": true, "name": name});
    let (status, created) = http(addr, "POST", "/api/tables", Some(&body), None).await;
    assert_eq!(status, 201, "{created}");
    created["id"].as_str().unwrap().to_owned()
}

fn listed_ids(view: &LobbyView) -> Vec<&str> {
    view.tables.iter().map(|t| t.id.as_str()).collect()
}

/// The items' numbers are each node's own: a socket's items follow its snapshot one by one,
/// `resync` gives the socket the whole lobby at the number it is at, and a client that
/// connects again to the other node starts over from that node's snapshot, which holds
/// every change made while it was away (on either node), and then follows that node's
/// numbers without a gap.
#[tokio::test]
async fn a_reconnect_to_the_other_node_resyncs_with_a_snapshot_and_misses_nothing() {
    let Some(url) = postgres("lobby_resync").await else {
        return;
    };
    let node = |c: &mut Config| {
        roomy(c);
        c.lobby.public_tables_per_ip = 10;
        c.database = Some(url.clone());
    };
    let (one, _) = server("lobby-resync-1", node).await;
    let (two, _) = server("lobby-resync-2", node).await;
    let (mut w, first) = lobby_socket(&one).await;
    let t1 = public_table(&one, "Anna").await;
    let item = common::until(&mut w, |m| m["type"] == "listed").await;
    assert_eq!(item["table"]["id"], json!(t1));
    assert_eq!(item["n"], json!(first.n + 1), "{item}");
    // A resync on the same socket: the whole lobby, at the number of the last item.
    send(&mut w, json!({"type": "resync"})).await;
    let again: LobbyMessage =
        serde_json::from_value(common::until(&mut w, |m| m["type"] == "snapshot").await).unwrap();
    let LobbyMessage::Snapshot { lobby: again } = again else {
        unreachable!()
    };
    assert_eq!(again.n, first.n + 1);
    assert_eq!(listed_ids(&again), [t1.as_str()]);
    drop(w);
    // Changes on both nodes while the client is away.
    let t2 = public_table(&two, "Boris").await;
    let t3 = public_table(&one, "Vera").await;
    lobby_until(&two, |v| v.tables.len() == 3).await;
    // Connecting again to the other node: its snapshot has all three, longest waiting first.
    let (mut w2, there) = lobby_socket(&two).await;
    assert_eq!(listed_ids(&there), [t1.as_str(), t2.as_str(), t3.as_str()]);
    // And the next change made on the first node reaches it numbered after that snapshot.
    let t4 = public_table(&one, "Gleb").await;
    let item = common::until(&mut w2, |m| m["type"] == "listed").await;
    assert_eq!(item["table"]["id"], json!(t4));
    assert_eq!(item["n"], json!(there.n + 1), "{item}");
}

/// A lobby socket opened with a bot account's API token (`Authorization: Bearer`, as at
/// the table socket), past its snapshot.
async fn bot_lobby_socket(addr: &str, token: &str) -> Ws {
    let mut req = ws_request(&format!("ws://{addr}/api/lobby/ws"), None);
    req.headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    next_json(&mut ws).await.unwrap();
    ws
}

#[tokio::test]
async fn bot_accounts_seek_by_their_token_and_pair_only_with_bot_accounts() {
    let (addr, _) = server("lobby-bot-accounts", |c| {
        roomy(c);
        bot_api_common::quick(c);
    })
    .await;
    // A person asking for a bots-only line is refused and waits nowhere.
    let (mut person, _) = lobby_socket(&addr).await;
    let mut only = seek("Ann", "sochi", "off", None);
    only["bots_only"] = json!(true);
    let refused = seek_on(&mut person, only).await;
    assert_eq!(refused["error"], "bad_request", "{refused}");
    // The person seeks first: were bot accounts in people's line, she would sit with the
    // first two of them.
    let waiting = seek_on(&mut person, seek("Ann", "sochi", "off", None)).await;
    assert_eq!(waiting["type"], "waiting", "{waiting}");
    let mut bots = Vec::new();
    for (i, name) in ["Robo", "Tin", "Chip"].into_iter().enumerate() {
        let (_, token) = bot_api_common::bot_account(&addr, name).await;
        let mut ws = bot_lobby_socket(&addr, &token).await;
        let mut request = seek("ignored", "sochi", "off", None);
        if i == 0 {
            request["bots_only"] = json!(true);
        }
        let waiting = seek_on(&mut ws, request).await;
        assert_eq!(waiting["type"], "waiting", "{waiting}");
        bots.push((ws, token));
    }
    let (mut table, mut open) = (None, Vec::new());
    for (i, (ws, token)) in bots.iter_mut().enumerate() {
        let (id, seat, seat_token) = paired(ws).await;
        assert_eq!(usize::from(seat), i, "first come, first seated");
        assert_eq!(table.get_or_insert_with(|| id.clone()), &id);
        assert!(!seat_token.is_empty());
        // The seat is the bot account's: its table socket by its API token sits there.
        let mut at = bot_api_common::bot_socket(&addr, &id, token).await;
        let first: ServerMessage =
            serde_json::from_value(next_json(&mut at).await.unwrap()).unwrap();
        let ServerMessage::Snapshot(snapshot) = first else {
            panic!("the first message is not the snapshot: {first:?}");
        };
        assert_eq!(snapshot.you, Viewer::Seat(Seat(seat)));
        open.push(at);
    }
    let id = table.unwrap();
    let seats = summary(&addr, &id).await.seats;
    let names: Vec<_> = seats.iter().map(|s| s.name.as_deref()).collect();
    assert_eq!(names, [Some("Robo"), Some("Tin"), Some("Chip")]);
    assert!(
        seats.iter().all(|s| s.bot_account && s.bot.is_none()),
        "{seats:?}"
    );
    // The person still waits, alone in people's line: the grid counts her only.
    let view = lobby_until(&addr, |v| v.live.iter().any(|l| l.id == id)).await;
    assert_eq!(seeking(&view, "sochi", "off"), 1, "{view:?}");
}

#[tokio::test]
async fn open_grace_frees_an_unopened_seat_and_the_others_wait_listed() {
    let (addr, _) = server("lobby-grace", |c| {
        roomy(c);
        c.lobby.open_grace_secs = pref_server::config::Secs(1);
    })
    .await;
    let mut sockets = Vec::new();
    for name in ["A", "B", "C"] {
        let (mut ws, _) = lobby_socket(&addr).await;
        let waiting = seek_on(&mut ws, seek(name, "sochi", "off", None)).await;
        assert_eq!(waiting["type"], "waiting", "{waiting}");
        sockets.push(ws);
    }
    let mut given = Vec::new();
    for ws in &mut sockets {
        given.push(paired(ws).await);
    }
    let id = given[0].0.clone();
    // A and B open their seats; C's page never opens the table.
    let mut open = Vec::new();
    for (_, _, token) in &given[..2] {
        open.push(open_seat(&addr, &id, token).await);
    }
    assert_eq!(summary(&addr, &id).await.phase, pref_protocol::Phase::Lobby);
    // After the grace C's seat is freed; A and B keep theirs, first come first seated, and
    // the table is listed with the free seat.
    let view = lobby_until(&addr, |v| v.tables.iter().any(|t| t.id == id)).await;
    let listed = view.tables.iter().find(|t| t.id == id).unwrap();
    assert_eq!(listed.seats, [Some("A".into()), Some("B".into()), None]);
    let table = summary(&addr, &id).await;
    assert_eq!(table.phase, pref_protocol::Phase::Lobby);
    assert_eq!(table.seats[2].name, None);
    // C's seek is gone: nobody seeks.
    assert_eq!(seeking(&view, "sochi", "off"), 0, "{view:?}");
    // D takes the free seat from the list, without the invite key, and opens it: the game
    // starts.
    let (status, body) = http(
        &addr,
        "POST",
        &format!("/api/tables/{id}/seats"),
        Some(&json!({"name": "D"})),
        None,
    )
    .await;
    assert_eq!((status, &body["seat"]), (200, &json!(2)), "{body}");
    let _d = open_seat(&addr, &id, body["token"].as_str().unwrap()).await;
    let table = started(&addr, &id).await;
    let names: Vec<_> = table.seats.iter().map(|s| s.name.as_deref()).collect();
    assert_eq!(names, [Some("A"), Some("B"), Some("D")]);
}
