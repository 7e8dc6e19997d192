//! The bodies of the scorekeeper's HTTP API (`docs/protocol.md`, "Scorekeeping"): a sheet
//! kept for a game played with real cards, where the keeper enters each deal's outcome and
//! everybody with the link watches the sheet.
//!
//! A deal is written exactly as in a game record's outcome form (`docs/game-record.md`),
//! so the JSON of an outcome stays a [`serde_json::Value`] here: the rules core reads it
//! strictly, with the record's own error messages.

use serde::{Deserialize, Serialize};

use crate::table::{Settlement, SheetView};

/// `POST /api/keeper`: open a scorekeeping sheet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateKeeper {
    /// A preset name or `{"preset": …, option: value}`; sochi when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<serde_json::Value>,
    /// The players' names, index = seat, clockwise: 3, or 4 with a four-player profile.
    pub players: Vec<String>,
    /// The seat of the first deal's dealer; seat 0 when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_dealer: Option<u8>,
}

/// The answer to `POST /api/keeper` and `POST /api/keeper/import`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeeperCreated {
    /// The sheet's id.
    pub id: String,
    /// Proves the keeper: needed to enter, correct or delete deals.
    pub keeper_token: String,
    /// The link to share with the watchers.
    pub link: String,
    /// The sheet as it stands.
    pub sheet: KeeperView,
}

/// A deal to enter, correct or check: `{"outcome": {...}}` as in a record's outcome form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeeperDealBody {
    /// The outcome, read by the rules core.
    pub outcome: serde_json::Value,
}

/// `POST /api/keeper/{id}/check`: would this deal be accepted (as the next deal, or in
/// place of deal `index`)?
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeeperCheck {
    /// The outcome, as for an entry.
    pub outcome: serde_json::Value,
    /// The deal it would replace; the next deal when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
}

/// The answer to a check that passes: the deal as it would be written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeeperChecked {
    /// The deal as it would stand on the sheet.
    pub deal: KeeperDeal,
}

/// `POST /api/keeper/{id}/stop`: the players agree to stop after the last deal (R10.3), or
/// take that back (`false`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeeperStop {
    /// Stopped by agreement.
    pub agreed: bool,
}

/// The whole sheet: what the keeper's page and every watcher show. Sent as the answer to
/// every change and, live, as each `sheet` event of `GET /api/keeper/{id}/events`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeeperView {
    /// Changes so far; every change makes a new version.
    pub version: u64,
    /// 3 or 4.
    pub players: u8,
    /// The players' names, index = seat.
    pub names: Vec<String>,
    /// Every option of the house profile.
    pub profile: serde_json::Value,
    /// The dealer of the first deal.
    pub first_dealer: u8,
    /// The deals in order, each with the sheet after it.
    pub deals: Vec<KeeperDeal>,
    /// The sheet after the last deal.
    pub sheet: SheetView,
    /// The settlement (R10), once every pool is closed or the players agreed to stop.
    pub settlement: Option<Settlement>,
    /// What the next deal may be; `null` once the game is over.
    pub next: Option<KeeperNext>,
    /// Every change, oldest first: entries, corrections, deletions, stops.
    pub history: Vec<KeeperChange>,
}

/// One deal on the sheet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeeperDeal {
    /// The dealer.
    pub dealer: u8,
    /// The outcome as a record writes it.
    pub outcome: serde_json::Value,
    /// Whether the declarer made it; `null` for raspasy.
    pub made: Option<bool>,
    /// The sheet after this deal.
    pub sheet: SheetView,
    /// What the deal wrote on the sheet, entry by entry, with why.
    pub lines: Vec<KeeperLine>,
}

/// One entry a deal wrote on the sheet, as the core explains it, with its rule id.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeeperLine {
    /// The entry: seat, column, amount and the reason with its numbers.
    pub line: pref_core::Line,
    /// The rule that writes it (`"R8.3"`).
    pub rule: String,
}

/// The choices for the next deal, as the house profile allows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeeperNext {
    /// The dealer (the rotation gives him, R1.3).
    pub dealer: u8,
    /// The seats that play: every seat but a four-player dealer (R11.1).
    pub active: Vec<u8>,
    /// The contracts a declarer may play, `"6S"` to `"10NT"`.
    pub contracts: Vec<String>,
    /// Half-whist is played against these levels (R5.2); empty when it is off.
    pub half_whist_levels: Vec<u8>,
    /// Tens are whisted (R5.6).
    pub ten_whisted: bool,
    /// Both defenders must whist 6♠ (R5.7).
    pub stalingrad: bool,
    /// A four-player dealer may take over a refused defence (R11.4).
    pub dealer_whist: bool,
    /// The talon's units (0–3) are entered for a game (R11.6).
    pub talon_units: bool,
    /// The highest bid a declarer may surrender at (R4.5); `null` when surrender is off.
    pub surrender_max_level: Option<u8>,
    /// A deal may be entered as dark, every entry ×2 (`dark_games`, R3.9.1, R8.11); absent
    /// when the option is off.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dark: bool,
    /// A misère or a nine may be entered as played without talon (`misere_without_talon`,
    /// R4.6, R8.12); absent when the option is off.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_talon: bool,
    /// Tricks in a deal.
    pub tricks_total: u8,
}

/// One change in the sheet's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeeperChange {
    /// The version it made.
    pub version: u64,
    /// Seconds since 1970 when it was written.
    pub at: i64,
    /// What was done.
    pub op: KeeperOp,
}

/// What a change did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum KeeperOp {
    /// Deals read from an imported record.
    Import {
        /// Each deal's outcome.
        deals: Vec<serde_json::Value>,
        /// The record said the players agreed to stop.
        agreed: bool,
    },
    /// A deal entered after the last one.
    Add {
        /// The outcome.
        outcome: serde_json::Value,
    },
    /// Deal `index` written anew.
    Correct {
        /// The deal (0-based).
        index: usize,
        /// The outcome it had.
        was: serde_json::Value,
        /// The outcome it has now.
        outcome: serde_json::Value,
    },
    /// Deal `index` struck out.
    Delete {
        /// The deal (0-based).
        index: usize,
        /// The outcome it had.
        was: serde_json::Value,
    },
    /// The agreed stop set or taken back.
    Stop {
        /// Stopped by agreement.
        agreed: bool,
    },
}
