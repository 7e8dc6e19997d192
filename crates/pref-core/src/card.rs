//! Cards, suits, ranks and the 32-bit card set that holds a hand.
//!
//! A card is one byte (`suit * 8 + rank`), so a set of cards is a `u32` bit mask and every
//! question the rules ask of a hand ("does he hold a diamond?", "which cards beat the
//! trick?") is a mask operation.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A suit, in the order of the bidding ladder (R3.1): ♠ ♣ ♦ ♥.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// ♠, the lowest suit of the ladder.
    Spades = 0,
    /// ♣.
    Clubs = 1,
    /// ♦.
    Diamonds = 2,
    /// ♥, the highest suit of the ladder.
    Hearts = 3,
}

impl Suit {
    /// All four suits in ladder order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Clubs, Suit::Diamonds, Suit::Hearts];

    /// The suit with this index (0..4).
    ///
    /// # Panics
    /// Panics if `i >= 4`.
    #[must_use]
    pub const fn from_index(i: u8) -> Suit {
        match i {
            0 => Suit::Spades,
            1 => Suit::Clubs,
            2 => Suit::Diamonds,
            3 => Suit::Hearts,
            _ => panic!("suit index out of range"),
        }
    }

    /// The letter used in game records: `S`, `C`, `D`, `H`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Suit::Spades => 'S',
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
        }
    }

    /// The symbol players read: `♠`, `♣`, `♦`, `♥`.
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            Suit::Spades => '♠',
            Suit::Clubs => '♣',
            Suit::Diamonds => '♦',
            Suit::Hearts => '♥',
        }
    }

    /// Reads a suit from its letter or symbol (either case for letters).
    #[must_use]
    pub fn from_char(c: char) -> Option<Suit> {
        match c {
            'S' | 's' | '♠' | '♤' => Some(Suit::Spades),
            'C' | 'c' | '♣' | '♧' => Some(Suit::Clubs),
            'D' | 'd' | '♦' | '♢' => Some(Suit::Diamonds),
            'H' | 'h' | '♥' | '♡' => Some(Suit::Hearts),
            _ => None,
        }
    }

    /// The eight cards of this suit as a set.
    #[must_use]
    pub const fn cards(self) -> CardSet {
        CardSet(0xFF << (self as u32 * 8))
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

/// A rank, lowest first: 7 8 9 10 J Q K A (R1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    /// 7, the lowest rank.
    Seven = 0,
    /// 8.
    Eight = 1,
    /// 9.
    Nine = 2,
    /// 10 (`T` in records).
    Ten = 3,
    /// Jack.
    Jack = 4,
    /// Queen.
    Queen = 5,
    /// King.
    King = 6,
    /// Ace, the highest rank.
    Ace = 7,
}

impl Rank {
    /// All ranks from low to high.
    pub const ALL: [Rank; 8] = [
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank with this index (0 = seven … 7 = ace).
    ///
    /// # Panics
    /// Panics if `i >= 8`.
    #[must_use]
    pub const fn from_index(i: u8) -> Rank {
        match i {
            0 => Rank::Seven,
            1 => Rank::Eight,
            2 => Rank::Nine,
            3 => Rank::Ten,
            4 => Rank::Jack,
            5 => Rank::Queen,
            6 => Rank::King,
            7 => Rank::Ace,
            _ => panic!("rank index out of range"),
        }
    }

    /// The record form: `7 8 9 T J Q K A`.
    #[must_use]
    pub const fn record_str(self) -> &'static str {
        match self {
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "T",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
            Rank::Ace => "A",
        }
    }

    /// The form players read: `7 8 9 10 J Q K A`.
    #[must_use]
    pub const fn display_str(self) -> &'static str {
        match self {
            Rank::Ten => "10",
            other => other.record_str(),
        }
    }

    fn parse(s: &str) -> Option<Rank> {
        Some(match s {
            "7" => Rank::Seven,
            "8" => Rank::Eight,
            "9" => Rank::Nine,
            "T" | "t" | "10" => Rank::Ten,
            "J" | "j" => Rank::Jack,
            "Q" | "q" => Rank::Queen,
            "K" | "k" => Rank::King,
            "A" | "a" => Rank::Ace,
            _ => return None,
        })
    }
}

/// One of the 32 cards: `suit * 8 + rank`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The card of this suit and rank.
    #[must_use]
    pub const fn new(suit: Suit, rank: Rank) -> Card {
        Card(suit as u8 * 8 + rank as u8)
    }

    /// The card with this index (0..32).
    ///
    /// # Panics
    /// Panics if `i >= 32`.
    #[must_use]
    pub const fn from_index(i: u8) -> Card {
        assert!(i < 32, "card index out of range");
        Card(i)
    }

    /// This card's index, 0..32.
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The card's suit.
    #[must_use]
    pub const fn suit(self) -> Suit {
        Suit::from_index(self.0 >> 3)
    }

    /// The card's rank.
    #[must_use]
    pub const fn rank(self) -> Rank {
        Rank::from_index(self.0 & 7)
    }

    /// The set holding just this card.
    #[must_use]
    pub const fn bit(self) -> CardSet {
        CardSet(1 << self.0)
    }

    /// A value that prints the card as players read it: `♥10`.
    #[must_use]
    pub const fn pretty(self) -> PrettyCard {
        PrettyCard(self)
    }
}

/// Prints a card with its suit symbol first (`♥10`), for messages to players.
#[derive(Clone, Copy, Debug)]
pub struct PrettyCard(Card);

impl fmt::Display for PrettyCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            self.0.suit().symbol(),
            self.0.rank().display_str()
        )
    }
}

/// The record form, rank then suit letter: `TH`.
impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().record_str(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A card that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown card {0:?}")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    /// Reads `TH`, `10H`, `th`, `♥10`, `♥T` or `10♥`.
    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let err = || ParseCardError(s.to_owned());
        let t = s.trim();
        let first = t.chars().next().ok_or_else(err)?;
        let last = t.chars().next_back().ok_or_else(err)?;
        // Suit first (♥10) or suit last (10H); a leading letter is a rank unless it is a
        // symbol, so "TH" is never read as suit T.
        let (suit, rank) = if !first.is_ascii() {
            (Suit::from_char(first), &t[first.len_utf8()..])
        } else {
            (Suit::from_char(last), &t[..t.len() - last.len_utf8()])
        };
        let suit = suit.ok_or_else(err)?;
        let rank = Rank::parse(rank).ok_or_else(err)?;
        Ok(Card::new(suit, rank))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A set of cards as a 32-bit mask: bit `i` is the card with index `i`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u32);

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);
    /// The whole 32-card deck.
    pub const FULL: CardSet = CardSet(u32::MAX);

    /// Whether the set holds `card`.
    #[must_use]
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.0) != 0
    }

    /// The number of cards.
    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// This set with `card` added.
    #[must_use]
    pub const fn with(self, card: Card) -> CardSet {
        CardSet(self.0 | (1 << card.0))
    }

    /// This set without `card`.
    #[must_use]
    pub const fn without(self, card: Card) -> CardSet {
        CardSet(self.0 & !(1 << card.0))
    }

    /// Cards in both sets.
    #[must_use]
    pub const fn and(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// Cards in either set.
    #[must_use]
    pub const fn or(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// Cards of this set not in `other`.
    #[must_use]
    pub const fn minus(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// The cards of one suit.
    #[must_use]
    pub const fn of_suit(self, suit: Suit) -> CardSet {
        self.and(suit.cards())
    }

    /// The lowest card, if any.
    #[must_use]
    pub const fn first(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest card (by index: in one suit, the highest rank), if any.
    #[must_use]
    pub const fn last(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card(31 - self.0.leading_zeros() as u8))
        }
    }

    /// The cards in index order (♠7 first, ♥A last).
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }

    /// Builds a set from cards, reporting the first card given twice.
    ///
    /// # Errors
    /// Returns the repeated card.
    pub fn try_from_cards(cards: &[Card]) -> Result<CardSet, Card> {
        let mut set = CardSet::EMPTY;
        for &c in cards {
            if set.contains(c) {
                return Err(c);
            }
            set = set.with(c);
        }
        Ok(set)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        iter.into_iter().fold(CardSet::EMPTY, CardSet::with)
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

/// Iterates over a [`CardSet`] in index order.
#[derive(Clone, Debug)]
pub struct CardSetIter(u32);

impl Iterator for CardSetIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Card(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for c in self.iter() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{}", c.pretty())?;
        }
        Ok(())
    }
}

impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CardSet, D::Error> {
        let cards = Vec::<Card>::deserialize(d)?;
        CardSet::try_from_cards(&cards)
            .map_err(|c| serde::de::Error::custom(format!("card {c} given twice")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r1_1_thirty_two_distinct_cards_round_trip() {
        let mut seen = CardSet::EMPTY;
        for i in 0..32 {
            let c = Card::from_index(i);
            assert_eq!(Card::new(c.suit(), c.rank()), c);
            assert_eq!(c.to_string().parse::<Card>(), Ok(c));
            assert_eq!(c.pretty().to_string().parse::<Card>(), Ok(c));
            seen = seen.with(c);
        }
        assert_eq!(seen, CardSet::FULL);
    }

    #[test]
    fn parses_every_spelling() {
        let ten_hearts = Card::new(Suit::Hearts, Rank::Ten);
        for s in ["TH", "10H", "th", "♥10", "♥T", "10♥", " TH "] {
            assert_eq!(s.parse::<Card>(), Ok(ten_hearts), "{s}");
        }
        assert_eq!(ten_hearts.to_string(), "TH");
        assert_eq!(ten_hearts.pretty().to_string(), "♥10");
        for bad in ["", "H", "1H", "11H", "TX", "♥", "AH ♥", "XX"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
    }

    #[test]
    fn set_operations() {
        let a: CardSet = ["AH", "7S", "TD"]
            .iter()
            .map(|s| s.parse::<Card>().unwrap())
            .collect();
        assert_eq!(a.len(), 3);
        assert_eq!(a.of_suit(Suit::Hearts).len(), 1);
        assert_eq!(a.first(), Some("7S".parse().unwrap()));
        assert_eq!(a.to_string(), "♠7 ♦10 ♥A");
        let dup = ["AH".parse().unwrap(), "AH".parse().unwrap()];
        assert!(CardSet::try_from_cards(&dup).is_err());
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json, r#"["7S","TD","AH"]"#);
        assert_eq!(serde_json::from_str::<CardSet>(&json).unwrap(), a);
    }
}
