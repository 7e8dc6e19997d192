//! The scorekeeper's routes (`docs/protocol.md`, "Scorekeeping"). Handlers check the
//! request's shape and hand the change to [`Keepers`](super::Keepers); watchers follow a
//! sheet over server-sent events, one `sheet` event per change with the whole view.
//!
//! Every route spends a budget of the client's address first (`api/budgets.rs`): opening or
//! importing a sheet one budget, every request on an existing sheet another; a watcher's
//! stream is counted in [`Conns`] (per address, per sheet, on the node) until it ends.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, FromRef, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use futures_util::Stream;
use pref_core::{Profile, Record, RecordDeal};
use pref_protocol::{
    CreateKeeper, KeeperCheck, KeeperChecked, KeeperCreated, KeeperDealBody, KeeperNext, KeeperOp,
    KeeperStop, KeeperView,
};
use serde_json::Value;
use tokio::sync::broadcast;

use super::sheet::{Deals, Header, refusal};
use super::{Keepers, Opened};
use crate::api::budgets::Budgets;
use crate::api::client::Client;
use crate::api::conns::{Conns, Refused};
use crate::api::error::ApiError;
use crate::api::{bearer, body};
use crate::config::Limits;
use crate::ids::Secret;
use crate::table::machine::check_name;

/// How often a watcher's stream looks for changes made on another node (PostgreSQL).
const RECHECK: Duration = Duration::from_secs(15);

/// What the scorekeeper's routes need of the server's state (taken from it by `FromRef`,
/// so that this module does not depend on the router's).
#[derive(Clone, Debug)]
pub(crate) struct KeeperState {
    /// The open scorekeeping sheets.
    pub keepers: Arc<Keepers>,
    /// `http://host:port`, for the sheet's links.
    pub base_url: String,
    /// The budgets of each client address.
    pub budgets: Arc<Budgets>,
    /// The open connections and streams, with their caps.
    pub conns: Arc<Conns>,
    /// The caps of the streams.
    pub limits: Limits,
}

/// The scorekeeper's routes, merged into the server's router (whose state `S` holds a
/// [`KeeperState`]).
pub(crate) fn routes<S>(import_limit: usize) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    KeeperState: FromRef<S>,
{
    Router::new()
        .route("/api/keeper", post(create))
        .route(
            "/api/keeper/import",
            post(import).layer(DefaultBodyLimit::max(import_limit)),
        )
        .route("/api/keeper/{id}", get(view))
        .route("/api/keeper/{id}/events", get(events))
        .route("/api/keeper/{id}/record", get(record))
        .route("/api/keeper/{id}/check", post(check))
        .route("/api/keeper/{id}/choices", get(choices))
        .route("/api/keeper/{id}/deals", post(add))
        .route(
            "/api/keeper/{id}/deals/{index}",
            put(correct).delete(delete),
        )
        .route("/api/keeper/{id}/stop", post(stop))
}

fn sheet_id(id: &str) -> Result<Secret, ApiError> {
    Secret::parse(id).ok_or(ApiError::NoTable)
}

fn created(s: &KeeperState, opened: Opened) -> Response {
    let id = opened.id.expose();
    let body = KeeperCreated {
        link: format!("{}/k/{id}", s.base_url),
        id,
        keeper_token: opened.keeper.expose(),
        sheet: (*opened.view).clone(),
    };
    (StatusCode::CREATED, Json(body)).into_response()
}

async fn create(
    State(s): State<KeeperState>,
    client: Client,
    bytes: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let req: CreateKeeper = body(&bytes)?;
    s.budgets.sheets.spend(client)?;
    let request = req.profile.unwrap_or_else(|| Value::from("sochi"));
    let profile = Profile::from_json(&request)?;
    let players = profile.players();
    if req.players.len() != usize::from(players) {
        return Err(ApiError::BadRequest(format!(
            "{} players named for a table of {players}",
            req.players.len()
        )));
    }
    let names = req
        .players
        .iter()
        .map(|n| check_name(n).map_err(|e| ApiError::BadRequest(e.to_string())))
        .collect::<Result<Vec<_>, _>>()?;
    let first_dealer = req.first_dealer.unwrap_or(0);
    if first_dealer >= players {
        return Err(ApiError::BadRequest(format!(
            "seat {first_dealer} is not at the table (R1.2)"
        )));
    }
    let header = Header {
        profile: request,
        names,
        first_dealer,
    };
    let opened = s.keepers.create(header, None).await?;
    Ok(created(&s, opened))
}

/// `POST /api/keeper/import`: a `pref-record/1` record in outcome form becomes a sheet that
/// goes on from its last deal.
async fn import(
    State(s): State<KeeperState>,
    client: Client,
    text: String,
) -> Result<Response, ApiError> {
    s.budgets.sheets.spend(client)?;
    // A long record takes milliseconds to replay: off the async workers, so that other
    // clients' requests are not held behind it.
    let (record, doc) = tokio::task::spawn_blocking(move || read_import(&text))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))??;
    let header = Header {
        profile: doc["profile"].clone(),
        names: record.players().to_vec(),
        first_dealer: record.first_dealer().0,
    };
    let deals = Deals {
        outcomes: doc["deals"]
            .as_array()
            .map(|ds| ds.iter().map(|d| d["outcome"].clone()).collect())
            .unwrap_or_default(),
        agreed: record.agreed_stop(),
    };
    let opened = s.keepers.create(header, Some(deals)).await?;
    Ok(created(&s, opened))
}

/// An imported record, replayed and checked: outcome deals only, every name a seat name.
///
/// # Errors
/// [`ApiError::BadDeal`] naming the deal and the rule, or [`ApiError::BadRequest`].
fn read_import(text: &str) -> Result<(Record, Value), ApiError> {
    let (record, _) = Record::read(text).map_err(|e| ApiError::BadDeal(refusal(&e)))?;
    if let Some(i) = record
        .deals()
        .iter()
        .position(|d| matches!(d, RecordDeal::Played { .. }))
    {
        return Err(ApiError::BadRequest(format!(
            "deal {}: a scorekeeping sheet holds deals in outcome form, not played card by card",
            i + 1
        )));
    }
    for name in record.players() {
        check_name(name).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    }
    let doc: Value = serde_json::from_str(text).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    Ok((record, doc))
}

async fn view(
    State(s): State<KeeperState>,
    client: Client,
    Path(id): Path<String>,
) -> Result<Json<KeeperView>, ApiError> {
    s.budgets.sheet_requests.spend(client)?;
    let (view, _) = s.keepers.watch(&sheet_id(&id)?).await?;
    Ok(Json((*view).clone()))
}

async fn record(
    State(s): State<KeeperState>,
    client: Client,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    s.budgets.sheet_requests.spend(client)?;
    let text = s.keepers.record(&sheet_id(&id)?).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}

/// `GET /api/keeper/{id}/choices?deal=i` query.
#[derive(Debug, serde::Deserialize)]
struct ChoicesQuery {
    /// The deal to correct; the next deal when absent.
    deal: Option<usize>,
}

async fn choices(
    State(s): State<KeeperState>,
    client: Client,
    Path(id): Path<String>,
    Query(q): Query<ChoicesQuery>,
) -> Result<Json<KeeperNext>, ApiError> {
    s.budgets.sheet_requests.spend(client)?;
    Ok(Json(s.keepers.choices(&sheet_id(&id)?, q.deal).await?))
}

async fn check(
    State(s): State<KeeperState>,
    client: Client,
    Path(id): Path<String>,
    bytes: axum::body::Bytes,
) -> Result<Json<KeeperChecked>, ApiError> {
    s.budgets.sheet_requests.spend(client)?;
    let req: KeeperCheck = body(&bytes)?;
    let deal = s
        .keepers
        .check(&sheet_id(&id)?, req.index, req.outcome)
        .await?;
    Ok(Json(KeeperChecked { deal }))
}

async fn change(
    s: &KeeperState,
    (id, client): (&str, Client),
    headers: &HeaderMap,
    op: KeeperOp,
) -> Result<Json<KeeperView>, ApiError> {
    s.budgets.sheet_requests.spend(client)?;
    let id = sheet_id(id)?;
    let token = bearer(headers)?;
    let view = s.keepers.change(&id, &token, op).await?;
    Ok(Json((*view).clone()))
}

async fn add(
    State(s): State<KeeperState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<KeeperView>, ApiError> {
    let req: KeeperDealBody = body(&bytes)?;
    change(
        &s,
        (&id, client),
        &headers,
        KeeperOp::Add {
            outcome: req.outcome,
        },
    )
    .await
}

async fn correct(
    State(s): State<KeeperState>,
    client: Client,
    Path((id, index)): Path<(String, usize)>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<KeeperView>, ApiError> {
    let req: KeeperDealBody = body(&bytes)?;
    let op = KeeperOp::Correct {
        index,
        was: Value::Null,
        outcome: req.outcome,
    };
    change(&s, (&id, client), &headers, op).await
}

async fn delete(
    State(s): State<KeeperState>,
    client: Client,
    Path((id, index)): Path<(String, usize)>,
    headers: HeaderMap,
) -> Result<Json<KeeperView>, ApiError> {
    let op = KeeperOp::Delete {
        index,
        was: Value::Null,
    };
    change(&s, (&id, client), &headers, op).await
}

async fn stop(
    State(s): State<KeeperState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<KeeperView>, ApiError> {
    let req: KeeperStop = body(&bytes)?;
    let op = KeeperOp::Stop { agreed: req.agreed };
    change(&s, (&id, client), &headers, op).await
}

fn sheet_event(view: &KeeperView) -> Event {
    Event::default()
        .event("sheet")
        .data(serde_json::to_string(view).unwrap_or_default())
}

/// `GET /api/keeper/{id}/events`: the sheet now, then after every change. The stream is
/// counted in [`Conns`] before its first byte (refused over a cap: `429`, or `503` when the
/// node holds as many as it may) and until it ends.
async fn events(
    State(s): State<KeeperState>,
    client: Client,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    s.budgets.sheet_requests.spend(client)?;
    let id = sheet_id(&id)?;
    let place = s
        .conns
        .admit_stream(&s.limits, client.0, id)
        .map_err(|e| match e {
            Refused::Streams => ApiError::Full,
            Refused::Ip | Refused::Table | Refused::Token | Refused::StreamIp | Refused::Sheet => {
                ApiError::RateLimited(e.to_string())
            }
        })?;
    let (first, rx) = s.keepers.watch(&id).await?;
    let watching = Watching {
        keepers: Arc::clone(&s.keepers),
        id,
        _place: place,
    };
    let stream = futures_util::stream::unfold(
        (Some(first), rx, watching),
        |(first, mut rx, w)| async move {
            if let Some(view) = first {
                return Some((Ok(sheet_event(&view)), (None, rx, w)));
            }
            let view = next_view(&mut rx, &w.keepers, &w.id).await?;
            Some((Ok(sheet_event(&view)), (None, rx, w)))
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// What a watcher's stream holds: the sheet it follows, and its place in the counts, given
/// back when the stream is dropped.
struct Watching {
    keepers: Arc<Keepers>,
    id: Secret,
    _place: crate::api::conns::ConnGuard,
}

/// The next view for a watcher; `None` when the sheet is gone.
async fn next_view(
    rx: &mut broadcast::Receiver<Arc<KeeperView>>,
    keepers: &Keepers,
    id: &Secret,
) -> Option<Arc<KeeperView>> {
    loop {
        match tokio::time::timeout(RECHECK, rx.recv()).await {
            Ok(Ok(view)) => return Some(view),
            Ok(Err(broadcast::error::RecvError::Lagged(_))) => {}
            Ok(Err(broadcast::error::RecvError::Closed)) => return None,
            // Changes another node stored reach this node's watchers through the refresh.
            Err(_) => drop(keepers.watch(id).await),
        }
    }
}
