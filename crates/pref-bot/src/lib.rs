//! Preferans bots on top of `pref-core`.
//!
//! - [`solver`]: the exact open-hand solver ([`Solver`], [`Position`], [`Goal`]).
//! - `tt.rs`: its bounded transposition table.
pub mod solver;
mod tt;

pub use solver::{Goal, Position, PositionError, Solver, Stats};
