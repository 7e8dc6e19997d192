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

mod deck;
mod error;
mod fairness;
#[cfg(test)]
mod tests;
mod values;

pub use deck::{deck_commitment, deck_commitment_text, shuffle, shuffle_text};
pub use error::FairError;
pub use fairness::{Fairness, Shuffle};
pub use values::{
    Arrival, Contributed, Contribution, Digest, HexError, Place, SCHEME_1, SCHEME_2, Scheme, Seed,
    TableTag,
};
