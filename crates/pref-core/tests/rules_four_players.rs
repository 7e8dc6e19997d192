//! One test (or a few) per rule of R11, four players: the dealer sits out, his talon in raspasy, his whist; each named by its rule id, with exact
//! expected states and errors.
#![allow(missing_docs)]

mod common;
mod rules_common;

use common::{refused, run};
use pref_core::{Action, Deal, Defence, Event, Profile, RuleError, Seat, Stage, WhistCall};
use rules_common::*;

fn four_player_deal(profile: &Profile) -> Deal {
    // Dealer seat 3 sits out; first hand seat 0.
    let hands = vec![cards(A), cards(B), cards(C), vec![]];
    Deal::from_hands(profile, Seat(3), &hands, &cards(TALON), 0).unwrap()
}

fn sochi4() -> Profile {
    let mut p = Profile::sochi();
    p = p.with("players", 4).unwrap();
    p
}

#[test]
fn r11_1_the_dealer_sits_out() {
    let mut d = four_player_deal(&sochi4());
    assert_eq!(d.to_act(), Some(Seat(0)));
    assert_eq!(refused(&mut d, 3, bid("6S")), RuleError::NotInDeal(Seat(3)));
    run(&mut d, &[(0, bid("6S")), (1, bid("pass"))]);
    assert_eq!(d.to_act(), Some(Seat(2)));
    run(&mut d, &[(2, bid("pass"))]);
    assert_eq!(d.declarer(), Some(Seat(0)));
    assert!(d.legal_actions(Seat(3)).is_empty());
}

#[test]
fn r11_3_raspasy_the_dealers_talon_cards_lead_and_can_win() {
    let mut d = four_player_deal(&sochi4());
    run(&mut d, &[(0, bid("pass")), (1, bid("pass"))]);
    let ev = d.apply(Seat(2), bid("pass")).unwrap();
    assert!(ev.contains(&Event::TalonCardTurned {
        trick: 0,
        card: card("♥A")
    }));
    assert_eq!(d.current_trick().to_vec(), vec![(Seat(3), card("♥A"))]);
    assert_eq!(d.to_act(), Some(Seat(0)));
    run(
        &mut d,
        &[
            (0, Action::Play(card("♥K"))),
            (1, Action::Play(card("♥9"))),
            (2, Action::Play(card("♥8"))),
        ],
    );
    // ♥A, the dealer's, wins trick 1.
    assert_eq!(d.tricks_taken(), [0, 0, 0, 1]);
    assert_eq!(d.current_trick().to_vec(), vec![(Seat(3), card("♣9"))]);
    run(
        &mut d,
        &[
            (0, Action::Play(card("♣8"))),
            (1, Action::Play(card("♣A"))),
            (2, Action::Play(card("♣10"))),
        ],
    );
    assert_eq!(d.tricks_taken(), [0, 1, 0, 1]);
    // Trick 3 is led by first hand.
    assert_eq!(d.to_act(), Some(Seat(0)));
    assert!(d.current_trick().is_empty());
}

#[test]
fn r11_4_dealer_whist_after_two_passes_plays_both_hands_open() {
    let mut d = four_player_deal(&sochi4());
    run(
        &mut d,
        &[
            (0, bid("6S")),
            (1, bid("pass")),
            (2, bid("pass")),
            (0, Action::Discard(set("♣7 ♦8"))),
            (0, Action::Declare("6S".parse().unwrap())),
            (1, whist(WhistCall::Pass)),
            (2, whist(WhistCall::Pass)),
        ],
    );
    assert_eq!(d.to_act(), Some(Seat(3)));
    assert_eq!(
        refused(&mut d, 3, whist(WhistCall::Half)),
        RuleError::DealerHalfWhist
    );
    run(&mut d, &[(3, whist(WhistCall::Whist))]);
    assert_eq!(d.stage(), Stage::Play);
    assert_eq!(d.defence(), Some(Defence::Open));
    assert_eq!(d.controller(Seat(1)), Seat(3));
    assert_eq!(d.controller(Seat(2)), Seat(3));
    run(&mut d, &[(0, Action::Play(card("♠7")))]);
    assert_eq!(d.to_act(), Some(Seat(3)));
    // Without dealer_whist, two passes concede.
    let mut p = sochi4();
    p = p.with("dealer_whist", false).unwrap();
    let mut d = four_player_deal(&p);
    run(
        &mut d,
        &[
            (0, bid("6S")),
            (1, bid("pass")),
            (2, bid("pass")),
            (0, Action::Discard(set("♣7 ♦8"))),
            (0, Action::Declare("6S".parse().unwrap())),
            (1, whist(WhistCall::Pass)),
            (2, whist(WhistCall::Pass)),
        ],
    );
    assert!(d.is_finished());
}
