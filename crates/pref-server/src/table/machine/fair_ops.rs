//! What a deal's fair window is asked and what it writes: the ops an [`Op`](super::Op)
//! carries to the window and the rows a [`Write`](super::Write) makes durable. They are
//! apart from `fair.rs`, which applies them, so that `op.rs` names them without importing
//! the window's logic (which names `op.rs`'s types in turn).

use pref_core::Seat;
use pref_core::fair::{Contribution, Digest, Scheme, Seed};

use crate::ids::Secret;

/// What asks for the next deal.
#[derive(Clone, Debug)]
pub(crate) enum Opening {
    /// The host starts the game.
    Start {
        /// The host token.
        host: Secret,
    },
    /// A rematch's lobby starts itself once every seat is taken ([`super::Machine::rematch_ready`]):
    /// nobody presses Start again.
    Rematch,
    /// A seated player asks for the next deal.
    NextDeal {
        /// The seat asking.
        seat: Seat,
        /// Its token.
        token: Secret,
        /// The version it asked at.
        version: u64,
    },
}

/// What may be asked of a deal's window.
#[derive(Clone, Debug)]
pub(crate) enum FairOp {
    /// Open the next deal on the table's fresh `seed`.
    Open {
        /// Who asks.
        opening: Opening,
        /// The server seed, drawn from the OS.
        seed: Seed,
        /// How long each step waits, as published.
        window_ms: u64,
    },
    /// A seated person's client contributes to every deal from now on.
    Join {
        /// The seat.
        seat: Seat,
        /// Its token.
        token: Secret,
    },
    /// A seat's commitment.
    Commit {
        /// The seat.
        seat: Seat,
        /// Its token.
        token: Secret,
        /// The deal.
        deal_no: u32,
        /// The commitment.
        commitment: Digest,
    },
    /// A seat's value.
    Reveal {
        /// The seat.
        seat: Seat,
        /// Its token.
        token: Secret,
        /// The deal.
        deal_no: u32,
        /// The value.
        value: Contribution,
    },
    /// The step of deal `deal_no`'s window timed out.
    Deadline {
        /// The deal.
        deal_no: u32,
    },
}

/// A fairness row to make durable before anybody is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FairWrite {
    /// A deal's seed, and the scheme it is dealt under.
    Seed {
        /// The deal.
        deal_no: u32,
        /// The seed.
        seed: Seed,
        /// The scheme (the server's: `pref-fair/2`).
        scheme: Scheme,
    },
    /// A seat's commitment.
    Commit {
        /// The deal.
        deal_no: u32,
        /// The seat.
        seat: u8,
        /// The commitment.
        commitment: Digest,
    },
    /// The list of commitments is published.
    CommitsClosed {
        /// The deal.
        deal_no: u32,
    },
    /// A seat's value.
    Value {
        /// The deal.
        deal_no: u32,
        /// The seat.
        seat: u8,
        /// The value.
        value: Contribution,
        /// After the deck was fixed.
        late: bool,
    },
}

/// A stored deal's fairness, for a restore.
#[derive(Clone, Debug)]
pub(crate) struct StoredFair {
    /// The deal.
    pub deal_no: u32,
    /// The seed.
    pub seed: Seed,
    /// Whether it was dealt under `pref-fair/2` (else `pref-fair/1`, before it).
    pub placed: bool,
    /// Whether the commitments were published.
    pub commits_closed: bool,
    /// Per seat: the commitment, the value if revealed, and whether it came late.
    pub contributions: Vec<(u8, Digest, Option<Contribution>, bool)>,
}
