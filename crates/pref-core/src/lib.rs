//! The Preferans rules as a pure state machine: no I/O, no clock, no randomness.
//!
//! - [`card`]: cards, suits, ranks, and [`CardSet`], a hand as a 32-bit mask.
//! - [`bid`]: seats, contracts and the bidding ladder with misère in its place.
//! - [`action`]: what a player can do; [`event`]: what happened; [`claim`]: the types of a
//!   claim of the remaining tricks and its answers (R6.7); `legal.rs`: [`ActionList`].
//! - [`Deal`] (`deal.rs` and the folder `deal/`): one deal from the shuffled deck to the
//!   last trick; [`Deal::apply`] refuses anything illegal with a [`RuleError`] and leaves
//!   the deal unchanged. Its phases are files of `deal/`, each an `impl Deal`: `auction.rs`
//!   (R3), `talon.rs` (R4), `whist.rs` (R5), `play.rs` (R6, R7), `claim.rs` (R6.7), and
//!   `query.rs` the questions asked of a deal.
//! - [`Game`] (`game.rs`, with `check.rs` for outcomes written by hand): the pulka, deal
//!   after deal: dealer rotation, raspasy streak, history, scoring of every finished deal,
//!   settlement.
//! - [`Record`] (`record.rs` and the folder `record/`, with [`json`]): game records in
//!   `pref-record/1`, read strictly and replayed through [`Game`], and written back. In
//!   `record/`: `error.rs` the located [`RecordError`], `read.rs` the reader on `field.rs`'s
//!   checks, `write.rs` the writer, `form.rs` actions and outcomes both ways, `fairness.rs`
//!   and `timing.rs` a deal's optional fairness and clock fields.
//! - [`fair`]: provably fair deals: the commitments and the shuffle of the server's seed and
//!   the players' contributions, which records keep so that anyone can recompute the deck.
//!   In `fair/`: `values.rs` the hashed values, `deck.rs` the shuffle and the deck's
//!   commitment, `fairness.rs` a deal's [`fair::Shuffle`] and its checked [`fair::Fairness`],
//!   `error.rs` why fairness data does not hold together.
//! - [`duplicate`]: duplicate scoring for tournaments: one deal's result in whists alone,
//!   matchpoints and percentages against everyone who held the same cards, standings.
//! - [`view`]: the only place that decides which cards a viewer may see.
//! - [`outcome`]: what a finished deal leaves for the score sheet, the claim that ended it,
//!   and (`outcome/form.rs`) the outcome's one serde form, [`OutcomeForm`], that every
//!   writer of an outcome uses.
//! - [`profile`] (with `profile/field.rs`): house profiles, one table of options driving
//!   their validation, and the presets of the crate's `profiles/`.
//! - [`Sheet`] (`sheet.rs`, with `scoring.rs` for R8 and `settlement.rs` for R10): the score
//!   sheet of a pulka, pool, mountain and whists, and its exact settlement.
//! - [`mod@line`]: what a deal wrote on the sheet, line by line, and why; [`error`]: why an
//!   action was refused, with the rule it breaks.
//!
//! ```
//! use pref_core::{Action, Call, Card, Deal, Profile, Seat};
//!
//! let deck: Vec<Card> = (0..32).map(Card::from_index).collect();
//! let mut deal = Deal::new(&Profile::sochi(), Seat(2), &deck.try_into().unwrap(), 0).unwrap();
//! // Seat 0 is first hand and speaks first; seat 1 may not.
//! assert!(deal.apply(Seat(1), Action::Bid(Call::Pass)).is_err());
//! deal.apply(Seat(0), Action::Bid(Call::Pass)).unwrap();
//! ```

pub mod action;
pub mod bid;
pub mod card;
mod check;
pub mod claim;
mod deal;
pub mod duplicate;
pub mod error;
pub mod event;
pub mod fair;
pub mod game;
pub mod json;
mod legal;
pub mod line;
pub mod outcome;
pub mod profile;
pub mod record;
mod scoring;
mod settlement;
pub mod sheet;
pub mod stats;
pub mod view;

pub use action::{Action, Defence, WhistCall};
pub use bid::{Bid, Call, Contract, Seat, Strain};
pub use card::{Card, CardSet, Rank, Suit};
pub use claim::{Answer, Claim, ClaimRoom, ClaimView};
pub use deal::{Deal, Events};
pub use error::{DealError, HalfWhistBar, RuleError, Stage, SurrenderBar};
pub use event::Event;
pub use game::{DealEntry, DealScore, Game, GameError};
pub use legal::{ActionIter, ActionList};
pub use line::{Column, Consoler, Converted, Line, Why};
pub use outcome::{
    AcceptedClaim, FormKind, Outcome, OutcomeForm, OutcomeKind, PlayedTrick, talon_units,
};
pub use profile::{
    DealerWhistConsolation, OptionInfo, PRESETS, Profile, ProfileError, RaspasySeries,
    RaspasyTalon, Responsibility, WhistSplit, ZeroBonus,
};
pub use record::{ActionTime, Location, Reason, Record, RecordDeal, RecordError};
pub use sheet::Sheet;
pub use view::{DarkView, DealView, TalonBonus, ViewEvent, Viewer};
