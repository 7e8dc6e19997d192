//! The WebSocket upgrade: the seat token from the subprotocol, the connection caps, and
//! the transport's buffer and message sizes.

use std::sync::Arc;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, header};
use axum::response::Response;
use serde::Deserialize;

use super::AppState;
use crate::api::budgets::Spender;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::table_id;
use crate::edge::socket;
use crate::ids::{Secret, TokenHash};
use crate::table::command::Command;

/// Bytes reserved to read into per socket (a table's or the lobby's).
pub(super) const READ_BUFFER: usize = 4 * 1024;

/// The seat token a socket offers as the subprotocol `pref.token.TOKEN`; `None` for a
/// spectator. An empty or malformed one is refused, never read as "no token".
///
/// # Errors
/// [`ApiError::Forbidden`] for a malformed token.
fn socket_token(headers: &HeaderMap) -> Result<Option<Secret>, ApiError> {
    let offered = headers
        .get_all(header::SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(pref_protocol::subprotocol::offered_token);
    offered
        .map(|t| Secret::parse(t).ok_or(ApiError::Forbidden("the seat token is malformed")))
        .transpose()
}

/// `GET /api/tables/{id}/ws` query.
#[derive(Debug, Deserialize)]
pub(super) struct WsQuery {
    /// Read only to be refused: a token in the URL would be written to access logs; it
    /// goes in `Sec-WebSocket-Protocol` (`pref_protocol::subprotocol`).
    token: Option<String>,
    /// The last version seen, to resume.
    since: Option<u64>,
    /// The epoch of that version.
    epoch: Option<String>,
}

pub(super) async fn websocket(
    State(s): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    headers: HeaderMap,
    Client(client): Client,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if q.token.is_some() {
        return Err(ApiError::BadRequest(
            "the seat token goes in Sec-WebSocket-Protocol (\"pref.token.TOKEN\"), not in the URL"
                .into(),
        ));
    }
    let table = table_id(&id)?;
    // Before the table is asked anything: a socket costs its task a snapshot.
    s.budgets.sockets.spend(Client(client))?;
    let handle = s.tables.open(&table).await?;
    // A bot's socket (`docs/bot-api.md`): its API token finds the seat it holds here, or
    // it watches.
    let bot = crate::accounts::bot_api::bot_of(&s.accounts, &headers).await?;
    let token = match &bot {
        Some(bot) => crate::accounts::bot_api::seat_at(&s.accounts, bot, &table).await?,
        None => socket_token(&headers)?,
    };
    let bot = bot.map(|b| crate::accounts::bot_api::BotSocket::new(&s.accounts, &b));
    let limits = s.config.limits.clone();
    // Counted until the socket ends; refused before the upgrade when a cap is reached.
    let place = s
        .conns
        .admit(&limits, client, table, token.as_ref())
        .map_err(|e| ApiError::RateLimited(e.to_string()))?;
    let shared = socket::Shared::new(
        Arc::clone(&s.budgets),
        table,
        token.map_or(Spender::Spectators, |t| Spender::Seat(TokenHash::of(&t))),
    )
    .with_lane(Arc::clone(&s.analyses));
    let resume = q.since.zip(q.epoch);
    let session = handle
        .ask(|reply| Command::Connect {
            token,
            resume,
            reply,
        })
        .await??;

    let going = s.shutdown.watch();
    // The socket's own check answers a too-large message with a typed error; the transport
    // limit, with room above it, only stops a flood.
    let hard = limits.max_frame_bytes.saturating_mul(4).max(1024);
    Ok(ws
        .protocols([pref_protocol::subprotocol::PROTOCOL])
        .max_message_size(hard)
        .max_frame_size(hard)
        // tungstenite reserves 128 KiB to read into per socket by default, which at 20,000
        // sockets is 2.5 GiB; clients send messages of a few hundred bytes, and the buffer
        // still grows for a larger frame up to the limit above. Every outgoing message is flushed at once, so nothing is gathered
        // in the write buffer, and a client that stops reading can hold at most
        // `limits.socket_write_buffer_bytes` before its sends wait (and time out); a message
        // larger than that closes the socket with 4002 (`socket::run`).
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_write_buffer_size(limits.socket_write_buffer_bytes.max(1024))
        .on_upgrade(move |socket| async move {
            socket::run_watched(socket, handle, session, (limits, shared), going, bot).await;
            drop(place);
        }))
}
