//! The Preferans table server: tables by link, seats, spectators, hidden cards, durable state.
//!
//! One folder per layer, one per feature, each importing only the layers below it
//! (`docs/architecture.md` draws them; `scripts/import-cycles` checks that no two modules
//! import each other):
//!
//! - `edge`: everything that speaks HTTP or WebSocket — the accept loop, the router, its
//!   state and its handlers, the socket loop, the graceful stop. It is the top: it
//!   assembles the tables, the cluster and the features into one router.
//! - Features, a folder each: `accounts` (players who come back: accounts, sessions, a
//!   page per player with his games and statistics), `lobby` (public tables, quick
//!   pairing, games to watch), `keeper` (scorekeeping sheets for
//!   games played with real cards), `saved` (saved house profiles), [`guide`] (the rules guide's data, computed
//!   by the rules core), `analysis` (deal analyses in their own bounded lane),
//!   `tournaments` (duplicate tournaments: the same deals for everyone, scored by comparison),
//!   `etudes` (problems played against the solver's replies, and those found in the games
//!   played here). Each
//!   feature's routes take their own slice of the router's state.
//! - [`cluster`]: several nodes on one PostgreSQL database — takeover of a dead node's
//!   tables, forwarding to the node serving a table, cheap misses.
//! - `table`: a table — its rules as a pure state machine (`table::machine`), the task
//!   that serves it (inbox, write-then-tell, history, broadcast, clock, fair deals), its
//!   bots, the registry of tables and their lifecycle.
//! - `api`: what every route shares — the API's error in its documented shape, the
//!   client's key (trusted proxies, IPv6 /64), the connection caps and budgets every
//!   stranger's request passes, the readers of ids, tokens and bodies.
//! - [`config`]: `config/server.toml` and `PREF_*` overrides, a file per section.
//! - [`store`]: SQLite or PostgreSQL — tables, seats, decks, accepted actions, the table
//!   leases every write checks; the source of restores.
//! - Shared below them all: [`ids`] (table ids and tokens: random, compared in constant
//!   time, redacted, kept only as their SHA-256), `metrics`, `data` (the texts the crate
//!   carries, kept equal to their repository files by a test), `thinking` (the share of
//!   the cores bots and analyses may take).
//!
//! [`start`] opens the database, binds, restores every unfinished table by replaying it (on
//! PostgreSQL: every table whose lease has expired) and serves; the binary (`src/main.rs`) only reads the settings and calls it.

pub(crate) mod accounts;
pub(crate) mod analysis;
pub(crate) mod api;
pub mod cluster;
pub mod config;
pub(crate) mod data;
pub(crate) mod edge;
pub(crate) mod etudes;
pub mod guide;
pub mod ids;
pub(crate) mod keeper;
pub(crate) mod lobby;
pub(crate) mod metrics;
pub(crate) mod saved;
pub mod store;
pub(crate) mod table;
pub(crate) mod thinking;
pub(crate) mod tournaments;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use crate::cluster::Cluster;
use crate::config::Config;
use crate::edge::shutdown::{Shutdown, going_away};
use crate::store::{Database, Store, StoreError};
use crate::table::Table;
use crate::table::registry::Registry;

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
    /// The lobby's rows could not be read.
    #[error("lobby: {0}")]
    Lobby(String),
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
    tokio::spawn(store::keep_marking(store.clone(), node.clone()));
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
    let accounts = Arc::new(accounts::Accounts::new(
        store.clone(),
        Arc::clone(&tables),
        &config,
    ));
    let tournaments =
        Arc::new(tournaments::Tournaments::load(store.clone(), &config.tournaments).await?);
    tournaments::Tournaments::daily(&tournaments);
    tournaments::Tournaments::follow(&tournaments);
    let config = Arc::new(config);
    let lobby = lobby::Lobby::new(
        store.clone(),
        Arc::clone(&tables),
        Arc::clone(&config),
        format!("http://{addr}"),
        node.clone(),
    )
    .await
    .map_err(|e| StartError::Lobby(e.to_string()))?;
    lobby.follow();
    let analyses = Arc::new(analysis::Analyses::new(&config.limits));
    // The players' accuracy: their finished games analysed in the background.
    analysis::accuracy::follow(store.clone(), Arc::clone(&tables), Arc::clone(&analyses));
    let state = edge::http::AppState {
        tournaments,
        lobby,
        accounts,
        budgets: Arc::new(api::budgets::Budgets::new(&config.limits)),
        conns: Arc::default(),
        keepers,
        tables: Arc::clone(&tables),
        store,
        cluster: cluster.clone(),
        shutdown: stop.clone(),
        base_url: format!("http://{addr}"),
        analyses,
        etudes: Arc::new(etudes::Etudes::new(&config.limits)),
        config,
    };
    etudes::scan::every_while(
        state.store.clone(),
        state.config.limits.clone(),
        Arc::clone(&state.analyses),
    );
    let serving = edge::serve::Serving {
        header_read_timeout: state.config.limits.header_read_timeout(),
    };
    let app = edge::http::router(state);
    let mut going = stop.watch();
    let task = tokio::spawn(edge::serve::serve(listener, app, serving, async move {
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
