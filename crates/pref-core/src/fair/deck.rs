//! The deck from the seed and the contributions (SHA-256 in counter mode driving a
//! Fisher–Yates shuffle), and the deck's commitment: pure functions of the published values.

use std::fmt::Write as _;

use crate::card::Card;

use super::values::{Arrival, Contributed, Digest, Scheme, Seed, sha256};

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
            self.bytes = sha256(&format!("{}block {}\n", self.text, self.block)).to_bytes();
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
