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

use num_rational::Ratio;
use serde::{Deserialize, Serialize};
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

/// Rated games below which a rating is shown as provisional.
pub const PROVISIONAL_GAMES: u32 = 10;

/// The families a rating is kept for: one rating per preset family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// Sochi, three players.
    Sochi,
    /// Leningrad, three players.
    Leningrad,
    /// Rostov, three players.
    Rostov,
    /// Four players (dealer sits out), whatever the scoring.
    Four,
}

impl Family {
    /// Every family, in the order pages list them.
    pub const ALL: [Family; 4] = [
        Family::Sochi,
        Family::Leningrad,
        Family::Rostov,
        Family::Four,
    ];

    /// The family of a standard preset name (`sochi`, `leningrad`, `rostov`, `sochi4`), or
    /// `None` for anything else: only standard presets are rated.
    #[must_use]
    pub fn of_preset(preset: &str) -> Option<Family> {
        match preset {
            "sochi" => Some(Family::Sochi),
            "leningrad" => Some(Family::Leningrad),
            "rostov" => Some(Family::Rostov),
            "sochi4" => Some(Family::Four),
            _ => None,
        }
    }

    /// The wire and storage name (`sochi`, `leningrad`, `rostov`, `four`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Sochi => "sochi",
            Family::Leningrad => "leningrad",
            Family::Rostov => "rostov",
            Family::Four => "four",
        }
    }

    /// Parses [`Family::as_str`]'s names.
    #[must_use]
    pub fn parse(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.as_str() == name)
    }
}

/// The method's parameters; [`Params::STANDARD`] is the one the server uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// A new player's mean.
    pub initial_mu: f64,
    /// A new player's deviation, and the ceiling inactivity can raise it to.
    pub initial_sigma: f64,
    /// Skill-class width: the mean difference for a ~67% chance to finish above the other.
    pub beta: f64,
    /// Variance added per day without a rated game in the family.
    pub daily_variance: f64,
}

impl Params {
    /// The parameters in `docs/ratings.md`.
    pub const STANDARD: Params = Params {
        initial_mu: 1500.0,
        initial_sigma: 350.0,
        beta: 350.0,
        daily_variance: 35.0 * 35.0,
    };
}

/// One player's rating in one family.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The mean.
    pub mu: f64,
    /// The deviation.
    pub sigma: f64,
    /// Rated games played in this family.
    pub games: u32,
}

impl Rating {
    /// A new player's rating under `params`.
    #[must_use]
    pub fn new(params: &Params) -> Rating {
        Rating {
            mu: params.initial_mu,
            sigma: params.initial_sigma,
            games: 0,
        }
    }

    /// The figure shown next to a name: the mean, rounded.
    #[must_use]
    #[allow(clippy::cast_possible_truncation)]
    pub fn shown(&self) -> i64 {
        self.mu.round() as i64
    }

    /// The deviation as shown (rounded).
    #[must_use]
    #[allow(clippy::cast_possible_truncation)]
    pub fn shown_deviation(&self) -> i64 {
        self.sigma.round() as i64
    }

    /// Whether the rating is still provisional (fewer than [`PROVISIONAL_GAMES`] games).
    #[must_use]
    pub fn provisional(&self) -> bool {
        self.games < PROVISIONAL_GAMES
    }

    /// The rating after `days` whole days without a rated game: the variance grows by
    /// `daily_variance` a day, up to a new player's deviation.
    #[must_use]
    pub fn after_idle(&self, days: u32, params: &Params) -> Rating {
        let variance = self.sigma * self.sigma + f64::from(days) * params.daily_variance;
        let sigma = variance.sqrt().min(params.initial_sigma.max(self.sigma));
        Rating { sigma, ..*self }
    }
}

/// How a player finished a rated game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    /// Played to the end with this settlement balance (whists).
    Balance(Ratio<i64>),
    /// Away for the rest of the game: scored as last, below every balance.
    Abandoned,
}

/// Places (1 = first) from finishes: higher balance ranks higher, equal balances share a
/// place, abandoning players share the last place.
#[must_use]
pub fn places(finishes: &[Finish]) -> Vec<usize> {
    let key = |f: &Finish| match f {
        Finish::Balance(b) => Some(*b),
        Finish::Abandoned => None,
    };
    finishes
        .iter()
        .map(|me| 1 + finishes.iter().filter(|other| key(other) > key(me)).count())
        .collect()
}

/// The ratings after one rated game. `before[i]` is player `i`'s rating (already aged by
/// [`Rating::after_idle`]), `finishes[i]` how they finished, and `weight` in `(0, 1]` scales
/// the change (games among the same accounts count less after the first few in a day).
/// Each returned rating has one more game.
///
/// # Panics
/// If `before` and `finishes` differ in length.
#[must_use]
pub fn rate(before: &[Rating], finishes: &[Finish], weight: f64, params: &Params) -> Vec<Rating> {
    assert_eq!(
        before.len(),
        finishes.len(),
        "a rating and a finish per player"
    );
    let config = WengLinConfig {
        beta: params.beta,
        ..WengLinConfig::new()
    };
    let teams: Vec<[WengLinRating; 1]> = before
        .iter()
        .map(|r| {
            [WengLinRating {
                rating: r.mu,
                uncertainty: r.sigma,
            }]
        })
        .collect();
    let ranks = places(finishes);
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(&ranks)
        .map(|(team, rank)| (&team[..], MultiTeamOutcome::new(*rank)))
        .collect();
    let after = weng_lin_multi_team(&input, &config);
    before
        .iter()
        .zip(after)
        .map(|(old, new)| {
            let new = new[0];
            let variance = old.sigma * old.sigma
                + weight * (new.uncertainty * new.uncertainty - old.sigma * old.sigma);
            Rating {
                mu: old.mu + weight * (new.rating - old.mu),
                sigma: variance.sqrt(),
                games: old.games + 1,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
