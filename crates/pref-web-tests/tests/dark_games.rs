//! Dark games in a real browser (`dark_games`, R2.3, R3.9, R8.11): the host turns the option
//! on in the start page's "play" fold, plays against two bots and, while his hand is closed,
//! sees no card of it and a *look* button; at his first call he calls dark from the bidding
//! box. When he wins a deal with his dark first call the table shows the dark badge, and the
//! deal's score sentences say ×2. Screenshots go to `target/screenshots/`.
//!
//! Without `/usr/bin/chromium` and `/usr/bin/chromedriver` (see `scripts/install-browser`)
//! the test prints why and passes, except under `CI=true`, where it fails.

use std::time::{Duration, Instant};

use fantoccini::Client;
use pref_web_tests::steps::play_against_bots;
use pref_web_tests::{Driver, browser_missing, click, js, out_dir, past, server_with, step, until};
use serde_json::json;

async fn shot(c: &Client, name: &str) {
    pref_web_tests::shot(c, &out_dir("screenshots"), name).await;
}

/// The host's call: dark while his hand is closed (the box then sends dark calls), the lowest
/// bid he may; in the light, a pass.
async fn call(c: &Client) {
    let dark = js(c, "return !!document.querySelector('#bidbox.dark')").await == json!(true);
    if dark {
        // R2.3: his own hand shows no card before he looks.
        let own = js(c, "return document.querySelectorAll('.hand.own .card.face, .hand.own .card.legal').length").await;
        assert_eq!(own, json!(0), "a closed hand shows no card to its owner");
        assert_eq!(
            js(c, "return !!document.querySelector('#look')").await,
            json!(true),
            "the look button"
        );
        shot(c, "60-dark-closed-hand").await;
        let bid = "#bidbox .grid button[data-action=dark]:not([disabled])";
        let can_bid = js(c, &format!("return !!document.querySelector({bid:?})")).await;
        click(
            c,
            if can_bid == json!(true) {
                bid
            } else {
                "#bidbox button.pass"
            },
        )
        .await;
    } else {
        click(c, "#bidbox button.pass").await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r3_9_r8_11_a_dark_deal_against_bots_shows_its_badge_and_doubles() {
    if browser_missing() {
        return;
    }
    let started = Instant::now();
    let base = server_with(|c| {
        c.limits.bot_delay_min_ms = pref_server::config::Millis(0);
        c.limits.bot_delay_max_ms = pref_server::config::Millis(0);
    })
    .await;
    let mut driver = Driver::start(&out_dir("screenshots")).await;
    let c = driver.browser(false).await;
    pref_web_tests::open_start_page(&c, &base).await;
    click(&c, "#group-play > summary").await;
    click(&c, "#opt-dark_games").await;
    click(&c, "#opt-misere_without_talon").await;
    until(
        &c,
        "the options changed",
        "return document.querySelector('#row-dark_games.changed') && document.querySelector('#row-misere_without_talon.changed') && true",
    )
    .await;
    play_against_bots(&c, "Anna", "easy").await;

    let deadline = Instant::now() + Duration::from_secs(400);
    let (mut bid_made, mut whists) = (true, 0);
    loop {
        assert!(
            Instant::now() < deadline,
            "no dark deal won within the time"
        );
        let v = js(
            &c,
            "const d = document.body.dataset; return [d.myturn || '', d.stage || '', d.version || '']",
        )
        .await;
        let badge = js(&c, "return !!document.querySelector('#dark-badge')").await;
        if badge == json!(true) && v[1] != json!("finished") {
            shot(&c, "61-dark-deal-badge").await;
        }
        if v[1] == json!("finished") {
            let dark_lines = js(
                &c,
                "return [...document.querySelectorAll('.log-line[data-dark=true]')].map(l => l.textContent)",
            )
            .await;
            if dark_lines.as_array().is_some_and(|l| !l.is_empty()) {
                let text = dark_lines.to_string();
                assert!(text.contains("×2"), "{text}");
                shot(&c, "62-dark-deal-scored").await;
                break;
            }
            click(&c, "#next-deal").await;
            until(
                &c,
                "the next deal",
                "return document.body.dataset.stage !== 'finished'",
            )
            .await;
            whists = 0;
        } else if v[0] == json!("true") {
            let stage = v[1].as_str().unwrap_or_default().to_owned();
            let version = v[2].as_str().unwrap_or_default().to_owned();
            if stage == "auction" {
                call(&c).await;
            } else {
                step(&c, &stage, &mut bid_made, &mut whists).await;
            }
            past(&c, &version).await;
        } else {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let _ = c.close().await;
    eprintln!("dark deal in the browser: {:?}", started.elapsed());
}
