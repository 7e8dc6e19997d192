//! Accounts: a player who is the same person tomorrow, on any device. Optional: a guest
//! plays by link exactly as before, and an account is never needed to play.
//!
//! - `keys.rs`: what the secrets are made of and what the database keeps of them (a
//!   verifier, never a password; hashes of session tokens; seat tokens sealed under a key
//!   that only a password or a live session opens).
//! - `store.rs`: the rows (accounts, sessions, seats tied to accounts, games counted).
//! - `session.rs`: the session cookie, the signed-in extractor and the Origin check that
//!   every state-changing request authenticated by the cookie passes.
//! - `http.rs`: signing up, in and out, `/api/me` and its changes, attaching guest seats and
//!   fetching a seat's token for another device.
//! - `players.rs`: a player's page (`/api/players/{name}`): games, games in progress and
//!   statistics, which the rules core computes (`pref_core::stats`) once per finished game
//!   and the database sums per player.
//!
//! - `bot_api.rs` and `bot_store.rs`: bot accounts, their API tokens and the seats hosts
//!   keep for them (`docs/bot-api.md`).
//!
//! The table's seat claim calls [`for_claim`] and [`tie`]: a signed-in player sits under his
//! user name, and his seat is tied to his account.

pub(crate) mod bot_api;
mod bot_store;
pub(crate) mod http;
mod keys;
mod players;
pub(crate) mod rated;
pub(crate) mod ratings;
mod session;
mod store;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use axum::http::HeaderMap;
use governor::clock::DefaultClock;
use governor::state::keyed::HashMapStateStore;
use governor::{Quota, RateLimiter};
use tokio::sync::Semaphore;

use crate::api::budgets::ClientBudget;
use crate::api::error::ApiError;
pub(crate) use crate::config::Accounts as Settings;
use crate::config::{Config, Security};
use crate::ids::{Secret, TokenHash};
use crate::store::{Store, now};
use crate::table::registry::Registry;
pub(crate) use session::SignedIn;

/// The longest user name, in characters (a seat's name's limit).
pub(crate) const NAME_MAX_CHARS: usize = 32;

/// Names nobody may take: they would pass for the server, its staff, a bot or nobody.
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "anonymous",
    "api",
    "bot",
    "deleted",
    "deleted player",
    "guest",
    "host",
    "me",
    "moderator",
    "null",
    "pref",
    "preferans",
    "root",
    "server",
    "support",
    "system",
    "undefined",
];

/// A user name's key: case-folded, inner runs of white space as one space. Two names with
/// the same key are the same name.
pub(crate) fn folded(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A user name as it may be taken: a seat's name's characters (`machine::checked_name`:
/// 1 to 32, no control, bidi or zero-width character), none of the characters that would
/// break its page's address (`/`, `\`, `?`, `#`, `%`), and not reserved (a name that
/// starts as a bot's is, whatever follows: "Bot 3").
///
/// # Errors
/// [`ApiError::BadRequest`] saying which rule the name breaks.
pub(crate) fn check_name(name: &str) -> Result<String, ApiError> {
    let name = crate::table::machine::checked_name(name, NAME_MAX_CHARS).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "a user name is 1 to {NAME_MAX_CHARS} characters without control, bidi or zero-width characters"
        ))
    })?;
    if name.contains(['/', '\\', '?', '#', '%']) {
        return Err(ApiError::BadRequest(
            "a user name may not hold / \\ ? # or %".into(),
        ));
    }
    let key = folded(&name);
    let bot_like = key
        .strip_prefix("bot")
        .is_some_and(|rest| rest.trim().chars().all(|c| c.is_ascii_digit()));
    if RESERVED.contains(&key.as_str()) || bot_like {
        return Err(ApiError::BadRequest(format!(
            "the name {name:?} is reserved"
        )));
    }
    Ok(name)
}

/// The accounts' part of the node: its settings, budgets and the lane of password hashes.
#[derive(Debug)]
pub(crate) struct Accounts {
    /// The database.
    pub store: Store,
    /// The tables (a finished game's record is read through them to count it).
    pub tables: Arc<Registry>,
    /// The `[accounts]` settings.
    pub settings: Settings,
    /// Whose pages may act for a signed-in player (the sockets' Origin policy).
    pub security: Security,
    /// Accounts made, per client.
    signups: ClientBudget,
    /// Password checks (sign-ins, password changes, deletions), per client.
    signins: ClientBudget,
    /// Password checks per user name, whoever asks.
    per_name: RateLimiter<String, HashMapStateStore<String>, DefaultClock>,
    /// Password hashes computed at once.
    hashing: Semaphore,
    /// Requests per API token (`bot_api.rs`).
    per_token: RateLimiter<i64, HashMapStateStore<i64>, DefaultClock>,
    /// API tokens revoked on this node, for the sockets opened with them.
    revoked: tokio::sync::broadcast::Sender<i64>,
}

impl Accounts {
    /// The node's accounts with the settings of `config`.
    pub(crate) fn new(store: Store, tables: Arc<Registry>, config: &Config) -> Accounts {
        let s = config.accounts.clone();
        let per_minute = std::num::NonZeroU32::new(s.signins_per_account_per_minute.max(1))
            .unwrap_or(std::num::NonZeroU32::MIN);
        let burst = std::num::NonZeroU32::new(s.signin_burst_per_account.max(1))
            .unwrap_or(std::num::NonZeroU32::MIN);
        Accounts {
            store,
            tables,
            signups: ClientBudget::per_minute(
                "accounts made",
                s.signups_per_ip_per_minute,
                s.signup_burst_per_ip,
            ),
            signins: ClientBudget::per_minute(
                "sign-in attempts",
                s.signins_per_ip_per_minute,
                s.signin_burst_per_ip,
            ),
            per_name: RateLimiter::hashmap(Quota::per_minute(per_minute).allow_burst(burst)),
            hashing: Semaphore::new(s.hashes_at_once.max(1)),
            per_token: RateLimiter::hashmap(
                Quota::per_minute(
                    std::num::NonZeroU32::new(s.bot_requests_per_token_per_minute.max(1))
                        .unwrap_or(std::num::NonZeroU32::MIN),
                )
                .allow_burst(
                    std::num::NonZeroU32::new(s.bot_request_burst_per_token.max(1))
                        .unwrap_or(std::num::NonZeroU32::MIN),
                ),
            ),
            revoked: tokio::sync::broadcast::channel(64).0,
            security: config.security.clone(),
            settings: s,
        }
    }

    /// Argon2id's costs for new hashes.
    fn cost(&self) -> keys::Cost {
        keys::Cost {
            memory_kib: self.settings.argon2_memory_kib,
            iterations: self.settings.argon2_iterations,
            lanes: self.settings.argon2_lanes,
        }
    }

    /// Spends one password check of the user name `folded`, whether or not an account has
    /// it (a refusal must not tell).
    ///
    /// # Errors
    /// [`ApiError::RateLimited`] when the name's budget is spent.
    fn spend_name(&self, folded: &str) -> Result<(), ApiError> {
        if self.per_name.len() > 4096 {
            self.per_name.retain_recent();
        }
        self.per_name.check_key(&folded.to_owned()).map_err(|_| {
            ApiError::RateLimited(
                "too many sign-in attempts on this name; try again in a minute".into(),
            )
        })
    }

    /// Runs `work` (a password hash) on the blocking pool, at most
    /// `accounts.hashes_at_once` at a time.
    ///
    /// # Errors
    /// [`ApiError::Internal`] if the task failed.
    async fn hash<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let _permit = self
            .hashing
            .acquire()
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))
    }
}

/// The signed-in player taking a seat, if the request carries a session cookie: he sits
/// under his user name. A cookie on a request whose `Origin` is not this site's is refused
/// (it ties a seat to the account), and an expired or unknown cookie counts as none.
///
/// # Errors
/// [`ApiError::Forbidden`] for a cookie from a foreign page; [`ApiError::Internal`] if the
/// database refuses.
pub(crate) async fn for_claim(
    accounts: &Accounts,
    headers: &HeaderMap,
) -> Result<Option<SignedIn>, ApiError> {
    let Some(signed) = session::signed_in(accounts, headers).await? else {
        return Ok(None);
    };
    session::same_site(accounts, headers)?;
    Ok(Some(signed))
}

/// The seat the signed-in player's account holds at `table` and its token, opened with the
/// session's key: given only while the account still holds the seat.
///
/// # Errors
/// [`ApiError::Conflict`] for a table where the account holds no seat, or whose seat has
/// been freed; [`ApiError::Internal`] if the database refuses.
pub(crate) async fn held_seat(
    accounts: &Accounts,
    signed: &SignedIn,
    table: &Secret,
) -> Result<(u8, Secret), ApiError> {
    let nothing = || ApiError::Conflict("this account holds no seat at this table".into());
    let link = accounts
        .store
        .seat_link(signed.account.no, table)
        .await?
        .ok_or_else(nothing)?;
    let held = accounts.store.seat_held(table, &link.token_hash).await?;
    if held != Some(link.seat) {
        return Err(ApiError::Conflict(
            "this account's seat at this table has been freed".into(),
        ));
    }
    let token = link
        .sealed
        .as_deref()
        .and_then(|s| keys::open_seal(&signed.key, s, &link.token_hash))
        .ok_or_else(nothing)?;
    Ok((link.seat, token))
}

/// Ties `seat` of `table`, just taken with `token`, to the signed-in player's account.
///
/// # Errors
/// [`ApiError::Internal`] if the database refuses.
pub(crate) async fn tie(
    accounts: &Accounts,
    signed: &SignedIn,
    table: &Secret,
    seat: u8,
    token: &Secret,
) -> Result<(), ApiError> {
    tie_with(
        accounts,
        (signed.account.no, &signed.key),
        table,
        seat,
        token,
    )
    .await
}

/// Ties `seat` of `table`, just taken with `token`, to account `no` whose key is `key`.
///
/// # Errors
/// [`ApiError::Internal`] if the database refuses.
async fn tie_with(
    accounts: &Accounts,
    (no, key): (i64, &keys::Key),
    table: &Secret,
    seat: u8,
    token: &Secret,
) -> Result<(), ApiError> {
    let sealed = keys::seal(key, token);
    accounts
        .store
        .tie_seat(no, table, seat, &TokenHash::of(token), &sealed, now())
        .await?;
    Ok(())
}
