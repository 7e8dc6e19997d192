//! The Preferans table server: tables by link, seats, spectators, hidden cards, durable state.
//!
//! - [`config`]: `config/server.toml` and `PREF_*` overrides.
//! - [`ids`]: table ids and tokens (128 random bits, constant-time comparison, redacted).
//! - [`store`]: SQLite: tables, seats, decks, accepted actions; the source of restores.
//! - [`table`]: one task per table owning its game; commands arrive on its inbox.
//! - [`registry`]: table id → inbox, and the supervisor that rebuilds a panicked table.
//! - [`wire`]: the protocol's messages; [`socket`]: one WebSocket, projecting every item for
//!   its viewer; [`http`]: the routes.
//! - [`metrics`], [`error`]: counters for `/metrics`, the API's one error type.
//! - [`guide`]: the rules guide's data (`/api/guide`): the worked deal replayed, the scoring
//!   examples and the settlement, all computed by the rules core.
//!
//! [`start`] opens the database, restores every unfinished table by replaying it, binds
//! and serves; the binary (`src/main.rs`) only reads the settings and calls it.

pub mod bots;
pub mod config;
pub mod error;
pub mod guide;
pub mod http;
pub mod ids;
pub mod metrics;
pub mod registry;
pub mod socket;
pub mod store;
pub mod table;
pub mod wire;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use crate::config::Config;
use crate::registry::Registry;
use crate::store::{Store, StoreError};
use crate::table::Table;

/// A running server.
#[derive(Debug)]
pub struct Running {
    /// The address it listens on (the real port when the configuration said 0).
    pub addr: SocketAddr,
    /// Tables restored from the database at start.
    pub restored: usize,
    /// The serving task; it runs until aborted.
    pub task: JoinHandle<()>,
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The database could not be opened or read.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// Opens the database, restores unfinished tables, binds and starts serving.
///
/// # Errors
/// [`StartError`] if the database cannot be opened or the address cannot be bound. A stored
/// table that no longer replays is logged and skipped, not fatal.
pub async fn start(config: Config) -> Result<Running, StartError> {
    let store = Store::open(&config.data_dir).await?;
    let tables = Registry::new(store.clone(), config.limits.clone());
    let mut restored = 0;
    for row in store.unfinished().await? {
        let (id, no) = (row.id, row.no);
        match Table::restore(row, store.clone(), config.limits.clone()) {
            Ok(table) => {
                tables.spawn(id, no, table);
                restored += 1;
            }
            Err(e) => {
                tracing::error!(table = no, error = %e, "stored table does not replay; skipped")
            }
        }
    }
    let listener = TcpListener::bind(config.bind)
        .await
        .map_err(|source| StartError::Bind {
            addr: config.bind,
            source,
        })?;
    let addr = listener.local_addr().map_err(|source| StartError::Bind {
        addr: config.bind,
        source,
    })?;
    // Every event is a small frame written on its own: without TCP_NODELAY, Nagle's
    // algorithm holds the second of two quick frames until the first is acknowledged.
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::warn!(error = %e, "cannot set TCP_NODELAY");
        }
    });
    let state = http::AppState {
        tables,
        store,
        base_url: format!("http://{addr}"),
        config: Arc::new(config),
    };
    let app = http::router(state);
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::error!(error = %e, "server stopped");
        }
    });
    Ok(Running {
        addr,
        restored,
        task,
    })
}
