//! Who may open and sit at a rated table (`docs/ratings.md`): the table's standard preset
//! unchanged with a clock, and at it only signed-in accounts, each at one rated table at a
//! time. The table's own rules (one kind of account, no house bots, the preset fixed) are the
//! machine's (`table/machine/rated.rs`).

use pref_core::Profile;
use pref_rating::Family;
use serde_json::Value;

use super::Accounts;
use crate::api::error::ApiError;
use crate::store::{Pool, with_pool};

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

/// Whether `account` (`None` for a guest) may take a seat at rated table `table` (its id):
/// a signed-in account not holding a seat at another rated table whose game goes on.
///
/// # Errors
/// [`ApiError::RatedGuest`] for a guest, [`ApiError::RatedElsewhere`] for a seat held at
/// another rated table in its lobby or its game, [`ApiError::Internal`] if the database
/// refuses.
pub(crate) async fn may_sit(
    accounts: &Accounts,
    account: Option<i64>,
    table: &str,
) -> Result<(), ApiError> {
    let account = account.ok_or(ApiError::RatedGuest)?;
    let sql = "SELECT COUNT(*) FROM account_seats a
               JOIN tables t ON t.id = a.table_id
               JOIN rated_tables r ON r.table_no = t.no
               JOIN seats s ON s.table_no = t.no AND s.seat = a.seat AND s.token = a.token_hash
               WHERE a.account_no = $1 AND a.table_id <> $2 AND t.state IN ('lobby', 'playing')";
    let held: i64 = with_pool!(accounts.store.pool(), pool => {
        sqlx::query_scalar(sql)
            .bind(account)
            .bind(table)
            .fetch_one(pool)
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?
    });
    if held > 0 {
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
