//! The lobby's socket upgrade (`GET /api/lobby/ws`): the socket budget and the lobby's cap
//! per client, the signed-in player if the request carries a session (he seeks under his
//! user name, and the seat he is given is tied to his account, as a claimed seat is), and
//! the node's shutdown. The socket itself is the lobby's (`lobby/socket.rs`), served on the
//! lobby sockets' threads (`lobby/threads.rs`).

use std::sync::Arc;

use axum::extract::State;
use axum::extract::ws::WebSocketUpgrade;
use axum::http::HeaderMap;
use axum::response::Response;

use super::AppState;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::table_id;
use crate::edge::shutdown::going_away;
use crate::ids::Secret;
use crate::lobby::Seeker;

pub(super) async fn lobby_socket(
    State(s): State<AppState>,
    headers: HeaderMap,
    Client(client): Client,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    s.budgets.sockets.spend(Client(client))?;
    let place = s
        .conns
        .admit_lobby(s.config.lobby.lobby_sockets_per_ip, client)
        .map_err(|_| ApiError::RateLimited("too many lobby sockets from this address".into()))?;
    // A bot account seeks by its API token (`Authorization: Bearer prefbot_…`, as at the
    // table socket; `docs/bot-api.md`), a person by his session.
    let robot = crate::accounts::bot_api::bot_of(&s.accounts, &headers)
        .await?
        .map(Arc::new);
    let signed = match robot {
        Some(_) => None,
        None => crate::accounts::for_claim(&s.accounts, &headers)
            .await?
            .map(Arc::new),
    };
    let seeker = Seeker {
        client,
        account: match (&robot, &signed) {
            (Some(b), _) => Some((b.account.no, b.account.name.clone())),
            (None, Some(a)) => Some((a.account.no, a.account.name.clone())),
            (None, None) => None,
        },
        bot: robot.is_some() || signed.as_ref().is_some_and(|a| a.account.bot),
    };
    let lobby = Arc::clone(&s.lobby);
    let accounts = Arc::clone(&s.accounts);
    let mut going = s.shutdown.watch();
    let hard = s.config.limits.max_frame_bytes.saturating_mul(4).max(1024);
    Ok(ws
        .protocols([pref_protocol::subprotocol::PROTOCOL])
        .max_message_size(hard)
        .max_frame_size(hard)
        // As a table's socket (`websocket.rs`): tungstenite's default read buffer is 128 KiB
        // per socket, zeroed again at every read attempt, which is every time the socket's
        // loop sends an item and polls the client again: at 2,000 lobby sockets that memset
        // was 5.5% of the server's CPU. Lobby clients send a few hundred bytes; the buffer
        // still grows for a larger frame up to the limit above.
        .read_buffer_size(super::websocket::READ_BUFFER)
        .on_upgrade(move |socket| async move {
            let paired = move |table: String, seat: u8, token: String| {
                let (accounts, signed) = (Arc::clone(&accounts), signed.clone());
                let robot = robot.clone();
                async move {
                    let (Ok(table), Some(token)) = (table_id(&table), Secret::parse(&token)) else {
                        return;
                    };
                    let tied = match (robot, signed) {
                        (Some(b), _) => {
                            crate::accounts::bot_api::tie(&accounts, &b, &table, seat, &token).await
                        }
                        (None, Some(a)) => {
                            crate::accounts::tie(&accounts, &a, &table, seat, &token).await
                        }
                        (None, None) => return,
                    };
                    if let Err(e) = tied {
                        tracing::warn!(error = %e, "a paired seat was not tied to its account");
                    }
                }
            };
            let going = async move { going_away(&mut going).await };
            let on = Arc::clone(&lobby);
            on.run_socket(async move {
                crate::lobby::socket::run(socket, lobby, seeker, paired, going).await;
                drop(place);
            });
        }))
}
