//! Game records with dark games and the no-talon calls (`docs/game-record.md`): a dark call
//! is a `bid` with `"dark": true`, the look is `"look": true`, MWT and 9WT are the bids
//! `misere_no_talon` and `nine_no_talon`, and the outcome form has `dark` and `no_talon` —
//! written and read back the same, refused where the rules or the profile refuse them.
#![allow(missing_docs)]

mod common;

use common::{bid, cards, worked_hands};
use pref_core::{Action, Bid, Call, Game, Record, Seat};
use serde_json::json;

const MWT: Action = Action::Bid(Call::Bid(Bid::MISERE_NO_TALON));
const NWT: Action = Action::Bid(Call::Bid(Bid::NINE_NO_TALON));

fn dark(s: &str) -> Action {
    Action::Dark(s.parse().unwrap())
}

/// Plays the rest of the deal in progress with the first legal action each time.
fn finish(g: &mut Game) {
    while let Some(d) = g.deal() {
        let s = d.turn().unwrap();
        let a = d.legal_actions(s).get(0).unwrap();
        g.apply(s, a).unwrap();
    }
}

/// Three deals with both options: a dark misère without talon (examples 11), a look and a
/// dark six (example 5), and a nine without talon held with *here* (example 10).
fn house_game() -> Game {
    let p = common::profile(json!({
        "preset": "sochi", "dark_games": true, "misere_without_talon": true
    }));
    let mut g = Game::new(p, Seat(2)).unwrap();
    let talon = cards(common::WORKED_TALON);
    let mut hands = worked_hands();
    let auctions: [Vec<(u8, Action)>; 3] = [
        vec![
            (0, dark("misere")),
            (1, bid("9S")),
            (2, bid("pass")),
            (0, MWT),
            (1, bid("pass")),
        ],
        vec![
            (2, Action::Look),
            (1, dark("6S")),
            (2, bid("pass")),
            (0, dark("6C")),
            (1, bid("6C")),
            (0, bid("pass")),
        ],
        vec![
            (2, bid("misere")),
            (0, bid("9S")),
            (1, bid("9C")),
            (2, bid("pass")),
            (0, bid("9D")),
            (1, NWT),
            (0, NWT),
            (1, bid("pass")),
        ],
    ];
    for auction in auctions {
        g.start_deal_from_hands(&hands, &talon).unwrap();
        for (s, a) in auction {
            g.apply(Seat(s), a)
                .unwrap_or_else(|e| panic!("{a} by {s}: {e}"));
        }
        finish(&mut g);
        hands.rotate_right(1);
    }
    g
}

#[test]
fn dark_calls_looks_and_no_talon_calls_write_and_read_back() {
    let g = house_game();
    let names = ["A", "B", "C"].map(str::to_owned);
    let r = Record::from_game(&g, &names).unwrap();
    let text = r.to_json_string();
    for needle in [
        r#""bid": "misere", "dark": true"#,
        r#""look": true"#,
        r#""bid": "misere_no_talon""#,
        r#""bid": "nine_no_talon""#,
    ] {
        assert!(
            text.replace(['\n'], " ").contains(needle)
                || text.replace(": ", ":").contains(&needle.replace(": ", ":")),
            "{needle} in {text}"
        );
    }
    let (again, replayed) = Record::read(&text).unwrap();
    assert_eq!(again, r);
    assert_eq!(replayed.sheet(), g.sheet());
    assert_eq!(again.to_json_string(), text);
    // The first deal is dark (×2) and a misère without talon; the second dark (B's first
    // call), the third a nine without talon, not dark.
    let outcomes: Vec<(bool, bool)> = g
        .history()
        .iter()
        .map(|e| {
            let o = e.outcome().unwrap();
            (o.dark, o.no_talon)
        })
        .collect();
    assert_eq!(outcomes, [(true, true), (true, false), (false, true)]);
}

fn outcome_record(profile: serde_json::Value, outcome: serde_json::Value) -> String {
    json!({
        "format": "pref-record/1", "profile": profile, "players": ["A", "B", "C"],
        "first_dealer": 2, "deals": [{"outcome": outcome}]
    })
    .to_string()
}

#[test]
fn outcome_form_dark_and_no_talon_read_where_the_options_are_on() {
    let both = json!({"preset": "sochi", "dark_games": true, "misere_without_talon": true});
    let (_, g) = Record::read(&outcome_record(
        both.clone(),
        json!({"kind": "misere", "declarer": 0, "tricks": [0, 6, 4], "no_talon": true}),
    ))
    .unwrap();
    assert_eq!(g.sheet().pool(), [10, 0, 0]);
    let (_, g) = Record::read(&outcome_record(
        both.clone(),
        json!({"kind": "game", "declarer": 0, "contract": "7H", "dark": true,
               "whist": [null, "whist", "whist"], "tricks": [7, 2, 1]}),
    ))
    .unwrap();
    assert_eq!(g.sheet().pool(), [8, 0, 0]);
    // `false` is the same as leaving the field out.
    let (_, g) = Record::read(&outcome_record(
        both.clone(),
        json!({"kind": "game", "declarer": 0, "contract": "7H", "dark": false, "no_talon": false,
               "whist": [null, "whist", "whist"], "tricks": [7, 2, 1]}),
    ))
    .unwrap();
    assert_eq!(g.sheet().pool(), [4, 0, 0]);
    // Written back, a dark outcome keeps its field.
    let (r, _) = Record::read(&outcome_record(
        both.clone(),
        json!({"kind": "game", "declarer": 1, "contract": "9H", "no_talon": true,
               "whist": ["pass", null, "whist"], "defence": "closed", "tricks": [0, 9, 1]}),
    ))
    .unwrap();
    assert!(r.to_json_string().contains("\"no_talon\": true"));
    // Never dark on raspasy; a 9WT names a nine.
    for bad in [
        json!({"kind": "raspasy", "tricks": [0, 5, 5], "dark": true}),
        json!({"kind": "game", "declarer": 1, "contract": "10H", "no_talon": true,
               "whist": ["pass", null, "whist"], "tricks": [0, 10, 0]}),
        json!({"kind": "surrender", "declarer": 0, "bid": "7S", "no_talon": true}),
        json!({"kind": "game", "declarer": 0, "contract": "7H", "dark": "yes",
               "whist": [null, "whist", "whist"], "tricks": [7, 2, 1]}),
    ] {
        assert!(
            Record::read(&outcome_record(both.clone(), bad.clone())).is_err(),
            "{bad}"
        );
    }
    // At a table without the options they are unknown keys.
    let e = Record::read(&outcome_record(
        json!("sochi"),
        json!({"kind": "misere", "declarer": 0, "tricks": [0, 6, 4], "no_talon": true}),
    ))
    .unwrap_err();
    assert!(e.to_string().contains("no_talon"), "{e}");
}

fn played_record(profile: serde_json::Value, actions: serde_json::Value) -> String {
    let hands: Vec<Vec<String>> = worked_hands()
        .iter()
        .map(|h| h.iter().map(ToString::to_string).collect())
        .collect();
    let talon: Vec<String> = cards(common::WORKED_TALON)
        .iter()
        .map(ToString::to_string)
        .collect();
    json!({
        "format": "pref-record/1", "profile": profile, "players": ["A", "B", "C"],
        "first_dealer": 2, "deals": [{"hands": hands, "talon": talon, "actions": actions}]
    })
    .to_string()
}

#[test]
fn r3_9_dark_is_refused_off_a_bid_after_a_look_or_without_the_option() {
    let dark_on = json!({"preset": "sochi", "dark_games": true});
    let cases = [
        (
            dark_on.clone(),
            json!([{"seat": 0, "bid": "6S", "dark": false}]),
            "action 0",
        ),
        (
            dark_on.clone(),
            json!([{"seat": 0, "look": true, "dark": true}]),
            "action 0",
        ),
        (
            dark_on.clone(),
            json!([{"seat": 0, "look": true}, {"seat": 0, "bid": "6S", "dark": true}]),
            "deal 0, action 1: seat 0 has looked at his hand or already called",
        ),
        (
            json!("sochi"),
            json!([{"seat": 0, "bid": "6S", "dark": true}]),
            "dark games are not played",
        ),
        (
            json!("sochi"),
            json!([{"seat": 1, "look": true}]),
            "dark games are not played",
        ),
    ];
    for (profile, actions, needle) in cases {
        let e = Record::read(&played_record(profile, actions.clone())).unwrap_err();
        assert!(e.to_string().contains(needle), "{actions}: {e}");
    }
}

/// `tests/records/dark-no-talon.json` is this game's record, for `pref replay` and the
/// record corpus: it stays what the core writes.
#[test]
fn the_dark_no_talon_fixture_is_the_house_games_record() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/records/dark-no-talon.json"
    );
    let names = ["A", "B", "C"].map(str::to_owned);
    let text = Record::from_game(&house_game(), &names)
        .unwrap()
        .to_json_string();
    if std::env::var_os("PREF_WRITE_FIXTURE").is_some() {
        std::fs::write(path, &text).unwrap();
    }
    assert_eq!(std::fs::read_to_string(path).unwrap(), text);
}
