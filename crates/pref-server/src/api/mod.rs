//! What every route of the API shares, whichever layer serves it: the one error type and
//! its documented `{"error","message"}` shape (`error.rs`), the client's key behind trusted
//! proxies (`client.rs`), the connection caps (`conns.rs`), the rate budgets shared across
//! connections (`budgets.rs`), the Origin test pages pass (`origin.rs`), and the readers of a request's table id, bearer token and
//! JSON body (here).
//!
//! It sits below the tables, the cluster and the features, so that each of them answers
//! with these types while the edge (`edge/`), which assembles the router from them all,
//! stays on top.

pub(crate) mod budgets;
pub(crate) mod client;
pub(crate) mod conns;
pub(crate) mod error;
pub(crate) mod origin;

use axum::http::{HeaderMap, header};
use serde::de::DeserializeOwned;

use crate::ids::Secret;
use error::ApiError;

/// A table's id from a path: an id that does not parse names no table.
///
/// # Errors
/// [`ApiError::NoTable`] for text that is no table id.
pub(crate) fn table_id(id: &str) -> Result<Secret, ApiError> {
    Secret::parse(id).ok_or(ApiError::NoTable)
}

/// The bearer token of a request.
pub(crate) fn bearer(headers: &HeaderMap) -> Result<Secret, ApiError> {
    let value = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .ok_or(ApiError::Forbidden(
            "an Authorization: Bearer token is required",
        ))?;
    let token = value.strip_prefix("Bearer ").ok_or(ApiError::Forbidden(
        "an Authorization: Bearer token is required",
    ))?;
    Secret::parse(token.trim()).ok_or(ApiError::Forbidden("the token is malformed"))
}

/// Reads a request body: a JSON object only (`pref_protocol::read`), an empty body as `{}`.
pub(crate) fn body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let bytes = if bytes.is_empty() { b"{}" } else { bytes };
    pref_protocol::read(bytes).map_err(|e| ApiError::BadRequest(format!("bad JSON body: {e}")))
}
