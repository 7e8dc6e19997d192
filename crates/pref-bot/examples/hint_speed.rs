//! How long a practice table's hint takes: the strong bot's `Bot::explain` from the seat's
//! view, with the server's hint budget (`limits.hint_nodes`, 3,000,000 nodes by default), at
//! a typical mid-deal position — the first card-play decision with a choice after three
//! tricks (seven cards in hand) of a deal the strong bots bid and play. Prints the median and
//! the 95th percentile of the thread's CPU time over the hints (`docs/performance.md`).
//!
//! ```text
//! cargo run --release -p pref-bot --example hint_speed -- [hints] [nodes]
//! ```
#![allow(missing_docs)]

use pref_bot::{Bot, Budget, Level};
use pref_core::{Card, Deal, Event, Profile, Seat, Stage, Viewer};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let hints: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(50);
    let nodes: u64 = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3_000_000);
    let profile = Profile::sochi();
    let (play, budget) = (Budget::nodes(30_000), Budget::nodes(nodes));
    let mut times = Vec::new();
    let mut seed = 0u64;
    while times.len() < hints {
        seed += 1;
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
        deck.shuffle(&mut rng);
        let deck: [Card; 32] = deck.try_into().expect("32 cards");
        let mut deal = Deal::new(&profile, Seat(2), &deck, 0).expect("a deal");
        let mut log: Vec<Event> = vec![deal.deal_event()];
        let mut bots: Vec<Bot> = (0..3)
            .map(|s| Bot::new(Seat(s), Level::Strong, &profile, seed))
            .collect();
        for b in &mut bots {
            b.observe(&log[0].project(Viewer::Seat(b.seat()), 3));
        }
        while let Some(p) = deal.to_act() {
            let legal = deal.legal_actions_for(p);
            let view = deal.view(Viewer::Seat(p));
            let done: u8 = view.tricks_taken.iter().sum();
            if view.stage == Stage::Play && done == 3 && legal.len() > 1 && view.trick.is_empty() {
                let mut twin = Bot::new(p, Level::Strong, &profile, 99);
                for e in &log {
                    twin.observe(&e.project(Viewer::Seat(p), 3));
                }
                let start = cpu_ms();
                let hint = twin.explain(&view, &legal, budget);
                times.push(cpu_ms() - start);
                assert!(hint.is_some(), "seed {seed}: no hint");
                break;
            }
            let action = bots[p.index()].decide(&view, &legal, play);
            let events = deal.act(p, action).expect("a legal action");
            for e in &events {
                for b in &mut bots {
                    b.observe(&e.project(Viewer::Seat(b.seat()), 3));
                }
            }
            log.extend(events);
        }
    }
    times.sort_by(f64::total_cmp);
    let q = |f: f64| times[((times.len() - 1) as f64 * f).round() as usize];
    println!(
        "{} hints after trick 3 ({} deals), {nodes} nodes each: median {:.1} ms, p95 {:.1} ms, max {:.1} ms (thread CPU)",
        times.len(),
        seed,
        q(0.5),
        q(0.95),
        times[times.len() - 1]
    );
}

/// CPU time of this thread in milliseconds.
fn cpu_ms() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}
