//! `pref verify` run as a program (`docs/fairness.md`): the fair-deals record verifies with
//! one line per deal; a copy tampered in any deal's seed, commitment, deck, contribution,
//! lateness mark, hand or played card fails at that deal with one line on stderr and exit
//! status 2, as `pref replay` does; a record without fairness data cannot be verified. The
//! record is `pref-fair/2`: two of its deals swapped, or a deal of another table spliced in,
//! fail; the `pref-fair/1` record verifies as before.
#![allow(missing_docs)]

mod common;

use std::path::{Path, PathBuf};

use serde_json::Value;

use common::{pref, records};

/// Runs `pref verify FILE`: exit status, stdout, stderr.
fn verify(file: &Path) -> (Option<i32>, String, String) {
    pref(&["verify", &file.to_string_lossy()])
}

const VERIFIED: &str = "\
deal 0: verified 9cfa13935fb587eb1b34413541d44cd6b8996707ee9352b7402caeb30a4a44aa: server seed + seats 0, 1; seat 2 late, not in the deck
deal 1: verified dd4ebf0cd00d3815d7cc78459966983ed3914c23016c8819bf9f9cef273962ca: server seed alone
deal 2: verified e0c876966cd14c2797098be8306c985ad4aa208ea64b9f424f049deb3d69c683: server seed + seats 0, 1, 2
deal 3: verified 949eea640b012dd5e60e1d22abdf59651129099e297b709a9780d59673966f4c: server seed + seat 1; seat 0 late, not in the deck
";

/// `fair-deals-v1.json`, the same four deals under `pref-fair/1`.
const VERIFIED_V1: &str = "\
deal 0: verified 4806bb67fd43af33262c5983f68b1b4054e5ff898dcd24978d3c8f49ed74875f: server seed + seats 0, 1; seat 2 late, not in the deck
deal 1: verified a837669376dbd9cadfcce50dffecf0ad6e9d161538cfed01c94e382de9ad9469: server seed alone
deal 2: verified 4ff8472f44154cf11bcc07bfcb3dd9aed0eac2770d175b63638e9a3028426476: server seed + seats 0, 1, 2
deal 3: verified 37dc8fe957a21fbef27200954c0ec0539496ca445f7af3a22c0e46e1fb8dd857: server seed + seat 1; seat 0 late, not in the deck
";

#[test]
fn the_fair_deals_record_verifies_one_line_per_deal() {
    let (code, out, err) = verify(&records().join("fair-deals.json"));
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert_eq!(out, VERIFIED);
    // The documentation shows the first line.
    let doc = include_str!("../../../docs/fairness.md");
    assert!(doc.contains(VERIFIED.lines().next().unwrap()));
}

#[test]
fn a_first_scheme_record_still_verifies() {
    let (code, out, err) = verify(&records().join("fair-deals-v1.json"));
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert_eq!(out, VERIFIED_V1);
}

/// Two deals of another table's game, Vera dealing first as in `fair-deals.json`, each
/// played with the first legal action, with their `pref-fair/2` data.
fn other_table() -> Value {
    use pref_core::fair::{Place, Scheme, Seed, Shuffle, TableTag};
    use pref_core::{Game, Profile, Record, Seat};
    let table = TableTag::of("0123456789abcdef0123456789abcdef");
    let mut game = Game::new(Profile::sochi(), Seat(2)).unwrap();
    let mut all = Vec::new();
    for deal in 0..2u8 {
        let place = Place {
            table,
            deal: u32::from(deal),
        };
        let f = Shuffle::new(Scheme::V2(place), Seed::from_bytes([deal + 40; 32])).finish();
        game.start_deal(f.deck()).unwrap();
        while let Some(d) = game.deal() {
            let seat = d.turn().unwrap();
            let action = d.legal_actions(seat).to_vec()[0];
            game.apply(seat, action).unwrap();
        }
        all.push(f);
    }
    let names = ["Anna", "Boris", "Vera"].map(str::to_owned);
    let mut record = Record::from_game(&game, &names).unwrap();
    for (i, f) in all.into_iter().enumerate() {
        record.set_fairness(i, f).unwrap();
    }
    serde_json::from_str(&record.to_json_string()).unwrap()
}

fn fair_deals_v1() -> Value {
    serde_json::from_str(&std::fs::read_to_string(records().join("fair-deals-v1.json")).unwrap())
        .unwrap()
}

#[test]
fn swapped_deals_fail_under_the_second_scheme_and_pass_under_the_first() {
    let scratch = Scratch::new("swap");
    // Deals 0 and 3 have the same dealer: swapped, each still deals its own hands.
    let swap = |mut record: Value| {
        record["deals"].as_array_mut().unwrap().swap(0, 3);
        record
    };
    let (code, _, err) = scratch.verify(&swap(fair_deals_v1()));
    assert_eq!(
        (code, err.as_str()),
        (Some(0), ""),
        "pref-fair/1 binds no place"
    );
    assert_eq!(
        scratch.verify(&swap(fair_deals())),
        (
            Some(2),
            String::new(),
            "deal 0: its fairness data was dealt as deal 3, not as this deal: deals were moved\n"
                .to_owned()
        )
    );
}

#[test]
fn a_deal_spliced_from_another_table_fails() {
    let scratch = Scratch::new("splice");
    // Another table's deal 1 (the same seats and first dealer), as its server wrote it.
    let mut record = fair_deals();
    record["deals"][1] = other_table()["deals"][1].clone();
    assert_eq!(
        scratch.verify(&record),
        (
            Some(2),
            String::new(),
            "deal 1: its fairness data was dealt at another table than deal 0's: a deal of another game\n"
                .to_owned()
        )
    );
    // An older scheme's deal, which names no place, after the first pref-fair/2 deal.
    let mut record = fair_deals();
    let v1 = fair_deals_v1();
    record["deals"][2] = v1["deals"][2].clone();
    assert_eq!(
        scratch.verify(&record),
        (
            Some(2),
            String::new(),
            "deal 2: a pref-fair/1 deal after deal 0, which is pref-fair/2\n".to_owned()
        )
    );
}

/// A scratch directory for tampered copies, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("pref-verify-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// Writes `record` and runs `pref verify` on it.
    fn verify(&self, record: &Value) -> (Option<i32>, String, String) {
        let file = self.0.join("record.json");
        std::fs::write(&file, serde_json::to_string(record).unwrap()).unwrap();
        verify(&file)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn fair_deals() -> Value {
    serde_json::from_str(&std::fs::read_to_string(records().join("fair-deals.json")).unwrap())
        .unwrap()
}

/// Changes the first hex digit of a string value.
fn flip_digit(v: &mut Value) {
    let s = v.as_str().unwrap();
    let first = if s.starts_with('0') { "1" } else { "0" };
    *v = Value::String(format!("{first}{}", &s[1..]));
}

/// A deal's first contribution that is late (`true`) or in time (`false`).
fn contribution(deal: &mut Value, late: bool) -> Option<&mut Value> {
    let contributions = deal["fairness"]["contributions"].as_array_mut()?;
    contributions
        .iter_mut()
        .find(|c| c.get("late").is_some() == late)
}

type Tamper = fn(&mut Value) -> bool;

/// Each way of tampering with one deal's data (`false`: it does not apply to that deal) and
/// the reason the line must give.
const TAMPERS: &[(&str, Tamper, &str)] = &[
    (
        "server seed",
        |d| {
            flip_digit(&mut d["fairness"]["server_seed"]);
            true
        },
        "the server seed does not match its commitment",
    ),
    (
        "seed commitment",
        |d| {
            flip_digit(&mut d["fairness"]["seed_commitment"]);
            true
        },
        "the server seed does not match its commitment",
    ),
    (
        "deck commitment",
        |d| {
            flip_digit(&mut d["fairness"]["deck_commitment"]);
            true
        },
        "the deck does not match its commitment",
    ),
    (
        "two cards of the deck swapped",
        |d| {
            let deck = d["fairness"]["deck"].as_str().unwrap();
            let mut cards: Vec<&str> = deck.split(' ').collect();
            cards.swap(3, 17);
            d["fairness"]["deck"] = Value::String(cards.join(" "));
            true
        },
        "the deck is not the shuffle of the server seed and the contributions",
    ),
    (
        "a contribution in time",
        |d| {
            contribution(d, false)
                .map(|c| flip_digit(&mut c["value"]))
                .is_some()
        },
        "the deck is not the shuffle of the server seed and the contributions",
    ),
    (
        "a contribution in time marked late",
        |d| {
            contribution(d, false)
                .map(|c| c["late"] = Value::Bool(true))
                .is_some()
        },
        "the deck is not the shuffle of the server seed and the contributions",
    ),
    (
        "a late contribution made in time",
        |d| {
            contribution(d, true)
                .and_then(|c| c.as_object_mut()?.remove("late"))
                .is_some()
        },
        "the deck is not the shuffle of the server seed and the contributions",
    ),
    (
        "a contribution's seat",
        |d| {
            let contributions = d["fairness"]["contributions"].as_array_mut().unwrap();
            match contributions.last_mut() {
                Some(c) if c["seat"] != 2 => {
                    c["seat"] = Value::from(2);
                    true
                }
                _ => false,
            }
        },
        "the deck is not the shuffle of the server seed and the contributions",
    ),
    (
        "a hand card swapped with a talon card",
        |d| {
            let talon = d["talon"][0].clone();
            let hand = std::mem::replace(&mut d["hands"][1][4], talon);
            d["talon"][0] = hand;
            true
        },
        "seat 1's hand is not the one the deck deals",
    ),
    (
        "the talon's two cards swapped",
        |d| {
            let talon = d["talon"].as_array_mut().unwrap();
            talon.swap(0, 1);
            true
        },
        "the talon is not the deck's last two cards",
    ),
];

#[test]
fn a_tampered_deal_fails_at_that_deal() {
    let scratch = Scratch::new("tamper");
    let original = fair_deals();
    let deals = original["deals"].as_array().unwrap().len();
    let mut checked = 0;
    for &(what, tamper, reason) in TAMPERS {
        for d in 0..deals {
            let mut record = original.clone();
            if !tamper(&mut record["deals"][d]) {
                continue;
            }
            let (code, out, err) = scratch.verify(&record);
            let expected = format!("deal {d}: {reason}\n");
            assert_eq!(
                (code, out.as_str(), err.as_str()),
                (Some(2), "", expected.as_str()),
                "{what} in deal {d}"
            );
            checked += 1;
        }
    }
    // Every tampering applies to every deal but these: deal 1 has no contribution (4 ways
    // skip it), only deals 0 and 3 have a late one, and the last contribution of deals 0 and
    // 2 is already seat 2's.
    assert_eq!(checked, TAMPERS.len() * deals - 4 - 1 - 2);
}

#[test]
fn a_tampered_played_card_fails_at_that_deal() {
    let scratch = Scratch::new("play");
    let original = fair_deals();
    for d in 0..original["deals"].as_array().unwrap().len() {
        let mut record = original.clone();
        let actions = record["deals"][d]["actions"].as_array_mut().unwrap();
        let (i, play) = actions
            .iter_mut()
            .enumerate()
            .rev()
            .find(|(_, a)| a.get("play").is_some())
            .unwrap();
        // The last card played becomes another seat's card: the rules refuse it.
        play["play"] = Value::String(if play["play"] == "AC" { "7S" } else { "AC" }.into());
        let (code, out, err) = scratch.verify(&record);
        assert_eq!((code, out.as_str()), (Some(2), ""), "deal {d}");
        assert!(
            err.starts_with(&format!("deal {d}, action ")),
            "deal {d}: {err}"
        );
        let at: usize = err["deal 0, action ".len()..]
            .split(':')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(at <= i, "deal {d}: {err}");
        assert_eq!(err.lines().count(), 1);
    }
}

#[test]
fn a_record_without_fairness_data_cannot_be_verified() {
    let (code, out, err) = verify(&records().join("worked-deal.json"));
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            Some(2),
            "",
            "deal 0: no fairness data: its deck cannot be checked\n"
        )
    );
    // A later deal without it stops the check there, after the deals before it are read.
    let scratch = Scratch::new("missing");
    let mut record = fair_deals();
    record["deals"][2]
        .as_object_mut()
        .unwrap()
        .remove("fairness");
    let (code, out, err) = scratch.verify(&record);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            Some(2),
            "",
            "deal 2: no fairness data: its deck cannot be checked\n"
        )
    );
}

#[test]
fn a_record_that_does_not_read_fails_as_replay_does() {
    let scratch = Scratch::new("read");
    let mut record = fair_deals();
    record["deals"][1]["fairness"]["scheme"] = Value::String("pref-fair/3".into());
    let (code, out, err) = scratch.verify(&record);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            Some(2),
            "",
            "deal 1: \"scheme\" must be \"pref-fair/1\" or \"pref-fair/2\"\n"
        )
    );
    let mut record = fair_deals();
    record["deals"][3]["fairness"]["salt"] = Value::String("00".into());
    let (_, _, err) = scratch.verify(&record);
    assert_eq!(err, "deal 3: unknown key \"salt\"\n");
    let mut record = fair_deals();
    let seed = record["deals"][0]["fairness"]["server_seed"]
        .as_str()
        .unwrap()
        .to_uppercase();
    record["deals"][0]["fairness"]["server_seed"] = Value::String(seed);
    let (_, _, err) = scratch.verify(&record);
    assert_eq!(
        err,
        "deal 0: \"server_seed\" must be 64 lowercase hex digits\n"
    );
    let (code, out, err) = verify(Path::new("/nonexistent/record.json"));
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(
        err.starts_with("record: cannot read /nonexistent/record.json: "),
        "{err}"
    );
}
