//! The wire side of provably fair deals (`docs/fairness.md`, scheme `pref-fair/2`): what a
//! table publishes for each deal before and after it, and what a seated client contributes.
//! Every value is 64 lowercase hex digits, as the scheme hashes it.

use serde::{Deserialize, Serialize};

/// A seat's contribution commitment, as published when commitments close.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FairCommitment {
    /// The seat.
    pub seat: u8,
    /// SHA-256 of `pref-fair/1 contribution <seat> <value>\n`.
    pub commitment: String,
}

/// The deal whose contributions are being collected, in a snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FairWindow {
    /// The deal's number.
    pub deal_no: u32,
    /// The server seed's commitment.
    pub seed_commitment: String,
    /// The seats asked to contribute (the seated people; bots do not contribute).
    pub seats: Vec<u8>,
    /// Commitments received so far; complete once `revealing` is true.
    pub commitments: Vec<FairCommitment>,
    /// Whether commitments are closed and values are being revealed.
    pub revealing: bool,
}

/// A dealt deal's commitments, in a snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FairDealt {
    /// The deal's number.
    pub deal_no: u32,
    /// The server seed's commitment, published when the deal opened.
    pub seed_commitment: String,
    /// The deck's commitment, published before the first card.
    pub deck_commitment: String,
}

/// A snapshot's fairness picture: the same for every viewer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FairView {
    /// The deal whose contributions are being collected, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<FairWindow>,
    /// Every dealt deal whose values are still hidden.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dealt: Vec<FairDealt>,
    /// Every deal whose values are revealed: the record's `fairness` objects, by deal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub revealed: Vec<FairRevealed>,
}

/// One deal's revealed fairness data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FairRevealed {
    /// The deal's number.
    pub deal_no: u32,
    /// The `fairness` object exactly as the game record writes it.
    pub fairness: serde_json::Value,
}
