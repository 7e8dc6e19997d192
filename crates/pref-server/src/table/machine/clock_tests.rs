//! The pure clock with exact times: allowances, banks, refills, strikes, grace, pause,
//! restart, and how a time control is read.

use pref_core::{ProfileError, Seat};
use pref_protocol::BotLevel;
use serde_json::json;

use super::*;

/// 10 s a move, 30 s bank, 5 s refill, 30 s grace.
fn blitz() -> TimeControl {
    parse(Some(&json!("blitz"))).unwrap().unwrap()
}

#[test]
fn off_presets_and_custom_values_are_read() {
    assert_eq!(parse(None).unwrap(), None);
    assert_eq!(parse(Some(&json!("off"))).unwrap(), None);
    assert_eq!(parse(Some(&Value::Null)).unwrap(), None);
    let b = blitz();
    assert_eq!((b.per_move, b.bank, b.refill, b.grace), (10, 30, 5, 30));
    assert_eq!(b.preset, "blitz");
    let r = parse(Some(&json!("relaxed"))).unwrap().unwrap();
    assert_eq!((r.per_move, r.bank, r.refill, r.grace), (60, 300, 30, 120));
    let c = parse(Some(
        &json!({"preset": "normal", "move": 20, "level": "strong"}),
    ))
    .unwrap()
    .unwrap();
    assert_eq!((c.per_move, c.bank, c.refill, c.grace), (20, 120, 15, 60));
    assert_eq!(c.level, BotLevel::Strong);
    assert_eq!(c.preset, "custom");
    // The preset's own values keep its name.
    let same = parse(Some(&json!({"preset": "blitz", "move": 10})))
        .unwrap()
        .unwrap();
    assert_eq!(same.preset, "blitz");
}

/// The key a refusal names.
fn key(e: ProfileError) -> String {
    match e {
        ProfileError::UnknownKey(k)
        | ProfileError::WrongType { key: k, .. }
        | ProfileError::OutOfRange { key: k, .. }
        | ProfileError::Conflict { key: k, .. } => k,
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn bad_values_name_their_key() {
    let bad = [
        (json!("fast"), "clock"),
        (json!(12), "clock"),
        (json!({"preset": "fast"}), "clock.preset"),
        (json!({"move": 2}), "clock.move"),
        (json!({"move": 601}), "clock.move"),
        (json!({"bank": -1}), "clock.bank"),
        (json!({"bank": "60"}), "clock.bank"),
        (json!({"refill": 601}), "clock.refill"),
        (json!({"grace": 4}), "clock.grace"),
        (json!({"level": "genius"}), "clock.level"),
        (json!({"increment": 5}), "clock.increment"),
    ];
    for (value, expected) in bad {
        let e = parse(Some(&value)).expect_err(&value.to_string());
        assert_eq!(key(e), expected, "{value}");
    }
}

#[test]
fn a_move_within_the_allowance_costs_no_bank_and_a_slow_one_pays_the_excess() {
    let mut c = Clock::new(blitz());
    c.deal_started(1_000);
    assert_eq!(c.deadline(Seat(0)), Some(1_000 + 10_000 + 30_000));
    assert_eq!(c.acted(Seat(0), 9_000, false), 8_000);
    assert_eq!(c.banks[0], 30_000);
    // Seat 1's turn started at 9 s; it takes 25 s: 15 s from the bank.
    assert_eq!(c.deadline(Seat(1)), Some(9_000 + 40_000));
    assert_eq!(c.acted(Seat(1), 34_000, false), 25_000);
    assert_eq!(c.banks[1], 15_000);
    assert_eq!(c.deadline(Seat(1)), Some(34_000 + 10_000 + 15_000));
    // The next deal refills 5 s, never beyond the full bank.
    c.deal_ended();
    assert_eq!(c.deadline(Seat(1)), None);
    c.deal_started(100_000);
    assert_eq!(c.banks[..3], [30_000, 20_000, 30_000]);
}

#[test]
fn two_timeouts_in_a_row_put_a_seat_on_autopilot_until_its_person_acts() {
    let mut c = Clock::new(blitz());
    c.deal_started(0);
    assert!(!c.due(Seat(0), 39_999));
    assert!(c.due(Seat(0), 40_000));
    c.acted(Seat(0), 40_000, true);
    assert_eq!(c.banks[0], 0);
    assert!(!c.away(Seat(0)));
    // One move of a person in between clears the strike.
    c.acted(Seat(0), 41_000, false);
    c.acted(Seat(0), 51_000, true);
    assert!(!c.away(Seat(0)));
    c.acted(Seat(0), 61_000, true);
    assert!(c.away(Seat(0)));
    assert_eq!(c.deadline(Seat(0)), Some(61_000 + AWAY_MOVE_MS));
    let view = c.view(Some(Seat(0)), 3, 61_500).unwrap();
    assert_eq!(view.away, vec![Seat(0)]);
    assert_eq!(
        view.now_ms,
        Some(61_500),
        "the server's time goes with the view"
    );
    c.acted(Seat(0), 62_000, false);
    assert!(!c.away(Seat(0)));
    assert_eq!(c.deadline(Seat(0)), Some(62_000 + 10_000));
}

#[test]
fn a_seat_disconnected_past_the_grace_goes_away_and_a_reconnect_stops_the_count() {
    let mut c = Clock::new(blitz());
    c.deal_started(0);
    c.presence(Seat(1), false, 5_000);
    // Disconnected again later: the count runs from the first moment.
    c.presence(Seat(1), false, 9_000);
    assert_eq!(c.next_wake(Some(Seat(0))), Some(35_000));
    assert!(!c.expire(34_999));
    assert!(c.expire(35_000));
    assert!(c.away(Seat(1)));
    assert!(!c.expire(36_000));
    assert_eq!(c.next_wake(Some(Seat(0))), Some(40_000));
    c.presence(Seat(2), false, 10_000);
    c.presence(Seat(2), true, 20_000);
    assert!(!c.expire(100_000));
    assert!(!c.away(Seat(2)));
}

#[test]
fn a_paused_clock_has_no_deadline_and_no_wake() {
    let mut c = Clock::new(blitz());
    c.set_paused(true);
    c.deal_started(0);
    assert_eq!(c.deadline(Seat(0)), None);
    assert_eq!(c.next_wake(Some(Seat(0))), None);
    assert_eq!(c.view(Some(Seat(0)), 3, 0), None);
    c.set_paused(false);
    assert_eq!(c.next_wake(Some(Seat(0))), Some(40_000));
}

#[test]
fn a_replay_of_the_stored_times_gives_the_same_clock() {
    let mut live = Clock::new(blitz());
    live.deal_started(1_000);
    live.acted(Seat(1), 30_000, false);
    live.acted(Seat(2), 70_000, true);
    live.acted(Seat(0), 71_000, false);
    live.deal_ended();
    live.deal_started(80_000);
    live.acted(Seat(2), 85_000, false);
    let stored = [
        (
            Some(1_000),
            vec![
                (Seat(1), Some(30_000), false),
                (Seat(2), Some(70_000), true),
                (Seat(0), Some(71_000), false),
            ],
        ),
        (Some(80_000), vec![(Seat(2), Some(85_000), false)]),
    ];
    let replayed = Clock::replay(blitz(), false, &stored, true, 999_999);
    assert_eq!(replayed, live);
    assert_eq!(replayed.deadline(Seat(0)), Some(85_000 + 40_000));
    // Rows from before clocks count from the restart.
    let old = [(None, vec![(Seat(1), None, false)])];
    let c = Clock::replay(blitz(), true, &old, true, 5_000);
    assert!(c.paused());
    assert_eq!(c.deadline(Seat(2)), None);
    let mut c = c;
    c.set_paused(false);
    assert_eq!(c.deadline(Seat(2)), Some(45_000));
}

#[test]
fn a_new_occupant_starts_present_with_no_timeouts_and_the_seats_bank() {
    let mut c = Clock::new(blitz());
    c.deal_started(0);
    c.acted(Seat(0), 40_000, true);
    c.presence(Seat(0), false, 40_000);
    assert_eq!(c.next_wake(None), Some(70_000), "the gone occupant's grace");
    c.acted(Seat(0), 50_000, true);
    assert!(c.away(Seat(0)));
    c.seated(Seat(0));
    assert!(!c.away(Seat(0)), "the newcomer is not on autopilot");
    assert_eq!(c.next_wake(None), None, "nobody's grace runs");
    // The bank the seat spent stays spent, and one timeout is not yet two.
    assert_eq!(c.banks[0], 0);
    assert_eq!(c.deadline(Seat(0)), Some(50_000 + 10_000));
    c.acted(Seat(0), 60_000, true);
    assert!(!c.away(Seat(0)));
}

#[test]
fn an_outage_is_charged_to_nobody_and_replays_as_credited() {
    // Seat 1 to act from 1_000 (40 s: the allowance and the bank); the node served until
    // 5_000 and serves again at 60_000.
    let stored = [(Some(1_000), Vec::new())];
    let mut c = Clock::replay(blitz(), false, &stored, true, 60_000);
    assert_eq!(c.deadline(Seat(1)), Some(41_000));
    assert_eq!(c.resume(5_000, 60_000), 55_000);
    assert_eq!(
        c.deadline(Seat(1)),
        Some(96_000),
        "the 36 s left at 5_000, from 60_000"
    );
    // A mark after the turn's start only: nothing is credited twice.
    assert_eq!(c.resume(60_000, 60_000), 0);
    // Stored, the credit moves every time before it: the turn the outage fell in is charged
    // what its player had, the turns before and after what they took.
    let mut deals = vec![
        (Some(1_000), vec![(Seat(1), Some(3_000), false)]),
        (
            Some(70_000),
            vec![
                (Seat(2), Some(71_000), false),
                (Seat(0), Some(150_000), true),
            ],
        ),
    ];
    credit_outages(&mut deals, &[(1, 1, 55_000)]);
    assert_eq!(
        deals,
        vec![
            (Some(56_000), vec![(Seat(1), Some(58_000), false)]),
            (
                Some(125_000),
                vec![
                    (Seat(2), Some(126_000), false),
                    (Seat(0), Some(150_000), true)
                ]
            ),
        ]
    );
    // Paused or between deals, nothing runs and nothing is credited.
    let mut paused = Clock::replay(blitz(), true, &stored, true, 60_000);
    assert_eq!(paused.resume(5_000, 60_000), 0);
    let mut between = Clock::replay(blitz(), false, &stored, false, 60_000);
    assert_eq!(between.resume(5_000, 60_000), 0);
}

#[test]
fn the_autopilot_s_seats_are_on_the_clock_until_the_next_deal() {
    let mut c = Clock::new(blitz());
    c.deal_started(0);
    c.acted(Seat(1), 50_000, true);
    c.acted(Seat(2), 51_000, false);
    assert_eq!(
        c.view(Some(Seat(0)), 3, 51_000).unwrap().piloted,
        vec![Seat(1)]
    );
    c.acted(Seat(0), 52_000, false);
    assert_eq!(
        c.view(Some(Seat(1)), 3, 52_000).unwrap().piloted,
        vec![Seat(1)]
    );
    c.deal_ended();
    c.deal_started(60_000);
    assert!(c.view(Some(Seat(2)), 3, 60_000).unwrap().piloted.is_empty());
}

#[test]
fn an_i_m_back_said_before_a_restart_is_said_again_by_the_replay() {
    // Seat 0 timed out twice (away), then said "I'm back" before the next action.
    let stored = [(
        Some(0),
        vec![
            (Seat(0), Some(40_000), true),
            (Seat(1), Some(41_000), false),
            (Seat(2), Some(42_000), false),
            (Seat(0), Some(82_000), true),
            (Seat(1), Some(83_000), false),
        ],
    )];
    let without = Clock::replay(blitz(), false, &stored, true, 90_000);
    assert!(without.away(Seat(0)), "two timeouts: away");
    // Said after the fifth action: the replay ends the autopilot there.
    let back = Clock::replay_with(blitz(), false, &stored, &[(0, 5, Seat(0))], true, 90_000);
    assert!(!back.away(Seat(0)), "back, as before the restart");
    let mut live = without.clone();
    assert!(live.back(Seat(0)));
    assert_eq!(back, live);
    // Said before the second timeout: that timeout is one, not two.
    let early = Clock::replay_with(blitz(), false, &stored, &[(0, 3, Seat(0))], true, 90_000);
    assert!(!early.away(Seat(0)));
}
