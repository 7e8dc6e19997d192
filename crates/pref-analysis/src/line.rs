//! One line of play analysed card by card: the open-hand value before and after every card.
//!
//! This is the heart of the analysis, kept on the solver's own [`Position`]s (players 0..3,
//! no seats, no record) so that tests can hold every value against a brute-force minimax.
//! `deal.rs` turns a recorded deal into a start position and a line of cards.

use pref_bot::{Goal, Position, PositionError, Solver};
use pref_core::{Card, CardSet};

/// One card of the line and what the solver says about it.
///
/// Values are *totals*: the counted player's tricks taken before the start position (as
/// given to [`analyse_line`]) and in the line so far, plus what he takes from here on with
/// best play by everyone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The player who played the card.
    pub player: usize,
    /// The card played.
    pub card: Card,
    /// The player whose tricks the values count: the declarer (contract, misère) or, in
    /// raspasy, the player to move himself (the solver's paranoid model).
    pub counted: usize,
    /// Whether the player to move wants the counted player's tricks high (the declarer of a
    /// contract, a misère defender) rather than low.
    pub maximises: bool,
    /// The value before the card: with the best card.
    pub before: u8,
    /// The value after the card played.
    pub after: u8,
    /// Every legal card with the value after it, in card order.
    pub values: Vec<(Card, u8)>,
}

impl Step {
    /// Tricks the card cost the side of the player who played it (0 for a best card).
    #[must_use]
    pub fn cost(&self) -> u8 {
        if self.maximises {
            self.before - self.after
        } else {
            self.after - self.before
        }
    }

    /// The best cards: those whose value is the value before.
    #[must_use]
    pub fn best(&self) -> CardSet {
        self.values
            .iter()
            .filter(|&&(_, v)| v == self.before)
            .map(|&(c, _)| c)
            .collect()
    }
}

/// Why a line cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// The start position is not well formed.
    Position(PositionError),
    /// Card `index` of the line is not a legal card there.
    Illegal {
        /// The card's place in the line (0-based).
        index: usize,
        /// The card.
        card: Card,
    },
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::Position(e) => write!(f, "the position is not valid: {e}"),
            LineError::Illegal { index, card } => write!(f, "card {index} ({card}) is not legal"),
        }
    }
}

impl std::error::Error for LineError {}

/// The position with its goal seen from `player` when the goal is raspasy (each player is
/// solved for his own tricks there); other goals are unchanged.
#[must_use]
pub fn counted_by(pos: &Position, player: usize) -> Position {
    let mut p = pos.clone();
    if let Goal::Raspasy { player: q, .. } = &mut p.goal {
        *q = player;
    }
    p
}

/// Analyses `cards` played in order from `start`, with `taken[p]` tricks already taken by
/// player `p` before it. One solver serves every position, so its transposition table
/// carries over from each position to the next.
///
/// # Errors
/// [`LineError`] if the start position is not valid or a card is not legal where it falls.
pub fn analyse_line(
    solver: &mut Solver,
    start: &Position,
    cards: &[Card],
    taken: [u8; 3],
) -> Result<Vec<Step>, LineError> {
    start.validate().map_err(LineError::Position)?;
    let mut pos = start.clone();
    let mut taken = taken;
    let mut steps = Vec::with_capacity(cards.len());
    for (index, &card) in cards.iter().enumerate() {
        let player = pos.to_play();
        let here = counted_by(&pos, player);
        let (next, won) = here
            .play(card)
            .map_err(|_| LineError::Illegal { index, card })?;
        let counted = here.target();
        let base = taken[counted];
        let values: Vec<(Card, u8)> = solver
            .solve_moves(&here)
            .expect("the analysis solver has no node limit")
            .into_iter()
            .map(|(c, v)| (c, base + v))
            .collect();
        let maximises = maximises(&here.goal, player);
        let best = values.iter().map(|&(_, v)| v);
        let before =
            if maximises { best.max() } else { best.min() }.expect("a player to move holds a card");
        let after = values
            .iter()
            .find(|&&(c, _)| c == card)
            .map(|&(_, v)| v)
            .expect("the card played is legal");
        steps.push(Step {
            player,
            card,
            counted,
            maximises,
            before,
            after,
            values,
        });
        if let Some(Some(w)) = won {
            taken[w] += 1;
        }
        pos = next;
    }
    Ok(steps)
}

/// The value of `pos` for its target with best play, plus `taken`: the par of a deal from
/// its first lead.
#[must_use]
pub fn value(solver: &mut Solver, pos: &Position, taken: u8) -> u8 {
    taken
        + solver
            .solve(pos)
            .expect("the analysis solver has no node limit")
}

/// Whether `player` wants the target's tricks high under `goal`.
#[must_use]
pub fn maximises(goal: &Goal, player: usize) -> bool {
    match *goal {
        Goal::Tricks { declarer, .. } => player == declarer,
        Goal::Misere { declarer } => player != declarer,
        Goal::Raspasy { player: target, .. } => player != target,
    }
}
