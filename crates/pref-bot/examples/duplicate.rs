//! A duplicate match: the same deals replayed with the seats rotated, one strong bot against
//! two bots of another level. Each deal is played three times, the strong bot in seat 0, 1
//! and 2 in turn, so every hand is played by him once; his result per deal (R8 values
//! settled by R10.1, see `pref_bot::score`) is averaged over the three plays. Prints the mean
//! margin in whists per deal with its standard error, and decision times.
//!
//! `cargo run --release -p pref-bot --example duplicate -- <deals> <easy|normal> [strong nodes] [other nodes]`
#![allow(missing_docs)]

use std::time::Instant;

use pref_bot::score::deal_result;
use pref_bot::{Bot, Budget, Level, play_deal};
use pref_core::{Card, Deal, Profile, Seat};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let other = match args.get(2).map(String::as_str) {
        Some("normal") => Level::Normal,
        _ => Level::Easy,
    };
    let strong_nodes: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(30_000);
    let other_nodes: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    // The level in the rotating seat: strong, unless a baseline is asked for.
    let main_level = match args.get(5).map(String::as_str) {
        Some("easy") => Level::Easy,
        Some("normal") => Level::Normal,
        _ => Level::Strong,
    };
    let profile = Profile::sochi();
    let mut rng = SmallRng::seed_from_u64(2026);
    let mut deck: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    let mut margins = Vec::with_capacity(deals);
    let mut times = Vec::new();
    let mut kinds = [0usize; 3];
    // Strong's total result by role: declarer, defender (or passer), raspasy.
    let mut by_role = [(0.0f64, 0usize); 3];
    let start = Instant::now();
    for i in 0..deals {
        deck.shuffle(&mut rng);
        let dealer = Seat((i % 3) as u8);
        let mut sum = 0.0;
        for strong_seat in 0..3u8 {
            let mut deal = Deal::new(&profile, dealer, &deck, 0).expect("valid deck");
            let mut bots: Vec<Bot> = (0..3u8)
                .map(|s| {
                    let level = if s == strong_seat { main_level } else { other };
                    Bot::new(Seat(s), level, i as u64 * 7 + u64::from(s))
                })
                .collect();
            let seat = Seat(strong_seat);
            play_deal(
                &mut deal,
                &mut bots,
                |b| {
                    Budget::nodes(if b.seat() == seat {
                        strong_nodes
                    } else {
                        other_nodes
                    })
                },
                |b, t| {
                    if b.seat() == seat {
                        times.push(t.as_secs_f64() * 1e3);
                    }
                },
            )
            .expect("bots act legally");
            let outcome = deal.outcome().expect("finished");
            match outcome.kind {
                pref_core::OutcomeKind::Game { .. } | pref_core::OutcomeKind::Surrender { .. } => {
                    kinds[0] += 1;
                }
                pref_core::OutcomeKind::Misere { .. } => kinds[1] += 1,
                pref_core::OutcomeKind::Raspasy => kinds[2] += 1,
            }
            let r = deal_result(&outcome)[strong_seat as usize];
            let role = match outcome.kind {
                pref_core::OutcomeKind::Game { declarer, .. }
                | pref_core::OutcomeKind::Misere { declarer }
                | pref_core::OutcomeKind::Surrender { declarer, .. } => {
                    usize::from(declarer != Seat(strong_seat))
                }
                pref_core::OutcomeKind::Raspasy => 2,
            };
            by_role[role].0 += r;
            by_role[role].1 += 1;
            sum += r;
        }
        margins.push(sum / 3.0);
        if (i + 1) % 100 == 0 {
            eprintln!("{} deals, {:.0} s", i + 1, start.elapsed().as_secs_f64());
        }
    }
    let n = margins.len() as f64;
    let mean = margins.iter().sum::<f64>() / n;
    let var = margins.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0);
    times.sort_by(f64::total_cmp);
    let q = |p: f64| times[((times.len() as f64 - 1.0) * p).round() as usize];
    println!(
        "{main_level:?} ({strong_nodes} nodes) vs two {other:?} ({other_nodes} nodes), {deals} deals x 3 seatings: \
         strong gains {mean:.2} whists per deal, std error {:.2}",
        (var / n).sqrt()
    );
    println!(
        "strong's mean result by role: declarer {:.2} ({} plays), defender {:.2} ({} plays), raspasy {:.2} ({} plays)",
        by_role[0].0 / by_role[0].1.max(1) as f64,
        by_role[0].1,
        by_role[1].0 / by_role[1].1.max(1) as f64,
        by_role[1].1,
        by_role[2].0 / by_role[2].1.max(1) as f64,
        by_role[2].1
    );
    println!(
        "deals played: {} games, {} misere, {} raspasy; strong decisions: {} , median {:.1} ms, p95 {:.1} ms, max {:.1} ms; {:.0} s",
        kinds[0],
        kinds[1],
        kinds[2],
        times.len(),
        q(0.5),
        q(0.95),
        times[times.len() - 1],
        start.elapsed().as_secs_f64()
    );
}
