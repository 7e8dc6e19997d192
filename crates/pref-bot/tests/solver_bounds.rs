//! The bound queries (`Solver::at_least`, `Solver::at_most`, `Solver::holds`) against the
//! exact count: on random endings small enough for the plain brute force (every goal, R6,
//! R7.2, R7.3, R11.3) and on random full deals and deep endings against `Solver::solve`
//! (whose exactness `solver_exact.rs` checks), for every threshold from 0 to one past the
//! tricks left. A bound query that disagreed with the exact count on one position fails.
#![allow(missing_docs)]

mod brute;

use brute::{Goals, brute, random_position};
use pref_bot::{Bound, Solver};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// Every bound question about `pos` against its value `v`, on one solver (its table kept
/// from the earlier questions, as the bots and the analysis keep it).
fn check_bounds(solver: &mut Solver, pos: &pref_bot::Position, v: u8) {
    for k in 0..=pos.tricks_left() + 1 {
        assert_eq!(
            solver.at_least(pos, k),
            Some(v >= k),
            "at least {k}: {pos:?}"
        );
        assert_eq!(solver.at_most(pos, k), Some(v <= k), "at most {k}: {pos:?}");
        for bound in [Bound::AtLeast(k), Bound::AtMost(k)] {
            assert_eq!(solver.holds(pos, bound), Some(bound.admits(v)), "{bound:?}");
        }
    }
}

fn goals(i: u8) -> Goals {
    match i {
        0 => Goals::All,
        1 => Goals::Trumps,
        2 => Goals::Misere,
        _ => Goals::FourRaspasy,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Endings of 1–5 tricks: every bound query agrees with the brute force.
    #[test]
    fn r6_r7_bound_queries_match_brute_force(seed in any::<u64>(), tricks in 1usize..=5, g in 0u8..4) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let pos = random_position(&mut rng, tricks, goals(g));
        pos.validate().expect("a valid ending");
        let v = brute(&pos);
        let mut solver = Solver::with_tt_bits(12);
        check_bounds(&mut solver, &pos, v);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Endings of 6–10 tricks, every goal: every bound query agrees with the exact count.
    #[test]
    fn r6_r7_bound_queries_match_the_exact_count_on_deep_endings(seed in any::<u64>(), tricks in 6usize..=10, g in 0u8..3) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let pos = random_position(&mut rng, tricks, goals(g));
        // Deep endings may count more tricks than a deal holds: those are not positions.
        prop_assume!(pos.validate().is_ok());
        let mut solver = Solver::with_tt_bits(16);
        let v = solver.solve(&pos).expect("no limit");
        check_bounds(&mut solver, &pos, v);
    }
}

#[test]
fn bound_admits_is_the_comparison() {
    assert!(Bound::AtLeast(3).admits(3) && !Bound::AtLeast(3).admits(2));
    assert!(Bound::AtMost(3).admits(3) && !Bound::AtMost(3).admits(4));
    assert!(Bound::AtMost(0).admits(0) && Bound::AtLeast(0).admits(0));
}
