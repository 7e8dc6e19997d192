//! Provably fair deals, schemes `pref-fair/1` and `pref-fair/2` (`docs/fairness.md`): a deck
//! that neither the server nor any player can choose alone, and that anyone can recompute
//! afterwards. Under `pref-fair/2` (the server's scheme now) every value also names the deal's
//! [`Place`], its table and its number in the game, so that a deal cannot be moved to another
//! place of its record, or into another game's, and still verify.
//!
//! The server draws a secret [`Seed`] for each deal and publishes its commitment
//! ([`Seed::commitment`]) before it asks for anything; each seated player then commits to a
//! random [`Contribution`] ([`Contribution::commitment`]) and, once every commitment is in,
//! reveals it. The deck is a Fisher–Yates shuffle driven by SHA-256 in counter mode over the
//! seed and every contribution that arrived in time ([`shuffle`]); its commitment
//! ([`deck_commitment`]) is published before the first card is dealt. After the deal the
//! seed, the contributions and the deck are revealed as a [`Fairness`], which the game record
//! keeps.
//!
//! Everything hashed is ASCII text, one `\n`-terminated line per item, so that a person can
//! recompute any value with `printf … | sha256sum` and a browser with Web Crypto's
//! `SHA-256` alone. This module only computes: the random bytes, the clock that decides
//! lateness and the publishing all belong to the caller.
//!
//! ```
//! use pref_core::Seat;
//! use pref_core::fair::{Arrival, Contribution, Place, Scheme, Seed, Shuffle, TableTag};
//!
//! let place = Place { table: TableTag::of("0123456789abcdef0123456789abcdef"), deal: 0 };
//! let mut shuffle = Shuffle::new(Scheme::V2(place), Seed::from_bytes([7; 32]));
//! let published = shuffle.seed_commitment(); // sent to every viewer first
//! shuffle.contribute(Seat(0), Contribution::from_bytes([1; 32]), Arrival::InTime).unwrap();
//! shuffle.contribute(Seat(2), Contribution::from_bytes([2; 32]), Arrival::Late).unwrap();
//! let fairness = shuffle.finish();
//! assert_eq!(fairness.seed_commitment(), published);
//! // Game::start_deal(fairness.deck()) deals it; fairness.deck_commitment() is published
//! // before that, the rest only once the deal's cards may be seen.
//! assert_eq!(fairness.in_deck().count(), 1);
//! ```

use std::fmt::{self, Write as _};
use std::str::FromStr;

use sha2::{Digest as _, Sha256};

use crate::bid::Seat;
use crate::card::Card;

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
    fn head(&self, what: &str) -> String {
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

fn sha256(text: &str) -> Digest {
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

/// Why fairness data does not hold together, or a contribution cannot be taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FairError {
    /// A seat contributes twice to one deal.
    #[error("seat {0} contributes twice")]
    RepeatedSeat(u8),
    /// Contributions are listed by seat, lowest first.
    #[error("contributions are listed by seat, lowest first")]
    SeatOrder,
    /// The revealed seed is not the one committed to.
    #[error("the server seed does not match its commitment")]
    SeedCommitment,
    /// The deck is not the shuffle of the seed and the contributions in time.
    #[error("the deck is not the shuffle of the server seed and the contributions")]
    Deck,
    /// The deck does not match its commitment.
    #[error("the deck does not match its commitment")]
    DeckCommitment,
    /// A hand is not the one the deck deals to that seat.
    #[error("seat {0}'s hand is not the one the deck deals")]
    Hand(u8),
    /// The talon is not the deck's last two cards.
    #[error("the talon is not the deck's last two cards")]
    Talon,
    /// Fairness data for a deal scored from its outcome, which has no cards.
    #[error("only a deal played card by card has a deck")]
    NotPlayed,
    /// Fairness data for a deal the record does not have.
    #[error("the record has no such deal")]
    NoSuchDeal,
    /// `pref-fair/2` data dealt as another deal of its game than the one it is attached to.
    #[error("its fairness data was dealt as deal {dealt}, not as this deal: deals were moved")]
    DealMoved {
        /// The deal number its values were made for.
        dealt: u32,
    },
    /// `pref-fair/2` data of another table than an earlier deal's of the same record.
    #[error(
        "its fairness data was dealt at another table than deal {first}'s: a deal of another game"
    )]
    OtherTable {
        /// The earlier deal whose table differs.
        first: usize,
    },
    /// `pref-fair/1` data after a deal dealt under `pref-fair/2`: a server that deals under
    /// the second scheme never goes back.
    #[error("a pref-fair/1 deal after deal {first}, which is pref-fair/2")]
    Downgrade {
        /// The earlier `pref-fair/2` deal.
        first: usize,
    },
}

/// The text that keys the shuffle's stream: the scheme (under `pref-fair/2` with the
/// deal's place), the server seed, and each contribution that arrived in time, by seat:
///
/// ```text
/// pref-fair/2 shuffle
/// table <tag>
/// deal 3
/// server <hex>
/// seat 0 <hex>
/// seat 2 <hex>
/// ```
///
/// (`pref-fair/1` has no `table` and `deal` lines.)
#[must_use]
pub fn shuffle_text(scheme: &Scheme, seed: &Seed, contributions: &[Contributed]) -> String {
    let mut text = scheme.head("shuffle");
    let _ = writeln!(text, "server {seed}");
    for c in contributions
        .iter()
        .filter(|c| c.arrival == Arrival::InTime)
    {
        let _ = writeln!(text, "seat {} {}", c.seat.0, c.value);
    }
    text
}

/// The shuffle's byte stream: block `k` (from 0) is SHA-256 of the shuffle text followed by
/// `block <k>\n`, and the blocks follow each other.
struct Stream {
    text: String,
    block: u64,
    bytes: [u8; 32],
    used: usize,
}

impl Stream {
    fn new(text: String) -> Stream {
        Stream {
            text,
            block: 0,
            bytes: [0; 32],
            used: 32,
        }
    }

    /// The next four bytes, big-endian. 32 is a multiple of 4, so a word never straddles
    /// two blocks.
    fn word(&mut self) -> u32 {
        if self.used == 32 {
            self.bytes = sha256(&format!("{}block {}\n", self.text, self.block)).0;
            self.block += 1;
            self.used = 0;
        }
        let w = &self.bytes[self.used..self.used + 4];
        self.used += 4;
        u32::from_be_bytes([w[0], w[1], w[2], w[3]])
    }

    /// A uniform number in `0..n`: a word taken modulo `n`, skipping any word at or above
    /// 2³² − (2³² mod `n`), the largest multiple of `n` that words reach, so that no remainder
    /// is favoured.
    fn below(&mut self, n: u32) -> u32 {
        // The last word kept: 2³² − 1 − (2³² mod n), without leaving u32.
        let limit = u32::MAX - (u32::MAX % n + 1) % n;
        loop {
            let w = self.word();
            if w <= limit {
                return w % n;
            }
        }
    }
}

/// The deck of a deal: the 32 cards in index order (♠ ♣ ♦ ♥, each 7 to ace), shuffled by
/// Fisher–Yates from the top: for `i` from 31 down to 1, swap card `i` with card `j`, `j`
/// uniform in `0..=i` from the stream of [`shuffle_text`]. Late contributions are left out.
#[must_use]
pub fn shuffle(scheme: &Scheme, seed: &Seed, contributions: &[Contributed]) -> [Card; 32] {
    let mut deck: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    let mut stream = Stream::new(shuffle_text(scheme, seed, contributions));
    for i in (1..32usize).rev() {
        let j = stream.below(i as u32 + 1) as usize;
        deck.swap(i, j);
    }
    deck
}

/// The text whose SHA-256 is the deck's commitment: the cards in deck order (under
/// `pref-fair/2` then the place), then the server seed as the secret that hides them:
///
/// ```text
/// pref-fair/2 deck 9H KC … 7D
/// table <tag>
/// deal 3
/// secret <hex>
/// ```
#[must_use]
pub fn deck_commitment_text(scheme: &Scheme, deck: &[Card; 32], seed: &Seed) -> String {
    let cards: Vec<String> = deck.iter().map(Card::to_string).collect();
    let mut text = scheme.head(&format!("deck {}", cards.join(" ")));
    let _ = writeln!(text, "secret {seed}");
    text
}

/// The commitment to the deck, published before the first card is dealt.
#[must_use]
pub fn deck_commitment(scheme: &Scheme, deck: &[Card; 32], seed: &Seed) -> Digest {
    sha256(&deck_commitment_text(scheme, deck, seed))
}

/// Checks that contributions name each seat once, lowest seat first.
fn check_seats(contributions: &[Contributed]) -> Result<(), FairError> {
    for pair in contributions.windows(2) {
        match pair[0].seat.0.cmp(&pair[1].seat.0) {
            std::cmp::Ordering::Less => {}
            std::cmp::Ordering::Equal => return Err(FairError::RepeatedSeat(pair[1].seat.0)),
            std::cmp::Ordering::Greater => return Err(FairError::SeatOrder),
        }
    }
    Ok(())
}

/// A deal's shuffle while the server collects contributions: the seed is fixed, the deck is
/// not yet.
#[derive(Clone, Debug)]
pub struct Shuffle {
    scheme: Scheme,
    seed: Seed,
    contributions: Vec<Contributed>,
}

impl Shuffle {
    /// Opens a deal's shuffle under `scheme` (the server's: `pref-fair/2` at the deal's
    /// place) on the server's fresh seed.
    #[must_use]
    pub fn new(scheme: Scheme, seed: Seed) -> Shuffle {
        Shuffle {
            scheme,
            seed,
            contributions: Vec::new(),
        }
    }

    /// The seed's commitment, to publish before asking for contributions.
    #[must_use]
    pub fn seed_commitment(&self) -> Digest {
        self.seed.commitment(&self.scheme)
    }

    /// Takes a seat's revealed contribution (the caller has checked it against the seat's
    /// commitment and decided whether it came in time).
    ///
    /// # Errors
    /// [`FairError::RepeatedSeat`] if the seat has contributed already; nothing changes.
    pub fn contribute(
        &mut self,
        seat: Seat,
        value: Contribution,
        arrival: Arrival,
    ) -> Result<(), FairError> {
        match self
            .contributions
            .binary_search_by_key(&seat.0, |c| c.seat.0)
        {
            Ok(_) => Err(FairError::RepeatedSeat(seat.0)),
            Err(at) => {
                let c = Contributed {
                    seat,
                    value,
                    arrival,
                };
                self.contributions.insert(at, c);
                Ok(())
            }
        }
    }

    /// Closes the contributions and shuffles: the deal's whole fairness data.
    #[must_use]
    pub fn finish(self) -> Fairness {
        let deck = shuffle(&self.scheme, &self.seed, &self.contributions);
        Fairness {
            scheme: self.scheme,
            seed_commitment: self.seed.commitment(&self.scheme),
            deck_commitment: deck_commitment(&self.scheme, &deck, &self.seed),
            server_seed: self.seed,
            contributions: self.contributions,
            deck,
        }
    }
}

/// Everything needed to recompute and check one deal's deck: what was published before the
/// deal (the two commitments) and what is revealed after it (the seed, the contributions
/// and the deck). A value of this type always holds together: it is made by
/// [`Shuffle::finish`] or checked by [`Fairness::new`]. It is hidden information until the
/// deal's cards may all be seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fairness {
    scheme: Scheme,
    seed_commitment: Digest,
    deck_commitment: Digest,
    server_seed: Seed,
    contributions: Vec<Contributed>,
    deck: [Card; 32],
}

impl Fairness {
    /// Checks revealed values against each other, in this order: the seats of the
    /// contributions, the seed against its commitment, the deck against the shuffle of the
    /// seed and the contributions in time, the deck against its commitment.
    ///
    /// # Errors
    /// The first [`FairError`] found.
    pub fn new(
        scheme: Scheme,
        seed_commitment: Digest,
        deck_commitment: Digest,
        server_seed: Seed,
        contributions: Vec<Contributed>,
        deck: [Card; 32],
    ) -> Result<Fairness, FairError> {
        check_seats(&contributions)?;
        if server_seed.commitment(&scheme) != seed_commitment {
            return Err(FairError::SeedCommitment);
        }
        if shuffle(&scheme, &server_seed, &contributions) != deck {
            return Err(FairError::Deck);
        }
        if crate::fair::deck_commitment(&scheme, &deck, &server_seed) != deck_commitment {
            return Err(FairError::DeckCommitment);
        }
        Ok(Fairness {
            scheme,
            seed_commitment,
            deck_commitment,
            server_seed,
            contributions,
            deck,
        })
    }

    /// The scheme the deal was dealt under, with its place under `pref-fair/2`.
    #[must_use]
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The same values with a late contribution added (it changes no commitment and not
    /// the deck).
    ///
    /// # Errors
    /// [`FairError::RepeatedSeat`] if the seat has contributed already.
    pub fn with_late(&self, seat: Seat, value: Contribution) -> Result<Fairness, FairError> {
        let mut contributions = self.contributions.clone();
        match contributions.binary_search_by_key(&seat.0, |c| c.seat.0) {
            Ok(_) => Err(FairError::RepeatedSeat(seat.0)),
            Err(at) => {
                let late = Contributed {
                    seat,
                    value,
                    arrival: Arrival::Late,
                };
                contributions.insert(at, late);
                Ok(Fairness {
                    contributions,
                    ..self.clone()
                })
            }
        }
    }

    /// The seed's commitment, published when the deal opened.
    #[must_use]
    pub fn seed_commitment(&self) -> Digest {
        self.seed_commitment
    }

    /// The deck's commitment, published before the first card.
    #[must_use]
    pub fn deck_commitment(&self) -> Digest {
        self.deck_commitment
    }

    /// The server's seed (hidden until the deal's cards may all be seen).
    #[must_use]
    pub fn server_seed(&self) -> Seed {
        self.server_seed
    }

    /// Every contribution received, by seat, late ones included.
    #[must_use]
    pub fn contributions(&self) -> &[Contributed] {
        &self.contributions
    }

    /// The seats whose contributions are in the deck, lowest first.
    pub fn in_deck(&self) -> impl Iterator<Item = Seat> + '_ {
        self.seats(Arrival::InTime)
    }

    /// The seats whose contributions came late and are not in the deck.
    pub fn late(&self) -> impl Iterator<Item = Seat> + '_ {
        self.seats(Arrival::Late)
    }

    fn seats(&self, arrival: Arrival) -> impl Iterator<Item = Seat> + '_ {
        self.contributions
            .iter()
            .filter(move |c| c.arrival == arrival)
            .map(|c| c.seat)
    }

    /// The deck, for `Game::start_deal` (hidden information).
    #[must_use]
    pub fn deck(&self) -> &[Card; 32] {
        &self.deck
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_has_one_spelling() {
        let d = Digest::from_bytes(std::array::from_fn(|i| i as u8 * 8));
        let text = d.to_string();
        assert_eq!(&text[..8], "00081018");
        assert_eq!(text.parse::<Digest>(), Ok(d));
        assert!(text.to_uppercase().parse::<Digest>().is_err());
        assert!(text[..62].parse::<Digest>().is_err());
        assert!(format!("{text}0").parse::<Digest>().is_err());
        assert!(format!("0x{}", &text[2..]).parse::<Digest>().is_err());
    }

    #[test]
    fn the_seed_is_not_in_its_debug_form() {
        let seed = Seed::from_bytes([0xab; 32]);
        assert!(!format!("{:?}", Shuffle::new(Scheme::V1, seed)).contains("abab"));
    }

    #[test]
    fn below_is_uniform_at_the_edge_of_the_word() {
        // For n = 3 the largest multiple of 3 at most 2^32 is 2^32 - 1: the word u32::MAX
        // would favour remainder 0 and is skipped.
        let limit = |n: u32| u32::MAX - (u32::MAX % n + 1) % n;
        assert_eq!(limit(3), u32::MAX - 1);
        assert_eq!(limit(32), u32::MAX);
        assert_eq!(limit(2), u32::MAX);
        assert_eq!(u64::from(limit(31)) + 1, (1u64 << 32) - (1u64 << 32) % 31);
    }

    #[test]
    fn a_seat_contributes_once() {
        let mut s = Shuffle::new(Scheme::V1, Seed::from_bytes([1; 32]));
        let c = Contribution::from_bytes([2; 32]);
        s.contribute(Seat(2), c, Arrival::InTime).unwrap();
        s.contribute(Seat(0), c, Arrival::Late).unwrap();
        let e = s.contribute(Seat(2), c, Arrival::Late);
        assert_eq!(e, Err(FairError::RepeatedSeat(2)));
        let f = s.finish();
        assert_eq!(f.in_deck().collect::<Vec<_>>(), [Seat(2)]);
        assert_eq!(f.late().collect::<Vec<_>>(), [Seat(0)]);
    }
}
