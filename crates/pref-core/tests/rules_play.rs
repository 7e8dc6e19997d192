//! One test (or a few) per rule of R6 and R7, the play: following suit, trumps, who leads, misère hands opened, raspasy tricks, and nothing after the end; each named by its rule id, with exact
//! expected states and errors.
#![allow(missing_docs)]

mod common;
mod rules_common;

use common::{refused, run};
use pref_core::{Action, Deal, Event, Profile, RuleError, Seat, Suit, WhistCall};
use rules_common::*;

#[test]
fn r6_2_follow_then_trump_then_anything() {
    // 7♥ by A, both whist: B on a spade lead must follow ♠.
    let mut d = a_declares_both_whist(&Profile::sochi(), "7H");
    run(&mut d, &[(0, Action::Play(card("♠7")))]);
    assert_eq!(
        refused(&mut d, 1, Action::Play(card("♥9"))),
        RuleError::MustFollow {
            seat: Seat(1),
            suit: Suit::Spades
        }
    );
    assert_eq!(
        refused(&mut d, 1, Action::Play(card("♦8"))),
        RuleError::NotHeld {
            seat: Seat(1),
            card: card("♦8")
        }
    );
    run(
        &mut d,
        &[(1, Action::Play(card("♠A"))), (2, Action::Play(card("♠9")))],
    );
    // B leads ♣A; C follows; A has ♣8 ♣9 (♣7 discarded).
    run(
        &mut d,
        &[
            (1, Action::Play(card("♣A"))),
            (2, Action::Play(card("♣10"))),
        ],
    );
    assert_eq!(
        d.legal_actions(Seat(0)).to_vec(),
        vec![Action::Play(card("♣8")), Action::Play(card("♣9"))]
    );
    run(&mut d, &[(0, Action::Play(card("♣8")))]);
    // B leads ♦Q: C follows, A has ♦A ♦K: follow.
    run(
        &mut d,
        &[
            (1, Action::Play(card("♣K"))),
            (2, Action::Play(card("♣J"))),
            (0, Action::Play(card("♣9"))),
        ],
    );
    // B won with ♣K; B leads ♣: C has ♣Q; A is void in ♣ and must trump ♥.
    run(
        &mut d,
        &[(1, Action::Play(card("♠K"))), (2, Action::Play(card("♠8")))],
    );
    assert_eq!(
        refused(&mut d, 0, Action::Play(card("♦A"))),
        RuleError::MustTrump {
            seat: Seat(0),
            led: Suit::Spades,
            trump: Suit::Hearts
        }
    );
    let legal = d.legal_actions(Seat(0));
    assert!(
        legal
            .iter()
            .all(|a| matches!(a, Action::Play(c) if c.suit() == Suit::Hearts))
    );
    assert_eq!(legal.len(), 5);
}

#[test]
fn r6_2_must_overtake_when_the_house_plays_it() {
    let mut p = Profile::sochi();
    p = p.with("must_overtake", true).unwrap();
    let mut d = deal_with(&p, 0);
    run(
        &mut d,
        &[
            (0, bid("6S")),
            (1, bid("pass")),
            (2, bid("pass")),
            (0, Action::Discard(set("♣7 ♦K"))),
            (0, Action::Declare("7H".parse().unwrap())),
            (1, whist(WhistCall::Whist)),
            (2, whist(WhistCall::Whist)),
            (0, Action::Play(card("♠7"))),
            (1, Action::Play(card("♠A"))),
        ],
    );
    // C cannot beat ♠A: any spade.
    assert_eq!(d.legal_actions(Seat(2)).len(), 4);
    run(
        &mut d,
        &[
            (2, Action::Play(card("♠8"))),
            (1, Action::Play(card("♦10"))),
            (2, Action::Play(card("♦7"))),
        ],
    );
    // A holds ♦A ♦8: only ♦A beats the trick, so ♦8 is refused.
    assert_eq!(
        d.legal_actions(Seat(0)).to_vec(),
        vec![Action::Play(card("♦A"))]
    );
    assert_eq!(
        refused(&mut d, 0, Action::Play(card("♦8"))),
        RuleError::MustOvertake { seat: Seat(0) }
    );
    // Without the option ♦8 is fine.
    let mut d = deal();
    run(
        &mut d,
        &[
            (0, bid("6S")),
            (1, bid("pass")),
            (2, bid("pass")),
            (0, Action::Discard(set("♣7 ♦K"))),
            (0, Action::Declare("7H".parse().unwrap())),
            (1, whist(WhistCall::Whist)),
            (2, whist(WhistCall::Whist)),
            (0, Action::Play(card("♠7"))),
            (1, Action::Play(card("♠A"))),
            (2, Action::Play(card("♠8"))),
            (1, Action::Play(card("♦10"))),
            (2, Action::Play(card("♦7"))),
            (0, Action::Play(card("♦8"))),
        ],
    );
}

#[test]
fn r6_5_misere_hands_open_when_play_starts_or_after_declarers_first_card() {
    // Declarer B (second hand): defenders' hands open as play starts.
    let mut d = deal();
    run(
        &mut d,
        &[(0, bid("pass")), (1, bid("misere")), (2, bid("pass"))],
    );
    let ev = d.apply(Seat(1), Action::Discard(set("♥A ♣9"))).unwrap();
    assert!(ev.contains(&Event::HandOpened {
        seat: Seat(2),
        hand: set(C)
    }));
    assert!(ev.contains(&Event::HandOpened {
        seat: Seat(0),
        hand: set(A)
    }));
    // Declarer A (first hand): they open right after his first card.
    let mut d = deal();
    run(
        &mut d,
        &[(0, bid("misere")), (1, bid("pass")), (2, bid("pass"))],
    );
    run(&mut d, &[(0, Action::Discard(set("♥A ♥K")))]);
    assert_eq!(d.open_seats(), 0);
    let ev = d.apply(Seat(0), Action::Play(card("♠7"))).unwrap();
    assert!(ev.contains(&Event::HandOpened {
        seat: Seat(1),
        hand: set(B)
    }));
    assert_eq!(d.open_seats(), 0b110);
}

#[test]
fn r7_2_raspasy_first_tricks_follow_the_talon_suit() {
    let mut d = deal();
    run(&mut d, &[(0, bid("pass")), (1, bid("pass"))]);
    let ev = d.apply(Seat(2), bid("pass")).unwrap();
    assert!(ev.contains(&Event::TalonCardTurned {
        trick: 0,
        card: card("♥A")
    }));
    // Trick 1's suit is ♥: A must lead a heart.
    assert_eq!(
        refused(&mut d, 0, Action::Play(card("♠7"))),
        RuleError::MustLeadTalonSuit {
            seat: Seat(0),
            suit: Suit::Hearts
        }
    );
    run(
        &mut d,
        &[
            (0, Action::Play(card("♥10"))),
            (1, Action::Play(card("♥9"))),
        ],
    );
    let ev = d.apply(Seat(2), Action::Play(card("♥8"))).unwrap();
    // The talon card never wins: A's ♥10 takes it.
    assert!(ev.contains(&Event::TrickTaken {
        trick: 0,
        seat: Seat(0)
    }));
    assert!(ev.contains(&Event::TalonCardTurned {
        trick: 1,
        card: card("♣9")
    }));
    // Trick 2: ♣ suit; first hand leads again.
    assert_eq!(d.to_act(), Some(Seat(0)));
    run(&mut d, &[(0, Action::Play(card("♣7")))]);
    // B must play ♣ (he has ♣A ♣K).
    assert_eq!(
        refused(&mut d, 1, Action::Play(card("♠A"))),
        RuleError::MustFollow {
            seat: Seat(1),
            suit: Suit::Clubs
        }
    );
    run(
        &mut d,
        &[(1, Action::Play(card("♣K"))), (2, Action::Play(card("♣Q")))],
    );
    assert_eq!(d.tricks_taken(), [1, 1, 0, 0]);
    // Trick 3: first hand leads any card, even after B won trick 2.
    assert_eq!(d.to_act(), Some(Seat(0)));
}

#[test]
fn r7_2_with_no_talon_suit_played_the_leaders_suit_wins() {
    // C holds no heart but ♥8; give the hearts to nobody but A by leading from a void.
    let hands = vec![
        cards("♠A ♠K ♠Q ♠J ♠10 ♠9 ♠8 ♠7 ♣A ♣K"),
        cards("♦A ♦K ♦Q ♦J ♦10 ♦9 ♦8 ♦7 ♣Q ♣J"),
        cards("♥K ♥Q ♥J ♥10 ♥9 ♥8 ♥7 ♣10 ♣9 ♣8"),
    ];
    let mut d = Deal::from_hands(&Profile::sochi(), Seat(2), &hands, &cards("♥A ♣7"), 0).unwrap();
    run(
        &mut d,
        &[(0, bid("pass")), (1, bid("pass")), (2, bid("pass"))],
    );
    // A has no heart: any card; B has no heart: any card; C must play a heart and wins.
    run(
        &mut d,
        &[(0, Action::Play(card("♠7"))), (1, Action::Play(card("♦A")))],
    );
    assert_eq!(d.legal_actions(Seat(2)).len(), 7);
    let ev = d.apply(Seat(2), Action::Play(card("♥7"))).unwrap();
    assert!(ev.contains(&Event::TrickTaken {
        trick: 0,
        seat: Seat(2)
    }));
    // Trick 2 (♣): A leads ♣A, B ♣Q, C ♣8: A wins. Nobody void.
    run(
        &mut d,
        &[
            (0, Action::Play(card("♣K"))),
            (1, Action::Play(card("♣J"))),
            (2, Action::Play(card("♣8"))),
        ],
    );
    assert_eq!(d.tricks_taken(), [1, 0, 1, 0]);
}

#[test]
fn r7_2_no_talon_suit_at_all_goes_to_the_highest_of_first_hands_suit() {
    let hands = vec![
        cards("♠A ♠K ♠Q ♠J ♦7 ♠9 ♠8 ♠7 ♣A ♣K"),
        cards("♦A ♦K ♦Q ♦J ♦10 ♦9 ♦8 ♠10 ♣Q ♣J"),
        cards("♥K ♥Q ♥J ♥10 ♥9 ♥8 ♥7 ♣10 ♣9 ♣8"),
    ];
    // The talon's first card is a heart, which only C holds; lead ♠ from A, B follows with ♠.
    let mut d = Deal::from_hands(&Profile::sochi(), Seat(0), &hands, &cards("♥A ♣7"), 0).unwrap();
    // Dealer 0: first hand is seat 1 (B).
    run(
        &mut d,
        &[(1, bid("pass")), (2, bid("pass")), (0, bid("pass"))],
    );
    // B has no heart: leads ♠10. C must play a heart (he has them).
    run(&mut d, &[(1, Action::Play(card("♠10")))]);
    assert!(
        d.legal_actions(Seat(2))
            .iter()
            .all(|a| matches!(a, Action::Play(c) if c.suit() == Suit::Hearts))
    );
    run(&mut d, &[(2, Action::Play(card("♥K")))]);
    // A: no hearts, any card. C's heart wins regardless.
    let ev = d.apply(Seat(0), Action::Play(card("♠A"))).unwrap();
    assert!(ev.contains(&Event::TrickTaken {
        trick: 0,
        seat: Seat(2)
    }));
}

#[test]
fn any_action_after_the_end_is_refused() {
    let mut d = a_declares(&Profile::sochi(), "6S");
    run(
        &mut d,
        &[(1, whist(WhistCall::Pass)), (2, whist(WhistCall::Pass))],
    );
    assert_eq!(
        refused(&mut d, 0, Action::Play(card("♠7"))),
        RuleError::DealOver
    );
    assert_eq!(refused(&mut d, 1, bid("pass")), RuleError::DealOver);
}

#[test]
fn r6_1_first_hand_leads_whoever_declares() {
    // B declares; A (first hand) still leads trick 1.
    let mut d = deal();
    run(
        &mut d,
        &[
            (0, bid("pass")),
            (1, bid("6S")),
            (2, bid("pass")),
            (1, Action::Discard(set("♥A ♣9"))),
            (1, Action::Declare("6S".parse().unwrap())),
            (2, whist(WhistCall::Whist)),
            (0, whist(WhistCall::Whist)),
        ],
    );
    assert_eq!(d.to_act(), Some(Seat(0)));
    assert!(matches!(
        refused(&mut d, 1, Action::Play(card("♠A"))),
        RuleError::NotYourTurn { .. }
    ));
}

#[test]
fn r6_3_r6_4_trumps_win_and_no_trumps_in_nt() {
    let mut d = a_declares_both_whist(&Profile::sochi(), "6H");
    // A leads ♠7, B ♠A, C ♠9: B wins and leads ♠K, C ♠J; A, now void in ♠, must trump
    // (R6.2) and ♥10 wins the trick (R6.3).
    run(
        &mut d,
        &[
            (0, Action::Play(card("♠7"))),
            (1, Action::Play(card("♠A"))),
            (2, Action::Play(card("♠9"))),
            (1, Action::Play(card("♠K"))),
            (2, Action::Play(card("♠J"))),
        ],
    );
    let ev = d.apply(Seat(0), Action::Play(card("♥10"))).unwrap();
    assert!(ev.contains(&Event::TrickTaken {
        trick: 1,
        seat: Seat(0)
    }));
    // In 6NT the same discard of a heart on a spade lead does not win (R6.4).
    let mut d = a_declares_both_whist(&Profile::sochi(), "6NT");
    run(
        &mut d,
        &[
            (0, Action::Play(card("♠7"))),
            (1, Action::Play(card("♠A"))),
            (2, Action::Play(card("♠9"))),
            (1, Action::Play(card("♠K"))),
            (2, Action::Play(card("♠J"))),
        ],
    );
    // A is void in ♠ and there are no trumps: any card.
    assert_eq!(d.legal_actions(Seat(0)).len(), 9);
    let ev = d.apply(Seat(0), Action::Play(card("♥A"))).unwrap();
    assert!(ev.contains(&Event::TrickTaken {
        trick: 1,
        seat: Seat(1)
    }));
}

#[test]
fn r7_3_trick_three_by_first_hand_then_the_winner_leads() {
    let mut d = deal();
    run(
        &mut d,
        &[(0, bid("pass")), (1, bid("pass")), (2, bid("pass"))],
    );
    run(
        &mut d,
        &[
            // Trick 1 (♥): B's ♥9 is beaten by A's ♥J.
            (0, Action::Play(card("♥J"))),
            (1, Action::Play(card("♥9"))),
            (2, Action::Play(card("♥8"))),
            // Trick 2 (♣): B wins with ♣A.
            (0, Action::Play(card("♣7"))),
            (1, Action::Play(card("♣A"))),
            (2, Action::Play(card("♣10"))),
        ],
    );
    assert_eq!(d.tricks_taken(), [1, 1, 0, 0]);
    // R7.3: first hand leads trick 3 although B won trick 2; no talon suit now.
    assert_eq!(d.to_act(), Some(Seat(0)));
    run(
        &mut d,
        &[
            (0, Action::Play(card("♦8"))),
            (1, Action::Play(card("♦Q"))),
            (2, Action::Play(card("♦9"))),
        ],
    );
    // B won trick 3 and leads trick 4.
    assert_eq!(d.to_act(), Some(Seat(1)));
    assert_eq!(d.talon_shown(), 2);
}
