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
    /// A chat line.
    Chat {
        /// The text.
        text: String,
    },
    /// Ask for a fresh snapshot.
    Resync,
}
