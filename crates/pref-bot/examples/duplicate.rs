//! A duplicate match: the same deals replayed with the seats rotated, one bot against two
//! bots of another kind, at a table of one preset. Each deal is played three times, the
//! measured bot in seat 0, 1 and 2 in turn, so every hand is played by him once; his result
//! per deal (the core's scoring for the preset, settled by R10.1, see `pref_bot::score`) is
//! averaged over the three plays. Prints the mean margin in whists per deal with its
//! standard error and 95% confidence interval, the results by role and decision times.
//!
//! The opponents are `old` (the strong bot as it was before it scored with the core and
//! read the auction, `examples/old_bot`), `base` (the strong bot before issue 39: bids at
//! the open-hand count, `Bot::declarer_edge(false)`, and samples raspasy cards as any other,
//! `Bot::wide_raspasy(false)`), `prior` (the strong bot before the lone whister's open play
//! and the measured raspasy price: `Bot::open_alone(false)`, `Bot::measured_raspasy(false)`;
//! `normal-prior` the normal bot so),
//! `easy`, `normal` or `strong`; the measured bot is `strong`, or with a sixth argument
//! another kind (`open` and `rasp`: `prior` with one of those two; `likely`: `base` pricing
//! its contracts by its defenders' likely whists, `Bot::likely_whists`; `wide`: strong
//! sampling up to 100 layouts for a raspasy card, `Bot::wide_raspasy`).
//!
//! `shares` plays every deal once with three bots of one level and prints how the deals
//! went: raspasy, misère and each contract level.
//!
//! ```text
//! cargo run --release -p pref-bot --features old-bot --example duplicate -- <deals> <preset> [old|base|prior|normal-prior|easy|normal|strong] [nodes] [other nodes] [measured kind]
//! cargo run --release -p pref-bot --features old-bot --example duplicate -- <deals> <preset> shares <easy|normal|strong|base|prior|open|rasp|wide|likely|old> [nodes]
//! ```
#![allow(missing_docs)]

#[path = "old_bot/mod.rs"]
mod old_bot;

use std::time::Instant;

use old_bot::{Player, play};
use pref_bot::score::deal_result;
use pref_core::{Card, Deal, OutcomeKind, Profile, Seat};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

fn f64_of(r: pref_bot::score::Whists) -> f64 {
    *r.numer() as f64 / *r.denom() as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let preset = args.get(2).map_or("sochi", String::as_str);
    let profile = Profile::preset(preset).expect("a preset: sochi, leningrad, rostov, sochi4");
    let other = args.get(3).map_or("old", String::as_str);
    if other == "shares" {
        let kind = args.get(4).map_or("strong", String::as_str);
        let nodes: u64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(30_000);
        shares(&profile, preset, deals, kind, nodes);
        return;
    }
    let main_nodes: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(30_000);
    let other_nodes: u64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(30_000);
    let measured = args.get(6).map_or("strong", String::as_str);
    // `DUP_SEED` draws another set of deals (to add deals to a match already run).
    let seed = std::env::var("DUP_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2026);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut deck: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    let mut margins = Vec::with_capacity(deals);
    let mut times = Vec::new();
    let mut kinds = [0usize; 3];
    // The measured bot's total result by role: declarer, defender (or passer), raspasy.
    let mut by_role = [(0.0f64, 0usize); 3];
    let start = Instant::now();
    for i in 0..deals {
        deck.shuffle(&mut rng);
        let dealer = Seat((i % 3) as u8);
        let mut sum = 0.0;
        for me in 0..3u8 {
            let mut deal = Deal::new(&profile, dealer, &deck, 0).expect("valid deck");
            let mut players: Vec<Player> = (0..3u8)
                .map(|s| {
                    let kind = if s == me { measured } else { other };
                    Player::make(kind, Seat(s), &profile, i as u64 * 7 + u64::from(s))
                })
                .collect();
            let nodes: Vec<u64> = (0..3u8)
                .map(|s| if s == me { main_nodes } else { other_nodes })
                .collect();
            let outcome = play(
                &mut deal,
                &mut players,
                &nodes,
                |_, _, _, _| {},
                |s, t| {
                    if s == Seat(me) {
                        times.push(t.as_secs_f64() * 1e3);
                    }
                },
            );
            let r = f64_of(deal_result(&profile, &outcome, 0)[usize::from(me)]);
            let role = match outcome.kind {
                OutcomeKind::Game { declarer, .. }
                | OutcomeKind::Surrender { declarer, .. }
                | OutcomeKind::Misere { declarer } => {
                    kinds[usize::from(matches!(outcome.kind, OutcomeKind::Misere { .. }))] += 1;
                    usize::from(declarer != Seat(me))
                }
                OutcomeKind::Raspasy => {
                    kinds[2] += 1;
                    2
                }
            };
            by_role[role].0 += r;
            by_role[role].1 += 1;
            sum += r;
        }
        margins.push(sum / 3.0);
        if (i + 1) % 50 == 0 {
            let (mean, se) = mean_se(&margins);
            eprintln!(
                "{} deals, {:.0} s: {mean:.2} ± {:.2}",
                i + 1,
                start.elapsed().as_secs_f64(),
                1.96 * se
            );
        }
    }
    let (mean, se) = mean_se(&margins);
    times.sort_by(f64::total_cmp);
    let q = |p: f64| times[((times.len() as f64 - 1.0) * p).round() as usize];
    println!(
        "{preset}: {measured} ({main_nodes} nodes) vs two {other} ({other_nodes} nodes), {deals} deals x 3 \
         seatings: {measured} gains {mean:.2} whists per deal, std error {se:.2}, 95% CI [{:.2}, {:.2}]",
        mean - 1.96 * se,
        mean + 1.96 * se
    );
    println!(
        "{measured}'s mean result by role: declarer {:.2} ({} plays), defender {:.2} ({} plays), raspasy {:.2} ({} plays)",
        by_role[0].0 / by_role[0].1.max(1) as f64,
        by_role[0].1,
        by_role[1].0 / by_role[1].1.max(1) as f64,
        by_role[1].1,
        by_role[2].0 / by_role[2].1.max(1) as f64,
        by_role[2].1
    );
    println!(
        "deals played: {} games, {} misere, {} raspasy; {measured} decisions: {}, median {:.1} ms, p95 {:.1} ms, max {:.1} ms; {:.0} s",
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

fn mean_se(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, (var / n).sqrt())
}

/// Three bots of one kind play each deal once: how many deals are raspasy, misère and
/// contracts of each level.
fn shares(profile: &Profile, preset: &str, deals: usize, kind: &str, nodes: u64) {
    let mut rng = SmallRng::seed_from_u64(2027);
    let mut deck: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    let (mut raspasy, mut misere, mut by_level) = (0usize, 0usize, [0usize; 5]);
    // Contracts by the defence's calls: both whisted, one whisted, nobody played (two
    // passes or a standing half-whist).
    let mut defence = [0usize; 3];
    // Defenders' calls: [expected pass, whisted], by (expected whist, whisted) as 2 bits.
    let mut calls = [0usize; 4];
    let n = profile.players();
    for i in 0..deals {
        deck.shuffle(&mut rng);
        let mut deal =
            Deal::new(profile, Seat((i % usize::from(n)) as u8), &deck, 0).expect("valid");
        let mut players: Vec<Player> = (0..n)
            .map(|s| Player::make(kind, Seat(s), profile, i as u64 * 7 + u64::from(s)))
            .collect();
        let nodes = vec![nodes; usize::from(n)];
        let outcome = play(&mut deal, &mut players, &nodes, |_, _, _, _| {}, |_, _| {});
        match outcome.kind {
            OutcomeKind::Raspasy => raspasy += 1,
            OutcomeKind::Misere { .. } => misere += 1,
            OutcomeKind::Game {
                contract, whist, ..
            } => {
                by_level[usize::from(contract.level() - 6)] += 1;
                let whisting = whist
                    .iter()
                    .filter(|w| **w == Some(pref_core::WhistCall::Whist))
                    .count();
                let i = if outcome.tricks.is_none() {
                    2
                } else {
                    usize::from(whisting < 2)
                };
                defence[i] += 1;
                // Each defender's call against the rule of thumb the likely-whist pricing
                // expects of him (`bot/defence.rs`'s `would_whist`).
                let hands = deal.dealt_hands();
                for (s, w) in whist.iter().enumerate() {
                    if let Some(w) = w {
                        let honours = hands[s]
                            .iter()
                            .filter(|c| {
                                c.rank() as u8 >= 6 || Some(c.suit()) == contract.strain().trump()
                            })
                            .count();
                        let expected = honours as u8 + contract.level() >= 9;
                        let whisted = *w == pref_core::WhistCall::Whist;
                        calls[usize::from(expected) * 2 + usize::from(whisted)] += 1;
                    }
                }
            }
            OutcomeKind::Surrender { bid, .. } => by_level[usize::from(bid.level() - 6)] += 1,
        }
    }
    let pct = |k: usize| 100.0 * k as f64 / deals as f64;
    println!(
        "{preset}, three {kind} bots ({nodes} nodes), {deals} deals: raspasy {:.1}%, misere {:.1}%, \
         contracts {:.1}% (6: {:.1}%, 7: {:.1}%, 8: {:.1}%, 9: {:.1}%, 10: {:.1}%); \
         contracts with two whists {}, one {}, not played {}; defenders' calls by the rule of \
         thumb (expected pass: passed {}, whisted {}; expected whist: passed {}, whisted {})",
        pct(raspasy),
        pct(misere),
        pct(deals - raspasy - misere),
        pct(by_level[0]),
        pct(by_level[1]),
        pct(by_level[2]),
        pct(by_level[3]),
        pct(by_level[4]),
        defence[0],
        defence[1],
        defence[2],
        calls[0],
        calls[1],
        calls[2],
        calls[3]
    );
}
