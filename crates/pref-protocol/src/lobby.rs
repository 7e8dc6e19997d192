//! The public lobby (`docs/protocol.md`, "The lobby"): the public tables waiting for
//! players, the games in progress on public tables, how many are seeking each choice of
//! quick pairing, and the messages of the lobby's WebSocket both ways.
//!
//! The lobby is shared: every item a lobby socket receives is numbered (`n`, counted by the
//! node that serves the socket), and a socket starts with a [`LobbyView`] holding the
//! number it is at. What concerns one socket only (its seek taken, its seat) is not
//! numbered.

use serde::{Deserialize, Serialize};

/// A public table listed in the lobby: it is in the lobby and has a free seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublicTable {
    /// The table id (its page is `/t/{id}`).
    pub id: String,
    /// The preset its house rules are nearest to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// The options that differ from that preset, with the table's values.
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub differs: serde_json::Map<String, serde_json::Value>,
    /// The time control's preset (`relaxed`, `normal`, `blitz`, `custom`); absent without a
    /// clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<String>,
    /// 3 or 4.
    pub players: u8,
    /// The names in the seats taken, by seat (`null` for a free seat).
    pub seats: Vec<Option<String>>,
    /// The name the host gave when opening the table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// Seconds since the table was opened.
    pub waiting_secs: u64,
    /// A rated table's family (`docs/protocol.md` "Ratings"); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<String>,
    /// At a rated table, the seated players' ratings in its family, by seat like `seats`
    /// (`null` for a free seat); absent at an unrated table.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ratings: Vec<Option<crate::RatingShown>>,
}

/// A game in progress on a public table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LiveTable {
    /// The table id (watched at `/t/{id}?watch`).
    pub id: String,
    /// The preset its house rules are nearest to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// The time control's preset; absent without a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<String>,
    /// The names in the seats.
    pub seats: Vec<String>,
    /// Spectators, as the table's node last counted them: the list is busiest first.
    pub spectators: u32,
    /// When the table was opened, in seconds since 1970: among games with as many
    /// spectators the older comes first (then the smaller id), so a client that changes
    /// the list entry by entry ([`LobbyMessage::LiveChanged`]) orders it as the server does.
    pub opened: u64,
    /// A rated game's family; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<String>,
    /// A rated game's players' ratings in its family, by seat; absent otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ratings: Vec<Option<crate::RatingShown>>,
    /// The table and its sheet as a spectator sees them, as the table's node last looked
    /// (with the spectators); absent until it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview: Option<crate::TablePreview>,
}

impl LiveTable {
    /// The live list's order: busiest first, then the table opened first, then the smaller
    /// id (a total order, so that a list kept entry by entry is ordered as the server's).
    #[must_use]
    pub fn busiest_first(&self, other: &LiveTable) -> std::cmp::Ordering {
        other
            .spectators
            .cmp(&self.spectators)
            .then(self.opened.cmp(&other.opened))
            .then_with(|| self.id.cmp(&other.id))
    }
}

/// How many are seeking one choice of quick pairing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekCount {
    /// The preset (`sochi`), or `custom` for other house rules.
    pub preset: String,
    /// The clock's preset (`relaxed`, `normal`, `blitz`) or `off`.
    pub clock: String,
    /// Seekers waiting.
    pub seeking: u32,
}

/// The whole lobby: `GET /api/lobby`, and the first message of a lobby socket.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LobbyView {
    /// The number of the last item this view holds; the socket's items follow it.
    pub n: u64,
    /// Public tables waiting for players, longest waiting first.
    pub tables: Vec<PublicTable>,
    /// Games in progress on public tables, busiest first.
    pub live: Vec<LiveTable>,
    /// The choices somebody is seeking.
    pub seeking: Vec<SeekCount>,
}

/// What the lobby's socket sends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum LobbyMessage {
    /// The whole lobby, on connect.
    Snapshot {
        /// The lobby.
        lobby: LobbyView,
    },
    /// A public table is listed, or what the list shows of it changed.
    Listed {
        /// The item's number.
        n: u64,
        /// The table.
        table: PublicTable,
    },
    /// A public table left the list (its seats are taken, it started or it ended).
    Unlisted {
        /// The item's number.
        n: u64,
        /// The table id.
        id: String,
    },
    /// What changed in the list of games in progress: only the entries that did (a
    /// client keeps the list, puts each game of `games` in place of the entry with its id
    /// or adds it, drops the `gone`, and orders it as [`LiveTable::opened`] says).
    LiveChanged {
        /// The item's number.
        n: u64,
        /// Games new to the list, or whose entry changed: each entry whole.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        games: Vec<LiveTable>,
        /// The ids of the games that left the list (ended, or fewer watch them than the
        /// games listed).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        gone: Vec<String>,
    },
    /// The counts of seekers, the whole list again.
    Seeking {
        /// The item's number.
        n: u64,
        /// The choices somebody is seeking.
        seeking: Vec<SeekCount>,
    },
    /// This socket's seek is waiting (not numbered).
    Waiting {
        /// The preset, as the counts name it (`custom` for other house rules).
        preset: String,
        /// The clock's preset or `off`.
        clock: String,
    },
    /// This socket's seek was paired: a seat at a new table (not numbered). The socket's
    /// seek is gone; a new one may be made.
    Paired {
        /// The table id.
        table: String,
        /// The seat.
        seat: u8,
        /// The seat token.
        token: String,
    },
    /// A request of this socket was refused (not numbered).
    Error {
        /// The code, as in an HTTP error body.
        error: String,
        /// What went wrong.
        message: String,
    },
}

/// What a client sends on the lobby's socket.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum LobbyRequest {
    /// Seek a table: replaces the socket's seek if it has one.
    Seek {
        /// The name to sit under (a signed-in player sits under his user name).
        name: String,
        /// A preset name or `{"preset": …, option: value}` (a saved profile's options).
        profile: serde_json::Value,
        /// `off`, `relaxed`, `normal` or `blitz`.
        clock: String,
        /// Fill the free seats with bots once this seek has waited so many seconds
        /// (absent: never).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bots_after_secs: Option<u32>,
        /// A rated game (`docs/protocol.md` "Ratings"): signed-in people only, a standard
        /// preset unchanged, a clock, no bots; paired only with other rated seeks.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        rated: bool,
        /// Pair only with other bot accounts' seeks (`docs/bot-api.md`, "Seeking in the
        /// lobby"): only a bot account may ask it, and a bot account's seek is always so.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        bots_only: bool,
    },
    /// Drop the socket's seek.
    Cancel,
    /// Send the whole lobby again (a [`LobbyMessage::Snapshot`]): the client found a gap in
    /// the items' numbers. The socket's seek stays as it is.
    Resync,
}
