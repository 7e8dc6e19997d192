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
    // A second browser signed in to the account finds the game in progress on her page,
    // with a link to watch it and, being hers, "rejoin": the account gives the seat's
    // token and the table opens as Anna's seat.
    let phone = driver.browser(true).await;
    phone.goto(&base).await.unwrap();
    enter(&phone, "anna", "a long password", "#acc-sign-in").await;
    phone.goto(&format!("{base}/@/Anna")).await.unwrap();
    until(
        &phone,
        "her page",
        "return document.body.dataset.ready === 'true'",
    )
    .await;
    let live = js(
        &phone,
        "const li = document.querySelector('#in-progress li');
         return li && [li.dataset.table, li.querySelector('a.table-link').getAttribute('href'),
                       !!li.querySelector('[data-rejoin]'),
                       Object.keys(localStorage).some((k) => k.includes(li.dataset.table) && k.endsWith('seat'))]",
    )
    .await;
    let id = table.as_str().unwrap().trim_start_matches("/t/").to_owned();
    assert_eq!(
        live,
        json!([id, format!("/t/{id}?watch"), true, false]),
        "the game in progress, to watch or rejoin, and no seat token in this browser yet"
    );
    shot(&phone, &dir, "82-player-page-in-progress").await;
    click(&phone, "#in-progress [data-rejoin]").await;
    until(
        &phone,
        "Anna's seat",
        "return location.pathname.startsWith('/t/') && document.body.dataset.seat === '0'",
    )
    .await;
    // Somebody else sees the game to watch, without "rejoin".
    let guest = driver.browser(false).await;
    guest.goto(&format!("{base}/@/Anna")).await.unwrap();
    until(
        &guest,
        "her page for a guest",
        "return document.body.dataset.ready === 'true'",
    )
    .await;
    let seen = js(
        &guest,
        "return [document.querySelectorAll('#in-progress li').length,
                 document.querySelectorAll('#in-progress [data-rejoin]').length]",
    )
    .await;
    assert_eq!(seen, json!([1, 0]));
    let _ = guest.close().await;
    let _ = phone.close().await;

    // Anna proposes to stop; the bots agree at once (R10.3): the settlement, then the page.
    click(&anna, "#propose-stop").await;
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
    // The balance reads as a mixed number ("−29 ⅓"), the exact fraction in its title.
    let balance = js(
        &anna,
        "const b = document.querySelector('#fig-balance b');
         return [b.textContent, b.title, document.querySelector('#balance-chart text.last').textContent]",
    )
    .await;
    let exact = balance[1].as_str().unwrap().to_owned();
    assert_eq!(balance[0], json!(mixed(&exact)), "{balance}");
    assert_eq!(balance[2], json!(mixed(&exact)), "{balance}");
    shot(&anna, &dir, "81-player-page").await;
    // The accuracy (#31) as the API gives it; the background analysis may land between two
    // reads, so the page is compared with an answer that did not change around its load.
    let api = "return fetch('/api/players/Anna/stats').then(r => r.json())
        .then(s => [s.accuracy.per_deal ?? '—', String(s.accuracy.deals)])";
    let page = "return [document.querySelector('#fig-accuracy b').textContent,
                        document.querySelector('#fig-analysed b').textContent]";
    let mut compared = false;
    for _ in 0..5 {
        let before = js(&anna, api).await;
        anna.goto(&format!("{base}/@/Anna")).await.unwrap();
        until(
            &anna,
            "the page",
            "return document.body.dataset.ready === 'true'",
        )
        .await;
        let shown = js(&anna, page).await;
        if js(&anna, api).await == before {
            assert_eq!(shown, before, "the page's accuracy is the API's");
            compared = true;
            break;
        }
    }
    assert!(compared, "the accuracy kept changing");
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

/// "n/d" as the page writes it: a true minus, the whole part, the fraction's glyph.
fn mixed(exact: &str) -> String {
    let (n, d) = exact.split_once('/').map_or_else(
        || (exact.parse::<i64>().unwrap(), 1),
        |(n, d)| (n.parse().unwrap(), d.parse().unwrap()),
    );
    let sign = if n < 0 { "\u{2212}" } else { "" };
    let (whole, part) = (n.abs() / d, n.abs() % d);
    const GLYPHS: [(i64, i64, &str); 15] = [
        (1, 2, "½"),
        (1, 3, "⅓"),
        (2, 3, "⅔"),
        (1, 4, "¼"),
        (3, 4, "¾"),
        (1, 5, "⅕"),
        (2, 5, "⅖"),
        (3, 5, "⅗"),
        (4, 5, "⅘"),
        (1, 6, "⅙"),
        (5, 6, "⅚"),
        (1, 8, "⅛"),
        (3, 8, "⅜"),
        (5, 8, "⅝"),
        (7, 8, "⅞"),
    ];
    let glyph = match GLYPHS.iter().find(|g| (g.0, g.1) == (part, d)) {
        _ if part == 0 => String::new(),
        Some(g) => g.2.to_owned(),
        None => format!("{part}/{d}"),
    };
    match (whole, glyph.is_empty()) {
        (w, true) => format!("{sign}{w}"),
        (0, false) => format!("{sign}{glyph}"),
        (w, false) => format!("{sign}{w} {glyph}"),
    }
}

#[test]
fn the_mixed_numbers_read_as_players_write_them() {
    assert_eq!(mixed("-88/3"), "\u{2212}29 ⅓");
    assert_eq!(mixed("2/3"), "⅔");
    assert_eq!(mixed("-20"), "\u{2212}20");
    assert_eq!(mixed("0"), "0");
    assert_eq!(mixed("7/5"), "1 ⅖");
    assert_eq!(mixed("-22/7"), "\u{2212}3 1/7");
}
