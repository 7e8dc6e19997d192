//! The agreed stop (R10.3) on the wire: between deals a seated player proposes to stop the
//! game, every other seat is asked and accepts or declines (`POST /api/tables/{id}/stop`
//! with the seat token), and the game ends by agreement only once every seat accepted. The
//! table tells each vote as a `stop_vote` item and its summary carries a standing proposal.
//! The host's end (`POST /api/tables/{id}/end`) is the same proposal when other people sit
//! at the table, made by his seat or, when he holds none, by the host.

use serde::{Deserialize, Serialize};

/// A seat's vote on stopping the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopVote {
    /// Proposes to stop (no proposal stands): the proposer accepts by proposing.
    Propose,
    /// Accepts the standing proposal.
    Accept,
    /// Declines it: the proposal ends and the game goes on.
    Decline,
}

/// The body of `POST /api/tables/{id}/stop`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopRequest {
    /// The vote.
    pub vote: StopVote,
}

/// A standing proposal to stop, as the summary carries it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopProposal {
    /// The seat that proposed; absent when the host, who holds no seat, proposed by his
    /// `POST /api/tables/{id}/end`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<u8>,
    /// The seats that accepted so far, the proposer's and the bots' among them.
    pub accepted: Vec<u8>,
}
