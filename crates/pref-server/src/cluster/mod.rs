//! Several nodes on one PostgreSQL database: which node serves a table, taking over the
//! tables of a node that died, and sending a request to the node that serves its table.
//!
//! Every node runs two loops. The *renewer* extends this node's leases every third of a
//! lease and stops serving a table whose lease it no longer holds, or whose deadline its
//! own clock says has passed (`store/lease.rs`). The *taker* takes expired leases of unfinished
//! tables (a dead node's, or a node's that lost the database) and restores those tables by
//! replaying them. A request for a table this node does not serve is looked up: served
//! elsewhere, it is forwarded there (`proxy.rs`); expired, this node takes the lease at
//! once instead of waiting for its taker, so reconnecting clients bring their table back.
//!
//! Nodes trust each other only with the cluster's shared secret (`cluster.secret`): a
//! forwarded request carries it in [`client::FORWARDED`], and a request that claims to be
//! forwarded without it is refused. Lookups of tables this node does not serve are guarded
//! (`lookups.rs`) so that random ids cannot load the database, and the heartbeat renews on a
//! connection of its own ([`Store::heartbeat`]).

pub(crate) mod lookups;
pub(crate) mod proxy;

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sqlx::postgres::PgPool;
use tokio::sync::Mutex;

use crate::api::client::{self, ClientKey};
use crate::api::error::ApiError;
use crate::cluster::lookups::Lookups;
use crate::config::{self, Limits};
use crate::ids::Secret;
use crate::store::lease::{self, Leases};
use crate::store::{Store, StoreError};
use crate::table::Table;
use crate::table::registry::Registry;

/// Leases taken in one statement by the taker; it repeats until fewer come back.
const TAKE_BATCH: i64 = 500;

/// This node's part in the cluster.
#[derive(Debug)]
pub struct Cluster {
    /// The store whose writes the leases fence.
    store: Store,
    /// Its PostgreSQL pool.
    pool: PgPool,
    /// The heartbeat's own connection.
    beat: PgPool,
    /// The cluster's settings: the shared secret, the lookup guards, the pump's timeout.
    settings: config::Cluster,
    /// The guards in front of lookups of tables served elsewhere or nowhere.
    lookups: Lookups,
    /// The leases this node holds.
    leases: Arc<Leases>,
    /// The tables this node serves.
    registry: Arc<Registry>,
    /// For restored tables.
    limits: Limits,
    /// One takeover at a time on this node, so that two requests for the same expired
    /// table restore it once.
    taking: Mutex<()>,
    /// The renewer and the taker, stopped when the node leaves.
    loops: std::sync::Mutex<Vec<tokio::task::AbortHandle>>,
}

/// Where a table is served, as seen from this node.
#[derive(Debug)]
enum Place {
    /// Here (or nowhere: the handler answers `no_table`).
    Here,
    /// By the node at this address.
    There(String),
}

impl Cluster {
    /// Registers this node under `addr`, takes every expired lease, restores those tables
    /// and starts the renewer and the taker. Returns the cluster and the tables restored.
    ///
    /// # Errors
    /// [`StoreError`] if the database cannot be reached.
    pub async fn start(
        store: Store,
        registry: Arc<Registry>,
        limits: Limits,
        settings: &config::Cluster,
        addr: &str,
    ) -> Result<(Arc<Cluster>, usize), StoreError> {
        let (Some(pool), Some(beat), Some(leases)) = (
            store.postgres().cloned(),
            store.heartbeat().cloned(),
            store.leases().cloned(),
        ) else {
            return Err(StoreError::Url("a cluster needs PostgreSQL"));
        };
        // A single node on PostgreSQL needs no secret, so this is no warning.
        if settings.secret.is_none() {
            tracing::info!(
                "cluster.secret is not set: any client can pass for a node forwarding a request"
            );
        }
        lease::register(&beat, &leases, addr).await?;
        let cluster = Arc::new(Cluster {
            store,
            pool,
            beat,
            settings: settings.clone(),
            lookups: Lookups::new(
                settings.lookups_per_second,
                settings.miss_cache_secs.duration(),
            ),
            leases,
            registry,
            limits,
            taking: Mutex::new(()),
            loops: std::sync::Mutex::new(Vec::new()),
        });
        let restored = cluster.take_expired().await?;
        let renewer = tokio::spawn(Arc::clone(&cluster).renewer()).abort_handle();
        let taker = tokio::spawn(Arc::clone(&cluster).taker()).abort_handle();
        if let Ok(mut loops) = cluster.loops.lock() {
            loops.extend([renewer, taker]);
        }
        Ok((cluster, restored))
    }

    /// Leaves the cluster, for a node shutting down after its tables have stopped: the
    /// renewer and the taker stop, no lease is held any more, and the heartbeat is marked
    /// run out in the database, so that any other node takes these tables at once (its
    /// taker, or a reconnecting client's request).
    ///
    /// # Errors
    /// [`StoreError::Db`] if the heartbeat cannot be ended; the leases then run out at
    /// their expiry as if the node had died.
    pub async fn leave(&self) -> Result<usize, StoreError> {
        if let Ok(mut loops) = self.loops.lock() {
            for task in loops.drain(..) {
                task.abort();
            }
        }
        let _guard = self.taking.lock().await;
        let released = self.leases.release_all().len();
        lease::end(&self.beat, &self.leases).await?;
        Ok(released)
    }

    /// This node's id.
    #[must_use]
    pub fn node(&self) -> &str {
        self.leases.node()
    }

    /// Renews the heartbeat every third of a lease. A node whose heartbeat lapsed, or whose
    /// own clock gave up on it, stops serving every table (their sockets close and the
    /// clients reconnect), then takes back those nobody else has taken.
    async fn renewer(self: Arc<Cluster>) {
        let mut tick = tokio::time::interval(self.leases.lease() / 3);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut reclaim = false;
        loop {
            tick.tick().await;
            let beat = lease::beat(&self.beat, &self.leases).await;
            if !self.leases.alive() {
                let dropped = self.leases.release_all();
                if !dropped.is_empty() {
                    tracing::error!(
                        tables = dropped.len(),
                        "heartbeat not renewed in time; tables dropped"
                    );
                }
                self.drop_tables(dropped);
                reclaim = true;
            }
            match beat {
                Ok(lease::Beat::Renewed) => {}
                Ok(lease::Beat::Lapsed(lost)) => {
                    tracing::error!(tables = lost.len(), "heartbeat had lapsed; tables dropped");
                    self.drop_tables(lost);
                    reclaim = true;
                }
                Err(e) => tracing::error!(error = %e, "heartbeat not renewed"),
            }
            if reclaim && self.leases.alive() {
                let _guard = self.taking.lock().await;
                match lease::take_mine(&self.pool, &self.leases).await {
                    Ok(mine) => {
                        reclaim = false;
                        for no in mine {
                            self.restore(no).await;
                        }
                    }
                    Err(e) => tracing::error!(error = %e, "own tables not taken back"),
                }
            }
        }
    }

    fn drop_tables(&self, nos: Vec<i64>) {
        for no in nos {
            self.registry.remove_no(no);
        }
    }

    /// Takes expired leases every third of a lease, and every ten leases clears the leases
    /// of finished games and the rows of nodes dead for ten leases.
    async fn taker(self: Arc<Cluster>) {
        let mut tick = tokio::time::interval(self.leases.lease() / 3);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        for n in 0u64.. {
            tick.tick().await;
            if let Err(e) = self.take_expired().await {
                tracing::error!(error = %e, "expired leases not taken");
            }
            if n % 30 == 29 {
                match lease::sweep(&self.pool, self.leases.lease() * 10).await {
                    Ok((0, 0)) => {}
                    Ok((leases, nodes)) => {
                        tracing::info!(
                            leases,
                            nodes,
                            "finished games' leases and dead nodes cleared"
                        );
                    }
                    Err(e) => tracing::error!(error = %e, "leases and nodes not cleared"),
                }
            }
        }
    }

    /// Takes and restores expired tables until none is left; returns how many.
    async fn take_expired(&self) -> Result<usize, StoreError> {
        let mut restored = 0;
        loop {
            let _guard = self.taking.lock().await;
            let taken = lease::take_expired(&self.pool, &self.leases, TAKE_BATCH).await?;
            for &no in &taken {
                restored += usize::from(self.restore(no).await);
            }
            if !taken.is_empty() {
                tracing::info!(taken = taken.len(), "tables taken over from lapsed nodes");
            }
            if (taken.len() as i64) < TAKE_BATCH {
                return Ok(restored);
            }
        }
    }

    /// Restores table `no`, whose lease this node has just taken; `false` (and the lease
    /// let go) if it is over or does not replay.
    async fn restore(&self, no: i64) -> bool {
        let row = match self.store.table(no).await {
            Ok(Some(row)) => row,
            Ok(None) => {
                self.leases.release(no);
                return false;
            }
            Err(e) => {
                tracing::error!(table = no, error = %e, "taken table cannot be read");
                self.leases.release(no);
                return false;
            }
        };
        let id = row.id;
        match Table::restore(row, self.store.clone(), self.limits.clone()) {
            Ok(table) => {
                self.registry.remove(&id);
                self.registry.spawn(id, no, table);
                tracing::debug!(table = no, "table taken over");
                true
            }
            Err(e) => {
                tracing::error!(table = no, error = %e, "taken table does not replay; skipped");
                self.leases.release(no);
                false
            }
        }
    }

    /// Whether a request that says it was forwarded by a node carries the cluster's secret
    /// (`value` of [`client::FORWARDED`]); with no secret set, any node is believed.
    fn trusts(&self, value: &axum::http::HeaderValue) -> bool {
        self.settings
            .secret
            .as_ref()
            .is_none_or(|secret| client::carries(secret, value))
    }

    /// Where table `id` is served; takes its lease if it has expired. An id found missing
    /// lately answers `no_table`, and lookups beyond the guard's rate `unavailable`, without
    /// a query.
    async fn locate(&self, id: &Secret) -> Result<Place, ApiError> {
        for _ in 0..2 {
            if self.registry.contains(id) {
                return Ok(Place::Here);
            }
            if self.lookups.missed(id).await {
                return Err(ApiError::NoTable);
            }
            if !self.lookups.allow() {
                return Err(ApiError::Unavailable);
            }
            let Some(route) = lease::route(&self.pool, id)
                .await
                .map_err(StoreError::from)?
            else {
                return Ok(Place::Here);
            };
            let mine = route.node == self.leases.node();
            if !mine && !route.expired {
                return Ok(Place::There(route.addr));
            }
            if mine && self.leases.epoch(route.no).is_some() {
                // Being created or restored right now.
                return Err(ApiError::Unavailable);
            }
            let _guard = self.taking.lock().await;
            if self.registry.contains(id) {
                return Ok(Place::Here);
            }
            if lease::take(&self.pool, &self.leases, route.no)
                .await
                .map_err(StoreError::from)?
            {
                self.restore(route.no).await;
                return Ok(Place::Here);
            }
        }
        Err(ApiError::Unavailable)
    }
}

/// The table id in `/api/tables/{id}` and `/api/tables/{id}/…`.
fn table_in_path(path: &str) -> Option<Secret> {
    let rest = path.strip_prefix("/api/tables/")?;
    Secret::parse(rest.split('/').next()?)
}

/// What [`route`] needs: this node's part in the cluster (none on SQLite) and the limits
/// of the forwarding.
#[derive(Clone, Debug)]
pub struct Routing {
    /// The cluster, on PostgreSQL.
    pub cluster: Option<Arc<Cluster>>,
    /// The limits.
    pub limits: Limits,
    /// The node's open sockets: a forwarded one counts under its client here too.
    pub conns: Arc<crate::api::conns::Conns>,
}

/// Middleware: a request for a table served by another node goes to that node. A request
/// that was already forwarded is never forwarded again (a lease that moved in between
/// answers `unavailable`, and the client retries).
///
/// A request carrying [`client::FORWARDED`] without the cluster's secret is refused (`403`)
/// before anything else: only a node may say it forwards. A table found nowhere is
/// remembered as missing (`lookups.rs`).
pub async fn route(State(s): State<Routing>, req: Request, next: Next) -> Response {
    let Some(cluster) = s.cluster.as_ref() else {
        return next.run(req).await;
    };
    let forwarded = req.headers().get(client::FORWARDED);
    if forwarded.is_some_and(|v| !cluster.trusts(v)) {
        return ApiError::Forbidden("forwarded without the cluster's secret").into_response();
    }
    let forwarded = forwarded.is_some();
    let Some(id) = table_in_path(req.uri().path()) else {
        return next.run(req).await;
    };
    match cluster.locate(&id).await {
        Ok(Place::Here) => {
            let answer = next.run(req).await;
            if answer.status() == axum::http::StatusCode::NOT_FOUND
                && !cluster.registry.contains(&id)
            {
                cluster.lookups.miss(id).await;
            }
            answer
        }
        Ok(Place::There(addr)) => {
            if forwarded {
                return ApiError::Unavailable.into_response();
            }
            let client = req.extensions().get::<ClientKey>().copied();
            // A forwarded socket holds descriptors here: it passes this node's admission.
            let place = if proxy::is_upgrade(&req) {
                match s.conns.admit_forwarded(&s.limits, client) {
                    Ok(place) => Some(place),
                    Err(e) => return ApiError::RateLimited(e.to_string()).into_response(),
                }
            } else {
                None
            };
            let forwarding = proxy::Forwarding {
                secret: cluster.settings.secret.as_deref().unwrap_or("1"),
                send_timeout: cluster
                    .settings
                    .forward_send_timeout_ms
                    .at_least(std::time::Duration::from_millis(1)),
                limits: &s.limits,
                client,
            };
            proxy::forward(req, &addr, &forwarding, place).await
        }
        Err(e) => e.into_response(),
    }
}
