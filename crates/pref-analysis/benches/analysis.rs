//! Criterion benches of the analysis: the play of a whole deal (every card's value, about
//! 30 positions, one solver whose table carries over from position to position) and each
//! seat's best contract.
//!
//! `cargo bench -p pref-analysis` prints first, over a fixed set of random deals (random
//! legal actions under the Sochi profile, deals with cards played), the median, p95, p99
//! and worst thread CPU time (the time on one core, whatever else the host runs) of: the
//! play analysis (a fresh analyser per deal, its table carried over from position to
//! position), by kind of deal; the same with a fresh table for every position (what the
//! reuse saves), run back to back; the auction part; the two together (a whole deal). Then criterion's own (wall-clock)
//! estimate of the play analysis.
#![allow(missing_docs)]

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use pref_analysis::line::counted_by;
use pref_analysis::{Analyser, Parts, PlayLine, play_line};
use pref_bot::Solver;
use pref_core::{Card, DealEntry, Game, OutcomeKind, Profile, Seat};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// A deal played with random legal actions, if cards were played in it.
fn random_deal(rng: &mut SmallRng) -> Option<DealEntry> {
    let mut game = Game::new(Profile::sochi(), Seat(rng.gen_range(0..3))).ok()?;
    let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
    deck.shuffle(rng);
    game.start_deal(&deck.try_into().ok()?).ok()?;
    while let Some(p) = game.deal().and_then(|d| d.to_act()) {
        let legal = game.deal()?.legal_actions_for(p);
        game.act(p, legal.get(rng.gen_range(0..legal.len()))?)
            .ok()?;
    }
    let entry = game.history()[0].clone();
    entry.outcome()?.tricks?;
    Some(entry)
}

fn deals(n: usize) -> Vec<DealEntry> {
    let mut rng = SmallRng::seed_from_u64(31);
    std::iter::repeat_with(|| random_deal(&mut rng))
        .flatten()
        .take(n)
        .collect()
}

/// CPU time of this thread in milliseconds.
fn cpu_ms() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}

fn quantiles(mut xs: Vec<f64>) -> String {
    xs.sort_by(f64::total_cmp);
    let q = |p: f64| xs[((xs.len() as f64 - 1.0) * p).round() as usize];
    format!(
        "median {:.1} ms, p95 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        q(0.5),
        q(0.95),
        q(0.99),
        xs[xs.len() - 1]
    )
}

const PLAY: Parts = Parts {
    play: true,
    auction: false,
};

/// The play analysis without the table's reuse: every position solved by a fresh solver
/// (the table allocated before the clock starts).
fn cold_play(line: &PlayLine) -> f64 {
    let mut pos = line.start.clone();
    let mut spent = 0.0;
    for &card in &line.line {
        let here = counted_by(&pos, pos.to_play());
        let mut solver = Solver::new();
        let t = cpu_ms();
        solver.solve_moves(&here).expect("no node limit");
        spent += cpu_ms() - t;
        pos = here.play(card).expect("a recorded card").0;
    }
    spent
}

fn distributions() {
    let profile = Profile::sochi();
    let set = deals(200);
    let mut warm = Vec::new();
    let mut cold = Vec::new();
    let mut auction = Vec::new();
    // The play and the best contracts of one deal together: a whole deal's analysis.
    let mut whole = Vec::new();
    let mut by_kind: [Vec<f64>; 3] = Default::default();
    for entry in &set {
        let mut analyser = Analyser::new();
        let t = cpu_ms();
        let a = analyser.entry(&profile, 0, entry, 0, PLAY).expect("played");
        warm.push(cpu_ms() - t);
        let kind = match a.outcome.kind {
            OutcomeKind::Game { .. } | OutcomeKind::Surrender { .. } => 0,
            OutcomeKind::Misere { .. } => 1,
            OutcomeKind::Raspasy => 2,
        };
        by_kind[kind].push(warm[warm.len() - 1]);
        let line = play_line(&profile, entry, 0).expect("played");
        assert_eq!(a.cards.len(), line.line.len());
        cold.push(cold_play(&line));
        let t = cpu_ms();
        analyser
            .entry(
                &profile,
                0,
                entry,
                0,
                Parts {
                    play: false,
                    auction: true,
                },
            )
            .expect("played");
        auction.push(cpu_ms() - t);
        whole.push(warm[warm.len() - 1] + auction[auction.len() - 1]);
    }
    println!(
        "play analysis, {} random deals (~30 positions each), one table: {}",
        set.len(),
        quantiles(warm)
    );
    for (name, times) in ["contracts", "misère", "raspasy"].iter().zip(by_kind) {
        if !times.is_empty() {
            println!("  {} {name}: {}", times.len(), quantiles(times));
        }
    }
    println!(
        "  the same deals, a fresh table for every position: {}",
        quantiles(cold)
    );
    println!(
        "best contracts of the three seats, the same deals: {}",
        quantiles(auction)
    );
    println!(
        "whole deal (play and best contracts), the same deals: {}",
        quantiles(whole)
    );
}

fn benches(c: &mut Criterion) {
    distributions();
    let profile = Profile::sochi();
    let set = deals(50);
    let mut i = 0;
    // A fresh analyser (an empty table, allocated outside the clock) for every deal:
    // one kept across iterations would measure the table's hits on deals seen before.
    c.bench_function("analyse_play_of_random_deal", |b| {
        b.iter_batched(
            Analyser::new,
            |mut analyser| {
                i = (i + 1) % set.len();
                analyser.entry(&profile, 0, &set[i], 0, PLAY)
            },
            BatchSize::LargeInput,
        );
    });
}

criterion_group!(name = group; config = Criterion::default().sample_size(20); targets = benches);
criterion_main!(group);
