//! One test (or a few) per rule of R3–R7 and R11, each named by its rule id, with exact
//! expected states and errors.
#![allow(missing_docs)]

mod common;

use common::{refused, run};
use pref_core::error::HalfWhistBar;
use pref_core::{
    Action, Bid, Call, Card, CardSet, Deal, Defence, Event, OutcomeKind, Profile, RuleError, Seat,
    Stage, Suit, WhistCall,
};

fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

fn set(s: &str) -> CardSet {
    cards(s).into_iter().collect()
}

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

fn bid(s: &str) -> Action {
    Action::Bid(s.parse::<Call>().unwrap())
}

fn whist(w: WhistCall) -> Action {
    Action::Whist(w)
}

/// The worked example's hands: A (seat 0) first hand, C (seat 2) deals.
const A: &str = "♥K ♥Q ♥J ♥10 ♠7 ♦A ♦K ♦8 ♣8 ♣7";
const B: &str = "♥9 ♥7 ♠A ♠K ♠Q ♣A ♣K ♦Q ♦J ♦10";
const C: &str = "♥8 ♠J ♠10 ♠9 ♠8 ♣Q ♣J ♣10 ♦9 ♦7";
const TALON: &str = "♥A ♣9";

fn deal_with(profile: &Profile, raspasy_before: u32) -> Deal {
    let hands = vec![cards(A), cards(B), cards(C)];
    Deal::from_hands(profile, Seat(2), &hands, &cards(TALON), raspasy_before).unwrap()
}

fn deal() -> Deal {
    deal_with(&Profile::sochi(), 0)
}

/// Auction won by A at 6♠ (B and C pass), talon taken, ♣7 ♦8 discarded.
fn a_declares(profile: &Profile, contract: &str) -> Deal {
    let mut d = deal_with(profile, 0);
    run(
        &mut d,
        &[
            (0, bid("6S")),
            (1, bid("pass")),
            (2, bid("pass")),
            (0, Action::Discard(set("♣7 ♦8"))),
            (0, Action::Declare(contract.parse().unwrap())),
        ],
    );
    d
}

/// As [`a_declares`], then both defenders whist: closed play begins (R5.4).
fn a_declares_both_whist(profile: &Profile, contract: &str) -> Deal {
    let mut d = a_declares(profile, contract);
    run(
        &mut d,
        &[(1, whist(WhistCall::Whist)), (2, whist(WhistCall::Whist))],
    );
    d
}

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
