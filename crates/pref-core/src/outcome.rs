//! What a finished deal leaves behind for the score sheet and the game record.

use serde::{Deserialize, Serialize};

use crate::action::{Defence, WhistCall};
use crate::bid::{Contract, Seat};
use crate::card::Card;

/// The kind of a finished deal and the decisions that score it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutcomeKind {
    /// A trick contract: played, conceded (two passes) or ended by a standing half-whist.
    Game {
        /// The declarer.
        declarer: Seat,
        /// The contract named after the discard (R4.3).
        contract: Contract,
        /// Final whist decision of each seat (index = seat): `None` for the declarer, for a
        /// four-player dealer who did not whist, and for everyone on an unwhisted ten (R5.6).
        /// A returned whist is `Whist` for the returner and `Half` for the half-whister.
        whist: [Option<WhistCall>; 4],
        /// Open or closed defence when one whister played (R5.4); `None` otherwise.
        defence: Option<Defence>,
    },
    /// Misère (R8.8).
    Misere {
        /// The declarer.
        declarer: Seat,
    },
    /// All passed (R7, R8.9).
    Raspasy,
}

/// The outcome of a finished deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// 3 or 4 players at the table.
    pub players: u8,
    /// The dealer of this deal.
    pub dealer: Seat,
    /// What kind of deal it was.
    pub kind: OutcomeKind,
    /// Tricks taken per seat; `None` when nothing was played (conceded, standing half-whist).
    /// A four-player dealer's entry counts tricks his talon cards won on raspasy (R11.3).
    pub tricks: Option<[u8; 4]>,
}

impl Outcome {
    /// Whether the declarer made his contract (misère: took no trick). `None` for raspasy.
    #[must_use]
    pub fn made(&self) -> Option<bool> {
        match self.kind {
            OutcomeKind::Game {
                declarer, contract, ..
            } => Some(match self.tricks {
                Some(t) => t[declarer.index()] >= contract.level(),
                None => true,
            }),
            OutcomeKind::Misere { declarer } => {
                Some(self.tricks.is_some_and(|t| t[declarer.index()] == 0))
            }
            OutcomeKind::Raspasy => None,
        }
    }
}

/// One completed trick: who led, the cards in play order with their seats, who won.
///
/// On four-player raspasy tricks 1 and 2 the first card is the dealer's talon card (R11.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayedTrick {
    /// The seat of the first card.
    pub leader: Seat,
    /// Cards in play order; only the first `len` entries are meaningful.
    cards: [(Seat, Card); 4],
    len: u8,
    /// The seat that won the trick.
    pub winner: Seat,
}

impl PlayedTrick {
    pub(crate) fn new(cards: &[(Seat, Card)], winner: Seat) -> PlayedTrick {
        let mut arr = [(Seat(0), Card::from_index(0)); 4];
        arr[..cards.len()].copy_from_slice(cards);
        PlayedTrick {
            leader: cards[0].0,
            cards: arr,
            len: cards.len() as u8,
            winner,
        }
    }

    /// The cards in play order, each with the seat it belongs to.
    #[must_use]
    pub fn cards(&self) -> &[(Seat, Card)] {
        &self.cards[..self.len as usize]
    }
}
