//! One test (or a few) per rule of R4 and R5, the talon and the whist: the discard, the contract, whists, half-whists, open and closed play; each named by its rule id, with exact
//! expected states and errors.
#![allow(missing_docs)]

mod common;
mod rules_common;

use common::{refused, run};
use pref_core::error::HalfWhistBar;
use pref_core::{
    Action, Call, Defence, Event, OutcomeKind, Profile, RuleError, Seat, Stage, WhistCall,
};
use rules_common::*;

#[test]
fn r4_2_discard_exactly_two_held_cards() {
    let mut d = deal();
    run(
        &mut d,
        &[(0, bid("6S")), (1, bid("pass")), (2, bid("pass"))],
    );
    assert_eq!(
        refused(&mut d, 0, Action::Discard(set("♣7"))),
        RuleError::DiscardSize(1)
    );
    assert_eq!(
        refused(&mut d, 0, Action::Discard(set("♣7 ♦8 ♠7"))),
        RuleError::DiscardSize(3)
    );
    assert_eq!(
        refused(&mut d, 0, Action::Discard(set("♣7 ♠A"))),
        RuleError::DiscardNotHeld(card("AS"))
    );
    assert_eq!(d.legal_actions(Seat(0)).len(), 66);
    // Talon cards may be discarded.
    run(&mut d, &[(0, Action::Discard(set("♥A ♣9")))]);
    assert_eq!(d.hand(Seat(0)), set(A));
    assert_eq!(d.discard(), set("♥A ♣9"));
    assert_eq!(d.stage(), Stage::Declare);
}

#[test]
fn r4_3_contract_not_below_the_winning_bid() {
    let mut d = deal();
    run(
        &mut d,
        &[
            (0, bid("6S")),
            (1, bid("6C")),
            (2, bid("pass")),
            (0, bid("6C")),
            (1, bid("6D")),
            (0, bid("6D")),
            (1, bid("6H")),
            (0, bid("6H")),
            (1, bid("pass")),
            (0, Action::Discard(set("♣7 ♦8"))),
        ],
    );
    let legal: Vec<String> = d
        .legal_actions(Seat(0))
        .iter()
        .map(|a| match a {
            Action::Declare(c) => c.to_string(),
            other => panic!("{other}"),
        })
        .collect();
    assert_eq!(legal.len(), 22);
    assert_eq!(&legal[..3], ["6H", "6NT", "7S"]);
    assert!(!legal.iter().any(|c| c == "6D"));
    assert!(matches!(
        refused(&mut d, 0, Action::Declare("6D".parse().unwrap())),
        RuleError::ContractBelowBid { .. }
    ));
    assert!(matches!(
        refused(&mut d, 0, Action::Bid(Call::Pass)),
        RuleError::WrongStage { .. }
    ));
}

#[test]
fn r4_3_misere_declarer_names_nothing() {
    let mut d = deal();
    run(
        &mut d,
        &[(0, bid("misere")), (1, bid("pass")), (2, bid("pass"))],
    );
    assert!(d.is_misere());
    run(&mut d, &[(0, Action::Discard(set("♥A ♥K")))]);
    assert_eq!(d.stage(), Stage::Play);
}

#[test]
fn r5_1_two_whists_play_closed() {
    let mut d = a_declares(&Profile::sochi(), "6S");
    assert_eq!(d.to_act(), Some(Seat(1)));
    run(
        &mut d,
        &[(1, whist(WhistCall::Whist)), (2, whist(WhistCall::Whist))],
    );
    assert_eq!(d.stage(), Stage::Play);
    assert_eq!(d.defence(), Some(Defence::Closed));
    assert_eq!(d.open_seats(), 0);
}

#[test]
fn r5_2_half_whist_standing() {
    let mut d = a_declares(&Profile::sochi(), "7S");
    // The first defender cannot half-whist.
    assert_eq!(
        refused(&mut d, 1, whist(WhistCall::Half)),
        RuleError::HalfWhist(HalfWhistBar::NotAfterPass)
    );
    run(
        &mut d,
        &[(1, whist(WhistCall::Pass)), (2, whist(WhistCall::Half))],
    );
    // Back to the first defender: pass (it stands) or whist (returned).
    assert_eq!(d.to_act(), Some(Seat(1)));
    assert_eq!(
        d.legal_actions(Seat(1)).to_vec(),
        vec![whist(WhistCall::Whist), whist(WhistCall::Pass)]
    );
    run(&mut d, &[(1, whist(WhistCall::Pass))]);
    assert!(d.is_finished());
    let o = d.outcome().unwrap();
    assert_eq!(o.tricks, None);
    let OutcomeKind::Game { whist, .. } = o.kind else {
        panic!()
    };
    assert_eq!(
        whist,
        [None, Some(WhistCall::Pass), Some(WhistCall::Half), None]
    );
}

#[test]
fn r5_2_returned_whist_is_played_by_the_returner() {
    let mut d = a_declares(&Profile::sochi(), "6S");
    run(
        &mut d,
        &[
            (1, whist(WhistCall::Pass)),
            (2, whist(WhistCall::Half)),
            (1, whist(WhistCall::Whist)),
        ],
    );
    assert_eq!(d.stage(), Stage::Defence);
    assert_eq!(d.to_act(), Some(Seat(1)));
    run(&mut d, &[(1, Action::Defence(Defence::Closed))]);
    assert_eq!(d.stage(), Stage::Play);
    assert_eq!(
        d.whist_calls(),
        [None, Some(WhistCall::Whist), Some(WhistCall::Half), None]
    );
}

#[test]
fn r5_2_no_half_whist_against_8_or_when_off() {
    let mut d = a_declares(&Profile::sochi(), "8S");
    run(&mut d, &[(1, whist(WhistCall::Pass))]);
    assert_eq!(
        refused(&mut d, 2, whist(WhistCall::Half)),
        RuleError::HalfWhist(HalfWhistBar::Level(8))
    );
    let mut p = Profile::sochi();
    p = p.with("half_whist", false).unwrap();
    let mut d = a_declares(&p, "6S");
    run(&mut d, &[(1, whist(WhistCall::Pass))]);
    assert_eq!(
        refused(&mut d, 2, whist(WhistCall::Half)),
        RuleError::HalfWhist(HalfWhistBar::Disabled)
    );
}

#[test]
fn r5_3_greedy_whist_then_pass_has_no_half() {
    let mut d = a_declares(&Profile::sochi(), "6S");
    run(&mut d, &[(1, whist(WhistCall::Whist))]);
    assert_eq!(
        refused(&mut d, 2, whist(WhistCall::Half)),
        RuleError::HalfWhist(HalfWhistBar::NotAfterPass)
    );
    run(&mut d, &[(2, whist(WhistCall::Pass))]);
    // The lone whister chooses; he cannot withdraw.
    assert_eq!(d.stage(), Stage::Defence);
    assert_eq!(d.to_act(), Some(Seat(1)));
}

#[test]
fn r5_4_two_passes_concede() {
    let mut d = a_declares(&Profile::sochi(), "6S");
    run(
        &mut d,
        &[(1, whist(WhistCall::Pass)), (2, whist(WhistCall::Pass))],
    );
    assert!(d.is_finished());
    assert_eq!(d.outcome().unwrap().tricks, None);
    assert_eq!(d.outcome().unwrap().made(), Some(true));
}

#[test]
fn r5_5_open_play_the_whister_plays_both_hands() {
    let mut d = a_declares(&Profile::sochi(), "6S");
    run(
        &mut d,
        &[(1, whist(WhistCall::Pass)), (2, whist(WhistCall::Whist))],
    );
    assert_eq!(d.to_act(), Some(Seat(2)));
    let ev = d.apply(Seat(2), Action::Defence(Defence::Open)).unwrap();
    assert!(ev.contains(&Event::HandOpened {
        seat: Seat(1),
        hand: set(B)
    }));
    assert!(ev.contains(&Event::HandOpened {
        seat: Seat(2),
        hand: set(C)
    }));
    // A leads; then seat 1's card is played by seat 2.
    run(&mut d, &[(0, Action::Play(card("♥K")))]);
    assert_eq!(d.turn(), Some(Seat(1)));
    assert_eq!(d.to_act(), Some(Seat(2)));
    assert_eq!(
        d.act(Seat(1), Action::Play(card("♥9"))).unwrap_err(),
        RuleError::PlayedByPartner {
            seat: Seat(1),
            controller: Seat(2)
        }
    );
    d.act(Seat(2), Action::Play(card("♥9"))).unwrap();
    assert_eq!(
        d.legal_actions_for(Seat(2)).to_vec(),
        vec![Action::Play(card("♥8"))]
    );
}

#[test]
fn r5_6_unwhisted_ten_is_played_at_once() {
    let mut p = Profile::sochi();
    p = p.with("ten_whisted", false).unwrap();
    let d = a_declares(&p, "10NT");
    assert_eq!(d.stage(), Stage::Play);
    assert_eq!(d.whist_calls(), [None; 4]);
    let d = a_declares(&Profile::sochi(), "10NT");
    assert_eq!(d.stage(), Stage::Whist);
}

#[test]
fn r5_7_stalingrad_forces_whist_against_six_spades() {
    let mut p = Profile::sochi();
    p = p.with("stalingrad", true).unwrap();
    let mut d = a_declares(&p, "6S");
    assert_eq!(
        refused(&mut d, 1, whist(WhistCall::Pass)),
        RuleError::Stalingrad
    );
    assert_eq!(
        d.legal_actions(Seat(1)).to_vec(),
        vec![whist(WhistCall::Whist)]
    );
    run(
        &mut d,
        &[(1, whist(WhistCall::Whist)), (2, whist(WhistCall::Whist))],
    );
    assert_eq!(d.defence(), Some(Defence::Closed));
    // Against 6♣ it does not bind.
    let mut d = a_declares(&p, "6C");
    run(&mut d, &[(1, whist(WhistCall::Pass))]);
}

#[test]
fn r4_1_r4_4_talon_shown_then_no_way_out() {
    let mut d = deal();
    run(&mut d, &[(0, bid("6S")), (1, bid("pass"))]);
    let ev = d.apply(Seat(2), bid("pass")).unwrap();
    // R4.1: the talon is turned for everybody before the declarer takes it.
    let turned = ev
        .iter()
        .position(|e| matches!(e, Event::TalonTurned { .. }))
        .unwrap();
    let won = ev
        .iter()
        .position(|e| matches!(e, Event::AuctionWon { .. }))
        .unwrap();
    assert!(won < turned);
    assert_eq!(d.talon_shown(), 2);
    // R4.4: the only thing the declarer can do is discard, then name a contract.
    assert!(
        d.legal_actions(Seat(0))
            .iter()
            .all(|a| matches!(a, Action::Discard(_)))
    );
    run(&mut d, &[(0, Action::Discard(set("♣7 ♦8")))]);
    assert!(
        d.legal_actions(Seat(0))
            .iter()
            .all(|a| matches!(a, Action::Declare(_)))
    );
    assert!(matches!(
        refused(&mut d, 0, Action::Discard(set("♣8 ♦K"))),
        RuleError::WrongStage { .. }
    ));
}
