//! Études: a position (three hands, who leads, trumps or misère) and a goal the player must
//! reach against the solver's best replies: catch the misère, make N tricks as declarer, or
//! hold the declarer under N. The solver decides everything here: which first cards keep the
//! goal ([`Etude::keys`]), its reply at each turn of its side ([`Etude::reply`]), and whether
//! the goal is still within reach after the player's card ([`Etude::keeps`]), so a stated
//! answer is proven, not believed.
//!
//! [`collection`] holds the project's misère études: five-card endings the solver found among
//! random layouts in which exactly one lead of the defence catches the misère (not the
//! published classics: those are still to be written in, each proven the same way).

use pref_bot::{Goal, Position, Solver};
use pref_core::{Card, CardSet, Suit};

/// What the player must reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aim {
    /// As both defenders, give the misère declarer at least one trick (R6.4).
    CatchMisere {
        /// The declarer's player index.
        declarer: usize,
    },
    /// As declarer, take at least `tricks` of the tricks left.
    Make {
        /// The declarer's player index.
        declarer: usize,
        /// Trumps, `None` for no trumps.
        trump: Option<Suit>,
        /// Tricks to take.
        tricks: u8,
    },
    /// As both defenders, hold the declarer under `tricks` of the tricks left.
    Defend {
        /// The declarer's player index.
        declarer: usize,
        /// Trumps, `None` for no trumps.
        trump: Option<Suit>,
        /// The declarer's tricks to stop him reaching.
        tricks: u8,
    },
}

/// One étude.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Etude {
    /// Its name in the collection (`"m1"`).
    pub id: String,
    /// The three hands, by player index clockwise.
    pub hands: [CardSet; 3],
    /// Who leads the first trick (a player of the player's side).
    pub leader: usize,
    /// The goal.
    pub aim: Aim,
    /// The one first card that keeps the goal.
    pub answer: Card,
}

impl Aim {
    pub(crate) fn declarer(self) -> usize {
        match self {
            Aim::CatchMisere { declarer }
            | Aim::Make { declarer, .. }
            | Aim::Defend { declarer, .. } => declarer,
        }
    }

    fn goal(self) -> Goal {
        match self {
            Aim::CatchMisere { declarer } => Goal::Misere { declarer },
            Aim::Make {
                declarer, trump, ..
            }
            | Aim::Defend {
                declarer, trump, ..
            } => Goal::Tricks { declarer, trump },
        }
    }

    /// Whether the player plays `player`'s cards (the solver the others').
    #[must_use]
    pub fn players(self, player: usize) -> bool {
        match self {
            Aim::Make { declarer, .. } => player == declarer,
            Aim::CatchMisere { declarer } | Aim::Defend { declarer, .. } => player != declarer,
        }
    }

    /// Whether the declarer's `tricks` from the start reach the goal.
    pub(crate) fn reached(self, tricks: u8) -> bool {
        match self {
            Aim::CatchMisere { .. } => tricks >= 1,
            Aim::Make { tricks: n, .. } => tricks >= n,
            Aim::Defend { tricks: n, .. } => tricks < n,
        }
    }
}

impl Etude {
    /// The starting position.
    #[must_use]
    pub fn position(&self) -> Position {
        Position {
            hands: self.hands,
            leader: self.leader,
            trick: Vec::new(),
            tricks_done: 0,
            goal: self.aim.goal(),
        }
    }

    /// Whether the goal can still be forced from `pos`, the declarer having taken `taken`
    /// tricks before it; `None` if the solver's node limit ran out.
    pub fn keeps(&self, solver: &mut Solver, pos: &Position, taken: u8) -> Option<bool> {
        if pos.tricks_left() == 0 {
            return Some(self.aim.reached(taken));
        }
        let v = solver.solve(pos)?;
        Some(self.aim.reached(taken + v))
    }

    /// The player's first cards that keep the goal, against every defence.
    pub fn keys(&self, solver: &mut Solver) -> Option<Vec<Card>> {
        let pos = self.position();
        let moves = solver.solve_moves(&pos)?;
        Some(
            moves
                .into_iter()
                .filter(|&(_, v)| self.aim.reached(v))
                .map(|(c, _)| c)
                .collect(),
        )
    }

    /// The solver's best card in `pos` for its side (the declarer's in misère and when the
    /// player defends, the defenders' when he declares): the one that keeps the declarer's
    /// tricks lowest, or highest, from here.
    pub fn reply(&self, solver: &mut Solver, pos: &Position) -> Option<Card> {
        let moves = solver.solve_moves(pos)?;
        let declarer_moves = pos.to_play() == self.aim.declarer();
        let wants_many = match self.aim {
            Aim::CatchMisere { .. } => !declarer_moves,
            Aim::Make { .. } | Aim::Defend { .. } => declarer_moves,
        };
        let best = if wants_many {
            moves.iter().max_by_key(|m| m.1)
        } else {
            moves.iter().min_by_key(|m| m.1)
        };
        best.map(|m| m.0)
    }
}

fn cards(s: &str) -> CardSet {
    s.split(' ')
        .filter_map(|c| c.parse::<Card>().ok())
        .collect()
}

/// A misère étude: players 0 and 1 defend and player 0 leads; the declarer is player 2.
fn misere(id: &'static str, hands: [&str; 3], answer: &str) -> Etude {
    Etude {
        id: id.to_owned(),
        hands: hands.map(cards),
        leader: 0,
        aim: Aim::CatchMisere { declarer: 2 },
        answer: answer.parse().unwrap_or(Card::from_index(0)),
    }
}

/// The collection, in order; the day's étude is the one at the day's number modulo its
/// length.
#[must_use]
pub fn collection() -> Vec<Etude> {
    vec![
        misere(
            "m1",
            ["9S QD TH JH KH", "8S 7C QC AC AD", "8C 7D 9D TD KD"],
            "QD",
        ),
        misere(
            "m2",
            ["JS JC 8D QD QH", "TS KS AS AC JD", "9C KC 9D 7H 9H"],
            "QH",
        ),
        misere(
            "m3",
            ["7S 9S 7D KD JH", "JS AC 8D 9D 8H", "7C 9C JC QC KH"],
            "JH",
        ),
        misere(
            "m4",
            ["7C 8C TC AC 8D", "9C JC 7D JD JH", "8S JS TD 7H AH"],
            "8D",
        ),
        misere(
            "m5",
            ["AS 9C 7H 9H KH", "8S JS QS 7C TH", "JC 7D 9D QD AD"],
            "9C",
        ),
    ]
}

/// The collection's size, for the day's pick.
pub const COLLECTION: usize = 5;

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `e` from its start: the player's cards are `first` and then any card that keeps
    /// the goal, the solver's its best replies. Returns the declarer's tricks at the end.
    fn play_out(e: &Etude, first: Card, solver: &mut Solver) -> u8 {
        let mut pos = e.position();
        let mut taken = 0;
        let mut next = Some(first);
        while pos.tricks_left() > 0 {
            let card = if e.aim.players(pos.to_play()) {
                next.take().unwrap_or_else(|| {
                    pos.legal_cards()
                        .iter()
                        .find(|&c| {
                            let (after, won) = pos.play(c).unwrap();
                            let t = taken + u8::from(won == Some(Some(e.aim.declarer())));
                            e.keeps(solver, &after, t).unwrap()
                        })
                        .unwrap_or_else(|| pos.legal_cards().iter().next().unwrap())
                })
            } else {
                e.reply(solver, &pos).unwrap()
            };
            let (after, won) = pos.play(card).unwrap();
            taken += u8::from(won == Some(Some(e.aim.declarer())));
            pos = after;
        }
        taken
    }

    /// R6.4: each étude's stated lead is the only one that catches the misère against every
    /// defence; played out against the solver's replies it gives the declarer a trick, and
    /// every other lead lets the solver's declarer take none.
    #[test]
    fn every_etude_s_answer_is_proven() {
        let mut solver = Solver::new();
        let all = collection();
        assert_eq!(all.len(), COLLECTION);
        for e in &all {
            let pos = e.position();
            assert_eq!(pos.validate(), Ok(()), "{}", e.id);
            assert_eq!(e.keys(&mut solver), Some(vec![e.answer]), "{}", e.id);
            assert!(play_out(e, e.answer, &mut solver) >= 1, "{}: caught", e.id);
            for wrong in pos.legal_cards().iter().filter(|&c| c != e.answer) {
                assert_eq!(
                    play_out(e, wrong, &mut solver),
                    0,
                    "{}: {wrong} fails",
                    e.id
                );
            }
        }
    }

    /// The solver's side: the misère declarer's reply is a card that keeps his tricks
    /// lowest, and `keeps` reads a finished deal by the tricks taken.
    #[test]
    fn the_declarer_replies_low_and_a_finished_deal_is_read_by_its_tricks() {
        let mut solver = Solver::new();
        let e = &collection()[0];
        let (after, _) = e.position().play(e.answer).unwrap();
        let (after, _) = after
            .play(after.legal_cards().iter().next().unwrap())
            .unwrap();
        let reply = e.reply(&mut solver, &after).unwrap();
        let moves = solver.solve_moves(&after).unwrap();
        let low = moves.iter().map(|m| m.1).min().unwrap();
        assert_eq!(moves.iter().find(|m| m.0 == reply).map(|m| m.1), Some(low));
        let done = Position {
            hands: [CardSet::EMPTY; 3],
            ..e.position()
        };
        assert_eq!(e.keeps(&mut solver, &done, 1), Some(true));
        assert_eq!(e.keeps(&mut solver, &done, 0), Some(false));
    }
}
