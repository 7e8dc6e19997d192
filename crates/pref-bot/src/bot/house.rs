//! The bot's calls under the house rules `dark_games` (R2.3, R3.9) and
//! `misere_without_talon` (R3.10), apart from the auction's evaluation in `bidding.rs`.
//!
//! - Dark: a bot that has not seen its hand calls dark only a pass, and only when the
//!   standing bid is an eight or more (a first round gets there after raspasy with
//!   `raspasy_exit`) and no misère was called — an unseen hand almost never goes over an
//!   eight, and a dark pass costs nothing beyond a pass in this profile (no bombs); after a
//!   misère a strong hand may still call nine without talon, so it looks. Otherwise too it
//!   looks first (the look uses no turn) and calls in the light. A dark bid, blind at double
//!   value, is never worth it: a random hand takes about three tricks.
//! - Misère without talon: at his one further turn the outbid misère caller calls it only
//!   with a hand that has no dangerous card at all (there is no discard to fix one).
//! - Nine without talon: with an estimated nine tricks or more in its best strain.

use pref_core::{Action, ActionList, Bid, Call, CardSet, DealView};

use crate::heuristic;

/// The standing bid from which an unseen hand passes dark.
fn dark_pass_floor() -> Bid {
    Bid::lowest_of_level(8)
}

/// The look or the dark pass, while the bot has not seen its hand; `None` once it has.
pub(crate) fn before_call(view: &DealView, legal: &ActionList) -> Option<Action> {
    if !legal.contains(&Action::Look) {
        return None;
    }
    let dark_pass = Action::Dark(Call::Pass);
    let misere = view.calls.iter().flatten().any(|c| match c {
        Call::Bid(b) => b.is_any_misere(),
        Call::Pass => false,
    });
    let high = !misere && view.highest.is_some_and(|h| h.bid >= dark_pass_floor());
    Some(if high && legal.contains(&dark_pass) {
        dark_pass
    } else {
        Action::Look
    })
}

/// MWT or 9WT when the hand is fit for it; `None` to let the auction decide.
pub(crate) fn no_talon_call(hand: CardSet, legal: &ActionList) -> Option<Action> {
    let mwt = Action::Bid(Call::Bid(Bid::MISERE_NO_TALON));
    if legal.contains(&mwt) && heuristic::misere_dangers(hand) == 0 {
        return Some(mwt);
    }
    let nwt = Action::Bid(Call::Bid(Bid::NINE_NO_TALON));
    let (_, tricks) = heuristic::best_strain(hand);
    (legal.contains(&nwt) && tricks >= 9.0).then_some(nwt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pref_core::{Card, Deal, Profile, Seat, Viewer};

    fn profile() -> Profile {
        Profile::sochi()
            .with("dark_games", true)
            .and_then(|p| p.with("misere_without_talon", true))
            .unwrap()
    }

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    /// Seat 0 holds a clean misère hand, seat 1 a nine in hearts, seat 2 the rest.
    fn deal() -> Deal {
        let hands = [
            "7S 8S 9S 7C 8C 9C 7D 8D 7H 8H",
            "AH KH QH JH TH 9H AS AC AD KS",
            "TS JS QS TC JC QC KC 9D TD JD",
        ]
        .map(cards);
        Deal::from_hands(&profile(), Seat(2), &hands, &cards("QD KD"), 0).unwrap()
    }

    fn call(s: &str) -> Action {
        Action::Bid(s.parse().unwrap())
    }

    #[test]
    fn r2_3_an_unseen_hand_looks_first_and_passes_dark_only_over_eight() {
        let mut d = deal();
        let legal = d.legal_actions(Seat(0));
        assert_eq!(
            before_call(&d.view(Viewer::Seat(Seat(0))), &legal),
            Some(Action::Look)
        );
        // Under 8♠ the unseen hand looks.
        d.apply(Seat(0), call("6S")).unwrap();
        d.apply(Seat(1), call("6C")).unwrap();
        let legal = d.legal_actions(Seat(2));
        assert_eq!(
            before_call(&d.view(Viewer::Seat(Seat(2))), &legal),
            Some(Action::Look)
        );
        // After a misère it looks: nine without talon may be its call.
        let mut d = deal();
        d.apply(Seat(0), call("misere")).unwrap();
        let legal = d.legal_actions(Seat(1));
        assert_eq!(
            before_call(&d.view(Viewer::Seat(Seat(1))), &legal),
            Some(Action::Look)
        );
        // Over an eight (after raspasy with `raspasy_exit = [8]`) it passes dark.
        let p = profile().with("raspasy_exit", vec![8u8]).unwrap();
        let hands = deal().dealt_hands().map(|h| h.iter().collect::<Vec<_>>());
        let mut high = Deal::from_hands(&p, Seat(2), &hands[..3], &deal().talon(), 1).unwrap();
        high.apply(Seat(0), call("8S")).unwrap();
        let legal = high.legal_actions(Seat(1));
        assert_eq!(
            before_call(&high.view(Viewer::Seat(Seat(1))), &legal),
            Some(Action::Dark(Call::Pass))
        );
        // Once the hand is seen, nothing here.
        d.apply(Seat(1), Action::Look).unwrap();
        let legal = d.legal_actions(Seat(1));
        assert_eq!(before_call(&d.view(Viewer::Seat(Seat(1))), &legal), None);
    }

    #[test]
    fn r3_10_clean_misere_calls_mwt_and_a_strong_nine_calls_9wt() {
        let mut d = deal();
        d.apply(Seat(0), call("misere")).unwrap();
        let legal = d.legal_actions(Seat(1));
        assert_eq!(
            no_talon_call(d.hand(Seat(1)), &legal),
            Some(Action::Bid(Call::Bid(Bid::NINE_NO_TALON)))
        );
        d.apply(Seat(1), call("9S")).unwrap();
        d.apply(Seat(2), call("pass")).unwrap();
        let legal = d.legal_actions(Seat(0));
        assert_eq!(
            no_talon_call(d.hand(Seat(0)), &legal),
            Some(Action::Bid(Call::Bid(Bid::MISERE_NO_TALON)))
        );
        // A hand with dangers passes instead (the auction's pass).
        let dangerous = d.hand(Seat(2));
        assert_eq!(no_talon_call(dangerous, &legal), None);
    }
}
