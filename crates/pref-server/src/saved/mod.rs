//! Saved profiles: a host sets his club's rules once, under a name, and shares them by link
//! (`/?profile=ID` opens the start page with them chosen). `POST /api/profiles` saves one and
//! `GET /api/profiles/{id}` reads it back (`docs/protocol.md`).
//!
//! A profile is checked by the core like a table's before it is stored, and stored in its
//! canonical form: `{"preset": …}` with only the options that differ from that preset, the
//! request a table takes. The rows live in their own `profiles` table, in SQLite or
//! PostgreSQL alike; how many may be saved is a setting (`limits.max_profiles`), as the number
//! of tables is. One client address may save `limits.profiles_per_ip_per_minute` (the
//! budget in `api/budgets.rs`), and a profile nobody read for `limits.profile_expire_days` is
//! deleted ([`expiry`]), so the cap cannot stay full. A name follows the seat names'
//! character rules (`machine::checked_name`: no control, bidi or zero-width characters).

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use pref_core::{Profile, ProfileError};
use pref_protocol::{SaveProfile, SavedProfile};
use serde_json::{Map, Value};
use sqlx::Row;

use crate::api::budgets::Budgets;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::config::Config;
use crate::ids::Secret;
use crate::store::{Pool, Store, StoreError, now, with_pool};

/// Longest name of a saved profile, in characters.
pub(crate) const NAME_MAX_CHARS: usize = 60;

/// A profile read is written down at most this often (seconds): reading stays a read.
const USE_EVERY_SECS: i64 = 86_400;

/// How often the expiry of unread profiles runs (and once at start).
const EXPIRE_EVERY: Duration = Duration::from_secs(3600);

/// The saved profiles' rows in the server's database.
impl Store {
    /// How many profiles are saved.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub async fn profile_count(&self) -> Result<i64, StoreError> {
        Ok(with_pool!(self.pool(), pool => {
            sqlx::query_scalar("SELECT COUNT(*) FROM profiles").fetch_one(pool).await?
        }))
    }

    /// Saves a checked profile request under `name` with id `id`.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub async fn save_profile(
        &self,
        id: &Secret,
        name: &str,
        profile: &Value,
    ) -> Result<(), StoreError> {
        let insert = "INSERT INTO profiles (id, name, profile, used) VALUES ($1, $2, $3, $4)";
        let profile = profile.to_string();
        with_pool!(self.pool(), pool => {
            sqlx::query(insert)
                .bind(id.expose())
                .bind(name)
                .bind(&profile)
                .bind(now())
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// The saved profile `id`: its name and request, or `None`. The read is written down
    /// as its use (at most once a day).
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses or the stored request does not parse.
    pub async fn saved_profile(&self, id: &Secret) -> Result<Option<(String, Value)>, StoreError> {
        let select = "SELECT name, profile, used FROM profiles WHERE id = $1";
        let touch = "UPDATE profiles SET used = $2 WHERE id = $1";
        let at = now();
        let row = with_pool!(self.pool(), pool => {
            let row = sqlx::query(select)
                .bind(id.expose())
                .fetch_optional(pool)
                .await?
                .map(|r| (r.get::<String, _>(0), r.get::<String, _>(1), r.get::<i64, _>(2)));
            if let Some((_, _, used)) = &row
                && at.saturating_sub(*used) >= USE_EVERY_SECS
            {
                sqlx::query(touch).bind(id.expose()).bind(at).execute(pool).await?;
            }
            row
        });
        let Some((name, text, _)) = row else {
            return Ok(None);
        };
        let profile = serde_json::from_str(&text).map_err(|e| StoreError::Damaged {
            table: 0,
            why: format!("saved profile: {e}"),
        })?;
        Ok(Some((name, profile)))
    }

    /// Deletes every profile nobody read since `cutoff` (seconds since 1970); returns how
    /// many.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub async fn expire_profiles(&self, cutoff: i64) -> Result<u64, StoreError> {
        let delete = "DELETE FROM profiles WHERE used < $1";
        Ok(with_pool!(self.pool(), pool => {
            sqlx::query(delete).bind(cutoff).execute(pool).await?.rows_affected()
        }))
    }
}

/// Expires unread profiles at once and then every hour (`limits.profile_expire_days`).
pub(crate) fn expiry(store: Store, config: &Config) -> tokio::task::JoinHandle<()> {
    let keep = config.limits.profile_expire_secs();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(EXPIRE_EVERY);
        loop {
            tick.tick().await;
            match store.expire_profiles(now().saturating_sub(keep)).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(profiles = n, "unread saved profiles expired"),
                Err(e) => tracing::warn!(error = %e, "the expiry of saved profiles failed"),
            }
        }
    })
}

/// A name as a host may save it: trimmed, 1 to [`NAME_MAX_CHARS`] characters, none of the
/// characters a seat's name may not hold (control, bidi and zero-width characters).
///
/// # Errors
/// [`ApiError::BadRequest`] saying what is wrong.
pub(crate) fn check_name(name: &str) -> Result<String, ApiError> {
    crate::table::machine::checked_name(name, NAME_MAX_CHARS).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "a profile's name is 1 to {NAME_MAX_CHARS} characters without control, bidi or zero-width characters"
        ))
    })
}

/// The preset a profile request starts from, and the request in canonical form.
///
/// # Errors
/// [`ProfileError`] naming the key, as for a table's profile.
pub(crate) fn canonical(request: &Value) -> Result<(String, Profile, Value), ProfileError> {
    let profile = Profile::from_json(request)?;
    let preset = match request {
        Value::String(name) => name.clone(),
        Value::Object(map) => map
            .get("preset")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        _ => String::new(),
    };
    let base =
        Profile::preset(&preset).ok_or_else(|| ProfileError::UnknownPreset(preset.clone()))?;
    let mut map = Map::new();
    map.insert("preset".to_owned(), Value::String(preset.clone()));
    map.extend(profile.overrides_from(&base));
    Ok((preset, profile, Value::Object(map)))
}

/// What the saved-profile routes need of the server's state (taken from it by
/// `FromRef`, so that this module does not depend on the router's).
#[derive(Clone, Debug)]
pub(crate) struct SavedState {
    /// The budgets of each client address.
    pub budgets: Arc<Budgets>,
    /// The database.
    pub store: Store,
    /// The limits (`max_profiles`).
    pub config: Arc<Config>,
    /// `http://host:port`, for the profile's link.
    pub base_url: String,
}

fn answer(
    s: &SavedState,
    id: &Secret,
    name: String,
    request: &Value,
) -> Result<SavedProfile, ApiError> {
    let (preset, profile, request) = canonical(request)?;
    let id = id.expose();
    Ok(SavedProfile {
        link: format!("{}/?profile={id}", s.base_url),
        id,
        name,
        preset,
        profile: request,
        resolved: profile.to_json(),
    })
}

/// `POST /api/profiles`.
pub(crate) async fn create(
    State(s): State<SavedState>,
    client: Client,
    bytes: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let req: SaveProfile = crate::api::body(&bytes)?;
    let name = check_name(&req.name)?;
    let (_, _, request) = canonical(&req.profile)?;
    s.budgets.profiles.spend(client)?;
    let max = i64::try_from(s.config.limits.max_profiles).unwrap_or(i64::MAX);
    if s.store.profile_count().await? >= max {
        return Err(ApiError::Full);
    }
    let id = Secret::random();
    s.store.save_profile(&id, &name, &request).await?;
    tracing::info!("profile saved");
    let saved = answer(&s, &id, name, &request)?;
    Ok((StatusCode::CREATED, Json(saved)).into_response())
}

/// `GET /api/profiles/{id}`.
pub(crate) async fn fetch(
    State(s): State<SavedState>,
    Path(id): Path<String>,
) -> Result<Json<SavedProfile>, ApiError> {
    let id = Secret::parse(&id).ok_or(ApiError::NoProfile)?;
    let (name, request) = s
        .store
        .saved_profile(&id)
        .await?
        .ok_or(ApiError::NoProfile)?;
    Ok(Json(answer(&s, &id, name, &request)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_form_keeps_only_the_differences() {
        let (preset, _, request) =
            canonical(&json!({"preset": "leningrad", "surrender": 3, "whist_scale": 2}))
                .expect("valid");
        assert_eq!(preset, "leningrad");
        // Leningrad's whist_scale is 2 already.
        assert_eq!(request, json!({"preset": "leningrad", "surrender": 3}));
        let (preset, _, request) = canonical(&json!("rostov")).expect("valid");
        assert_eq!(
            (preset.as_str(), request),
            ("rostov", json!({"preset": "rostov"}))
        );
    }

    #[test]
    fn bad_profiles_name_the_key() {
        let e = canonical(&json!({"preset": "sochi", "surrender": 4})).expect_err("bad value");
        assert!(e.to_string().contains("surrender"), "{e}");
        let e = canonical(&json!({"preset": "sochi", "no_such": 1})).expect_err("bad key");
        assert!(e.to_string().contains("no_such"), "{e}");
    }

    #[tokio::test]
    async fn a_profile_nobody_read_for_its_time_expires_and_a_read_one_stays() {
        let dir = std::env::temp_dir().join(format!("pref-saved-{}", Secret::random().expose()));
        let store = Store::open(&dir).await.unwrap();
        let (old, read) = (Secret::random(), Secret::random());
        let request = serde_json::json!({"preset": "sochi"});
        store.save_profile(&old, "Old", &request).await.unwrap();
        store.save_profile(&read, "Read", &request).await.unwrap();
        let day = USE_EVERY_SECS;
        // Written down as read two days ago and today.
        for (id, at) in [(old, now() - 2 * day), (read, now() - 2 * day)] {
            with_pool!(store.pool(), pool => {
                sqlx::query("UPDATE profiles SET used = $2 WHERE id = $1")
                    .bind(id.expose()).bind(at).execute(pool).await.unwrap();
            });
        }
        // A read writes its use down: it is more than a day old.
        assert!(store.saved_profile(&read).await.unwrap().is_some());
        assert_eq!(store.expire_profiles(now() - day).await.unwrap(), 1);
        assert_eq!(store.saved_profile(&old).await.unwrap(), None);
        assert_eq!(
            store.saved_profile(&read).await.unwrap(),
            Some(("Read".to_owned(), request))
        );
        assert_eq!(store.profile_count().await.unwrap(), 1);
    }

    #[test]
    fn names_are_checked() {
        assert_eq!(check_name("  Club 7 ").expect("fine"), "Club 7");
        assert!(check_name("   ").is_err());
        assert!(check_name(&"x".repeat(NAME_MAX_CHARS + 1)).is_err());
        assert!(check_name("a\u{7}b").is_err());
        // The seat names' rules: bidi overrides and isolates, zero-width characters.
        for bad in [
            "Club\u{202E}7",
            "Club\u{2067}7",
            "Club\u{200B}7",
            "C\u{FEFF}lub",
        ] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
        assert!(check_name(&"я".repeat(NAME_MAX_CHARS)).is_ok());
    }
}
