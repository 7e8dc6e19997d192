//! Why a socket got a snapshot after its first, counted by cause.
//!
//! A client that follows the items, as the browser does, gets a snapshot only when it
//! connects, after the server's `lagged`, and when it finds a gap in the versions and asks
//! for one. The old browser asked after every item carrying a turn; [`Follow`] chooses
//! which client a run imitates, so both can be measured in one build. Any other snapshot is
//! an error of the run.

use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

/// Which client the sockets imitate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Follow {
    /// Apply the items; ask for a snapshot only on a gap (today's browser).
    #[default]
    Events,
    /// Ask for a snapshot after every item carrying a turn, and after `started` and
    /// `game_over`, and act on the snapshot's turn (the browser before it followed events).
    SnapshotEveryTurn,
}

/// Why a snapshot came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    /// The server said the socket lagged.
    Lagged,
    /// The socket found a gap in the versions and asked.
    Gap,
    /// The socket asked after an item carrying a turn ([`Follow::SnapshotEveryTurn`]).
    Turn,
    /// Nobody asked: an error of the run.
    Unasked,
}

/// Snapshots after the first, by cause, while a worker runs.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    lagged: AtomicU64,
    gap: AtomicU64,
    turn: AtomicU64,
    unasked: AtomicU64,
}

impl Counters {
    /// Counts one snapshot.
    pub(crate) fn count(&self, cause: Cause) {
        let c = match cause {
            Cause::Lagged => &self.lagged,
            Cause::Gap => &self.gap,
            Cause::Turn => &self.turn,
            Cause::Unasked => &self.unasked,
        };
        c.fetch_add(1, Ordering::Relaxed);
    }

    /// The counts so far.
    pub(crate) fn get(&self) -> Resyncs {
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        Resyncs {
            lagged: get(&self.lagged),
            gap: get(&self.gap),
            turn: get(&self.turn),
            unasked: get(&self.unasked),
        }
    }
}

/// Snapshots after the first, by cause.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resyncs {
    /// After the server's `lagged`.
    pub lagged: u64,
    /// Asked for on a gap in the versions.
    pub gap: u64,
    /// Asked for after an item carrying a turn ([`Follow::SnapshotEveryTurn`] only).
    pub turn: u64,
    /// Nobody asked: each is also an error.
    pub unasked: u64,
}

impl Resyncs {
    /// Adds another worker's counts.
    pub fn merge(&mut self, o: &Resyncs) {
        self.lagged += o.lagged;
        self.gap += o.gap;
        self.turn += o.turn;
        self.unasked += o.unasked;
    }
}
