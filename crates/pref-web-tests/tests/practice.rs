//! A practice table in the browser: the start page's practice option opens one, the table
//! says it is a practice table, and on a card-play turn the hint button shows the bot's card
//! with what it does in words and its alternatives.

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
