//! A duplicate tournament in a real browser (Chromium over WebDriver): a visitor makes a
//! challenge on `/tournaments`, follows its link, enters under a name, plays the first deal
//! against the bots by clicking his legal actions, sees his result and the deal's comparison
//! (every entrant's play, the solver's par), reaches the next deal, and finds himself in the
//! standings. Screenshots go to `target/screenshots/`.
//!
//! Without Chromium the test prints why and passes, except under `CI=true`.

use std::time::{Duration, Instant};

use fantoccini::Locator;
use pref_web_tests::{Driver, browser_missing, click, js, out_dir, server_with, shot, until};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn make_a_challenge_enter_play_a_deal_and_see_the_comparison() {
    if browser_missing() {
        return;
    }
    let base = server_with(|_| {}).await;
    let dir = out_dir("screenshots");
    let mut driver = Driver::start(&dir).await;
    let c = driver.browser(false).await;
    c.goto(&format!("{base}/tournaments")).await.unwrap();
    until(
        &c,
        "the list",
        "return document.body.dataset.ready === 'true'",
    )
    .await;
    js(&c, "document.querySelector('#create-form [name=deals]').value = 2; document.querySelector('#create-form [name=level]').value = 'easy'; return true").await;
    click(&c, "#create-form button[type=submit]").await;
    let link = until(
        &c,
        "the link",
        "return document.querySelector('#created-link')?.getAttribute('href')",
    )
    .await;
    shot(&c, &dir, "90-tournament-created").await;
    c.goto(link.as_str().unwrap()).await.unwrap();
    until(
        &c,
        "the page",
        "return !!document.querySelector('#enter-form')",
    )
    .await;
    c.find(Locator::Css("#enter-form [name=name]"))
        .await
        .unwrap()
        .send_keys("Anna")
        .await
        .unwrap();
    click(&c, "#enter-form button[type=submit]").await;
    until(
        &c,
        "the table",
        "return !!document.querySelector('#hand .card-chip')",
    )
    .await;
    shot(&c, &dir, "91-tournament-table").await;
    let deadline = Instant::now() + Duration::from_secs(300);
    while js(&c, "return !document.querySelector('#last-result')").await == json!(true) {
        assert!(Instant::now() < deadline, "the deal ends");
        let drawn = js(&c, "return document.body.dataset.drawn").await;
        click(&c, "#actions button.act").await;
        until(
            &c,
            "the answer drawn",
            &format!("return document.body.dataset.drawn !== {drawn}"),
        )
        .await;
    }
    until(
        &c,
        "the comparison",
        "return !!document.querySelector('#comparison-0 tr[data-entrant=\"0\"]')",
    )
    .await;
    let par = js(&c, "return !!document.querySelector('#comparison-0 .par')").await;
    assert_eq!(par, json!(true), "the solver's par is shown");
    let standing = js(
        &c,
        "return document.querySelector('#standings tr.you td:nth-child(4)')?.textContent",
    )
    .await;
    assert_eq!(standing, json!("50 %"), "alone on the deal: 50 %");
    shot(&c, &dir, "92-tournament-comparison").await;
    click(&c, "#next-deal").await;
    until(&c, "deal 2", "return !!document.querySelector('#table h3') && document.querySelector('#hand .card-chip') !== null && !document.querySelector('#next-deal')").await;
    shot(&c, &dir, "93-tournament-next-deal").await;
    let _ = c.close().await;
}
