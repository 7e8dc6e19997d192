//! One attempt at an étude, replayed from the player's cards alone: the solver answers every
//! turn of its side with its best card, and each card of the player is judged by the solver's
//! value after it. A card that keeps the goal lets the attempt go on; the first card that
//! does not ends it with the defence's line that refutes it ("after X the defence does Y").
//!
//! The attempt keeps no state between requests: the client sends the cards it played so far
//! and the whole attempt is replayed, so a server holds nothing per attempt and two replays
//! of the same cards give the same answer (the solver is exact and picks its card the same
//! way each time).

use pref_bot::{Position, Solver};
use pref_core::{Card, CardSet};

use crate::etude::{Aim, Etude};

/// One card of the attempt, in the order played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Who played it, by player index.
    pub player: usize,
    /// The card.
    pub card: Card,
    /// Whether the player played it (else the solver did).
    pub by_player: bool,
}

/// Where the attempt stands after the cards sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The player's turn: `player` plays one of `legal`.
    Playing {
        /// Whose cards the player plays now.
        player: usize,
        /// The cards he may play.
        legal: CardSet,
    },
    /// The goal is reached: every card kept it against the solver's best defence.
    Solved,
    /// The player's card `card` loses the goal: `line` is the play that follows with best
    /// play by both sides, the solver's defence first.
    Lost {
        /// The losing card.
        card: Card,
        /// The cards after it to the end of the deal, each by whom.
        line: Vec<Step>,
    },
}

/// An attempt replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// Every card played, the player's and the solver's, in order.
    pub steps: Vec<Step>,
    /// The declarer's tricks so far.
    pub declarer_tricks: u8,
    /// Where it stands.
    pub outcome: Outcome,
}

/// Why the cards sent are not an attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttemptError {
    /// The player's card number `index` (from 0) is not a legal card at that turn.
    NotLegal {
        /// Its place among the cards sent.
        index: usize,
        /// The card.
        card: Card,
    },
    /// More cards were sent than the attempt has turns for (after a lost card, or past the
    /// last trick).
    TooMany {
        /// How many of the cards sent were used.
        used: usize,
    },
    /// The solver's node budget ran out first.
    Budget,
}

impl std::fmt::Display for AttemptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AttemptError::NotLegal { index, card } => {
                write!(
                    f,
                    "card {} ({card}) may not be played at that turn",
                    index + 1
                )
            }
            AttemptError::TooMany { used } => write!(
                f,
                "the attempt ended after {used} of the cards sent; send no more"
            ),
            AttemptError::Budget => write!(f, "the solver's budget ran out"),
        }
    }
}

impl std::error::Error for AttemptError {}

/// Replays `cards`, the player's cards in order, against the solver's best replies.
///
/// # Errors
/// [`AttemptError::NotLegal`] for a card the player may not play, [`AttemptError::TooMany`]
/// for cards past the attempt's end, [`AttemptError::Budget`] when the solver's node limit
/// (set on `solver` by the caller) runs out.
pub fn attempt(
    etude: &Etude,
    solver: &mut Solver,
    cards: &[Card],
) -> Result<Attempt, AttemptError> {
    let aim = etude.aim;
    let mut pos = etude.position();
    let mut taken = 0u8;
    let mut steps = Vec::new();
    let mut sent = cards.iter().copied().enumerate();
    loop {
        if pos.tricks_left() == 0 {
            if let Some((used, _)) = sent.next() {
                return Err(AttemptError::TooMany { used });
            }
            let outcome = if aim.reached(taken) {
                Outcome::Solved
            } else {
                Outcome::Lost {
                    card: steps.last().map_or(Card::from_index(0), |s: &Step| s.card),
                    line: Vec::new(),
                }
            };
            return Ok(Attempt {
                steps,
                declarer_tricks: taken,
                outcome,
            });
        }
        let player = pos.to_play();
        if aim.players(player) {
            let Some((index, card)) = sent.next() else {
                return Ok(Attempt {
                    steps,
                    declarer_tricks: taken,
                    outcome: Outcome::Playing {
                        player,
                        legal: pos.legal_cards(),
                    },
                });
            };
            if !pos.legal_cards().contains(card) {
                return Err(AttemptError::NotLegal { index, card });
            }
            let (after, t) = advance(&pos, card, taken, aim);
            steps.push(Step {
                player,
                card,
                by_player: true,
            });
            if !etude.keeps(solver, &after, t).ok_or(AttemptError::Budget)? {
                if let Some((used, _)) = sent.next() {
                    return Err(AttemptError::TooMany { used });
                }
                let line = best_line(etude, solver, after.clone())?;
                return Ok(Attempt {
                    steps,
                    declarer_tricks: t,
                    outcome: Outcome::Lost { card, line },
                });
            }
            pos = after;
            taken = t;
        } else {
            let card = etude.reply(solver, &pos).ok_or(AttemptError::Budget)?;
            let (after, t) = advance(&pos, card, taken, aim);
            steps.push(Step {
                player,
                card,
                by_player: false,
            });
            pos = after;
            taken = t;
        }
    }
}

/// The position after `card` and the declarer's tricks then.
fn advance(pos: &Position, card: Card, taken: u8, aim: Aim) -> (Position, u8) {
    let Ok((after, won)) = pos.play(card) else {
        // Only legal cards reach here.
        return (pos.clone(), taken);
    };
    (after, taken + u8::from(won == Some(Some(aim.declarer()))))
}

/// Best play by both sides from `pos` to the end: the solver's side keeps the declarer's
/// tricks where it wants them, the player's side does its best for the goal.
fn best_line(
    etude: &Etude,
    solver: &mut Solver,
    mut pos: Position,
) -> Result<Vec<Step>, AttemptError> {
    let mut line = Vec::new();
    while pos.tricks_left() > 0 {
        let player = pos.to_play();
        let by_player = etude.aim.players(player);
        let card = if by_player {
            // The player's side plays as the solver would for it: against its own side's
            // replies, the same rule read the other way.
            let moves = solver.solve_moves(&pos).ok_or(AttemptError::Budget)?;
            let wants_many = match etude.aim {
                Aim::CatchMisere { .. } | Aim::Make { .. } => true,
                Aim::Defend { .. } => false,
            };
            let best = if wants_many {
                moves.iter().max_by_key(|m| m.1)
            } else {
                moves.iter().min_by_key(|m| m.1)
            };
            best.map(|m| m.0).ok_or(AttemptError::Budget)?
        } else {
            etude.reply(solver, &pos).ok_or(AttemptError::Budget)?
        };
        line.push(Step {
            player,
            card,
            by_player,
        });
        let Ok((after, _)) = pos.play(card) else {
            break;
        };
        pos = after;
    }
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::etude::collection;

    /// Plays `first` then, at every later turn of the player, the first legal card that keeps
    /// the goal (by the solver), as a client that knows the answer would.
    fn solve_with(e: &Etude, first: Card, solver: &mut Solver) -> Result<Attempt, AttemptError> {
        let mut cards = vec![first];
        loop {
            let a = attempt(e, solver, &cards)?;
            let Outcome::Playing { legal, .. } = a.outcome else {
                return Ok(a);
            };
            let next = legal
                .iter()
                .find(|&c| {
                    let mut more = cards.clone();
                    more.push(c);
                    !matches!(
                        attempt(e, solver, &more).map(|a| a.outcome),
                        Ok(Outcome::Lost { .. })
                    )
                })
                .expect("a card that keeps the goal");
            cards.push(next);
        }
    }

    /// R6.4: the stated answer of every étude, followed by cards that keep the goal, is
    /// solved with the misère caught (the declarer takes a trick); every other first card
    /// ends the attempt at once as lost, with the defence's line to the end of the deal.
    #[test]
    fn the_answer_solves_and_every_other_first_card_is_refuted() {
        let mut solver = Solver::new();
        for e in &collection() {
            let a = solve_with(e, e.answer, &mut solver).unwrap();
            assert_eq!(a.outcome, Outcome::Solved, "{}", e.id);
            assert!(a.declarer_tricks >= 1, "{}", e.id);
            // Five tricks of three cards.
            assert_eq!(a.steps.len(), 15, "{}", e.id);
            for wrong in e.position().legal_cards().iter().filter(|&c| c != e.answer) {
                let a = attempt(e, &mut solver, &[wrong]).unwrap();
                let Outcome::Lost { card, line } = a.outcome else {
                    panic!("{}: {wrong} not refuted", e.id);
                };
                assert_eq!(card, wrong);
                assert_eq!(a.steps.len(), 1);
                // The rest of the deal, from the partner's card, and the declarer (the
                // solver, player 2) takes no trick.
                assert_eq!(line.len(), 14, "{}", e.id);
                assert_eq!((line[0].player, line[0].by_player), (1, true));
                assert_eq!((line[1].player, line[1].by_player), (2, false));
                let mut pos = e.position();
                let mut taken = 0;
                for s in std::iter::once(Step {
                    player: 0,
                    card: wrong,
                    by_player: true,
                })
                .chain(line.iter().copied())
                {
                    assert_eq!(pos.to_play(), s.player);
                    let (next, won) = pos.play(s.card).unwrap();
                    taken += u8::from(won == Some(Some(2)));
                    pos = next;
                }
                assert_eq!(taken, 0, "{}: {wrong}", e.id);
            }
        }
    }

    /// The solver answers at once: after the first card of `m1` the attempt stands at the
    /// player's next turn with the solver's cards played, and a second request with the
    /// same cards gives the same answer.
    #[test]
    fn replies_are_the_solver_s_and_replays_agree() {
        let mut solver = Solver::new();
        let e = &collection()[0];
        let a = attempt(e, &mut solver, &[e.answer]).unwrap();
        // Player 0 leads, player 1 is the player's too: he plays next.
        assert_eq!(a.steps.len(), 1);
        let Outcome::Playing { player, legal } = a.outcome.clone() else {
            panic!("{:?}", a.outcome);
        };
        assert_eq!(player, 1);
        assert_eq!(legal, e.position().play(e.answer).unwrap().0.legal_cards());
        let keep = legal
            .iter()
            .find(|&c| {
                !matches!(
                    attempt(e, &mut solver, &[e.answer, c]).map(|a| a.outcome),
                    Ok(Outcome::Lost { .. })
                )
            })
            .unwrap();
        let b = attempt(e, &mut solver, &[e.answer, keep]).unwrap();
        // The declarer (player 2) answered with the solver's reply.
        assert_eq!(b.steps[2].player, 2);
        assert!(!b.steps[2].by_player);
        assert_eq!(
            b,
            attempt(e, &mut Solver::new(), &[e.answer, keep]).unwrap()
        );
    }

    #[test]
    fn bad_cards_are_refused_with_their_place() {
        let mut solver = Solver::new();
        let e = &collection()[0];
        // Player 1's ace of clubs is not player 0's to lead.
        let ac: Card = "AC".parse().unwrap();
        assert_eq!(
            attempt(e, &mut solver, &[ac]),
            Err(AttemptError::NotLegal { index: 0, card: ac })
        );
        let wrong = e
            .position()
            .legal_cards()
            .iter()
            .find(|&c| c != e.answer)
            .unwrap();
        let next = e
            .position()
            .play(wrong)
            .unwrap()
            .0
            .legal_cards()
            .iter()
            .next()
            .unwrap();
        assert_eq!(
            attempt(e, &mut solver, &[wrong, next]),
            Err(AttemptError::TooMany { used: 1 })
        );
        let mut starved = Solver::new();
        starved.set_node_limit(1);
        assert_eq!(
            attempt(e, &mut starved, &[e.answer]),
            Err(AttemptError::Budget)
        );
    }
}
