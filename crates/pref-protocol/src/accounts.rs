//! The bodies of the accounts' and players' HTTP API (`docs/protocol.md`, "Accounts and
//! players"): signing up, in and out, the signed-in player (`/api/me`), the seats an
//! account holds, and a player's page (`/api/players/{name}`): his games and his
//! statistics.
//!
//! Exact numbers (shares, averages, balances) are strings in the form settlements use
//! (`"14/3"`, `"-240"`); a share whose count below is zero is `null`.

use serde::{Deserialize, Serialize};

/// `POST /api/accounts` (sign up) and `POST /api/session` (sign in).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// The user name: the characters a seat's name may hold, 1 to 32 of them.
    pub name: String,
    /// The password (at least `accounts.min_password_chars` characters at sign-up).
    pub password: String,
}

/// `POST /api/me/password`: a new password, given with the current one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChangePassword {
    /// The password now.
    pub password: String,
    /// The password from now on.
    pub new_password: String,
}

/// `POST /api/me/delete`: the password again, so a session left open cannot delete.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeleteAccount {
    /// The password now.
    pub password: String,
}

/// `POST /api/me/hidden`: hide the player's page from everybody else, or show it again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetHidden {
    /// Whether the page is hidden.
    pub hidden: bool,
}

/// The signed-in player: `GET /api/me`, and the answer to signing up or in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Me {
    /// The user name as it was written at sign-up.
    pub name: String,
    /// When the account was made, seconds since 1970.
    pub created: i64,
    /// Whether the player's page is hidden from others.
    pub hidden: bool,
    /// A bot account (`POST /api/me/bot`, `docs/bot-api.md`): absent for a person.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
}

/// One seat a browser holds as a guest, to be tied to the account (`POST /api/me/seats`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeldSeat {
    /// The table's id.
    pub table: String,
    /// The seat token the browser holds there.
    pub token: String,
}

/// `POST /api/me/seats`: the guest seats a browser holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttachSeats {
    /// At most `accounts.attach_max_seats` of them.
    pub seats: Vec<HeldSeat>,
}

/// The answer to `POST /api/me/seats`: which tables are now the account's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attached {
    /// The tables whose seat the token proved, now tied to the account.
    pub attached: Vec<String>,
    /// The tables whose token proved no seat (freed, wrong or unknown): nothing changed.
    pub refused: Vec<String>,
}

/// `GET /api/me/seats/{table}`: the account's seat token at a table, for another device.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatToken {
    /// The table's id.
    pub table: String,
    /// The seat.
    pub seat: u8,
    /// The seat token (the socket's credential, as `POST …/seats` gave it).
    pub token: String,
}

/// Who sat in a seat of a listed game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GamePlayer {
    /// The seat.
    pub seat: u8,
    /// The name at the table (`null` for a seat nobody holds now).
    pub name: Option<String>,
    /// The account's user name, when a signed-in player holds it (its page is `/@/{name}`).
    pub account: Option<String>,
    /// The account that held it was deleted: shown as "deleted player".
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
    /// The bot's level, for a bot.
    pub bot: Option<String>,
    /// A bot account holds it (an outside program, `docs/bot-api.md`): absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot_account: bool,
}

/// `GET /api/tables/{id}/players`: who sits at a table, with the accounts of the seats held
/// by signed-in players (their names link to their pages).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TablePlayers {
    /// The taken seats, by seat.
    pub players: Vec<GamePlayer>,
}

/// Where a listed game is found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameLinks {
    /// The table's page (to watch).
    pub table: String,
    /// Its `pref-record/1` record.
    pub record: String,
    /// The analysis of its first deal (the page moves to the others).
    pub analysis: String,
}

/// One game on a player's page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameEntry {
    /// The table's id.
    pub table: String,
    /// The player's seat there.
    pub seat: u8,
    /// When he took the seat (or attached it), seconds since 1970.
    pub date: i64,
    /// `lobby`, `playing` or `over`.
    pub phase: String,
    /// The preset the table's profile is written against.
    pub profile: String,
    /// Everybody at the table, by seat.
    pub players: Vec<GamePlayer>,
    /// The player's settlement in whists, once the game is over.
    pub result: Option<String>,
    /// Links to the table, its record and its analysis.
    pub links: GameLinks,
}

/// `GET /api/players/{name}/games?before=N`: a page of games, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GamesPage {
    /// The games, newest first.
    pub games: Vec<GameEntry>,
    /// The `before` of the next page; `null` on the last.
    pub next: Option<i64>,
}

/// `GET /api/players/{name}`: the page's head.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerProfile {
    /// The user name.
    pub name: String,
    /// When the account was made, seconds since 1970.
    pub created: i64,
    /// Games on the page (every seat tied to the account).
    pub games: u64,
    /// The games not over yet, to watch (newest first, at most a page).
    pub in_progress: Vec<GameEntry>,
    /// A bot account (an outside program, `docs/bot-api.md`): absent for a person.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
}

/// Contracts of one level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelFigures {
    /// 6 to 10.
    pub level: u8,
    /// Declared.
    pub played: u64,
    /// Made.
    pub made: u64,
    /// `made / played`.
    pub made_share: Option<String>,
}

/// Misères declared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MisereFigures {
    /// Declared.
    pub played: u64,
    /// Caught (a trick taken).
    pub caught: u64,
}

/// Whists.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WhistFigures {
    /// Deals whisted.
    pub made: u64,
    /// Of those, without a shortfall charged (R8.4).
    pub kept: u64,
    /// `kept / made`.
    pub success: Option<String>,
    /// Whists written on the sheet.
    pub written: i64,
    /// Written per deal played.
    pub per_deal: Option<String>,
    /// Written per game.
    pub per_game: Option<String>,
}

/// Raspasy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaspasyFigures {
    /// Played.
    pub played: u64,
    /// `played / deals`.
    pub share: Option<String>,
    /// Tricks taken.
    pub tricks: u64,
    /// `tricks / played`.
    pub average_tricks: Option<String>,
}

/// "Accuracy": the tricks the player's own cards lost to the solver, over the deals of his
/// games that the analysis has valued (it runs in the background after each game).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccuracyFigures {
    /// Analysed deals in which the player chose a card.
    pub deals: u64,
    /// The tricks his cards lost in them (each card's cost against best play; 0 for a best
    /// card).
    pub tricks_lost: u64,
    /// `tricks_lost / deals`: 0 is perfect play.
    pub per_deal: Option<String>,
}

/// The balance after a number of games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BalancePoint {
    /// Games counted up to and including this one (from 1).
    pub games: u64,
    /// When that game was counted, seconds since 1970.
    pub date: i64,
    /// The sum of the settlements of those games.
    pub balance: String,
}

/// `GET /api/players/{name}/stats`: the figures of every finished game of the player,
/// computed by the rules core (`pref_core::stats`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerStats {
    /// The user name.
    pub name: String,
    /// Finished games counted.
    pub games: u64,
    /// Deals played in them.
    pub deals: u64,
    /// Deals declared.
    pub declared: u64,
    /// `declared / deals`.
    pub declared_share: Option<String>,
    /// Trick contracts by level, 6 to 10.
    pub levels: Vec<LevelFigures>,
    /// Misères.
    pub misere: MisereFigures,
    /// Whists.
    pub whists: WhistFigures,
    /// Raspasy.
    pub raspasy: RaspasyFigures,
    /// Tricks lost to the solver.
    pub accuracy: AccuracyFigures,
    /// The sum of the settlements.
    pub balance: String,
    /// The balance over time, oldest first: after every game, or after evenly spaced games
    /// when there are more than `accounts.balance_points` (the last game always among them).
    pub over_time: Vec<BalancePoint>,
}
