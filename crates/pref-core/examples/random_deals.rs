//! Plays N random legal deals and prints deals per second and actions per deal:
//! `cargo run --release -p pref-core --example random_deals -- 200000`.
#![allow(missing_docs)]

use std::time::Instant;

use pref_core::{Card, Deal, Profile, Seat};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let profile = Profile::sochi();
    let mut rng = SmallRng::seed_from_u64(7);
    let mut deck: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    let mut actions = 0u64;
    let start = Instant::now();
    for _ in 0..n {
        deck.shuffle(&mut rng);
        let dealer = Seat(rng.gen_range(0..3));
        let mut deal = Deal::new(&profile, dealer, &deck, 0).expect("valid deck");
        while let Some(p) = deal.to_act() {
            let legal = deal.legal_actions_for(p);
            let a = legal.get(rng.gen_range(0..legal.len())).expect("in range");
            deal.act(p, a).expect("legal");
            actions += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{n} deals in {secs:.3} s: {:.0} deals/s, {:.1} actions/deal",
        n as f64 / secs,
        actions as f64 / n as f64
    );
}
