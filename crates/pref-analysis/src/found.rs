//! Études found in real games: positions of a played deal, at the start of a trick, where
//! the side to lead has exactly one card that keeps the best result the solver finds for it,
//! and every other card costs a trick. The declarer leading becomes "make N"; a defender
//! leading, "hold the declarer under N" or, in misère, "catch the misère" (when it can be
//! caught). Each is rated by the nodes the solver needed to prove its answer.

use pref_bot::{Goal, Position, Solver};
use pref_core::Record;

use crate::deal::play_line;
use crate::etude::{Aim, Etude};

/// An étude found in a game, with the solver's nodes that proved it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The étude (its id made from its cards: the same position is the same étude).
    pub etude: Etude,
    /// Nodes the solver searched to find its one key card, from a fresh table.
    pub nodes: u64,
}

/// The études of `record`'s finished deals whose positions have between `min_tricks` and
/// `max_tricks` tricks left; positions whose proof needs more than `node_limit` nodes are
/// passed over. A record under `must_overtake` (R6.2), which the solver does not model, or
/// one that does not replay gives none.
#[must_use]
pub fn found_in_record(
    record: &Record,
    min_tricks: u8,
    max_tricks: u8,
    node_limit: u64,
) -> Vec<Found> {
    let profile = record.profile();
    if profile.must_overtake() {
        return Vec::new();
    }
    let mut entries = Vec::new();
    let mut streak = 0;
    let replayed = record.replay(|i, game| {
        entries.push((game.history()[i].clone(), streak));
        streak = game.raspasy_streak();
    });
    if replayed.is_err() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (entry, streak) in &entries {
        let Some(line) = play_line(profile, entry, *streak) else {
            continue;
        };
        let mut pos = line.start.clone();
        for &card in &line.line {
            if pos.trick.is_empty() && (min_tricks..=max_tricks).contains(&pos.tricks_left()) {
                out.extend(found_at(&pos, node_limit));
            }
            let Ok((next, _)) = pos.play(card) else {
                break;
            };
            pos = next;
        }
    }
    out.dedup_by(|a, b| a.etude.id == b.etude.id);
    out
}

/// The étude at `pos` (a trick's start), if its leader has exactly one best card.
#[must_use]
pub fn found_at(pos: &Position, node_limit: u64) -> Option<Found> {
    let mut solver = Solver::new();
    solver.set_node_limit(node_limit);
    let moves = solver.solve_moves(pos)?;
    if moves.len() < 2 {
        return None;
    }
    let leader = pos.leader;
    let aim = match pos.goal {
        Goal::Tricks { declarer, trump } => {
            if leader == declarer {
                let best = moves.iter().map(|m| m.1).max()?;
                Aim::Make {
                    declarer,
                    trump,
                    tricks: best,
                }
            } else {
                let best = moves.iter().map(|m| m.1).min()?;
                Aim::Defend {
                    declarer,
                    trump,
                    tricks: best + 1,
                }
            }
        }
        Goal::Misere { declarer } if leader != declarer => {
            if moves.iter().all(|m| m.1 == 0) {
                return None;
            }
            Aim::CatchMisere { declarer }
        }
        Goal::Misere { .. } | Goal::Raspasy { .. } => return None,
    };
    let keys: Vec<_> = moves
        .iter()
        .filter(|m| aim.reached(m.1))
        .map(|m| m.0)
        .collect();
    let [answer] = keys[..] else {
        return None;
    };
    let etude = Etude {
        id: id_of(pos),
        hands: pos.hands,
        leader,
        aim,
        answer,
    };
    // Rated from a fresh table, as a player's first request would be solved.
    let mut fresh = Solver::new();
    fresh.set_node_limit(node_limit);
    let proved = etude.keys(&mut fresh)?;
    (proved == vec![answer]).then(|| Found {
        nodes: fresh.stats().nodes,
        etude,
    })
}

/// `g` and the position's cards and leader in hex: the same position, the same id.
fn id_of(pos: &Position) -> String {
    let [a, b, c] = pos.hands.map(|h| h.0);
    format!("g{a:08x}{b:08x}{c:08x}{}", pos.leader)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pref_core::{Card, CardSet, Suit};

    fn cards(s: &str) -> CardSet {
        s.split(' ').map(|c| c.parse::<Card>().unwrap()).collect()
    }

    /// The collection's first étude read as a game's position: found, with its one answer
    /// (R6.4: the queen of diamonds is the only lead that catches the misère).
    #[test]
    fn a_misere_position_with_one_catching_lead_is_found() {
        let e = &crate::etude::collection()[0];
        let f = found_at(&e.position(), u64::MAX).expect("found");
        assert_eq!(f.etude.answer, e.answer);
        assert_eq!(f.etude.aim, e.aim);
        assert!(f.nodes > 0);
        assert!(f.etude.id.starts_with('g'));
    }

    /// R6: the declarer leads from ♠A K ♥A against two hands with none of those suits: every
    /// lead takes the three tricks, so no card is the only one and there is no étude.
    #[test]
    fn a_position_with_two_best_cards_is_not_found() {
        let pos = Position {
            hands: [cards("AS KS AH"), cards("7C 8C 9C"), cards("7D 8D 9D")],
            leader: 0,
            trick: Vec::new(),
            tricks_done: 7,
            goal: Goal::Tricks {
                declarer: 0,
                trump: Some(Suit::Spades),
            },
        };
        assert_eq!(found_at(&pos, u64::MAX), None);
    }

    /// The études of a recorded game (`tests/records/leningrad.json`): some found, each
    /// with exactly one key card that the solver proves again from a fresh table, and the
    /// attempt that starts with it is not lost.
    #[test]
    fn a_recorded_game_s_etudes_each_have_one_proven_answer() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/records/leningrad.json"
        ))
        .unwrap();
        let record = Record::from_json_str(&text).unwrap();
        let found = found_in_record(&record, 3, 6, 2_000_000);
        assert_eq!(found.len(), 15);
        for f in &found {
            let e = &f.etude;
            assert!((3..=6).contains(&e.position().tricks_left()), "{}", e.id);
            assert_eq!(e.keys(&mut Solver::new()), Some(vec![e.answer]), "{}", e.id);
            let a = crate::attempt(e, &mut Solver::new(), &[e.answer]).unwrap();
            assert!(
                !matches!(a.outcome, crate::Outcome::Lost { .. }),
                "{}",
                e.id
            );
        }
    }
}
