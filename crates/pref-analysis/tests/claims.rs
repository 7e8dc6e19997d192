//! A deal ended by a claim all accepted (R6.7), weighed against open-hand play from the
//! claim's trick boundary: the worked deal (A plays 7♥ against B and C) with a claim after
//! its second trick, when A holds ♥QJT ♦AK ♠7 ♣98 and trumps are out.
#![allow(missing_docs)]

use pref_analysis::{Analyser, Parts, Side, json};
use pref_core::{Claim, Record, Seat};
use serde_json::{Value, json};

/// The worked deal's record as JSON.
fn worked() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/records/worked-deal.json"
    ))
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The worked deal cut after `plays` cards, then the claim `claim` by `claimer` and its
/// answers (the others clockwise from his left, each `answers`).
fn with_claim(plays: usize, claimer: u8, claim: [u8; 3], answer: &str) -> Record {
    let mut v = worked();
    let actions = v["deals"][0]["actions"].as_array_mut().unwrap();
    let first_play = actions
        .iter()
        .position(|a| a.get("play").is_some())
        .unwrap();
    actions.truncate(first_play + plays);
    actions.push(json!({"seat": claimer, "claim": claim}));
    for k in 1..3 {
        actions.push(json!({"seat": (claimer + k) % 3, "answer": answer}));
    }
    Record::from_json_str(&v.to_string()).unwrap_or_else(|e| panic!("{e}"))
}

fn analysed(record: &Record) -> pref_analysis::DealAnalysis {
    let parts = Parts {
        play: true,
        auction: false,
    };
    let mut deals = Analyser::new().record(record, Some(0), parts).unwrap();
    deals.pop().unwrap().unwrap()
}

/// After two tricks A has five sure tricks left (three trumps, ♦A, ♦K) and three losers
/// (♠7, ♣9, ♣8): 7 in all with best play. Claiming all eight gives him the three tricks the
/// defence would have taken: the defence is short by three.
#[test]
fn r6_7_a_claim_of_every_trick_gives_the_defence_fewer_than_open_hand_play() {
    let a = analysed(&with_claim(6, 0, [8, 0, 0], "accept"));
    let c = a.claim.expect("the deal ended by a claim");
    assert_eq!(c.seat, Seat(0));
    assert_eq!(c.claim, Claim::new(&[8, 0, 0]).unwrap());
    assert_eq!(c.trick, 2);
    assert_eq!(c.declarer, Seat(0));
    assert_eq!(c.claimed, 10);
    assert_eq!(c.open_hand, 7);
    assert_eq!(c.fewer, Some((Side::Defence, 3)));
    assert_eq!(a.outcome.tricks.unwrap()[..3], [10, 0, 0]);
    let doc = json::deal(&a);
    assert_eq!(
        doc["claim"],
        json!({"seat": 0, "claim": [8, 0, 0], "trick": 2, "declarer": 0, "claimed": 10,
               "open_hand": 7, "fewer": {"side": "defence", "tricks": 3}})
    );
}

/// The same boundary: a claim of exactly what best play gives costs nobody a trick; a claim
/// of one fewer for the declarer, made by a defender, costs the declarer one.
#[test]
fn r6_7_an_exact_claim_costs_nothing_and_a_short_one_costs_the_declarer() {
    let exact = analysed(&with_claim(6, 0, [5, 2, 1], "accept"))
        .claim
        .unwrap();
    assert_eq!((exact.claimed, exact.open_hand, exact.fewer), (7, 7, None));
    let short = analysed(&with_claim(6, 1, [4, 2, 2], "accept"))
        .claim
        .unwrap();
    assert_eq!(short.seat, Seat(1));
    assert_eq!(short.declarer, Seat(0));
    assert_eq!((short.claimed, short.open_hand), (6, 7));
    assert_eq!(short.fewer, Some((Side::Declarer, 1)));
    assert_eq!(
        json::deal(&analysed(&with_claim(6, 1, [4, 2, 2], "accept")))["claim"]["fewer"],
        json!({"side": "declarer", "tricks": 1})
    );
}

/// A rejected claim is no claim for the analysis: the deal played on to its end.
#[test]
fn r6_7_a_rejected_claim_leaves_no_claim_in_the_analysis() {
    let mut v = worked();
    let actions = v["deals"][0]["actions"].as_array_mut().unwrap();
    let at = actions
        .iter()
        .position(|a| a.get("play").is_some())
        .unwrap()
        + 6;
    actions.insert(at, json!({"seat": 2, "answer": "reject"}));
    actions.insert(at, json!({"seat": 1, "answer": "accept"}));
    actions.insert(at, json!({"seat": 0, "claim": [8, 0, 0]}));
    let a = analysed(&Record::from_json_str(&v.to_string()).unwrap());
    assert_eq!(a.claim, None);
    assert!(json::deal(&a).get("claim").is_none());
    assert_eq!(a.cards.len(), 30);
}
