//! The bot API over real HTTP and WebSockets (`docs/bot-api.md`): a fresh account becomes
//! a bot account and makes a token; a host invites it by name; it takes the seat and plays
//! a whole game through the browser's own messages beside a person and a house bot, every
//! card it receives judged against the stored deck and actions (an independent replay, not
//! the server's projection), and is invited again to the rematch; and the Python example
//! (`examples/bot.py`) plays a deal against this server when python3 and `websockets` are
//! present (under `CI=true` they must be). Tokens' refusals: `bot_api_tokens.rs`.

mod bot_api_common;
mod common;

use std::sync::Arc;

use bot_api_common::*;
use common::*;
use pref_core::{Seat, Viewer};
use pref_protocol::{Invitations, PlayerProfile, Summary, Tokens};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::json;
use tokio::sync::mpsc;

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
        // Anna is a person the host did not seat as himself: she accepts his end (R10.3).
        end_game(&addr, &id, &host, &[(0, anna["token"].as_str().unwrap())]).await;
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
        // Anna is a person the host did not seat as himself: she accepts his end (R10.3).
        end_game(&addr, &id, &host, &[(0, anna["token"].as_str().unwrap())]).await;
    }
    person.await.unwrap();
}
