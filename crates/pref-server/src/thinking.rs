//! The share of the cores that bots may take: bots deciding, and the autopilot of a clocked
//! table.
//!
//! Both run on tokio's blocking pool, each holding one permit of a single semaphore while it
//! works, so at most [`Thinking::permits`] of them run at once however many bot tables play:
//! the rest of the cores stay free for the table tasks and sockets of people's tables.
//! Analyses never take these permits: they have a lane of their own (`analysis.rs`), so a
//! bot never waits behind one.
//! The share is `bots.core_share_percent` of the cores, at least one permit; it is read
//! once, at start ([`configure`]).

use std::sync::OnceLock;

use serde::Deserialize;
use tokio::sync::Semaphore;

/// The `[bots]` settings.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct Thinking {
    /// Percent of the cores that bots may keep busy at once (at least one core's worth: one
    /// permit).
    pub core_share_percent: u32,
}

impl Default for Thinking {
    fn default() -> Thinking {
        Thinking {
            core_share_percent: 50,
        }
    }
}

impl Thinking {
    /// Solver jobs allowed at once on `cores` cores: the share rounded down, at least one.
    #[must_use]
    pub fn permits(&self, cores: usize) -> usize {
        let share = cores.saturating_mul(self.core_share_percent.min(100) as usize) / 100;
        share.max(1)
    }
}

static THINKERS: OnceLock<Semaphore> = OnceLock::new();

/// The permits in force, fixed by the first [`configure`] or [`permits`].
static SHARE: OnceLock<usize> = OnceLock::new();

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// Sets the share from the settings; the first call (or the first [`thinkers`]) wins, so a
/// node's share is fixed for its life. Returns the permits in force.
pub(crate) fn configure(settings: &Thinking) -> usize {
    let permits = *SHARE.get_or_init(|| settings.permits(cores()));
    THINKERS.get_or_init(|| Semaphore::new(permits));
    permits
}

/// The permits every bot decision and every autopilot move holds while it runs.
pub(crate) fn thinkers() -> &'static Semaphore {
    THINKERS.get_or_init(|| Semaphore::new(permits()))
}

/// How many permits [`thinkers`] has: those configured, or the default share.
pub(crate) fn permits() -> usize {
    *SHARE.get_or_init(|| Thinking::default().permits(cores()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_share_is_rounded_down_and_never_below_one_permit() {
        let share = |p| Thinking {
            core_share_percent: p,
        };
        assert_eq!(share(50).permits(2), 1);
        assert_eq!(share(50).permits(8), 4);
        assert_eq!(share(75).permits(8), 6);
        assert_eq!(share(100).permits(8), 8);
        assert_eq!(
            share(250).permits(8),
            8,
            "more than every core is every core"
        );
        assert_eq!(share(0).permits(8), 1);
        assert_eq!(share(10).permits(4), 1);
    }
}
