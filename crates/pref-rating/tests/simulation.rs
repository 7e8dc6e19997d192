//! The small simulation of `docs/ratings.md`: two bots of each level (easy, normal, strong
//! at the simulation's node budgets) play rated Sochi pools of 5 among themselves, three
//! drawn at random for each pool, and the mean rating of each level must come out in the
//! order of their strength. A fixed seed and node budgets make it the same run on any
//! host; the large run is `examples/simulate.rs` (the same code, `tests/support/sim.rs`).
#![allow(missing_docs)]

#[path = "support/sim.rs"]
mod sim;

use sim::Population;

/// Bots of each level.
const PER_KIND: usize = 2;
/// Rated pools played.
const GAMES: u64 = 60;
/// The run's seed (members drawn, seats, decks and the bots' own seeds).
const SEED: u64 = 1;

#[test]
fn rated_pools_order_easy_below_normal_below_strong() {
    let kinds = vec![sim::EASY, sim::NORMAL, sim::STRONG];
    let mut pop = Population::new(kinds, PER_KIND, sim::short_sochi(5), SEED);
    while pop.games() < GAMES {
        pop.play_one();
    }
    let means = pop.mean_by_kind();
    let names: Vec<&str> = pop.kinds.iter().map(|k| k.name).collect();
    assert!(pop.ordered(3), "{names:?}: {means:?}");
    // Every member played, and the ratings moved apart from the start.
    assert!(pop.ratings.iter().all(|r| r.games > 0));
    assert!(means[2] - means[0] > 100.0, "{means:?}");
}
