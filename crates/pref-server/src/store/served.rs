//! Until when a table was served, and the outages its clock did not charge (migration
//! `0078_served.sql`): a node writes its `served` row once a second, and a table restored
//! after nobody served it for a while moves its running turn by that time, so that an outage
//! is charged to nobody (`Clock::resume`). Each move is stored, so that the clock replays it
//! after any later restart.

use sqlx::Row;

use super::{Pool, Store, StoreError};

/// The node name of a SQLite database, which one node serves.
pub const LOCAL: &str = "local";

/// How often a node marks that it serves: the most an outage can be credited beyond its
/// length.
pub const MARK_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Marks, every [`MARK_EVERY`], that `node` serves its tables, for as long as the runtime
/// runs. A failed mark is logged and tried again at the next tick: until then an outage
/// would be credited from the last mark that was written.
pub async fn keep_marking(store: Store, node: String) {
    let mut tick = tokio::time::interval(MARK_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        if let Err(e) = store.mark_served(&node, now).await {
            tracing::warn!(error = %e, "cannot mark that this node serves");
        }
    }
}

/// A turn moved after an outage: before action `seq` of deal `deal_no`, `ms` milliseconds
/// were nobody's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outage {
    /// The deal.
    pub deal_no: u32,
    /// The number of the deal's actions before the outage.
    pub seq: u32,
    /// How long nobody served the table.
    pub ms: u64,
}

impl Store {
    /// Notes that `node` serves its tables at `at_ms` (Unix milliseconds).
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub async fn mark_served(&self, node: &str, at_ms: u64) -> Result<(), StoreError> {
        with_pool!(self.pool(), pool => {
            sqlx::query(
                "INSERT INTO served (node, until_ms) VALUES ($1, $2)
                 ON CONFLICT (node) DO UPDATE SET until_ms = excluded.until_ms",
            )
            .bind(node)
            .bind(at_ms as i64)
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// Until when table `no` was last served: on SQLite the node's own last mark, on
    /// PostgreSQL the mark of the node that held its lease before this one took it. `None`
    /// when nothing was marked (a database from before marks were kept).
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub async fn served_until(&self, no: i64) -> Result<Option<u64>, StoreError> {
        let ms: Option<i64> = match self.pool() {
            Pool::Sqlite(pool) => {
                sqlx::query_scalar("SELECT until_ms FROM served WHERE node = $1")
                    .bind(LOCAL)
                    .fetch_optional(pool)
                    .await?
            }
            Pool::Postgres(pool) => {
                sqlx::query_scalar("SELECT served_ms FROM leases WHERE table_no = $1")
                    .bind(no)
                    .fetch_optional(pool)
                    .await?
                    .flatten()
            }
        };
        Ok(ms.and_then(|t| u64::try_from(t).ok()))
    }

    /// Stores a turn moved after an outage.
    ///
    /// # Errors
    /// [`StoreError::Db`], or [`StoreError::NotOwner`].
    pub async fn put_outage(&self, no: i64, outage: Outage) -> Result<(), StoreError> {
        self.fenced(no)?;
        with_pool!(self.pool(), pool => {
            sqlx::query(
                "INSERT INTO clock_outages (table_no, deal_no, seq, ms) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (table_no, deal_no, seq) DO UPDATE
                 SET ms = clock_outages.ms + excluded.ms",
            )
            .bind(no)
            .bind(i64::from(outage.deal_no))
            .bind(i64::from(outage.seq))
            .bind(outage.ms as i64)
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// Table `no`'s stored outages, in order.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub async fn outages(&self, no: i64) -> Result<Vec<Outage>, StoreError> {
        with_pool!(self.pool(), pool => {
            let rows = sqlx::query(
                "SELECT deal_no, seq, ms FROM clock_outages WHERE table_no = $1
                 ORDER BY deal_no, seq",
            )
            .bind(no)
            .fetch_all(pool)
            .await?;
            Ok(rows
                .iter()
                .map(|r| Outage {
                    deal_no: r.get::<i64, _>(0) as u32,
                    seq: r.get::<i64, _>(1) as u32,
                    ms: r.get::<i64, _>(2) as u64,
                })
                .collect())
        })
    }
}
