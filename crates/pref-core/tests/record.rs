//! Game records (`docs/game-record.md`): strict reading, exact error locations and
//! messages, and write-then-read giving the same record.
#![allow(missing_docs)]

use pref_core::{ActionTime, Location, Reason, Record, RecordDeal, Seat};

fn worked() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/records/worked-deal.json"
    ))
    .unwrap()
}

fn err(text: &str) -> String {
    Record::from_json_str(text).unwrap_err().to_string()
}

#[test]
fn the_worked_deal_reads_and_round_trips() {
    let r = Record::from_json_str(&worked()).unwrap();
    assert_eq!(r.deals().len(), 1);
    assert_eq!(r.players(), ["A", "B", "C"]);
    let written = r.to_json_string();
    let again = Record::from_json_str(&written).unwrap();
    assert_eq!(again, r);
    assert_eq!(again.to_json_string(), written);
}

#[test]
fn a_revoke_names_deal_action_and_reason() {
    // Trick 2: B plays ♣K instead of following ♥ with ♥9 (R6.2).
    let text = worked().replacen(
        r#"{"seat": 1, "play": "9H"}"#,
        r#"{"seat": 1, "play": "KC"}"#,
        1,
    );
    assert_eq!(err(&text), "deal 0, action 17: seat 1 must follow ♥");
    let e = Record::from_json_str(&text).unwrap_err();
    assert_eq!(
        e.location,
        Location::Action {
            deal: 0,
            action: 17
        }
    );
    assert_eq!(e.rule(), Some("R6.2"));
}

#[test]
fn out_of_turn_and_unfinished_deals() {
    let text = worked().replacen(
        r#"{"seat": 1, "bid": "6C"}"#,
        r#"{"seat": 2, "bid": "6C"}"#,
        1,
    );
    assert_eq!(
        err(&text),
        "deal 0, action 1: it is not seat 2's turn: seat 1 is to act"
    );
    let text = worked().replacen(",\n        {\"seat\": 2, \"play\": \"TS\"}", "", 1);
    assert_eq!(err(&text), "deal 0, action 42: the deal is not finished");
}

#[test]
fn deal_set_up_errors_name_the_deal() {
    let text = worked().replacen(r#""talon": ["AH", "9C"]"#, r#""talon": ["AH", "QS"]"#, 1);
    assert_eq!(err(&text), "deal 0: talon repeats QS");
    let text = worked().replacen(r#""7C"]"#, r#""7C", "AH"]"#, 1);
    assert_eq!(err(&text), "deal 0: seat 0 has 11 cards, not 10");
    let text = worked().replacen(r#""TH""#, r#""XH""#, 1);
    assert_eq!(err(&text), r#"deal 0: unknown card "XH""#);
}

#[test]
fn unknown_keys_verbs_and_options() {
    let text = worked().replacen(
        r#""profile": "sochi""#,
        r#""profile": {"preset": "sochi", "pool_size": 10}"#,
        1,
    );
    assert_eq!(err(&text), r#"record: unknown option "pool_size""#);
    let text = worked().replacen(
        r#""profile": "sochi""#,
        r#""profile": {"pool_target": 10}"#,
        1,
    );
    assert_eq!(err(&text), r#"record: missing key "preset""#);
    let text = worked().replacen(
        r#"{"seat": 2, "bid": "pass"}"#,
        r#"{"seat": 2, "offer": "pass"}"#,
        1,
    );
    assert_eq!(err(&text), r#"deal 0, action 2: unknown verb "offer""#);
    let text = worked().replacen(
        r#"{"seat": 2, "bid": "pass"}"#,
        r#"{"seat": 2, "claim": "pass"}"#,
        1,
    );
    assert_eq!(err(&text), r#"deal 0, action 2: unknown claim "pass""#);
    let text = worked().replacen(
        r#""first_dealer": 2"#,
        r#""first_dealer": 2, "date": "today""#,
        1,
    );
    assert_eq!(err(&text), r#"record: unknown key "date""#);
    let text = worked().replacen(r#""talon""#, r#""comment": 1, "talon""#, 1);
    assert_eq!(err(&text), r#"deal 0: unknown key "comment""#);
    let text = worked().replacen("pref-record/1", "pref-record/2", 1);
    assert_eq!(
        err(&text),
        r#"record: format "pref-record/2" is not "pref-record/1""#
    );
}

#[test]
fn broken_json_and_repeated_keys() {
    let e = Record::from_json_str(&worked()[..200]).unwrap_err();
    assert_eq!(e.location, Location::Record);
    assert!(matches!(e.reason, Reason::Json(_)));
    assert!(err("{").starts_with("record: not valid JSON: "));
    let text = worked().replacen(
        r#""first_dealer": 2"#,
        r#""first_dealer": 2, "first_dealer": 1"#,
        1,
    );
    assert!(
        err(&text).contains(r#"key "first_dealer" given twice"#),
        "{}",
        err(&text)
    );
}

#[test]
fn an_earlier_illegal_action_comes_before_a_later_malformed_one() {
    let text = worked()
        .replacen(
            r#"{"seat": 1, "bid": "6C"}"#,
            r#"{"seat": 2, "bid": "6C"}"#,
            1,
        )
        .replacen(
            r#"{"seat": 0, "play": "AH"}"#,
            r#"{"seat": 0, "play": "ZZ"}"#,
            1,
        );
    assert_eq!(
        err(&text),
        "deal 0, action 1: it is not seat 2's turn: seat 1 is to act"
    );
    let text = worked().replacen(
        r#"{"seat": 0, "play": "AH"}"#,
        r#"{"seat": 0, "play": "ZZ"}"#,
        1,
    );
    assert_eq!(err(&text), r#"deal 0, action 13: unknown card "ZZ""#);
}

#[test]
fn a_game_exports_to_the_record_it_was_read_from() {
    use pref_core::{Card, Record};
    let (record, mut game) = Record::read(&worked()).unwrap();
    let names: Vec<String> = record.players().to_vec();
    assert_eq!(Record::from_game(&game, &names).unwrap(), record);
    // A deal in progress is left out; the first dealer stays the first deal's.
    let deck: Vec<Card> = (0..32).map(Card::from_index).collect();
    game.start_deal(&deck.try_into().unwrap()).unwrap();
    assert_eq!(Record::from_game(&game, &names).unwrap(), record);
    assert!(Record::from_game(&game, &names[..2]).is_err());
}

#[test]
fn the_clocks_time_used_and_autopilot_mark_read_and_change_nothing() {
    // Every action of the worked deal gets a time used, and the first an autopilot mark.
    let mut v: serde_json::Value = serde_json::from_str(&worked()).unwrap();
    let actions = v["deals"][0]["actions"].as_array_mut().unwrap();
    for (i, a) in actions.iter_mut().enumerate() {
        a["ms"] = serde_json::json!(1000 * i);
    }
    actions[0]["auto"] = serde_json::json!(true);
    let (timed, timed_game) = Record::read(&v.to_string()).unwrap();
    let (plain, plain_game) = Record::read(&worked()).unwrap();
    assert_eq!(timed.deals(), plain.deals(), "the same actions");
    assert_eq!(timed_game.sheet(), plain_game.sheet(), "the same scores");
    // The fields are kept: written back, they read the same, and a record without them
    // has none.
    let times = timed.timing(0).unwrap();
    assert_eq!(times.len(), actions_len(&v));
    assert_eq!(
        times[0],
        ActionTime {
            ms: Some(0),
            auto: true
        }
    );
    assert_eq!(
        times[5],
        ActionTime {
            ms: Some(5000),
            auto: false
        }
    );
    let written = timed.to_json_string();
    assert!(written.contains(r#""ms": 0, "auto": true}"#), "{written}");
    assert_eq!(Record::from_json_str(&written).unwrap(), timed);
    assert_eq!(plain.timing(0), None);
    assert!(!plain.to_json_string().contains("\"ms\""));
    // Anything but a whole number of milliseconds, or `true`, is refused by name.
    for (key, bad) in [
        ("ms", serde_json::json!(-1)),
        ("ms", serde_json::json!("5")),
        ("auto", serde_json::json!(false)),
    ] {
        let mut w: serde_json::Value = serde_json::from_str(&worked()).unwrap();
        w["deals"][0]["actions"][3][key] = bad.clone();
        let e = err(&w.to_string());
        assert!(e.contains(&bad.to_string()), "{key}: {e}");
    }
}

fn actions_len(v: &serde_json::Value) -> usize {
    v["deals"][0]["actions"].as_array().unwrap().len()
}

#[test]
fn the_clocks_fields_are_attached_one_per_action_of_a_played_deal() {
    let mut r = Record::from_json_str(&worked()).unwrap();
    let n = match &r.deals()[0] {
        RecordDeal::Played { actions, .. } => actions.len(),
        RecordDeal::Scored(_) => unreachable!("the worked deal is played"),
    };
    let one = ActionTime {
        ms: Some(7),
        auto: false,
    };
    for (deal, len) in [(0, n - 1), (0, n + 1), (1, n)] {
        let e = r.set_timing(deal, vec![one; len]).unwrap_err();
        assert_eq!(e.location, Location::Deal(deal));
        assert_eq!(e.reason, Reason::Timing(len));
    }
    assert_eq!(r.timing(0), None, "a refused list changes nothing");
    let mut times = vec![ActionTime::default(); n];
    r.set_timing(0, times.clone()).unwrap();
    assert_eq!(r.timing(0), None, "entries that say nothing are not kept");
    times[n - 1] = ActionTime {
        ms: Some(120),
        auto: true,
    };
    r.set_timing(0, times.clone()).unwrap();
    assert_eq!(r.timing(0), Some(&times[..]));
    let written = r.to_json_string();
    assert_eq!(written.matches("\"ms\"").count(), 1);
    assert_eq!(
        Record::from_json_str(&written).unwrap().timing(0),
        Some(&times[..])
    );
}

#[test]
fn the_seats_programs_played_are_marked_and_read_back() {
    let r = Record::from_json_str(&worked()).unwrap();
    assert!(r.bots().is_empty());
    assert!(
        !r.to_json_string().contains("\"bots\""),
        "absent when people held every seat"
    );
    let marked = r.with_bots(&[Seat(2), Seat(0), Seat(2)]);
    assert_eq!(marked.bots(), [Seat(0), Seat(2)]);
    let text = marked.to_json_string();
    assert!(text.contains("\"bots\": [0, 2]"), "{text}");
    assert_eq!(
        Record::from_json_str(&text).unwrap().bots(),
        [Seat(0), Seat(2)]
    );
    let with = |bots: &str| {
        worked().replacen(
            "\"first_dealer\"",
            &format!("\"bots\": {bots}, \"first_dealer\""),
            1,
        )
    };
    assert!(
        err(&with("[3]")).contains("seat 3 is not at the table"),
        "{}",
        err(&with("[3]"))
    );
    assert!(err(&with("[1, 1]")).contains("ascending"));
    assert!(err(&with("\"1\"")).contains("a list of seat numbers"));
}
