//! A deal without talon in a real browser (`misere_without_talon`, R3.10, R4.6, R8.12): the
//! player holds a clean misère hand and calls misère; the bot on his left, with nine sure
//! tricks in hearts, calls nine without talon over it (R3.10.2), so the misère caller has no
//! further turn (9WT is above MWT, R3.10.1) and the bot plays a nine without taking the
//! talon. The page shows the "No talon" badge, never shows the talon during play, offers the
//! two calls where they are legal, and the deal ends with the contract scored as a nine.
//!
//! The deck is chosen by writing the table into the server's database before it starts
//! (`pref_web_tests::known_deck`), never through a request. Screenshots go to
//! `target/screenshots/`. Without Chromium the test prints why and passes, except under
//! `CI=true`.

use std::time::{Duration, Instant};

use pref_core::Card;
use pref_web_tests::known_deck::table_with_deck;
use pref_web_tests::{Driver, browser_missing, js, out_dir, past, server_with, shot, step, until};
use serde_json::json;

/// Seat 0 (first hand, the player): a misère with no dangerous card; seat 1: six hearts from
/// the ace and three aces; seat 2 the rest; the talon last.
const HANDS: [&str; 4] = [
    "7S 8S 9S 7C 8C 9C 7D 8D 7H 8H",
    "AH KH QH JH TH 9H AS AC AD KS",
    "TS JS QS TC JC QC KC 9D TD JD",
    "QD KD",
];

fn deck() -> [Card; 32] {
    let cards: Vec<Card> = HANDS
        .iter()
        .flat_map(|h| h.split_whitespace())
        .map(|c| c.parse().expect("a card"))
        .collect();
    cards.try_into().expect("32 cards")
}

/// What the page shows: the stage, whose turn, the no-talon badge, the talon's cards (shown
/// or backs) and the no-talon calls offered.
const SEEN: &str = "const d = document.body.dataset;
    return [d.stage || '', d.myturn || '', !!document.querySelector('#no-talon-badge'),
            document.querySelectorAll('.centre .talon .card').length,
            [...document.querySelectorAll('#bidbox .no-talon button')].map(b => b.dataset.value)]";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r3_10_2_r4_6_a_nine_without_talon_over_the_players_misere_plays_without_the_talon() {
    if browser_missing() {
        return;
    }
    let data = pref_web_tests::temp_dir("no-talon");
    let profile = json!({"preset": "sochi", "misere_without_talon": true});
    let table = table_with_deck(&data, &profile, &deck(), 2, (0, "Anna"), "easy").await;
    let base = server_with(|c| {
        c.data_dir = data.clone();
        c.limits.bot_delay_min_ms = pref_server::config::Millis(0);
        c.limits.bot_delay_max_ms = pref_server::config::Millis(0);
    })
    .await;
    let dir = out_dir("screenshots");
    let mut driver = Driver::start(&dir).await;
    let anna = driver.browser(false).await;
    anna.goto(&format!("{base}/"))
        .await
        .expect("the start page");
    js(&anna, &format!("{} return true;", table.sit_script())).await;
    anna.goto(&format!("{base}/t/{}", table.id))
        .await
        .expect("the table");

    // Anna's first call: misère (no call without talon yet: nobody called a misère).
    let first = until(
        &anna,
        "Anna's first call",
        &format!(
            "const s = (() => {{ {SEEN} }})(); return s[0] === 'auction' && s[1] === 'true' && s"
        ),
    )
    .await;
    assert_eq!(first, json!(["auction", "true", false, 2, []]), "{first}");
    until(
        &anna,
        "the misère button",
        "const b = [...document.querySelectorAll('#bidbox button')].find(b => b.dataset.value === '\"misere\"' && !b.disabled);
         if (b) b.click(); return !!b;",
    )
    .await;

    // The bot calls 9WT; Anna, out (R3.10.1), is asked nothing more in the auction; the
    // bot declares a nine and the page shows the deal without talon.
    let log = until(
        &anna,
        "the no-talon deal",
        "return !!document.querySelector('#no-talon-badge') && document.querySelector('.auction-log, #auction-log')?.textContent",
    )
    .await;
    assert!(
        log.as_str().is_some_and(|l| l.contains("Nine w/o talon")),
        "the auction log names the call: {log}"
    );
    shot(&anna, &dir, "95-no-talon-badge").await;

    // Anna defends: her whist and her cards, as any defender, until the deal is finished;
    // at no point of it is the talon shown.
    let (mut bid_made, mut whists) = (true, 0);
    let deadline = Instant::now() + Duration::from_secs(240);
    let mut played = 0;
    loop {
        assert!(Instant::now() < deadline, "the deal did not finish");
        let now = js(
            &anna,
            "const d = document.body.dataset; return [d.myturn || '', d.stage || '', d.version || '',
                 document.querySelectorAll('.centre .talon .card').length]",
        )
        .await;
        if now[1] == json!("finished") {
            break;
        }
        if now[1] == json!("play") {
            assert_eq!(now[3], json!(0), "R4.6: no talon card during play");
        }
        if now[0] == json!("true") {
            let stage = now[1].as_str().unwrap_or_default().to_owned();
            played += u32::from(stage == "play");
            step(&anna, &stage, &mut bid_made, &mut whists).await;
            past(&anna, now[2].as_str().unwrap_or_default()).await;
        } else {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    assert!(played > 0, "Anna played her cards");
    shot(&anna, &dir, "96-no-talon-finished").await;

    // The record says what was played: Anna's misère, the bot's 9WT, no discard (no talon
    // was taken, R4.6), and a nine declared.
    let record = js(
        &anna,
        &format!(
            "return fetch('/api/tables/{}/record').then(r => r.json()).then(r => {{
                 const a = r.deals[0].actions;
                 return [a.filter(x => 'bid' in x && x.bid !== 'pass').map(x => [x.seat, x.bid]),
                         a.some(x => 'discard' in x), a.find(x => 'declare' in x)];
             }})",
            table.id
        ),
    )
    .await;
    assert_eq!(
        [&record[0], &record[1]],
        [&json!([[0, "misere"], [1, "nine_no_talon"]]), &json!(false)],
        "{record}"
    );
    assert_eq!(record[2]["seat"], json!(1), "{record}");
    assert!(
        record[2]["declare"]
            .as_str()
            .is_some_and(|c| c.starts_with('9')),
        "the contract is a nine: {record}"
    );
    let _ = anna.close().await;
}
