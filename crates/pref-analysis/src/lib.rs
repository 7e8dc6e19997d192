//! After the deal: what each card cost, by the exact open-hand solver.
//!
//! For a finished deal of a `pref-record/1` record (or of a game's history), with every
//! hand open:
//!
//! - every card of the play with the value before and after it — the declarer's tricks in
//!   a contract, the misère player's in misère, and in raspasy the tricks of the player who
//!   plays the card, the other two playing against him (the solver's paranoid model) — so a
//!   card that cost tricks is marked with how many, and the best cards are named (`line.rs`
//!   on the solver's positions, `deal.rs` on seats);
//! - the deal's par: what best play gives from the first lead;
//! - for a deal ended by a claim all accepted, whether the claim gave a side fewer tricks
//!   than open-hand play from its trick boundary would have (`claim.rs`);
//! - at the auction, each seat's best contract with the cards as they lay (`auction.rs`
//!   defines it exactly).
//!
//! `json.rs` writes it as the `pref-analysis/1` JSON of `docs/analysis.md`.
//!
//! ```
//! use pref_analysis::{Analyser, Parts};
//! use pref_core::Record;
//!
//! let text = std::fs::read_to_string(concat!(
//!     env!("CARGO_MANIFEST_DIR"), "/../../tests/records/worked-deal.json"
//! )).unwrap();
//! let record = Record::from_json_str(&text).unwrap();
//! let parts = Parts { play: true, auction: false };
//! let deals = Analyser::new().record(&record, Some(0), parts).unwrap();
//! let deal = deals[0].as_ref().unwrap();
//! // Each card's value after it is the next card's value before it.
//! for pair in deal.cards.windows(2) {
//!     assert_eq!(pair[0].after, pair[1].before);
//! }
//! ```

pub mod accuracy;
mod attempt;
mod auction;
mod claim;
mod deal;
pub mod etude;
mod found;
pub mod json;
pub mod line;

pub use attempt::{Attempt, AttemptError, Outcome, Step, attempt};
pub use auction::{NoTalon, SeatBest, best_contracts, discards};
pub use claim::{ClaimAnalysis, Side};
pub use deal::{
    Analyser, CardAnalysis, DealAnalysis, NotAnalysable, Par, Parts, PlayLine, play_line, replay,
};
pub use found::{Found, found_at, found_in_record};
