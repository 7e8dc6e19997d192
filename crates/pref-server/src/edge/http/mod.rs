//! The HTTP API (`docs/protocol.md`): the router, the state every handler shares and the
//! helpers they use to read a request (table ids, bearer tokens, JSON bodies). Handlers are
//! thin: they check the request's shape and pass a [`Command`](crate::table::command::Command) to
//! the table's task; they live in the modules below, named for what they serve.

mod bot_seats;
mod host;
mod lobby;
mod seats;
mod stop;
mod tables;
mod websocket;

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, FromRef, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{any, get, post, put};
use axum::{Json, Router};
use pref_core::{PRESETS, Profile};
use pref_protocol::{Health, Presets};
use tower_http::services::{ServeDir, ServeFile};

use crate::analysis::Analyses;
use crate::analysis::hands::{deal_hands, record_hands};
use crate::analysis::http::{AnalysisState, deal_analysis, record_analysis};
use crate::api::budgets::Budgets;
use crate::api::conns::Conns;
use crate::api::error::ApiError;
use crate::cluster::{self, Cluster};
use crate::config::Config;
use crate::edge;
use crate::edge::shutdown::Shutdown;

use crate::keeper::Keepers;
use crate::keeper::http::KeeperState;
use crate::metrics::METRICS;
use crate::saved::SavedState;
use crate::store::Store;
use crate::table::registry::Registry;
use host::{end, pause_clock, remove, seat_bot, set_profile, start};
use seats::{claim_seat, leave};
use tables::{create_table, invite, record, rematch, rematch_seat, summary};
use websocket::websocket;

/// What every handler shares.
#[derive(Clone, Debug)]
pub(crate) struct AppState {
    /// Duplicate tournaments (`tournaments/`).
    pub tournaments: Arc<crate::tournaments::Tournaments>,
    /// Accounts and sessions (`accounts/`).
    pub accounts: Arc<crate::accounts::Accounts>,
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
    /// The public lobby and quick pairing (`lobby/`).
    pub lobby: Arc<crate::lobby::Lobby>,
    /// The études and their attempts' budget (`etudes/`).
    pub etudes: Arc<crate::etudes::Etudes>,
}

impl FromRef<AppState> for crate::etudes::http::EtudeState {
    fn from_ref(s: &AppState) -> crate::etudes::http::EtudeState {
        crate::etudes::http::EtudeState {
            etudes: Arc::clone(&s.etudes),
            analyses: Arc::clone(&s.analyses),
            store: s.store.clone(),
        }
    }
}

impl FromRef<AppState> for Arc<crate::lobby::Lobby> {
    fn from_ref(s: &AppState) -> Arc<crate::lobby::Lobby> {
        Arc::clone(&s.lobby)
    }
}

impl FromRef<AppState> for KeeperState {
    fn from_ref(s: &AppState) -> KeeperState {
        KeeperState {
            keepers: Arc::clone(&s.keepers),
            base_url: s.base_url.clone(),
            budgets: Arc::clone(&s.budgets),
            conns: Arc::clone(&s.conns),
            limits: s.config.limits.clone(),
        }
    }
}

impl FromRef<AppState> for AnalysisState {
    fn from_ref(s: &AppState) -> AnalysisState {
        AnalysisState {
            tables: Arc::clone(&s.tables),
            analyses: Arc::clone(&s.analyses),
            budgets: Arc::clone(&s.budgets),
            max_record_bytes: s.config.limits.analysis_max_record_bytes,
        }
    }
}

impl FromRef<AppState> for Arc<crate::accounts::Accounts> {
    fn from_ref(s: &AppState) -> Arc<crate::accounts::Accounts> {
        Arc::clone(&s.accounts)
    }
}

impl FromRef<AppState> for crate::tournaments::http::TournamentState {
    fn from_ref(s: &AppState) -> crate::tournaments::http::TournamentState {
        crate::tournaments::http::TournamentState {
            tournaments: Arc::clone(&s.tournaments),
            base_url: s.base_url.clone(),
        }
    }
}

impl FromRef<AppState> for SavedState {
    fn from_ref(s: &AppState) -> SavedState {
        SavedState {
            budgets: Arc::clone(&s.budgets),
            store: s.store.clone(),
            config: Arc::clone(&s.config),
            base_url: s.base_url.clone(),
        }
    }
}

/// The whole router.
pub(crate) fn router(state: AppState) -> Router {
    let web = state.config.web_dir.clone();
    let body_limit = state.config.limits.max_body_bytes;
    Router::new()
        .route("/health", get(health))
        .route("/metrics", get(metrics))
        .route("/docs/protocol.md", get(protocol_doc))
        .route("/api/presets", get(presets))
        .route("/api/guide", get(guide))
        .route("/api/tables", post(create_table))
        .route("/api/lobby", get(crate::lobby::http::lobby))
        .route("/api/lobby/ws", get(lobby::lobby_socket))
        .route("/api/profiles", post(crate::saved::create))
        .route("/api/profiles/{id}", get(crate::saved::fetch))
        .route("/api/tables/{id}", get(summary))
        .route("/api/tables/{id}/seats", post(claim_seat))
        .route("/api/tables/{id}/leave", post(leave))
        .route("/api/tables/{id}/start", post(start))
        .route("/api/tables/{id}/profile", put(set_profile))
        .route("/api/tables/{id}/seats/{seat}/remove", post(remove))
        .route("/api/tables/{id}/seats/{seat}/bot", post(seat_bot))
        .route(
            "/api/tables/{id}/seats/{seat}/invite",
            post(bot_seats::invite_bot),
        )
        .route("/api/tables/{id}/end", post(end))
        .route("/api/tables/{id}/stop", post(stop::vote))
        .route("/api/tables/{id}/rematch", post(rematch))
        .route("/api/tables/{id}/rematch/seat", post(rematch_seat))
        .route("/api/tables/{id}/invite", get(invite))
        .route("/api/tables/{id}/clock", post(pause_clock))
        .route("/api/tables/{id}/ws", get(websocket))
        .route("/api/tables/{id}/record", get(record))
        .merge(crate::keeper::http::routes(
            state.config.limits.max_record_bytes,
        ))
        .route_service("/k/{id}", ServeFile::new(web.join("index.html")))
        .merge(crate::accounts::http::routes())
        .merge(crate::accounts::bot_api::routes())
        .merge(crate::tournaments::http::routes())
        .merge(crate::etudes::http::routes())
        .route_service("/etudes", ServeFile::new(web.join("etudes.html")))
        .route_service("/tournaments", ServeFile::new(web.join("tournaments.html")))
        .route_service("/ratings", ServeFile::new(web.join("ratings.html")))
        .route_service(
            "/tournaments/{id}",
            ServeFile::new(web.join("tournaments.html")),
        )
        .route_service("/@/{name}", ServeFile::new(web.join("player.html")))
        .route("/api/tables/{id}/deals/{deal}/analysis", get(deal_analysis))
        .route("/api/tables/{id}/deals/{deal}/hands", get(deal_hands))
        .route(
            "/api/analysis",
            post(record_analysis).layer(DefaultBodyLimit::max(
                state.config.limits.analysis_max_record_bytes,
            )),
        )
        .route(
            "/api/analysis/hands",
            post(record_hands).layer(DefaultBodyLimit::max(
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
                conns: Arc::clone(&state.conns),
            },
            cluster::route,
        ))
        // Who the client is, before the request is forwarded or served.
        .layer(axum::middleware::from_fn_with_state(
            crate::api::client::Identify {
                proxies: state.config.security.trusted_proxies.clone().into(),
                secret: state.config.cluster.secret.clone(),
            },
            crate::api::client::identify,
        ))
        // Outside the forwarding, so that they hold on every node a request passes.
        .layer(axum::middleware::from_fn_with_state(
            state.config.security.clone(),
            edge::origin_policy,
        ))
        .layer(axum::middleware::from_fn_with_state(
            edge::BodyDeadline(state.config.limits.body_read_timeout()),
            edge::body_deadline,
        ))
        .layer(axum::middleware::from_fn(edge::json_errors))
        .layer(axum::middleware::from_fn(edge::security_headers))
        .with_state(state)
}

async fn health(State(s): State<AppState>) -> Json<Health> {
    Json(Health {
        status: "ok".to_owned(),
        tables: s.tables.len(),
    })
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

async fn presets() -> Json<Presets> {
    Json(Presets(
        PRESETS
            .iter()
            .filter_map(|&n| Profile::preset(n).map(|p| (n.to_owned(), p.to_json())))
            .collect(),
    ))
}

/// The rules guide's data, computed by the rules core (`guide.rs`).
async fn guide() -> Result<Json<&'static crate::guide::Guide>, ApiError> {
    crate::guide::guide().map(Json).map_err(ApiError::Internal)
}
