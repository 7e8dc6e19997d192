//! The tournaments' routes (`docs/protocol.md`, "Tournaments"). An entrant's requests carry
//! his entrant token as a bearer; the page and a deal's comparison take it too, to show him
//! what he may see. Entering takes the session when there is one (the account's user name),
//! else a guest's name.

use std::sync::Arc;

use axum::extract::{FromRef, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use pref_protocol::{
    CreateTournament, EnterTournament, Entered, EntrantTable, PlayAction, TournamentCreated,
    TournamentList,
};
use serde::Deserialize;

use super::Tournaments;
use super::room::Room;
use crate::accounts::{Accounts, SignedIn};
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::{bearer, body};
use crate::store::now;
use crate::table::machine::check_name;

/// What the tournaments' routes need of the server's state.
#[derive(Clone, Debug)]
pub(crate) struct TournamentState {
    /// The tournaments.
    pub tournaments: Arc<Tournaments>,
    /// `http://host:port`, for links.
    pub base_url: String,
}

/// The routes, merged into the server's router (whose state `S` holds a
/// [`TournamentState`]).
pub(crate) fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    TournamentState: FromRef<S>,
    Arc<Accounts>: FromRef<S>,
{
    Router::new()
        .route("/api/tournaments", get(list).post(create))
        .route("/api/tournaments/{id}", get(page))
        .route("/api/tournaments/{id}/entrants", post(enter))
        .route("/api/tournaments/{id}/play", get(table).post(act))
        .route("/api/tournaments/{id}/close", post(close))
        .route("/api/tournaments/{id}/deals/{k}", get(comparison))
        .route("/api/tournaments/{id}/deals/{k}/record", get(record))
}

async fn list(State(s): State<TournamentState>) -> Json<TournamentList> {
    Json(s.tournaments.list())
}

async fn create(
    State(s): State<TournamentState>,
    client: Client,
    bytes: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let req: CreateTournament = body(&bytes)?;
    let (id, host) = s.tournaments.create(client, req).await?;
    let created = TournamentCreated {
        link: format!("{}/tournaments/{id}", s.base_url),
        id,
        host_token: host.expose(),
    };
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// The entrant the request's bearer names, if it names one of `room` (read again from the
/// rows when it names none yet: he may have entered at another node a moment ago).
async fn viewer(room: &Room, headers: &HeaderMap) -> Result<Option<usize>, ApiError> {
    if headers.get(header::AUTHORIZATION).is_none() {
        return Ok(None);
    }
    let Ok(token) = bearer(headers) else {
        return Ok(None);
    };
    if let Some(e) = room.entrant_of(&token) {
        return Ok(Some(e));
    }
    room.catch_up().await?;
    Ok(room.entrant_of(&token))
}

/// The entrant the request's bearer must name.
async fn entrant(room: &Room, headers: &HeaderMap) -> Result<usize, ApiError> {
    bearer(headers)?;
    viewer(room, headers).await?.ok_or(ApiError::Forbidden(
        "this is not an entrant's token of the tournament",
    ))
}

async fn page(
    State(s): State<TournamentState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let room = s.tournaments.get(&id, Some(client)).await?;
    let viewer = viewer(&room, &headers).await?;
    Ok(Json(room.page(viewer, now())).into_response())
}

async fn enter(
    State(s): State<TournamentState>,
    Path(id): Path<String>,
    client: Client,
    signed: Result<SignedIn, ApiError>,
    bytes: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let req: EnterTournament = body(&bytes)?;
    let signed = match signed {
        Ok(x) => Some(x),
        Err(ApiError::NotSignedIn) => None,
        Err(e) => return Err(e),
    };
    let (name, account) = match (signed, req.name) {
        (Some(_), Some(_)) => {
            return Err(ApiError::BadRequest(
                "a signed-in player enters under his user name: leave name out".into(),
            ));
        }
        (Some(x), None) => (x.account.name.clone(), Some(x.account.no)),
        (None, Some(n)) => (
            check_name(&n).map_err(|e| ApiError::BadRequest(e.to_string()))?,
            None,
        ),
        (None, None) => {
            return Err(ApiError::BadRequest("a guest enters with a name".into()));
        }
    };
    let room = s.tournaments.get(&id, Some(client)).await?;
    s.tournaments.spend_entry(client)?;
    let max = s.tournaments.settings().max_entrants;
    let (entrant, token) = room
        .enter(s.tournaments.store(), name, account, max, now())
        .await?;
    let entered = Entered {
        entrant,
        token: token.expose(),
    };
    Ok((StatusCode::CREATED, Json(entered)).into_response())
}

async fn table(
    State(s): State<TournamentState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<EntrantTable>, ApiError> {
    let room = s.tournaments.get(&id, Some(client)).await?;
    let e = entrant(&room, &headers).await?;
    let seat = room.seat(e).ok_or(ApiError::NoTournament)?;
    let mut seat = seat.lock().await;
    room.refresh(&mut seat).await?;
    Ok(Json(room.table(&mut seat, true, now()).await?))
}

async fn act(
    State(s): State<TournamentState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<EntrantTable>, ApiError> {
    let req: PlayAction = body(&bytes)?;
    let room = s.tournaments.get(&id, Some(client)).await?;
    let e = entrant(&room, &headers).await?;
    let seat = room.seat(e).ok_or(ApiError::NoTournament)?;
    let mut seat = seat.lock().await;
    room.refresh(&mut seat).await?;
    room.act(
        s.tournaments.store(),
        &mut seat,
        req.deal,
        req.action,
        now(),
    )
    .await?;
    Ok(Json(room.table(&mut seat, false, now()).await?))
}

async fn close(
    State(s): State<TournamentState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    let room = s.tournaments.get(&id, Some(client)).await?;
    room.close(s.tournaments.store(), &bearer(&headers)?, now())
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn comparison(
    State(s): State<TournamentState>,
    client: Client,
    Path((id, k)): Path<(String, usize)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let room = s.tournaments.get(&id, Some(client)).await?;
    let viewer = viewer(&room, &headers).await?;
    let view = room.comparison(k, viewer, now()).await?;
    Ok(Json(view).into_response())
}

/// `?entrant=N`.
#[derive(Debug, Deserialize)]
struct Whose {
    entrant: usize,
}

async fn record(
    State(s): State<TournamentState>,
    client: Client,
    Path((id, k)): Path<(String, usize)>,
    Query(whose): Query<Whose>,
) -> Result<Response, ApiError> {
    let room = s.tournaments.get(&id, Some(client)).await?;
    let text = room.record(whose.entrant, k, now()).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}
