//! Preferans bots on top of `pref-core`: an exact open-hand solver and a player that fills a
//! seat seeing only that seat's view.
//!
//! - [`solver`]: the exact open-hand solver ([`Solver`], [`Position`], [`Goal`]): in
//!   `solver/`, `position.rs` the public position, `rules.rs` the trick rules at the bit
//!   level, `search.rs` the search, `order.rs` its move order, `misere.rs` misère's
//!   cutoffs; `tt.rs` holds its bounded transposition table.
//! - [`bot`]: the player ([`Bot`]): in `bot/`, below the decisions, `level.rs` its
//!   [`Level`]s, `budget.rs` the [`Budget`] of a decision (by level, by nodes, or by what the
//!   table's clock leaves) and `context.rs` a decision's inputs; the decisions are
//!   `bidding.rs` (auction, discard and contract), `defence.rs` (whists), `play.rs` (card
//!   play), `claim.rs` (claims and answers to claims, R6.7) and `concede.rs` (a surrender,
//!   R4.5, or a withdrawal to a half-whist, R5.3, priced against playing on); with
//!   `likely_whist.rs` (a contract priced by its defenders' likely whists) and `explain.rs`
//!   (a card's [`Hint`]: the alternatives weighed and their [`Reason`]s). Beside it:
//!   `seen.rs` is its memory of the seat's events, `infer.rs` reads the auction, `sample.rs`
//!   deals the unseen cards, `tables.rs` prices trick counts, `heuristic.rs` holds the rules
//!   of thumb of the easy level, [`open`] turns a view into a solver position.
//! - [`score`]: what a finished deal is worth to each seat in whists, by the core's scoring
//!   for the table's profile (R8, R10).
//!
//! A host drives a bot with three calls: [`Bot::new`] when the bot takes a seat,
//! [`Bot::observe`] with every event *as projected for that seat* (never the full
//! [`pref_core::Event`]), and [`Bot::decide`] when the seat is to act, with the seat's
//! [`pref_core::DealView`], its legal actions and a [`Budget`]; the answer is always one
//! of the legal actions.
//!
//! ```
//! use pref_bot::{Bot, Budget, Level};
//! use pref_core::{Card, Deal, Profile, Seat, Viewer};
//!
//! let deck: Vec<Card> = (0..32).map(Card::from_index).collect();
//! let mut deal = Deal::new(&Profile::sochi(), Seat(2), &deck.try_into().unwrap(), 0).unwrap();
//! let mut bot = Bot::new(Seat(0), Level::Normal, &Profile::sochi(), 42);
//! bot.observe(&deal.deal_event().project(Viewer::Seat(Seat(0)), 3));
//! let legal = deal.legal_actions_for(Seat(0));
//! let action = bot.decide(&deal.view(Viewer::Seat(Seat(0))), &legal, Budget::nodes(200_000));
//! assert!(legal.contains(&action));
//! ```

pub mod bot;
mod heuristic;
mod infer;
#[cfg(test)]
mod layout_tests;
pub mod open;
mod sample;
pub mod score;
mod seen;
pub mod solver;
mod tables;
#[cfg(test)]
mod test_cards;
mod tt;

pub use bot::CLOCK_MARGIN;
pub use bot::{Alternative, Bot, Budget, Hint, Level, Reason, play_deal};
pub use heuristic::trick_estimate;
pub use solver::{Bound, Goal, Position, PositionError, Solver, Stats};
