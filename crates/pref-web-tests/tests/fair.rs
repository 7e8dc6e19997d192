//! Provably fair deals in the browser (`docs/fairness.md`):
//!
//! - `the_pages_shuffle_and_commitments_are_the_cores_on_fixed_inputs`: `web/js/fair.js`
//!   computes, with Web Crypto alone, the same decks and commitments as `pref_core::fair`
//!   for fixed seeds and contributions (with and without late ones), under `pref-fair/2`
//!   and `pref-fair/1`, and finds a tampered deck, seed and contribution, and a
//!   `pref-fair/2` deal of another table or of another deal number.
//! - `each_deal_in_the_score_log_is_checked_in_the_page_and_a_tampered_one_fails`: the host
//!   joins the contributions and plays two deals against two bots on a server whose
//!   snapshots list one deal's fairness values. The first deal's score-log entry shows
//!   "verified ✓" (with the host's own value in the deck and its hand checked); the second
//!   deal's values, altered in the page as they arrive, show "not verified ✗" with the
//!   reason. A spectator who comes afterwards gets the second deal's values in its snapshot
//!   and the first deal's from the game record, and marks both "verified ✓"; its snapshot's
//!   score log holds the last deal only, and the page fetches the first (`score_page`).
//!
//! Without `/usr/bin/chromium` and `/usr/bin/chromedriver` the tests print why and pass,
//! except under `CI=true`, where they fail.

use std::time::{Duration, Instant};

use pref_core::Seat;
use pref_core::fair::{Arrival, Contribution, Place, Scheme, Seed, Shuffle, TableTag};
use pref_web_tests::{
    Driver, browser_missing, create_table, js, open_start_page, out_dir, past, seat_bot,
    server_with, shot, sit, step, until,
};
use serde_json::{Value, json};

/// The table id of the fixed cases.
const TABLE_ID: &str = "0123456789abcdef0123456789abcdef";

/// Deal `deal` of the fixed cases' table.
fn at(deal: u32) -> Scheme {
    Scheme::V2(Place {
        table: TableTag::of(TABLE_ID),
        deal,
    })
}

/// The record's `fairness` object for a seed and contributions under `scheme`, as the core
/// writes it.
fn fairness(scheme: Scheme, seed: [u8; 32], contributions: &[(u8, [u8; 32], bool)]) -> Value {
    let mut shuffle = Shuffle::new(scheme, Seed::from_bytes(seed));
    for &(seat, v, late) in contributions {
        let arrival = if late { Arrival::Late } else { Arrival::InTime };
        shuffle
            .contribute(Seat(seat), Contribution::from_bytes(v), arrival)
            .unwrap();
    }
    serde_json::from_str(&shuffle.finish().to_json_string()).unwrap()
}

/// Checks `f` in the page as deal `f.deal` of the table whose tag `f.table` names.
const CHECK: &str = "return await m.check(args, {}, { table: args.table, deal: args.deal });";

/// Runs `body` (an async function body with `m`, the page's `fair.js`, and `args`) in the
/// page and returns its value.
async fn in_page(c: &fantoccini::Client, body: &str, args: Value) -> Value {
    let script = format!(
        "const args = {args}; return (async () => {{ const m = await import('/js/fair.js'); {body} }})();"
    );
    js(c, &script).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_shuffle_and_commitments_are_the_cores_on_fixed_inputs() {
    if browser_missing() {
        return;
    }
    let base = server_with(|_| {}).await;
    let mut driver = Driver::start(&out_dir("screenshots")).await;
    let page = driver.browser(false).await;
    page.goto(&base).await.expect("start page");
    let cases = [
        fairness(at(0), [7; 32], &[]),
        fairness(at(3), [7; 32], &[(0, [1; 32], false), (2, [2; 32], true)]),
        fairness(
            Scheme::V1,
            std::array::from_fn(|i| (i as u8).wrapping_mul(9)),
            &[
                (0, [0xff; 32], false),
                (1, [0; 32], false),
                (2, [0x80; 32], false),
            ],
        ),
        fairness(
            Scheme::V1,
            [0xa5; 32],
            &[(1, std::array::from_fn(|i| 255 - i as u8), false)],
        ),
        fairness(
            at(17),
            [0xa5; 32],
            &[(1, std::array::from_fn(|i| 255 - i as u8), false)],
        ),
    ];
    for f in &cases {
        let deck = in_page(&page, "return await m.deckOf(args);", f.clone()).await;
        assert_eq!(
            &deck, &f["deck"],
            "the page's shuffle is the core's for {f}"
        );
        let why = in_page(&page, CHECK, f.clone()).await;
        assert_eq!(why, Value::Null, "the page verifies {f}");
    }
    // The page's table tag is the core's, and a pref-fair/2 deal is checked at its place:
    // another deal number, or another table, fails before any hash.
    let tag = in_page(&page, "return await m.tableTag(args);", json!(TABLE_ID)).await;
    assert_eq!(tag, json!(TableTag::of(TABLE_ID).to_string()));
    let f = &cases[1];
    for (table, deal) in [
        (f["table"].clone(), json!(4)),
        (json!("ab".repeat(32)), json!(3)),
    ] {
        let got = in_page(
            &page,
            "return await m.check(args.f, {}, { table: args.table, deal: args.deal });",
            json!({"f": f, "table": table, "deal": deal}),
        )
        .await;
        assert_eq!(got, json!("fair.why.place"), "{table} {deal}");
    }
    // The contribution commitment is the core's.
    let value = Contribution::from_bytes([3; 32]);
    let c = in_page(
        &page,
        "return await m.commitmentOf(2, args);",
        json!(value.to_string()),
    )
    .await;
    assert_eq!(c, json!(value.commitment(Seat(2)).to_string()));
    // Tampering is found, each at its own check.
    let f = &cases[1];
    let mut swapped = f.clone();
    let mut cards: Vec<String> = f["deck"]
        .as_str()
        .unwrap()
        .split(' ')
        .map(str::to_owned)
        .collect();
    cards.swap(0, 1);
    swapped["deck"] = json!(cards.join(" "));
    let mut seed = f.clone();
    seed["server_seed"] = json!(Seed::from_bytes([8; 32]).to_string());
    let mut contribution = f.clone();
    contribution["contributions"][0]["value"] =
        json!(Contribution::from_bytes([9; 32]).to_string());
    let mut late = f.clone();
    late["contributions"][1]["late"] = json!(false);
    for (tampered, why) in [
        (swapped, "fair.why.deck"),
        (seed, "fair.why.seed"),
        (contribution, "fair.why.deck"),
        (late, "fair.why.deck"),
    ] {
        let got = in_page(&page, CHECK, tampered).await;
        assert_eq!(got, json!(why));
    }
    // The hand a seat was shown is checked against the deck: at three players with seat 0
    // dealing, seat 1 (first hand) gets cards 0-9, and seat 2 does not.
    let first_ten: Vec<&str> = f["deck"].as_str().unwrap().split(' ').take(10).collect();
    for (seat, expected) in [(1, Value::Null), (2, json!("fair.why.hand"))] {
        let seen = json!({"hand": {"players": 3, "dealer": 0, "seat": seat, "cards": first_ten}});
        let got = in_page(
            &page,
            "return await m.check(args.f, args.seen, { table: args.f.table, deal: args.f.deal });",
            json!({"f": f, "seen": seen}),
        )
        .await;
        assert_eq!(got, expected, "seat {seat}");
    }
    // A value seen live that differs from the revealed one is a failure too.
    let got = in_page(
        &page,
        "return await m.check(args, { seed_commitment: '00'.repeat(32) }, { table: args.table, deal: args.deal });",
        f.clone(),
    )
    .await;
    assert_eq!(got, json!("fair.why.live"));
}

const TURN: &str =
    "const d = document.body.dataset; return [d.myturn || '', d.stage || '', d.version || '']";

/// Plays the host's turns until the page shows the deal finished.
async fn play_deal(host: &fantoccini::Client) {
    let (mut bid_made, mut whists) = (false, 0);
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        assert!(Instant::now() < deadline, "the deal did not finish");
        let v = js(host, TURN).await;
        if v[1] == json!("finished") {
            return;
        }
        if v[0] == json!("true") {
            let stage = v[1].as_str().unwrap_or_default().to_owned();
            let version = v[2].as_str().unwrap_or_default().to_owned();
            step(host, &stage, &mut bid_made, &mut whists).await;
            past(host, &version).await;
        } else {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// The score log's fairness mark of deal `n` once checked: its `data-fair`, its `data-why`,
/// its text and the words saying who shuffled the deck.
async fn mark(c: &fantoccini::Client, n: u32) -> Value {
    until(
        c,
        &format!("deal {n}'s mark in the score log"),
        &format!(
            "const m = document.querySelector('#score-log .log-deal[data-deal=\"{n}\"] .fair-mark'); \
             return m && ['ok', 'failed'].includes(m.dataset.fair) && [m.dataset.fair, m.dataset.why || '', m.textContent, m.querySelector('.fair-from')?.textContent || '', m.title || '']"
        ),
    )
    .await
}

/// Alters deal 1's deck (its first two cards swapped) in every message the page parses.
const TAMPER: &str = "const parse = JSON.parse;
  JSON.parse = function (text, reviver) {
    const v = parse.call(this, text, reviver);
    const e = v && v.event;
    if (e && e.kind === 'fair_revealed' && e.deal_no === 1) {
      const cards = e.fairness.deck.split(' ');
      [cards[0], cards[1]] = [cards[1], cards[0]];
      e.fairness.deck = cards.join(' ');
      window.prefTampered = true;
    }
    return v;
  };
  return true;";

/// The deals whose fairness values a fresh spectator's snapshot lists.
const SNAPSHOT_REVEALED: &str = "const id = location.pathname.split('/').pop();
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/api/tables/${id}/ws`, ['pref']);
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === 'snapshot') { ws.close(); resolve(((m.fair || {}).revealed || []).map((r) => r.deal_no)); }
    };
    ws.onerror = () => reject(new Error('the socket failed'));
  });";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_deal_in_the_score_log_is_checked_in_the_page_and_a_tampered_one_fails() {
    if browser_missing() {
        return;
    }
    let base = server_with(|c| {
        c.limits.bot_delay_min_ms = pref_server::config::Millis(0);
        c.limits.bot_delay_max_ms = pref_server::config::Millis(0);
        c.limits.fair_snapshot_deals = 1;
        // The score log too: the spectator's page fetches deal 0's entry with `score_page`.
        c.limits.score_snapshot_deals = 1;
        c.limits.score_page_deals = 1;
    })
    .await;
    let dir = out_dir("screenshots");
    let mut driver = Driver::start(&dir).await;
    let host = driver.browser(false).await;
    open_start_page(&host, &base).await;
    let invite = create_table(&host).await;
    sit(&host, &invite, "Anna").await;
    seat_bot(&host, 1, "easy").await;
    seat_bot(&host, 2, "easy").await;
    pref_web_tests::click(&host, "#start-game:not([disabled])").await;
    until(
        &host,
        "the table",
        "return document.body.dataset.phase === 'playing'",
    )
    .await;
    play_deal(&host).await;
    let first = mark(&host, 0).await;
    assert_eq!(first[0], json!("ok"), "{first}");
    assert!(first[2].as_str().unwrap().contains("verified ✓"), "{first}");
    // The host's page contributed: its seat is in the deck.
    assert!(
        first[3]
            .as_str()
            .unwrap()
            .contains("with the values of: Anna"),
        "the host's value is in the deck, named on the page: {first}"
    );
    assert_eq!(
        first[4],
        json!(""),
        "no tooltip a phone cannot show: {first}"
    );
    let line = until(
        &host,
        "the panel's check",
        "const li = document.querySelector('#fair li[data-deal=\"0\"]:not(.fair-checking)'); return li && [li.className, li.dataset.hand]",
    )
    .await;
    assert_eq!(
        line,
        json!(["fair-ok", "checked"]),
        "the hand the page was dealt is checked"
    );
    shot(&host, &dir, "fair-verified").await;

    // Deal 1's values are altered as they reach the page.
    assert_eq!(js(&host, TAMPER).await, json!(true));
    pref_web_tests::click(&host, "#next-deal:not([disabled])").await;
    until(
        &host,
        "the next deal",
        "const s = document.body.dataset.stage; return s !== '' && s !== 'finished'",
    )
    .await;
    play_deal(&host).await;
    let second = mark(&host, 1).await;
    assert_eq!(
        js(&host, "return window.prefTampered === true").await,
        json!(true),
        "deal 1's values were altered"
    );
    assert_eq!(second[0], json!("failed"), "{second}");
    assert_eq!(second[1], json!("fair.why.deck"), "{second}");
    let text = second[2].as_str().unwrap();
    assert!(
        text.contains("not verified ✗")
            && text.contains("the deck is not the shuffle of the seed and the contributions"),
        "{second}"
    );
    assert_eq!(
        mark(&host, 0).await[0],
        json!("ok"),
        "deal 0 stays verified"
    );
    shot(&host, &dir, "fair-tampered").await;

    // A spectator's snapshot lists deal 1's values only; deal 0's come from the record.
    let revealed = js(&host, SNAPSHOT_REVEALED).await;
    assert_eq!(
        revealed,
        json!([1]),
        "the snapshot keeps the last deal only"
    );
    let spectator = driver.browser(false).await;
    let link = js(
        &host,
        "return location.origin + location.pathname + '?watch'",
    )
    .await;
    spectator
        .goto(link.as_str().unwrap())
        .await
        .expect("the spectator link");
    for n in [0, 1] {
        let m = mark(&spectator, n).await;
        assert_eq!(m[0], json!("ok"), "the spectator verifies deal {n}: {m}");
    }
    let read = js(
        &spectator,
        "return performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/record')).length",
    )
    .await;
    assert_eq!(read, json!(1), "the record was read once, for deal 0");
    let deals = js(
        &spectator,
        "return [...document.querySelectorAll('#score-log .log-deal')].map((d) => Number(d.dataset.deal))",
    )
    .await;
    assert_eq!(
        deals,
        json!([1, 0]),
        "the snapshot held deal 1; deal 0 came by score_page"
    );
}
