//! The table page's step-through of a deal in the browser, for a player and a spectator:
//! back to the first call and forward again through the auction (each call step shows the
//! calls so far, exactly the auction the server sent the other page), the talon and the
//! discard where the viewer may see them, and the tricks; during the deal no step shows a
//! card its viewer was not shown elsewhere on the page, the spectator's no discard and no hand.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use fantoccini::Client;
use pref_web_tests::steps::{create_table, seat_bot, sit, watch};
use pref_web_tests::*;
use serde_json::{Value, json};

/// The cards a page shows outside its step-through: what its viewer was told.
async fn told(c: &Client, into: &mut BTreeSet<String>) {
    let seen = js(c, "return [...document.querySelectorAll('[data-card]')].filter((e) => !e.closest('#step-through')).map((e) => e.dataset.card)").await;
    into.extend(
        seen.as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_owned)),
    );
}

/// The auction as a page's log draws it: `[seat, call]` in order.
const LOG: &str = "return [...document.querySelectorAll('#auction-log td[data-call]')].map((td) => [Number(td.dataset.seat), td.dataset.call])";

/// The step shown: its kind, its place, the calls listed, the cards shown.
const SHOWN: &str = "const s = document.querySelector('#step-through');
  return { kind: s.dataset.step, at: Number(s.dataset.at),
    calls: [...s.querySelectorAll('#step-calls li')].map((li) => [Number(li.dataset.seat), li.dataset.call]),
    cards: [...s.querySelectorAll('[data-card]')].map((e) => e.dataset.card),
    hand: !!s.querySelector('#step-hand'), forward: !s.querySelector('#step-forward').disabled };";

/// Steps back to the first call, then forward through every step, checking each.
async fn walk(
    c: &Client,
    who: &str,
    seen: &BTreeSet<String>,
    auction: &Value,
    spectator: bool,
) -> Vec<String> {
    let calls = auction.as_array().unwrap();
    loop {
        let s = js(c, SHOWN).await;
        if s["at"] == json!(0) {
            break;
        }
        click(c, "#step-back:not([disabled])").await;
    }
    let mut kinds = Vec::new();
    for at in 0.. {
        let s = js(c, SHOWN).await;
        assert_eq!(s["at"], json!(at), "{who}: step {at}");
        let kind = s["kind"].as_str().unwrap().to_owned();
        for card in s["cards"].as_array().unwrap() {
            assert!(
                seen.contains(card.as_str().unwrap()),
                "{who}, step {at} ({kind}): {card} was never shown to this viewer"
            );
        }
        if kind == "call" {
            // The calls so far, exactly the server's.
            assert_eq!(s["calls"], json!(calls[..=at]), "{who}: call {at}");
        }
        if spectator {
            assert_ne!(
                kind, "discard",
                "{who}: a spectator is not shown the discard during the deal"
            );
            assert_eq!(s["hand"], json!(false), "{who}: a spectator holds no hand");
        }
        kinds.push(kind);
        if s["forward"] != json!(true) {
            break;
        }
        click(c, "#step-forward:not([disabled])").await;
        until(
            c,
            "the next step",
            &format!(
                "return document.querySelector('#step-through').dataset.at === '{}'",
                at + 1
            ),
        )
        .await;
    }
    let n_calls = kinds.iter().take_while(|k| *k == "call").count();
    assert_eq!(
        n_calls,
        calls.len(),
        "{who}: one step per call, first: {kinds:?}"
    );
    assert!(
        kinds.iter().any(|k| k == "trick"),
        "{who}: the tricks follow: {kinds:?}"
    );
    // And one step back from the end: the step before is shown.
    let last = kinds.len() - 1;
    click(c, "#step-back:not([disabled])").await;
    let s = js(c, SHOWN).await;
    assert_eq!(s["at"], json!(last - 1), "{who}: back one step");
    assert_eq!(s["kind"], json!(kinds[last - 1]), "{who}: back one step");
    kinds
}

/// Whether a page has an auction and a completed trick to step through.
async fn ready(c: &Client) -> bool {
    js(c, "return document.querySelectorAll('#review-tricks li').length > 0 && document.querySelectorAll('#auction-log td[data-call]').length > 0").await == json!(true)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_auction_and_tricks_are_stepped_through_with_only_cards_each_viewer_saw() {
    if browser_missing() {
        return;
    }
    let base = pref_web_tests::steps::fast_bots_server().await;
    let dir = out_dir("screenshots");
    let mut driver = Driver::start(&dir).await;
    let player = driver.browser(true).await;
    let watcher = driver.browser(true).await;
    open_start_page(&player, &base).await;
    let invite = create_table(&player).await;
    let watch_link = js(
        &player,
        "return document.querySelector('#link-watch').value",
    )
    .await;
    sit(&player, &invite, "Anna").await;
    seat_bot(&player, 1, "easy").await;
    seat_bot(&player, 2, "easy").await;
    watch(&watcher, watch_link.as_str().expect("link")).await;
    click(&player, "#start-game:not([disabled])").await;

    let (mut mine, mut theirs) = (BTreeSet::new(), BTreeSet::new());
    let (mut bid_made, mut whists) = (false, 0);
    let deadline = Instant::now() + Duration::from_secs(300);
    // Play until a deal with an auction has a trick on both pages, at Anna's turn (the deal
    // then waits for her while the pages are stepped through).
    loop {
        assert!(Instant::now() < deadline, "no deal with a trick");
        told(&player, &mut mine).await;
        told(&watcher, &mut theirs).await;
        let v = js(&player, "const d = document.body.dataset; return [d.myturn || '', d.stage || '', d.phase || '']").await;
        if v[0] == json!("true")
            && v[1] == json!("play")
            && ready(&player).await
            && ready(&watcher).await
        {
            break;
        }
        if v[0] == json!("true") {
            let stage = v[1].as_str().unwrap_or_default().to_owned();
            step(&player, &stage, &mut bid_made, &mut whists).await;
        } else if v[2] == json!("between_deals") {
            bid_made = false;
            whists = 0;
            let _ = js(
                &player,
                "document.querySelector('#next-deal')?.click(); return true",
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    told(&watcher, &mut theirs).await;
    // Each page's auction, built from its own socket, is the other's.
    let auction = js(&player, LOG).await;
    assert_eq!(
        js(&watcher, LOG).await,
        auction,
        "both viewers were sent one auction"
    );
    assert!(!auction.as_array().unwrap().is_empty());
    let deal = pref_web_tests::picture::kept_picture(&player).await["deal"].clone();
    let anna = walk(&player, "Anna", &mine, &auction, false).await;
    let spectator = walk(&watcher, "the spectator", &theirs, &auction, true).await;
    // The talon turned for all (R4.1), unless the deal is played on raspasy; the discard
    // only for its declarer (Anna sits in seat 0).
    let talon = deal["kind"] != json!("raspasy");
    for (who, kinds) in [("Anna", &anna), ("the spectator", &spectator)] {
        assert_eq!(
            kinds.iter().any(|k| k == "talon"),
            talon,
            "{who}: {kinds:?} in {deal}"
        );
    }
    let declarer = deal["declarer"] == json!(0) && deal["kind"] != json!("raspasy");
    assert_eq!(
        anna.iter().any(|k| k == "discard"),
        declarer,
        "Anna: {anna:?} in {deal}"
    );
    shot(&watcher, &dir, "stepper-spectator").await;
}
