//! A measurement, not a check (`--ignored`): what the fairness write adds to a deal's own
//! writes (`docs/fairness.md`). A deal of a table where nobody contributes (bots, older
//! clients) writes its seed before the deck: one more row beside the deck and the deal's
//! actions, and, unlike them, outside the group commit. This plays the store's side of
//! whole deals (the seed, the deck, 36 actions) on many tables at once, with and without
//! the seed, and prints deals per second and the latency of each kind of write; on SQLite
//! always and on PostgreSQL when `PREF_TEST_POSTGRES_URL` is set.
//!
//! `cargo test -p pref-server --release --test fair_cost -- --ignored --nocapture`

mod common;

use std::time::{Duration, Instant};

use common::*;
use futures_util::future::join_all;
use pref_core::{Action, Card, Seat};
use pref_server::ids::Secret;
use pref_server::store::{Database, Store};
use serde_json::json;

/// The writes of a typical deal besides its deck: the auction, the talon, and 30 cards.
const ACTIONS: u32 = 36;

/// The time of each write of one kind.
#[derive(Default)]
struct Times(Vec<Duration>);

impl Times {
    fn add(&mut self, t: Instant) {
        self.0.push(t.elapsed());
    }

    fn line(&mut self, what: &str) -> String {
        if self.0.is_empty() {
            return format!("{what}: none");
        }
        self.0.sort();
        let n = self.0.len();
        let mean = self.0.iter().sum::<Duration>() / n as u32;
        let at = |q: f64| self.0[((n as f64 * q) as usize).min(n - 1)];
        format!(
            "{what}: {n} writes, mean {:.0} µs, p50 {:.0} µs, p99 {:.0} µs",
            micros(mean),
            micros(at(0.5)),
            micros(at(0.99))
        )
    }
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// One table's deals, written as the table writes them; the time of each write.
async fn one_table(store: &Store, deals: u32, seeds: bool) -> (Times, Times, Times) {
    let (mut seed, mut deck, mut action) = (Times::default(), Times::default(), Times::default());
    let no = store
        .create_table(
            &Secret::random(),
            (&Secret::random().into(), &Secret::random().into()),
            &json!("sochi"),
            true,
            0,
        )
        .await
        .unwrap();
    let cards: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    let pass: Action = serde_json::from_value(json!({"bid": "pass"})).unwrap();
    for d in 0..deals {
        if seeds {
            let t = Instant::now();
            let hex = format!("{:064x}", u128::from(d) << 64 | no as u128);
            store.put_fair_seed(no, d, &hex, 2).await.unwrap();
            seed.add(t);
        }
        let t = Instant::now();
        store.put_deal(no, d, &cards).await.unwrap();
        deck.add(t);
        for seq in 0..ACTIONS {
            let t = Instant::now();
            store
                .put_action(no, d, seq, Seat((seq % 3) as u8), &pass)
                .await
                .unwrap();
            action.add(t);
        }
    }
    (seed, deck, action)
}

/// `tables` tables writing `deals` deals each at once; deals per second and the times.
async fn run(store: &Store, tables: usize, deals: u32, seeds: bool) -> (f64, Times, Times, Times) {
    let start = Instant::now();
    let all = join_all((0..tables).map(|_| one_table(store, deals, seeds))).await;
    let rate = (tables as f64 * f64::from(deals)) / start.elapsed().as_secs_f64();
    let (mut seed, mut deck, mut action) = (Times::default(), Times::default(), Times::default());
    for (s, d, a) in all {
        seed.0.extend(s.0);
        deck.0.extend(d.0);
        action.0.extend(a.0);
    }
    (rate, seed, deck, action)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement; run with --release -- --ignored --nocapture"]
async fn the_fairness_write_against_a_deal_s_own_writes() {
    let mut backends = vec![("SQLite", Database::in_dir(&temp_dir("fair-cost")))];
    if let Some(url) = postgres("fair_cost").await {
        backends.push(("PostgreSQL", Database::Postgres(url)));
    }
    for (name, db) in backends {
        // Nothing renews the leases here: one longer than the run keeps PostgreSQL's writes
        // fenced in.
        let store = Store::connect(&db, Duration::from_secs(3600))
            .await
            .unwrap();
        for (tables, deals) in [(1, 200), (50, 20)] {
            // Each twice, in the order without, with, with, without: the database grows
            // and the machine's load drifts, and a steady drift weighs on both alike.
            for round in 0..2 {
                let order = if round == 0 {
                    [false, true]
                } else {
                    [true, false]
                };
                for seeds in order {
                    let (rate, mut seed, mut deck, mut action) =
                        run(&store, tables, deals, seeds).await;
                    println!(
                        "{name}, {tables} table(s) x {deals} deals, round {round}, {}: {rate:.1} deals/s\n  {}\n  {}\n  {}",
                        if seeds { "with the seed" } else { "without" },
                        seed.line("seed"),
                        deck.line("deck"),
                        action.line("action"),
                    );
                }
            }
        }
    }
}
