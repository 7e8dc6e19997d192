//! Random legal deals from the shuffled deck to the last trick, 3 and 4 players.
//!
//! `cargo bench -p pref-core` prints the time per deal; deals per second is its inverse.
#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pref_core::{Card, Deal, Profile, Seat};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

fn play_random_deal(profile: &Profile, rng: &mut SmallRng, deck: &mut [Card; 32]) -> usize {
    deck.shuffle(rng);
    let dealer = Seat(rng.gen_range(0..profile.players()));
    let mut deal = Deal::new(profile, dealer, deck, 0).expect("a shuffled deck is valid");
    let mut actions = 0;
    while let Some(player) = deal.to_act() {
        let legal = deal.legal_actions_for(player);
        let a = legal.get(rng.gen_range(0..legal.len())).expect("in range");
        deal.act(player, a).expect("a legal action is accepted");
        actions += 1;
    }
    actions
}

fn deals(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_legal_deal");
    group.throughput(Throughput::Elements(1));
    for (name, players) in [("three_players", 3), ("four_players", 4)] {
        let mut profile = Profile::sochi();
        profile = profile.with("players", players).unwrap();
        let mut rng = SmallRng::seed_from_u64(7);
        let mut deck: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
        group.bench_function(name, |b| {
            b.iter(|| play_random_deal(&profile, &mut rng, &mut deck));
        });
    }
    group.finish();
}

criterion_group!(benches, deals);
criterion_main!(benches);
