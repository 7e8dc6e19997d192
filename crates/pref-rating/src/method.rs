//! The rating method itself: a player's [`Rating`], the [`Params`] it is computed with, how a
//! game's finishes become places, and the update after one rated game ([`rate`]), the
//! Weng-Lin Bayesian approximation (Bradley-Terry, full pairing) from `skillratings`.
//! `docs/ratings.md` explains every choice and works an example through.

use num_rational::Ratio;
use serde::{Deserialize, Serialize};
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

/// Rated games below which a rating is shown as provisional.
pub const PROVISIONAL_GAMES: u32 = 10;

/// The method's parameters; [`Params::STANDARD`] is the one the server uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// A new player's mean.
    pub initial_mu: f64,
    /// A new player's deviation, and the ceiling inactivity can raise it to.
    pub initial_sigma: f64,
    /// Skill-class width: between two settled ratings this far apart the higher finishes
    /// above the lower in about 67% of games (`1 / (1 + e^(-1/√2))`).
    pub beta: f64,
    /// Days without a rated game in the family that leave the deviation as it was.
    pub idle_grace_days: u32,
    /// Variance added for each further day without a rated game in the family.
    pub daily_variance: f64,
}

impl Params {
    /// The parameters of `docs/ratings.md`:
    /// - `initial_mu` 1500 and `initial_sigma` 350, the scale of Elo and Glicko players
    ///   know: a new player is 1500 ± 350;
    /// - `beta` 350, twice OpenSkill's ratio (`beta = sigma / 2`): a pool of Preferans is
    ///   decided by the cards far more than a game of chess, so a game is weaker evidence and
    ///   the same difference in rating means a smaller edge;
    /// - `idle_grace_days` 7 and `daily_variance` 25²: a week off changes nothing, and a
    ///   settled player (deviation about 80) idle for six months is back to about 97% of a
    ///   new player's deviation (`√(80² + 176 × 25²) ≈ 341`).
    pub const STANDARD: Params = Params {
        initial_mu: 1500.0,
        initial_sigma: 350.0,
        beta: 350.0,
        idle_grace_days: 7,
        daily_variance: 25.0 * 25.0,
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

    /// The rating after `days` whole days without a rated game in the family: the first
    /// `idle_grace_days` change nothing, each further day adds `daily_variance` to the
    /// variance, up to a new player's deviation (a deviation already above it stays). The
    /// mean and the games stay.
    #[must_use]
    pub fn after_idle(&self, days: u32, params: &Params) -> Rating {
        let counted = days.saturating_sub(params.idle_grace_days);
        let variance = self.sigma * self.sigma + f64::from(counted) * params.daily_variance;
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
/// the change of the mean and of the variance (games among the same accounts count less
/// after the first few in a day, [`crate::same_trio_weight`]). Each returned rating has one
/// more game.
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
