//! The agreed stop (R10.3) in a real browser (Chromium over WebDriver): two people and a bot
//! play a deal; one proposes to stop, the other is asked and declines (the game goes on),
//! then proposes himself and the first accepts: the game ends by agreement with the
//! settlement. The bot accepts by itself; the host decides nothing alone. Screenshots go to
//! `target/screenshots/`.
//!
//! Without Chromium the test prints why and passes, except under `CI=true`.

use fantoccini::Client;
use pref_web_tests::{
    Driver, browser_missing, click, create_table, fast_bots_server, js, language, open_start_page,
    out_dir, play_own_deal, seat_bot, shot, sit, until,
};
use serde_json::json;

/// What the page shows of the proposal: the panel, its "agreed" line, and whether this
/// viewer is asked.
const PROPOSAL: &str = "const p = document.querySelector('#stop-proposal');
    return p && [!!document.querySelector('#stop-accept'), !!document.querySelector('#stop-decline'),
                 document.querySelector('#stop-agreed').textContent,
                 !!document.querySelector('#next-deal'), !!document.querySelector('#propose-stop')]";

async fn propose(c: &Client) {
    click(c, "#propose-stop").await;
    click(c, "dialog#confirm[open] #confirm-ok").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r10_3_a_stop_is_asked_of_every_player_and_ends_the_game_only_when_all_accept() {
    if browser_missing() {
        return;
    }
    let base = fast_bots_server().await;
    let dir = out_dir("screenshots");
    let mut driver = Driver::start(&dir).await;
    let anna = driver.browser(false).await;
    let boris = driver.browser(true).await;
    open_start_page(&anna, &base).await;
    let invite = create_table(&anna).await;
    sit(&anna, &invite, "Anna").await;
    sit(&boris, &invite, "Boris").await;
    seat_bot(&anna, 2, "easy").await;
    click(&anna, "#start-game:not([disabled])").await;
    let between = "return document.body.dataset.phase === 'between_deals'";
    tokio::join!(play_own_deal(&anna), play_own_deal(&boris));
    until(&anna, "between deals", between).await;
    until(&boris, "between deals", between).await;

    // Anna proposes: Boris is asked; Anna (and the bot) agreed; no next deal meanwhile.
    propose(&anna).await;
    let asked = until(&boris, "Boris asked", PROPOSAL).await;
    assert_eq!(
        asked,
        json!([true, true, "Agreed: Anna, Bot 3", false, false])
    );
    let mine = until(&anna, "Anna's proposal shown", PROPOSAL).await;
    assert_eq!(
        mine,
        json!([false, false, "Agreed: Anna, Bot 3", false, false])
    );
    shot(&boris, &dir, "90-stop-asked").await;
    // The same question in Russian: the name stands after «игрока», nothing declined.
    language(&boris, "ru").await;
    let ru = until(
        &boris,
        "the proposal in Russian",
        "const p = document.querySelector('#stop-proposal');
         return document.documentElement.lang === 'ru' && p && p.textContent.includes('Согласны') && p.textContent",
    )
    .await;
    assert_eq!(
        ru,
        json!(
            "Предложение закончить игру по договорённости (R10.3) — от игрока Anna.\
             Согласны: Anna, Bot 3СогласитьсяИграть дальше"
        )
    );
    shot(&boris, &dir, "90-stop-asked-ru").await;

    // Boris declines: the proposal ends on both pages and the game goes on.
    click(&boris, "#stop-decline").await;
    for c in [&anna, &boris] {
        until(
            c,
            "the proposal gone",
            "return !document.querySelector('#stop-proposal') && !!document.querySelector('#propose-stop')
                 && document.body.dataset.phase === 'between_deals'",
        )
        .await;
    }

    // Boris proposes, Anna accepts: over by agreement, the same settlement on both pages.
    propose(&boris).await;
    until(
        &anna,
        "Anna asked",
        "return !!document.querySelector('#stop-accept')",
    )
    .await;
    click(&anna, "#stop-accept").await;
    let settled = "return document.body.dataset.phase === 'over'
                       && document.querySelectorAll('#settlement tbody tr').length === 3";
    until(&anna, "the settlement", settled).await;
    until(&boris, "the settlement", settled).await;
    let shown = js(
        &boris,
        "return fetch(location.pathname.replace('/t/', '/api/tables/')).then(r => r.json())
            .then(s => [s.phase, s.settlement.agreed, s.stop === undefined])",
    )
    .await;
    assert_eq!(shown, json!(["over", true, true]));
    shot(&anna, &dir, "91-stop-agreed").await;
    let _ = boris.close().await;
    let _ = anna.close().await;
}
