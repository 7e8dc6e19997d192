//! The HTTP API (`docs/protocol.md`): tables, seats, host actions, the WebSocket upgrade,
//! the rules guide's data, health and metrics. Handlers are thin: they check the request's shape and pass a
//! [`Command`] to the table's task.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::rejection::BytesRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post, put};
use axum::{Extension, Json, Router};
use pref_core::{PRESETS, Profile, Seat};
use pref_protocol::{Claim, Claimed, CreateTable, Created, Left, SeatBot};
use rand::Rng;
use rand::rngs::OsRng;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tower_http::services::{ServeDir, ServeFile};

use crate::analysis::Analyses;
use crate::budget::{Budgets, Spender};
use crate::cluster::{self, Cluster};
use crate::command::{Command, HostRequest};
use crate::config::Config;
use crate::conns::Conns;
use crate::edge;
use crate::error::ApiError;
use crate::ids::{Secret, TokenHash};
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
    /// The budgets shared across connections: chat and `resync` per seat, table openings
    /// per address.
    pub budgets: Arc<Budgets>,
    /// Open sockets per address, table and seat token.
    pub conns: Arc<Conns>,
}

/// The client's address, when the server was started with it (not in router tests).
fn client_ip(info: Option<&Extension<ConnectInfo<SocketAddr>>>) -> Option<IpAddr> {
    info.map(|Extension(ConnectInfo(addr))| addr.ip())
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
        .route("/api/tables/{id}/rematch", post(rematch))
        .route("/api/tables/{id}/rematch/seat", post(rematch_seat))
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
            post(record_analysis).layer(DefaultBodyLimit::max(
                state.config.limits.analysis_max_record_bytes,
            )),
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
        [(header::CONTENT_TYPE, crate::metrics::CONTENT_TYPE)],
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
    info: Option<Extension<ConnectInfo<SocketAddr>>>,
    bytes: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let req: CreateTable = body(&bytes)?;
    if let Some(ip) = client_ip(info.as_ref())
        && !s.budgets.create(ip)
    {
        return Err(ApiError::RateLimited(format!(
            "this address may open {} tables a minute; try again later",
            s.config.limits.tables_per_ip_per_minute
        )));
    }
    let request = req.profile.unwrap_or_else(|| json!("sochi"));
    let profile = Profile::from_json(&request)?;
    let clock = crate::machine::clock::parse(req.clock.as_ref())?;
    let created = open_table(&s, profile, clock, req.spectator_chat).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// Opens a new table in the lobby with a fresh host token; the store keeps the resolved
/// profile.
async fn open_table(
    s: &AppState,
    profile: Profile,
    clock: Option<pref_protocol::clock::TimeControl>,
    spectator_chat: bool,
) -> Result<Created, ApiError> {
    if s.tables.live() >= s.config.limits.max_tables {
        return Err(ApiError::Full);
    }
    let id = Secret::table_id();
    let host = Secret::random();
    let first_dealer = Seat(OsRng.gen_range(0..profile.players()));
    let no = s
        .store
        .create_table(
            &id,
            &TokenHash::of(&host),
            &profile.to_json(),
            spectator_chat,
            first_dealer.0,
        )
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
            host: TokenHash::of(&host),
            profile,
            spectator_chat,
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
    let invite = TokenHash::of(&host).invite_key().expose();
    Ok(Created {
        invite: format!("{}/t/{id_hex}#invite={invite}", s.base_url),
        watch: format!("{}/t/{id_hex}?watch", s.base_url),
        id: id_hex,
        host_token: host.expose(),
        table: summary,
    })
}

/// A player of a finished table takes the seat its rematch keeps for him: the bearer is his
/// seat token here, which stands for the invite link he was never given. The answer is the
/// new table's id with the seat and its token there.
async fn rematch_seat(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let old = s.tables.open(&table_id(&id)?).await?;
    let token = bearer(&headers)?;
    let (table, seat, name) = old
        .ask(|reply| Command::RematchSeat { token, reply })
        .await??;
    let new = s.tables.open(&table_id(&table)?).await?;
    let invite = new.ask(|reply| Command::InviteKey { reply }).await?;
    let (seat, token) = new
        .ask(|reply| Command::Claim {
            name,
            seat: Some(seat),
            host: None,
            invite: Some(invite),
            reply,
        })
        .await??;
    Ok(Json(
        json!({ "table": table, "seat": seat, "token": token.expose() }),
    ))
}

/// The host of a finished table opens its rematch: a new table with the same profile, the
/// chat rule and the bots in their seats, whose link every viewer of the old table is told.
/// The answer is the new table's, with its own host token.
async fn rematch(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let old = s.tables.open(&table_id(&id)?).await?;
    let token = bearer(&headers)?;
    let plan = old
        .ask(|reply| Command::RematchPlan { token, reply })
        .await??;
    // The same time control, as the old table's summary shows it.
    let clock = old.ask(Command::Summary).await?.clock.map(|c| c.control);
    let mut created = open_table(&s, plan.profile, clock, plan.spectator_chat).await?;
    let new_id = table_id(&created.id)?;
    let host = Secret::parse(&created.host_token)
        .ok_or_else(|| ApiError::Internal("a new host token does not read back".into()))?;
    let handle = s.tables.get(&new_id)?;
    let bots = plan
        .bots
        .into_iter()
        .map(|(seat, level)| HostRequest::Bot { seat, level });
    let people = plan
        .people
        .into_iter()
        .map(|(seat, name)| HostRequest::Reserve { seat, name });
    for op in bots.chain(people) {
        created.table = handle
            .ask(|reply| Command::Host {
                token: host,
                op,
                reply,
            })
            .await??;
    }
    let table = created.id.clone();
    old.ask(|reply| Command::Rematched {
        token,
        table,
        reply,
    })
    .await??;
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
            s.config.limits.analysis_max_record_bytes / 1024
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
    let invite = req
        .invite
        .map(|k| Secret::parse(&k).ok_or(ApiError::InviteRequired))
        .transpose()?;
    let (seat, token) = handle
        .ask(|reply| Command::Claim {
            name: req.name,
            seat: req.seat,
            host,
            invite,
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
    host_op(&s, &id, &headers, HostRequest::Profile(profile)).await
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
    /// Read only to be refused: a token in the URL would be written to access logs; it
    /// goes in `Sec-WebSocket-Protocol` (`pref_protocol::subprotocol`).
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
    headers: HeaderMap,
    info: Option<Extension<ConnectInfo<SocketAddr>>>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if q.token.is_some() {
        return Err(ApiError::BadRequest(
            "the seat token goes in Sec-WebSocket-Protocol (\"pref.token.TOKEN\"), not in the URL"
                .into(),
        ));
    }
    let table = table_id(&id)?;
    let handle = s.tables.open(&table).await?;
    let token = socket_token(&headers)?;
    let limits = s.config.limits.clone();
    // Counted until the socket ends; refused before the upgrade when a cap is reached.
    let place = s
        .conns
        .admit(&limits, client_ip(info.as_ref()), table, token.as_ref())
        .map_err(|e| ApiError::RateLimited(e.to_string()))?;
    let shared = socket::Shared::new(
        Arc::clone(&s.budgets),
        table,
        token.map_or(Spender::Spectators, |t| Spender::Seat(TokenHash::of(&t))),
    );
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
        // `max_write_buffer` before its sends wait (and time out).
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_write_buffer_size(WRITE_BUFFER_MAX)
        .on_upgrade(move |socket| async move {
            socket::run(socket, handle, session, (limits, shared), going).await;
            drop(place);
        }))
}
