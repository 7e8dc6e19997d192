//! The small simulation of `docs/ratings.md`: two bots of each level (easy, normal, strong
//! at the simulation's node budgets) play rated Sochi pools of 5 among themselves, three
//! drawn at random for each pool. The easy bots, the clearly weaker kind, must come out
//! below both others, and the strong ones well above them. A fixed seed and node budgets
//! make it the same run on any host; the large run is `examples/simulate.rs` (the same
//! code, `tests/support/sim.rs`), where the three levels come out in their order.
//!
//! Normal and strong are too close for a population this small: over seeds 1 to 12, after
//! 150 pools the full order held for 10, while the easy bots were lowest in all 12 (by 127
//! rating points at the least) and the strong ones at least 197 above them. After 60 pools
//! (the test's size before) the full order held for 7 seeds of 11 and the easy bots were
//! lowest in 9, so any change to what the bots play (a faster solver under a node budget)
//! could flip it by luck alone.
#![allow(missing_docs)]

#[path = "support/sim.rs"]
mod sim;

use sim::Population;

/// Bots of each level.
const PER_KIND: usize = 2;
/// Rated pools played.
const GAMES: u64 = 150;
/// The run's seed (members drawn, seats, decks and the bots' own seeds).
const SEED: u64 = 1;

#[test]
fn rated_pools_put_the_easy_bots_below_the_others_and_the_strong_well_above_them() {
    let kinds = vec![sim::EASY, sim::NORMAL, sim::STRONG];
    let mut pop = Population::new(kinds, PER_KIND, sim::short_sochi(5), SEED);
    while pop.games() < GAMES {
        pop.play_one();
    }
    let means = pop.mean_by_kind();
    let names: Vec<&str> = pop.kinds.iter().map(|k| k.name).collect();
    assert!(
        means[0] < means[1] && means[0] < means[2],
        "{names:?}: {means:?}"
    );
    // Every member played, and the ratings moved apart from the start.
    assert!(pop.ratings.iter().all(|r| r.games > 0));
    assert!(means[2] - means[0] > 100.0, "{names:?}: {means:?}");
}
