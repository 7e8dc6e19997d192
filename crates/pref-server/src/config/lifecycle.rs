//! The `[lifecycle]` settings: how long unused tables stay in memory (`table/lifecycle.rs`
//! applies them).

use std::time::Duration;

use serde::Deserialize;

/// The `[lifecycle]` settings.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct Lifecycle {
    /// A lobby table, or a game of bots only, unused and unwatched this long expires, in
    /// seconds.
    pub lobby_idle_secs: u64,
    /// A finished game unused and unwatched this long leaves memory, in seconds.
    pub finished_linger_secs: u64,
}

impl Default for Lifecycle {
    fn default() -> Lifecycle {
        Lifecycle {
            lobby_idle_secs: 1800,
            finished_linger_secs: 300,
        }
    }
}

impl Lifecycle {
    /// The lobby's idle time (at least a second).
    #[must_use]
    pub fn lobby_idle(&self) -> Duration {
        Duration::from_secs(self.lobby_idle_secs.max(1))
    }

    /// A finished game's time in memory (at least a second).
    #[must_use]
    pub fn finished_linger(&self) -> Duration {
        Duration::from_secs(self.finished_linger_secs.max(1))
    }
}
