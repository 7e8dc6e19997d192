//! `POST /api/tables/{id}/stop` with `{"vote": "propose" | "accept" | "decline"}` and the
//! seat token as the bearer: a seated player's vote on stopping the game by agreement
//! (R10.3, `table/machine/stop.rs`). The answer is the table's summary after the vote.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use pref_protocol::{StopRequest, Summary};

use super::AppState;
use crate::api::error::ApiError;
use crate::api::{bearer, body, table_id};
use crate::table::command::Command;

/// A seat's vote.
///
/// # Errors
/// The table's refusal as an [`ApiError`] (a token that holds no seat, a vote outside the
/// time between deals, a second proposal, an answer with none standing).
pub(super) async fn vote(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<Summary>, ApiError> {
    let req: StopRequest = body(&bytes)?;
    let handle = s.tables.open(&table_id(&id)?).await?;
    let token = bearer(&headers)?;
    let vote = req.vote;
    let summary = handle
        .ask(|reply| Command::Stop { token, vote, reply })
        .await??;
    Ok(Json(summary))
}
