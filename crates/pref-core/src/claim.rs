//! Claims (R6.7, `claims`): at a trick boundary a player of the deal proposes how the
//! remaining tricks fall; the other players of the deal answer one by one, clockwise from his
//! left. All accept: the deal ends with those tricks. A reject: play goes on.
//!
//! This file holds the claim's types ([`Claim`], [`Answer`], [`ClaimRoom`], [`ClaimView`])
//! and the state a deal keeps for claims, four bytes (`ClaimState`), so the whole deal
//! stays a small `Copy` value. The claim phase that checks and applies the two actions is
//! the deal's own: `deal/claim.rs`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::bid::Seat;

/// A claim: the number of remaining tricks for every seat, in seat order (R6.7). It holds
/// three or four entries, one per seat of the table; whether they fit the deal (their sum,
/// a four-player dealer's zero) is the rules' check, not the type's.
///
/// On the wire and in game records it is a list of numbers: `[4, 2, 0]`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Claim {
    pub(crate) tricks: [u8; 4],
    pub(crate) seats: u8,
}

impl Claim {
    /// A claim from one entry per seat; `None` unless there are 3 or 4 entries.
    #[must_use]
    pub fn new(entries: &[u8]) -> Option<Claim> {
        if !(3..=4).contains(&entries.len()) {
            return None;
        }
        let mut tricks = [0; 4];
        tricks[..entries.len()].copy_from_slice(entries);
        Some(Claim {
            tricks,
            seats: entries.len() as u8,
        })
    }

    /// The entries, index = seat.
    #[must_use]
    pub fn entries(&self) -> &[u8] {
        &self.tricks[..usize::from(self.seats)]
    }

    /// The entry of `seat` (0 for a seat the claim does not name).
    #[must_use]
    pub fn of(&self, seat: Seat) -> u8 {
        self.entries().get(seat.index()).copied().unwrap_or(0)
    }

    /// The sum of the entries.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.entries().iter().map(|&n| u32::from(n)).sum()
    }
}

impl fmt::Debug for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Claim{:?}", self.entries())
    }
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.entries())
    }
}

impl Serialize for Claim {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.entries().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Claim {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Claim, D::Error> {
        let entries = Vec::<u8>::deserialize(d)?;
        Claim::new(&entries)
            .ok_or_else(|| serde::de::Error::custom("a claim has one entry per seat, 3 or 4"))
    }
}

/// An answer to a pending claim (R6.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    /// Agree to end the deal with the claimed tricks.
    Accept,
    /// Refuse: the claim lapses and play goes on.
    Reject,
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Answer::Accept => "accept",
            Answer::Reject => "reject",
        })
    }
}

impl FromStr for Answer {
    type Err = String;
    fn from_str(s: &str) -> Result<Answer, String> {
        match s {
            "accept" => Ok(Answer::Accept),
            "reject" => Ok(Answer::Reject),
            other => Err(format!("unknown answer {other:?}")),
        }
    }
}

/// What a claim may be now, for a player who may make one: every split of the tricks left
/// over the seats, a four-player dealer's entry 0 (R6.7). Legal-action lists carry this
/// instead of listing the splits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClaimRoom {
    /// The tricks not yet played: the sum of the entries.
    pub tricks_left: u8,
    /// Entries in a claim: one per seat of the table.
    pub seats: u8,
    /// The four-player dealer, whose entry must be 0.
    pub dealer: Option<Seat>,
}

impl ClaimRoom {
    /// Whether `claim` is one of the splits allowed now.
    #[must_use]
    pub fn allows(&self, claim: &Claim) -> bool {
        claim.seats == self.seats
            && claim.total() == u32::from(self.tricks_left)
            && self.dealer.is_none_or(|d| claim.of(d) == 0)
    }
}

/// A deal's claim state in four bytes (the deal is a small `Copy` value that bots clone per
/// search node). A pending claim's entries are kept after its acceptance, for the view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ClaimState {
    /// The last claim's entries, four bits per seat.
    pub(crate) entries: u16,
    /// Bits 0–1 the claimer, 2–3 the next to answer, then [`ClaimState::PENDING`],
    /// [`ClaimState::ACCEPTED`] and [`ClaimState::ON`].
    pub(crate) flags: u8,
    /// Bits 0–3: the players who claimed at the trick boundary in bits 4–7 (the number of
    /// tricks completed there): one claim each per boundary.
    pub(crate) claimed: u8,
}

impl ClaimState {
    pub(crate) const PENDING: u8 = 16;
    pub(crate) const ACCEPTED: u8 = 32;
    pub(crate) const ON: u8 = 64;

    pub(crate) fn new(on: bool) -> ClaimState {
        ClaimState {
            entries: 0,
            flags: if on { ClaimState::ON } else { 0 },
            claimed: 0,
        }
    }

    pub(crate) fn has(self, bit: u8) -> bool {
        self.flags & bit != 0
    }

    pub(crate) fn claimer(self) -> Seat {
        Seat(self.flags & 3)
    }

    pub(crate) fn next(self) -> Seat {
        Seat((self.flags >> 2) & 3)
    }

    pub(crate) fn set_next(&mut self, seat: Seat) {
        self.flags = (self.flags & !12) | (seat.0 << 2);
    }

    pub(crate) fn claim(self, seats: u8) -> Claim {
        let mut tricks = [0; 4];
        for (i, t) in tricks.iter_mut().enumerate() {
            *t = ((self.entries >> (4 * i)) & 15) as u8;
        }
        Claim { tricks, seats }
    }

    /// The players who claimed at the boundary with `trick_no` tricks completed.
    pub(crate) fn claimed_at(self, trick_no: u8) -> u8 {
        if self.claimed >> 4 == trick_no {
            self.claimed & 15
        } else {
            0
        }
    }
}

/// A claim as everybody sees it: made, being answered, or accepted by all (R6.7).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClaimView {
    /// The claimer (a player's own seat).
    pub seat: Seat,
    /// The claimed remaining tricks per seat.
    pub claim: Claim,
    /// The players who accepted so far, in answering order.
    pub accepted: Vec<Seat>,
    /// The player who answers next; `None` once all accepted.
    pub to_answer: Option<Seat>,
}
