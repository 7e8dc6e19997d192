//! Misère without talon and nine without talon (`misere_without_talon`): the two calls and
//! their place (R3.10–R3.10.3), no talon (R4.6), their scoring (R8.12) and the amendments
//! to R3.6, R4.5 and R11.6, with the numbered examples 7–10 of the rules as tests with
//! their exact values.
#![allow(missing_docs)]

mod common;

use common::{bid, cards, game, misere, run, worked_hands};
use pref_core::{
    Action, Bid, Call, Contract, Deal, Defence, Event, Game, Outcome, OutcomeKind, Profile,
    RuleError, Seat, Stage, Viewer,
};
use serde_json::json;

fn no_talon_profile() -> Profile {
    common::profile(json!({"preset": "sochi", "misere_without_talon": true}))
}

fn deal(p: &Profile) -> Deal {
    Deal::from_hands(p, Seat(2), &worked_hands(), &cards(common::WORKED_TALON), 0).unwrap()
}

const MWT: Action = Action::Bid(Call::Bid(Bid::MISERE_NO_TALON));
const NWT: Action = Action::Bid(Call::Bid(Bid::NINE_NO_TALON));

fn declare(s: &str) -> Action {
    Action::Declare(s.parse().unwrap())
}

fn scored(p: &Profile, o: Outcome) -> Game {
    let mut g = Game::new(p.clone(), Seat(2)).unwrap();
    g.record_outcome(o).unwrap();
    g
}

/// The nine without talon of examples 7 and 8: B declares 9♥, C whists, A passes, closed.
fn nine_no_talon(t: &[u8]) -> Outcome {
    let mut o = game(3, 2, 1, "9H", "p - w", t);
    o.no_talon = true;
    if let OutcomeKind::Game { defence, .. } = &mut o.kind {
        *defence = Some(Defence::Closed);
    }
    o
}

#[test]
fn example_7_r3_10_nine_without_talon_over_misere_without_talon() {
    let p = no_talon_profile();
    let mut d = deal(&p);
    run(
        &mut d,
        &[(0, bid("misere")), (1, bid("9S")), (2, bid("pass"))],
    );
    // R3.10.1: A's one further turn: MWT or pass, nothing else.
    assert_eq!(d.turn(), Some(Seat(0)));
    assert_eq!(d.legal_actions(Seat(0)).to_vec(), vec![bid("pass"), MWT]);
    assert_eq!(
        common::refused(&mut d, 0, bid("9C")),
        RuleError::MisereCallerTurn
    );
    run(&mut d, &[(0, MWT)]);
    assert!(d.legal_actions(Seat(1)).contains(&NWT));
    let events = d.apply(Seat(1), NWT).unwrap();
    // A is out: B wins with 9WT, takes no talon and has no discard (R4.6).
    assert_eq!(d.declarer(), Some(Seat(1)));
    assert_eq!(d.stage(), Stage::Declare);
    assert!(d.is_no_talon());
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::TalonTurned { .. }))
    );
    assert_eq!(d.hand(Seat(1)).len(), 10);
    assert_eq!(d.talon_shown(), 0);
    assert_eq!(d.view(Viewer::Seat(Seat(1))).talon, [None, None]);
    // His only nine was 9♠: every nine is allowed, a ten is not.
    let legal: Vec<Action> = d.legal_actions(Seat(1)).to_vec();
    assert_eq!(legal, ["9S", "9C", "9D", "9H", "9NT"].map(declare).to_vec());
    assert!(matches!(
        common::refused(&mut d, 1, declare("10S")),
        RuleError::NineNoTalonContract { .. }
    ));
    assert!(matches!(
        common::refused(&mut d, 1, Action::Surrender),
        RuleError::WrongStage { .. } | RuleError::Surrender(_)
    ));
    run(&mut d, &[(1, declare("9H"))]);
    // First defender C, second A (R4.6, R5.1).
    assert_eq!(d.stage(), Stage::Whist);
    assert_eq!(d.turn(), Some(Seat(2)));
    let g = scored(&p, nine_no_talon(&[0, 9, 1]));
    assert_eq!(g.sheet().pool(), [0, 8, 0]);
    assert_eq!(g.sheet().whists(Seat(2), Seat(1)), 8);
    assert_eq!(g.sheet().mountain(), [0, 0, 0]);
}

#[test]
fn example_8_r8_12_nine_without_talon_failed() {
    let g = scored(&no_talon_profile(), nine_no_talon(&[0, 8, 2]));
    assert_eq!(g.sheet().mountain(), [0, 8, 0]);
    assert_eq!(g.sheet().whists(Seat(2), Seat(1)), 24);
    assert_eq!(g.sheet().whists(Seat(0), Seat(1)), 8);
}

#[test]
fn example_9_r4_6_r8_12_misere_without_talon_played_with_ten_cards() {
    let p = no_talon_profile();
    let mut d = deal(&p);
    run(
        &mut d,
        &[
            (0, bid("misere")),
            (1, bid("9S")),
            (2, bid("pass")),
            (0, MWT),
            (1, bid("pass")),
        ],
    );
    assert_eq!(d.declarer(), Some(Seat(0)));
    assert!(d.is_misere() && d.is_no_talon());
    // No talon, no discard, no contract: the play starts at once, A leads.
    assert_eq!(d.stage(), Stage::Play);
    assert_eq!(d.hand(Seat(0)).len(), 10);
    assert_eq!(d.talon_shown(), 0);
    // R6.5: the defenders' hands open after the declarer's first card.
    let a = d.legal_actions(Seat(0)).get(0).unwrap();
    let events = d.apply(Seat(0), a).unwrap();
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, Event::HandOpened { .. }))
            .count(),
        2
    );
    let mut made = misere(3, 2, 0, &[0, 5, 5]);
    made.no_talon = true;
    assert_eq!(scored(&p, made).sheet().pool(), [10, 0, 0]);
    let mut failed = misere(3, 2, 0, &[2, 4, 4]);
    failed.no_talon = true;
    assert_eq!(scored(&p, failed).sheet().mountain(), [20, 0, 0]);
}

#[test]
fn example_10_r3_10_2_nine_without_talon_held_with_here() {
    let p = no_talon_profile();
    let mut d = deal(&p);
    run(
        &mut d,
        &[
            (0, bid("misere")),
            (1, bid("9S")),
            (2, bid("9C")),
            (0, bid("pass")),
            (1, bid("9D")),
            (2, NWT),
            (1, NWT),
            (2, bid("pass")),
        ],
    );
    assert_eq!(d.declarer(), Some(Seat(1)));
    assert_eq!(d.stage(), Stage::Declare);
    for refused in ["9S", "9C"] {
        assert_eq!(
            common::refused(&mut d, 1, declare(refused)),
            RuleError::NineNoTalonContract {
                contract: refused.parse::<Contract>().unwrap(),
                lowest: "9D".parse().unwrap(),
            }
        );
    }
    assert_eq!(
        d.legal_actions(Seat(1)).to_vec(),
        ["9D", "9H", "9NT"].map(declare).to_vec()
    );
    run(&mut d, &[(1, declare("9NT"))]);
}

#[test]
fn r3_10_2_nine_without_talon_needs_a_misere_by_another_and_a_junior_cannot_hold_it() {
    let p = no_talon_profile();
    let mut d = deal(&p);
    // No misère yet: 9WT is not available.
    assert_eq!(common::refused(&mut d, 0, NWT), RuleError::NineNoTalonBar);
    run(&mut d, &[(0, bid("misere"))]);
    // Over misère, 9WT is not bound by the no-skipping rule.
    run(&mut d, &[(1, NWT)]);
    // R3.10.1: a misère outbid directly by 9WT leaves its caller no turn: he is out.
    run(&mut d, &[(2, bid("pass"))]);
    assert_eq!(d.declarer(), Some(Seat(1)));

    let mut d = deal(&p);
    run(&mut d, &[(0, bid("6S")), (1, bid("misere")), (2, NWT)]);
    // The misère caller never calls 9WT; a senior may hold it (A is senior to C).
    assert!(d.legal_actions(Seat(0)).contains(&NWT));
    run(&mut d, &[(0, NWT)]);
    // C, junior, must go higher or pass: 9WT again is refused.
    assert!(matches!(
        common::refused(&mut d, 2, NWT),
        RuleError::HereByJunior { .. }
    ));
    assert!(d.legal_actions(Seat(2)).contains(&bid("10S")));
}

#[test]
fn r3_10_1_misere_without_talon_only_by_the_outbid_misere_caller() {
    let p = no_talon_profile();
    let mut d = deal(&p);
    assert_eq!(common::refused(&mut d, 0, MWT), RuleError::MisereNoTalonBar);
    run(&mut d, &[(0, bid("misere"))]);
    assert_eq!(common::refused(&mut d, 1, MWT), RuleError::MisereNoTalonBar);
    run(&mut d, &[(1, bid("9S")), (2, bid("pass")), (0, MWT)]);
    // MWT cannot be held with here, and after it the next step is 10♠.
    assert!(matches!(
        common::refused(&mut d, 1, bid("9C")),
        RuleError::NotNextStep { .. }
    ));
    assert_eq!(
        d.legal_actions(Seat(1)).to_vec(),
        vec![bid("pass"), bid("10S"), NWT]
    );
    // After his MWT A makes no further calls: outbid, he is out.
    run(&mut d, &[(1, bid("10S"))]);
    assert_eq!(d.declarer(), Some(Seat(1)));
    assert_eq!(d.stage(), Stage::Discard);
}

#[test]
fn r3_10_one_further_turn_comes_in_clockwise_order() {
    let p = no_talon_profile();
    let mut d = deal(&p);
    run(&mut d, &[(0, bid("misere")), (1, bid("9S"))]);
    assert_eq!(d.turn(), Some(Seat(2)));
    run(&mut d, &[(2, bid("9C"))]);
    assert_eq!(d.turn(), Some(Seat(0)));
    run(&mut d, &[(0, bid("pass"))]);
    assert_eq!(d.turn(), Some(Seat(1)));
    // Once out, A has no more turns.
    run(&mut d, &[(1, bid("pass"))]);
    assert_eq!(d.declarer(), Some(Seat(2)));
}

#[test]
fn r3_10_without_the_option_there_are_no_no_talon_calls() {
    let mut d = deal(&Profile::sochi());
    run(&mut d, &[(0, bid("misere"))]);
    assert_eq!(common::refused(&mut d, 1, NWT), RuleError::NoTalonOff);
    assert!(!d.legal_actions(Seat(1)).contains(&NWT));
    // R3.6 unchanged: the outbid misère caller is out at once.
    run(&mut d, &[(1, bid("9S")), (2, bid("pass"))]);
    assert_eq!(d.declarer(), Some(Seat(1)));
}

#[test]
fn r3_6_no_talon_calls_only_where_misere_is_allowed() {
    let p = common::profile(
        json!({"preset": "sochi", "misere_without_talon": true, "raspasy_exit": [9]}),
    );
    let mut g = Game::new(p.clone(), Seat(2)).unwrap();
    g.record_outcome(common::raspasy(3, 2, &[4, 3, 3])).unwrap();
    let mut o = misere(3, 0, 1, &[0, 0, 10]);
    o.no_talon = true;
    let e = g.record_outcome(o).unwrap_err();
    assert!(e.to_string().contains("R3.10"), "{e}");
}

#[test]
fn r11_6_no_talon_bonus_after_nine_without_talon() {
    let p = common::profile(json!({
        "preset": "sochi4", "misere_without_talon": true, "talon_bonus": true
    }));
    let mut o = game(4, 3, 1, "9H", "w - p -", &[9, 0, 1, 0]);
    o.no_talon = true;
    let mut g = Game::new(p.clone(), Seat(3)).unwrap();
    o.dealer = Seat(3);
    o.tricks = Some([1, 9, 0, 0]);
    if let OutcomeKind::Game { defence, .. } = &mut o.kind {
        *defence = Some(Defence::Closed);
    }
    g.record_outcome(o).unwrap();
    assert_eq!(g.sheet().whists(Seat(3), Seat(1)), 0);
    assert_eq!(g.sheet().pool()[1], 8);
    // And a units entry on a 9WT outcome is refused.
    let mut g = Game::new(p, Seat(3)).unwrap();
    let bad = common::with_units(o, 2);
    assert!(g.record_outcome(bad).is_err());
}

#[test]
fn r4_6_nine_without_talon_must_name_a_nine_in_the_outcome_form() {
    let mut o = game(3, 2, 1, "10H", "p - w", &[0, 10, 0]);
    o.no_talon = true;
    let mut g = Game::new(no_talon_profile(), Seat(2)).unwrap();
    let e = g.record_outcome(o).unwrap_err();
    assert!(e.to_string().contains("R4.6"), "{e}");
}
