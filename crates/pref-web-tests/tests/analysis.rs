//! The deal analysis page in a real browser (Chromium over chromedriver, as `browser.rs`):
//!
//! - `a_bots_deal_is_stepped_through_with_the_servers_values`: three bots play a deal at a
//!   table that shows hands after the deal; the table page's sheet links the analysis of the
//!   finished deal; `/t/ID/analysis/0` steps through every trick, and each card shown (its
//!   code, value before and after, cost, the mistake mark and the best cards in its place)
//!   is the server's `pref-analysis/1` document's, with the par and each seat's best
//!   contract; then steps forward and back through every card position, each showing the
//!   document's value of every legal card there (the card played marked); at each trick the
//!   hands drawn are every seat's as it stood when the trick was led: exactly the cards the
//!   document has it play from that trick on, with any left unplayed at the end (the
//!   server's `/deals/0/hands`); every key of the page is translated in five languages. A phone-sized
//!   screenshot goes to `target/screenshots/analysis-phone.png`.
//! - `a_record_file_opened_from_disk_is_analysed`: `/analysis` with the repository's misère
//!   record chosen as a file shows Anna's ♥Q of trick 2 as the mistake of `docs/analysis.md`
//!   (4 → 5, cost 1, best ♦9 ♦A), and at that trick each hand as it stood then.
//!
//! Without the browser the test prints why and passes, except under `CI=true`.

use std::path::{Path, PathBuf};

use fantoccini::{Client, Locator};
use pref_web_tests::{Driver, browser_missing, click, js, until};
use serde_json::{Value, json};

const LANGS: [&str; 5] = ["en", "ru", "fr", "pt", "it"];

fn shots() -> PathBuf {
    pref_web_tests::out_dir("screenshots")
}

/// Keys or placeholders left on the page instead of words.
const UNTRANSLATED: &str = "const text = document.body.innerText;
  return (text.match(/\\b(an|sheet|call|suit|rank)\\.[a-z0-9_.]+|\\{[a-z0-9_]+\\}|\\b(null|undefined|NaN)\\b|\\[object [A-Za-z]+\\]/g) || []).slice(0, 5);";

/// What the page shows for the current trick: one entry per card row.
const ROWS: &str = "return [...document.querySelectorAll('#an-trick li.an-card')].map(li => ({
  card: li.dataset.card, before: Number(li.dataset.before), after: Number(li.dataset.after),
  cost: Number(li.dataset.cost), mistake: li.classList.contains('mistake'),
  best: [...li.querySelectorAll('.an-best .card')].map(c => c.dataset.card),
  face: li.querySelector(':scope > .card').dataset.card,
  shown: li.querySelector('.an-value').dataset.shown,
  values: [...li.querySelectorAll('.an-values .card-chip')].map(c => c.dataset.card),
  codes: /\\b[7-9TJQKA][SCDH]\\b/.test(li.querySelector('.an-values').textContent) }));";

/// The rows the server's document gives for trick `trick` (0-based).
fn expected_rows(deal: &Value, trick: u64) -> Value {
    let rows: Vec<Value> = deal["cards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["trick"] == json!(trick))
        .map(|c| {
            let cost = c["cost"].as_u64().unwrap();
            // Values from the mover's side: a defender in a trick contract reads the
            // defence's tricks, everybody else the counted seat's.
            let side = |v: &Value| {
                let v = v.as_u64().unwrap();
                if deal["kind"] == json!("game") && c["seat"] != c["counted"] {
                    10 - v
                } else {
                    v
                }
            };
            let values: Vec<Value> = c["values"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v["card"].clone())
                .collect();
            json!({
                "shown": format!("{} {}", side(&c["before"]), side(&c["after"])),
                "values": values,
                "codes": false,
                "card": c["card"], "before": c["before"], "after": c["after"], "cost": cost,
                "mistake": cost > 0,
                "best": if cost > 0 { c["best"].clone() } else { json!([]) },
                "face": c["card"],
            })
        })
        .collect();
    Value::Array(rows)
}

/// Each seat's cards drawn in `#an-hands`, and whether they are the hands at a trick.
const HANDS: &str = "const at = document.querySelector('#an-hands');
  const seats = {};
  for (const s of at.querySelectorAll('.an-seat[data-seat]')) seats[s.dataset.seat] = [...s.querySelectorAll('[data-card]')].map((e) => e.dataset.card).sort();
  return { at: at.dataset.at, seats };";

/// The hands drawn at trick `trick`: every seat's cards the document has it play from there
/// on, with those `left` unplayed at the deal's end.
fn expected_hands(deal: &Value, left: &Value, trick: u64) -> Value {
    let mut seats = serde_json::Map::new();
    for (s, cards) in left.as_array().unwrap().iter().enumerate() {
        let mut held: Vec<String> = cards
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_owned())
            .collect();
        for c in deal["cards"].as_array().unwrap() {
            if c["trick"].as_u64().unwrap() >= trick && c["seat"] == json!(s) {
                held.push(c["card"].as_str().unwrap().to_owned());
            }
        }
        if !held.is_empty() {
            held.sort();
            seats.insert(s.to_string(), json!(held));
        }
    }
    json!({ "at": "trick", "seats": seats })
}

/// Steps from the dealt cards to the last trick, checking each trick against `deal`; returns
/// the mistakes seen.
async fn step_through(c: &Client, deal: &Value) -> u64 {
    let left = js(
        c,
        "const id = location.pathname.split('/')[2];
      return fetch(`/api/tables/${id}/deals/0/hands`).then((r) => r.json()).then((h) => h.left);",
    )
    .await;
    let tricks = deal["cards"]
        .as_array()
        .unwrap()
        .last()
        .map_or(0, |c| c["trick"].as_u64().unwrap() + 1);
    let mut mistakes = 0;
    for trick in 0..tricks {
        click(c, "#an-next").await;
        let step = trick + 1;
        until(
            c,
            "the next trick",
            &format!("return document.querySelector('#an-steps').dataset.step === '{step}'"),
        )
        .await;
        let rows = js(c, ROWS).await;
        assert_eq!(rows, expected_rows(deal, trick), "trick {step}");
        assert_eq!(
            js(c, HANDS).await,
            expected_hands(deal, &left, trick),
            "the hands at trick {step}"
        );
        mistakes += rows
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["mistake"] == json!(true))
            .count() as u64;
    }
    let next_disabled = js(c, "return document.querySelector('#an-next').disabled").await;
    assert_eq!(next_disabled, json!(true), "the last trick ends the steps");
    mistakes
}

/// What the page shows at the current card position: the mover's cards with their values.
const MOVE: &str = "const s = document.querySelector('#an-moves');
  return { at: Number(s.dataset.move), values: [...s.querySelectorAll('#an-move-values li')].map(li => ({
    card: li.dataset.card, value: Number(li.dataset.value), played: li.dataset.played === 'true' })) };";

/// Steps through every card position forward, then back to the first, checking each against
/// the document's `values` for that card (from the mover's side, as the trick rows).
async fn step_through_moves(c: &Client, deal: &Value) {
    let cards = deal["cards"].as_array().unwrap();
    let expected = |i: usize| {
        let card = &cards[i];
        let defender = deal["kind"] == json!("game") && card["seat"] != card["counted"];
        let values: Vec<Value> = card["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                let n = v["value"].as_u64().unwrap();
                json!({ "card": v["card"], "value": if defender { 10 - n } else { n }, "played": v["card"] == card["card"] })
            })
            .collect();
        json!({ "at": i, "values": values })
    };
    let order: Vec<usize> = (0..cards.len()).chain((0..cards.len() - 1).rev()).collect();
    for (n, &i) in order.iter().enumerate() {
        if n > 0 {
            let button = if i > order[n - 1] {
                "#an-move-next"
            } else {
                "#an-move-prev"
            };
            click(c, button).await;
            until(
                c,
                "the next card position",
                &format!("return document.querySelector('#an-moves').dataset.move === '{i}'"),
            )
            .await;
        }
        let shown = js(c, MOVE).await;
        assert_eq!(shown, expected(i), "card position {i}");
        assert_eq!(
            shown["values"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|v| v["played"] == json!(true))
                .count(),
            1,
            "position {i}: the card played is one of the values"
        );
    }
    let prev_disabled = js(c, "return document.querySelector('#an-move-prev').disabled").await;
    assert_eq!(
        prev_disabled,
        json!(true),
        "the first card position starts the steps"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bots_deal_is_stepped_through_with_the_servers_values() {
    if browser_missing() {
        return;
    }
    // Bots a little quicker than at a real table, not instant: with no delay the table page
    // visited below would follow hundreds of events a second and answer no script for
    // seconds at a time on a loaded machine.
    let base = pref_web_tests::server_with(|c| {
        c.limits.bot_delay_min_ms = pref_server::config::Millis(150);
        c.limits.bot_delay_max_ms = pref_server::config::Millis(150);
    })
    .await;
    let mut driver = Driver::start(&shots()).await;
    let desk = driver.browser(false).await;
    desk.goto(&format!("{base}/analysis")).await.unwrap();
    // A table of three bots, Sochi (hands shown after each deal), started from the page and
    // watched over a spectator's socket: a bot-only table that nobody watches pauses.
    let id = js(&desk, "return (async () => {
      const post = (p, b, tok) => fetch(p, { method: 'POST', headers: Object.assign({ 'Content-Type': 'application/json' }, tok ? { Authorization: `Bearer ${tok}` } : {}), body: JSON.stringify(b || {}) }).then(r => r.json());
      const t = await post('/api/tables', { profile: { preset: 'sochi', pool_target: 30 } });
      for (const s of [0, 1, 2]) await post(`/api/tables/${t.id}/seats/${s}/bot`, { level: 'easy' }, t.host_token);
      window.prefWatch = new WebSocket(`ws://${location.host}/api/tables/${t.id}/ws`);
      await new Promise((resolve) => { window.prefWatch.onopen = resolve; });
      await post(`/api/tables/${t.id}/start`, {}, t.host_token);
      return t.id; })()").await;
    let id = id.as_str().unwrap().to_owned();
    until(&desk, "a finished deal with cards", &format!("return fetch('/api/tables/{id}/record').then(r => r.ok ? r.json() : null).then(r => r && r.deals.length > 0 && r.deals[0].actions.some(a => a.play))")).await;

    // The table page links the analysis of its last finished deal.
    desk.goto(&format!("{base}/t/{id}")).await.unwrap();
    let href = until(
        &desk,
        "the analysis link",
        "const a = document.querySelector('#analysis-link'); return a && a.getAttribute('href')",
    )
    .await;
    assert!(
        href.as_str()
            .unwrap()
            .starts_with(&format!("/t/{id}/analysis/")),
        "{href}"
    );

    desk.goto(&format!("{base}/t/{id}/analysis/0"))
        .await
        .unwrap();
    until(&desk, "the analysis", "return document.body.dataset.ready === 'true' && !!document.querySelector('#an-deal-view')").await;
    let doc = js(
        &desk,
        &format!("return fetch('/api/tables/{id}/deals/0/analysis').then(r => r.json())"),
    )
    .await;
    let deal = doc["deals"][0].clone();
    assert_eq!(deal["analysable"], json!(true), "{deal}");
    // The best contracts: one line per seat with the server's bid.
    let best = js(&desk, "return [...document.querySelectorAll('#an-auction li')].map(li => li.dataset.best || null)").await;
    let want: Vec<Value> = deal["auction"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["best"]["bid"].clone())
        .collect();
    assert_eq!(best, Value::Array(want));
    let mistakes_line = js(
        &desk,
        "return document.querySelector('#an-mistakes').textContent",
    )
    .await;
    assert!(
        mistakes_line
            .as_str()
            .unwrap()
            .ends_with(&deal["mistakes"].to_string()),
        "{mistakes_line}"
    );
    let mistakes = step_through(&desk, &deal).await;
    assert_eq!(mistakes, deal["mistakes"].as_u64().unwrap());
    step_through_moves(&desk, &deal).await;

    for code in LANGS {
        js(&desk, &format!("document.querySelector('#lang').value = '{code}'; document.querySelector('#lang').dispatchEvent(new Event('change')); return true")).await;
        until(
            &desk,
            code,
            &format!("return document.documentElement.lang === '{code}'"),
        )
        .await;
        assert_eq!(
            js(&desk, UNTRANSLATED).await,
            json!([]),
            "{code}: untranslated text"
        );
    }

    let phone = driver.browser(true).await;
    phone
        .goto(&format!("{base}/t/{id}/analysis/0"))
        .await
        .unwrap();
    until(
        &phone,
        "the analysis on a phone",
        "return !!document.querySelector('#an-deal-view')",
    )
    .await;
    // The first trick with a mistake, else the first trick.
    let first_mistake = deal["cards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["cost"].as_u64() > Some(0))
        .map_or(0, |c| c["trick"].as_u64().unwrap());
    for _ in 0..=first_mistake {
        click(&phone, "#an-next").await;
    }
    let wide = js(
        &phone,
        "return document.documentElement.scrollWidth <= window.innerWidth + 1",
    )
    .await;
    assert_eq!(wide, json!(true), "the page fits the phone's width");
    pref_web_tests::shot(&phone, &shots(), "analysis-phone").await;
    let _ = phone.close().await;
    let _ = desk.close().await;
}

fn records() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/records")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_file_opened_from_disk_is_analysed() {
    if browser_missing() {
        return;
    }
    let base = pref_web_tests::server_with(|_| {}).await;
    let mut driver = Driver::start(&shots()).await;
    let c = driver.browser(false).await;
    c.goto(&format!("{base}/analysis")).await.unwrap();
    until(
        &c,
        "the page",
        "return document.body.dataset.ready === 'true'",
    )
    .await;
    let path = records().join("misere.json").canonicalize().unwrap();
    let input = c.find(Locator::Css("#an-file")).await.unwrap();
    input.send_keys(&path.display().to_string()).await.unwrap();
    until(
        &c,
        "the analysis of the file",
        "return !!document.querySelector('#an-deal-view')",
    )
    .await;
    let par = js(&c, "return document.querySelector('#an-par').textContent").await;
    assert_eq!(par, json!("Par: the defence can force 4 tricks on Anna."));
    click(&c, "#an-next").await;
    click(&c, "#an-next").await;
    until(
        &c,
        "trick 2",
        "return document.querySelector('#an-steps').dataset.step === '2'",
    )
    .await;
    let rows = js(&c, ROWS).await;
    let anna = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["card"] == json!("QH"))
        .expect("Anna's ♥Q in trick 2")
        .clone();
    assert_eq!(
        anna,
        json!({"card": "QH", "before": 4, "after": 5, "cost": 1, "mistake": true, "best": ["9D", "AD"], "face": "QH",
            "shown": "4 5", "values": ["JS", "KS", "7C", "QC", "9D", "AD", "7H", "QH", "AH"], "codes": false})
    );
    // The file's hands at trick 2 (`/api/analysis/hands`): each seat's cards the record plays
    // from there on, not the hands as dealt. The deal is played out: nothing is left.
    let doc: Value = serde_json::from_str(
        &std::fs::read_to_string(records().join("misere.analysis.out.json")).unwrap(),
    )
    .unwrap();
    until(
        &c,
        "the hands at trick 2",
        "return document.querySelector('#an-hands').dataset.at === 'trick'",
    )
    .await;
    assert_eq!(
        js(&c, HANDS).await,
        expected_hands(&doc["deals"][0], &json!([[], [], []]), 1),
        "the file's hands at trick 2"
    );
    let _ = c.close().await;
}
