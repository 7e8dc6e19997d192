//! One test (or a few) per rule of R3, the auction: who speaks, the ladder of calls, misère, raspasy when all pass; each named by its rule id, with exact
//! expected states and errors.
#![allow(missing_docs)]

mod common;
mod rules_common;

use common::{refused, run};
use pref_core::{Action, Bid, Event, Profile, RuleError, Seat, Stage};
use rules_common::*;

#[test]
fn r3_2_first_hand_speaks_first() {
    let mut d = deal();
    assert_eq!(d.to_act(), Some(Seat(0)));
    assert_eq!(
        refused(&mut d, 1, bid("6S")),
        RuleError::NotYourTurn {
            seat: Seat(1),
            expected: Seat(0)
        }
    );
    assert_eq!(refused(&mut d, 3, bid("6S")), RuleError::NotInDeal(Seat(3)));
}

#[test]
fn r3_3_no_skipping_and_the_opening_step() {
    let mut d = deal();
    assert_eq!(
        refused(&mut d, 0, bid("7S")),
        RuleError::NotNextStep {
            bid: "7S".parse().unwrap(),
            next: Bid::LOWEST
        }
    );
    run(&mut d, &[(0, bid("6S"))]);
    assert_eq!(
        refused(&mut d, 1, bid("6D")),
        RuleError::NotNextStep {
            bid: "6D".parse().unwrap(),
            next: "6C".parse().unwrap()
        }
    );
    let legal: Vec<Action> = d.legal_actions(Seat(1)).to_vec();
    assert_eq!(legal, vec![bid("pass"), bid("6C"), bid("misere")]);
}

#[test]
fn r3_3_raspasy_exit_raises_the_opening_step() {
    let mut p = Profile::sochi();
    p = p.with("raspasy_exit", vec![6, 7, 8]).unwrap();
    assert_eq!(
        deal_with(&p, 0).legal_actions(Seat(0)).to_vec()[1],
        bid("6S")
    );
    assert_eq!(
        deal_with(&p, 1).legal_actions(Seat(0)).to_vec()[1],
        bid("6S")
    );
    assert_eq!(
        deal_with(&p, 2).legal_actions(Seat(0)).to_vec()[1],
        bid("7S")
    );
    let mut d = deal_with(&p, 5);
    assert_eq!(
        d.legal_actions(Seat(0)).to_vec(),
        vec![bid("pass"), bid("8S"), bid("misere")]
    );
    assert!(matches!(
        refused(&mut d, 0, bid("6S")),
        RuleError::NotNextStep { .. }
    ));
    // R3.6: with 9 as the lowest level misère is not allowed.
    p = p.with("raspasy_exit", vec![9]).unwrap();
    let mut d = deal_with(&p, 1);
    assert_eq!(
        d.legal_actions(Seat(0)).to_vec(),
        vec![bid("pass"), bid("9S")]
    );
    assert_eq!(
        refused(&mut d, 0, bid("misere")),
        RuleError::MisereBelowExit { min_level: 9 }
    );
}

#[test]
fn r3_4_here_only_by_a_senior_hand() {
    let mut d = deal();
    run(&mut d, &[(0, bid("6S"))]);
    // B is junior to A: he cannot hold 6♠.
    assert_eq!(
        refused(&mut d, 1, bid("6S")),
        RuleError::HereByJunior {
            bid: "6S".parse().unwrap(),
            holder: Seat(0)
        }
    );
    run(&mut d, &[(1, bid("6C"))]);
    // C is junior to B too.
    assert!(matches!(
        refused(&mut d, 2, bid("6C")),
        RuleError::HereByJunior { .. }
    ));
    run(&mut d, &[(2, bid("6D")), (0, bid("pass"))]);
    // B is senior to C once A passed: B may hold 6♦ (R3.4, second over third).
    assert!(d.legal_actions(Seat(1)).contains(&bid("6D")));
    run(&mut d, &[(1, bid("6D")), (2, bid("pass"))]);
    assert_eq!(d.declarer(), Some(Seat(1)));
    assert_eq!(d.highest_bid(), Some(("6D".parse().unwrap(), Seat(1))));
}

#[test]
fn r3_5_a_pass_is_final() {
    let mut d = deal();
    run(&mut d, &[(0, bid("pass")), (1, bid("6S")), (2, bid("6C"))]);
    // A passed: the turn goes back to B.
    assert_eq!(d.to_act(), Some(Seat(1)));
    assert!(matches!(
        refused(&mut d, 0, bid("6D")),
        RuleError::NotYourTurn { .. }
    ));
}

#[test]
fn r3_6_misere_first_call_only_and_the_ladder_around_it() {
    let mut d = deal();
    run(&mut d, &[(0, bid("6S"))]);
    // B's first call may be misère over 6♠.
    run(&mut d, &[(1, bid("misere"))]);
    // Only one misère per auction, and it cannot be held with here.
    assert_eq!(
        refused(&mut d, 2, bid("misere")),
        RuleError::MisereTooLate {
            standing: Bid::MISERE
        }
    );
    assert_eq!(
        d.legal_actions(Seat(2)).to_vec(),
        vec![bid("pass"), bid("9S")]
    );
    run(&mut d, &[(2, bid("pass"))]);
    // A already spoke: misère is not a second call; the next step is 9♠.
    assert_eq!(
        d.legal_actions(Seat(0)).to_vec(),
        vec![bid("pass"), bid("9S")]
    );
    run(&mut d, &[(0, bid("9S"))]);
    // B, overcalled, is out as if he had passed: A wins 9♠ at once.
    assert_eq!(d.stage(), Stage::Discard);
    assert_eq!(d.declarer(), Some(Seat(0)));
}

#[test]
fn r3_6_misere_not_as_a_second_call() {
    let mut d = deal();
    run(&mut d, &[(0, bid("6S")), (1, bid("6C")), (2, bid("pass"))]);
    assert_eq!(
        refused(&mut d, 0, bid("misere")),
        RuleError::MisereNotFirstCall
    );
}

#[test]
fn r3_6_misere_bidder_makes_no_further_calls() {
    let mut d = deal();
    run(&mut d, &[(0, bid("misere")), (1, bid("pass"))]);
    // C speaks; A, the misère bidder, never speaks again.
    assert_eq!(d.to_act(), Some(Seat(2)));
    assert_eq!(
        d.legal_actions(Seat(2)).to_vec(),
        vec![bid("pass"), bid("9S")]
    );
    run(&mut d, &[(2, bid("9S"))]);
    // Overcalled, A is out: C is alone and wins 9♠.
    assert_eq!(d.declarer(), Some(Seat(2)));
    assert_eq!(d.highest_bid(), Some(("9S".parse().unwrap(), Seat(2))));
    // A misère nobody overcalls is won.
    let mut d = deal();
    run(
        &mut d,
        &[(0, bid("misere")), (1, bid("pass")), (2, bid("pass"))],
    );
    assert_eq!(d.declarer(), Some(Seat(0)));
    assert!(d.is_misere());
}

#[test]
fn r3_6_after_8nt_the_next_step_is_9_spades() {
    let mut p = Profile::sochi();
    p = p.with("raspasy_exit", vec![8]).unwrap();
    let mut d = deal_with(&p, 1);
    for b in ["8S", "8C", "8D", "8H", "8NT"] {
        let s = d.to_act().unwrap().0;
        run(&mut d, &[(s, bid(b))]);
    }
    let s = d.to_act().unwrap();
    assert!(d.legal_actions(s).contains(&bid("9S")));
    assert!(d.legal_actions(s).contains(&bid("misere")) == (d.last_calls()[s.index()].is_none()));
}

#[test]
fn r3_7_all_pass_is_raspasy() {
    let mut d = deal();
    run(&mut d, &[(0, bid("pass")), (1, bid("pass"))]);
    let ev = d.apply(Seat(2), bid("pass")).unwrap();
    assert!(ev.contains(&Event::AllPassed));
    assert!(d.is_raspasy());
    assert_eq!(d.stage(), Stage::Play);
    assert_eq!(d.to_act(), Some(Seat(0)));
}
