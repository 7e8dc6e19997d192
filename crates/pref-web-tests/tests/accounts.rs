//! An account in a real browser (Chromium over WebDriver): a visitor signs up in the header,
//! plays a deal against bots with one click, ends the game, and finds it on his page
//! (`/@/{name}`) with the statistics, the balance chart and the contract bars; his name at
//! the table links to that page; a second browser signed in to the account opens the table
//! as his seat. Screenshots go to `target/screenshots/`.
//!
//! Without Chromium the test prints why and passes, except under `CI=true`.

use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use pref_web_tests::{
    Driver, browser_missing, click, js, open_start_page, out_dir, past, server_with, shot, step,
    until,
};
use serde_json::json;

const TURN: &str =
    "const d = document.body.dataset; return [d.myturn || '', d.stage || '', d.version || '']";

/// Signs in (or up) through the header's dialog; the page reloads signed in.
async fn enter(c: &Client, name: &str, password: &str, button: &str) {
    click(c, "#sign-in").await;
    until(
        c,
        "the dialog",
        "return !!document.querySelector('dialog#account-dialog[open]')",
    )
    .await;
    c.find(Locator::Css("#acc-name"))
        .await
        .unwrap()
        .send_keys(name)
        .await
        .unwrap();
    c.find(Locator::Css("#acc-password"))
        .await
        .unwrap()
        .send_keys(password)
        .await
        .unwrap();
    click(c, button).await;
    until(
        c,
        "signed in",
        &format!(
            "return document.querySelector('#my-games')?.textContent.toLowerCase() === '@{}'",
            name.to_lowercase()
        ),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_play_a_deal_against_bots_and_find_the_game_on_the_page() {
    if browser_missing() {
        return;
    }
    let base = server_with(|c| {
        c.limits.bot_delay_min_ms = pref_server::config::Millis(0);
        c.limits.bot_delay_max_ms = pref_server::config::Millis(0);
        c.accounts.argon2_memory_kib = 8;
        c.accounts.argon2_iterations = 1;
    })
    .await;
    let dir = out_dir("screenshots");
    let mut driver = Driver::start(&dir).await;
    let anna = driver.browser(false).await;
    open_start_page(&anna, &base).await;
    enter(&anna, "Anna", "a long password", "#acc-sign-up").await;
    shot(&anna, &dir, "80-signed-up").await;

    // One click: a table with bots, the player in seat 0 under his user name.
    until(
        &anna,
        "the bots panel",
        "return !!document.querySelector('#bots-name')",
    )
    .await;
    anna.find(Locator::Css("#bots-name"))
        .await
        .unwrap()
        .clear()
        .await
        .unwrap();
    anna.find(Locator::Css("#bots-name"))
        .await
        .unwrap()
        .send_keys("typed")
        .await
        .unwrap();
    click(&anna, "#play-bots").await;
    until(
        &anna,
        "the table",
        "return document.body.dataset.phase === 'playing'",
    )
    .await;
    let link = until(
        &anna,
        "the name linking to the page",
        "return document.querySelector('.seat-name[href]')?.getAttribute('href')",
    )
    .await;
    assert_eq!(link, json!("/@/Anna"));
    let table = js(&anna, "return location.pathname").await;

    let (mut bid_made, mut whists) = (false, 0);
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        assert!(Instant::now() < deadline, "the deal did not finish");
        let v = js(&anna, TURN).await;
        if v[1] == json!("finished") {
            break;
        }
        if v[0] == json!("true") {
            let stage = v[1].as_str().unwrap_or_default().to_owned();
            let version = v[2].as_str().unwrap_or_default().to_owned();
            step(&anna, &stage, &mut bid_made, &mut whists).await;
            past(&anna, &version).await;
        } else {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    // A second browser signed in to the account opens the table as Anna's seat.
    let phone = driver.browser(true).await;
    phone.goto(&base).await.unwrap();
    enter(&phone, "anna", "a long password", "#acc-sign-in").await;
    phone
        .goto(&format!("{base}{}", table.as_str().unwrap()))
        .await
        .unwrap();
    until(
        &phone,
        "Anna's seat",
        "return document.body.dataset.seat === '0'",
    )
    .await;
    let _ = phone.close().await;

    // The host ends the game: the settlement, then the page.
    click(&anna, "#end-game").await;
    click(&anna, "dialog#confirm[open] #confirm-ok").await;
    until(
        &anna,
        "the settlement",
        "return document.querySelectorAll('#settlement tbody tr').length === 3",
    )
    .await;
    anna.goto(&format!("{base}/@/Anna")).await.unwrap();
    until(
        &anna,
        "the page",
        "return document.body.dataset.ready === 'true'",
    )
    .await;
    let shown = js(
        &anna,
        "return [document.querySelector('#player-name').textContent,
                 document.querySelectorAll('#games li[data-phase=over]').length,
                 document.querySelector('#fig-games b').textContent,
                 document.querySelector('#fig-deals b').textContent,
                 document.querySelectorAll('#balance-chart polyline').length,
                 document.querySelectorAll('#level-bars rect').length,
                 document.querySelector('#games li a[href$=\"/record\"]') !== null]",
    )
    .await;
    assert_eq!(shown, json!(["Anna", 1, "1", "1", 1, 10, true]));
    shot(&anna, &dir, "81-player-page").await;
    // Her own page has her settings: hiding it, from then on refused to others.
    click(&anna, "#hide-page").await;
    until(
        &anna,
        "the page hidden",
        "return fetch('/api/me').then(r => r.json()).then(m => m.hidden)",
    )
    .await;
    let _ = anna.close().await;
}
