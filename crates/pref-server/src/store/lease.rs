//! Table leases on PostgreSQL: which node serves which table, and until when. They live
//! in the store because every deck and action write checks them in its transaction; the
//! cluster (`cluster/`) renews, takes over and routes by them.
//!
//! A lease row says that node `node` holds table `table_no` at `epoch`; it lasts as long as
//! the node's heartbeat (`nodes.expires`), which the node renews every third of a lease.
//! One heartbeat covers every table of the node, so renewing costs one row per node
//! whatever the number of tables. `expires` is always computed by the database
//! (`now() + lease`), so the nodes' clocks never have to agree. A node believes its own
//! heartbeat only until its *own* monotonic clock, started before it sent the renewal, has
//! run `lease - margin`: the database set the expiry no earlier than that start, so the
//! node stops before the database lets anybody else in, as long as its clock runs less than
//! `margin / lease` slow (docs/scaling.md). Even a node that misjudges that cannot do harm:
//! every deck and action it writes names the epoch it holds (`store/group.rs`), and a lease taken
//! over has a new one.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use sqlx::postgres::{PgPool, PgRow};
use sqlx::{Postgres, Row, Transaction};
use tokio::time::Instant;

use crate::ids::Secret;

/// This node's identity, its heartbeat and the leases it holds.
#[derive(Debug)]
pub struct Leases {
    /// A fresh random id per process: a restarted node is a new node.
    node: String,
    /// How long the heartbeat lasts past its last renewal.
    lease: Duration,
    /// Held leases: table row number → epoch. A `std` mutex, held only to read or change it.
    held: Mutex<HashMap<i64, i64>>,
    /// When this node's own clock says its heartbeat may have run out (less the margin).
    deadline: Mutex<Instant>,
}

impl Leases {
    /// No leases yet, for a new node id; the heartbeat counts as run out until
    /// [`beat`] succeeds.
    #[must_use]
    pub fn new(lease: Duration) -> Leases {
        Leases {
            node: Secret::random().expose()[..16].to_owned(),
            lease,
            held: Mutex::new(HashMap::new()),
            deadline: Mutex::new(Instant::now()),
        }
    }

    /// This node's id.
    #[must_use]
    pub fn node(&self) -> &str {
        &self.node
    }

    /// The lease length.
    #[must_use]
    pub fn lease(&self) -> Duration {
        self.lease
    }

    /// How long before the database's expiry this node stops: a quarter of the lease,
    /// which covers a node clock up to 25 % slow, with the renewal's round trip on top.
    #[must_use]
    pub fn margin(&self) -> Duration {
        self.lease / 4
    }

    /// Whether this node's own clock still trusts its heartbeat.
    #[must_use]
    pub fn alive(&self) -> bool {
        self.deadline.lock().is_ok_and(|d| Instant::now() < *d)
    }

    /// The epoch table `no` is held at, if this node holds it and its clock still says so.
    #[must_use]
    pub fn epoch(&self, no: i64) -> Option<i64> {
        if !self.alive() {
            return None;
        }
        self.held.lock().ok()?.get(&no).copied()
    }

    /// Records a lease taken at `epoch`.
    pub fn hold(&self, no: i64, epoch: i64) {
        if let Ok(mut held) = self.held.lock() {
            held.insert(no, epoch);
        }
    }

    /// Forgets table `no`.
    pub fn release(&self, no: i64) {
        if let Ok(mut held) = self.held.lock() {
            held.remove(&no);
        }
    }

    /// Forgets every lease and returns the tables it held.
    pub fn release_all(&self) -> Vec<i64> {
        self.held
            .lock()
            .map(|mut h| h.drain().map(|(no, _)| no).collect())
            .unwrap_or_default()
    }

    /// Every held table and its epoch.
    #[must_use]
    pub fn all(&self) -> Vec<(i64, i64)> {
        self.held
            .lock()
            .map(|h| h.iter().map(|(&no, &e)| (no, e)).collect())
            .unwrap_or_default()
    }

    fn lease_ms(&self) -> i64 {
        i64::try_from(self.lease.as_millis()).unwrap_or(i64::MAX)
    }

    fn renewed(&self, sent: Instant) {
        if let Ok(mut d) = self.deadline.lock() {
            *d = sent + self.lease.saturating_sub(self.margin());
        }
    }
}

/// Starts this node's heartbeat: registers it with the address other nodes forward to.
///
/// # Errors
/// The database's error.
pub async fn register(pool: &PgPool, leases: &Leases, addr: &str) -> Result<(), sqlx::Error> {
    let sent = Instant::now();
    sqlx::query(
        "INSERT INTO nodes (id, addr, expires)
         VALUES ($1, $2, now() + $3 * INTERVAL '1 millisecond')
         ON CONFLICT (id) DO UPDATE SET addr = excluded.addr, expires = excluded.expires",
    )
    .bind(&leases.node)
    .bind(addr)
    .bind(leases.lease_ms())
    .execute(pool)
    .await?;
    leases.renewed(sent);
    Ok(())
}

/// What a heartbeat found.
#[derive(Debug, PartialEq, Eq)]
pub enum Beat {
    /// Renewed: every held lease lasts another lease from now.
    Renewed,
    /// The heartbeat had already run out by the database's clock: other nodes may have
    /// taken any of this node's tables, so it let go of all of them (listed).
    Lapsed(Vec<i64>),
}

/// Renews this node's heartbeat, unless it has already run out by the database's clock;
/// then every lease is let go, and the heartbeat starts again for the leases to come.
///
/// # Errors
/// The database's error; the leases then run on towards this node's deadline.
pub async fn beat(pool: &PgPool, leases: &Leases) -> Result<Beat, sqlx::Error> {
    let sent = Instant::now();
    let renewed = sqlx::query(
        "UPDATE nodes SET expires = now() + $2 * INTERVAL '1 millisecond'
         WHERE id = $1 AND expires > now()",
    )
    .bind(&leases.node)
    .bind(leases.lease_ms())
    .execute(pool)
    .await?
    .rows_affected();
    if renewed == 1 {
        leases.renewed(sent);
        return Ok(Beat::Renewed);
    }
    let lost = leases.release_all();
    sqlx::query("UPDATE nodes SET expires = now() + $2 * INTERVAL '1 millisecond' WHERE id = $1")
        .bind(&leases.node)
        .bind(leases.lease_ms())
        .execute(pool)
        .await?;
    leases.renewed(sent);
    Ok(Beat::Lapsed(lost))
}

/// Ends this node's heartbeat now, by the database's clock: every lease naming this node
/// counts as run out from this moment. The node must have let go of its leases first.
///
/// # Errors
/// The database's error.
pub async fn end(pool: &PgPool, leases: &Leases) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE nodes SET expires = now() - INTERVAL '1 millisecond' WHERE id = $1")
        .bind(&leases.node)
        .execute(pool)
        .await?;
    Ok(())
}

/// Gives `leases`' node the lease of new table `no` at epoch 1.
///
/// # Errors
/// The database's error.
pub(crate) async fn insert(
    tx: &mut Transaction<'_, Postgres>,
    leases: &Leases,
    no: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO leases (table_no, node, epoch) VALUES ($1, $2, 1)")
        .bind(no)
        .bind(&leases.node)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The lease condition "its node's heartbeat has run out"; through the index on
/// `leases.node`, it reads only the leases of lapsed nodes.
const LAPSED: &str = "l.node IN (SELECT n.id FROM nodes n WHERE n.expires < now())";

/// The last holder's mark of until when it served (`store/served.rs`), copied into the
/// lease as it is taken: in `SET`, `leases.node` is still the old holder.
const SERVED: &str = "served_ms = (SELECT s.until_ms FROM served s WHERE s.node = leases.node)";

/// Clears what no node needs any more: the leases of finished games (nothing is written to
/// them, and any node shows them from the database) and of expired lobbies and the rows of nodes whose heartbeat
/// ran out more than `after` ago and that no lease names. Returns how many leases and
/// nodes went.
///
/// # Errors
/// The database's error.
pub async fn sweep(pool: &PgPool, after: Duration) -> Result<(u64, u64), sqlx::Error> {
    let leases = sqlx::query(
        "DELETE FROM leases l USING tables t WHERE t.no = l.table_no
           AND t.state IN ('over', 'expired')",
    )
    .execute(pool)
    .await?
    .rows_affected();
    let nodes = sqlx::query(
        "DELETE FROM nodes n
         WHERE n.expires < now() - $1 * INTERVAL '1 millisecond'
           AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.node = n.id)",
    )
    .bind(i64::try_from(after.as_millis()).unwrap_or(i64::MAX))
    .execute(pool)
    .await?
    .rows_affected();
    Ok((leases, nodes))
}

/// Takes the leases of up to `limit` unfinished tables whose node's heartbeat has run out;
/// returns their row numbers (the caller restores them). Rows another node is taking at the
/// same moment are skipped, not waited for.
///
/// # Errors
/// The database's error.
pub async fn take_expired(
    pool: &PgPool,
    leases: &Leases,
    limit: i64,
) -> Result<Vec<i64>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "UPDATE leases SET node = $1, epoch = epoch + 1, {SERVED}
         WHERE table_no IN (
             SELECT l.table_no FROM leases l JOIN tables t ON t.no = l.table_no
             WHERE t.state IN ('lobby', 'playing') AND {LAPSED}
             ORDER BY l.table_no LIMIT $2
             FOR UPDATE OF l SKIP LOCKED)
         RETURNING table_no, epoch"
    ))
    .bind(&leases.node)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    Ok(hold_all(leases, &rows))
}

/// Holds every `(table_no, epoch)` row a taking query returned; returns the row numbers.
fn hold_all(leases: &Leases, rows: &[PgRow]) -> Vec<i64> {
    rows.iter()
        .map(|r| {
            let (no, epoch): (i64, i64) = (r.get(0), r.get(1));
            leases.hold(no, epoch);
            no
        })
        .collect()
}

/// Takes back, at a new epoch, the leases that still name this node but that it let go
/// (its heartbeat lapsed, or its own clock gave up on it); returns their row numbers.
///
/// # Errors
/// The database's error.
pub async fn take_mine(pool: &PgPool, leases: &Leases) -> Result<Vec<i64>, sqlx::Error> {
    let held: Vec<i64> = leases.all().into_iter().map(|h| h.0).collect();
    let rows = sqlx::query(&format!(
        "UPDATE leases SET epoch = epoch + 1, {SERVED}
         WHERE table_no IN (
             SELECT l.table_no FROM leases l JOIN tables t ON t.no = l.table_no
             WHERE l.node = $1 AND t.state IN ('lobby', 'playing') AND l.table_no <> ALL($2)
             ORDER BY l.table_no
             FOR UPDATE OF l SKIP LOCKED)
         RETURNING table_no, epoch"
    ))
    .bind(&leases.node)
    .bind(&held)
    .fetch_all(pool)
    .await?;
    Ok(hold_all(leases, &rows))
}

/// Takes table `no`'s lease if its node's heartbeat has run out, or if it names this node
/// but is not held here.
///
/// # Errors
/// The database's error.
pub async fn take(pool: &PgPool, leases: &Leases, no: i64) -> Result<bool, sqlx::Error> {
    let epoch: Option<i64> = sqlx::query_scalar(&format!(
        "UPDATE leases l SET node = $1, epoch = epoch + 1,
         served_ms = (SELECT s.until_ms FROM served s WHERE s.node = l.node)
         WHERE table_no = $2 AND (l.node = $1 OR {LAPSED})
         RETURNING epoch"
    ))
    .bind(&leases.node)
    .bind(no)
    .fetch_optional(pool)
    .await?;
    if let Some(epoch) = epoch {
        leases.hold(no, epoch);
    }
    Ok(epoch.is_some())
}

/// Where table `id` is served.
#[derive(Debug)]
pub struct Route {
    /// The table's row number.
    pub no: i64,
    /// The holding node's id.
    pub node: String,
    /// The holding node's address.
    pub addr: String,
    /// Whether the holder's heartbeat has run out by the database's clock.
    pub expired: bool,
}

/// Looks up the node serving table `id` (a finished game stays with its last holder until
/// that node stops); `None` for an unknown table.
///
/// # Errors
/// The database's error.
pub async fn route(pool: &PgPool, id: &Secret) -> Result<Option<Route>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT t.no, l.node, COALESCE(n.addr, ''), COALESCE(n.expires < now(), TRUE)
         FROM tables t JOIN leases l ON l.table_no = t.no
         LEFT JOIN nodes n ON n.id = l.node
         WHERE t.id = $1",
    )
    .bind(id.expose())
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|r| Route {
        no: r.get(0),
        node: r.get(1),
        addr: r.get(2),
        expired: r.get(3),
    }))
}
