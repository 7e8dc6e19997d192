//! The large simulation of `docs/ratings.md`: a population of bots of known strength (easy,
//! normal, strong, and with `--features old-bot` the old strong bot) plays rated Sochi
//! pools among themselves, three drawn at random for each pool, every pool rated with
//! `pref_rating::rate`. Every `--every` games it prints each kind's mean rating; at the end,
//! after how many games the order easy < normal < strong was right and stayed right.
//!
//! ```text
//! cargo run --release -p pref-rating --example simulate -- [--per-kind 4] [--games 400]
//!     [--pool 5] [--seed 1] [--every 25] [--normal-nodes 2000] [--strong-nodes 100000]
//! cargo run --release -p pref-rating --features old-bot --example simulate -- --old
//! ```
//!
//! Each line also gives each kind's mean settlement balance per pool so far: the strength
//! the ratings should find, measured in the same games.

#[path = "../tests/support/sim.rs"]
mod sim;

#[cfg(feature = "old-bot")]
#[path = "../../pref-bot/examples/old_bot/mod.rs"]
mod old_bot;

use std::time::Instant;

use sim::{Kind, Population};

/// The old strong bot at the strong level's budget.
#[cfg(feature = "old-bot")]
struct Old(old_bot::Player, u64);

#[cfg(feature = "old-bot")]
impl sim::Player for Old {
    fn observe(&mut self, event: &pref_core::ViewEvent) {
        self.0.observe(event);
    }

    fn decide(
        &mut self,
        view: &pref_core::DealView,
        legal: &pref_core::ActionList,
    ) -> pref_core::Action {
        self.0.decide(view, legal, self.1)
    }
}

#[cfg(feature = "old-bot")]
const OLD: Kind = Kind {
    name: "old strong",
    nodes: sim::STRONG_NODES,
    make: |seat, profile, seed, nodes| {
        Box::new(Old(
            old_bot::Player::make("old", seat, profile, seed),
            nodes,
        ))
    },
};

fn old_kind() -> Result<Kind, String> {
    #[cfg(feature = "old-bot")]
    return Ok(OLD);
    #[cfg(not(feature = "old-bot"))]
    Err("--old needs the old bot: cargo run --release -p pref-rating --features old-bot --example simulate -- --old".to_owned())
}

struct Args {
    per_kind: usize,
    games: u64,
    pool: u32,
    seed: u64,
    every: u64,
    old: bool,
    normal_nodes: u64,
    strong_nodes: u64,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        per_kind: 4,
        games: 400,
        pool: 5,
        seed: 1,
        every: 25,
        old: false,
        normal_nodes: sim::NORMAL_NODES,
        strong_nodes: sim::STRONG_NODES,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--old" {
            a.old = true;
            continue;
        }
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = |e: std::num::ParseIntError| format!("{flag} {value}: {e}");
        match flag.as_str() {
            "--per-kind" => a.per_kind = value.parse().map_err(bad)?,
            "--games" => a.games = value.parse().map_err(bad)?,
            "--pool" => a.pool = value.parse().map_err(bad)?,
            "--seed" => a.seed = value.parse().map_err(bad)?,
            "--every" => a.every = value.parse().map_err(bad)?,
            "--normal-nodes" => a.normal_nodes = value.parse().map_err(bad)?,
            "--strong-nodes" => a.strong_nodes = value.parse().map_err(bad)?,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    if a.per_kind == 0 || a.every == 0 {
        return Err("--per-kind and --every must be at least 1".to_owned());
    }
    Ok(a)
}

/// Each kind's mean settlement balance per pool so far (whists): the strength the ratings
/// should find, measured in the same games.
fn mean_balances(pop: &Population) -> Vec<f64> {
    pop.balance_by_kind
        .iter()
        .map(|(sum, n)| *sum.numer() as f64 / *sum.denom() as f64 / (*n).max(1) as f64)
        .collect()
}

fn main() -> Result<(), String> {
    let args = parse_args()?;
    let normal = Kind {
        nodes: args.normal_nodes,
        ..sim::NORMAL
    };
    let strong = Kind {
        nodes: args.strong_nodes,
        ..sim::STRONG
    };
    let mut kinds = vec![sim::EASY, normal, strong];
    if args.old {
        kinds.push(Kind {
            nodes: args.strong_nodes,
            ..old_kind()?
        });
    }
    let names: Vec<&str> = kinds.iter().map(|k| k.name).collect();
    let mut pop = Population::new(kinds, args.per_kind, sim::short_sochi(args.pool), args.seed);
    println!(
        "{} bots of each of {names:?}, Sochi pools of {}, seed {}, nodes per decision normal {} strong {}",
        args.per_kind, args.pool, args.seed, args.normal_nodes, args.strong_nodes
    );
    println!(
        "games | mean rating per kind | easy < normal < strong | mean balance a pool per kind"
    );
    let started = Instant::now();
    // The last game after which easy < normal < strong did not hold (at the start every
    // rating is the same).
    let mut last_wrong = 0;
    while pop.games() < args.games {
        pop.play_one();
        if !pop.ordered(3) {
            last_wrong = pop.games();
        }
        if pop.games() % args.every == 0 || pop.games() == args.games {
            let means: Vec<String> = pop
                .mean_by_kind()
                .iter()
                .map(|m| format!("{m:.0}"))
                .collect();
            let results: Vec<String> = mean_balances(&pop)
                .iter()
                .map(|b| format!("{b:+.1}"))
                .collect();
            println!(
                "{:5} | {} | {} | {}",
                pop.games(),
                means.join(" / "),
                if pop.ordered(3) { "yes" } else { "no" },
                results.join(" / "),
            );
        }
    }
    let sigma: f64 = pop.ratings.iter().map(|r| r.sigma).sum::<f64>() / pop.ratings.len() as f64;
    let games: u32 = pop.ratings.iter().map(|r| r.games).sum();
    println!(
        "{} games in {:.0} s; mean deviation at the end {sigma:.0}, games per player {:.0}",
        pop.games(),
        started.elapsed().as_secs_f64(),
        f64::from(games) / pop.ratings.len() as f64
    );
    for (kind, (sum, n)) in pop.kinds.iter().zip(&pop.balance_by_kind) {
        let mean = *sum.numer() as f64 / *sum.denom() as f64 / (*n).max(1) as f64;
        println!(
            "{}: mean balance {mean:+.2} whists a pool over {n} pools",
            kind.name
        );
    }
    if last_wrong == pop.games() {
        println!("easy < normal < strong does not hold at the end");
    } else {
        println!(
            "easy < normal < strong from game {} on ({:.0} games per player)",
            last_wrong + 1,
            (last_wrong + 1) as f64 * 3.0 / pop.ratings.len() as f64
        );
    }
    Ok(())
}
