//! The paper sheet (the pulka) as Russian players draw it, in a real browser (Chromium over
//! WebDriver):
//!
//! - `a_finished_pool_reads_without_overlaps_at_desktop_and_phone`: a kept sheet of eleven
//!   deals (raspasy that grow every mountain, games that write whists, a pool closed) is drawn
//!   at 1280×800 and 390×844 in English and Russian: the mountain is nearest the centre, then
//!   the pool, then the whists; every cell shows the totals it took deal by deal; no number
//!   touches another or crosses a band's line, a ray or the hub. Screenshots
//!   `target/screenshots/pulka-finished-{desktop,phone}-{en,ru}.png`.
//! - `running_entries_come_from_the_server_for_every_viewer`: a player starts a game against
//!   two bots with one click, no name typed (the default name) and the pool size set beside
//!   the button; a phone's start page points to the friends' table and the scorekeeper at the
//!   top. The player plays deals until some cell of the sheet has taken two values; the sheet of the player who
//!   watched from the start, of the same player after a reload and of a spectator who opens
//!   the table late are the same, cell by cell, and so is the deal's review (each trick and
//!   the talon); the player's chat line is still there after the reload.
//! - `a_whole_pool_against_bots_on_a_phone_in_russian_reads_to_the_settlement`: a player on
//!   a phone, reading Russian, plays a whole pool (6) against two bots to the settlement; the
//!   finished sheet and the settlement, at 390×844 and for a spectator at 1280×800, in Russian
//!   and English, with nothing overlapping (`target/screenshots/pulka-over-*.png`,
//!   `pulka-settlement-*.png`).
//!
//! Without Chromium the tests print why and pass, except under `CI=true`.

use fantoccini::Client;
use pref_web_tests::{
    Driver, browser_missing, click, fast_bots_server, js, out_dir, play_own_deal, until,
};
use serde_json::{Value, json};

async fn shot(c: &Client, name: &str) {
    pref_web_tests::shot(c, &out_dir("screenshots"), name).await;
}

/// Every text of the sheet, by seat and band: `[seat, class, text]`.
const CELLS: &str = "return [...document.querySelectorAll('.pulka .sector')].flatMap(g => \
    [...g.querySelectorAll('text.num')].map(e => [g.dataset.seat, e.getAttribute('class').trim(), e.textContent]))";

/// The deal so far as the page lists it: each trick's cards and winner, and the talon.
const REVIEW: &str = "return [[...document.querySelectorAll('#review-tricks li')].map(l => \
    [[...l.querySelectorAll('.card-chip')].map(c => c.dataset.card).join(' '), l.dataset.winner]), \
    [...document.querySelectorAll('#review-talon .card-chip')].map(c => c.dataset.card)]";

/// The sheet's texts that collide: two texts whose boxes meet, or a number or name cell that
/// straddles a band's rectangle, meets a ray or a split line, or reaches into the hub. The
/// boxes are the font's cells, shrunk by a fifth of their height (the ink is smaller).
const COLLISIONS: &str = r"
const svg = document.querySelector('.pulka');
const box = (e) => { const r = e.getBoundingClientRect(); const m = Math.min(r.width, r.height) * 0.2;
  return { l: r.left + m, r: r.right - m, t: r.top + m, b: r.bottom - m, w: r.width }; };
const texts = [...svg.querySelectorAll('text')].filter(e => e.textContent.trim()).map(e => ({ e, b: box(e) }));
const name = (x) => `${x.e.closest('.sector')?.dataset.seat ?? '-'}:${x.e.getAttribute('class').trim()}:${x.e.textContent}`;
const meet = (a, b) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
const inside = (a, b) => a.l >= b.l && a.r <= b.r && a.t >= b.t && a.b <= b.b;
const out = [];
for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++)
  if (meet(texts[i].b, texts[j].b)) out.push(`${name(texts[i])} meets ${name(texts[j])}`);
const cells = texts.filter(x => /num|hint/.test(x.e.getAttribute('class')));
for (const r of svg.querySelectorAll('rect.band, rect.frame')) {
  const q = r.getBoundingClientRect(); const rb = { l: q.left, r: q.right, t: q.top, b: q.bottom };
  for (const x of cells) if (meet(x.b, rb) && !inside(x.b, rb)) out.push(`${name(x)} crosses a band's line`);
}
const seg = (p, q, b) => { // does segment p-q cross box b?
  const steps = 200;
  for (let k = 0; k <= steps; k++) { const x = p.x + (q.x - p.x) * k / steps; const y = p.y + (q.y - p.y) * k / steps;
    if (x > b.l && x < b.r && y > b.t && y < b.b) return true; }
  return false; };
const m = svg.getScreenCTM();
const pt = (x, y) => { const p = svg.createSVGPoint(); p.x = x; p.y = y; return p.matrixTransform(m); };
for (const l of svg.querySelectorAll('line')) {
  const a = pt(+l.getAttribute('x1'), +l.getAttribute('y1')); const b = pt(+l.getAttribute('x2'), +l.getAttribute('y2'));
  for (const x of cells) if (seg(a, b, x.b)) out.push(`${name(x)} meets a line`);
}
const hub = svg.querySelector('circle.hub'); const hr = hub.getBoundingClientRect();
const hc = { x: hr.left + hr.width / 2, y: hr.top + hr.height / 2, r: hr.width / 2 };
for (const x of cells) {
  const cx = Math.max(x.b.l, Math.min(hc.x, x.b.r)); const cy = Math.max(x.b.t, Math.min(hc.y, x.b.b));
  if (Math.hypot(cx - hc.x, cy - hc.y) < hc.r) out.push(`${name(x)} reaches into the hub`);
}
return out;";

/// Opens a kept sheet of `deals` and returns its id.
async fn kept_sheet(c: &Client, deals: &Value) -> String {
    let script = format!(
        "return (async () => {{
           const r = await fetch('/api/keeper', {{ method: 'POST', headers: {{ 'content-type': 'application/json' }},
             body: JSON.stringify({{ profile: {{ preset: 'sochi', pool_target: 10 }}, players: ['Anna', 'Boris', 'Vera'] }}) }});
           const k = await r.json();
           for (const outcome of {deals}) {{
             const d = await fetch(`/api/keeper/${{k.id}}/deals`, {{ method: 'POST',
               headers: {{ 'content-type': 'application/json', authorization: `Bearer ${{k.keeper_token}}` }},
               body: JSON.stringify({{ outcome }}) }});
             if (d.status !== 200) return `refused ${{d.status}}: ${{await d.text()}}`;
           }}
           return k.id;
         }})()"
    );
    let id = js(c, &script).await;
    let id = id.as_str().expect("an id").to_owned();
    assert!(!id.starts_with("refused"), "{id}");
    id
}

async fn language(c: &Client, code: &str) {
    js(
        c,
        &format!(
            "const s = document.querySelector('#lang'); s.value = {code:?}; s.dispatchEvent(new Event('change', {{ bubbles: true }}))"
        ),
    )
    .await;
    until(
        c,
        "the language",
        &format!("return document.documentElement.lang === {code:?}"),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_pool_reads_without_overlaps_at_desktop_and_phone() {
    if browser_missing() {
        return;
    }
    let base = pref_web_tests::server_with(|_| {}).await;
    let mut driver = Driver::start(&out_dir("screenshots")).await;
    let desk = driver.browser(false).await;
    desk.set_window_size(1280, 800).await.expect("window size");
    desk.goto(&base).await.expect("start page");
    let raspasy = |t: [u8; 3]| json!({"kind": "raspasy", "tricks": t});
    let game = |d: u8, c: &str, w: [Value; 3], t: [u8; 3]| json!({"kind": "game", "declarer": d, "contract": c, "whist": w, "defence": "closed", "tricks": t});
    let (n, wh, ps) = (Value::Null, json!("whist"), json!("pass"));
    let deals = json!([
        raspasy([4, 3, 3]),
        game(1, "6S", [wh.clone(), n.clone(), ps.clone()], [3, 7, 0]),
        raspasy([5, 3, 2]),
        game(2, "7H", [wh.clone(), wh.clone(), n.clone()], [2, 2, 6]),
        raspasy([2, 6, 2]),
        game(0, "6C", [n.clone(), wh.clone(), wh.clone()], [6, 2, 2]),
        raspasy([3, 3, 4]),
        game(1, "8D", [wh.clone(), n.clone(), ps.clone()], [2, 8, 0]),
        game(2, "6NT", [wh.clone(), wh.clone(), n.clone()], [3, 1, 6]),
        game(0, "7S", [n.clone(), wh.clone(), ps.clone()], [7, 3, 0]),
        game(1, "7C", [wh.clone(), n.clone(), ps.clone()], [3, 7, 0]),
    ]);
    let id = kept_sheet(&desk, &deals).await;
    let phone = driver.browser(true).await;
    for (c, size) in [(&desk, "desktop"), (&phone, "phone")] {
        c.goto(&format!("{base}/k/{id}")).await.expect("the sheet");
        until(
            c,
            "the sheet",
            "return !!document.querySelector('.pulka .sector')",
        )
        .await;
        for lang in ["en", "ru"] {
            language(c, lang).await;
            until(
                c,
                "the sheet",
                "return !!document.querySelector('.pulka .sector')",
            )
            .await;
            let collisions = js(c, COLLISIONS).await;
            assert_eq!(collisions, json!([]), "{size} {lang}: nothing overlaps");
            js(c, "document.querySelector('.pulka').scrollIntoView()").await;
            shot(c, &format!("pulka-finished-{size}-{lang}")).await;
        }
    }
    // The bands from the centre out: mountain, pool, whists (Anna's sector, at the bottom).
    let order = js(
        &desk,
        "const g = document.querySelector(\".sector[data-seat='0']\"); \
         const y = (sel) => g.querySelector(sel).getBoundingClientRect().top; \
         return [y('.mountain') < y('.pool'), y('.pool') < y('.whists')]",
    )
    .await;
    assert_eq!(
        order,
        json!([true, true]),
        "mountain, then pool, then whists"
    );
    // Every value each cell took, deal by deal, from the server's sheets.
    let view = js(
        &desk,
        &format!("return fetch('/api/keeper/{id}').then(r => r.json())"),
    )
    .await;
    let expected = running(&view["deals"], 0, |s| s["mountain"][0].as_i64());
    let shown = js(
        &desk,
        "return document.querySelector(\".sector[data-seat='0'] .mountain\").textContent",
    )
    .await;
    assert_eq!(
        shown.as_str().map(|s| s.trim_start_matches('…')),
        Some(expected.as_str())
    );
    assert!(
        expected.matches('.').count() >= 2,
        "a long mountain: {expected}"
    );
}

/// A cell's running entries from the sheets after each deal: every new value, the leading
/// zeros left out, the last four.
fn running(deals: &Value, _seat: usize, pick: impl Fn(&Value) -> Option<i64>) -> String {
    let mut list: Vec<i64> = Vec::new();
    for d in deals.as_array().expect("deals") {
        let v = pick(&d["sheet"]).expect("a value");
        if list.last() != Some(&v) {
            list.push(v);
        }
    }
    let shown: Vec<String> = list
        .iter()
        .enumerate()
        .filter(|&(i, v)| *v != 0 || i + 1 == list.len())
        .map(|(_, v)| v.to_string())
        .collect();
    let tail = shown.len().saturating_sub(4);
    shown[tail..].join(".")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn running_entries_come_from_the_server_for_every_viewer() {
    if browser_missing() {
        return;
    }
    let base = fast_bots_server().await;
    let mut driver = Driver::start(&out_dir("screenshots")).await;
    let host = driver.browser(false).await;
    pref_web_tests::open_start_page(&host, &base).await;
    // One click, no name typed: the default name; the pool size is beside the button.
    js(
        &host,
        "const n = document.querySelector('#bots-name'); n.value = ''; return true",
    )
    .await;
    let pool = js(&host, "return document.querySelector('#bots-pool').value").await;
    assert_eq!(pool, json!("20"), "the pool size, shown beside the button");
    js(&host, "const p = document.querySelector('#bots-pool'); p.value = '10'; p.dispatchEvent(new Event('change')); return true").await;
    until(
        &host,
        "the pool chosen",
        "return document.querySelector('#opt-pool_target')?.value === '10'",
    )
    .await;
    click(&host, "#play-bots").await;
    until(
        &host,
        "the started table",
        "return location.pathname.startsWith('/t/') && document.body.dataset.phase !== 'lobby' && document.body.dataset.seat === '0'",
    )
    .await;
    let table = js(&host, "return location.pathname").await;
    let table = table.as_str().expect("path").to_owned();
    // Deals until a cell has taken two values ("2.4").
    let mut deals = 0;
    loop {
        play_own_deal(&host).await;
        deals += 1;
        let cells = until(&host, "the sheet", CELLS).await;
        let two = cells
            .as_array()
            .expect("cells")
            .iter()
            .any(|c| c[2].as_str().is_some_and(|t| t.contains('.')));
        if two {
            break;
        }
        assert!(
            deals < 8,
            "no cell took two values in {deals} deals: {cells}"
        );
        click(&host, "#next-deal").await;
        until(
            &host,
            "the next deal",
            &format!("return document.querySelectorAll('#score-log .log-deal').length === {deals} && document.body.dataset.stage !== 'finished'"),
        )
        .await;
    }
    let watched = js(&host, CELLS).await;
    let review = js(&host, REVIEW).await;
    assert!(
        review[0].as_array().is_some_and(|t| !t.is_empty()),
        "the deal's tricks are at hand: {review}"
    );
    // A chat line before the reload is still there after it (the snapshot brings it).
    js(
        &host,
        "const i = document.querySelector('#chat-input'); i.value = 'good game'; i.dispatchEvent(new Event('input')); i.form.requestSubmit(); return true",
    )
    .await;
    until(
        &host,
        "the chat line",
        "return [...document.querySelectorAll('#chat-lines li')].some(l => l.textContent === 'Player good game')",
    )
    .await;
    let me = js(
        &host,
        "return document.querySelector('.seat.pos-me .name')?.textContent",
    )
    .await;
    assert_eq!(me, json!("Player"), "the default name");
    let late = driver.browser(true).await;
    // On a phone the start page points to its other two jobs at the top.
    pref_web_tests::open_start_page(&late, &base).await;
    let jump = js(
        &late,
        "const n = document.querySelector('#start-jump'); const r = n.getBoundingClientRect(); \
         return [getComputedStyle(n).display !== 'none' && r.bottom < 844, \
           [...n.querySelectorAll('a')].map(a => !!document.querySelector(a.getAttribute('href')))]",
    )
    .await;
    assert_eq!(
        jump,
        json!([true, [true, true]]),
        "links at the top to the friends' table and the scorekeeper"
    );
    late.goto(&format!("{base}{table}?watch"))
        .await
        .expect("spectator link");
    until(
        &late,
        "the late spectator's sheet",
        &format!("return document.querySelectorAll('#score-log .log-deal').length === {deals}"),
    )
    .await;
    assert_eq!(js(&late, CELLS).await, watched, "a late spectator's sheet");
    assert_eq!(
        js(&late, REVIEW).await,
        review,
        "a late spectator's review of the deal"
    );
    js(&late, "const d = document.querySelector('#deal-review'); d.open = true; d.scrollIntoView(); return true").await;
    shot(&late, "pulka-review-phone").await;
    host.refresh().await.expect("reload");
    until(
        &host,
        "the sheet after the reload",
        &format!("return document.querySelectorAll('#score-log .log-deal').length === {deals}"),
    )
    .await;
    assert_eq!(js(&host, CELLS).await, watched, "the sheet after a reload");
    assert_eq!(
        js(&host, REVIEW).await,
        review,
        "the review of the deal after a reload"
    );
    let chat = js(
        &host,
        "return [...document.querySelectorAll('#chat-lines li')].map(l => l.textContent)",
    )
    .await;
    assert_eq!(chat, json!(["Player good game"]), "the chat after a reload");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_pool_against_bots_on_a_phone_in_russian_reads_to_the_settlement() {
    if browser_missing() {
        return;
    }
    let base = fast_bots_server().await;
    let mut driver = Driver::start(&out_dir("screenshots")).await;
    let phone = driver.browser(true).await;
    pref_web_tests::open_start_page(&phone, &base).await;
    language(&phone, "ru").await;
    js(&phone, "const p = document.querySelector('#bots-pool'); p.value = '6'; p.dispatchEvent(new Event('change')); return true").await;
    until(
        &phone,
        "the pool chosen",
        "return document.querySelector('#bots-pool')?.value === '6'",
    )
    .await;
    click(&phone, "#play-bots").await;
    until(
        &phone,
        "the started table",
        "return location.pathname.startsWith('/t/') && document.body.dataset.phase !== 'lobby'",
    )
    .await;
    let table = js(&phone, "return location.pathname").await;
    let table = table.as_str().expect("path").to_owned();
    let mut deals = 0;
    loop {
        play_own_deal(&phone).await;
        deals += 1;
        let phase = until(
            &phone,
            "the deal's end",
            "const p = document.body.dataset.phase; return ['between_deals', 'over'].includes(p) && p",
        )
        .await;
        if phase == json!("over") {
            break;
        }
        assert!(deals < 60, "the pool of 6 did not close in {deals} deals");
        click(&phone, "#next-deal").await;
        until(
            &phone,
            "the next deal",
            "return document.body.dataset.phase === 'playing' && document.body.dataset.stage !== 'finished'",
        )
        .await;
    }
    until(
        &phone,
        "the settlement",
        "return !!document.querySelector('#settlement')",
    )
    .await;
    let desk = driver.browser(false).await;
    desk.set_window_size(1280, 800).await.expect("window size");
    desk.goto(&format!("{base}{table}?watch"))
        .await
        .expect("spectator link");
    until(
        &desk,
        "the settlement",
        "return !!document.querySelector('#settlement')",
    )
    .await;
    for (c, size) in [(&phone, "phone"), (&desk, "desktop")] {
        for lang in ["ru", "en"] {
            language(c, lang).await;
            until(
                c,
                "the sheet",
                "return !!document.querySelector('.pulka .sector')",
            )
            .await;
            assert_eq!(
                js(c, COLLISIONS).await,
                json!([]),
                "{size} {lang}: nothing overlaps"
            );
            js(
                c,
                "document.querySelector('.pulka').scrollIntoView(); return true",
            )
            .await;
            shot(c, &format!("pulka-over-{size}-{lang}")).await;
            js(
                c,
                "document.querySelector('#settlement').scrollIntoView(); return true",
            )
            .await;
            shot(c, &format!("pulka-settlement-{size}-{lang}")).await;
        }
    }
    // Every deal of the game is in the log, the same for the player and a late spectator.
    let log = "return document.querySelectorAll('#score-log .log-deal').length";
    assert_eq!(js(&phone, log).await, json!(deals));
    assert_eq!(
        js(&desk, CELLS).await,
        js(&phone, CELLS).await,
        "the same sheet"
    );
}
