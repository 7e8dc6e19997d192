//! Seats, contracts and the bidding ladder (R1.2, R3.1).
//!
//! The ladder is one ordered list of 28 steps, 6♠ … 8NT, misère, 9♠ … 9NT, misère without
//! talon, nine without talon, 10♠ … 10NT (R3.1, R3.10), so "the next step", "not below the
//! winning bid" and "below misère" are comparisons of one byte. The two no-talon calls exist
//! only with `misere_without_talon`; without it the deal never lets them be called.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::Suit;

/// A seat at the table, numbered clockwise from 0 (R1.2).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's number as an index.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The next seat clockwise at a table of `players`.
    #[must_use]
    pub const fn next(self, players: u8) -> Seat {
        if self.0 + 1 >= players {
            Seat(0)
        } else {
            Seat(self.0 + 1)
        }
    }
}

impl fmt::Debug for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// What a contract is played in: a trump suit or no trumps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strain {
    /// ♠ trumps.
    Spades = 0,
    /// ♣ trumps.
    Clubs = 1,
    /// ♦ trumps.
    Diamonds = 2,
    /// ♥ trumps.
    Hearts = 3,
    /// No trumps.
    NoTrump = 4,
}

impl Strain {
    /// Every strain in ladder order (R3.1): ♠ ♣ ♦ ♥ NT.
    pub const ALL: [Strain; 5] = [
        Strain::Spades,
        Strain::Clubs,
        Strain::Diamonds,
        Strain::Hearts,
        Strain::NoTrump,
    ];

    /// The trump suit, `None` for no trumps.
    #[must_use]
    pub const fn trump(self) -> Option<Suit> {
        match self {
            Strain::Spades => Some(Suit::Spades),
            Strain::Clubs => Some(Suit::Clubs),
            Strain::Diamonds => Some(Suit::Diamonds),
            Strain::Hearts => Some(Suit::Hearts),
            Strain::NoTrump => None,
        }
    }

    const fn from_index(i: u8) -> Strain {
        match i {
            0 => Strain::Spades,
            1 => Strain::Clubs,
            2 => Strain::Diamonds,
            3 => Strain::Hearts,
            _ => Strain::NoTrump,
        }
    }
}

/// A trick contract: a level from 6 to 10 and a strain.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Contract {
    level: u8,
    strain: Strain,
}

impl Contract {
    /// The contract `level` in `strain`, or `None` if the level is not 6..=10.
    #[must_use]
    pub const fn new(level: u8, strain: Strain) -> Option<Contract> {
        if level >= 6 && level <= 10 {
            Some(Contract { level, strain })
        } else {
            None
        }
    }

    /// Tricks the declarer undertakes to take (6..=10).
    #[must_use]
    pub const fn level(self) -> u8 {
        self.level
    }

    /// Trump suit or no trumps.
    #[must_use]
    pub const fn strain(self) -> Strain {
        self.strain
    }

    /// The contract value `v` of R8: 6→2, 7→4, 8→6, 9→8, 10→10.
    #[must_use]
    pub const fn value(self) -> u32 {
        (self.level as u32 - 5) * 2
    }

    /// The defence quota `q` of R8: 6→4, 7→2, 8→1, 9→1, 10→1.
    #[must_use]
    pub const fn quota(self) -> u32 {
        match self.level {
            6 => 4,
            7 => 2,
            _ => 1,
        }
    }

    /// This contract as a step of the bidding ladder.
    #[must_use]
    pub const fn bid(self) -> Bid {
        let i = (self.level - 6) * 5 + self.strain as u8;
        Bid(match self.level {
            10 => i + 3,
            9 => i + 1,
            _ => i,
        })
    }

    /// A value that prints the contract with a suit symbol: `7♥`, `6NT`.
    #[must_use]
    pub const fn pretty(self) -> PrettyContract {
        PrettyContract(self)
    }
}

/// Prints a contract for players: `7♥`.
#[derive(Clone, Copy, Debug)]
pub struct PrettyContract(Contract);

impl fmt::Display for PrettyContract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.strain.trump() {
            Some(s) => write!(f, "{}{}", self.0.level, s.symbol()),
            None => write!(f, "{}NT", self.0.level),
        }
    }
}

/// The record form: `7H`, `6NT`.
impl fmt::Display for Contract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.strain.trump() {
            Some(s) => write!(f, "{}{}", self.level, s.letter()),
            None => write!(f, "{}NT", self.level),
        }
    }
}

impl fmt::Debug for Contract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A contract, bid or call that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown bid {0:?}")]
pub struct ParseBidError(pub String);

impl FromStr for Contract {
    type Err = ParseBidError;

    /// Reads `7H`, `7♥`, `6NT`, `10nt`.
    fn from_str(s: &str) -> Result<Contract, ParseBidError> {
        let err = || ParseBidError(s.to_owned());
        let t = s.trim();
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        let level: u8 = t[..digits].parse().map_err(|_| err())?;
        let rest = &t[digits..];
        let strain = if rest.eq_ignore_ascii_case("NT") || rest.eq_ignore_ascii_case("BK") {
            Strain::NoTrump
        } else {
            let mut chars = rest.chars();
            let suit = chars.next().and_then(Suit::from_char).ok_or_else(err)?;
            if chars.next().is_some() {
                return Err(err());
            }
            Strain::from_index(suit as u8)
        };
        Contract::new(level, strain).ok_or_else(err)
    }
}

/// A step of the bidding ladder (R3.1), misère and the two no-talon calls (R3.10) included.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bid(u8);

impl Bid {
    /// The lowest bid, 6♠.
    pub const LOWEST: Bid = Bid(0);
    /// Misère, between 8NT and 9♠.
    pub const MISERE: Bid = Bid(15);
    /// Misère without talon (MWT, R3.10.1), between 9NT and nine without talon.
    pub const MISERE_NO_TALON: Bid = Bid(21);
    /// Nine without talon (9WT, R3.10.2), between MWT and 10♠.
    pub const NINE_NO_TALON: Bid = Bid(22);
    /// The highest bid, 10NT.
    pub const HIGHEST: Bid = Bid(27);
    /// How many steps the ladder has.
    pub const COUNT: usize = 28;

    /// The ladder position, 0 (6♠) to 27 (10NT).
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Whether this is misère.
    #[must_use]
    pub const fn is_misere(self) -> bool {
        self.0 == Bid::MISERE.0
    }

    /// Whether this is misère without talon (R3.10.1).
    #[must_use]
    pub const fn is_misere_no_talon(self) -> bool {
        self.0 == Bid::MISERE_NO_TALON.0
    }

    /// Whether this is nine without talon (R3.10.2).
    #[must_use]
    pub const fn is_nine_no_talon(self) -> bool {
        self.0 == Bid::NINE_NO_TALON.0
    }

    /// Whether winning with this bid leaves the talon untaken (R4.6): MWT or 9WT.
    #[must_use]
    pub const fn is_no_talon(self) -> bool {
        self.is_misere_no_talon() || self.is_nine_no_talon()
    }

    /// Whether winning with this bid makes a misère: misère or MWT (R6.5, R8.8, R8.12).
    #[must_use]
    pub const fn is_any_misere(self) -> bool {
        self.is_misere() || self.is_misere_no_talon()
    }

    /// The trick contract of this step, `None` for misère, MWT and 9WT (9WT names its nine
    /// after the auction, R4.6).
    #[must_use]
    pub const fn contract(self) -> Option<Contract> {
        if self.is_misere() || self.is_no_talon() {
            return None;
        }
        let i = if self.0 > Bid::NINE_NO_TALON.0 {
            self.0 - 3
        } else if self.0 > Bid::MISERE.0 {
            self.0 - 1
        } else {
            self.0
        };
        Some(Contract {
            level: 6 + i / 5,
            strain: Strain::from_index(i % 5),
        })
    }

    /// The next trick-contract step up; misère is not a step (R3.6), so after 8NT comes 9♠,
    /// and neither are MWT and 9WT (R3.10), so after 9NT, MWT and 9WT comes 10♠.
    #[must_use]
    pub const fn next_step(self) -> Option<Bid> {
        match self.0 {
            14 => Some(Bid(16)),
            20..=22 => Some(Bid(23)),
            27 => None,
            i => Some(Bid(i + 1)),
        }
    }

    /// The lowest trick-contract bid at `level` (its ♠ step).
    #[must_use]
    pub const fn lowest_of_level(level: u8) -> Bid {
        match Contract::new(level, Strain::Spades) {
            Some(c) => c.bid(),
            None => Bid::LOWEST,
        }
    }

    /// A value that prints the bid for players: `7♥`, `misère`.
    #[must_use]
    pub const fn pretty(self) -> PrettyBid {
        PrettyBid(self)
    }
}

/// Prints a bid for players.
#[derive(Clone, Copy, Debug)]
pub struct PrettyBid(Bid);

impl fmt::Display for PrettyBid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.contract() {
            Some(c) => write!(f, "{}", c.pretty()),
            None if self.0.is_misere_no_talon() => f.write_str("misère without talon"),
            None if self.0.is_nine_no_talon() => f.write_str("nine without talon"),
            None => f.write_str("misère"),
        }
    }
}

/// The record form: `7H`, `misere`, `misere_no_talon`, `nine_no_talon`.
impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.contract() {
            Some(c) => write!(f, "{c}"),
            None if self.is_misere_no_talon() => f.write_str("misere_no_talon"),
            None if self.is_nine_no_talon() => f.write_str("nine_no_talon"),
            None => f.write_str("misere"),
        }
    }
}

impl fmt::Debug for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Bid {
    type Err = ParseBidError;

    /// Reads a contract (`7H`) or `misere` / `misère`.
    fn from_str(s: &str) -> Result<Bid, ParseBidError> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("misere") || t == "misère" || t == "Misère" {
            return Ok(Bid::MISERE);
        }
        if t.eq_ignore_ascii_case("misere_no_talon") {
            return Ok(Bid::MISERE_NO_TALON);
        }
        if t.eq_ignore_ascii_case("nine_no_talon") {
            return Ok(Bid::NINE_NO_TALON);
        }
        t.parse::<Contract>().map(Contract::bid)
    }
}

/// A call in the auction: a pass or a bid (repeating the standing bid is *here*, R3.4).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Call {
    /// Leave the auction (R3.5).
    Pass,
    /// A bid: the next step, *here*, or misère.
    Bid(Bid),
}

impl Call {
    /// Whether this call, made over the `standing` bid, is *here*: that bid said again (R3.4).
    /// A legal bid is never below the standing bid, so the standing bid is the auction's last.
    #[must_use]
    pub fn is_here(self, standing: Option<Bid>) -> bool {
        matches!(self, Call::Bid(b) if standing == Some(b))
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Call::Pass => f.write_str("pass"),
            Call::Bid(b) => write!(f, "{b}"),
        }
    }
}

impl fmt::Debug for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Call {
    type Err = ParseBidError;
    fn from_str(s: &str) -> Result<Call, ParseBidError> {
        if s.trim().eq_ignore_ascii_case("pass") {
            Ok(Call::Pass)
        } else {
            s.parse().map(Call::Bid)
        }
    }
}

macro_rules! serde_via_str {
    ($($t:ty),*) => {$(
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    )*};
}
serde_via_str!(Contract, Bid, Call);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r3_1_ladder_order() {
        let names: Vec<String> = (0..28).map(|i| Bid(i).to_string()).collect();
        assert_eq!(names[0], "6S");
        assert_eq!(names[4], "6NT");
        assert_eq!(names[5], "7S");
        assert_eq!(names[14], "8NT");
        assert_eq!(names[15], "misere");
        assert_eq!(names[16], "9S");
        assert_eq!(names[20], "9NT");
        assert_eq!(names[21], "misere_no_talon");
        assert_eq!(names[22], "nine_no_talon");
        assert_eq!(names[23], "10S");
        assert_eq!(names[27], "10NT");
        for (i, n) in names.iter().enumerate() {
            assert_eq!(n.parse::<Bid>().unwrap().index() as usize, i);
        }
        assert_eq!("6♥".parse::<Bid>().unwrap().to_string(), "6H");
        assert_eq!("misère".parse::<Bid>(), Ok(Bid::MISERE));
        assert!("5S".parse::<Bid>().is_err());
        assert!("11NT".parse::<Bid>().is_err());
        assert!("6X".parse::<Bid>().is_err());
        assert!("6SS".parse::<Bid>().is_err());
    }

    #[test]
    fn r3_6_next_step_skips_misere() {
        assert_eq!(
            "8NT".parse::<Bid>().unwrap().next_step(),
            Some("9S".parse().unwrap())
        );
        assert_eq!(Bid::MISERE.next_step(), Some("9S".parse().unwrap()));
        assert_eq!(Bid::HIGHEST.next_step(), None);
        // R3.10: MWT and 9WT are not steps; after 9NT, MWT and 9WT comes 10♠.
        let ten = Some("10S".parse().unwrap());
        assert_eq!("9NT".parse::<Bid>().unwrap().next_step(), ten);
        assert_eq!(Bid::MISERE_NO_TALON.next_step(), ten);
        assert_eq!(Bid::NINE_NO_TALON.next_step(), ten);
        assert_eq!(Bid::lowest_of_level(8), "8S".parse().unwrap());
    }

    #[test]
    fn r8_values_and_quotas() {
        let v: Vec<(u32, u32)> = (6..=10)
            .map(|l| {
                let c = Contract::new(l, Strain::Hearts).unwrap();
                (c.value(), c.quota())
            })
            .collect();
        assert_eq!(v, vec![(2, 4), (4, 2), (6, 1), (8, 1), (10, 1)]);
    }
}
