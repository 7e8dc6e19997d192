//! What one finished deal is worth to each seat, in whists, by the core's own scoring.
//!
//! The bots and the duplicate match need one number per seat per deal; they get it from
//! `pref-core` and nowhere else, so a bot at a Leningrad or Rostov table weighs outcomes by
//! that table's prices (scales, responsibility, split, raspasy progression, mountain as
//! whists). The deal's outcome is written on an empty [`Sheet`] under the table's
//! [`Profile`] (R8 entries, R9 pool) and settled by R10.1 with the agreed stop of R10.3, which
//! prices each pool point at `pool_point_whists / 10` mountain points. A bot does not see the
//! running sheet, so help and pool closing across deals (R9) are left out. Results are exact
//! rationals that sum to zero; a bot converts nothing to floating point.

use num_rational::Ratio;
use pref_core::{Outcome, Profile, Sheet};

/// A result in whists, exact (the mean mountain is a third or a quarter).
pub type Whists = Ratio<i64>;

/// Each seat's result for the deal in whists under `profile` (index = seat, one entry per
/// player); `raspasy_before` counts the consecutive raspasy deals just before this one (the
/// raspasy price of R8.9 rises with it in some profiles).
#[must_use]
pub fn deal_result(profile: &Profile, outcome: &Outcome, raspasy_before: u32) -> Vec<Whists> {
    let mut sheet = Sheet::new(outcome.players);
    sheet.record(profile, outcome, raspasy_before);
    sheet.settlement(profile, true)
}

/// How a bot prices outcomes: the table's profile and the raspasy streak before this deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Prices {
    /// The table's profile.
    pub(crate) profile: Profile,
    /// Consecutive raspasy deals before the current one.
    pub(crate) raspasy_before: u32,
}

impl Prices {
    /// `seat`'s result for `outcome` (zero for a seat not at the table).
    pub(crate) fn result(&self, outcome: &Outcome, seat: usize) -> Whists {
        deal_result(&self.profile, outcome, self.raspasy_before)
            .get(seat)
            .copied()
            .unwrap_or_default()
    }
}

/// The exact mean of some results (zero for none).
pub(crate) fn mean(values: impl IntoIterator<Item = Whists>) -> Whists {
    let (sum, n) = values
        .into_iter()
        .fold((Whists::default(), 0i64), |(s, n), v| (s + v, n + 1));
    if n == 0 { sum } else { sum / n }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pref_core::{Contract, OutcomeKind, PRESETS, Seat, Strain, WhistCall};

    const W: Option<WhistCall> = Some(WhistCall::Whist);
    const P: Option<WhistCall> = Some(WhistCall::Pass);

    fn six_spades(whist: [Option<WhistCall>; 4], tricks: [u8; 4]) -> Outcome {
        Outcome {
            dark: false,
            no_talon: false,
            players: 3,
            dealer: Seat(2),
            kind: OutcomeKind::Game {
                declarer: Seat(0),
                contract: Contract::new(6, Strain::Spades).expect("6♠"),
                whist,
                defence: None,
                talon_units: None,
            },
            tricks: Some(tricks),
        }
    }

    fn r(n: i64, d: i64) -> Whists {
        Whists::new(n, d)
    }

    #[test]
    fn r10_1_results_sum_to_zero_on_every_preset() {
        for name in PRESETS {
            let p = Profile::preset(name).expect("preset");
            let o = six_spades([None, W, W, None], [6, 2, 2, 0]);
            let o = Outcome {
                players: p.players(),
                ..o
            };
            let sum: Whists = deal_result(&p, &o, 0).into_iter().sum();
            assert_eq!(sum, Whists::default(), "{name}");
        }
    }

    /// R8.1, R8.3, R10.1, R10.3 by hand: 6♠ made with 6 tricks, both defenders whisting
    /// and taking 2 each.
    #[test]
    fn r8_3_six_made_against_two_whisters_by_preset() {
        let o = six_spades([None, W, W, None], [6, 2, 2, 0]);
        // Sochi: D earns 2 pool points = 2 mountain points off (pool point = 10 whists);
        // mountains (−2, 0, 0), mean −2/3; each whister writes 2·2 = 4 on D.
        let sochi = deal_result(&Profile::preset("sochi").expect("sochi"), &o, 0);
        assert_eq!(sochi, vec![r(40, 3) - 8, r(-20, 3) + 4, r(-20, 3) + 4]);
        // Leningrad: pool point = 20 whists = 2 mountain points; whist_scale 2: 8 each.
        let len = deal_result(&Profile::preset("leningrad").expect("len"), &o, 0);
        assert_eq!(len, vec![r(80, 3) - 16, r(-40, 3) + 8, r(-40, 3) + 8]);
        // Rostov: no mountain; the pool points become 2·5 = 10 whists by D on each other.
        let rostov = deal_result(&Profile::preset("rostov").expect("rostov"), &o, 0);
        assert_eq!(rostov, vec![r(20, 1) - 8, r(-10, 1) + 4, r(-10, 1) + 4]);
    }

    /// R8.4: a lone whister short of the quota on 6 (quota 4) takes 3 tricks: Sochi charges
    /// him the full shortfall, Leningrad half (at mountain scale 2).
    #[test]
    fn r8_4_shortfall_follows_the_profile() {
        let o = six_spades([None, W, P, None], [7, 3, 0, 0]);
        let sochi = deal_result(&Profile::preset("sochi").expect("sochi"), &o, 0);
        // Mountains (−2, +2, 0), mean 0; whister writes 2·3 = 6 on D.
        assert_eq!(sochi, vec![r(20 - 6, 1), r(-20 + 6, 1), r(0, 1)]);
        let len = deal_result(&Profile::preset("leningrad").expect("len"), &o, 0);
        // Pool 2 → 4 mountain points off; shortfall 2·1/2·2 = 2; whists 2·3·2 = 12.
        assert_eq!(len, vec![r(64, 3), r(-44, 3), r(-20, 3)]);
    }

    #[test]
    fn r8_9_leningrad_raspasy_price_rises_with_the_streak() {
        let o = Outcome {
            dark: false,
            no_talon: false,
            players: 3,
            dealer: Seat(2),
            kind: OutcomeKind::Raspasy,
            tricks: Some([5, 5, 0, 0]),
        };
        let p = Profile::preset("leningrad").expect("len");
        // First raspasy, price 1 at mountain scale 2: mountains 10, 10, and the zero bonus
        // for seat 2; the agreed stop charges 40, 40, 38: mean 46, seat 2 gets 10·8.
        assert_eq!(deal_result(&p, &o, 0)[2], r(80, 1));
        // Third in a row, price 3: 70, 70, 38, mean 178/3.
        assert_eq!(deal_result(&p, &o, 2)[2], r(640, 3));
    }

    #[test]
    fn mean_is_exact() {
        assert_eq!(mean([r(1, 3), r(1, 3), r(1, 3)]), r(1, 3));
        assert_eq!(mean(std::iter::empty()), Whists::default());
    }
}
