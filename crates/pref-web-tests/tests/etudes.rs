//! The études page in the browser: the start page's day's étude opens it; an étude is solved
//! card by card against the solver's replies (R6.4: the misère declarer made to take a
//! trick), and a wrong first card ends the attempt with the defence's refutation.

use pref_web_tests::*;
use serde_json::json;

/// The server's verdict on the player's `cards` for étude `id`, asked from the page as the
/// page itself asks (a probe: which card keeps the goal).
async fn status_after(c: &fantoccini::Client, id: &str, cards: &[String]) -> String {
    let body = json!({ "cards": cards }).to_string();
    let v = js(
        c,
        &format!(
            "const x = new XMLHttpRequest(); x.open('POST', '/api/etudes/{id}/attempt', false); x.setRequestHeader('Content-Type', 'application/json'); x.send({body:?}); return JSON.parse(x.responseText).status"
        ),
    )
    .await;
    v.as_str().unwrap_or_default().to_owned()
}

/// Clicks the card `card` and waits for the page to draw the answer.
async fn play(c: &fantoccini::Client, hand: u64, card: &str) {
    let drawn = js(c, "return document.body.dataset.drawn").await;
    click(c, &format!("#etude-hand-{hand} button[data-card='{card}']")).await;
    until(
        c,
        "the solver's answer",
        &format!("return document.body.dataset.drawn !== {drawn}"),
    )
    .await;
}

fn server() -> impl std::future::Future<Output = String> {
    server_with(|c| {
        // The probes below ask many times.
        c.limits.etude_requests_per_ip_per_minute = 10_000;
        c.limits.etude_request_burst_per_ip = 1_000;
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_etude_is_solved_against_the_solver_and_a_wrong_card_is_refuted() {
    if browser_missing() {
        return;
    }
    let base = server().await;
    let dir = out_dir("screenshots");
    let mut driver = Driver::start(&dir).await;
    let c = driver.browser(true).await;
    // The start page names the day's étude and opens it.
    c.goto(&base).await.expect("start page");
    click(&c, "#daily-etude").await;
    let daily = until(
        &c,
        "the day's étude",
        "return document.querySelector('#etude')?.dataset.id",
    )
    .await;
    assert!(
        ["m1", "m2", "m3", "m4", "m5"].contains(&daily.as_str().unwrap_or_default()),
        "{daily}"
    );

    // m1: the defenders (players 1 and 2) must catch player 3's misère; the queen of
    // diamonds is the one lead that does.
    c.goto(&format!("{base}/etudes?e=m1")).await.expect("étude");
    until(
        &c,
        "the étude",
        "return document.querySelector('#etude-verdict')?.dataset.status === 'playing'",
    )
    .await;
    let goal = js(
        &c,
        "return document.querySelector('#etude-goal').textContent",
    )
    .await;
    assert!(
        goal.as_str()
            .unwrap_or_default()
            .starts_with("Catch the misère"),
        "{goal}"
    );
    shot(&c, &dir, "etude-start").await;
    let mut mine = vec!["QD".to_owned()];
    play(&c, 0, "QD").await;
    for _ in 0..12 {
        let state = js(
            &c,
            "const v = document.querySelector('#etude-verdict'); const h = document.querySelector('.etude-hand.turn'); return [v.dataset.status, h ? h.id : '', h ? [...h.querySelectorAll('button[data-card]')].map((b) => b.dataset.card) : []]",
        )
        .await;
        if state[0] == json!("solved") {
            break;
        }
        assert_eq!(state[0], json!("playing"), "{state}");
        let hand: u64 = state[1]
            .as_str()
            .and_then(|s| s.strip_prefix("etude-hand-"))
            .and_then(|s| s.parse().ok())
            .expect("the hand to play");
        let mut keep = None;
        for card in state[2].as_array().into_iter().flatten() {
            let card = card.as_str().unwrap_or_default().to_owned();
            let mut more = mine.clone();
            more.push(card.clone());
            if status_after(&c, "m1", &more).await != "lost" {
                keep = Some(card);
                break;
            }
        }
        let keep = keep.expect("a card that keeps the goal");
        mine.push(keep.clone());
        play(&c, hand, &keep).await;
    }
    let verdict = js(
        &c,
        "const v = document.querySelector('#etude-verdict'); return [v.dataset.status, v.textContent]",
    )
    .await;
    assert_eq!(verdict[0], json!("solved"), "{verdict}");
    assert!(
        verdict[1]
            .as_str()
            .unwrap_or_default()
            .starts_with("Solved!"),
        "{verdict}"
    );
    let tricks = js(
        &c,
        "return document.querySelector('.etude-tricks').textContent",
    )
    .await;
    assert_ne!(tricks, json!("Declarer's tricks: 0"));
    shot(&c, &dir, "etude-solved").await;

    // Again, with the nine of spades: best play then leaves the declarer without a trick.
    let drawn = js(&c, "return document.body.dataset.drawn").await;
    click(&c, "#etude-again").await;
    until(
        &c,
        "the étude again",
        &format!("return document.body.dataset.drawn !== {drawn} && document.querySelector('#etude-verdict').dataset.status === 'playing'"),
    )
    .await;
    play(&c, 0, "9S").await;
    let verdict = js(
        &c,
        "const v = document.querySelector('#etude-verdict'); return [v.dataset.status, v.textContent, v.querySelectorAll('[data-card]').length, document.querySelectorAll('button[data-card]').length]",
    )
    .await;
    assert_eq!(verdict[0], json!("lost"), "{verdict}");
    let text = verdict[1].as_str().unwrap_or_default();
    assert!(
        text.starts_with("This card loses: after") && text.contains("best play continues"),
        "{text}"
    );
    // The losing card and six cards of the refutation; no card may be played any more.
    assert_eq!(verdict[2], json!(7), "{verdict}");
    assert_eq!(verdict[3], json!(0), "{verdict}");
    shot(&c, &dir, "etude-lost").await;
}
