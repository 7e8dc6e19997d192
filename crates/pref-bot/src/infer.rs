//! What the auction says about the hands the bot cannot see.
//!
//! Voids shown in play are facts and go into the piles of `sample.rs` as constraints; what
//! a seat's calls say is only likely, so a sampled layout is redrawn a few times until every
//! hidden hand fits its seat's calls (`sample::deal_fitting`). A seat that bid a level holds
//! a hand worth about that many tricks with the talon's help; one that passed when it could
//! have bid holds no hand well above the lowest bid then open; a misère bidder holds few
//! cards that must take a trick. The same rules of thumb the easy level bids by
//! (`heuristic.rs`) measure the hands.

use pref_core::{Bid, CardSet, Contract};

use crate::heuristic;
use crate::seen::Calls;

/// How far a bidder's ten cards may fall short of his highest bid: the talon still to come
/// and the rule of thumb's roughness.
const BID_SLACK: f64 = 2.0;

/// How far above the lowest open bid a hand may be that still passed.
const PASS_SLACK: f64 = 1.5;

/// Most cards a misère bidder holds that are likely to take a trick.
const MISERE_DANGERS: usize = 3;

/// Whether `hand`, a seat's ten cards as dealt (held plus played), fits its calls.
pub(crate) fn fits_calls(calls: &Calls, hand: CardSet) -> bool {
    if hand.len() != 10 {
        return true;
    }
    let level = |b: Bid| b.contract().map_or(6, Contract::level);
    let est = || heuristic::best_strain(hand).1;
    if calls.misere {
        return heuristic::misere_dangers(hand) <= MISERE_DANGERS;
    }
    if let Some(b) = calls.bid
        && est() < f64::from(level(b)) - BID_SLACK
    {
        return false;
    }
    if let Some(b) = calls.passed_at
        && est() > f64::from(level(b)) + PASS_SLACK
    {
        return false;
    }
    true
}

/// Whether a declarer's ten cards after the discard look like a hand that names `contract`:
/// the rule-of-thumb estimate is at most a trick and a half short.
pub(crate) fn fits_contract(hand: CardSet, contract: Contract) -> bool {
    heuristic::trick_estimate(hand, contract.strain().trump()) >= f64::from(contract.level()) - 1.5
}

#[cfg(test)]
mod tests {
    use super::*;
    use pref_core::Card;

    fn set(s: &str) -> CardSet {
        s.split_whitespace()
            .map(|c| c.parse::<Card>().expect("card"))
            .collect()
    }

    #[test]
    fn r3_calls_shape_hands() {
        let strong = set("AS KS QS JS TS AH KH AC KC AD");
        let weak = set("7S 8S 9S 7C 8C 9C 7D 8D 7H 8H");
        let eight = Calls {
            bid: Bid::lowest_of_level(8).contract().map(Contract::bid),
            ..Calls::default()
        };
        assert!(fits_calls(&eight, strong));
        assert!(!fits_calls(&eight, weak));
        let passed = Calls {
            passed_at: Some(Bid::LOWEST),
            ..Calls::default()
        };
        assert!(!fits_calls(&passed, strong));
        assert!(fits_calls(&passed, weak));
        let misere = Calls {
            misere: true,
            ..Calls::default()
        };
        assert!(fits_calls(&misere, weak));
        assert!(!fits_calls(&misere, strong));
    }
}
