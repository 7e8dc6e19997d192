//! The whists a bidder can expect: a contract priced by what its defenders would likely
//! answer, layout by layout, instead of as if both always whisted.
//!
//! In each sampled layout of the auction (and of the declarer's discard and contract) the
//! two defenders' hands are known to the sample. Each defender answers by the rule of thumb
//! the bots use for a partner who has not spoken (`defence::would_whist`: his high cards
//! and trumps with the contract's level reach nine), so the declarer's result in that
//! layout is the core's price for those calls: a contract that nobody whists is written as
//! made without play (R5.1, R8.5), whatever the open-hand count; with half-whist (R5.2,
//! R8.6) the second defender, left the last to speak after a pass, half-whists instead of
//! passing. Both whisting or one, the contract is played and priced by its count (R8.3).
//!
//! Where the table binds the defence (6♠ under Stalingrad, R5.7), plays tens without whist
//! (R5.6) or seats four players (the dealer's whist, R11.4), the old price stands: both
//! defenders whist.

use pref_core::{CardSet, Contract, DealView, Seat, WhistCall};

use super::defence::would_whist;
use crate::score::{Prices, Whists};
use crate::tables::{self, Table};

/// The two defenders' hands of one sampled layout, by seat.
pub(crate) type Defenders = [(Seat, CardSet); 2];

/// The defence's calls by seat, and whether the contract is played after them.
type Calls = ([Option<WhistCall>; 4], bool);

/// The defence's likely calls against `contract` by `declarer` with the defenders' hands
/// `hands`, and whether the contract is then played: `None` where the table fixes the
/// defence's calls for the price (see the module docs), and the old price stands.
pub(crate) fn likely_calls(
    prices: &Prices,
    view: &DealView,
    declarer: Seat,
    contract: Contract,
    hands: Defenders,
) -> Option<Calls> {
    let profile = &prices.profile;
    let level = contract.level();
    let stalingrad = profile.stalingrad() && contract.bid() == pref_core::Bid::LOWEST;
    if view.players != 3 || stalingrad || (level == 10 && !profile.ten_whisted()) {
        return None;
    }
    // Clockwise from the declarer: the first defender speaks first (R5.1).
    let after = |s: Seat| (s.0 + view.players - declarer.0) % view.players;
    let [first, second] = if after(hands[0].0) < after(hands[1].0) {
        hands
    } else {
        [hands[1], hands[0]]
    };
    let (wf, ws) = (
        would_whist(first.1, contract),
        would_whist(second.1, contract),
    );
    let call = |w: bool| if w { WhistCall::Whist } else { WhistCall::Pass };
    let second_call = if !wf && !ws && profile.half_whist() && level <= 7 {
        WhistCall::Half
    } else {
        call(ws)
    };
    let mut calls = [None; 4];
    calls[first.0.index()] = Some(call(wf));
    calls[second.0.index()] = Some(second_call);
    Some((calls, wf || ws))
}

/// The declarer `me`'s expected result of `contract` over sampled layouts: `counts[i]` his
/// open-hand tricks in layout `i`, `defenders[i]` its defenders' hands (one per count), each
/// layout priced with its defenders' likely calls ([`likely_calls`]). With no hands given
/// (or where the table fixes the defence) both defenders whist in every layout.
pub(crate) fn contract_value(
    prices: &Prices,
    view: &DealView,
    me: Seat,
    contract: Contract,
    counts: &[u8],
    defenders: &[Defenders],
) -> Whists {
    let both = || {
        let w = tables::defenders_whist(view, me);
        tables::declarer_table(prices, view, me, contract, w)
    };
    if defenders.len() != counts.len() || counts.is_empty() {
        return tables::expect(&both(), counts);
    }
    // One table per pattern of calls: at most four in a decision.
    let mut made: Vec<(Calls, Table)> = Vec::new();
    let mut priced = Vec::with_capacity(counts.len());
    for (&t, &hands) in counts.iter().zip(defenders) {
        let Some(calls) = likely_calls(prices, view, me, contract, hands) else {
            return tables::expect(&both(), counts);
        };
        let i = match made.iter().position(|(c, _)| *c == calls) {
            Some(i) => i,
            None => {
                let (w, played) = calls;
                let table = tables::table(prices, me, |t| {
                    tables::game_outcome(view, me, contract, w, t, played)
                });
                made.push((calls, table));
                made.len() - 1
            }
        };
        priced.push(made[i].1[usize::from(t.min(10))]);
    }
    crate::score::mean(priced)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_cards::set;
    use pref_core::{Card, Deal, Profile, Strain, Viewer};

    fn view() -> DealView {
        let deck: Vec<Card> = (0..32).map(Card::from_index).collect();
        let deal = Deal::new(&Profile::sochi(), Seat(2), &deck.try_into().expect("32"), 0)
            .expect("a deal");
        deal.view(Viewer::Seat(Seat(0)))
    }

    fn prices(name: &str) -> Prices {
        Prices {
            profile: Profile::preset(name).expect("a preset"),
            raspasy_before: 0,
        }
    }

    /// Two aces, kings or trumps: short of nine with a six.
    const WEAK: &str = "AD KD 7S 8S 9S 7C 8C 9C TC JC";
    /// Four: a whist against a six.
    const STRONG: &str = "AD KD AC KC 7H 8H 9H TH JH QH";

    fn six() -> Contract {
        Contract::new(6, Strain::Hearts).expect("6♥")
    }

    /// R5.1, R5.2: defenders answer by `would_whist`, clockwise from the declarer (seat 0:
    /// seat 1 speaks first); with half-whist (Sochi) the second half-whists after a pass,
    /// and nothing is played; at a table without it both pass.
    #[test]
    fn r5_defenders_answer_by_their_hands() {
        let v = view();
        let p = prices("sochi");
        let (weak, strong) = (set(WEAK), set(STRONG));
        let calls = |h1: CardSet, h2: CardSet| {
            likely_calls(&p, &v, Seat(0), six(), [(Seat(2), h2), (Seat(1), h1)])
        };
        use WhistCall::{Half, Pass, Whist};
        assert_eq!(
            calls(strong, strong),
            Some(([None, Some(Whist), Some(Whist), None], true))
        );
        assert_eq!(
            calls(strong, weak),
            Some(([None, Some(Whist), Some(Pass), None], true))
        );
        assert_eq!(
            calls(weak, strong),
            Some(([None, Some(Pass), Some(Whist), None], true))
        );
        assert_eq!(
            calls(weak, weak),
            Some(([None, Some(Pass), Some(Half), None], false))
        );
        // A seven with two honours each: 2 + 7 = 9, both whist.
        let seven = Contract::new(7, Strain::Hearts).expect("7♥");
        assert_eq!(
            likely_calls(&p, &v, Seat(0), seven, [(Seat(1), weak), (Seat(2), weak)]),
            Some(([None, Some(Whist), Some(Whist), None], true))
        );
    }

    /// R5.7: under Stalingrad 6♠ is priced with both whisting, as before; other contracts
    /// by the defenders' hands.
    #[test]
    fn r5_7_stalingrad_keeps_both_whisting() {
        let v = view();
        let mut p = prices("sochi");
        p.profile = Profile::sochi()
            .with("stalingrad", true)
            .expect("a profile");
        let weak = set(WEAK);
        let six_spades = Contract::new(6, Strain::Spades).expect("6♠");
        let hands = [(Seat(1), weak), (Seat(2), weak)];
        assert_eq!(likely_calls(&p, &v, Seat(0), six_spades, hands), None);
        assert!(likely_calls(&p, &v, Seat(0), six(), hands).is_some());
    }

    /// R8.3, R8.5, R8.6 at Sochi: 6♥ made in two layouts and one down in a third is worth
    /// (2 × 16/3 − 82/3) / 3 = −50/9 with both defenders whisting everywhere (the old
    /// price, also what no hands give, and what strong defenders everywhere give). When the
    /// defenders of the down layout are both weak, the second half-whists and nothing is
    /// played: the declarer writes his six as made (2 pool points) and the half-whister
    /// half of the quota's whists (2 × 2), 28/3 to the declarer whatever the count, so the
    /// value is (2 × 16/3 + 28/3) / 3 = 20/3, above the old −50/9.
    #[test]
    fn r8_a_six_nobody_whists_is_priced_as_made() {
        let v = view();
        let p = prices("sochi");
        let (weak, strong) = (set(WEAK), set(STRONG));
        let counts = [6, 6, 5];
        let old = contract_value(&p, &v, Seat(0), six(), &counts, &[]);
        assert_eq!(old, Whists::new(-50, 9));
        let all_strong = [[(Seat(1), strong), (Seat(2), strong)]; 3];
        assert_eq!(
            contract_value(&p, &v, Seat(0), six(), &counts, &all_strong),
            old
        );
        let mut passed = all_strong;
        passed[2] = [(Seat(1), weak), (Seat(2), weak)];
        assert_eq!(
            contract_value(&p, &v, Seat(0), six(), &counts, &passed),
            Whists::new(20, 3)
        );
    }
}
