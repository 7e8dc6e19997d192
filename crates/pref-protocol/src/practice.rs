//! Practice tables' hints on the wire: a seated player's `hint` request is answered with the
//! strong bot's choice from that seat's view, its best alternatives, their sampled values
//! and what each card does, as a reason code the client puts into words.

use pref_core::Card;
use serde::{Deserialize, Serialize};

/// What a card does, in a word (the bot's `Reason`; the client words it in its language).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HintReason {
    /// A trump on a suit the player has none of.
    Ruff,
    /// A card of another suit, neither following nor trumping.
    Discard,
    /// Beating the partner's winning card.
    Overtake,
    /// Beating the opponents' winning card with the cheapest card that does.
    WinCheaply,
    /// Beating the opponents' winning card with a higher card than needed.
    Win,
    /// Staying under the opponents' winning card though a card that beats it is held.
    Duck,
    /// A losing card while a lower card of the suit is held.
    Unblock,
    /// The lowest card of the suit, nothing else to do.
    Follow,
    /// Leading a suit the declarer has shown he has none of.
    LeadToVoid,
    /// Leading the highest card still out in its suit.
    Cash,
    /// Leading from another suit while holding a tenace, waiting for the lead into it.
    KeepTenace,
    /// Any other lead.
    Lead,
}

/// One card the bot weighed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintCard {
    /// The card.
    pub card: Card,
    /// The seat's mean result in whists over the sampled layouts, exact (`"-7/3"`).
    pub value: String,
    /// The target's (declarer's, or the raspasy player's own) mean tricks for the deal,
    /// exact (`"13/2"`).
    pub tricks: String,
    /// What the card does.
    pub reason: HintReason,
}

/// The answer to a `hint`: the bot's card first, then its best alternatives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintView {
    /// The deal the hint is for.
    pub deal_no: u32,
    /// The table's version the hint was asked at.
    pub version: u64,
    /// The bot's card and its alternatives, best first (at most three).
    pub cards: Vec<HintCard>,
    /// The layouts of the hidden cards the bot sampled and solved.
    pub samples: u32,
    /// Hints this seat has asked for in this deal, this one included.
    pub used: u32,
    /// Hints a seat may ask for per deal.
    pub per_deal: u32,
}
