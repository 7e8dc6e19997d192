//! Numbers agree with their words in every language: the page's own `t()` (`web/js/i18n.js`)
//! picks the plural form `{n|one:…;few:…;many:…;other:…}` by the language's plural rules
//! (`Intl.PluralRules`), so the score log says "1 trick" and "2 tricks", and Russian
//! "1 взятку", "2 взятки", "5 взяток".
//!
//! Without the browser the test prints why and passes, except under `CI=true`.

use pref_web_tests::{Driver, browser_missing, open_start_page, out_dir, server_with};
use serde_json::{Value, json};

/// Formats `key` with `vars` in language `code`, in the page, through its own module.
const FORMAT: &str = "const [code, key, vars, done] = arguments;
  import('/js/i18n.js').then(async (m) => {
    await m.use(code, false);
    done(m.t(key, vars));
  }).catch((e) => done(`error: ${e}`));";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn numbers_agree_with_their_words_in_every_language() {
    if browser_missing() {
        return;
    }
    let base = server_with(|_| {}).await;
    let mut driver = Driver::start(&out_dir("screenshots")).await;
    let page = driver.browser(false).await;
    open_start_page(&page, &base).await;
    let cases: [(&str, &str, Value, &str); 14] = [
        (
            "en",
            "log.why.trick_whists",
            json!({"tricks": 1, "contract": "6♠"}),
            "whists for 1 trick against 6♠",
        ),
        (
            "en",
            "log.why.trick_whists",
            json!({"tricks": 2, "contract": "6♠"}),
            "whists for 2 tricks against 6♠",
        ),
        ("en", "auction.calls", json!({"n": 1}), "(1 call)"),
        ("en", "auction.calls", json!({"n": 3}), "(3 calls)"),
        (
            "ru",
            "log.why.trick_whists",
            json!({"tricks": 1, "contract": "6♠"}),
            "висты за 1 взятку против 6♠",
        ),
        (
            "ru",
            "log.why.trick_whists",
            json!({"tricks": 3, "contract": "6♠"}),
            "висты за 3 взятки против 6♠",
        ),
        (
            "ru",
            "log.why.trick_whists",
            json!({"tricks": 5, "contract": "6♠"}),
            "висты за 5 взяток против 6♠",
        ),
        (
            "ru",
            "log.why.misere_failed",
            json!({"tricks": 1}),
            "мизер с 1 взяткой",
        ),
        (
            "fr",
            "log.why.misere_failed",
            json!({"tricks": 1}),
            "misère avec 1 pli",
        ),
        (
            "pt",
            "claim.help",
            json!({"left": 1}),
            "Falta 1 vaza: como cai?",
        ),
        (
            "it",
            "claim.help",
            json!({"left": 4}),
            "Restano 4 prese: come cadono?",
        ),
        // The examples: "4 вистов на Анна", "2 очк.", French "1 plis".
        (
            "ru",
            "log.col.whists",
            json!({"n": 4, "on": "Анна"}),
            "4 виста на игрока Анна",
        ),
        (
            "ru",
            "log.why.help",
            json!({"points": 2, "earner": "Анна"}),
            "помощь: 2 очка игрока Анна сверх пули",
        ),
        ("fr", "seat.tricks_n", json!({"n": 1}), "1 pli"),
    ];
    for (code, key, vars, want) in cases {
        let got = page
            .execute_async(FORMAT, vec![json!(code), json!(key), vars.clone()])
            .await
            .expect("the page formats");
        assert_eq!(got, json!(want), "{code} {key} {vars}");
    }
}
