//! A host invites a bot account to a seat by name (`docs/bot-api.md`): the lobby keeps the
//! seat for the bot's name, and the bot finds the invitation at `GET /api/bot/invitations`
//! and takes the seat with its API token.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use pref_protocol::{InviteBot, Summary};

use super::AppState;
use crate::accounts::bot_api;
use crate::api::error::ApiError;
use crate::api::{bearer, body, table_id};
use crate::table::command::{Command, HostRequest};

/// `POST /api/tables/{id}/seats/{seat}/invite` with `{"name": …}`, the bearer the host
/// token: keeps free seat `seat` of the lobby for the bot account so named.
pub(super) async fn invite_bot(
    State(s): State<AppState>,
    Path((id, seat)): Path<(String, u8)>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<Summary>, ApiError> {
    let table = table_id(&id)?;
    let handle = s.tables.open(&table).await?;
    let token = bearer(&headers)?;
    let req: InviteBot = body(&bytes)?;
    if handle.ask(Command::Summary).await?.people_only {
        return Err(ApiError::PeopleOnly);
    }
    let bot = bot_api::invitee(&s.accounts, &req.name).await?;
    let op = HostRequest::Reserve {
        seat,
        name: bot.name.clone(),
        rematch: false,
    };
    let summary = handle
        .ask(|reply| Command::Host { token, op, reply })
        .await??;
    bot_api::note_invitation(&s.accounts, &bot, &table, seat).await?;
    Ok(Json(summary))
}
