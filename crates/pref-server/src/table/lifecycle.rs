//! How long a table stays in memory, and which tables count toward `max_tables`.
//!
//! A table nobody uses must not hold memory, a task and a slot of the node for ever: a
//! stranger could otherwise open tables until the node answers `full` to everyone, across
//! restarts. So:
//! - a table in the lobby that nobody has used (no accepted change, no connect) for
//!   [`Lifecycle::lobby_idle_secs`] while nobody watches it *expires*: it is stored as
//!   expired, its task stops, and it is not restored at the next start;
//! - a finished game leaves memory [`Lifecycle::finished_linger_secs`] after its last use
//!   while nobody watches it; its link loads it back on demand (`Registry::open`), and it
//!   never takes a slot;
//! - a game of bots only is paused while nobody watches it (`table.rs`), and one nobody
//!   has watched for [`Lifecycle::lobby_idle_secs`] expires like an idle lobby, so bot
//!   tables cannot hold the node's slots for ever;
//! - only live tables (lobby or playing) hold a [`Slot`]; `max_tables` counts slots.
//!
//! The clock is tokio's, so tests run it virtually (`tokio::time::pause`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::time::Instant;

use crate::config::Lifecycle;

/// The count of live tables on this node.
#[derive(Debug, Default)]
pub(crate) struct Slots {
    live: AtomicUsize,
}

impl Slots {
    /// Takes a slot, given back when the [`Slot`] is dropped.
    #[must_use]
    pub(crate) fn take(self: &Arc<Slots>) -> Slot {
        self.live.fetch_add(1, Ordering::Relaxed);
        Slot(Arc::clone(self))
    }

    /// Live tables (lobby or playing) on this node.
    #[must_use]
    pub(crate) fn live(&self) -> usize {
        self.live.load(Ordering::Relaxed)
    }
}

/// One live table's place in [`Slots`]; dropping it gives the place back.
#[derive(Debug)]
pub struct Slot(Arc<Slots>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.live.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Where a table stands, as far as its lifetime goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Seats are being filled: expires when idle.
    Lobby,
    /// Deals are being played with a person seated: stays.
    Playing,
    /// Deals are being played by bots only: expires when idle (paused while unwatched, its
    /// bots send nothing, so nothing uses it).
    Bots,
    /// The game is over: leaves memory when idle.
    Over,
}

/// What a table's clock says when its time is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Due {
    /// Someone watches: look again a full period later.
    Watched,
    /// An idle lobby or bots' game: store it as expired and stop.
    Expire,
    /// An idle finished game: stop (it stays in the database).
    Unload,
}

/// One table's clock and slot.
#[derive(Debug)]
pub(crate) struct Life {
    settings: Lifecycle,
    /// The last use.
    last: Instant,
    /// Held while the table is live.
    slot: Option<Slot>,
}

impl Life {
    /// A clock started now, holding `slot`.
    #[must_use]
    pub(crate) fn new(settings: Lifecycle, slot: Option<Slot>) -> Life {
        Life {
            settings,
            last: Instant::now(),
            slot,
        }
    }

    /// Records a use now.
    pub(crate) fn touch(&mut self) {
        self.last = Instant::now();
    }

    /// Gives the slot back once the game is over.
    pub(crate) fn settle(&mut self, phase: Phase) {
        if phase == Phase::Over {
            self.slot = None;
        }
    }

    /// When the table's time is up in `phase`; `None` while it plays.
    #[must_use]
    pub(crate) fn deadline(&self, phase: Phase) -> Option<Instant> {
        match phase {
            Phase::Lobby | Phase::Bots => Some(self.last + self.settings.lobby_idle()),
            Phase::Over => Some(self.last + self.settings.finished_linger()),
            Phase::Playing => None,
        }
    }

    /// What to do at the deadline in `phase` with `watchers` sockets subscribed; a watched
    /// table starts a new period.
    pub(crate) fn due(&mut self, phase: Phase, watchers: usize) -> Option<Due> {
        if watchers > 0 {
            self.touch();
            return Some(Due::Watched);
        }
        match phase {
            Phase::Lobby | Phase::Bots => Some(Due::Expire),
            Phase::Over => Some(Due::Unload),
            Phase::Playing => None,
        }
    }
}

#[cfg(test)]
mod tests;
