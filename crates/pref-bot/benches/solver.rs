//! Criterion benches: the solver on random full deals (three hands of ten cards, random
//! declarer and strain, first hand to lead) and one bot decision at each stage of a deal.
//!
//! `cargo bench -p pref-bot` prints criterion's estimates and, before them, the median, p95
//! and p99 of single solves and of strong-bot decisions over a fixed set of random deals
//! (thread CPU time: the time on one core, whatever else the host runs), with the
//! transposition table's size.
#![allow(missing_docs)]

use std::cell::Cell;

use criterion::{Criterion, criterion_group, criterion_main};
use pref_bot::{Bot, Budget, Goal, Level, Position, Solver, play_deal};
use pref_core::{Card, CardSet, Deal, Profile, Seat, Suit};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

fn random_deal(rng: &mut SmallRng) -> Position {
    let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
    deck.shuffle(rng);
    let hands: [CardSet; 3] =
        std::array::from_fn(|p| deck[p * 10..p * 10 + 10].iter().copied().collect());
    let trump = if rng.gen_bool(0.2) {
        None
    } else {
        Some(Suit::from_index(rng.gen_range(0..4)))
    };
    Position {
        hands,
        leader: 0,
        trick: Vec::new(),
        tricks_done: 0,
        goal: Goal::Tricks {
            declarer: rng.gen_range(0..3),
            trump,
        },
    }
}

/// CPU time of this thread in milliseconds: the host is shared, so wall time is not the
/// time on one core.
fn cpu_ms() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}

fn quantiles(mut xs: Vec<f64>) -> (f64, f64, f64, f64) {
    xs.sort_by(f64::total_cmp);
    let q = |p: f64| xs[((xs.len() as f64 - 1.0) * p).round() as usize];
    (q(0.5), q(0.95), q(0.99), xs[xs.len() - 1])
}

fn solver_distribution() {
    let mut rng = SmallRng::seed_from_u64(11);
    let mut solver = Solver::new();
    let positions: Vec<Position> = (0..1000).map(|_| random_deal(&mut rng)).collect();
    let times = positions
        .iter()
        .map(|p| {
            let t = cpu_ms();
            solver.solve(p).expect("no node limit");
            cpu_ms() - t
        })
        .collect();
    let (p50, p95, p99, max) = quantiles(times);
    println!(
        "solver, 1000 random full deals: median {p50:.3} ms, p95 {p95:.3} ms, p99 {p99:.3} ms, \
         max {max:.3} ms; transposition table {} MiB",
        solver.tt_bytes() >> 20
    );
}

fn bot_distribution() {
    let profile = Profile::sochi();
    let mut rng = SmallRng::seed_from_u64(12);
    let mut deck: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    let mut times = Vec::new();
    let mut cpu = Vec::new();
    let started = Cell::new(0.0);
    for i in 0..30u64 {
        deck.shuffle(&mut rng);
        let mut deal = Deal::new(&profile, Seat((i % 3) as u8), &deck, 0).expect("valid");
        let mut bots: Vec<Bot> = (0..3u8)
            .map(|s| Bot::new(Seat(s), Level::Strong, &profile, i))
            .collect();
        play_deal(
            &mut deal,
            &mut bots,
            |b| {
                started.set(cpu_ms());
                Budget::for_level(b.level())
            },
            |_, t| {
                cpu.push(cpu_ms() - started.get());
                times.push(t.as_secs_f64() * 1e3);
            },
        )
        .expect("bots act legally");
    }
    let n = times.len();
    let (p50, p95, p99, max) = quantiles(cpu);
    println!(
        "strong bot, default budget, {n} decisions in 30 deals, CPU time: median {p50:.1} ms, \
         p95 {p95:.1} ms, p99 {p99:.1} ms, max {max:.1} ms"
    );
    let (p50, p95, p99, max) = quantiles(times);
    println!(
        "  the same, wall clock on this host: median {p50:.1} ms, p95 {p95:.1} ms, \
         p99 {p99:.1} ms, max {max:.1} ms"
    );
}

fn benches(c: &mut Criterion) {
    solver_distribution();
    bot_distribution();
    // A fresh random deal every iteration: cycling through a few would measure table hits.
    let mut rng = SmallRng::seed_from_u64(13);
    let mut solver = Solver::new();
    c.bench_function("solve_random_full_deal", |b| {
        b.iter(|| solver.solve(&random_deal(&mut rng)));
    });
}

criterion_group!(name = group; config = Criterion::default().sample_size(20); targets = benches);
criterion_main!(group);
