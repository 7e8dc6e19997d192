//! Bots at every level play whole random deals (3 and 4 players), making and answering
//! claims (R6.7): every action they choose is legal (`Deal::act` would refuse anything
//! else), every deal reaches its end, and a fixed seed with a node budget gives the same
//! game twice.
#![allow(missing_docs)]

use pref_bot::{Bot, Budget, Level, play_deal};
use pref_core::{Card, Deal, Profile, Seat};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

fn run(profile: &Profile, levels: [Level; 3], deals: usize, nodes: u64, seed: u64) -> Vec<Deal> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut deck: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    let mut out = Vec::with_capacity(deals);
    for i in 0..deals {
        deck.shuffle(&mut rng);
        let dealer = Seat(rng.gen_range(0..profile.players()));
        let mut deal = Deal::new(profile, dealer, &deck, 0).expect("valid deck");
        let mut bots: Vec<Bot> = (0..profile.players())
            .map(|s| Bot::new(Seat(s), levels[s as usize % 3], seed + i as u64).claiming(true))
            .collect();
        play_deal(&mut deal, &mut bots, |_| Budget::nodes(nodes), |_, _| {})
            .expect("bots act legally");
        assert!(deal.is_finished());
        assert!(deal.outcome().is_some());
        out.push(deal);
    }
    out
}

#[test]
fn easy_bots_finish_thousands_of_deals() {
    run(&Profile::sochi(), [Level::Easy; 3], 2000, 0, 1);
}

/// Levels in seats 0, 1, 2, deals, nodes per decision, seed.
type Table = ([Level; 3], usize, u64, u64);

const MIXED: [Level; 3] = [Level::Strong, Level::Normal, Level::Easy];

#[test]
fn normal_and_strong_bots_finish_hundreds_of_deals() {
    let sochi = Profile::sochi();
    let rows: [Table; 2] = [
        (MIXED, 400, 3_000, 2),
        (
            [Level::Strong, Level::Normal, Level::Strong],
            25,
            150_000,
            3,
        ),
    ];
    let mut claimed = 0;
    for (levels, deals, nodes, seed) in rows {
        let played = run(&sochi, levels, deals, nodes, seed);
        claimed += played
            .iter()
            .filter(|d| d.accepted_claim().is_some())
            .count();
    }
    // Some deals end by a claim all accepted (R6.7).
    assert!(claimed >= 10, "only {claimed} deals ended by a claim");
}

#[test]
fn r11_r6_2_bots_finish_four_player_and_must_overtake_deals() {
    let four = Profile::sochi().with("players", 4).unwrap();
    let overtake = Profile::sochi().with("must_overtake", true).unwrap();
    run(&four, MIXED, 200, 5_000, 4);
    run(&overtake, MIXED, 200, 5_000, 5);
}

#[test]
fn a_fixed_seed_and_node_budget_give_the_same_game() {
    let a = run(
        &Profile::sochi(),
        [Level::Strong, Level::Normal, Level::Strong],
        15,
        40_000,
        6,
    );
    let b = run(
        &Profile::sochi(),
        [Level::Strong, Level::Normal, Level::Strong],
        15,
        40_000,
        6,
    );
    assert_eq!(a, b);
}
