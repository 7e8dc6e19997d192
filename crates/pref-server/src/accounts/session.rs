//! The session cookie and who it signs in.
//!
//! The cookie `pref_session` holds the session's 32 random bytes as hex, `HttpOnly` (no
//! script reads it), `SameSite=Lax` (another site's page does not send it with its own
//! requests), `Path=/`, for `accounts.session_days`, and `Secure` when the node is told it is
//! reached over TLS (`accounts.behind_tls`). The database finds the session by the token's
//! hash, so any node of a cluster knows it.
//!
//! A state-changing request authenticated by the cookie must come from this site's page:
//! its `Origin` is present and allowed by the sockets' policy (`api::origin::origin_allowed`: the
//! host itself where the host is an address or `localhost`, and the listed origins), which
//! stops another site (or a rebound DNS name) from acting for a signed-in player.

use std::sync::Arc;

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};

use super::keys::{Key, SessionToken};
use super::store::AccountRow;
use super::{Accounts, now};
use crate::api::error::ApiError;

/// The cookie's name.
pub(crate) const COOKIE: &str = "pref_session";

/// A request's signed-in player.
#[derive(Clone, Debug)]
pub(crate) struct SignedIn {
    /// The account.
    pub account: AccountRow,
    /// The session's token (from the cookie).
    pub token: SessionToken,
    /// The account's key, unwrapped by the session.
    pub key: Key,
}

/// The session token in the request's cookies, if one reads.
fn cookie(headers: &HeaderMap) -> Option<SessionToken> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().strip_prefix(COOKIE)?.strip_prefix('='))
        .find_map(|v| SessionToken::parse(v.trim()))
}

/// The signed-in player of a request: `None` without a cookie, or with one no live session
/// has.
///
/// # Errors
/// [`ApiError::Internal`] if the database refuses.
pub(crate) async fn signed_in(
    accounts: &Accounts,
    headers: &HeaderMap,
) -> Result<Option<SignedIn>, ApiError> {
    let Some(token) = cookie(headers) else {
        return Ok(None);
    };
    let Some(row) = accounts.store.session(&token.stored(), now()).await? else {
        return Ok(None);
    };
    let Some(key) = token.unwrap(&row.vault) else {
        return Ok(None);
    };
    Ok(Some(SignedIn {
        account: row.account,
        token,
        key,
    }))
}

/// Refuses a request whose `Origin` is missing or not this site's page.
///
/// # Errors
/// [`ApiError::Forbidden`].
pub(crate) fn same_site(accounts: &Accounts, headers: &HeaderMap) -> Result<(), ApiError> {
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    let origin = text(header::ORIGIN);
    if origin.is_some()
        && crate::api::origin::origin_allowed(&accounts.security, origin, text(header::HOST))
    {
        Ok(())
    } else {
        Err(ApiError::Forbidden(
            "a signed-in player's request must come from this site's page (its Origin is missing or not allowed)",
        ))
    }
}

/// Refuses a request from another site's page; one without `Origin` (not a page) passes.
///
/// # Errors
/// [`ApiError::Forbidden`].
pub(crate) fn not_foreign(accounts: &Accounts, headers: &HeaderMap) -> Result<(), ApiError> {
    if headers.contains_key(header::ORIGIN) {
        same_site(accounts, headers)
    } else {
        Ok(())
    }
}

/// The `Set-Cookie` value that signs the browser in with `token`.
pub(crate) fn set_cookie(accounts: &Accounts, token: &SessionToken) -> String {
    let secure = if accounts.settings.behind_tls {
        "; Secure"
    } else {
        ""
    };
    format!(
        "{COOKIE}={}; HttpOnly; SameSite=Lax; Path=/; Max-Age={}{secure}",
        token.expose(),
        accounts.settings.session_secs()
    )
}

/// The `Set-Cookie` value that signs the browser out.
pub(crate) fn clear_cookie(accounts: &Accounts) -> String {
    let secure = if accounts.settings.behind_tls {
        "; Secure"
    } else {
        ""
    };
    format!("{COOKIE}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0{secure}")
}

/// Extractor: the signed-in player; `401 not_signed_in` without one.
impl<S> FromRequestParts<S> for SignedIn
where
    Arc<Accounts>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<SignedIn, ApiError> {
        let accounts = Arc::<Accounts>::from_ref(state);
        signed_in(&accounts, &parts.headers)
            .await?
            .ok_or(ApiError::NotSignedIn)
    }
}

/// Extractor: the signed-in player of a state-changing request, whose `Origin` must be this
/// site's page; `401` without a session, `403` from another page.
#[derive(Clone, Debug)]
pub(crate) struct Acting(pub SignedIn);

impl<S> FromRequestParts<S> for Acting
where
    Arc<Accounts>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Acting, ApiError> {
        let signed = SignedIn::from_request_parts(parts, state).await?;
        same_site(&Arc::<Accounts>::from_ref(state), &parts.headers)?;
        Ok(Acting(signed))
    }
}
