//! The bodies of the HTTP API's requests and answers.

use serde::{Deserialize, Serialize};

use crate::bot::BotLevel;
use crate::table::Summary;

/// `POST /api/tables`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    /// A preset name or `{"preset": …, option: value}`; sochi when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<serde_json::Value>,
    /// Whether spectators take part in the chat.
    #[serde(default)]
    pub spectator_chat: bool,
    /// The time control: `"off"` (the default), `"relaxed"`, `"normal"`, `"blitz"`, or
    /// `{"preset": …, "move": s, "bank": s, "refill": s, "grace": s}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<serde_json::Value>,
    /// People only: bot accounts may not sit (`docs/bot-api.md`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub people_only: bool,
    /// Listed in the public lobby, where anybody may take a free seat without the invite
    /// link (the default, `false`, is a table by link only).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub public: bool,
    /// The host's name, shown in the lobby's list for a public table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A practice table: a seated player may ask for hints on his turn; never rated, and
    /// marked so in its summary and record.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub practice: bool,
    /// A rated table (`docs/ratings.md`): a standard preset unchanged, with a clock; only
    /// signed-in accounts sit, all people or all bot accounts, and the game's end changes
    /// their ratings.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
}

/// The answer to `POST /api/tables`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Created {
    /// The table id.
    pub id: String,
    /// Proves the host.
    pub host_token: String,
    /// The link that lets its holder take a seat in the lobby: the table's page with the
    /// invite key in its fragment (`/t/{id}#invite=KEY`).
    pub invite: String,
    /// The link that only watches (`/t/{id}?watch`): it lacks the invite key.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub watch: String,
    /// The new table's summary.
    pub table: Summary,
}

impl Created {
    /// The invite key the invite link carries (after `#invite=`), for [`Claim::invite`].
    #[must_use]
    pub fn invite_key(&self) -> Option<&str> {
        self.invite.split_once("#invite=").map(|(_, key)| key)
    }
}

/// `POST /api/tables/{id}/seats`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// The player's name.
    pub name: String,
    /// A particular seat, or the first free one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// The invite key from the invite link, required in the lobby unless the host claims.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

/// The answer to a claim.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claimed {
    /// The seat taken.
    pub seat: u8,
    /// Proves the seat.
    pub token: String,
}

/// The answer to `POST /api/tables/{id}/leave`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Left {
    /// Always `true`.
    pub left: bool,
}

/// The answer to `GET /api/tables/{id}/invite`: the host's invite link again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Invite {
    /// The table's page with the invite key in its fragment (`/t/{id}#invite=KEY`).
    pub invite: String,
}

/// The answer to `POST /api/tables/{id}/rematch/seat`: the seat a rematch kept for its
/// player, taken at the new table. (The fields are in alphabetical order, the order the
/// answer has always had on the wire.)
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RematchSeated {
    /// The seat at the new table.
    pub seat: u8,
    /// The new table's id.
    pub table: String,
    /// Proves the seat there.
    pub token: String,
}

/// The answer to `GET /health`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Health {
    /// Always `"ok"`.
    pub status: String,
    /// The tables this node holds in memory.
    pub tables: usize,
}

/// The answer to `GET /api/presets`: every preset's profile (`pref_core::Profile`'s JSON
/// form) by its name, the names in alphabetical order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Presets(pub std::collections::BTreeMap<String, serde_json::Value>);

/// `POST /api/tables/{id}/seats/{seat}/bot`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatBot {
    /// How strong the bot plays.
    pub level: BotLevel,
}

/// Every HTTP error's body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiErrorBody {
    /// The kind (`no_table`, `forbidden`, …).
    pub error: String,
    /// In plain words.
    pub message: String,
}

/// `POST /api/profiles`: a host saves his club's rules under a name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveProfile {
    /// The name the start page shows (1 to 60 characters).
    pub name: String,
    /// A preset name or `{"preset": …, option: value}`, as for a table.
    pub profile: serde_json::Value,
}

/// A saved profile: the answer to `POST /api/profiles` and `GET /api/profiles/{id}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedProfile {
    /// The profile's id: 32 hex digits.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The preset it starts from.
    pub preset: String,
    /// `{"preset": …}` with the options that differ from that preset: what a table's
    /// `profile` takes.
    pub profile: serde_json::Value,
    /// Every option with its value.
    pub resolved: serde_json::Value,
    /// The start page with this profile chosen, to share.
    pub link: String,
}
