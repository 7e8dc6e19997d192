//! Durable state: tables, seats, each deal's deck and every accepted action, in SQLite (one
//! process, nothing to set up) or PostgreSQL (several nodes sharing one database).
//!
//! The table task writes here and waits for the write before it broadcasts a result, so
//! whatever a client has seen is on disk. A game is never stored as a snapshot: a restored
//! table replays its decks and actions through the core, which checks them again on the
//! way. SQLite runs in WAL mode with `synchronous = FULL`; PostgreSQL's commit waits for its
//! WAL flush (`synchronous_commit = on`, its default): either way a commit has reached the
//! disk when the write returns.
//!
//! Both backends take the same SQL (`$1`-style parameters, `ON CONFLICT … DO UPDATE`,
//! `RETURNING`); [`with_pool!`] runs one body against whichever pool is open. The schemas
//! are sqlx migrations under `migrations/{sqlite,postgres}`, embedded in the binary.
//! The group-commit writer lives in `group.rs`, the reads that restore a table in `load.rs`.
//!
//! On an SQLite file the store also opens a few read-only connections ([`Store::reader`]):
//! WAL lets them read beside the one writer, each read seeing every transaction committed
//! when it starts, so the lobby's reads (`lobby/store.rs`) do not queue behind the tables'
//! group commit, the seeks' writes and the paired tables' openings for the one writing
//! connection. Every write, and every read inside a write's transaction, stays on the
//! writer. On PostgreSQL the reader is the same pool.
//!
//! Decks and actions, the writes every deal makes, go through one writer task that commits
//! whatever is queued at once in a single transaction (group commit): every table still
//! waits until its own row is on disk, but a thousand tables share one `fsync` instead of
//! queueing a thousand. A row the group cannot take is retried alone, so one bad row
//! fails only its own write. On PostgreSQL with several nodes the same transaction first
//! locks the lease rows of its tables (`FOR SHARE`) and writes only the rows whose table
//! this node still holds at the epoch it was given ([`Leases`]): a node that lost a lease
//! cannot write another action to that table, and a node taking a lease over waits for a
//! group already writing to commit before it reads the table back.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use sqlx::SqlitePool;
use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use tokio::sync::mpsc;

use crate::ids::{Secret, TokenHash};
use crate::store::lease::Leases;
use group::{QUEUE, Queued, group_commit};

/// Which database to open, from the `database` setting or `PREF_DATABASE_URL`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// An SQLite file, created with its directory if missing.
    Sqlite(PathBuf),
    /// A PostgreSQL URL (`postgres://user:password@host:port/database`).
    Postgres(String),
}

impl Database {
    /// Reads `sqlite://PATH` or `postgres://…` (`postgresql://…`).
    ///
    /// # Errors
    /// [`StoreError::Url`] for any other scheme.
    pub fn parse(url: &str) -> Result<Database, StoreError> {
        let url = url.trim();
        if let Some(path) = url.strip_prefix("sqlite://") {
            return Ok(Database::Sqlite(PathBuf::from(path)));
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(Database::Postgres(url.to_owned()));
        }
        Err(StoreError::Url(
            "a database URL starts with sqlite:// or postgres://",
        ))
    }

    /// SQLite in `dir/pref.sqlite3`, the default.
    #[must_use]
    pub fn in_dir(dir: &Path) -> Database {
        Database::Sqlite(dir.join("pref.sqlite3"))
    }
}

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused.
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    /// The schema could not be brought up to date.
    #[error("database migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The data directory cannot be created.
    #[error("data directory: {0}")]
    Dir(#[from] std::io::Error),
    /// The database setting is not a URL this server can open.
    #[error("database URL: {0}")]
    Url(&'static str),
    /// The group commit failed for this row, or the writer task has stopped.
    #[error("database: {0}")]
    Group(String),
    /// This node no longer holds the table's lease (or its own timer says it may not): the
    /// write was refused and the table belongs to another node now.
    #[error("table {table} is no longer held by this node")]
    NotOwner {
        /// The table's row number.
        table: i64,
    },
    /// A stored row does not parse (a bug or a hand-edited database).
    #[error("stored table {table} is damaged: {why}")]
    Damaged {
        /// The table's row number.
        table: i64,
        /// What does not parse.
        why: String,
    },
    /// The account holds a seat at another rated table whose game goes on (`rated.rs`):
    /// the seat was not written.
    #[error("the account holds a seat at another rated table")]
    RatedElsewhere,
}

/// Where a table stands, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    /// Seats are being filled.
    Lobby,
    /// Deals are being played.
    Playing,
    /// The game is over: restored on demand, to show its settlement and record.
    Over,
    /// Left idle in the lobby (`lifecycle.rs`): never restored, its link is gone.
    Expired,
}

impl Stored {
    fn as_str(self) -> &'static str {
        match self {
            Stored::Lobby => "lobby",
            Stored::Playing => "playing",
            Stored::Over => "over",
            Stored::Expired => "expired",
        }
    }
}

/// When a deal or action was made (Unix milliseconds; `None` for writes that do not say) and
/// whether the autopilot made it: what the clock is rebuilt from after a restart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stamp {
    /// The moment, in Unix milliseconds.
    pub at_ms: Option<u64>,
    /// Made by the autopilot for an absent or late player.
    pub auto: bool,
}

/// The open connection pool, one per backend.
#[derive(Clone, Debug)]
pub(crate) enum Pool {
    /// SQLite: the writer's one connection, or the readers' few read-only ones.
    Sqlite(SqlitePool),
    /// PostgreSQL.
    Postgres(PgPool),
}

/// Runs `$body` with `$pool` bound to whichever pool `$store` has open; the body is the same
/// SQL for both, type-checked once per backend.
macro_rules! with_pool {
    ($pool_enum:expr, $pool:ident => $body:expr) => {
        match $pool_enum {
            Pool::Sqlite($pool) => $body,
            Pool::Postgres($pool) => $body,
        }
    };
}
pub(crate) use with_pool;

/// The database handle; cheap to clone.
#[derive(Clone, Debug)]
pub struct Store {
    pool: Pool,
    /// Where pure reads go: on an SQLite file [`READERS`] read-only connections beside the
    /// writer; otherwise the same pool as `pool`.
    read: Pool,
    /// The group-commit writer's queue.
    hot: mpsc::Sender<Queued>,
    /// This node's leases, on PostgreSQL (every write is fenced by them); `None` on SQLite,
    /// where one process owns every table.
    leases: Option<Arc<Leases>>,
    /// The heartbeat's own connection, on PostgreSQL.
    beat: Option<PgPool>,
}
mod accuracy;
mod counted;
mod fair;
mod group;
mod hashed;
mod kept;
pub mod lease;

/// Seconds since 1970: the clock the features stamp their rows with (sheets, saved
/// profiles, accounts and sessions) and expire them by.
pub(crate) fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}
mod load;
mod practice;
mod rated;
mod served;

pub(crate) use accuracy::{GAME_COUNTED, Unanalysed};
pub use counted::SeatFigures;
pub use fair::{ContributionRow, FairRow};
pub use kept::{Back, ChatRow};
pub use load::{DealRow, SeatRow, TableRow};
pub use practice::HintCounts;
pub use served::{LOCAL, MARK_EVERY, Outage, keep_marking};

/// The read-only connections an SQLite file is opened with beside its one writer: the
/// lobby's follower and its sockets' checks read at once, a few at a time at most.
pub(crate) const READERS: u32 = 3;

/// Whether `file` names SQLite's in-memory database, which a second pool would open as
/// another, empty database: such a store keeps its one pool for reads too.
fn in_memory(file: &Path) -> bool {
    let name = file.to_string_lossy();
    name.is_empty()
        || name == ":memory:"
        || name.starts_with("file::memory:")
        || name.contains("mode=memory")
}

/// Opens the read-only pool beside the writer of SQLite `file` (already in WAL mode and
/// migrated), or `None` for an in-memory database.
///
/// # Errors
/// [`StoreError::Db`] if the file cannot be opened.
async fn sqlite_readers(file: &Path) -> Result<Option<SqlitePool>, StoreError> {
    if in_memory(file) {
        return Ok(None);
    }
    let options = SqliteConnectOptions::new()
        .filename(file)
        .read_only(true)
        .foreign_keys(true);
    let pool = SqlitePoolOptions::new()
        .max_connections(READERS)
        .connect_with(options)
        .await?;
    Ok(Some(pool))
}

/// Brings an SQLite database made before migrations existed up to date: the first
/// migration's `IF NOT EXISTS` takes its tables as they are, and a database made before
/// bots could hold seats lacks their column.
async fn sqlite_legacy(pool: &SqlitePool) -> Result<(), StoreError> {
    let has_bot: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM pragma_table_info('seats') WHERE name = 'bot'")
            .fetch_one(pool)
            .await?;
    if has_bot == 0 {
        sqlx::raw_sql("ALTER TABLE seats ADD COLUMN bot TEXT")
            .execute(pool)
            .await?;
    }
    Ok(())
}

impl Store {
    /// Opens (creating if missing) SQLite in `dir/pref.sqlite3`.
    ///
    /// # Errors
    /// [`StoreError`] if the directory or the database cannot be opened.
    pub async fn open(dir: &Path) -> Result<Store, StoreError> {
        Store::connect(&Database::in_dir(dir), Duration::from_secs(10)).await
    }

    /// Opens `db` and brings its schema up to date. On PostgreSQL the store also fences
    /// every deck and action with this node's leases, of `lease` length.
    ///
    /// # Errors
    /// [`StoreError`] if the database cannot be reached, created or migrated.
    pub async fn connect(db: &Database, lease: Duration) -> Result<Store, StoreError> {
        let (pool, read, pg) = match db {
            Database::Sqlite(file) => {
                if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir)?;
                }
                let options = SqliteConnectOptions::new()
                    .filename(file)
                    .create_if_missing(true)
                    .journal_mode(SqliteJournalMode::Wal)
                    .synchronous(SqliteSynchronous::Full)
                    .foreign_keys(true);
                // One connection: SQLite lets one writer in at a time, and a second connection
                // that finds the lock taken sleeps in SQLite's busy handler (up to 100 ms a
                // try) instead of queueing; sqlx's pool queues waiters fairly and wakes them.
                let pool = SqlitePoolOptions::new()
                    .max_connections(1)
                    .connect_with(options)
                    .await?;
                sqlx::migrate!("migrations/sqlite").run(&pool).await?;
                sqlite_legacy(&pool).await?;
                let hashed = hashed::hash_plain_tokens(&pool).await?;
                if hashed > 0 {
                    tracing::info!(tokens = hashed, "plain tokens stored before were hashed");
                }
                // Opened after the migrations: the readers see the schema as it now is.
                let read = sqlite_readers(file).await?.map(Pool::Sqlite);
                (Pool::Sqlite(pool), read, None)
            }
            Database::Postgres(url) => {
                // Table tasks wait on the group commit, not on the pool: a few connections
                // carry restores, lookups and the lobby's writes. The writer and the
                // heartbeat have connections of their own (below), so that a flood of
                // lookups or restores cannot make either wait for one.
                let pool = PgPoolOptions::new()
                    .max_connections(8)
                    .acquire_timeout(Duration::from_secs(10))
                    .connect(url)
                    .await?;
                sqlx::migrate!("migrations/postgres").run(&pool).await?;
                let leases = Arc::new(Leases::new(lease));
                let beat = PgPoolOptions::new()
                    .max_connections(1)
                    .acquire_timeout(lease)
                    .connect(url)
                    .await?;
                // The heartbeat starts now; `cluster.rs` adds the address and keeps it up.
                crate::store::lease::register(&beat, &leases, "").await?;
                let writer = PgPoolOptions::new()
                    .max_connections(2)
                    .acquire_timeout(Duration::from_secs(10))
                    .connect(url)
                    .await?;
                (Pool::Postgres(pool), None, Some((leases, beat, writer)))
            }
        };
        let (leases, beat, writer) = match pg {
            Some((leases, beat, writer)) => (Some(leases), Some(beat), Pool::Postgres(writer)),
            None => (None, None, pool.clone()),
        };
        let (hot, rx) = mpsc::channel(QUEUE);
        tokio::spawn(group_commit(writer, leases.clone(), rx));
        Ok(Store {
            read: read.unwrap_or_else(|| pool.clone()),
            pool,
            hot,
            leases,
            beat,
        })
    }

    /// The heartbeat's own PostgreSQL connection (one, used by nothing else).
    #[must_use]
    pub fn heartbeat(&self) -> Option<&PgPool> {
        self.beat.as_ref()
    }

    /// The connection pool, for the stores of other rows (`saved.rs`, `keeper/store.rs`).
    pub(crate) fn pool(&self) -> &Pool {
        &self.pool
    }

    /// The pool for pure reads that need no write of their own transaction: on an SQLite
    /// file its read-only connections, which do not wait for the writer (a read sees every
    /// transaction committed before it starts, so a write awaited before it is seen);
    /// otherwise [`Store::pool`]'s pool.
    pub(crate) fn reader(&self) -> &Pool {
        &self.read
    }

    /// This node's leases (PostgreSQL only).
    #[must_use]
    pub fn leases(&self) -> Option<&Arc<Leases>> {
        self.leases.as_ref()
    }

    /// The PostgreSQL pool, for the lease queries.
    #[must_use]
    pub fn postgres(&self) -> Option<&PgPool> {
        match &self.pool {
            Pool::Postgres(p) => Some(p),
            Pool::Sqlite(_) => None,
        }
    }

    /// Refuses a write to table `no` when this node does not hold it (PostgreSQL only).
    fn fenced(&self, no: i64) -> Result<(), StoreError> {
        match &self.leases {
            Some(l) if l.epoch(no).is_none() => Err(StoreError::NotOwner { table: no }),
            Some(_) | None => Ok(()),
        }
    }

    /// Stores a new table in the lobby with its resolved `profile`; returns its row number. On PostgreSQL the same
    /// transaction gives this node the table's lease.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub async fn create_table(
        &self,
        id: &Secret,
        (host, invite): (&TokenHash, &TokenHash),
        profile: &serde_json::Value,
        spectator_chat: bool,
        first_dealer: u8,
    ) -> Result<i64, StoreError> {
        let insert = "INSERT INTO tables
                 (id, host_token, profile, spectator_chat, first_dealer, state, invite)
             VALUES ($1, $2, $3, $4, $5, 'lobby', $6) RETURNING no";
        let profile = profile.to_string();
        match (&self.pool, &self.leases) {
            (Pool::Postgres(pool), Some(leases)) => {
                let mut tx = pool.begin().await?;
                let no: i64 = sqlx::query_scalar(insert)
                    .bind(id.expose())
                    .bind(host.expose())
                    .bind(&profile)
                    .bind(spectator_chat)
                    .bind(i64::from(first_dealer))
                    .bind(invite.expose())
                    .fetch_one(&mut *tx)
                    .await?;
                crate::store::lease::insert(&mut tx, leases, no).await?;
                tx.commit().await?;
                leases.hold(no, 1);
                Ok(no)
            }
            (pool, _) => Ok(with_pool!(pool, pool => {
                sqlx::query_scalar(insert)
                    .bind(id.expose())
                    .bind(host.expose())
                    .bind(&profile)
                    .bind(spectator_chat)
                    .bind(i64::from(first_dealer))
                    .bind(invite.expose())
                    .fetch_one(pool)
                    .await?
            })),
        }
    }

    /// Replaces the resolved profile of a table in the lobby.
    ///
    /// # Errors
    /// [`StoreError::Db`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn set_profile(
        &self,
        no: i64,
        profile: &serde_json::Value,
    ) -> Result<(), StoreError> {
        self.fenced(no)?;
        with_pool!(&self.pool, pool => {
            sqlx::query("UPDATE tables SET profile = $1 WHERE no = $2")
                .bind(profile.to_string())
                .bind(no)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Sets a table's clock (its time control and whether it is paused).
    ///
    /// # Errors
    /// [`StoreError::Db`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn set_clock(
        &self,
        no: i64,
        clock: &pref_protocol::clock::ClockInfo,
    ) -> Result<(), StoreError> {
        self.fenced(no)?;
        let text = serde_json::to_string(clock).map_err(|e| StoreError::Damaged {
            table: no,
            why: e.to_string(),
        })?;
        with_pool!(&self.pool, pool => {
            sqlx::query("UPDATE tables SET clock = $1 WHERE no = $2")
                .bind(text)
                .bind(no)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Keeps bot accounts out of table `no` (`docs/bot-api.md`), when it opens.
    ///
    /// # Errors
    /// [`StoreError::Db`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn set_people_only(&self, no: i64) -> Result<(), StoreError> {
        self.fenced(no)?;
        with_pool!(&self.pool, pool => {
            sqlx::query("UPDATE tables SET people_only = 1 WHERE no = $1")
                .bind(no)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Moves a table to `state`.
    ///
    /// # Errors
    /// [`StoreError::Db`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn set_state(&self, no: i64, state: Stored) -> Result<(), StoreError> {
        self.fenced(no)?;
        with_pool!(&self.pool, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("UPDATE tables SET state = $1 WHERE no = $2")
                .bind(state.as_str())
                .bind(no)
                .execute(&mut *tx)
                .await?;
            // A game over or a lobby gone holds no rated seat any more.
            if matches!(state, Stored::Over | Stored::Expired) {
                sqlx::query("DELETE FROM rated_seats WHERE table_no = $1")
                    .bind(no)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Gives `seat` to a player, or to a bot of level `bot`, who holds it from deal
    /// `from_deal` on (the deals dealt before he sat are not his to see); `host` says the
    /// host claimed it with his token (his own seat).
    ///
    /// # Errors
    /// [`StoreError::Db`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn put_seat(
        &self,
        (no, seat): (i64, u8),
        name: &str,
        token: &TokenHash,
        bot: Option<&str>,
        from_deal: u32,
        host: bool,
    ) -> Result<(), StoreError> {
        self.put_seat_as((no, seat), (name, token), (bot, from_deal, host), None)
            .await
    }

    /// [`Store::put_seat`], and when `rated` names an account (a seat at a rated table),
    /// the account's one rated seat claimed in the same transaction (`rated.rs`).
    pub(super) async fn put_seat_as(
        &self,
        (no, seat): (i64, u8),
        (name, token): (&str, &TokenHash),
        (bot, from_deal, host): (Option<&str>, u32, bool),
        rated: Option<i64>,
    ) -> Result<(), StoreError> {
        self.fenced(no)?;
        with_pool!(&self.pool, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(
                "INSERT INTO seats (table_no, seat, name, token, bot, from_deal, host_claimed)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT (table_no, seat)
                 DO UPDATE SET name = excluded.name, token = excluded.token, bot = excluded.bot,
                     from_deal = excluded.from_deal, host_claimed = excluded.host_claimed",
            )
            .bind(no)
            .bind(i64::from(seat))
            .bind(name)
            .bind(token.expose())
            .bind(bot)
            .bind(i64::from(from_deal))
            .bind(i64::from(host))
            .execute(&mut *tx)
            .await?;
            rated::claim_in!(tx, no, seat, rated);
            tx.commit().await?;
        });
        Ok(())
    }

    /// Frees `seat` (and the rated seat its account held there).
    ///
    /// # Errors
    /// [`StoreError::Db`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn free_seat(&self, no: i64, seat: u8) -> Result<(), StoreError> {
        self.fenced(no)?;
        with_pool!(&self.pool, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("DELETE FROM seats WHERE table_no = $1 AND seat = $2")
                .bind(no)
                .bind(i64::from(seat))
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM rated_seats WHERE table_no = $1 AND seat = $2")
                .bind(no)
                .bind(i64::from(seat))
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(())
    }
}

/// A stored row of figures that does not read (the counted games' and their analyses').
pub(super) fn damaged(why: impl std::fmt::Display) -> StoreError {
    StoreError::Damaged {
        table: 0,
        why: format!("stored figures do not read: {why}"),
    }
}
