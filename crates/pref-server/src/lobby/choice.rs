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
    }
}
