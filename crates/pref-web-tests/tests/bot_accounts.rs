//! Bot accounts in a real browser (Chromium over WebDriver, `docs/bot-api.md`): the host
//! types a bot account's name in his seat panel and keeps a seat for it; the bot, an outside
//! program with its API token, finds the invitation and takes the seat; the host's page then
//! shows that seat with the bots' badge. The start page offers a table for people only.
//! Screenshots go to `target/screenshots/`.
//!
//! Without Chromium the test prints why and passes, except under `CI=true`.

use pref_web_tests::{
    Driver, browser_missing, click, create_table, js, open_start_page, out_dir, server_with, shot,
    until,
};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_invites_a_bot_account_by_name_and_its_seat_shows_the_bots_badge() {
    if browser_missing() {
        return;
    }
    let base = server_with(|c| {
        c.accounts.argon2_memory_kib = 8;
        c.accounts.argon2_iterations = 1;
    })
    .await;
    let dir = out_dir("screenshots");
    let mut driver = Driver::start(&dir).await;
    let host = driver.browser(false).await;
    let owner = driver.browser(true).await;
    // The bot's owner signs up, turns the account into a bot's and makes a token.
    open_start_page(&owner, &base).await;
    let token = js(
        &owner,
        "const post = (p, b) => fetch(p, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(b || {})}).then((r) => r.json());
         return post('/api/accounts', {name: 'Robo', password: 'a long password'})
           .then(() => post('/api/me/bot'))
           .then(() => post('/api/me/tokens', {name: 'web'}))
           .then((made) => made.token);",
    )
    .await;
    let token = token.as_str().expect("a token").to_owned();
    assert!(token.starts_with("prefbot_"), "{token}");

    open_start_page(&host, &base).await;
    assert_eq!(
        js(&host, "return !!document.querySelector('#people-only')").await,
        json!(true),
        "the start page offers a table for people only"
    );
    let invite = create_table(&host).await;
    let id = invite
        .split("/t/")
        .nth(1)
        .and_then(|r| r.split('#').next())
        .expect("the table's id")
        .to_owned();
    click(&host, "#go-table").await;
    until(
        &host,
        "the invitation",
        "const name = document.querySelector('#bot-account');
         const button = document.querySelector(\"button[data-invite-bot='1']\");
         if (!name || !button) return false;
         name.value = 'Robo';
         name.dispatchEvent(new Event('input', { bubbles: true }));
         button.click();
         return true;",
    )
    .await;
    // The bot (any program: here the owner's page) finds the invitation and takes the seat.
    let bearer = format!(
        "{{headers: {{Authorization: 'Bearer {token}', 'Content-Type': 'application/json'}}"
    );
    let found = until(
        &owner,
        "the bot's invitation",
        &format!(
            "return fetch('/api/bot/invitations', {bearer}}}).then((r) => r.json()).then((j) => j.invitations.length && j.invitations[0]);"
        ),
    )
    .await;
    assert_eq!(
        (found["table"].as_str(), found["seat"].as_u64()),
        (Some(id.as_str()), Some(1))
    );
    let seat = js(
        &owner,
        &format!(
            "return fetch('/api/tables/{id}/seats', {{method: 'POST', ...{bearer}}}, body: JSON.stringify({{name: 'x'}})}}).then((r) => r.json());"
        ),
    )
    .await;
    assert_eq!(seat["seat"], json!(1), "{seat}");
    let badge = until(
        &host,
        "the bot account's badge",
        "return [...document.querySelectorAll('#seat-admin li')][1]?.querySelector(\".badge.bot[data-level='account']\")?.textContent",
    )
    .await;
    assert_eq!(badge, json!("bot"));
    shot(&host, &dir, "bot-account-seat").await;
}
