//! The bot API's bodies (`docs/bot-api.md`): a bot account, its API tokens and the seats
//! hosts invite it to. Everything else a bot sends and reads is the browser's protocol
//! ([`crate::http`], [`crate::client`], [`crate::server`]), authenticated by the token
//! as `Authorization: Bearer prefbot_…`.

use serde::{Deserialize, Serialize};

/// What every API token starts with: a bearer that starts so is a bot's token, never a
/// seat or host token.
pub const TOKEN_PREFIX: &str = "prefbot_";

/// `POST /api/me/tokens`: a new API token for the signed-in bot account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    /// What the owner calls it (1 to 60 characters), to tell his tokens apart.
    pub name: String,
}

/// One API token as its owner sees it later: never the token itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenInfo {
    /// The token's number, to revoke it by.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// When it was made, seconds since 1970.
    pub created: i64,
    /// When it was last used (to the minute), seconds since 1970; `null` if never.
    pub used: Option<i64>,
}

/// The answer to `POST /api/me/tokens`: the token, shown this once (the server keeps only
/// its hash).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenMade {
    /// The token as listed.
    #[serde(flatten)]
    pub info: TokenInfo,
    /// `prefbot_` and 64 hex digits: the bearer.
    pub token: String,
}

/// The answer to `GET /api/me/tokens`: the live tokens, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tokens {
    /// The tokens.
    pub tokens: Vec<TokenInfo>,
}

/// The answer to `POST /api/me/tokens/{id}/revoke`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Revoked {
    /// Always `true`.
    pub revoked: bool,
}

/// `POST /api/tables/{id}/seats/{seat}/invite`: the host keeps a free seat of the lobby
/// for a bot account, named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InviteBot {
    /// The bot account's user name.
    pub name: String,
}

/// A seat a host keeps for the bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Invitation {
    /// The table's id.
    pub table: String,
    /// The seat kept.
    pub seat: u8,
    /// When the host invited, seconds since 1970.
    pub at: i64,
}

/// The answer to `GET /api/bot/invitations`: the seats still kept for the bot, oldest
/// first (a seat taken, or a table started or gone, is no longer listed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Invitations {
    /// The invitations.
    pub invitations: Vec<Invitation>,
}
