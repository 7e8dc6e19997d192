//! The scorekeeper in a real browser (Debian's Chromium over chromedriver, as `browser.rs`):
//! `a_short_game_kept_on_a_phone` opens a sheet from the start page on a 390×844 phone,
//! enters a raspasy and a 7♥ in taps, is refused an impossible entry with the rule's words,
//! checks the paper sheet, corrects the first deal (a watcher on a second browser sees the
//! change live), and downloads the record. Screenshots go to `target/keeper/`.
//! Without the browser the test prints why and passes, except under `CI=true`.

use fantoccini::Client;
use pref_web_tests::{Driver, browser_missing, click, js, until};
use serde_json::{Value, json};

async fn shot(c: &Client, name: &str) {
    pref_web_tests::shot(c, &pref_web_tests::out_dir("keeper"), name).await;
}

/// Taps the chip `value` of the choice `name`.
async fn tap(c: &Client, name: &str, value: &str) {
    click(c, &format!("[data-name='{name}'] [data-value='{value}']")).await;
}

/// Sets seat `seat`'s tricks with one tap on its row 0–10 (the tap redraws the form).
async fn tricks(c: &Client, seat: u8, n: u8) {
    let row = js(c, &format!("return [...document.querySelectorAll(\"[data-name='tricks-{seat}'] [data-value]\")].map(b => b.textContent)")).await;
    assert_eq!(
        row,
        json!(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]),
        "a row of 0–10"
    );
    tap(c, &format!("tricks-{seat}"), &n.to_string()).await;
    until(
        c,
        "the tricks",
        &format!("return Number(document.querySelector('#k-tricks-{seat}').textContent) === {n}"),
    )
    .await;
}

/// Waits for the server's verdict on the draft and returns it: (fits, text).
async fn verdict(c: &Client) -> (bool, String) {
    let v = until(c, "the verdict", "const v = document.querySelector('#k-verdict'); return v && v.textContent ? [v.classList.contains('ok'), v.textContent] : null").await;
    (
        v[0] == json!(true),
        v[1].as_str().unwrap_or_default().to_owned(),
    )
}

async fn deals_shown(c: &Client, n: usize) {
    until(
        c,
        "the deals in the log",
        &format!("return document.querySelectorAll('.k-deal').length === {n}"),
    )
    .await;
}

/// The numbers the paper sheet shows for `seat`: [pool, mountain].
async fn sector(c: &Client, seat: u8) -> Value {
    js(c, &format!("const g = document.querySelector(\".sector[data-seat='{seat}']\"); return [g.querySelector('.pool').textContent, g.querySelector('.mountain').textContent]")).await
}

#[tokio::test]
async fn a_short_game_kept_on_a_phone() {
    if browser_missing() {
        return;
    }
    let base = pref_web_tests::server_with(|_| {}).await;
    let mut driver = Driver::start(&pref_web_tests::out_dir("keeper")).await;
    let phone = driver.browser(true).await;
    phone
        .goto(&format!("{base}/"))
        .await
        .expect("the start page");
    until(
        &phone,
        "the keeper's panel",
        "return !!document.querySelector('#keep-score')",
    )
    .await;
    js(&phone, "['Anna', 'Boris', 'Vera'].forEach((n, i) => { const e = document.querySelector(`#k-name-${i}`); e.value = n; e.dispatchEvent(new Event('input')); })").await;
    click(&phone, "#keep-score").await;
    until(
        &phone,
        "the entry form",
        "return location.pathname.startsWith('/k/') && !!document.querySelector('#k-form')",
    )
    .await;
    let id = js(&phone, "return location.pathname.split('/')[2]").await;
    let id = id.as_str().expect("an id").to_owned();

    // Deal 1, dealt by Anna: all pass, tricks 4–3–3 (the last follows from the others).
    let dealer = js(
        &phone,
        "return document.querySelector('.k-dealer').textContent",
    )
    .await;
    assert!(dealer.as_str().unwrap().contains("Anna"), "{dealer}");
    tap(&phone, "kind", "raspasy").await;
    tricks(&phone, 0, 4).await;
    tricks(&phone, 1, 3).await;
    assert_eq!(
        js(
            &phone,
            "return document.querySelector('#k-tricks-2').textContent"
        )
        .await,
        json!("3")
    );
    assert!(verdict(&phone).await.0);
    click(&phone, "#k-enter").await;
    deals_shown(&phone, 1).await;

    // Deal 2, dealt by Boris (the dealer rotates, R1.3): Boris plays 7♥, Anna whists, Vera
    // passes. Half-whist is offered against 7 but not against 8 (R5.2).
    let dealer = js(
        &phone,
        "return document.querySelector('.k-dealer').textContent",
    )
    .await;
    assert!(dealer.as_str().unwrap().contains("Boris"), "{dealer}");
    tap(&phone, "declarer", "1").await;
    tap(&phone, "level", "8").await;
    let half = "return !!document.querySelector(\"[data-name='whist-0'] [data-value='half']\")";
    assert_eq!(
        js(&phone, half).await,
        json!(false),
        "no half-whist against 8"
    );
    tap(&phone, "level", "7").await;
    assert_eq!(js(&phone, half).await, json!(true), "half-whist against 7");
    tap(&phone, "strain", "H").await;
    // A half-whist stands without play (R5.2): "cards played out" goes off by itself, and
    // back on when the half-whist is taken back.
    let played = "return document.querySelector('#k-played')?.checked";
    tap(&phone, "whist-2", "pass").await;
    tap(&phone, "whist-0", "half").await;
    assert_eq!(
        js(&phone, played).await,
        json!(false),
        "a half-whist is not played out"
    );
    tap(&phone, "whist-0", "whist").await;
    assert_eq!(
        js(&phone, played).await,
        json!(true),
        "a whist is played out"
    );
    tap(&phone, "whist-2", "pass").await;
    // Too many tricks: the server refuses the draft, in words.
    tricks(&phone, 0, 4).await;
    tricks(&phone, 1, 7).await;
    let (fits, why) = verdict(&phone).await;
    // The message counts deals as the form does: this is deal 2.
    assert!(!fits && why.starts_with("deal 2:"), "{why}");
    shot(&phone, "refused").await;
    tricks(&phone, 0, 3).await;
    until(&phone, "the draft fits", "const v = document.querySelector('#k-verdict'); return v.classList.contains('ok') && v.textContent").await;
    click(&phone, "#k-enter").await;
    deals_shown(&phone, 2).await;
    // The paper sheet: Boris 4 in pool (R8.1), the raspasy tricks on the mountain (R8.9).
    assert_eq!(sector(&phone, 1).await, json!(["4", "3"]));
    assert_eq!(sector(&phone, 0).await, json!(["", "4"]));
    let wide = js(
        &phone,
        "return document.documentElement.scrollWidth <= window.innerWidth + 1",
    )
    .await;
    assert_eq!(wide, json!(true), "nothing reaches past the phone's width");
    shot(&phone, "two-deals").await;

    // A watcher with the link sees the sheet, without the keeper's form.
    let watcher = driver.browser(false).await;
    watcher
        .goto(&format!("{base}/k/{id}"))
        .await
        .expect("the sheet");
    deals_shown(&watcher, 2).await;
    assert_eq!(
        js(&watcher, "return !!document.querySelector('#k-form')").await,
        json!(false)
    );

    // The keeper corrects deal 1 to 2–3–5: every watcher sees the mountain change.
    click(&phone, "[data-correct='0']").await;
    until(
        &phone,
        "the correction form",
        "return document.querySelector('#k-cancel')",
    )
    .await;
    tricks(&phone, 0, 2).await;
    assert!(verdict(&phone).await.0);
    click(&phone, "#k-enter").await;
    until(&phone, "the corrected mountain", "const g = document.querySelector(\".sector[data-seat='0'] .mountain\"); return g && g.textContent.endsWith('2')").await;
    until(&watcher, "the watcher's corrected mountain", "const g = document.querySelector(\".sector[data-seat='2'] .mountain\"); return g && g.textContent.endsWith('5')").await;
    let history = js(
        &phone,
        "return [...document.querySelectorAll('#k-history li')].map(l => l.dataset.op)",
    )
    .await;
    assert_eq!(history, json!(["add", "add", "correct"]));
    shot(&phone, "corrected").await;

    // The export: the outcome record of the sheet.
    let record = js(
        &phone,
        "return fetch(document.querySelector('#k-export').href).then(r => r.json())",
    )
    .await;
    assert_eq!(record["format"], "pref-record/1");
    assert_eq!(record["players"], json!(["Anna", "Boris", "Vera"]));
    assert_eq!(
        record["deals"][0]["outcome"],
        json!({"kind": "raspasy", "tricks": [2, 3, 5]})
    );
    assert_eq!(record["deals"][1]["outcome"]["contract"], "7H");
    let _ = watcher.close().await;
    let _ = phone.close().await;
}
