//! What a finished deal leaves behind for the score sheet and the game record.

use serde::{Deserialize, Serialize};

use crate::action::{Defence, WhistCall};
use crate::bid::{Contract, Seat};
use crate::card::{Card, Rank};

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
        /// The talon's units for the four-player dealer's talon bonus (R11.6, 0–3): `Some`
        /// exactly when the profile has `talon_bonus` with four players.
        talon_units: Option<u8>,
    },
    /// The declarer surrendered after taking the talon: down `surrender` undertricks
    /// without whists, priced by the winning bid (R4.5).
    Surrender {
        /// The declarer.
        declarer: Seat,
        /// The winning bid (an ordinary bid: misère cannot be surrendered).
        bid: Contract,
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
            OutcomeKind::Surrender { .. } => Some(false),
            OutcomeKind::Raspasy => None,
        }
    }
}

/// The talon's units for the four-player dealer's talon bonus (R11.6): 3 for two aces, 2
/// for the ace and king of one suit, 1 for one ace otherwise or for the king and queen of
/// one suit (a marriage), 0 otherwise.
#[must_use]
pub fn talon_units(talon: [Card; 2]) -> u8 {
    let [a, b] = talon;
    let aces = u8::from(a.rank() == Rank::Ace) + u8::from(b.rank() == Rank::Ace);
    let same_suit = a.suit() == b.suit();
    let pair = |x: Rank, y: Rank| {
        same_suit && ((a.rank(), b.rank()) == (x, y) || (a.rank(), b.rank()) == (y, x))
    };
    match aces {
        2 => 3,
        1 if pair(Rank::Ace, Rank::King) => 2,
        1 => 1,
        _ if pair(Rank::King, Rank::Queen) => 1,
        _ => 0,
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
