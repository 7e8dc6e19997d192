//! A table people can follow, in a real browser (Chromium over WebDriver):
//!
//! - `one_click_against_bots_with_a_late_spectator_confirmations_and_a_rematch`: a visitor
//!   starts a game against two easy bots with one click on the start page; the bots' badges
//!   name their level; the tab's title says when it is the player's turn; a phone-sized
//!   visitor reading Russian opens the invite link mid-game and is told that the game has
//!   started and that he is watching, and everybody sees the spectator count; after the deal
//!   the player and the spectator show the same running totals; leaving the seat and ending
//!   the game each ask for a confirmation that can be cancelled; after the end the host's
//!   "Rematch" opens a new table with the same bots and the host in his seat, which starts
//!   by itself once every kept seat is back, and the spectator is given its link. The favicon is served as SVG, and the header's links open
//!   a new tab at a table. Screenshots at desktop and phone sizes in English and Russian go
//!   to `target/screenshots/ux-*.png`.
//!
//! Without Chromium the test prints why and passes, except under `CI=true`.

use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use pref_web_tests::{
    Driver, browser_missing, click, js, language, open_start_page, out_dir, past, server_with,
    step, until,
};
use serde_json::json;

async fn shot(c: &Client, name: &str) {
    pref_web_tests::shot(c, &out_dir("screenshots"), name).await;
}

const TURN: &str = "const d = document.body.dataset; return [d.myturn || '', d.stage || '', d.version || '', d.phase || '']";

const TOTALS: &str = "const log = document.querySelector('#score-log'); if (!log) return null; \
    const t = [...log.querySelectorAll('.log-totals td')].map(e => e.textContent); return t.length ? t : null";

/// Plays the host's turns until the deal is finished; the title says "your turn" at each.
async fn play_deal(host: &Client) {
    let (mut bid_made, mut whists) = (false, 0);
    let mut titled = false;
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        assert!(Instant::now() < deadline, "the deal did not finish");
        let v = js(host, TURN).await;
        if v[1] == json!("finished") || v[3] == json!("between_deals") {
            break;
        }
        if v[0] == json!("true") {
            let title = js(host, "return document.title").await;
            assert!(
                title.as_str().is_some_and(|t| t.starts_with("● Your turn")),
                "the tab says it is the player's turn: {title}"
            );
            titled = true;
            let stage = v[1].as_str().unwrap_or_default().to_owned();
            let version = v[2].as_str().unwrap_or_default().to_owned();
            step(host, &stage, &mut bid_made, &mut whists).await;
            past(host, &version).await;
        } else {
            let title = js(
                host,
                "return document.body.dataset.myturn !== 'true' ? document.title : 'Preferans'",
            )
            .await;
            assert_eq!(title, json!("Preferans"), "no turn, the plain title");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    assert!(titled, "the player had at least one turn");
}

/// Opens the confirmation of `button`, cancels it (by the Cancel button or Escape), and
/// checks nothing happened; the dialog is a modal `<dialog>` with the focus on Cancel.
async fn cancel_confirmation(c: &Client, button: &str, escape: bool) {
    click(c, button).await;
    let open = until(
        c,
        "the confirmation",
        "const d = document.querySelector('dialog#confirm'); return d && d.open && d.matches(':modal') && document.activeElement?.id",
    )
    .await;
    assert_eq!(
        open,
        json!("confirm-cancel"),
        "the safe answer has the focus"
    );
    if escape {
        c.active_element()
            .await
            .expect("focus")
            .send_keys("\u{e00c}")
            .await
            .expect("Escape");
    } else {
        click(c, "#confirm-cancel").await;
    }
    until(
        c,
        "the dialog gone",
        "return !document.querySelector('dialog#confirm')",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_click_against_bots_with_a_late_spectator_confirmations_and_a_rematch() {
    if browser_missing() {
        return;
    }
    let base = server_with(|c| {
        c.limits.bot_delay_min_ms = pref_server::config::Millis(0);
        c.limits.bot_delay_max_ms = pref_server::config::Millis(0);
    })
    .await;
    let mut driver = Driver::start(&out_dir("screenshots")).await;
    let host = driver.browser(false).await;
    open_start_page(&host, &base).await;
    // The favicon is SVG, served as such.
    let icon = js(
        &host,
        "return (async () => { const r = await fetch('/favicon.svg'); return r.status + ' ' + r.headers.get('content-type'); })()",
    )
    .await;
    assert_eq!(icon, json!("200 image/svg+xml"));
    shot(&host, "ux-01-start-desktop-en").await;
    // In Russian, with every fold open, no option's control reaches into its help text.
    language(&host, "ru").await;
    js(
        &host,
        "document.querySelectorAll('details.opt-group').forEach(d => { d.open = true; })",
    )
    .await;
    let overlaps = js(
        &host,
        "return [...document.querySelectorAll('.option')].filter(o => { \
           const c = o.querySelector('.opt-control select, .opt-control input').getBoundingClientRect(); \
           const h = o.querySelector('.opt-help').getBoundingClientRect(); \
           const across = c.right > h.left + 1 && c.left < h.right; \
           const down = c.bottom > h.top + 1 && c.top < h.bottom; \
           return across && down; }).map(o => o.id)",
    )
    .await;
    assert_eq!(overlaps, json!([]), "controls overlapping their help text");
    js(
        &host,
        "document.querySelector('#row-whist_split').scrollIntoView()",
    )
    .await;
    shot(&host, "ux-01b-options-desktop-ru").await;
    js(
        &host,
        "document.querySelectorAll('details.opt-group').forEach(d => { d.open = false; }); window.scrollTo(0, 0)",
    )
    .await;
    language(&host, "en").await;

    // One click: a table with two easy bots, the visitor seated, the game started.
    let name = host.find(Locator::Css("#bots-name")).await.expect("name");
    name.clear().await.expect("clear");
    name.send_keys("Anna").await.expect("type");
    host.find(Locator::Css("#bots-level"))
        .await
        .expect("level")
        .select_by_value("easy")
        .await
        .expect("easy");
    click(&host, "#play-bots").await;
    until(
        &host,
        "the started table",
        "return location.pathname.startsWith('/t/') && document.body.dataset.phase && document.body.dataset.phase !== 'lobby' && document.body.dataset.seat === '0'",
    )
    .await;
    let table = js(&host, "return location.pathname").await;
    let table = table.as_str().expect("path").to_owned();
    let badges = js(
        &host,
        "return [...document.querySelectorAll('.seat .badge.bot')].map(b => [b.dataset.level, b.textContent])",
    )
    .await;
    assert_eq!(
        badges,
        json!([["easy", "bot · easy"], ["easy", "bot · easy"]]),
        "the badges name the level"
    );
    let away = js(
        &host,
        "return [...document.querySelectorAll('#top-links a')].map(a => a.target)",
    )
    .await;
    assert_eq!(
        away,
        json!(["_blank", "_blank"]),
        "header links leave the table open"
    );
    assert_eq!(
        js(
            &host,
            "return document.querySelector('#spectator-count').dataset.count"
        )
        .await,
        json!("0")
    );

    // A late visitor on a phone, reading Russian, opens the invite link mid-game.
    let late = driver.browser(true).await;
    late.goto(&format!("{base}{table}")).await.expect("invite");
    until(
        &late,
        "the table",
        "return !!document.querySelector('#audience')",
    )
    .await;
    language(&late, "ru").await;
    let notice = until(
        &late,
        "the late visitor's notice",
        "return document.querySelector('#late-notice')?.textContent",
    )
    .await;
    assert!(
        notice
            .as_str()
            .is_some_and(|n| n.starts_with("Игра уже началась — вы зритель.")),
        "{notice}"
    );
    assert_eq!(
        js(
            &late,
            "return document.querySelector('#watching-badge')?.textContent"
        )
        .await,
        json!("зритель")
    );
    let chat = js(
        &late,
        "return document.querySelector('#chat-rule')?.textContent",
    )
    .await;
    assert!(
        chat.as_str()
            .is_some_and(|c| c.contains("зрители его не читают")),
        "a spectator is told he gets no chat at this table: {chat}"
    );
    assert!(
        js(&late, "return !document.querySelector('#chat-input')").await == json!(true),
        "and is offered no field to write in"
    );
    // Everybody sees the count.
    until(
        &host,
        "the spectator count",
        "return document.querySelector('#spectator-count')?.dataset.count === '1'",
    )
    .await;
    until(
        &late,
        "the spectator's own count",
        "return document.querySelector('#spectator-count')?.dataset.count === '1'",
    )
    .await;
    shot(&late, "ux-02-late-visitor-phone-ru").await;
    shot(&host, "ux-03-playing-desktop-en").await;

    // The turn's sound is off until asked for, and remembered.
    assert_eq!(
        js(&host, "return [document.querySelector('#turn-sound').checked, localStorage.getItem('pref:turn-sound')]").await,
        json!([false, null])
    );
    click(&host, "#turn-sound").await;
    assert_eq!(
        js(&host, "return localStorage.getItem('pref:turn-sound')").await,
        json!("on")
    );
    play_deal(&host).await;
    let player = until(&host, "the player's totals", TOTALS).await;
    let watched = until(&late, "the spectator's totals", TOTALS).await;
    assert_eq!(
        player, watched,
        "the same running totals for a player and a spectator"
    );
    let rule = js(
        &host,
        "return document.querySelector('#score-log .log-line a.rule')?.getAttribute('href')",
    )
    .await;
    let rule = rule.as_str().expect("a rule link").to_owned();
    assert!(rule.starts_with("/guide#r"), "{rule}");
    shot(&host, "ux-04-deal-over-desktop-en").await;
    shot(&late, "ux-05-deal-over-phone-ru").await;

    // Leaving the seat and ending the game ask first; cancelling changes nothing.
    cancel_confirmation(&host, "#leave-seat", true).await;
    cancel_confirmation(&host, "#propose-stop", false).await;
    assert_eq!(
        js(
            &host,
            "const d = document.body.dataset; return [d.phase, d.seat]"
        )
        .await,
        json!(["between_deals", "0"])
    );
    click(&host, "#propose-stop").await;
    until(
        &host,
        "the dialog",
        "return document.querySelector('dialog#confirm')?.open",
    )
    .await;
    shot(&host, "ux-06-confirm-end-desktop-en").await;
    click(&host, "#confirm-ok").await;
    until(
        &host,
        "the game over",
        "return document.body.dataset.phase === 'over' && !!document.querySelector('#rematch')",
    )
    .await;
    until(
        &late,
        "the spectator's game over",
        "return document.body.dataset.phase === 'over'",
    )
    .await;
    // Every finished deal may be analysed once the game is over, from its entry in the log.
    until(
        &late,
        "the deal's analysis link",
        &format!(
            "return document.querySelector(\"#score-log a.deal-analysis[data-deal='0']\")?.getAttribute('href') === '{table}/analysis/0'"
        ),
    )
    .await;
    assert_eq!(
        js(&late, "return !!document.querySelector('#rematch')").await,
        json!(false),
        "only the host opens a rematch"
    );

    // The rematch: the host lands at the new table in his seat, the bots back in theirs, and
    // with every kept seat back the game starts by itself (nobody presses Start again).
    click(&host, "#rematch").await;
    until(
        &host,
        "the rematch table, started",
        &format!(
            "return location.pathname !== {table:?} && ['playing', 'between_deals'].includes(document.body.dataset.phase) && document.body.dataset.seat === '0'"
        ),
    )
    .await;
    let new = js(&host, "return location.pathname").await;
    let seats = until(
        &host,
        "the rematch's seats",
        "const s = [...document.querySelectorAll('#felt .seat')]; return s.length === 3 && s.map(e => [e.querySelector('.name').textContent, e.querySelector('.badge.bot')?.dataset.level || null]).sort()",
    )
    .await;
    assert_eq!(
        seats,
        json!([["Anna", null], ["Bot 2", "easy"], ["Bot 3", "easy"]])
    );
    assert_eq!(
        js(
            &host,
            "return document.querySelector('#turn-sound').checked"
        )
        .await,
        json!(true),
        "the sound setting is remembered on the next page"
    );
    let link = until(
        &late,
        "the rematch link",
        "return document.querySelector('#rematch-link')?.getAttribute('href')",
    )
    .await;
    assert_eq!(link, new, "the spectator is given the new table's link");
    shot(&late, "ux-07-rematch-open-phone-ru").await;
    shot(&host, "ux-08-rematch-started-desktop-en").await;
    // The other two pictures: the host in Russian, the spectator in English.
    language(&host, "ru").await;
    shot(&host, "ux-09-rematch-started-desktop-ru").await;
    language(&late, "en").await;
    shot(&late, "ux-10-rematch-open-phone-en").await;
    // The rule a sentence links to is marked in the guide, on a phone.
    late.goto(&format!("{base}{rule}")).await.expect("guide");
    let marked = until(
        &late,
        "the rule marked in the guide",
        "return document.querySelector('.g-target')?.textContent",
    )
    .await;
    let id = rule.trim_start_matches("/guide#r").replace('-', ".");
    assert!(
        marked
            .as_str()
            .is_some_and(|m| m.contains(&format!("R{id}")))
            || js(
                &late,
                "return !!document.querySelector('.g-target.g-section')"
            )
            .await
                == json!(true),
        "the rule's first mention, or its chapter's section: {marked}"
    );
    shot(&late, "ux-13-guide-rule-phone-en").await;
    late.goto(&base).await.expect("start page");
    until(
        &late,
        "the start page",
        "return !!document.querySelector('#play-bots')",
    )
    .await;
    shot(&late, "ux-11-start-phone-en").await;
    language(&late, "ru").await;
    shot(&late, "ux-12-start-phone-ru").await;
    let _ = late.close().await;
    let _ = host.close().await;
}
