//! The families a rating is kept for: a player has one rating per family of standard
//! presets, so a Sochi rating says nothing about Rostov and three-handed games are kept apart
//! from four-handed ones.

use serde::{Deserialize, Serialize};

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
