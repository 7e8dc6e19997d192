//! Who may open and sit at a rated table (`docs/ratings.md`): the table's standard preset
//! unchanged with a clock, and at it only signed-in accounts, each at one rated table at a
//! time (claimed by the seat's write, `store/rated.rs`). The table's own rules (one kind of
//! account, no house bots, the preset fixed) are the machine's (`table/machine/rated.rs`).

use pref_core::Profile;
use pref_rating::Family;
use serde_json::Value;

use crate::api::error::ApiError;

/// The family of a table asked for as rated: `request` (the profile as the request wrote
/// it) must name a standard preset with no key changed, and the table needs a clock and may
/// not be a practice table.
///
/// # Errors
/// [`ApiError::NotRatable`] saying which.
pub(crate) fn family_for(
    request: &Value,
    profile: &Profile,
    clock: bool,
    practice: bool,
) -> Result<Family, ApiError> {
    let name = match request {
        Value::String(name) => Some(name.as_str()),
        Value::Object(o) if o.len() == 1 => o.get("preset").and_then(Value::as_str),
        _ => None,
    };
    let family = name
        .and_then(|n| Family::of_preset(n).filter(|_| Profile::preset(n).as_ref() == Some(profile)))
        .ok_or_else(|| {
            ApiError::NotRatable(
                "a rated table plays a standard preset (sochi, leningrad, rostov, sochi4) with no option changed".into(),
            )
        })?;
    if !clock {
        return Err(ApiError::NotRatable("a rated table needs a clock".into()));
    }
    if practice {
        return Err(ApiError::NotRatable(
            "a practice table is never rated".into(),
        ));
    }
    Ok(family)
}

/// Whether `account` (`None` for a guest) may take a seat at a rated table: a signed-in
/// account. That it holds no seat at another rated table is claimed by the seat's write
/// (`store/rated.rs`), in one transaction with the seat, so two requests (or two nodes)
/// never give it two.
///
/// # Errors
/// [`ApiError::RatedGuest`] for a guest.
pub(crate) fn may_sit(account: Option<i64>) -> Result<(), ApiError> {
    account.map(|_| ()).ok_or(ApiError::RatedGuest)
}

/// Refuses a rated seek of `account` while it holds a seat at a rated table (the lobby's
/// answer at once; the pairing's seat write claims it again, atomically).
///
/// # Errors
/// [`ApiError::RatedElsewhere`] for a seat held, [`ApiError::Internal`] if the database
/// refuses.
pub(crate) async fn may_seek(store: &crate::store::Store, account: i64) -> Result<(), ApiError> {
    if store.rated_seat_of(account).await?.is_some() {
        return Err(ApiError::RatedElsewhere);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_a_standard_preset_unchanged_with_a_clock_is_rated() {
        let sochi = Profile::preset("sochi").unwrap();
        assert_eq!(
            family_for(&json!("sochi"), &sochi, true, false).unwrap(),
            Family::Sochi
        );
        assert_eq!(
            family_for(&json!({"preset": "sochi"}), &sochi, true, false).unwrap(),
            Family::Sochi
        );
        let four = Profile::preset("sochi4").unwrap();
        assert_eq!(
            family_for(&json!("sochi4"), &four, true, false).unwrap(),
            Family::Four
        );
        let changed = json!({"preset": "sochi", "pool_target": 10});
        let short = Profile::from_json(&changed).unwrap();
        for (request, profile, clock, practice, code) in [
            (&changed, &short, true, false, "not_ratable"),
            (&json!("sochi"), &sochi, false, false, "not_ratable"),
            (&json!("sochi"), &sochi, true, true, "not_ratable"),
        ] {
            let e = family_for(request, profile, clock, practice).unwrap_err();
            assert_eq!(e.code().1, code, "{e}");
        }
    }
}
