//! The public lobby on the start page in a real browser (Chromium over WebDriver): its
//! quick-pairing grid is above the fold on a phone and a desktop; three pages that seek the
//! same choice end at one table, each in its own seat; one seeker who allows bots after
//! 0 s is given a table with bots in the other seats; the game of the three is in the live
//! list with its preview (deal, contract, the sheet, the seat to play), which follows a bid
//! and fits a phone and a desktop, and a click on it opens the spectator's view.
//!
//! Without Chromium the test prints why and passes, except under `CI=true`.

use pref_web_tests::{
    Driver, browser_missing, click, js, open_start_page, out_dir, server_with, shot, until,
};
use serde_json::{Value, json};

/// The grid's top edge is inside the first screen.
async fn grid_above_the_fold(c: &fantoccini::Client) -> bool {
    js(
        c,
        "const g = document.querySelector('#room-grid'); return !!g && g.getBoundingClientRect().bottom <= window.innerHeight",
    )
    .await
        == json!(true)
}

async fn seek(c: &fantoccini::Client, name: &str, button: &str) {
    js(
        c,
        &format!(
            "const n = document.querySelector('#room-name'); n.value = {name:?}; document.querySelector({button:?}).click(); return true"
        ),
    )
    .await;
}

/// Waits until the page is at a table; returns its id.
async fn at_table(c: &fantoccini::Client) -> String {
    let path = until(
        c,
        "the paired table",
        "return location.pathname.startsWith('/t/') && location.pathname",
    )
    .await;
    path.as_str().unwrap().trim_start_matches("/t/").to_owned()
}

/// A script reading table `id`'s summary.
fn summary(id: &str) -> String {
    format!(
        "const x = new XMLHttpRequest(); x.open('GET', '/api/tables/{id}', false); x.send(); return JSON.parse(x.responseText)"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_seekers_meet_at_one_table_and_a_lone_one_gets_bots() {
    if browser_missing() {
        return;
    }
    let base = server_with(|c| {
        c.lobby.lobby_tick_ms = pref_server::config::Millis(100);
        c.limits.bot_delay_min_ms = pref_server::config::Millis(0);
        c.limits.bot_delay_max_ms = pref_server::config::Millis(0);
    })
    .await;
    let dir = out_dir("screenshots");
    let mut driver = Driver::start(&dir).await;
    let desk = driver.browser(false).await;
    let phone = driver.browser(true).await;
    let third = driver.browser(true).await;
    for c in [&desk, &phone, &third] {
        open_start_page(c, &base).await;
        until(
            c,
            "the lobby's grid",
            "return !!document.querySelector('#seek-sochi-normal')",
        )
        .await;
        assert!(
            grid_above_the_fold(c).await,
            "the pairing grid is below the fold"
        );
    }
    shot(&desk, &dir, "lobby-desktop").await;
    shot(&phone, &dir, "lobby-phone").await;
    seek(&desk, "Anna", "#seek-sochi-normal").await;
    until(
        &desk,
        "the seek waiting",
        "return !!document.querySelector('#room-waiting')",
    )
    .await;
    // The others see one seeking.
    until(
        &phone,
        "the count",
        "return document.querySelector('#seek-sochi-normal').textContent.includes('1')",
    )
    .await;
    seek(&phone, "Boris", "#seek-sochi-normal").await;
    seek(&third, "Vera", "#seek-sochi-normal").await;
    let ids = [
        at_table(&desk).await,
        at_table(&phone).await,
        at_table(&third).await,
    ];
    assert_eq!((&ids[0], &ids[1]), (&ids[2], &ids[2]), "{ids:?}");
    let table = js(&desk, &summary(&ids[0])).await;
    let names: Vec<Value> = table["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].clone())
        .collect();
    assert_eq!(
        names,
        [json!("Anna"), json!("Boris"), json!("Vera")],
        "{table}"
    );
    // Each page holds its own seat's token.
    for (c, seat) in [(&desk, 0), (&phone, 1), (&third, 2)] {
        let kept = js(
            c,
            &format!(
                "return JSON.parse(localStorage.getItem('pref:{}:seat')).seat",
                ids[0]
            ),
        )
        .await;
        assert_eq!(kept, json!(seat));
    }
    // Two watchers, a desktop and a phone, see the game in the live list with its preview:
    // the first deal, bidding, the three names and a zero sheet, the seat to call marked.
    let card = format!("#room-live .room-game[data-id={:?}]", ids[0]);
    let watchers = [driver.browser(false).await, driver.browser(true).await];
    for w in &watchers {
        open_start_page(w, &base).await;
        until(
            w,
            "the game's preview",
            &format!("return !!document.querySelector('{card} .room-sheet tr.turn')"),
        )
        .await;
        let shown = js(
            w,
            &format!(
                "const c = document.querySelector('{card}'); return [c.querySelector('.room-game-deal').textContent, [...c.querySelectorAll('.room-sheet tbody tr')].map((r) => [...r.children].map((x) => x.textContent.replace('▸ ', '')))]"
            ),
        )
        .await;
        assert_eq!(
            shown,
            json!([
                "Deal 1 · Bidding",
                [
                    ["Anna", "0", "0", "0", "0"],
                    ["Boris", "0", "0", "0", "0"],
                    ["Vera", "0", "0", "0", "0"]
                ]
            ]),
            "{shown}"
        );
        // The card fits the page's width (a phone's 390 px too).
        let fits = js(
            w,
            &format!("const c = document.querySelector('{card}'); return c.getBoundingClientRect().right <= document.documentElement.clientWidth && c.scrollWidth <= c.clientWidth"),
        )
        .await;
        assert_eq!(fits, json!(true), "the live game's card overflows");
    }
    shot(&watchers[0], &dir, "lobby-live-desktop").await;
    shot(&watchers[1], &dir, "lobby-live-phone").await;
    // The seat to call bids: the preview follows, the turn passes to the next seat.
    let turn = js(
        &watchers[0],
        &format!("return [...document.querySelectorAll('{card} .room-sheet tbody tr')].findIndex((r) => r.classList.contains('turn'))"),
    )
    .await;
    let turn = usize::try_from(turn.as_u64().unwrap()).unwrap();
    let players = [&desk, &phone, &third];
    click(
        players[turn],
        "#bidbox .grid button[data-action=bid]:not([disabled])",
    )
    .await;
    for w in &watchers {
        until(
            w,
            "the bid in the preview",
            &format!(
                "const c = document.querySelector('{card}'); return !!c && !!c.querySelector('.room-game-deal .bid') && c.querySelectorAll('.room-sheet tbody tr')[{}].classList.contains('turn')",
                (turn + 1) % 3
            ),
        )
        .await;
    }
    shot(&watchers[1], &dir, "lobby-live-phone-bid").await;
    // A click on the card opens the spectator's view.
    click(&watchers[1], &format!("{card} .room-game-deal")).await;
    let at = until(
        &watchers[1],
        "the spectator's view",
        "return location.pathname.startsWith('/t/') && location.pathname + location.search",
    )
    .await;
    assert_eq!(at, json!(format!("/t/{}?watch", ids[0])));
    // A lone seeker who allows bots at once.
    let lone = driver.browser(false).await;
    open_start_page(&lone, &base).await;
    until(
        &lone,
        "the lobby's grid",
        "return !!document.querySelector('#seek-rostov-blitz')",
    )
    .await;
    js(
        &lone,
        "const b = document.querySelector('#room-bots'); b.click(); const a = document.querySelector('#room-bots-after'); a.value = '0'; a.dispatchEvent(new Event('change')); return true",
    )
    .await;
    seek(&lone, "Gleb", "#seek-rostov-blitz").await;
    let id = at_table(&lone).await;
    let table = js(&lone, &summary(&id)).await;
    let seats = table["seats"].as_array().unwrap();
    assert_eq!(seats[0]["name"], json!("Gleb"), "{table}");
    assert!(
        seats[0]["bot"].is_null() && !seats[1]["bot"].is_null() && !seats[2]["bot"].is_null(),
        "{table}"
    );
}
