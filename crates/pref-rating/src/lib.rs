//! Ratings of Preferans players, kept apart from the server so the method can be read,
//! tested and simulated without a database.
//!
//! A rated game ends with a settlement balance per player (whists, exact rationals). The
//! final order by balance (ties as ties, an abandoning player last) is fed to the Weng-Lin
//! Bayesian approximation (the OpenSkill model, from the `skillratings` crate), one free-for-all
//! "team" per player. Each player has a mean `mu` and a deviation `sigma`; the displayed figure
//! is `mu` rounded, the deviation grows with inactivity, and a player is provisional until
//! [`PROVISIONAL_GAMES`] rated games. The method, its parameters and a worked example are in
//! `docs/ratings.md`.
//!
//! - `family.rs`: the [`Family`] a rating is kept for (one per family of standard presets);
//! - `method.rs`: the [`Rating`], its [`Params`], [`places`] from [`Finish`]es and [`rate`];
//! - `same_accounts.rs`: [`same_trio_weight`], the discount on games among the same
//!   accounts after the first few of a day.

mod family;
mod method;
mod same_accounts;

pub use family::Family;
pub use method::{Finish, PROVISIONAL_GAMES, Params, Rating, places, rate};
pub use same_accounts::{FULL_WEIGHT_GAMES, WEIGHT_FLOOR, same_trio_weight};

#[cfg(test)]
mod tests;
