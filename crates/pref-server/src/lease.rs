//! Table leases on PostgreSQL: which node serves which table, and until when.
//!
//! A lease row says that node `node` holds table `table_no` at `epoch` until `expires`.
//! `expires` is always computed by the database (`now() + lease`), so the nodes' clocks
//! never have to agree. A node believes its own lease only until its *own* monotonic
//! clock, started before it sent the renewal, has run `lease - margin`: the database set
//! the expiry no earlier than that start, so the node stops before the database could let
//! anybody else in, as long as its clock runs less than `margin / lease` slow
//! (docs/scaling.md). Even a node that misjudges that cannot do harm: every deck and action
//! it writes names the epoch it holds (`store.rs`), and a taken-over lease has a new one.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use sqlx::postgres::PgPool;
use sqlx::{Postgres, Row, Transaction};
use tokio::time::Instant;

use crate::ids::Secret;

/// A lease this node holds.
#[derive(Clone, Copy, Debug)]
struct Held {
    /// The epoch it was taken at; writes carry it.
    epoch: i64,
    /// When this node's own clock says the lease may have run out (less the margin).
    deadline: Instant,
}

/// This node's identity and the leases it holds.
#[derive(Debug)]
pub struct Leases {
    /// A fresh random id per process: a restarted node is a new node.
    node: String,
    /// How long a lease lasts past its last renewal.
    lease: Duration,
    /// Held leases by table row number. A `std` mutex, held only to read or change the map.
    held: Mutex<HashMap<i64, Held>>,
}

impl Leases {
    /// No leases yet, for a new node id.
    #[must_use]
    pub fn new(lease: Duration) -> Leases {
        Leases {
            node: Secret::random().expose()[..16].to_owned(),
            lease,
            held: Mutex::new(HashMap::new()),
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
    /// which covers a node clock up to 25 % slow and the renewal's own round trip.
    #[must_use]
    pub fn margin(&self) -> Duration {
        self.lease / 4
    }

    /// The epoch table `no` is held at, if this node holds it and its clock still says so.
    #[must_use]
    pub fn epoch(&self, no: i64) -> Option<i64> {
        let held = self.held.lock().ok()?;
        held.get(&no)
            .filter(|h| Instant::now() < h.deadline)
            .map(|h| h.epoch)
    }

    /// Records a lease taken at `epoch` by a statement sent at `sent`.
    pub fn hold(&self, no: i64, epoch: i64, sent: Instant) {
        let deadline = sent + self.lease.saturating_sub(self.margin());
        if let Ok(mut held) = self.held.lock() {
            held.insert(no, Held { epoch, deadline });
        }
    }

    /// Forgets table `no`.
    pub fn release(&self, no: i64) {
        if let Ok(mut held) = self.held.lock() {
            held.remove(&no);
        }
    }

    /// Every held table and its epoch.
    #[must_use]
    pub fn all(&self) -> Vec<(i64, i64)> {
        self.held
            .lock()
            .map(|h| h.iter().map(|(&no, h)| (no, h.epoch)).collect())
            .unwrap_or_default()
    }

    /// Forgets and returns the tables whose deadline has passed.
    pub fn expired(&self) -> Vec<i64> {
        let now = Instant::now();
        let Ok(mut held) = self.held.lock() else {
            return Vec::new();
        };
        let gone: Vec<i64> = held
            .iter()
            .filter(|(_, h)| h.deadline <= now)
            .map(|(&no, _)| no)
            .collect();
        for no in &gone {
            held.remove(no);
        }
        gone
    }

    fn lease_ms(&self) -> i64 {
        i64::try_from(self.lease.as_millis()).unwrap_or(i64::MAX)
    }
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
    sqlx::query(
        "INSERT INTO leases (table_no, node, epoch, expires)
         VALUES ($1, $2, 1, now() + $3 * INTERVAL '1 millisecond')",
    )
    .bind(no)
    .bind(&leases.node)
    .bind(leases.lease_ms())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Records this node's address for the others to forward to, and that it is alive.
///
/// # Errors
/// The database's error.
pub async fn register(pool: &PgPool, leases: &Leases, addr: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO nodes (id, addr, seen) VALUES ($1, $2, now())
         ON CONFLICT (id) DO UPDATE SET addr = excluded.addr, seen = now()",
    )
    .bind(&leases.node)
    .bind(addr)
    .execute(pool)
    .await?;
    Ok(())
}

/// Extends every lease this node holds; forgets and returns those it turned out not to hold
/// any more (taken over after this node's renewals failed for longer than the margin).
///
/// # Errors
/// The database's error; the leases then run on towards their deadlines.
pub async fn renew(pool: &PgPool, leases: &Leases) -> Result<Vec<i64>, sqlx::Error> {
    let held = leases.all();
    if held.is_empty() {
        return Ok(Vec::new());
    }
    let nos: Vec<i64> = held.iter().map(|h| h.0).collect();
    let epochs: Vec<i64> = held.iter().map(|h| h.1).collect();
    let sent = Instant::now();
    let renewed: Vec<i64> = sqlx::query_scalar(
        "UPDATE leases l SET expires = now() + $3 * INTERVAL '1 millisecond'
         FROM UNNEST($1::BIGINT[], $2::BIGINT[]) AS h(no, epoch)
         WHERE l.table_no = h.no AND l.epoch = h.epoch AND l.node = $4
         RETURNING l.table_no",
    )
    .bind(&nos)
    .bind(&epochs)
    .bind(leases.lease_ms())
    .bind(&leases.node)
    .fetch_all(pool)
    .await?;
    let mut lost = Vec::new();
    for (no, epoch) in held {
        if renewed.contains(&no) {
            leases.hold(no, epoch, sent);
        } else {
            leases.release(no);
            lost.push(no);
        }
    }
    Ok(lost)
}

/// Takes the leases of up to `limit` unfinished tables whose lease has expired; returns
/// their row numbers (the caller restores them). Rows another node is taking at the same
/// moment are skipped, not waited for.
///
/// # Errors
/// The database's error.
pub async fn take_expired(
    pool: &PgPool,
    leases: &Leases,
    limit: i64,
) -> Result<Vec<i64>, sqlx::Error> {
    let sent = Instant::now();
    let rows = sqlx::query(
        "UPDATE leases SET node = $1, epoch = epoch + 1,
                           expires = now() + $2 * INTERVAL '1 millisecond'
         WHERE table_no IN (
             SELECT l.table_no FROM leases l JOIN tables t ON t.no = l.table_no
             WHERE l.expires < now() AND t.state != 'over'
             ORDER BY l.table_no LIMIT $3
             FOR UPDATE OF l SKIP LOCKED)
         RETURNING table_no, epoch",
    )
    .bind(&leases.node)
    .bind(leases.lease_ms())
    .bind(limit)
    .fetch_all(pool)
    .await?;
    let mut taken = Vec::with_capacity(rows.len());
    for r in rows {
        let (no, epoch): (i64, i64) = (r.get(0), r.get(1));
        leases.hold(no, epoch, sent);
        taken.push(no);
    }
    Ok(taken)
}

/// Takes table `no`'s lease if it has expired (or names this node but is not held here).
///
/// # Errors
/// The database's error.
pub async fn take(pool: &PgPool, leases: &Leases, no: i64) -> Result<bool, sqlx::Error> {
    let sent = Instant::now();
    let epoch: Option<i64> = sqlx::query_scalar(
        "UPDATE leases SET node = $1, epoch = epoch + 1,
                           expires = now() + $2 * INTERVAL '1 millisecond'
         WHERE table_no = $3 AND (expires < now() OR node = $1)
         RETURNING epoch",
    )
    .bind(&leases.node)
    .bind(leases.lease_ms())
    .bind(no)
    .fetch_optional(pool)
    .await?;
    if let Some(epoch) = epoch {
        leases.hold(no, epoch, sent);
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
    /// Whether the lease has run out by the database's clock.
    pub expired: bool,
}

/// Looks up the node serving unfinished table `id`; `None` for an unknown or finished table.
///
/// # Errors
/// The database's error.
pub async fn route(pool: &PgPool, id: &Secret) -> Result<Option<Route>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT t.no, l.node, COALESCE(n.addr, ''), l.expires < now()
         FROM tables t JOIN leases l ON l.table_no = t.no
         LEFT JOIN nodes n ON n.id = l.node
         WHERE t.id = $1 AND t.state != 'over'",
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
