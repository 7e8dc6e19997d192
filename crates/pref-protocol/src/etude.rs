//! Études on the wire (`GET /api/etudes`, `POST /api/etudes/{id}/attempt`): an étude is an
//! open position (every hand is the problem's, none hidden) with a goal; an attempt is the
//! player's cards so far, answered with the solver's replies and the verdict. An étude's
//! answer is never sent: it is what the player has to find.

use pref_core::{Card, CardSet};
use serde::{Deserialize, Serialize};

/// What the player must reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EtudeGoal {
    /// As both defenders, give the misère declarer a trick.
    CatchMisere,
    /// As declarer, take at least `tricks` of the tricks left.
    Make,
    /// As both defenders, hold the declarer under `tricks`.
    Defend,
}

/// Where an étude comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EtudeSource {
    /// Written into the project, its answer proven by the solver in a test.
    Collection,
    /// Found by the analysis in a game played on this server.
    Game,
}

/// One étude, without its answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EtudeView {
    /// Its id (`"m1"`, or `"g…"` for one found in a game).
    pub id: String,
    /// The goal.
    pub goal: EtudeGoal,
    /// The declarer's player index (0–2).
    pub declarer: usize,
    /// Trumps as a suit letter (`"S"`, `"C"`, `"D"`, `"H"`), `null` for none or misère.
    pub trump: Option<String>,
    /// For `make` the tricks to take, for `defend` the declarer's tricks to stop; `null`
    /// for misère.
    pub tricks: Option<u8>,
    /// The three hands, by player index clockwise.
    pub hands: [CardSet; 3],
    /// Who leads the first trick.
    pub leader: usize,
    /// The player indices whose cards the player plays (the solver plays the others).
    pub plays: Vec<usize>,
    /// Where it comes from.
    pub source: EtudeSource,
    /// How hard: the solver's nodes to prove the answer.
    pub nodes: u64,
}

/// `GET /api/etudes`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EtudeList {
    /// The day's étude's id, chosen from the UTC date.
    pub daily: String,
    /// The UTC date it is chosen for (`"2026-12-02"`).
    pub date: String,
    /// Every étude, the collection's first, then those found in games by difficulty.
    pub etudes: Vec<EtudeView>,
}

/// `POST /api/etudes/{id}/attempt`: the player's cards so far, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EtudeMoves {
    /// The player's cards, first card first (none: the attempt's start).
    pub cards: Vec<Card>,
}

/// One card of an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EtudeStep {
    /// Who played it, by player index.
    pub player: usize,
    /// The card.
    pub card: Card,
    /// `true` for the player's card, `false` for the solver's.
    pub mine: bool,
}

/// Where an attempt stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EtudeStatus {
    /// The player's turn.
    Playing,
    /// The goal reached against every defence.
    Solved,
    /// The last card of the player loses the goal.
    Lost,
}

/// The answer to an attempt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EtudeAttempt {
    /// Every card played so far, the player's and the solver's replies, in order.
    pub steps: Vec<EtudeStep>,
    /// The declarer's tricks so far.
    pub declarer_tricks: u8,
    /// Where it stands.
    pub status: EtudeStatus,
    /// `playing`: whose cards the player plays now; else `null`.
    pub to_play: Option<usize>,
    /// `playing`: the cards he may play; else empty.
    pub legal: CardSet,
    /// `lost`: the play that refutes the last card, best play by both sides to the end.
    pub refutation: Vec<EtudeStep>,
}
