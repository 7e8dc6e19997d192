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

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use pref_core::{Action, Card, Seat};
use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Postgres, QueryBuilder, Row, Sqlite, SqlitePool};
use tokio::sync::{mpsc, oneshot};

use crate::ids::Secret;
use crate::lease::Leases;

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
}

impl Stored {
    fn as_str(self) -> &'static str {
        match self {
            Stored::Lobby => "lobby",
            Stored::Playing => "playing",
            Stored::Over => "over",
        }
    }
}

/// A table as read back at start.
#[derive(Debug)]
pub struct TableRow {
    /// Row number: the table's label in logs.
    pub no: i64,
    /// The table id.
    pub id: Secret,
    /// The host token.
    pub host: Secret,
    /// The profile request (`{"preset": …, option: value, …}`).
    pub profile: serde_json::Value,
    /// Whether spectators take part in the chat.
    pub spectator_chat: bool,
    /// Dealer of the first deal.
    pub first_dealer: u8,
    /// Lobby or playing.
    pub state: Stored,
    /// Occupied seats.
    pub seats: Vec<SeatRow>,
    /// Deals in order, each with its actions.
    pub deals: Vec<DealRow>,
}

/// An occupied seat as stored.
#[derive(Debug)]
pub struct SeatRow {
    /// The seat.
    pub seat: u8,
    /// The player's name.
    pub name: String,
    /// The seat token.
    pub token: Secret,
    /// The bot's level (`easy`, `normal`, `strong`) when a bot holds the seat.
    pub bot: Option<String>,
}

/// A deal as stored.
#[derive(Debug)]
pub struct DealRow {
    /// The shuffled deck.
    pub deck: [Card; 32],
    /// Accepted actions in order: the acting player and the action.
    pub actions: Vec<(Seat, Action)>,
}

/// Rows queued for the group commit at most; writers wait beyond it.
const QUEUE: usize = 8192;

/// Rows committed in one transaction at most (five bound values a row, well inside
/// SQLite's limit of 32,766 per statement and PostgreSQL's of 65,535).
const GROUP: usize = 1024;

/// A row of a deal's hot path, queued for the group commit.
#[derive(Debug)]
enum Hot {
    /// A deal's deck.
    Deal { no: i64, deal_no: u32, deck: String },
    /// An accepted action.
    Action {
        no: i64,
        deal_no: u32,
        seq: u32,
        player: u8,
        action: String,
    },
}

impl Hot {
    fn table(&self) -> i64 {
        match self {
            Hot::Deal { no, .. } | Hot::Action { no, .. } => *no,
        }
    }
}

/// Why a queued row was not written.
#[derive(Debug)]
enum Refused {
    /// The database refused the row (or its group).
    Db(String),
    /// The table's lease is not this node's any more.
    Lease,
}

/// A queued row and the writer waiting for it.
#[derive(Debug)]
struct Queued {
    /// The row.
    row: Hot,
    /// Answered once the row's transaction has committed.
    done: oneshot::Sender<Result<(), Refused>>,
}

/// The open connection pool, one per backend.
#[derive(Clone, Debug)]
pub(crate) enum Pool {
    /// SQLite with its one connection.
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
    /// The group-commit writer's queue.
    hot: mpsc::Sender<Queued>,
    /// This node's leases, on PostgreSQL (every write is fenced by them); `None` on SQLite,
    /// where one process owns every table.
    leases: Option<Arc<Leases>>,
}

/// Commits queued rows in groups until every [`Store`] is gone.
async fn group_commit(pool: Pool, leases: Option<Arc<Leases>>, mut rx: mpsc::Receiver<Queued>) {
    let mut batch = Vec::with_capacity(GROUP);
    while rx.recv_many(&mut batch, GROUP).await > 0 {
        match write_group(&pool, leases.as_deref(), &batch).await {
            Ok(refused) => {
                for q in batch.drain(..) {
                    let r = if refused.contains(&q.row.table()) {
                        Err(Refused::Lease)
                    } else {
                        Ok(())
                    };
                    let _ = q.done.send(r);
                }
            }
            Err(e) if batch.len() == 1 => {
                for q in batch.drain(..) {
                    let _ = q.done.send(Err(Refused::Db(e.to_string())));
                }
            }
            Err(_) => {
                for q in batch.drain(..) {
                    let r = match write_group(&pool, leases.as_deref(), std::slice::from_ref(&q))
                        .await
                    {
                        Ok(refused) if refused.is_empty() => Ok(()),
                        Ok(_) => Err(Refused::Lease),
                        Err(e) => Err(Refused::Db(e.to_string())),
                    };
                    let _ = q.done.send(r);
                }
            }
        }
    }
}

/// Builds one multi-row `INSERT` for the decks and one for the actions of `rows`, leaving out
/// the tables in `skip`; `None` for a kind without rows (an empty `VALUES` list is not SQL).
fn inserts<'a, DB: sqlx::Database>(
    rows: &'a [Queued],
    skip: &HashSet<i64>,
    deals: &mut QueryBuilder<'a, DB>,
    actions: &mut QueryBuilder<'a, DB>,
) -> (bool, bool)
where
    i64: sqlx::Encode<'a, DB> + sqlx::Type<DB>,
    &'a str: sqlx::Encode<'a, DB> + sqlx::Type<DB>,
{
    let deal_rows = rows.iter().filter_map(|q| match &q.row {
        Hot::Deal { no, deal_no, deck } if !skip.contains(no) => Some((*no, *deal_no, deck)),
        Hot::Deal { .. } | Hot::Action { .. } => None,
    });
    let action_rows = rows.iter().filter_map(|q| match &q.row {
        Hot::Action {
            no,
            deal_no,
            seq,
            player,
            action,
        } if !skip.contains(no) => Some((*no, *deal_no, *seq, *player, action)),
        Hot::Deal { .. } | Hot::Action { .. } => None,
    });
    let has_deals = deal_rows.clone().next().is_some();
    let has_actions = action_rows.clone().next().is_some();
    if has_deals {
        deals.push_values(deal_rows, |mut b, (no, deal_no, deck)| {
            b.push_bind(no)
                .push_bind(i64::from(deal_no))
                .push_bind(deck.as_str());
        });
    }
    if has_actions {
        actions.push_values(action_rows, |mut b, (no, deal_no, seq, player, action)| {
            b.push_bind(no)
                .push_bind(i64::from(deal_no))
                .push_bind(i64::from(seq))
                .push_bind(i64::from(player))
                .push_bind(action.as_str());
        });
    }
    (has_deals, has_actions)
}

const INSERT_DEALS: &str = "INSERT INTO deals (table_no, deal_no, deck) ";
const INSERT_ACTIONS: &str = "INSERT INTO actions (table_no, deal_no, seq, player, action) ";

/// Writes `rows` in one transaction, with one multi-row `INSERT` per kind of row: every
/// statement is a round trip (to sqlx's SQLite thread, or over the network to PostgreSQL),
/// so a group costs the same few round trips however large it is. Returns the tables whose
/// rows were refused because this node does not hold their lease.
async fn write_group(
    pool: &Pool,
    leases: Option<&Leases>,
    rows: &[Queued],
) -> Result<HashSet<i64>, sqlx::Error> {
    match pool {
        Pool::Sqlite(pool) => {
            let skip = HashSet::new();
            let mut deals = QueryBuilder::<Sqlite>::new(INSERT_DEALS);
            let mut actions = QueryBuilder::<Sqlite>::new(INSERT_ACTIONS);
            let (has_deals, has_actions) = inserts(rows, &skip, &mut deals, &mut actions);
            let mut tx = pool.begin().await?;
            if has_deals {
                // Not kept prepared: the statement's shape changes with the group's size.
                deals.build().persistent(false).execute(&mut *tx).await?;
            }
            if has_actions {
                actions.build().persistent(false).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok(skip)
        }
        Pool::Postgres(pool) => {
            let mut tx = pool.begin().await?;
            let mut skip = HashSet::new();
            if let Some(leases) = leases {
                // The epoch each table is held at, as this node's own timer still allows.
                let tables: BTreeSet<i64> = rows.iter().map(|q| q.row.table()).collect();
                let (mut nos, mut epochs) = (Vec::new(), Vec::new());
                for no in tables {
                    match leases.epoch(no) {
                        Some(e) => {
                            nos.push(no);
                            epochs.push(e);
                        }
                        None => {
                            skip.insert(no);
                        }
                    }
                }
                let held: Vec<i64> = sqlx::query_scalar(
                    "SELECT l.table_no FROM leases l
                     JOIN UNNEST($1::BIGINT[], $2::BIGINT[]) AS h(no, epoch)
                       ON l.table_no = h.no AND l.epoch = h.epoch
                     WHERE l.node = $3
                     ORDER BY l.table_no
                     FOR SHARE OF l",
                )
                .bind(&nos)
                .bind(&epochs)
                .bind(leases.node())
                .fetch_all(&mut *tx)
                .await?;
                skip.extend(nos.iter().filter(|no| held.binary_search(no).is_err()));
            }
            let mut deals = QueryBuilder::<Postgres>::new(INSERT_DEALS);
            let mut actions = QueryBuilder::<Postgres>::new(INSERT_ACTIONS);
            let (has_deals, has_actions) = inserts(rows, &skip, &mut deals, &mut actions);
            if has_deals {
                deals.build().persistent(false).execute(&mut *tx).await?;
            }
            if has_actions {
                actions.build().persistent(false).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok(skip)
        }
    }
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
        let (pool, leases) = match db {
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
                (Pool::Sqlite(pool), None)
            }
            Database::Postgres(url) => {
                // Table tasks wait on the group commit, not on the pool: a few connections
                // carry the writer, lease renewals, restores and the lobby's writes.
                let pool = PgPoolOptions::new()
                    .max_connections(8)
                    .acquire_timeout(Duration::from_secs(10))
                    .connect(url)
                    .await?;
                sqlx::migrate!("migrations/postgres").run(&pool).await?;
                let leases = Arc::new(Leases::new(lease));
                // The heartbeat starts now; `cluster.rs` adds the address and keeps it up.
                crate::lease::register(&pool, &leases, "").await?;
                (Pool::Postgres(pool), Some(leases))
            }
        };
        let (hot, rx) = mpsc::channel(QUEUE);
        tokio::spawn(group_commit(pool.clone(), leases.clone(), rx));
        Ok(Store { pool, hot, leases })
    }

    /// The connection pool, for the stores of other rows (`saved.rs`).
    pub(crate) fn pool(&self) -> &Pool {
        &self.pool
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

    /// Queues `row` for the next group commit and waits until it is on disk.
    async fn commit(&self, row: Hot) -> Result<(), StoreError> {
        let no = row.table();
        self.fenced(no)?;
        let (done, answer) = oneshot::channel();
        let stopped = || StoreError::Group("the writer has stopped".into());
        self.hot
            .send(Queued { row, done })
            .await
            .map_err(|_| stopped())?;
        match answer.await.map_err(|_| stopped())? {
            Ok(()) => Ok(()),
            Err(Refused::Db(e)) => Err(StoreError::Group(e)),
            Err(Refused::Lease) => Err(StoreError::NotOwner { table: no }),
        }
    }

    /// Stores a new table in the lobby; returns its row number. On PostgreSQL the same
    /// transaction gives this node the table's lease.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub async fn create_table(
        &self,
        id: &Secret,
        host: &Secret,
        profile: &serde_json::Value,
        spectator_chat: bool,
        first_dealer: u8,
    ) -> Result<i64, StoreError> {
        let insert =
            "INSERT INTO tables (id, host_token, profile, spectator_chat, first_dealer, state)
             VALUES ($1, $2, $3, $4, $5, 'lobby') RETURNING no";
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
                    .fetch_one(&mut *tx)
                    .await?;
                crate::lease::insert(&mut tx, leases, no).await?;
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
                    .fetch_one(pool)
                    .await?
            })),
        }
    }

    /// Replaces the profile of a table in the lobby.
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

    /// Moves a table to `state`.
    ///
    /// # Errors
    /// [`StoreError::Db`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn set_state(&self, no: i64, state: Stored) -> Result<(), StoreError> {
        self.fenced(no)?;
        with_pool!(&self.pool, pool => {
            sqlx::query("UPDATE tables SET state = $1 WHERE no = $2")
                .bind(state.as_str())
                .bind(no)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Gives `seat` to a player, or to a bot of level `bot`.
    ///
    /// # Errors
    /// [`StoreError::Db`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn put_seat(
        &self,
        no: i64,
        seat: u8,
        name: &str,
        token: &Secret,
        bot: Option<&str>,
    ) -> Result<(), StoreError> {
        self.fenced(no)?;
        with_pool!(&self.pool, pool => {
            sqlx::query(
                "INSERT INTO seats (table_no, seat, name, token, bot) VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (table_no, seat)
                 DO UPDATE SET name = excluded.name, token = excluded.token, bot = excluded.bot",
            )
            .bind(no)
            .bind(i64::from(seat))
            .bind(name)
            .bind(token.expose())
            .bind(bot)
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// Frees `seat`.
    ///
    /// # Errors
    /// [`StoreError::Db`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn free_seat(&self, no: i64, seat: u8) -> Result<(), StoreError> {
        self.fenced(no)?;
        with_pool!(&self.pool, pool => {
            sqlx::query("DELETE FROM seats WHERE table_no = $1 AND seat = $2")
                .bind(no)
                .bind(i64::from(seat))
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Stores the deck of deal `deal_no` (0-based) before anyone sees a card of it.
    ///
    /// # Errors
    /// [`StoreError::Group`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn put_deal(
        &self,
        no: i64,
        deal_no: u32,
        deck: &[Card; 32],
    ) -> Result<(), StoreError> {
        let text: Vec<String> = deck.iter().map(Card::to_string).collect();
        self.commit(Hot::Deal {
            no,
            deal_no,
            deck: text.join(" "),
        })
        .await
    }

    /// Stores accepted action `seq` (0-based) of deal `deal_no`.
    ///
    /// # Errors
    /// [`StoreError::Group`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn put_action(
        &self,
        no: i64,
        deal_no: u32,
        seq: u32,
        player: Seat,
        action: &Action,
    ) -> Result<(), StoreError> {
        let text = serde_json::to_string(action).map_err(|e| StoreError::Damaged {
            table: no,
            why: e.to_string(),
        })?;
        self.commit(Hot::Action {
            no,
            deal_no,
            seq,
            player: player.0,
            action: text,
        })
        .await
    }

    /// Every table that is not over, with its seats, decks and actions.
    ///
    /// # Errors
    /// [`StoreError`] if the database cannot be read or a row does not parse.
    pub async fn unfinished(&self) -> Result<Vec<TableRow>, StoreError> {
        let nos: Vec<i64> = with_pool!(&self.pool, pool => {
            sqlx::query_scalar("SELECT no FROM tables WHERE state != 'over' ORDER BY no")
                .fetch_all(pool)
                .await?
        });
        let mut out = Vec::with_capacity(nos.len());
        for no in nos {
            out.extend(self.table(no).await?);
        }
        Ok(out)
    }

    /// Table `no` with its seats, decks and actions, unless it is over (or unknown).
    ///
    /// # Errors
    /// [`StoreError`] if the database cannot be read or a row does not parse.
    pub async fn table(&self, no: i64) -> Result<Option<TableRow>, StoreError> {
        self.load(no, false).await
    }

    /// The finished game of table `id`, with every deal, to show its settlement and record
    /// again after a restart; `None` if there is no such table or it is not over.
    ///
    /// # Errors
    /// [`StoreError`] if the database cannot be read or a row does not parse.
    pub async fn finished(&self, id: &Secret) -> Result<Option<TableRow>, StoreError> {
        let no: Option<i64> = with_pool!(&self.pool, pool => {
            sqlx::query_scalar("SELECT no FROM tables WHERE id = $1 AND state = 'over'")
                .bind(id.expose())
                .fetch_optional(pool)
                .await?
        });
        match no {
            Some(no) => self.load(no, true).await,
            None => Ok(None),
        }
    }

    /// Table `no` as stored; a finished one only when `over` is set.
    async fn load(&self, no: i64, over: bool) -> Result<Option<TableRow>, StoreError> {
        let query = if over {
            "SELECT no, id, host_token, profile, spectator_chat, first_dealer, state
             FROM tables WHERE no = $1 AND state = 'over'"
        } else {
            "SELECT no, id, host_token, profile, spectator_chat, first_dealer, state
             FROM tables WHERE no = $1 AND state != 'over'"
        };
        with_pool!(&self.pool, pool => {
            let Some(r) = sqlx::query(query)
            .bind(no)
            .fetch_optional(pool)
            .await?
            else {
                return Ok(None);
            };
            let damaged = |why: String| StoreError::Damaged { table: no, why };
            let secret = |s: String| Secret::parse(&s).ok_or_else(|| damaged("bad secret".into()));
            let id = secret(r.get(1))?;
            let host = secret(r.get(2))?;
            let profile =
                serde_json::from_str(&r.get::<String, _>(3)).map_err(|e| damaged(e.to_string()))?;
            let state = match r.get::<String, _>(6).as_str() {
                "lobby" => Stored::Lobby,
                "over" => Stored::Over,
                _ => Stored::Playing,
            };
            let mut seats = Vec::new();
            for s in sqlx::query(
                "SELECT seat, name, token, bot FROM seats WHERE table_no = $1 ORDER BY seat",
            )
            .bind(no)
            .fetch_all(pool)
            .await?
            {
                seats.push(SeatRow {
                    seat: s.get::<i64, _>(0) as u8,
                    name: s.get(1),
                    token: secret(s.get(2))?,
                    bot: s.get(3),
                });
            }
            let decks = sqlx::query("SELECT deal_no, deck FROM deals WHERE table_no = $1 ORDER BY deal_no")
                .bind(no)
                .fetch_all(pool)
                .await?;
            // One query for every action of the table, split by deal below.
            let all_actions = sqlx::query(
                "SELECT deal_no, player, action FROM actions WHERE table_no = $1 ORDER BY deal_no, seq",
            )
            .bind(no)
            .fetch_all(pool)
            .await?;
            let mut deals = Vec::new();
            for d in decks {
                let deal_no: i64 = d.get(0);
                let cards: Result<Vec<Card>, _> = d
                    .get::<String, _>(1)
                    .split(' ')
                    .map(Card::from_str)
                    .collect();
                let deck: [Card; 32] = cards
                    .map_err(|e| damaged(e.to_string()))?
                    .try_into()
                    .map_err(|_| damaged("a deck is not 32 cards".into()))?;
                let mut actions = Vec::new();
                for a in all_actions.iter().filter(|a| a.get::<i64, _>(0) == deal_no) {
                    let action: Action = serde_json::from_str(&a.get::<String, _>(2))
                        .map_err(|e| damaged(e.to_string()))?;
                    actions.push((Seat(a.get::<i64, _>(1) as u8), action));
                }
                deals.push(DealRow { deck, actions });
            }
            Ok(Some(TableRow {
                no,
                id,
                host,
                profile,
                spectator_chat: r.get(4),
                first_dealer: r.get::<i64, _>(5) as u8,
                state,
                seats,
                deals,
            }))
        })
    }
}
