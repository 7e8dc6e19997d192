//! What a finished deal leaves behind for the score sheet and the game record: its
//! [`Outcome`], the [`AcceptedClaim`] that ended it if one did, and (in `form.rs`) the
//! outcome's one serde form, [`OutcomeForm`], that every writer of an outcome uses.

mod form;

use serde::{Deserialize, Serialize};

use crate::action::{Action, Defence, WhistCall};
use crate::bid::{Contract, Seat};
use crate::card::{Card, Rank};
use crate::claim::{Answer, Claim};

pub use form::{FormKind, OutcomeForm};

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
    /// A dark deal (R3.9.1): every entry is doubled (R8.11). Never on raspasy.
    pub dark: bool,
    /// A misère won with MWT, or a game won with 9WT: no talon was taken (R4.6, R8.12).
    pub no_talon: bool,
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

    /// The tricks a played trick contract fell short of its level by (R8.2): `Some(0)` when
    /// it was made, `None` when no trick contract was played (conceded, a standing
    /// half-whist, a surrender, misère, raspasy).
    #[must_use]
    pub fn undertricks(&self) -> Option<u8> {
        match (self.kind, self.tricks) {
            (
                OutcomeKind::Game {
                    declarer, contract, ..
                },
                Some(t),
            ) => Some(contract.level().saturating_sub(t[declarer.index()])),
            (OutcomeKind::Game { .. }, None)
            | (OutcomeKind::Surrender { .. } | OutcomeKind::Misere { .. }, _)
            | (OutcomeKind::Raspasy, _) => None,
        }
    }

    /// The outcome in its serde form.
    #[must_use]
    pub fn form(&self) -> OutcomeForm {
        OutcomeForm::of(self)
    }
}

/// A claim that ended a deal (R6.7): the claimer and the remaining tricks per seat as
/// claimed. On the wire and in the analysis: `{"seat": 0, "claim": [6, 1, 1]}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcceptedClaim {
    /// The claimer.
    pub seat: Seat,
    /// The remaining tricks per seat as claimed.
    pub claim: Claim,
}

impl AcceptedClaim {
    /// The claim that ended a finished deal whose actions are `actions`: its last action is
    /// an acceptance, so every player of the deal accepted the last claim (R6.7). `None`
    /// when the deal did not end by a claim. (Of a deal in progress, ask
    /// [`crate::DealEntry::accepted_claim`]: there the last acceptance may not be the last
    /// answer.)
    #[must_use]
    pub fn of(actions: &[(Seat, Action)]) -> Option<AcceptedClaim> {
        let (_, Action::Answer(Answer::Accept)) = actions.last()? else {
            return None;
        };
        actions.iter().rev().find_map(|&(seat, a)| {
            let Action::Claim(claim) = a else { return None };
            Some(AcceptedClaim { seat, claim })
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bid::Call;

    fn game(tricks: Option<[u8; 4]>) -> Outcome {
        Outcome {
            dark: false,
            no_talon: false,
            players: 3,
            dealer: Seat(2),
            kind: OutcomeKind::Game {
                declarer: Seat(0),
                contract: "8H".parse().unwrap(),
                whist: [None, Some(WhistCall::Whist), Some(WhistCall::Pass), None],
                defence: Some(Defence::Closed),
                talon_units: None,
            },
            tricks,
        }
    }

    #[test]
    fn r8_2_undertricks_of_a_played_contract_only() {
        assert_eq!(game(Some([5, 4, 1, 0])).undertricks(), Some(3));
        assert_eq!(game(Some([5, 4, 1, 0])).made(), Some(false));
        assert_eq!(game(Some([9, 1, 0, 0])).undertricks(), Some(0));
        assert_eq!(game(Some([9, 1, 0, 0])).made(), Some(true));
        // R8.5: conceded without play.
        assert_eq!(game(None).undertricks(), None);
        assert_eq!(game(None).made(), Some(true));
        let misere = Outcome {
            kind: OutcomeKind::Misere { declarer: Seat(0) },
            ..game(Some([2, 4, 4, 0]))
        };
        assert_eq!(misere.undertricks(), None);
        assert_eq!(misere.made(), Some(false));
    }

    #[test]
    fn r6_7_the_accepted_claim_is_the_last_claim_before_the_last_acceptance() {
        let first = Claim::new(&[5, 0, 0]).unwrap();
        let second = Claim::new(&[4, 1, 0]).unwrap();
        let mut actions = vec![
            (Seat(0), Action::Bid(Call::Pass)),
            (Seat(0), Action::Claim(first)),
            (Seat(1), Action::Answer(Answer::Reject)),
            (Seat(0), Action::Claim(second)),
            (Seat(1), Action::Answer(Answer::Accept)),
        ];
        // One of two defenders accepted: the deal goes on, but the actions end like a
        // finished deal's, which is why `DealEntry::accepted_claim` asks for the outcome.
        assert_eq!(
            AcceptedClaim::of(&actions),
            Some(AcceptedClaim {
                seat: Seat(0),
                claim: second
            })
        );
        actions.push((Seat(0), Action::Play(Card::from_index(0))));
        assert_eq!(AcceptedClaim::of(&actions), None);
        assert_eq!(AcceptedClaim::of(&[]), None);
    }
}
