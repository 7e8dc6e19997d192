//! What a client sends on a table's WebSocket.

use pref_core::Action;
use serde::{Deserialize, Serialize};

/// A message from a client. Read strictly: unknown fields are refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// An action in the deal.
    Action {
        /// The client's id for the answer.
        id: String,
        /// The version the client had when it chose.
        version: u64,
        /// The action.
        action: Action,
    },
    /// Start the next deal (any seated player, between deals).
    NextDeal {
        /// The client's id for the answer.
        id: String,
        /// The version the client had.
        version: u64,
    },
    /// A seated player at a practice table asks, on his turn, what the strong bot would
    /// play from his seat (`docs/protocol.md`, "Practice tables"). Answered by a `hint`, or
    /// `rejected` with its reason.
    Hint {
        /// The client's id for the answer.
        id: String,
        /// The version the client had.
        version: u64,
    },
    /// A chat line.
    Chat {
        /// The text.
        text: String,
    },
    /// Ask for a fresh snapshot. An empty struct, not a unit variant: serde reads a unit
    /// variant of an internally tagged enum without checking the object's other fields, so
    /// `{"type": "resync", "zzz": 1}` would pass.
    Resync {},
    /// A seated player on autopilot ("away") is back: the autopilot stops moving for the
    /// seat at once, before its next turn. An empty struct like [`ClientMessage::Resync`].
    Back {},
    /// Ask for the score log's finished deals just before deal `before` (a page of them):
    /// the snapshot holds only the last ones. Answered by a `score_page`.
    ScorePage {
        /// The deal number the page ends before (the first deal the client holds).
        before: u32,
    },
    /// This client contributes to every deal from now on: the table waits for its
    /// commitment and value (`docs/fairness.md`). Clients that never send it are not asked.
    /// An empty struct like [`ClientMessage::Resync`], so that unknown fields are refused.
    FairJoin {},
    /// A seated player's commitment to its contribution for deal `deal_no`
    /// (`docs/fairness.md`).
    FairCommit {
        /// The client's id for the answer.
        id: String,
        /// The deal.
        deal_no: u32,
        /// SHA-256 of `pref-fair/1 contribution <seat> <value>\n`, 64 lowercase hex digits.
        commitment: String,
    },
    /// The value committed to, once `fair_commitments` has been published.
    FairReveal {
        /// The client's id for the answer.
        id: String,
        /// The deal.
        deal_no: u32,
        /// 32 random bytes as 64 lowercase hex digits.
        value: String,
    },
}
