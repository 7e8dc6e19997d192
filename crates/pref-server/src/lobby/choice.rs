//! What a seek asks for: house rules (a preset or a saved profile's options) and a clock
//! preset, checked as a table would check them, and the key seekers pair by (two seeks
//! pair when their resolved profiles and clocks are equal). Also what the list shows of a
//! public table: its nearest preset and the options that differ.

use pref_core::Profile;
use pref_protocol::clock::TimeControl;
use serde_json::Value;

use super::store::PublicRow;
use crate::api::error::ApiError;
use crate::table::machine::nearest_preset;

/// A checked choice of quick pairing.
#[derive(Clone, Debug)]
pub(super) struct Choice {
    /// Seeks with equal keys pair.
    pub key: String,
    /// The preset the profile is exactly, for the counts; `None` for other house rules.
    pub label: Option<String>,
    /// The resolved profile.
    pub profile: Profile,
    /// `off`, `relaxed`, `normal` or `blitz`.
    pub clock: String,
}

/// The clock presets a seek may ask for (`off`: no clock).
const CLOCKS: [&str; 4] = ["off", "relaxed", "normal", "blitz"];

/// The preset `profile` is exactly, if any.
fn exact_preset(profile: &Profile) -> Option<String> {
    let name = nearest_preset(profile)?;
    let preset = Profile::preset(&name)?;
    profile.overrides_from(&preset).is_empty().then_some(name)
}

/// Checks a seek's house rules and clock.
///
/// # Errors
/// [`ApiError::Profile`] for house rules a table would refuse; [`ApiError::BadRequest`]
/// for a clock other than the presets.
pub(super) fn resolve(profile: &Value, clock: &str) -> Result<Choice, ApiError> {
    let profile = Profile::from_json(profile)?;
    if !CLOCKS.contains(&clock) {
        return Err(ApiError::BadRequest(format!(
            "a seek's clock is one of {}",
            CLOCKS.join(", ")
        )));
    }
    let label = exact_preset(&profile);
    let key = format!("{clock}/{}", profile.to_json());
    Ok(Choice {
        key,
        label,
        profile,
        clock: clock.to_owned(),
    })
}

/// Makes `choice` a rated one (`docs/ratings.md`) for a seeker (signed in, a bot account):
/// its key pairs it only with rated seeks of the same family (`rated:FAMILY/…`, which [`rated_family`] reads back).
///
/// # Errors
/// [`ApiError::RatedGuest`] for a seeker not signed in, [`ApiError::Rated`] for a bot
/// account or a seek that lets bots fill the table, [`ApiError::NotRatable`] for house
/// rules other than a standard preset or no clock.
pub(super) fn rated(
    choice: &mut Choice,
    (signed_in, bot_account): (bool, bool),
    bots: bool,
) -> Result<(), ApiError> {
    if !signed_in {
        return Err(ApiError::RatedGuest);
    }
    if bot_account || bots {
        return Err(ApiError::Rated(
            "a rated seek pairs signed-in people only, without bots".into(),
        ));
    }
    let family = choice
        .label
        .as_deref()
        .and_then(pref_rating::Family::of_preset)
        .ok_or_else(|| {
            ApiError::NotRatable("a rated seek asks for a standard preset unchanged".into())
        })?;
    if choice.clock == "off" {
        return Err(ApiError::NotRatable("a rated seek needs a clock".into()));
    }
    choice.key = format!("rated:{}/{}", family.as_str(), choice.key);
    Ok(())
}

/// The mark of a bot account's choice: bot accounts pair with bot accounts only.
const BOTS: &str = "bots:";

/// Puts a bot account's seek in the bots' own line (its key marked [`BOTS`]), apart from
/// people's: a person's seek never pairs with a bot account's (`docs/bot-api.md`,
/// "Seeking in the lobby"). `bots_only` says so explicitly; only a bot account may say it.
///
/// # Errors
/// [`ApiError::BadRequest`] for `bots_only` from a seeker who is no bot account.
pub(super) fn bots_line(
    choice: &mut Choice,
    bot_account: bool,
    bots_only: bool,
) -> Result<(), ApiError> {
    if bots_only && !bot_account {
        return Err(ApiError::BadRequest(
            "only a bot account signed in by its API token may seek bots_only".into(),
        ));
    }
    if bot_account {
        choice.key = format!("{BOTS}{}", choice.key);
    }
    Ok(())
}

/// Whether `key` is a choice of bot accounts' seeks ([`bots_line`]).
pub(super) fn is_bots_line(key: &str) -> bool {
    key.starts_with(BOTS)
}

/// The family a rated choice's key names (`None` for a choice not rated).
pub(super) fn rated_family(key: &str) -> Option<pref_rating::Family> {
    key.strip_prefix("rated:")
        .and_then(|rest| rest.split('/').next())
        .and_then(pref_rating::Family::parse)
}

/// The time control of clock preset `clock` (`None` for `off`).
///
/// # Errors
/// [`ApiError::Profile`] for an unknown preset.
pub(super) fn control(clock: &str) -> Result<Option<TimeControl>, ApiError> {
    Ok(crate::table::machine::clock::parse(Some(&Value::String(
        clock.to_owned(),
    )))?)
}

/// What the lobby's list shows of public table `id` (row `no`).
pub(super) fn public_row(
    (id, no): (&str, i64),
    profile: &Profile,
    clock: Option<&TimeControl>,
    host: Option<String>,
    now_ms: i64,
) -> PublicRow {
    let preset = nearest_preset(profile);
    let differs = preset
        .as_deref()
        .and_then(Profile::preset)
        .map(|p| profile.overrides_from(&p))
        .unwrap_or_default();
    PublicRow {
        id: id.to_owned(),
        no,
        host,
        preset,
        differs: Value::Object(differs).to_string(),
        clock: clock.map(|c| c.preset.clone()),
        players: profile.players(),
        created_ms: now_ms,
        watchers: 0,
        state: "lobby".to_owned(),
        rated: None,
        preview: None,
    }
}
