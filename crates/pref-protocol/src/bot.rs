//! A bot's level, as the protocol and the database spell it: the one word a seat, a seat
//! request and the autopilot's clock setting share.

use serde::{Deserialize, Serialize};

/// A bot's level as the protocol and the database spell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BotLevel {
    /// Rules of thumb, no search.
    Easy,
    /// Sampling over a few layouts.
    Normal,
    /// Sampling over many layouts.
    Strong,
}

impl BotLevel {
    /// Every level, weakest first.
    pub const ALL: [BotLevel; 3] = [BotLevel::Easy, BotLevel::Normal, BotLevel::Strong];

    /// The stored and wire name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            BotLevel::Easy => "easy",
            BotLevel::Normal => "normal",
            BotLevel::Strong => "strong",
        }
    }

    /// Reads a stored name.
    #[must_use]
    pub fn parse(name: &str) -> Option<BotLevel> {
        BotLevel::ALL.into_iter().find(|l| l.as_str() == name)
    }
}
