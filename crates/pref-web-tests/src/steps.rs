//! Steps the browser tests share at a table's door: creating a table from the start page,
//! taking a seat by the invite link, watching by the spectator link, seating a bot from the
//! host's panel.

use fantoccini::{Client, Locator};

use crate::{click, type_into, until};

/// Creates a table from the start page with the options chosen; returns the invite link.
///
/// # Panics
/// If the page does not show the link in time.
pub async fn create_table(c: &Client) -> String {
    click(c, "#create").await;
    let invite = until(
        c,
        "the invite link",
        "return document.querySelector('#link-invite')?.value",
    )
    .await;
    invite.as_str().expect("link").to_owned()
}

/// Takes a seat by the invite link under `name`.
///
/// # Panics
/// If the lobby or the seat does not come in time.
pub async fn sit(c: &Client, invite: &str, name: &str) {
    c.goto(invite).await.expect("invite opens");
    until(c, "the lobby", "return !!document.querySelector('#name')").await;
    type_into(c, "#name", name).await;
    click(c, "button[data-take]").await;
    until(
        c,
        "a seat",
        "return document.body.dataset.seat && document.body.dataset.seat !== 'spectator'",
    )
    .await;
}

/// Opens a table's spectator link and waits to be shown the table as a spectator.
///
/// # Panics
/// If the page does not get there in time.
pub async fn watch(c: &Client, link: &str) {
    c.goto(link).await.expect("spectator link");
    until(
        c,
        "the spectator's lobby",
        "return document.body.dataset.seat === 'spectator'",
    )
    .await;
}

/// Picks `level` in the host's bot panel and seats a bot in `seat`.
///
/// # Panics
/// If the panel or the bot does not come in time.
pub async fn seat_bot(c: &Client, seat: u8, level: &str) {
    // The level and the click in one script: an item that redraws the panel between a
    // WebDriver lookup and its use would leave a stale element or reset the level.
    let level = serde_json::to_string(level).expect("a string");
    until(
        c,
        "the bot panel",
        &format!(
            "const picker = document.querySelector('#bot-level');
             const button = document.querySelector(\"button[data-bot='{seat}']:not([disabled])\");
             if (!picker || !button) return false;
             picker.value = {level};
             picker.dispatchEvent(new Event('change', {{ bubbles: true }}));
             button.click();
             return true;"
        ),
    )
    .await;
    until(
        c,
        "the bot in its seat",
        &format!(
            "return [...document.querySelectorAll('#seat-admin li')][{seat}]?.querySelector('.badge.bot')"
        ),
    )
    .await;
}

/// From the start page with the options chosen: creates the table, sits `name` in seat 0,
/// seats two bots of `level` and starts the game, waiting for the table to play.
///
/// # Panics
/// When a step does not happen within the wait.
pub async fn play_against_bots(c: &Client, name: &str, level: &str) {
    let invite = create_table(c).await;
    sit(c, &invite, name).await;
    seat_bot(c, 1, level).await;
    seat_bot(c, 2, level).await;
    click(c, "#start-game:not([disabled])").await;
    until(
        c,
        "the table",
        "return document.body.dataset.phase === 'playing'",
    )
    .await;
}

/// A server whose bots answer at once, for the tests that play against them.
///
/// # Panics
/// If it cannot start.
pub async fn fast_bots_server() -> String {
    crate::server_with(|c| {
        c.limits.bot_delay_min_ms = pref_server::config::Millis(0);
        c.limits.bot_delay_max_ms = pref_server::config::Millis(0);
    })
    .await
}

/// Plays the page's player's turns with [`crate::step`] until the shown deal is finished
/// (or the game is over).
///
/// # Panics
/// If the deal does not finish within five minutes.
pub async fn play_own_deal(c: &Client) {
    use serde_json::json;
    use std::time::{Duration, Instant};
    const TURN: &str = "const d = document.body.dataset; return [d.myturn || '', d.stage || '', d.version || '', d.phase || '']";
    let (mut bid_made, mut whists) = (false, 0);
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        assert!(Instant::now() < deadline, "the deal did not finish");
        let v = crate::js(c, TURN).await;
        if v[1] == json!("finished") || v[3] == json!("between_deals") || v[3] == json!("over") {
            return;
        }
        if v[0] == json!("true") {
            let stage = v[1].as_str().unwrap_or_default().to_owned();
            let version = v[2].as_str().unwrap_or_default().to_owned();
            crate::step(c, &stage, &mut bid_made, &mut whists).await;
            crate::past(c, &version).await;
        } else {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// Picks language `code` in the page's language picker and waits for the page to be in it.
///
/// # Panics
/// If the picker is missing or the page does not switch in time.
pub async fn language(c: &Client, code: &str) {
    c.find(Locator::Css("#lang"))
        .await
        .expect("language picker")
        .select_by_value(code)
        .await
        .expect("a language");
    until(
        c,
        "the language",
        &format!("return document.documentElement.lang === {code:?}"),
    )
    .await;
}
