//! `pref replay` run as a program over every record of `tests/records/`: the spec's example
//! prints exactly the spec's JSON; every valid record replays with exit status 0; every bad
//! record exits 2 with nothing on stdout and exactly one line on stderr.
#![allow(missing_docs)]

mod common;

use common::{path, pref, records};

use serde_json::Value;

#[test]
fn the_spec_example_prints_the_spec_json_exactly() {
    let (code, out, err) = pref(&["replay", "--json", &path("spec-replay.json")]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    let expected = std::fs::read_to_string(records().join("spec-replay.out.json")).unwrap();
    assert_eq!(out, expected);
}

#[test]
fn the_spec_example_for_people() {
    let (code, out, _) = pref(&["replay", &path("spec-replay.json")]);
    assert_eq!(code, Some(0));
    let expected = std::fs::read_to_string(records().join("spec-replay.out.txt")).unwrap();
    assert_eq!(out, expected);
}

/// R4.5 and R5.3: a surrender's line in `--json`, and a half-whist the first defender
/// withdrew to, written `["half" for him, "pass" for the second]`.
#[test]
fn r4_5_r5_3_house_rules_record_prints_surrender_and_withdrawal() {
    let (code, out, err) = pref(&["replay", "--json", &path("house-rules.json")]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    let expected = r#"{
  "deals": [
    {"kind": "surrender", "declarer": 0, "bid": "7S", "made": false},
    {"kind": "game", "declarer": 1, "contract": "6S", "made": true},
    {"kind": "raspasy", "tricks": [0, 5, 5]}
  ],
  "pool": [1, 2, 0],
  "mountain": [12, 5, 5],
  "whists": [[0, 0, 0], [0, 0, 0], [0, 4, 0]],
  "finished": false,
  "settlement": null
}
"#;
    assert_eq!(out, expected);
    let (code, text, _) = pref(&["replay", &path("house-rules.json")]);
    assert_eq!(code, Some(0));
    assert!(
        text.contains("Anna surrenders at 7♠: down without whists, no play (R4.5)."),
        "{text}"
    );
    assert!(text.contains("the half-whist stands, no play."), "{text}");
}

/// The valid records and whether each ends with a settlement.
const VALID: &[(&str, bool)] = &[
    ("worked-deal.json", false),
    ("spec-replay.json", true),
    ("raspasy.json", false),
    ("misere.json", false),
    ("half-whist-standing.json", false),
    ("half-whist-returned.json", false),
    ("open-defence.json", false),
    ("claims.json", false),
    ("four-players.json", true),
    ("four-players-dealer-whist.json", false),
    ("leningrad.json", true),
    ("rostov.json", true),
    ("agreed-stop.json", true),
    ("fair-deals.json", false),
    ("fair-deals-v1.json", false),
    ("house-rules.json", false),
    ("dark-no-talon.json", false),
];

/// The numerator of the exact sum of settlement entries ("a" or "a/b").
fn sum_numerator(settlement: &[Value]) -> i128 {
    let (n, _) = settlement.iter().fold((0i128, 1i128), |(n, d), v| {
        let s = v.as_str().unwrap();
        let (a, b): (i128, i128) = s.split_once('/').map_or_else(
            || (s.parse().unwrap(), 1),
            |(a, b)| (a.parse().unwrap(), b.parse().unwrap()),
        );
        (n * b + a * d, d * b)
    });
    n
}

#[test]
fn every_valid_record_replays() {
    let mut on_disk: Vec<String> = std::fs::read_dir(records())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json") && !n.ends_with(".out.json"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = VALID.iter().map(|(n, _)| (*n).to_owned()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "every record file is listed here");
    for &(name, finished) in VALID {
        let (code, out, err) = pref(&["replay", "--json", &path(name)]);
        assert_eq!((code, err.as_str()), (Some(0), ""), "{name}");
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["finished"], Value::Bool(finished), "{name}");
        let deals = v["deals"].as_array().unwrap().len();
        assert!(deals >= 1, "{name}");
        match v["settlement"].as_array() {
            Some(s) => assert_eq!(sum_numerator(s), 0, "{name}: the settlement sums to zero"),
            None => assert!(!finished, "{name}"),
        }
        let (code, text, _) = pref(&["replay", &path(name)]);
        assert_eq!(code, Some(0), "{name}");
        assert_eq!(text.matches("\nDeal ").count(), deals, "{name}");
    }
}

/// Each bad record and the one line it must print.
const BAD: &[(&str, &str)] = &[
    (
        "after-the-end.json",
        "deal 6: the game is over: every pool is closed (R9.4)",
    ),
    (
        "answer-out-of-turn.json",
        "deal 0, action 28: seat 2 cannot answer the claim now: seat 1 answers next",
    ),
    (
        "broken-json.json",
        "record: not valid JSON: EOF while parsing a value at line 11 column 20",
    ),
    (
        "card-not-held.json",
        "deal 0, action 13: seat 0 does not hold ♠A",
    ),
    (
        "claim-wrong-total.json",
        "deal 0, action 27: the claim gives 3 tricks, but 4 are left",
    ),
    ("duplicated-card.json", "deal 0: talon repeats QS"),
    ("eleven-cards.json", "deal 0: seat 0 has 11 cards, not 10"),
    ("extra-action.json", "deal 0, action 43: the deal is over"),
    (
        "four-names-for-three.json",
        "record: 4 players named for a table of 3",
    ),
    (
        "illegal-card.json",
        "deal 0, action 17: seat 1 must follow ♥",
    ),
    (
        "not-finished.json",
        "deal 0, action 42: the deal is not finished",
    ),
    (
        "out-of-turn.json",
        "deal 0, action 1: it is not seat 2's turn: seat 1 is to act",
    ),
    (
        "play-while-claim-pending.json",
        "deal 0, action 17: a claim is waiting for answers: nobody plays or claims until it is settled",
    ),
    (
        "repeated-key.json",
        "record: not valid JSON: key \"first_dealer\" given twice at line 5 column 35",
    ),
    (
        "tricks-not-ten.json",
        "deal 0: the tricks add up to 11, not 10 (R6.1)",
    ),
    ("unknown-bid.json", "deal 0, action 0: unknown bid \"6♠\""),
    ("unknown-card.json", "deal 0: unknown card \"1H\""),
    ("unknown-key.json", "record: unknown key \"date\""),
    (
        "unknown-option.json",
        "record: unknown option \"pool_size\"",
    ),
    (
        "unknown-verb.json",
        "deal 0, action 2: unknown verb \"offer\"",
    ),
    (
        "wrong-format.json",
        "record: format \"pgn\" is not \"pref-record/1\"",
    ),
];

#[test]
fn every_bad_record_exits_2_with_one_line() {
    let mut on_disk: Vec<String> = std::fs::read_dir(records().join("bad"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let listed: Vec<String> = BAD.iter().map(|(n, _)| (*n).to_owned()).collect();
    assert_eq!(on_disk, listed, "every bad record is listed here");
    for &(name, line) in BAD {
        let file = path(&format!("bad/{name}"));
        for args in [vec!["replay", "--json", &file], vec!["replay", &file]] {
            let (code, out, err) = pref(&args);
            assert_eq!(code, Some(2), "{name}");
            assert_eq!(out, "", "{name}");
            assert_eq!(err, format!("{line}\n"), "{name}");
        }
    }
}

/// A deal ended by a claim says so (R6.7); the rejected claim before it leaves no trace.
#[test]
fn a_claimed_deal_names_its_claim() {
    let (code, out, _) = pref(&["replay", &path("claims.json")]);
    assert_eq!(code, Some(0));
    assert!(
        out.contains(
            "Deal 1, Vera deals: Anna plays 6♠ (Boris whists, Vera whists): made, tricks 6–1–3. \
             Anna claimed the last 4 tricks as 4–0–0; all accepted.\n"
        ),
        "{out}"
    );
}

#[test]
fn a_missing_file_or_bad_arguments_exit_2() {
    let (code, out, err) = pref(&["replay", "/nonexistent/record.json"]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(
        err.starts_with("record: cannot read /nonexistent/record.json: "),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
    let (code, out, _) = pref(&["replay"]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
}

#[test]
fn bytes_that_are_not_utf8_exit_2() {
    let dir = std::env::temp_dir().join(format!("pref-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("latin1.json");
    std::fs::write(&file, b"{\"format\": \"pref-record/1\xff\"}").unwrap();
    let (code, out, err) = pref(&["replay", "--json", &file.to_string_lossy()]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (Some(2), "", "record: not valid UTF-8\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// R3.9.1, R4.6, R8.11, R8.12: a record with dark calls, a look, misère and nine without
/// talon replays; each deal says `dark` and `no_talon`, and the dark deals are doubled:
/// the dark misère without talon with 5 tricks is 10·5·2 = 100; the dark 6♣ down 4 writes
/// 2·4·2 = 16 on the mountain and (2·2 + 2·4)·2 = 24 and (2·6 + 2·4)·2 = 40 whists; the
/// nine without talon (not dark) down 4 writes 8·4 = 32, and 8 + 32 = 40, 32 + 32 = 64.
#[test]
fn r8_11_r8_12_dark_and_no_talon_record_replays() {
    let (code, out, err) = pref(&["replay", "--json", &path("dark-no-talon.json")]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    let expected = r#"{
  "deals": [
    {"kind": "misere", "declarer": 0, "no_talon": true, "dark": true, "tricks": [5, 5, 0], "made": false},
    {"kind": "game", "declarer": 1, "contract": "6C", "dark": true, "tricks": [2, 2, 6], "made": false},
    {"kind": "game", "declarer": 0, "contract": "9D", "no_talon": true, "tricks": [5, 1, 4], "made": false}
  ],
  "pool": [0, 0, 0],
  "mountain": [132, 16, 0],
  "whists": [[0, 24, 0], [40, 0, 0], [64, 40, 0]],
  "finished": false,
  "settlement": null
}
"#;
    assert_eq!(out, expected);
    let (code, text, _) = pref(&["replay", &path("dark-no-talon.json")]);
    assert_eq!(code, Some(0));
    assert!(
        text.contains("A plays misère: failed with 5 tricks, tricks 5–5–0. Without talon (R4.6). Dark deal: every entry ×2 (R8.11)."),
        "{text}"
    );
}
