//! A practice table in the browser: the start page's practice option opens one, the table
//! says it is a practice table, and on a card-play turn the hint button shows the bot's card
//! with what it does in words and its alternatives. And stepping back through a deal's
//! tricks during the deal shows no card the viewer was not shown.

use std::time::{Duration, Instant};

use pref_web_tests::steps::play_against_bots;
use pref_web_tests::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_practice_table_explains_the_bot_s_card() {
    if browser_missing() {
        return;
    }
    let base = server_with(|c| {
        c.limits.bot_delay_min_ms = pref_server::config::Millis(0);
        c.limits.bot_delay_max_ms = pref_server::config::Millis(0);
        // Unoptimised tests: a small search.
        c.limits.hint_nodes = 300_000;
    })
    .await;
    let dir = out_dir("screenshots");
    let mut driver = Driver::start(&dir).await;
    let c = driver.browser(true).await;
    open_start_page(&c, &base).await;
    click(&c, "#practice").await;
    play_against_bots(&c, "Anna", "easy").await;
    until(
        &c,
        "the practice mark",
        "return !!document.querySelector('#practice-mark')",
    )
    .await;
    const TURN: &str = "const d = document.body.dataset; return [d.myturn || '', d.stage || '', document.querySelectorAll('.hand.own .card').length, !!document.querySelector('#hint-ask:not([disabled])')]";
    let (mut bid_made, mut whists) = (false, 0);
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        assert!(Instant::now() < deadline, "no card-play turn with a hint");
        let v = js(&c, TURN).await;
        // Late in a deal (six cards or fewer) the search is small.
        if v[0] == json!("true")
            && v[1] == json!("play")
            && v[3] == json!(true)
            && v[2].as_u64().unwrap_or(10) <= 6
        {
            break;
        }
        if v[0] == json!("true") {
            let stage = v[1].as_str().unwrap_or_default().to_owned();
            step(&c, &stage, &mut bid_made, &mut whists).await;
        } else if js(&c, "return document.body.dataset.phase").await == json!("between_deals") {
            let _ = js(
                &c,
                "document.querySelector('#next-deal')?.click(); return true",
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    click(&c, "#hint-ask").await;
    let choice = until(
        &c,
        "the hint",
        "return document.querySelector('#hint-choice')?.textContent",
    )
    .await;
    let text = choice.as_str().unwrap_or_default().to_owned();
    assert!(text.starts_with("The bot plays"), "{text}");
    assert!(
        !text.contains("hint.reason"),
        "a reason without words: {text}"
    );
    let alternatives = js(
        &c,
        "return document.querySelectorAll('#hint-alternatives li').length",
    )
    .await;
    let n = alternatives.as_u64().unwrap_or(0);
    assert!((1..=3).contains(&n), "{n} alternatives");
    let note = js(
        &c,
        "return document.querySelector('#hint-answer .hint-note').textContent",
    )
    .await;
    assert!(
        note.as_str().unwrap_or_default().contains("Hint 1 of 5"),
        "{note}"
    );
    shot(&c, &dir, "practice-hint").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stepping_through_the_tricks_shows_only_cards_the_player_has_seen() {
    if browser_missing() {
        return;
    }
    let base = pref_web_tests::fast_bots_server().await;
    let dir = out_dir("screenshots");
    let mut driver = Driver::start(&dir).await;
    let c = driver.browser(true).await;
    open_start_page(&c, &base).await;
    play_against_bots(&c, "Anna", "easy").await;
    // Every card the page ever showed while playing, step-through aside: the cards this
    // viewer was told.
    let mut told = std::collections::BTreeSet::new();
    let (mut bid_made, mut whists) = (false, 0);
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        assert!(Instant::now() < deadline, "no deal with two tricks");
        let seen = js(&c, "return [...document.querySelectorAll('[data-card]')].filter((e) => !e.closest('#step-through')).map((e) => e.dataset.card)").await;
        told.extend(
            seen.as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(str::to_owned)),
        );
        let tricks = js(
            &c,
            "return document.querySelectorAll('#review-tricks li').length",
        )
        .await;
        if tricks.as_u64().unwrap_or(0) >= 2
            && !js(&c, "return !!document.querySelector('#step-back')")
                .await
                .is_null()
        {
            break;
        }
        let v = js(&c, "const d = document.body.dataset; return [d.myturn || '', d.stage || '', d.phase || '']").await;
        if v[0] == json!("true") {
            let stage = v[1].as_str().unwrap_or_default().to_owned();
            step(&c, &stage, &mut bid_made, &mut whists).await;
        } else if v[2] == json!("between_deals") {
            let _ = js(
                &c,
                "document.querySelector('#next-deal')?.click(); return true",
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Back to the first trick, one step at a time; each step shows its trick and nothing
    // this viewer was not told.
    loop {
        let at = js(
            &c,
            "return document.querySelector('#step-through')?.dataset.trick",
        )
        .await;
        let shown = js(&c, "return [...document.querySelectorAll('#step-through [data-card]')].map((e) => e.dataset.card)").await;
        for card in shown.as_array().into_iter().flatten() {
            let card = card.as_str().unwrap_or_default();
            assert!(
                told.contains(card),
                "trick {at}: {card} was never shown to this viewer"
            );
        }
        let cards = js(
            &c,
            "return document.querySelectorAll('#step-cards [data-card]').length",
        )
        .await;
        assert_eq!(cards, json!(3), "trick {at}: three cards");
        if at == json!("0") {
            break;
        }
        // The deal may go on meanwhile: the step-through stays where it was put.
        click(&c, "#step-back:not([disabled])").await;
    }
    let where_ = js(
        &c,
        "return document.querySelector('#step-where').textContent",
    )
    .await;
    assert!(
        where_
            .as_str()
            .unwrap_or_default()
            .starts_with("Trick 1 of"),
        "{where_}"
    );
    shot(&c, &dir, "practice-step-through").await;
}
