//! The invite link in a real browser (Chromium over WebDriver): a guest who opens it is
//! seated by its key, but the page takes the key out of the address bar (and so out of the
//! browser's history) as soon as it has read it; the host's page still shows the link. A
//! visitor by the watch link is told how seats are taken, and offered none.
//!
//! Without Chromium the test prints why and passes, except under `CI=true`.

use pref_web_tests::{
    Driver, browser_missing, create_table, js, open_start_page, out_dir, server_with, sit, until,
};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_invite_key_leaves_the_address_bar_once_the_page_has_read_it() {
    if browser_missing() {
        return;
    }
    let base = server_with(|_| {}).await;
    let mut driver = Driver::start(&out_dir("screenshots")).await;
    let host = driver.browser(false).await;
    let guest = driver.browser(true).await;
    open_start_page(&host, &base).await;
    let invite = create_table(&host).await;
    assert!(invite.contains("#invite="), "{invite}");
    guest.goto(&invite).await.expect("invite opens");
    until(
        &guest,
        "the lobby",
        "return !!document.querySelector('#name')",
    )
    .await;
    let shown = js(&guest, "return location.href").await;
    let path = invite.split('#').next().unwrap();
    assert_eq!(shown, json!(path), "the address bar still shows the key");
    // The key was kept where the page needs it: the guest sits down by it.
    sit(&guest, path, "Boris").await;
    // The host's page still has the whole link to hand out.
    let link = js(
        &host,
        "return document.querySelector('#link-invite')?.value",
    )
    .await;
    assert_eq!(link, json!(invite));
    // A visitor by the watch link has no way to sit: he is told how seats are taken, and is
    // offered no seat.
    let watch = js(&host, "return document.querySelector('#link-watch')?.value").await;
    let visitor = driver.browser(true).await;
    visitor
        .goto(watch.as_str().expect("the watch link"))
        .await
        .expect("watch link opens");
    let seen = until(
        &visitor,
        "the watcher's lobby",
        "const h = document.querySelector('#lobby-hint'); return h && [document.querySelector('#lobby h1').textContent, h.textContent, document.querySelectorAll('button[data-take]').length]",
    )
    .await;
    assert_eq!(
        seen,
        json!([
            "The table before the game",
            "You are watching by the spectator link. Seats are taken by the invite link, which the host hands to the players.",
            0
        ])
    );
}
