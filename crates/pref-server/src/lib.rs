//! The Preferans table server: tables by link, seats, spectators, hidden cards, durable state.
//!
//! - [`config`]: `config/server.toml` and `PREF_*` overrides.
//! - [`data`]: the texts the crate carries (the protocol document, the worked deal), kept
//!   equal to their repository files by a test.
//! - [`ids`]: table ids and tokens (128 random bits, constant-time comparison, redacted);
//!   tokens are kept only as their SHA-256, and a table's invite key is made from the host
//!   token (only its hash is stored).
//! - [`store`]: SQLite or PostgreSQL: tables, seats, decks, accepted actions; the source of
//!   restores.
//! - [`lease`], [`cluster`], [`proxy`]: several nodes on one PostgreSQL database: table
//!   leases, takeover of a dead node's tables, forwarding to the node serving a table;
//!   [`lookups`]: cheap misses for ids this node does not serve.
//! - [`machine`]: the table as a pure state machine (lobby, seats, host rules, the game's
//!   phases): `apply(op)` refuses with a typed error or says what to store and broadcast.
//! - [`table`]: one task per table around its machine: inbox, write-then-tell, history,
//!   broadcast, bots; [`command`]: what the task is asked and what a socket subscribes to.
//! - [`registry`]: table id → inbox, and the supervisor that rebuilds a panicked table;
//!   [`lifecycle`]: idle lobbies expire, unused finished games leave memory, only live
//!   tables count toward `max_tables`.
//! - [`wire`]: the items a table broadcasts inside the server and their projection to the
//!   `pref-protocol` messages; [`socket`]: one WebSocket, projecting every item for its
//!   viewer; [`http`]: the routes. Only these edges turn the machine's errors into HTTP
//!   answers or `rejected` messages.
//! - [`shutdown`]: the flag that stops a node gracefully (SIGTERM/SIGINT): sockets close
//!   with 1001, tables finish what they hold, leases are let go.
//! - [`serve`]: the accept loop: hyper's HTTP/1.1 server per connection with the node's
//!   header-read timeout, the client's address, upgrades and the graceful shutdown.
//! - [`edge`]: what every answer goes through: security headers, the WebSocket Origin
//!   policy, errors in the documented JSON shape, the deadline of a request's body.
//! - [`thinking`]: the share of the cores bots and analyses may take.
//! - [`conns`], [`budget`]: sockets counted per address, table and seat token with their
//!   caps; the `governor` budgets shared across connections (chat and `resync` per seat and
//!   per table's spectators, table openings per address).
//! - [`metrics`], [`error`]: counters for `/metrics`, the API's one error type.
//! - [`keeper`]: scorekeeping sheets for games played with real cards: the keeper enters
//!   each deal's outcome, the core scores the sheet, watchers follow it live.
//! - [`guide`]: the rules guide's data (`/api/guide`): the worked deal replayed, the scoring
//!   examples and the settlement, all computed by the rules core.
//!
//! [`start`] opens the database, binds, restores every unfinished table by replaying it (on
//! PostgreSQL: every table whose lease has expired) and serves; the binary (`src/main.rs`) only reads the settings and calls it.

pub mod analysis;
pub mod bots;
pub mod budget;
pub mod client;
pub mod cluster;
pub mod command;
pub mod config;
pub mod conns;
pub mod data;
pub mod edge;
pub mod error;
pub mod guide;
pub mod http;
pub mod ids;
pub mod keeper;
pub mod lease;
pub mod lifecycle;
pub mod lookups;
pub mod machine;
pub mod metrics;
pub mod proxy;
pub mod registry;
pub mod saved;
pub mod serve;
pub mod shutdown;
pub mod socket;
pub mod store;
pub mod table;
pub mod thinking;
pub mod wire;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use crate::cluster::Cluster;
use crate::config::Config;
use crate::registry::Registry;
use crate::shutdown::{Shutdown, going_away};
use crate::store::{Database, Store, StoreError};
use crate::table::Table;

/// A running server.
#[derive(Debug)]
pub struct Running {
    /// The address it listens on (the real port when the configuration said 0).
    pub addr: SocketAddr,
    /// Tables restored from the database at start.
    pub restored: usize,
    /// The serving task; it runs until aborted or [`Running::shutdown`].
    pub task: JoinHandle<()>,
    /// Raised by [`Running::shutdown`].
    stop: Shutdown,
    /// The tables served here.
    tables: Arc<Registry>,
    /// This node's part in a cluster (PostgreSQL).
    cluster: Option<Arc<Cluster>>,
}

/// How long a shutdown waits for open connections to finish before it goes on without them.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

impl Running {
    /// Stops gracefully: no new connection is accepted; every socket finishes the message it
    /// is handling (an action is committed and acknowledged) and closes with 1001; every
    /// table finishes what its inbox holds and stops; on PostgreSQL the node leaves the
    /// cluster, so another node takes its tables at once. Returns once all that is done.
    pub async fn shutdown(self) {
        self.stop.begin();
        let mut task = self.task;
        let closed = async {
            let _ = (&mut task).await;
            self.stop.sockets_closed().await;
        };
        if tokio::time::timeout(SHUTDOWN_GRACE, closed).await.is_err() {
            tracing::warn!("connections still open after the shutdown grace; going on");
            task.abort();
        }
        self.tables.drain_and_stop().await;
        if let Some(cluster) = &self.cluster {
            match cluster.leave().await {
                Ok(released) => tracing::info!(released, "leases let go"),
                Err(e) => tracing::error!(error = %e, "leases not let go; they will expire"),
            }
        }
    }
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

/// Opens the database, binds, restores unfinished tables and starts serving.
///
/// # Errors
/// [`StartError`] if the database cannot be opened or the address cannot be bound. A stored
/// table that no longer replays is logged and skipped, not fatal.
pub async fn start(config: Config) -> Result<Running, StartError> {
    let db = config.database()?;
    let store = Store::connect(&db, config.lease()).await?;
    let permits = thinking::configure(&config.bots);
    tracing::info!(permits, "bots and analyses may think at once");
    let tables = Registry::with(
        store.clone(),
        config.limits.clone(),
        config.lifecycle.clone(),
    );
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
    let (cluster, restored) = match db {
        Database::Sqlite(_) => {
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
            (None, restored)
        }
        Database::Postgres(_) => {
            let node_addr = config
                .cluster
                .node_addr
                .clone()
                .unwrap_or_else(|| addr.to_string());
            let (cluster, restored) = Cluster::start(
                store.clone(),
                Arc::clone(&tables),
                config.limits.clone(),
                &config.cluster,
                &node_addr,
            )
            .await?;
            tracing::info!(node = cluster.node(), addr = %node_addr, "node registered");
            (Some(cluster), restored)
        }
    };
    // From now on (the restores above read the last life's mark) this node marks that it
    // serves, so that a later restore credits an outage to the player to act.
    let node = cluster
        .as_ref()
        .map_or_else(|| store::LOCAL.to_owned(), |c| c.node().to_owned());
    tokio::spawn(store::keep_marking(store.clone(), node));
    // Every event is a small frame written on its own: without TCP_NODELAY, Nagle's
    // algorithm holds the second of two quick frames until the first is acknowledged.
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::warn!(error = %e, "cannot set TCP_NODELAY");
        }
    });
    let stop = Shutdown::new();
    let keepers = Arc::new(keeper::Keepers::new(store.clone(), config.limits.clone()));
    keeper::Keepers::sweeper(&keepers);
    saved::expiry(store.clone(), &config);
    let state = http::AppState {
        budgets: Arc::new(budget::Budgets::new(&config.limits)),
        conns: Arc::default(),
        keepers,
        tables: Arc::clone(&tables),
        store,
        cluster: cluster.clone(),
        shutdown: stop.clone(),
        base_url: format!("http://{addr}"),
        analyses: Arc::new(analysis::Analyses::new(&config.limits)),
        config: Arc::new(config),
    };
    let serving = serve::Serving {
        header_read_timeout: state.config.limits.header_read_timeout(),
    };
    let app = http::router(state);
    let mut going = stop.watch();
    let task = tokio::spawn(serve::serve(listener, app, serving, async move {
        going_away(&mut going).await
    }));
    Ok(Running {
        addr,
        restored,
        task,
        stop,
        tables,
        cluster,
    })
}
