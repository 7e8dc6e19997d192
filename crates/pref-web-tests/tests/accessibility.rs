//! The table for a player who uses the keyboard and a screen reader, in a real browser
//! (Chromium over WebDriver):
//!
//! - `a_deal_played_by_keyboard_is_read_out_in_the_page_s_language`: a player reading
//!   Russian starts a game against two bots and plays a whole deal with keys only (arrows,
//!   Enter, P: the auction, the discard, the contract, the whist, the cards; a deal that
//!   ends unplayed is followed by the next, started with Enter, until one is played); the focused
//!   control is always visibly marked; the ARIA live region says every call, card and trick
//!   in Russian — as many cards and tricks as the deal had; the page's text meets WCAG AA
//!   contrast (4.5:1) against its background.
//!
//! Without Chromium the test prints why and passes, except under `CI=true`.

use std::time::{Duration, Instant};

use fantoccini::Client;
use pref_web_tests::{
    Driver, browser_missing, click, fast_bots_server, js, out_dir, past, until, until_true,
};
use serde_json::json;

const ENTER: &str = "\u{e007}";
const RIGHT: &str = "\u{e014}";

/// Presses `keys` on whatever has the focus (the page itself when nothing has).
async fn press(c: &Client, keys: &str) {
    c.active_element()
        .await
        .expect("an active element")
        .send_keys(keys)
        .await
        .expect("keys");
}

/// Whether the focused element is marked: an outline, or a card's ring.
const FOCUS_SHOWN: &str = "const e = document.activeElement; if (!e || e === document.body) return 'nothing focused'; \
    const s = getComputedStyle(e); \
    return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2) || s.boxShadow !== 'none' ? true \
      : `${e.tagName}.${e.className} in #${e.parentElement?.closest('[id]')?.id}, outline ${s.outlineStyle} ${s.outlineWidth}, turn ${document.body.dataset.myturn}, page focused ${document.hasFocus()}`";

/// Text whose contrast with its background is under 4.5:1 (WCAG AA), at most five.
const LOW_CONTRAST: &str = r"
const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
// The backgrounds behind `e`: the nearest opaque colour, or every stop of a gradient.
const bgs = (e) => { for (let x = e; x; x = x.parentElement) { const st = getComputedStyle(x);
  if (st.backgroundImage.includes('gradient')) return (st.backgroundImage.match(/rgba?\([^)]*\)/g) || []).map(rgb);
  const c = rgb(st.backgroundColor);
  if (c.length >= 3 && (c.length < 4 || c[3] > 0.9)) return [c]; } return [[255, 255, 255]]; };
const out = [];
for (const e of document.querySelectorAll('body *')) {
  if (e.closest('svg, .sr-only, [hidden]') || e.closest('.card')) continue;
  if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
  const r = e.getBoundingClientRect(); if (!r.width || !r.height) continue;
  const s = getComputedStyle(e); if (s.visibility === 'hidden' || Number(s.opacity) < 0.5) continue;
  if (e.closest('button[disabled]')) continue;
  const a = lum(rgb(s.color));
  const ratio = Math.min(...bgs(e).map((c) => { const b = lum(c); return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); }));
  if (ratio < 4.5) out.push(`${e.tagName}.${e.className} '${e.textContent.trim().slice(0, 30)}' ${ratio.toFixed(2)}`);
}
return out.slice(0, 5);";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deal_played_by_keyboard_is_read_out_in_the_page_s_language() {
    if browser_missing() {
        return;
    }
    let base = fast_bots_server().await;
    let mut driver = Driver::start(&out_dir("screenshots")).await;
    let c = driver.browser(false).await;
    pref_web_tests::open_start_page(&c, &base).await;
    js(
        &c,
        "const s = document.querySelector('#lang'); s.value = 'ru'; s.dispatchEvent(new Event('change', { bubbles: true })); return true",
    )
    .await;
    until(
        &c,
        "Russian",
        "return document.documentElement.lang === 'ru'",
    )
    .await;
    click(&c, "#play-bots").await;
    until(
        &c,
        "the started table",
        "return location.pathname.startsWith('/t/') && document.body.dataset.phase === 'playing'",
    )
    .await;
    // Everything the live region says, in order.
    js(
        &c,
        "window.heard = []; new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes) \
           if (n.parentElement && n.parentElement.id === 'announcer') window.heard.push(n.textContent); }) \
           .observe(document.body, { childList: true, subtree: true }); return true",
    )
    .await;
    // The deal, with keys only. A deal can end unplayed (both defenders pass, or a
    // half-whist stands): then the next one is played, up to four, until one has tricks;
    // what is heard is checked for that deal.
    // Whether this player passed: the bots may all have passed before the region was
    // watched (they act at once from the start), so only a pass of ours is sure to be heard.
    let mut passed = false;
    let deadline = Instant::now() + Duration::from_secs(300);
    for deal in 1..=4 {
        play_a_deal_by_keys(&c, deadline, &mut passed).await;
        let played = js(
            &c,
            "return document.querySelectorAll('#review-tricks li').length",
        )
        .await;
        if played.as_u64().unwrap_or(0) > 0 || deal == 4 {
            break;
        }
        // With keys too: the focus moved to the button (as Tab would), then Enter.
        until(
            &c,
            "the next deal's button focused",
            "const b = document.querySelector('#next-deal:not([disabled])'); b?.focus(); \
             return !!b && document.activeElement === b",
        )
        .await;
        press(&c, ENTER).await;
        until(
            &c,
            "the next deal",
            "return document.body.dataset.stage !== 'finished'",
        )
        .await;
        // What is checked below is the played deal's: heard from its start.
        js(&c, "window.heard = []; return true").await;
        passed = false;
    }
    let heard = js(&c, "return window.heard").await;
    let heard: Vec<String> = heard
        .as_array()
        .expect("lines")
        .iter()
        .map(|l| l.as_str().unwrap_or_default().to_owned())
        .collect();
    let tricks = js(
        &c,
        "return document.querySelectorAll('#review-tricks li').length",
    )
    .await;
    let tricks = tricks.as_u64().expect("a count") as usize;
    let said_tricks = heard
        .iter()
        .filter(|l| l.starts_with("Взятку берёт"))
        .count();
    let said_cards = heard
        .iter()
        .filter(|l| {
            ["пики", "трефы", "бубны", "червы"]
                .iter()
                .any(|s| l.ends_with(s))
                && !l.starts_with("Прикуп")
        })
        .count();
    assert!(tricks > 0, "the deal was played: {heard:?}");
    assert_eq!(said_tricks, tricks, "every trick said: {heard:?}");
    assert_eq!(said_cards, 3 * tricks, "every card said: {heard:?}");
    assert!(
        heard.iter().any(|l| l.starts_with("Игрок: ")),
        "the player's own calls said under his name: {heard:?}"
    );
    assert!(
        !passed || heard.iter().any(|l| l.ends_with(": Пас")),
        "a pass said in Russian: {heard:?}"
    );
    let low = js(&c, LOW_CONTRAST).await;
    assert_eq!(low, json!([]), "text under 4.5:1");
}

/// Plays the deal in progress to its end with keys only: the lowest bid once, then P in the
/// auction and at the whist; two cards picked with Enter and the arrow for the discard;
/// Enter on the focused choice or card otherwise. `passed` is set if this player passed.
async fn play_a_deal_by_keys(c: &Client, deadline: Instant, passed: &mut bool) {
    let (mut bid_made, mut picked) = (false, 0);
    loop {
        assert!(Instant::now() < deadline, "the deal did not finish");
        let v = js(c, "const d = document.body.dataset; return [d.myturn || '', d.stage || '', d.version || '', d.phase || '']").await;
        if v[1] == json!("finished") || v[3] != json!("playing") {
            break;
        }
        if v[0] != json!("true") {
            tokio::time::sleep(Duration::from_millis(40)).await;
            continue;
        }
        // The focus is shown at the turn; a held trick's gathering may redraw the hand a
        // moment after the turn began, so it is waited for (a lost focus still fails here).
        let shown = format!("return (() => {{ {FOCUS_SHOWN} }})()");
        until_true(c, &format!("the focus shown at {v}"), &shown).await;
        let stage = v[1].as_str().unwrap_or_default().to_owned();
        let version = v[2].as_str().unwrap_or_default().to_owned();
        match stage.as_str() {
            // The lowest bid once (the focus starts on it), then P to pass.
            "auction" if !bid_made => {
                bid_made = true;
                press(c, ENTER).await;
            }
            "auction" | "whist" => {
                *passed = true;
                press(c, "p").await;
            }
            // Two cards picked with Enter and the arrow, then → to the OK button.
            "discard" => {
                if picked < 2 {
                    if picked == 1 {
                        press(c, RIGHT).await;
                    }
                    press(c, ENTER).await;
                    picked += 1;
                    until(
                        c,
                        "the card picked",
                        &format!("return document.querySelectorAll('.hand.own .card.selected').length === {picked}"),
                    )
                    .await;
                    continue;
                }
                let on_ok = js(c, "return document.activeElement?.id === 'discard-ok'").await;
                if on_ok == json!(true) {
                    press(c, ENTER).await;
                } else {
                    press(c, RIGHT).await;
                    continue;
                }
            }
            // The first contract, whist choice, defence or card: Enter on the focused one.
            _ => press(c, ENTER).await,
        }
        past(c, &version).await;
    }
}
