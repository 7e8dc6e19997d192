//! The `[lifecycle]` settings: how long unused tables stay in memory (`table/lifecycle.rs`
//! applies them).

use std::time::Duration;

use super::span::Secs;
use serde::Deserialize;

/// The `[lifecycle]` settings.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct Lifecycle {
    /// A lobby table, or a game of bots only, unused and unwatched this long expires, in
    /// seconds.
    pub lobby_idle_secs: Secs,
    /// A finished game unused and unwatched this long leaves memory, in seconds.
    pub finished_linger_secs: Secs,
}

impl Default for Lifecycle {
    fn default() -> Lifecycle {
        Lifecycle {
            lobby_idle_secs: Secs(1800),
            finished_linger_secs: Secs(300),
        }
    }
}

impl Lifecycle {
    /// The lobby's idle time (at least a second).
    #[must_use]
    pub fn lobby_idle(&self) -> Duration {
        self.lobby_idle_secs.at_least(Duration::from_secs(1))
    }

    /// A finished game's time in memory (at least a second).
    #[must_use]
    pub fn finished_linger(&self) -> Duration {
        self.finished_linger_secs.at_least(Duration::from_secs(1))
    }
}
