//! The host's actions on a table: start, profile, remove a seat, seat a bot, end, pause
//! the clock.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use pref_core::Profile;
use pref_protocol::{SeatBot, Summary};
use serde_json::Value;

use super::AppState;
use crate::api::error::ApiError;
use crate::api::{bearer, body, table_id};
use crate::table::command::{Command, HostRequest};

async fn host_op(
    s: &AppState,
    id: &str,
    headers: &HeaderMap,
    op: HostRequest,
) -> Result<Json<Summary>, ApiError> {
    let handle = s.tables.open(&table_id(id)?).await?;
    let token = bearer(headers)?;
    let summary = handle
        .ask(|reply| Command::Host { token, op, reply })
        .await??;
    Ok(Json(summary))
}

pub(super) async fn start(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Summary>, ApiError> {
    host_op(&s, &id, &headers, HostRequest::Start).await
}

pub(super) async fn set_profile(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<Summary>, ApiError> {
    // A profile request is a preset's name or an object, which the core reads itself.
    let request: Value = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::BadRequest(format!("bad JSON body: {e}")))?;
    let profile = Box::new(Profile::from_json(&request)?);
    host_op(&s, &id, &headers, HostRequest::Profile(profile)).await
}

pub(super) async fn remove(
    State(s): State<AppState>,
    Path((id, seat)): Path<(String, u8)>,
    headers: HeaderMap,
) -> Result<Json<Summary>, ApiError> {
    host_op(&s, &id, &headers, HostRequest::Remove(seat)).await
}

pub(super) async fn seat_bot(
    State(s): State<AppState>,
    Path((id, seat)): Path<(String, u8)>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<Summary>, ApiError> {
    let req: SeatBot = body(&bytes)?;
    host_op(
        &s,
        &id,
        &headers,
        HostRequest::Bot {
            seat,
            level: req.level,
        },
    )
    .await
}

pub(super) async fn end(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Summary>, ApiError> {
    host_op(&s, &id, &headers, HostRequest::End).await
}

/// `POST /api/tables/{id}/clock` with `{"paused": true|false}`: the host pauses or resumes
/// the clock between deals.
pub(super) async fn pause_clock(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<Summary>, ApiError> {
    let req: pref_protocol::clock::PauseClock = body(&bytes)?;
    let handle = s.tables.open(&table_id(&id)?).await?;
    let host = bearer(&headers)?;
    let paused = req.paused;
    let summary = handle
        .ask(|reply| Command::Pause {
            host,
            paused,
            reply,
        })
        .await??;
    Ok(Json(summary))
}
