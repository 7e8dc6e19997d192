//! Every value of the analysis against a plain brute-force minimax written from the rules
//! (R6, R7.2, R7.3, R11.3): thousands of random endings of one to five tricks, every goal,
//! with and without a trick in progress, each followed by a random legal line of play to
//! its end; at every card, the value before, the value of every legal card after it and
//! the trick's winner are the brute force's.
#![allow(missing_docs)]

#[path = "../../pref-bot/tests/brute/mod.rs"]
mod brute;

use brute::{Brute, Goals, brute, random_position};
use pref_analysis::line::{analyse_line, counted_by};
use pref_bot::{Position, Solver};
use pref_core::Card;
use rand::rngs::SmallRng;
use rand::seq::IteratorRandom;
use rand::{Rng, SeedableRng};

/// A random legal line from `start` to the end of the deal.
fn random_line(rng: &mut SmallRng, start: &Position) -> Vec<Card> {
    let mut pos = start.clone();
    let mut line = Vec::new();
    while !pos.hands[pos.to_play()].is_empty() {
        let card = pos.legal_cards().iter().choose(rng).expect("a legal card");
        line.push(card);
        pos = pos.play(card).expect("a legal card plays").0;
    }
    line
}

fn check(seed: u64, count: usize, max_tricks: usize, goals: Goals) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut solver = Solver::with_tt_bits(16);
    for case in 0..count {
        let tricks = rng.gen_range(1..=max_tricks);
        let start = random_position(&mut rng, tricks, goals);
        let line = random_line(&mut rng, &start);
        let mut taken: [u8; 3] = std::array::from_fn(|_| rng.gen_range(0..3));
        let steps = analyse_line(&mut solver, &start, &line, taken).unwrap();
        assert_eq!(steps.len(), line.len());
        let mut pos = start.clone();
        for (k, s) in steps.iter().enumerate() {
            let here = counted_by(&pos, pos.to_play());
            let target = here.target();
            let rules = Brute { goal: here.goal };
            let at = format!("case {case}, card {k}: {here:?}");
            assert_eq!(s.counted, target, "{at}");
            assert_eq!(s.maximises, rules.maximises(s.player), "{at}");
            assert_eq!(s.before, taken[target] + brute(&here), "{at}");
            assert_eq!(
                s.values.iter().map(|v| v.0).collect::<Vec<_>>(),
                here.legal_cards().iter().collect::<Vec<_>>(),
                "{at}"
            );
            for &(c, v) in &s.values {
                let (child, won) = here.play(c).unwrap();
                let gained = u8::from(won == Some(Some(target)));
                assert_eq!(v, taken[target] + gained + brute(&child), "{at}: card {c}");
            }
            // The value after the best card is the value before; no card is better.
            assert!(!s.best().is_empty(), "{at}");
            for &(c, v) in &s.values {
                let better = if s.maximises {
                    v > s.before
                } else {
                    v < s.before
                };
                assert!(!better, "{at}: {c} is worth {v}, more than the best");
                assert_eq!(s.best().contains(c), v == s.before, "{at}");
            }
            assert_eq!(s.cost() == 0, s.best().contains(s.card), "{at}");
            // The trick's winner as the brute force's rules give it.
            let (next, won) = pos.play(s.card).unwrap();
            if let Some(w) = won {
                let trick: Vec<Card> = next_trick(&pos, s.card);
                let expected = rules
                    .winner(&trick, pos.tricks_done)
                    .map(|i| (pos.leader + i) % 3);
                assert_eq!(w, expected, "{at}: trick {trick:?}");
                let leader = rules.next_leader(w.unwrap_or(pos.leader), pos.tricks_done + 1);
                assert_eq!(next.leader, leader, "{at}");
                if let Some(p) = w {
                    taken[p] += 1;
                }
            }
            pos = next;
        }
    }
}

/// The trick in progress of `pos` completed by `card`.
fn next_trick(pos: &Position, card: Card) -> Vec<Card> {
    let mut t = pos.trick.clone();
    t.push(card);
    t
}

#[test]
fn r6_r7_every_analysis_value_matches_brute_force_up_to_four_tricks() {
    check(21, 1500, 4, Goals::All);
}

#[test]
fn r6_r7_every_analysis_value_matches_brute_force_on_five_tricks() {
    check(22, 120, 5, Goals::All);
}

#[test]
fn r6_every_analysis_value_matches_brute_force_in_trump_contracts() {
    check(23, 800, 4, Goals::Trumps);
}

#[test]
fn r11_3_every_analysis_value_matches_brute_force_on_four_player_raspasy() {
    check(24, 800, 4, Goals::FourRaspasy);
}
