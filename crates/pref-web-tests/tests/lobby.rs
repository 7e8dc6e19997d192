//! The public lobby on the start page in a real browser (Chromium over WebDriver): its
//! quick-pairing grid is above the fold on a phone and a desktop; three pages that seek the
//! same choice end at one table, each in its own seat; one seeker who allows bots after
//! 0 s is given a table with bots in the other seats.
//!
//! Without Chromium the test prints why and passes, except under `CI=true`.

use pref_web_tests::{
    Driver, browser_missing, js, open_start_page, out_dir, server_with, shot, until,
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
