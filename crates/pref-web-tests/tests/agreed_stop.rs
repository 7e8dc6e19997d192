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

/// The host's end button at a table where people sit (#38, R10.3): a host who holds no seat
/// ends nothing alone; his button proposes the end, every page shows the proposal as the
/// host's, and the game ends by agreement once both players accepted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r10_3_the_hosts_end_is_a_proposal_the_seated_people_accept() {
    if browser_missing() {
        return;
    }
    let base = fast_bots_server().await;
    let dir = out_dir("screenshots");
    let mut driver = Driver::start(&dir).await;
    let host = driver.browser(false).await;
    let anna = driver.browser(true).await;
    let boris = driver.browser(true).await;
    open_start_page(&host, &base).await;
    let invite = create_table(&host).await;
    // The host's page stays on the table without a seat; the players come by the link.
    click(&host, "#go-table").await;
    until(&host, "the host's lobby", "return document.body.dataset.seat === 'spectator' && !!document.querySelector('#seat-admin')").await;
    sit(&anna, &invite, "Anna").await;
    sit(&boris, &invite, "Boris").await;
    seat_bot(&host, 2, "easy").await;
    click(&host, "#start-game:not([disabled])").await;
    let between = "return document.body.dataset.phase === 'between_deals'";
    tokio::join!(play_own_deal(&anna), play_own_deal(&boris));
    for c in [&host, &anna, &boris] {
        until(c, "between deals", between).await;
    }
    // The host's button says what it does with people seated: it proposes.
    let label = until(
        &host,
        "the host's end button",
        "return document.querySelector('#end-game')?.textContent",
    )
    .await;
    assert_eq!(label, json!("Propose to stop"));
    click(&host, "#end-game").await;
    click(&host, "dialog#confirm[open] #confirm-ok").await;
    const FROM: &str = "const p = document.querySelector('#stop-proposal');
        return p && [p.querySelector('p').textContent, !!document.querySelector('#stop-accept'),
                     document.querySelector('#stop-agreed').textContent, document.body.dataset.phase]";
    let asked = json!([
        "Proposal to stop the game by agreement (R10.3), from the host.",
        true,
        "Agreed: Bot 3",
        "between_deals"
    ]);
    assert_eq!(until(&anna, "Anna asked", FROM).await, asked);
    assert_eq!(until(&boris, "Boris asked", FROM).await, asked);
    // The host is not asked, and his end button is gone while the proposal stands.
    let hosts = until(&host, "the host's view of it", FROM).await;
    assert_eq!(hosts[1], json!(false));
    assert_eq!(
        js(&host, "return !!document.querySelector('#end-game')").await,
        json!(false)
    );
    shot(&anna, &dir, "92-host-end-asked").await;
    click(&anna, "#stop-accept").await;
    until(
        &boris,
        "Anna's answer",
        "return document.querySelector('#stop-agreed')?.textContent === 'Agreed: Anna, Bot 3'",
    )
    .await;
    assert_eq!(
        js(&host, "return document.body.dataset.phase").await,
        json!("between_deals"),
        "not over before Boris answers"
    );
    click(&boris, "#stop-accept").await;
    let settled = "return document.body.dataset.phase === 'over'
                       && document.querySelectorAll('#settlement tbody tr').length === 3";
    for c in [&host, &anna, &boris] {
        until(c, "the settlement", settled).await;
    }
    for c in [boris, anna, host] {
        let _ = c.close().await;
    }
}
