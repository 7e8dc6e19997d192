//! A rated game in real browsers (Chromium over WebDriver): three people sign up in the
//! header, Anna opens a rated table from the start page (the standard preset, the relaxed
//! clock, "Rated game"), all three sit and see each other's provisional rating next to the
//! names, play a deal and stop by agreement (R10.3); the end-of-game table shows each
//! player's rating change ("+12") as the server computed it, and Anna's page charts her
//! rating and links to the leaderboards, where the three are listed. Screenshots go to
//! `target/screenshots/`.
//!
//! Without Chromium the test prints why and passes, except under `CI=true`.

use fantoccini::{Client, Locator};
use pref_web_tests::{
    Driver, browser_missing, click, create_table, js, open_start_page, out_dir, play_own_deal,
    server_with, shot, sit, until,
};
use serde_json::json;

/// Signs up through the header's dialog; the page reloads signed in.
async fn sign_up(c: &Client, name: &str) {
    click(c, "#sign-in").await;
    until(
        c,
        "the dialog",
        "return !!document.querySelector('dialog#account-dialog[open]')",
    )
    .await;
    for (css, text) in [("#acc-name", name), ("#acc-password", "a long password")] {
        c.find(Locator::Css(css))
            .await
            .unwrap()
            .send_keys(text)
            .await
            .unwrap();
    }
    click(c, "#acc-sign-up").await;
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

/// What the end-of-game table shows of the rating changes, by seat.
const CHANGES: &str = "const cells = [...document.querySelectorAll('#settlement tbody .rating-change')];
    return cells.length === 3 && cells.every((c) => c.textContent) && cells.map((c) => c.textContent)";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_s_end_shows_each_player_s_rating_change() {
    if browser_missing() {
        return;
    }
    let base = server_with(|c| {
        c.accounts.argon2_memory_kib = 8;
        c.accounts.argon2_iterations = 1;
    })
    .await;
    let dir = out_dir("screenshots");
    let mut driver = Driver::start(&dir).await;
    let anna = driver.browser(false).await;
    let boris = driver.browser(false).await;
    let vera = driver.browser(true).await;
    for (c, name) in [(&anna, "Anna"), (&boris, "Boris"), (&vera, "Vera")] {
        open_start_page(c, &base).await;
        sign_up(c, name).await;
    }
    // The relaxed clock and "Rated game" on the standard Sochi preset.
    until(
        &anna,
        "the form",
        "const s = document.querySelector('#clock-choice'); const r = document.querySelector('#rated');
         if (!s || !r) return false;
         s.value = 'relaxed'; s.dispatchEvent(new Event('change', { bubbles: true }));
         if (!r.checked) r.click();
         return r.checked;",
    )
    .await;
    let invite = create_table(&anna).await;
    for (c, name) in [(&anna, "Anna"), (&boris, "Boris"), (&vera, "Vera")] {
        sit(c, &invite, name).await;
    }
    click(&anna, "#start-game:not([disabled])").await;
    let marks = until(
        &vera,
        "the ratings next to the names",
        "const m = [...document.querySelectorAll('.seat .rating')].map((e) => e.textContent).filter(Boolean);
         const r = document.querySelector('#rated-mark');
         return r && m.length === 3 && [r.textContent, ...m]",
    )
    .await;
    assert_eq!(
        marks,
        json!(["Rated: Sochi", "1500? ±350", "1500? ±350", "1500? ±350"])
    );
    shot(&vera, &dir, "95-rated-table").await;
    tokio::join!(
        play_own_deal(&anna),
        play_own_deal(&boris),
        play_own_deal(&vera)
    );
    let between = "return document.body.dataset.phase === 'between_deals'";
    for c in [&anna, &boris, &vera] {
        until(c, "between deals", between).await;
    }
    // Stopped by agreement (R10.3): Anna proposes, the others accept.
    click(&anna, "#propose-stop").await;
    click(&anna, "dialog#confirm[open] #confirm-ok").await;
    for c in [&boris, &vera] {
        click(c, "#stop-accept").await;
    }
    let shown = until(&anna, "the rating changes", CHANGES).await;
    // The same numbers the server stored for the game, written "+12" / "−5".
    let id = js(&anna, "return location.pathname.split('/')[2]").await;
    let id = id.as_str().unwrap();
    js(
        &anna,
        &format!(
            "fetch('/api/tables/{id}/ratings').then((r) => r.json()).then((b) => {{ window.rated = b; }}); return true"
        ),
    )
    .await;
    let want = until(
        &anna,
        "the table's ratings",
        "const b = window.rated; return b && b.seats.map((s) => s.change > 0 ? `+${s.change}` : s.change < 0 ? `−${-s.change}` : '0')",
    )
    .await;
    assert_eq!(shown, want);
    assert_eq!(
        until(&vera, "Vera's view of the changes", CHANGES).await,
        want
    );
    shot(&anna, &dir, "96-rated-game-over").await;

    // Anna's page: her rating and its chart, and the leaderboards listing the three.
    anna.goto(&format!("{base}/@/Anna")).await.unwrap();
    let chart = until(
        &anna,
        "the rating chart",
        "return document.body.dataset.ready === 'true' && document.querySelectorAll('#rating-chart-sochi circle').length",
    )
    .await;
    assert_eq!(chart, json!(1));
    shot(&anna, &dir, "97-rating-chart").await;
    click(&anna, "#leaderboards-link").await;
    let names = until(
        &anna,
        "the leaderboard",
        "return document.body.dataset.ready === 'true' && [...document.querySelectorAll('#leaderboard tbody tr')].map((r) => r.dataset.name).sort()",
    )
    .await;
    assert_eq!(names, json!(["Anna", "Boris", "Vera"]));
    shot(&anna, &dir, "98-leaderboard").await;
    for c in [vera, boris, anna] {
        let _ = c.close().await;
    }
}
