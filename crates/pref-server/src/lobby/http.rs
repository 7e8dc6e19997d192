//! `GET /api/lobby`: the lobby as this node last read it (the socket's upgrade, which reads
//! the session, is the edge's: `edge/http/lobby.rs`).

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use pref_protocol::LobbyView;

use super::Lobby;

/// The whole lobby: public tables waiting, games in progress, seekers per choice.
pub(crate) async fn lobby(State(lobby): State<Arc<Lobby>>) -> Json<LobbyView> {
    Json(lobby.snapshot())
}
