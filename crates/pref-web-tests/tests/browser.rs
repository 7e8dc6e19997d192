//! The web client in a real browser: Debian's Chromium driven over WebDriver (chromedriver,
//! through `fantoccini`) against a server started in this process on a free port with its own
//! data directory.
//!
//! - `a_full_deal_in_three_browsers`: three players create a table from the start page, join
//!   by the invite link and play a whole deal through to the score sheet; a spectator watches
//!   and its DOM never holds a card that no player other than its holder can see; a player
//!   reloads mid-deal and comes back to his seat; the phone-sized player's table never
//!   overflows 390 px; the host ends the game and everybody sees the settlement; screenshots
//!   of each screen go to `target/screenshots/`.
//!   The phone-sized player also reads the start page at 390×844 and switches it to Russian.
//! - `the_host_plays_a_deal_against_bots`: the host seats two bots and plays a deal; "What the
//!   deal wrote" shows a sentence per sheet entry with its rule linked into the guide, and a
//!   phone-sized spectator reading it in Russian and the host after a reload show the same
//!   running totals.
//!
//! Without `/usr/bin/chromium` and `/usr/bin/chromedriver` (see `scripts/install-browser`)
//! the tests print why and pass, except under `CI=true`, where they fail.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use pref_web_tests::picture::describe;
use pref_web_tests::{
    Driver, browser_missing, click, create_table, js, open_start_page, out_dir, past, seat_bot,
    server_with, sit, step, type_into, until,
};
use serde_json::{Value, json};

fn screenshots_dir() -> PathBuf {
    out_dir("screenshots")
}

/// The server, in this process, serving `web/`.
async fn server() -> String {
    server_with(|_| {}).await
}

async fn shot(c: &Client, name: &str) {
    pref_web_tests::shot(c, &screenshots_dir(), name).await;
}

async fn body(c: &Client, key: &str) -> String {
    js(c, &format!("return document.body.dataset.{key} || ''"))
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn codes(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

const OWN_HAND: &str =
    "return [...document.querySelectorAll('.hand.own [data-card]')].map(e => e.dataset.card)";
const OWN_AND_OTHER: &str = "const all = [...document.querySelectorAll('[data-card]')]; const own = e => !!e.closest('.hand.own'); return [all.filter(own).map(e => e.dataset.card), all.filter(e => !own(e)).map(e => e.dataset.card)]";
const TURN: &str =
    "const d = document.body.dataset; return [d.myturn || '', d.stage || '', d.version || '']";
const ALL_CARDS: &str =
    "return [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card)";

/// Waits until one of the players' pages has its turn or shows the deal finished, asking
/// `first` first. Which page that is cannot be read from the page that acted last: an action
/// comes as several items (a trick's third card, then the trick taken) with the turn on the
/// last, and a page read between them still names the player who just acted. Only the page
/// whose turn it is says so, and it cannot be wrong: nobody else may act before it.
/// On a timeout every page's kept picture is printed beside a fresh snapshot.
async fn some_turn(players: &[Client], first: usize, spectator: &Client) {
    const SCRIPT: &str =
        "const d = document.body.dataset; return d.myturn === 'true' || d.stage === 'finished'";
    let deadline = Instant::now() + Duration::from_secs(45);
    loop {
        for k in 0..players.len() {
            if js(&players[(first + k) % players.len()], SCRIPT).await == json!(true) {
                return;
            }
        }
        if Instant::now() > deadline {
            for (i, p) in players.iter().chain([spectator]).enumerate() {
                eprintln!("page {i}: {}", describe(p).await);
            }
            panic!("timed out waiting for a page's turn");
        }
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
}

/// Every card in the spectator's DOM is one that some player other than its holder sees too.
/// The pages update independently, so a mismatch is retried for a moment before it fails.
async fn spectator_sees_no_hidden_card(players: &[Client], spectator: &Client) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let seen = codes(&js(spectator, ALL_CARDS).await);
        let mut public = BTreeSet::new();
        let mut held = BTreeSet::new();
        for p in players {
            let v = js(p, OWN_AND_OTHER).await;
            held.extend(codes(&v[0]));
            public.extend(codes(&v[1]));
        }
        let hidden: Vec<&String> = seen
            .iter()
            .filter(|c| held.contains(*c) && !public.contains(*c))
            .collect();
        if hidden.is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the spectator's DOM holds hidden cards {hidden:?}"
        );
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

/// Nothing on the page reaches past the phone's width.
async fn no_horizontal_overflow(c: &Client, screen: &str) {
    let v = js(
        c,
        "const w = window.innerWidth;
         const out = [...document.querySelectorAll('body *')].filter(e => {
           const r = e.getBoundingClientRect();
           return r.width > 0 && (r.right > w + 1 || r.left < -1) && !e.closest('#toast');
         }).map(e => e.className || e.tagName).slice(0, 5);
         return { w, scroll: document.documentElement.scrollWidth, out };",
    )
    .await;
    assert_eq!(v["w"], json!(390), "{screen}: viewport {v}");
    assert!(
        v["scroll"].as_u64() <= Some(390) && v["out"].as_array().is_some_and(Vec::is_empty),
        "{screen}: content wider than the phone: {v}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_deal_in_three_browsers() {
    if browser_missing() {
        return;
    }
    let started = Instant::now();
    let base = server().await;
    let mut driver = Driver::start(&screenshots_dir()).await;
    let host = driver.browser(false).await;
    let bob = driver.browser(false).await;
    let cleo = driver.browser(true).await;
    let watcher = driver.browser(false).await;

    eprintln!("{:?}: four browsers open", started.elapsed());
    // The host creates a table from the start page.
    open_start_page(&host, &base).await;
    shot(&host, "01-start").await;
    let invite = create_table(&host).await;
    let watch = js(&host, "return document.querySelector('#link-watch').value").await;
    let watch = watch.as_str().expect("link").to_owned();
    assert!(watch.ends_with("?watch"), "{watch}");
    // The invite carries the key to sit down; the watch link lacks it.
    assert!(invite.contains("#invite="), "{invite}");
    assert!(!watch.contains("invite"), "{watch}");
    shot(&host, "02-created").await;

    // The phone player reads the start page, switches it to Russian, and plays in Russian.
    open_start_page(&cleo, &base).await;
    no_horizontal_overflow(&cleo, "start").await;
    shot(&cleo, "30-phone-start").await;
    cleo.find(Locator::Css("#lang"))
        .await
        .expect("switch")
        .select_by_value("ru")
        .await
        .expect("choose ru");
    until(&cleo, "Russian words", "return document.documentElement.lang === 'ru' && document.querySelector('#create').textContent === 'Создать стол'").await;
    no_horizontal_overflow(&cleo, "start, ru").await;
    shot(&cleo, "31-phone-start-ru").await;

    sit(&host, &invite, "Anna").await;
    sit(&bob, &invite, "Boris").await;
    sit(&cleo, &invite, "Клео").await;
    no_horizontal_overflow(&cleo, "lobby").await;
    shot(&cleo, "32-phone-lobby").await;
    watcher.goto(&watch).await.expect("spectator link");
    until(
        &host,
        "every seat taken",
        "return !!document.querySelector('#start-game:not([disabled])')",
    )
    .await;
    shot(&host, "03-lobby").await;
    eprintln!("{:?}: every seat taken", started.elapsed());
    click(&host, "#start-game").await;

    // Chat reaches the others.
    until(
        &bob,
        "the table",
        "return document.body.dataset.phase === 'playing'",
    )
    .await;
    type_into(&bob, "#chat-input", "good luck").await;
    click(&bob, ".chat-form button").await;
    until(
        &host,
        "the chat line",
        "return document.querySelector('#chat-lines')?.textContent.includes('good luck')",
    )
    .await;

    let players = [host, bob, cleo];
    let mut seats = Vec::new();
    for p in &players {
        seats.push(body(p, "seat").await.parse::<usize>().expect("a seat"));
    }
    let mut next: Option<usize> = None;
    let mut bid_made = false;
    let mut whists = 0;
    let mut plays = 0;
    let mut reloaded = false;
    let mut stages = BTreeSet::new();
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        if Instant::now() > deadline {
            for (i, p) in players.iter().chain([&watcher]).enumerate() {
                shot(p, &format!("99-stuck-{i}")).await;
                eprintln!("page {i}: {}", js(p, TURN).await);
            }
            panic!("the deal did not finish");
        }
        let mut acted = false;
        // Some page's turn (or the deal's end); the page of the player the last action
        // named is asked first.
        let first_page = next.unwrap_or(0);
        some_turn(&players, first_page, &watcher).await;
        for i in (0..3).map(|k| (first_page + k) % 3) {
            let p = &players[i];
            let v = js(p, TURN).await;
            if v[0] != json!("true") {
                continue;
            }
            let stage = v[1].as_str().unwrap_or_default().to_owned();
            let version = v[2].as_str().unwrap_or_default().to_owned();
            let first = stages.insert(stage.clone());
            if first {
                shot(p, &format!("10-{stage}")).await;
                if stage == "auction" {
                    shot(&players[2], "11-phone-auction").await;
                }
                if stage == "play" {
                    shot(&players[2], "11-phone-play").await;
                    shot(&watcher, "12-spectator").await;
                }
            }
            step(p, &stage, &mut bid_made, &mut whists).await;
            if stage == "play" {
                plays += 1;
            }
            let after = until(
                p,
                "the action's result",
                &format!(
                    "const d = document.body.dataset; return d.version !== {version:?} && [d.toact]"
                ),
            )
            .await;
            next = after[0]
                .as_str()
                .and_then(|s| s.parse::<usize>().ok())
                .and_then(|seat| seats.iter().position(|&x| x == seat));
            acted = true;
            // Every decision, and every completed trick, the spectator is checked.
            if stage != "play" || plays % 3 == 0 {
                spectator_sees_no_hidden_card(&players, &watcher).await;
            }
            if first && i == 2 {
                no_horizontal_overflow(&players[2], &stage).await;
            }
            break;
        }
        if plays == 4 && !reloaded {
            // A reload mid-deal returns to the same seat with the same hand.
            reloaded = true;
            let seat = body(&players[1], "seat").await;
            let hand = codes(&js(&players[1], OWN_HAND).await);
            players[1].refresh().await.expect("reload");
            until(&players[1], "the seat after reload", &format!("return document.body.dataset.seat === {seat:?} && document.querySelectorAll('.hand.own .card').length === {}", hand.len())).await;
            assert_eq!(
                codes(&js(&players[1], OWN_HAND).await),
                hand,
                "the hand after reload"
            );
            shot(&players[1], "13-after-reload").await;
        }
        if !acted {
            if body(&players[0], "stage").await == "finished" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }
    assert!(plays >= 10, "cards were played: {plays}");
    eprintln!("{:?}: the deal is over", started.elapsed());

    // The deal is over: a summary with every hand, and the score sheet written.
    for p in players.iter().chain([&watcher]) {
        until(p, "the summary and the sheet", "return !!document.querySelector('#summary') && [...document.querySelectorAll('#sheet .num')].some(e => /[1-9]/.test(e.textContent))").await;
    }
    let revealed = codes(&js(&watcher, ALL_CARDS).await);
    assert!(
        revealed.len() >= 30,
        "every hand is shown after the deal: {revealed:?}"
    );
    until(
        &players[1],
        "the next deal button",
        "return !!document.querySelector('#next-deal')",
    )
    .await;
    shot(&players[0], "20-deal-over").await;
    shot(&players[2], "21-phone-deal-over").await;
    no_horizontal_overflow(&players[2], "deal over").await;
    let sheet = players[0]
        .find(Locator::Css("#sheet"))
        .await
        .expect("sheet");
    let png = sheet.screenshot().await.expect("sheet screenshot");
    std::fs::write(screenshots_dir().join("22-score-sheet.png"), png).expect("saved");

    // The game ends by agreement (R10.3): the host proposes, once he has confirmed it, and
    // the two others accept; everybody gets the settlement.
    click(&players[0], "#propose-stop").await;
    click(&players[0], "dialog#confirm[open] #confirm-ok").await;
    for p in &players[1..] {
        click(p, "#stop-accept").await;
    }
    for p in players.iter().chain([&watcher]) {
        until(
            p,
            "the settlement",
            "return document.querySelectorAll('#settlement tbody tr').length === 3",
        )
        .await;
    }
    shot(&players[0], "24-settlement").await;
    let record = js(
        &players[0],
        "const a = document.querySelector('#record'); return fetch(a.href).then(r => r.text())",
    )
    .await;
    assert!(
        record.as_str().is_some_and(|r| r.contains("pref-record")),
        "the record downloads: {record}"
    );
    shot(&players[2], "25-phone-settlement").await;
    no_horizontal_overflow(&players[2], "settlement").await;

    for c in players.into_iter().chain([watcher]) {
        let _ = c.close().await;
    }
    eprintln!("a full deal in three browsers: {:?}", started.elapsed());
}

/// The score log's lines and running totals, as text: `[sentences, totals cells]`.
const SCORE_LOG: &str = "const log = document.querySelector('#score-log'); if (!log) return null; \
    return [[...log.querySelectorAll('.log-line')].map(e => e.textContent), \
            [...log.querySelectorAll('.log-totals td')].map(e => e.textContent)]";

/// "What the deal wrote" after the first deal: one sentence per line with its rule linked
/// into the guide, and a spectator (watching in Russian) and the player after a reload show
/// the same running totals, taken from the server's log.
async fn score_log_is_the_same_for_a_spectator(driver: &mut Driver, host: &Client, invite: &str) {
    let player = until(host, "the score log", SCORE_LOG).await;
    let sentences = player[0].as_array().expect("sentences");
    assert!(!sentences.is_empty(), "the deal's lines are written out");
    assert!(
        sentences.iter().all(|s| s
            .as_str()
            .is_some_and(|s| s.contains(": ") && s.contains(", R") && s.ends_with(')'))),
        "each sentence names a seat and a rule: {sentences:?}"
    );
    let links = js(
        host,
        "return [...document.querySelectorAll('#score-log .log-line a.rule')].map(a => a.getAttribute('href'))",
    )
    .await;
    assert!(
        links.as_array().is_some_and(|l| !l.is_empty()
            && l.iter()
                .all(|h| h.as_str().is_some_and(|h| h.starts_with("/guide#r")))),
        "rule ids link to their own anchor in the guide: {links}"
    );
    let spectator = driver.browser(true).await;
    spectator
        .goto(&format!(
            "{}?watch",
            invite.split('#').next().unwrap_or(invite)
        ))
        .await
        .expect("watch link");
    until(&spectator, "the spectator's score log", SCORE_LOG).await;
    spectator
        .find(Locator::Css("#lang"))
        .await
        .expect("language picker")
        .select_by_value("ru")
        .await
        .expect("Russian");
    let watched = until(
        &spectator,
        "the log in Russian",
        "return document.documentElement.lang === 'ru' && document.querySelector('#score-log h3')?.textContent",
    )
    .await;
    assert_eq!(watched, json!("Что записала сдача"));
    let watched = js(&spectator, SCORE_LOG).await;
    assert_eq!(
        watched[1], player[1],
        "the same running totals for a player and a spectator"
    );
    assert_eq!(watched[0].as_array().map(Vec::len), Some(sentences.len()));
    shot(&spectator, "43-score-log-spectator-ru-phone").await;
    host.refresh().await.expect("reload");
    let again = until(host, "the score log after a reload", SCORE_LOG).await;
    assert_eq!(again, player, "the same log after a reload");
    js(
        host,
        "document.querySelector('#score-log')?.scrollIntoView()",
    )
    .await;
    shot(host, "44-score-log-player").await;
    let _ = spectator.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_plays_a_deal_against_bots() {
    if browser_missing() {
        return;
    }
    let started = Instant::now();
    let base = server_with(|c| {
        c.limits.bot_delay_min_ms = pref_server::config::Millis(0);
        c.limits.bot_delay_max_ms = pref_server::config::Millis(0);
    })
    .await;
    let mut driver = Driver::start(&screenshots_dir()).await;
    let host = driver.browser(false).await;
    open_start_page(&host, &base).await;
    let invite = create_table(&host).await;
    sit(&host, &invite, "Anna").await;
    // The host fills the two other seats with bots of two levels.
    seat_bot(&host, 1, "strong").await;
    seat_bot(&host, 2, "easy").await;
    let badges = js(
        &host,
        "return [...document.querySelectorAll('#lobby > ul.seats .badge.bot')].length",
    )
    .await;
    assert_eq!(badges, json!(2), "the lobby marks both bots");
    shot(&host, "40-lobby-with-bots").await;
    click(&host, "#start-game:not([disabled])").await;
    until(
        &host,
        "the table",
        "return document.body.dataset.phase === 'playing'",
    )
    .await;
    assert_eq!(
        js(
            &host,
            "return document.querySelectorAll('.seat .badge.bot').length"
        )
        .await,
        json!(2),
        "the table marks both bots"
    );
    // The host plays his turns; the bots play theirs by themselves.
    let (mut bid_made, mut whists) = (false, 0);
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        assert!(Instant::now() < deadline, "the deal did not finish");
        let v = js(&host, TURN).await;
        if v[1] == json!("finished") {
            break;
        }
        if v[0] == json!("true") {
            let stage = v[1].as_str().unwrap_or_default().to_owned();
            let version = v[2].as_str().unwrap_or_default().to_owned();
            step(&host, &stage, &mut bid_made, &mut whists).await;
            past(&host, &version).await;
        } else {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    shot(&host, "41-deal-over-with-bots").await;
    score_log_is_the_same_for_a_spectator(&mut driver, &host, &invite).await;
    // Between deals the host swaps the easy bot for a normal one and deals again.
    click(&host, "#seat-admin button[data-remove='2']").await;
    until(
        &host,
        "the freed seat",
        "return !!document.querySelector(\"#seat-admin button[data-bot='2']\")",
    )
    .await;
    seat_bot(&host, 2, "normal").await;
    shot(&host, "42-seat-panel").await;
    click(&host, "#next-deal").await;
    until(
        &host,
        "the second deal",
        "return document.body.dataset.phase === 'playing'",
    )
    .await;
    let _ = host.close().await;
    eprintln!("a deal against bots: {:?}", started.elapsed());
}
