//! What everybody at a table may see of it: its phase, seats, sheet, the sheet's lines and
//! settlement.

use pref_core::{Line, Sheet};
use serde::{Deserialize, Serialize};

use crate::bot::BotLevel;
use crate::clock::ClockInfo;

/// Where a table stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Seats are being filled; the host may change the profile.
    Lobby,
    /// A deal is being played.
    Playing,
    /// A deal is over and the next one has not started; the host may change players.
    BetweenDeals,
    /// The game is over.
    Over,
}

/// One seat as everybody sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatInfo {
    /// The seat number.
    pub seat: u8,
    /// The player's name, `None` while free.
    pub name: Option<String>,
    /// Whether the player has a socket open (a bot always is).
    pub connected: bool,
    /// The bot's level when a bot holds the seat, `null` for a person or a free seat.
    pub bot: Option<BotLevel>,
    /// The name a free seat of a rematch is kept for (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserved: Option<String>,
    /// A bot account holds the seat: an outside program (`docs/bot-api.md`), shown with
    /// the bots' badge; absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot_account: bool,
}

/// A table's public summary (HTTP and snapshots).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// Where the table stands.
    pub phase: Phase,
    /// 3 or 4.
    pub players: u8,
    /// Every option of the house profile.
    pub profile: serde_json::Value,
    /// The seats.
    pub seats: Vec<SeatInfo>,
    /// Deals finished so far.
    pub deals_finished: u32,
    /// Whether spectators take part in the chat.
    pub spectator_chat: bool,
    /// The current event version.
    pub version: u64,
    /// The score sheet, once the game has started.
    pub sheet: Option<SheetView>,
    /// The settlement (R10), once the game is over.
    pub settlement: Option<Settlement>,
    /// The preset the table's profile is closest to (`sochi`, …: the fewest options
    /// changed); the profile holds every option with the host's changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// Open spectator sockets (absent while none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub spectators: u32,
    /// The rematch's table id, once the host opened one after the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<String>,
    /// The time control and the clock's state, at a table with a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockInfo>,
    /// A standing proposal to stop the game by agreement (R10.3), between deals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<crate::StopProposal>,
    /// People only: no bot account may sit here (`docs/bot-api.md`); absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub people_only: bool,
    /// A practice table (hints allowed, never rated; absent otherwise).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub practice: bool,
    /// A rated table's rating family (`sochi`, `leningrad`, `rostov`, `four`:
    /// `docs/ratings.md`); absent at a table that is not rated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The score sheet: public to everybody at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SheetView {
    /// Pool per seat.
    pub pool: Vec<i64>,
    /// Mountain per seat.
    pub mountain: Vec<i64>,
    /// Whists, `[writer][on]`.
    pub whists: Vec<Vec<i64>>,
}

impl SheetView {
    /// The sheet as sent.
    #[must_use]
    pub fn of(sheet: &Sheet) -> SheetView {
        SheetView {
            pool: sheet.pool().to_vec(),
            mountain: sheet.mountain().to_vec(),
            whists: sheet.whist_matrix(),
        }
    }
}

/// How the game was settled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settlement {
    /// Ended by agreement (R10.3) rather than by closing every pool.
    pub agreed: bool,
    /// Each seat's balance in whists, exact (`"35/3"` where it is not whole); sums to zero.
    pub balance: Vec<String>,
    /// An agreed stop's R10.3 adjustment: the lines charging each pool below target, which
    /// the balance counts and the sheet does not show (absent when nothing is charged).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stop: Vec<LineView>,
}

/// One line a deal wrote, with its rule id: the core's [`Line`] (seat, column, amount,
/// reason and its numbers, flattened) and `rule`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineView {
    /// The line.
    #[serde(flatten)]
    pub line: Line,
    /// The rule that wrote it (`"R8.3"`), an anchor of the guide.
    pub rule: String,
}

impl LineView {
    /// The lines as sent.
    #[must_use]
    pub fn all(lines: &[Line]) -> Vec<LineView> {
        lines
            .iter()
            .map(|&line| LineView {
                line,
                rule: line.rule().to_owned(),
            })
            .collect()
    }
}
