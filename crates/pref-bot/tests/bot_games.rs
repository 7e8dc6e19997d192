//! Bots at every level play whole random deals (3 and 4 players): every action they choose
//! is legal (`Deal::act` would refuse anything else), every deal reaches its end, and a fixed
//! seed with a node budget gives the same game twice.
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
        let dealer = Seat(rng.gen_range(0..profile.players));
        let mut deal = Deal::new(profile, dealer, &deck, 0).expect("valid deck");
        let mut bots: Vec<Bot> = (0..profile.players)
            .map(|s| Bot::new(Seat(s), levels[s as usize % 3], seed + i as u64))
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

#[test]
fn normal_and_strong_bots_finish_hundreds_of_deals_on_a_small_budget() {
    run(
        &Profile::sochi(),
        [Level::Strong, Level::Normal, Level::Easy],
        400,
        3_000,
        2,
    );
}

#[test]
fn searching_bots_finish_deals_on_a_real_budget() {
    run(
        &Profile::sochi(),
        [Level::Strong, Level::Normal, Level::Strong],
        25,
        150_000,
        3,
    );
}

#[test]
fn r11_bots_finish_four_player_deals() {
    let mut p = Profile::sochi();
    p.players = 4;
    run(
        &p,
        [Level::Strong, Level::Normal, Level::Easy],
        200,
        5_000,
        4,
    );
}

#[test]
fn bots_finish_deals_with_must_overtake() {
    let mut p = Profile::sochi();
    p.must_overtake = true;
    run(
        &p,
        [Level::Strong, Level::Normal, Level::Easy],
        200,
        5_000,
        5,
    );
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
