//! `pref analyze` run as a program: the documented example's JSON exactly, the text for
//! people, outcome-form deals reported as not analysable, and bad input refused with one
//! line on stderr and nothing on stdout.
#![allow(missing_docs)]

mod common;

use common::{path, pref, records};

use serde_json::Value;

/// The example of `docs/analysis.md`: the misère record, every card and the auction.
#[test]
fn the_misere_example_prints_the_documented_json_exactly() {
    let (code, out, err) = pref(&["analyze", "--json", &path("misere.json")]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    let expected = std::fs::read_to_string(records().join("misere.analysis.out.json")).unwrap();
    assert_eq!(out, expected);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["format"], "pref-analysis/1");
    let deal = &v["deals"][0];
    // R6.5, R8.8: the record's misère took 4 tricks; the last card's value is that.
    assert_eq!(deal["tricks"], serde_json::json!([4, 5, 1]));
    let cards = deal["cards"].as_array().unwrap();
    assert_eq!(cards.len(), 30);
    assert_eq!(cards[29]["after"], 4);
    assert_eq!(cards[0]["before"], deal["par"]["tricks"]);
    let mistakes = cards.iter().filter(|c| c["cost"] != 0).count();
    assert_eq!(deal["mistakes"], mistakes);
}

#[test]
fn the_worked_deal_for_people() {
    let (code, out, err) = pref(&["analyze", &path("worked-deal.json")]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert!(out.starts_with("Deal 1, C deals: A plays 7♥"), "{out}");
    assert!(out.contains("Par: A takes 7 against best defence; the defence holds 3."));
    assert_eq!(out.matches("  trick ").count(), 30);
    assert!(out.ends_with("0 cards cost tricks (0 in all).\n"), "{out}");
}

/// Outcome-form deals have no cards: each is reported, and the command still succeeds.
#[test]
fn outcome_form_deals_are_reported_as_not_analysable() {
    let (code, out, err) = pref(&["analyze", "--json", &path("spec-replay.json")]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    let v: Value = serde_json::from_str(&out).unwrap();
    let deals = v["deals"].as_array().unwrap();
    assert_eq!(deals.len(), 6);
    for (i, d) in deals.iter().enumerate() {
        assert_eq!(d["deal"], i);
        assert_eq!(d["analysable"], false);
        assert_eq!(
            d["reason"],
            "recorded by its outcome only (no hands, no cards): nothing to analyse"
        );
    }
    let (code, out, _) = pref(&["analyze", &path("spec-replay.json")]);
    assert_eq!(code, Some(0));
    assert!(
        out.starts_with("Deal 1: recorded by its outcome only"),
        "{out}"
    );
}

/// One deal asked for that cannot be analysed, a deal that does not exist, a record the
/// rules refuse: status 2, one line on stderr, nothing on stdout.
#[test]
fn bad_requests_print_one_line_and_nothing_else() {
    for (args, line) in [
        (
            vec!["analyze", "--deal", "2", "spec-replay.json"],
            "deal 2: recorded by its outcome only (no hands, no cards): nothing to analyse",
        ),
        (
            vec!["analyze", "--json", "--deal", "7", "worked-deal.json"],
            "deal 7: no such deal: the record has 1 (0 to 0)",
        ),
        (
            vec!["analyze", "bad/card-not-held.json"],
            "deal 0, action 13: seat 0 does not hold ♠A",
        ),
    ] {
        let file = path(args[args.len() - 1]);
        let mut args = args.clone();
        *args.last_mut().unwrap() = &file;
        let (code, out, err) = pref(&args);
        assert_eq!((code, out.as_str()), (Some(2), ""), "{args:?}");
        assert_eq!(err, format!("{line}\n"), "{args:?}");
    }
}

/// Every played deal of the small records (three and four players, raspasy, open
/// defence, half-whists): the values chain from the par to the tricks taken.
#[test]
fn played_records_analyse_and_end_on_the_tricks_taken() {
    for name in [
        "worked-deal.json",
        "raspasy.json",
        "misere.json",
        "half-whist-standing.json",
        "half-whist-returned.json",
        "open-defence.json",
        "four-players-dealer-whist.json",
        "agreed-stop.json",
    ] {
        let (code, out, err) = pref(&["analyze", "--json", &path(name)]);
        assert_eq!((code, err.as_str()), (Some(0), ""), "{name}");
        let v: Value = serde_json::from_str(&out).unwrap();
        for d in v["deals"].as_array().unwrap() {
            assert_eq!(d["analysable"], true, "{name}");
            let cards = d["cards"].as_array().unwrap();
            let Some(last) = cards.last() else {
                assert!(d["tricks"].is_null(), "{name}: no card, no tricks");
                continue;
            };
            let counted = last["counted"].as_u64().unwrap() as usize;
            assert_eq!(last["after"], d["tricks"][counted], "{name}");
            for pair in cards.windows(2) {
                if pair[0]["counted"] == pair[1]["counted"] && d["kind"] != "raspasy" {
                    assert_eq!(pair[0]["after"], pair[1]["before"], "{name}");
                }
            }
            // In open defence the whister chooses both defenders' cards.
            if d["defence"] == "open" {
                let whister = (0..3).find(|&s| d["whist"][s] == "whist").unwrap();
                for c in cards.iter().filter(|c| c["seat"] != d["declarer"]) {
                    assert_eq!(c["by"], whister, "{name}");
                }
            }
        }
    }
}
