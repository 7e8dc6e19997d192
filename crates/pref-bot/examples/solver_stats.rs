//! Solves random full deals (three hands of ten cards, a random declarer and strain, first
//! hand to lead) and prints the median, p95, p99 and worst time (CPU time of this thread,
//! as on one free core) and node count:
//! `cargo run --release -p pref-bot --example solver_stats -- 2000`; a second argument
//! `misere` or `raspasy` solves those goals instead (every hand of ten, a random player),
//! `misere-yes-no` asks only "does the misère player take a trick" (`Solver::at_least`),
//! `at-most-4` asks of the trick contracts only "does the declarer take at most 4 tricks"
//! (`Solver::at_most`, the bound query). With `NO_CLOCK=1` it reads no clock, for
//! `valgrind --tool=callgrind` (instruction counts, repeatable on a shared host).
#![allow(missing_docs)]

use pref_bot::{Goal, Position, Solver};
use pref_core::{Card, CardSet, Suit};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let goal_kind = std::env::args().nth(2).unwrap_or_else(|| "tricks".into());
    let mut rng = SmallRng::seed_from_u64(11);
    let bits = std::env::var("TT_BITS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(pref_bot::solver::DEFAULT_TT_BITS);
    let mut solver = Solver::with_tt_bits(bits);
    let mut times = Vec::with_capacity(n);
    let mut nodes = Vec::with_capacity(n);
    let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
    // Every answer folded into one number, so two builds can be checked to agree.
    let mut answers: u64 = 0;
    for _ in 0..n {
        deck.shuffle(&mut rng);
        let hands: [CardSet; 3] =
            std::array::from_fn(|p| deck[p * 10..p * 10 + 10].iter().copied().collect());
        let goal = match goal_kind.as_str() {
            "misere" | "misere-yes-no" => Goal::Misere {
                declarer: rng.gen_range(0..3),
            },
            "raspasy" => Goal::Raspasy {
                player: rng.gen_range(0..3),
                first_hand: 0,
                talon: [deck[30].suit(), deck[31].suit()],
                talon_cards: None,
            },
            _ => Goal::Tricks {
                declarer: rng.gen_range(0..3),
                trump: if rng.gen_bool(0.2) {
                    None
                } else {
                    Some(Suit::from_index(rng.gen_range(0..4)))
                },
            },
        };
        let pos = Position {
            hands,
            leader: 0,
            trick: Vec::new(),
            tricks_done: 0,
            goal,
        };
        solver.reset_stats();
        let t = cpu_ms();
        let answer = if goal_kind == "misere-yes-no" {
            u64::from(solver.at_least(&pos, 1).expect("no limit"))
        } else if goal_kind == "at-most-4" {
            u64::from(solver.at_most(&pos, 4).expect("no limit"))
        } else {
            let v = solver.solve(&pos).expect("no limit");
            assert!(v <= 10);
            u64::from(v)
        };
        times.push(cpu_ms() - t);
        nodes.push(solver.stats().nodes);
        answers = answers.wrapping_mul(31).wrapping_add(answer);
    }
    let total: u64 = nodes.iter().sum();
    times.sort_by(f64::total_cmp);
    nodes.sort_unstable();
    let q = |p: f64| ((n as f64 - 1.0) * p).round() as usize;
    println!(
        "{n} {goal_kind} deals: median {:.3} ms, p95 {:.3} ms, p99 {:.3} ms, max {:.3} ms; nodes median {}, p99 {}, total {total}; answers {answers:016x}; table {} MiB",
        times[q(0.5)],
        times[q(0.95)],
        times[q(0.99)],
        times[n - 1],
        nodes[q(0.5)],
        nodes[q(0.99)],
        solver.tt_bytes() >> 20
    );
}

/// CPU time of this thread in milliseconds; 0 with `NO_CLOCK` set (valgrind cannot run
/// rustix's vDSO clock: `NO_CLOCK=1 valgrind --tool=callgrind …` counts instructions).
fn cpu_ms() -> f64 {
    if std::env::var_os("NO_CLOCK").is_some() {
        return 0.0;
    }
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}
