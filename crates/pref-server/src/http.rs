//! The HTTP API (`docs/protocol.md`): tables, seats, host actions, the WebSocket upgrade,
//! the rules guide's data, health and metrics. Handlers are thin: they check the request's shape and pass a
//! [`Command`] to the table's task.

use std::sync::Arc;

use axum::extract::rejection::BytesRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{DefaultBodyLimit, Path, Query, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post, put};
use axum::{Json, Router};
use pref_core::{PRESETS, Profile, Seat};
use pref_protocol::{Claim, Claimed, CreateTable, Created, Left, SeatBot};
use rand::Rng;
use rand::rngs::OsRng;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tower_http::services::{ServeDir, ServeFile};

use crate::analysis::{Analyses, MAX_RECORD_BYTES};
use crate::cluster::{self, Cluster};
use crate::command::{Command, HostRequest};
use crate::config::Config;
use crate::edge;
use crate::error::ApiError;
use crate::ids::Secret;
use crate::keeper::Keepers;
use crate::machine::NewTable;
use crate::metrics::METRICS;
use crate::registry::Registry;
use crate::shutdown::Shutdown;
use crate::socket;
use crate::store::Store;
use crate::table::Table;

/// Bytes reserved to read into per socket.
const READ_BUFFER: usize = 4 * 1024;

/// Bytes queued on one socket for a client that does not read, before sends wait.
const WRITE_BUFFER_MAX: usize = 64 * 1024;

/// What every handler shares.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The open tables.
    pub tables: Arc<Registry>,
    /// The open scorekeeping sheets.
    pub keepers: Arc<Keepers>,
    /// The database.
    pub store: Store,
    /// This node's part in a cluster on PostgreSQL; `None` on SQLite.
    pub cluster: Option<Arc<Cluster>>,
    /// Limits and paths.
    pub config: Arc<Config>,
    /// `http://host:port`, for invite links.
    pub base_url: String,
    /// Raised when the node shuts down; every socket watches it.
    pub shutdown: Shutdown,
    /// Analyses of finished deals and uploaded records.
    pub analyses: Arc<Analyses>,
}

/// The whole router.
pub fn router(state: AppState) -> Router {
    let web = state.config.web_dir.clone();
    let body_limit = state.config.limits.max_body_bytes;
    Router::new()
        .route("/health", get(health))
        .route("/metrics", get(metrics))
        .route("/docs/protocol.md", get(protocol_doc))
        .route("/api/presets", get(presets))
        .route("/api/guide", get(guide))
        .route("/api/tables", post(create_table))
        .route("/api/profiles", post(crate::saved::create))
        .route("/api/profiles/{id}", get(crate::saved::fetch))
        .route("/api/tables/{id}", get(summary))
        .route("/api/tables/{id}/seats", post(claim_seat))
        .route("/api/tables/{id}/leave", post(leave))
        .route("/api/tables/{id}/start", post(start))
        .route("/api/tables/{id}/profile", put(set_profile))
        .route("/api/tables/{id}/seats/{seat}/remove", post(remove))
        .route("/api/tables/{id}/seats/{seat}/bot", post(seat_bot))
        .route("/api/tables/{id}/end", post(end))
        .route("/api/tables/{id}/clock", post(pause_clock))
        .route("/api/tables/{id}/ws", get(websocket))
        .route("/api/tables/{id}/record", get(record))
        .merge(crate::keeper::http::routes(
            state.config.limits.max_record_bytes,
        ))
        .route_service("/k/{id}", ServeFile::new(web.join("index.html")))
        .route("/api/tables/{id}/deals/{deal}/analysis", get(deal_analysis))
        .route(
            "/api/analysis",
            post(record_analysis).layer(DefaultBodyLimit::max(MAX_RECORD_BYTES)),
        )
        .route("/api/{*rest}", any(edge::api_not_found))
        .route_service("/t/{id}", ServeFile::new(web.join("index.html")))
        .route_service("/guide", ServeFile::new(web.join("guide.html")))
        .route_service("/t/{id}/rules", ServeFile::new(web.join("guide.html")))
        .route_service(
            "/t/{id}/analysis/{deal}",
            ServeFile::new(web.join("analysis.html")),
        )
        .route_service("/analysis", ServeFile::new(web.join("analysis.html")))
        .fallback_service(ServeDir::new(web))
        .layer(DefaultBodyLimit::max(body_limit))
        // A table served by another node is forwarded there before any handler runs.
        .layer(axum::middleware::from_fn_with_state(
            cluster::Routing {
                cluster: state.cluster.clone(),
                limits: state.config.limits.clone(),
            },
            cluster::route,
        ))
        // Outside the forwarding, so that they hold on every node a request passes.
        .layer(axum::middleware::from_fn_with_state(
            state.config.security.clone(),
            edge::origin_policy,
        ))
        .layer(axum::middleware::from_fn(edge::json_errors))
        .layer(axum::middleware::from_fn(edge::security_headers))
        .with_state(state)
}

async fn health(State(s): State<AppState>) -> Json<Value> {
    Json(json!({ "status": "ok", "tables": s.tables.len() }))
}

async fn metrics() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        METRICS.render(),
    )
}

async fn protocol_doc() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
        crate::data::PROTOCOL_MD,
    )
}

async fn presets() -> Json<Value> {
    let all: serde_json::Map<String, Value> = PRESETS
        .iter()
        .filter_map(|&n| Profile::preset(n).map(|p| (n.to_owned(), p.to_json())))
        .collect();
    Json(Value::Object(all))
}

/// The rules guide's data, computed by the rules core (`guide.rs`).
async fn guide() -> Result<Json<Value>, ApiError> {
    crate::guide::data()
        .map(|v| Json(v.clone()))
        .map_err(ApiError::Internal)
}

fn table_id(id: &str) -> Result<Secret, ApiError> {
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

async fn create_table(
    State(s): State<AppState>,
    bytes: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let req: CreateTable = body(&bytes)?;
    let request = req.profile.unwrap_or_else(|| json!("sochi"));
    let profile = Profile::from_json(&request)?;
    let clock = crate::machine::clock::parse(req.clock.as_ref())?;
    if s.tables.len() >= s.config.limits.max_tables {
        return Err(ApiError::Full);
    }
    let id = Secret::table_id();
    let host = Secret::random();
    let first_dealer = Seat(OsRng.gen_range(0..profile.players()));
    let no = s
        .store
        .create_table(&id, &host, &request, req.spectator_chat, first_dealer.0)
        .await?;
    if let Some(control) = &clock {
        let info = pref_protocol::clock::ClockInfo {
            control: control.clone(),
            paused: false,
            away: Vec::new(),
        };
        s.store.set_clock(no, &info).await?;
    }
    let table = Table::new(
        no,
        NewTable {
            host,
            profile,
            request,
            spectator_chat: req.spectator_chat,
            first_dealer,
        },
        s.store.clone(),
        s.config.limits.clone(),
    )
    .with_clock(clock);
    s.tables.spawn(id, no, table);
    METRICS.table_created();
    tracing::info!(table = no, "table created");
    let handle = s.tables.get(&id)?;
    let summary = handle.ask(Command::Summary).await?;
    let id_hex = id.expose();
    let created = Created {
        invite: format!("{}/t/{id_hex}", s.base_url),
        id: id_hex,
        host_token: host.expose(),
        table: summary,
    };
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

async fn summary(
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let handle = s.tables.open(&table_id(&id)?).await?;
    let summary = handle.ask(Command::Summary).await?;
    Ok(Json(json!(summary)))
}

async fn record(State(s): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let handle = s.tables.open(&table_id(&id)?).await?;
    let text = handle.ask(Command::Record).await??;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}

/// The analysis of a finished deal, once its cards may be seen by every viewer (the same
/// for a seat and a spectator, so no token is asked for).
async fn deal_analysis(
    State(s): State<AppState>,
    Path((id, deal)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let id = table_id(&id)?;
    let deal = deal_number(Some(&deal))?;
    let handle = s.tables.open(&id).await?;
    let record = handle
        .ask(|reply| Command::DealRecord { deal, reply })
        .await??;
    let text = s.analyses.table_deal(id, deal, *record).await?;
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        text.to_string(),
    )
        .into_response())
}

/// A deal's number from the path or the query, from 0 (the first when absent).
fn deal_number(text: Option<&str>) -> Result<usize, ApiError> {
    text.map_or(Ok(0), |t| {
        t.parse()
            .map_err(|_| ApiError::BadRequest(format!("the deal number {t:?} is not a number")))
    })
}

/// The analysis of one deal of an uploaded `pref-record/1`.
async fn record_analysis(
    State(s): State<AppState>,
    RawQuery(query): RawQuery,
    bytes: Result<axum::body::Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let bytes = bytes.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::TooLarge(format!(
            "a record is read up to {} KiB",
            MAX_RECORD_BYTES / 1024
        )),
        _ => ApiError::BadRequest(e.body_text()),
    })?;
    let mut deal = None;
    for pair in query.as_deref().unwrap_or_default().split('&') {
        match pair.split_once('=') {
            Some(("deal", n)) => deal = Some(n),
            _ if pair.is_empty() => {}
            _ => {
                return Err(ApiError::BadRequest(format!(
                    "unknown query parameter {pair:?}; only deal=N is read"
                )));
            }
        }
    }
    let deal = deal_number(deal)?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| ApiError::BadRequest("the record is not UTF-8 text".into()))?;
    let doc = s.analyses.upload(text, deal).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], doc).into_response())
}

async fn claim_seat(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
    let handle = s.tables.open(&table_id(&id)?).await?;
    let req: Claim = body(&bytes)?;
    let host = headers
        .contains_key(header::AUTHORIZATION)
        .then(|| bearer(&headers))
        .transpose()?;
    let (seat, token) = handle
        .ask(|reply| Command::Claim {
            name: req.name,
            seat: req.seat,
            host,
            reply,
        })
        .await??;
    Ok(Json(json!(Claimed {
        seat,
        token: token.expose(),
    })))
}

async fn leave(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let handle = s.tables.open(&table_id(&id)?).await?;
    let token = bearer(&headers)?;
    handle
        .ask(|reply| Command::Leave { token, reply })
        .await??;
    Ok(Json(json!(Left { left: true })))
}

async fn host_op(
    s: &AppState,
    id: &str,
    headers: &HeaderMap,
    op: HostRequest,
) -> Result<Json<Value>, ApiError> {
    let handle = s.tables.open(&table_id(id)?).await?;
    let token = bearer(headers)?;
    let summary = handle
        .ask(|reply| Command::Host { token, op, reply })
        .await??;
    Ok(Json(json!(summary)))
}

async fn start(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    host_op(&s, &id, &headers, HostRequest::Start).await
}

async fn set_profile(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
    // A profile request is a preset's name or an object, which the core reads itself.
    let request: Value = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::BadRequest(format!("bad JSON body: {e}")))?;
    let profile = Box::new(Profile::from_json(&request)?);
    host_op(&s, &id, &headers, HostRequest::Profile { profile, request }).await
}

async fn remove(
    State(s): State<AppState>,
    Path((id, seat)): Path<(String, u8)>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    host_op(&s, &id, &headers, HostRequest::Remove(seat)).await
}

async fn seat_bot(
    State(s): State<AppState>,
    Path((id, seat)): Path<(String, u8)>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
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

async fn end(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    host_op(&s, &id, &headers, HostRequest::End).await
}

/// `POST /api/tables/{id}/clock` with `{"paused": true|false}`: the host pauses or resumes
/// the clock between deals.
async fn pause_clock(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
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
    Ok(Json(json!(summary)))
}

/// `GET /api/tables/{id}/ws` query.
#[derive(Debug, Deserialize)]
struct WsQuery {
    /// A seat token; none for a spectator.
    token: Option<String>,
    /// The last version seen, to resume.
    since: Option<u64>,
    /// The epoch of that version.
    epoch: Option<String>,
}

async fn websocket(
    State(s): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let handle = s.tables.open(&table_id(&id)?).await?;
    // An empty or malformed token is refused, never read as "no token" (a spectator).
    let token = q
        .token
        .map(|t| Secret::parse(&t).ok_or(ApiError::Forbidden("the seat token is malformed")))
        .transpose()?;
    let resume = q.since.zip(q.epoch);
    let session = handle
        .ask(|reply| Command::Connect {
            token,
            resume,
            reply,
        })
        .await??;
    let limits = s.config.limits.clone();
    let going = s.shutdown.watch();
    // The socket's own check answers a too-large message with a typed error; the transport
    // limit, with room above it, only stops a flood.
    let hard = limits.max_frame_bytes.saturating_mul(4).max(1024);
    Ok(ws
        .max_message_size(hard)
        .max_frame_size(hard)
        // tungstenite reserves 128 KiB to read into per socket by default, which at 20,000
        // sockets is 2.5 GiB; clients send messages of a few hundred bytes, and the buffer
        // still grows for a larger frame up to the limit above. Every outgoing message is flushed at once, so nothing is gathered
        // in the write buffer, and a client that stops reading can hold at most
        // `max_write_buffer` before its sends wait (and time out).
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_write_buffer_size(WRITE_BUFFER_MAX)
        .on_upgrade(move |socket| socket::run(socket, handle, session, limits, going)))
}
