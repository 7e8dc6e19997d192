//! The hands and builders the rule tests share (`rules_*.rs`): the worked example's deal
//! and the auctions that lead to its play.
#![allow(missing_docs, dead_code, unreachable_pub)]

use pref_core::{Action, Call, Card, CardSet, Deal, Profile, Seat, WhistCall};

use super::common::run;

pub fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

pub fn set(s: &str) -> CardSet {
    cards(s).into_iter().collect()
}

pub fn card(s: &str) -> Card {
    s.parse().unwrap()
}

pub fn bid(s: &str) -> Action {
    Action::Bid(s.parse::<Call>().unwrap())
}

pub fn whist(w: WhistCall) -> Action {
    Action::Whist(w)
}

/// The worked example's hands: A (seat 0) first hand, C (seat 2) deals.
pub const A: &str = "♥K ♥Q ♥J ♥10 ♠7 ♦A ♦K ♦8 ♣8 ♣7";
pub const B: &str = "♥9 ♥7 ♠A ♠K ♠Q ♣A ♣K ♦Q ♦J ♦10";
pub const C: &str = "♥8 ♠J ♠10 ♠9 ♠8 ♣Q ♣J ♣10 ♦9 ♦7";
pub const TALON: &str = "♥A ♣9";

pub fn deal_with(profile: &Profile, raspasy_before: u32) -> Deal {
    let hands = vec![cards(A), cards(B), cards(C)];
    Deal::from_hands(profile, Seat(2), &hands, &cards(TALON), raspasy_before).unwrap()
}

pub fn deal() -> Deal {
    deal_with(&Profile::sochi(), 0)
}

/// Auction won by A at 6♠ (B and C pass), talon taken, ♣7 ♦8 discarded.
pub fn a_declares(profile: &Profile, contract: &str) -> Deal {
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
pub fn a_declares_both_whist(profile: &Profile, contract: &str) -> Deal {
    let mut d = a_declares(profile, contract);
    run(
        &mut d,
        &[(1, whist(WhistCall::Whist)), (2, whist(WhistCall::Whist))],
    );
    d
}
