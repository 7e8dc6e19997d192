//! Ratings on the wire (`docs/ratings.md`, `docs/protocol.md` "Ratings"): a player's rating
//! as shown, the ratings and changes of a rated table's seats, a family's leaderboard, and
//! a player's ratings with their history.

use serde::{Deserialize, Serialize};

/// A rating as shown next to a name: the rounded mean, its deviation, the rated games
/// behind it, and whether it is still provisional (fewer than ten games: shown with a "?").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingShown {
    /// The rounded mean.
    pub rating: i64,
    /// The rounded deviation.
    pub deviation: i64,
    /// Rated games played in the family.
    pub games: u32,
    /// Fewer than ten rated games in the family.
    pub provisional: bool,
}

/// One seat of a rated table: who sits there and his rating in the table's family (a
/// new player's before his first game); once the game is over and rated, the change it made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRating {
    /// The seat.
    pub seat: u8,
    /// The account's name.
    pub name: String,
    /// The rating now (after the game, once it is rated).
    pub rating: RatingShown,
    /// The game's change of the shown rating (`+12` is `12`), once the game is rated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change: Option<i64>,
}

/// `GET /api/tables/{id}/ratings`: a rated table's seats with their ratings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableRatings {
    /// The table's rating family.
    pub family: String,
    /// The seats tied to accounts, by seat.
    pub seats: Vec<SeatRating>,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderRow {
    /// The place on this board (1 = the highest rating).
    pub place: u32,
    /// The account's name.
    pub name: String,
    /// The rating.
    pub rating: RatingShown,
    /// When the account last finished a rated game in the family (seconds since 1970).
    pub last_played: i64,
}

/// `GET /api/ratings/{family}?kind=people|bots`: the family's board of one kind of account,
/// active in the last 30 days, highest first, one page at a time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Leaderboard {
    /// The family.
    pub family: String,
    /// `people` or `bots`: the two boards never mix.
    pub kind: String,
    /// This page's lines.
    pub players: Vec<LeaderRow>,
    /// The `offset` of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<u32>,
}

/// One rated game in a player's history: the rating after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingPoint {
    /// The table's id.
    pub table: String,
    /// When the game ended (seconds since 1970).
    pub at: i64,
    /// The shown rating after the game.
    pub rating: i64,
    /// The shown deviation after the game.
    pub deviation: i64,
    /// The game's change of the shown rating.
    pub change: i64,
}

/// A player's rating in one family with its history (oldest first, the latest games only).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FamilyRating {
    /// The family.
    pub family: String,
    /// The rating now.
    pub rating: RatingShown,
    /// The rated games, oldest first.
    pub history: Vec<RatingPoint>,
}

/// `GET /api/players/{name}/ratings`: a player's ratings, one per family he played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerRatings {
    /// A bot account: its ratings are on the bots' boards.
    pub bot: bool,
    /// One per family with a rated game.
    pub families: Vec<FamilyRating>,
}
