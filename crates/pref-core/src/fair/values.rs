//! The values a fair deal is made of and hashes: the schemes, the seed, the contributions,
//! the commitments and the table's tag, each written as 64 lowercase hex digits.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use sha2::{Digest as _, Sha256};

use crate::bid::Seat;

/// The first scheme's name: the first word of its hashed texts and the record's `scheme`
/// value. Its values bind no place.
pub const SCHEME_1: &str = "pref-fair/1";

/// The second scheme's name, the one the server deals under: its texts name the deal's
/// [`Place`] as well.
pub const SCHEME_2: &str = "pref-fair/2";

/// Writes 32 bytes as 64 lowercase hex digits.
fn hex(bytes: &[u8; 32]) -> String {
    bytes.iter().fold(String::with_capacity(64), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Reads exactly 64 lowercase hex digits; anything else (upper case, a prefix, another
/// length) is refused, so that one value has one spelling and one hash.
fn unhex(text: &str) -> Option<[u8; 32]> {
    let digits = text.as_bytes();
    if digits.len() != 64 {
        return None;
    }
    let nibble = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    let mut out = [0u8; 32];
    for (byte, pair) in out.iter_mut().zip(digits.chunks(2)) {
        *byte = nibble(pair[0])? << 4 | nibble(pair[1])?;
    }
    Some(out)
}

/// A text that is not 64 lowercase hex digits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not 64 lowercase hex digits")]
pub struct HexError(pub String);

macro_rules! hex_value {
    ($name:ident) => {
        impl $name {
            /// The value from its 32 bytes.
            #[must_use]
            pub const fn from_bytes(bytes: [u8; 32]) -> $name {
                $name(bytes)
            }

            /// The 32 bytes.
            #[must_use]
            pub const fn to_bytes(self) -> [u8; 32] {
                self.0
            }
        }

        impl fmt::Display for $name {
            /// The 64 lowercase hex digits that every hashed text and the record use.
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&hex(&self.0))
            }
        }

        impl FromStr for $name {
            type Err = HexError;

            /// Reads exactly 64 lowercase hex digits.
            fn from_str(s: &str) -> Result<$name, HexError> {
                unhex(s).map($name).ok_or_else(|| HexError(s.to_owned()))
            }
        }
    };
}

/// A SHA-256 value: a commitment.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Digest([u8; 32]);
hex_value!(Digest);

/// A table's name in `pref-fair/2`: SHA-256 of `pref-fair/2 table <id>\n`, `<id>` the
/// table's id as its link writes it. The id is the table's watch link, so records carry this
/// tag rather than the id; whoever knows the id recomputes the tag.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct TableTag([u8; 32]);
hex_value!(TableTag);

impl TableTag {
    /// The text whose SHA-256 is the tag of table `id`: `pref-fair/2 table <id>\n`.
    #[must_use]
    pub fn text(id: &str) -> String {
        format!("{SCHEME_2} table {id}\n")
    }

    /// The tag of the table whose id is `id`.
    #[must_use]
    pub fn of(id: &str) -> TableTag {
        TableTag(sha256(&TableTag::text(id)).0)
    }
}

/// Where a deal was dealt: its table and its number in that table's game (0-based, the
/// deal's index in the game record).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Place {
    /// The table's tag.
    pub table: TableTag,
    /// The deal's number.
    pub deal: u32,
}

/// The scheme a deal was dealt under.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Scheme {
    /// `pref-fair/1`: the values bind the deal's cards, not its place (older deals).
    V1,
    /// `pref-fair/2`: the seed commitment, the shuffle and the deck commitment name the
    /// deal's place too.
    V2(Place),
}

impl Scheme {
    /// The scheme's name, as texts and records write it.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Scheme::V1 => SCHEME_1,
            Scheme::V2(_) => SCHEME_2,
        }
    }

    /// The deal's place, under `pref-fair/2`.
    #[must_use]
    pub const fn place(&self) -> Option<Place> {
        match self {
            Scheme::V1 => None,
            Scheme::V2(place) => Some(*place),
        }
    }

    /// The first line of a text: the scheme, what is hashed, and under `pref-fair/2` the
    /// lines that name the place (`table <tag>`, `deal <n>`).
    pub(super) fn head(&self, what: &str) -> String {
        match self {
            Scheme::V1 => format!("{SCHEME_1} {what}\n"),
            Scheme::V2(p) => format!("{SCHEME_2} {what}\ntable {}\ndeal {}\n", p.table, p.deal),
        }
    }
}

/// The server's secret for one deal: 256 fresh random bits, drawn by the server (the core
/// has no randomness). It is hidden information until the deal's cards may all be seen:
/// its `Debug` form does not print it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Seed([u8; 32]);
hex_value!(Seed);

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(…)")
    }
}

/// A seated player's random value for one deal (the browser's `crypto.getRandomValues`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Contribution([u8; 32]);
hex_value!(Contribution);

pub(super) fn sha256(text: &str) -> Digest {
    Digest(Sha256::digest(text.as_bytes()).into())
}

impl Seed {
    /// The text whose SHA-256 is the seed's commitment: `pref-fair/1 seed <hex>\n`, or
    /// under `pref-fair/2` `pref-fair/2 seed <hex>\ntable <tag>\ndeal <n>\n`.
    #[must_use]
    pub fn commitment_text(&self, scheme: &Scheme) -> String {
        scheme.head(&format!("seed {self}"))
    }

    /// The commitment the server publishes when the deal opens, before any contribution:
    /// under `pref-fair/2` it fixes the deal's place before anything else of the deal exists.
    #[must_use]
    pub fn commitment(&self, scheme: &Scheme) -> Digest {
        sha256(&self.commitment_text(scheme))
    }
}

impl Contribution {
    /// The text whose SHA-256 is the contribution's commitment:
    /// `pref-fair/1 contribution <seat> <hex>\n`, under both schemes. A commitment is taken
    /// only inside its own deal's window, and the value it hides enters a shuffle that names
    /// the place (`pref-fair/2`), so it needs no place of its own; and a client commits the
    /// same way whatever the deal's scheme.
    #[must_use]
    pub fn commitment_text(&self, seat: Seat) -> String {
        format!("{SCHEME_1} contribution {} {self}\n", seat.0)
    }

    /// The commitment a player sends first; the value follows only once the server has
    /// published every seat's commitment, so that no value can be chosen after another is
    /// seen.
    #[must_use]
    pub fn commitment(&self, seat: Seat) -> Digest {
        sha256(&self.commitment_text(seat))
    }
}

/// Whether a contribution arrived before the deadline. The caller's clock decides; a late
/// one is kept in the record, marked, and left out of the deck.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Arrival {
    /// Before the deadline: it is part of the deck.
    InTime,
    /// After the deadline: recorded, not used.
    Late,
}

/// One seat's contribution to one deal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Contributed {
    /// The seat that sent it.
    pub seat: Seat,
    /// The value.
    pub value: Contribution,
    /// Whether it arrived in time.
    pub arrival: Arrival,
}
