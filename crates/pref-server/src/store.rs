//! Durable state in SQLite: tables, seats, each deal's deck and every accepted action.
//!
//! The table task writes here and waits for the write before it broadcasts a result, so
//! whatever a client has seen is on disk. A game is never stored as a snapshot: at start the
//! server replays each unfinished table's decks and actions through the core, which checks
//! them again on the way. The database runs in WAL mode with `synchronous = FULL`: a commit
//! has reached the disk when the write returns.
//!
//! Decks and actions, the writes every deal makes, go through one writer task that commits
//! whatever is queued at once in a single transaction (group commit): every table still
//! waits until its own row is on disk, but a thousand tables share one `fsync` instead of
//! queueing a thousand. A row the group cannot take is retried alone, so one bad row
//! fails only its own write.

use std::path::Path;
use std::str::FromStr;

use pref_core::{Action, Card, Seat};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{QueryBuilder, Row, Sqlite, SqlitePool};
use tokio::sync::{mpsc, oneshot};

use crate::ids::Secret;

/// Where a table stands, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    /// Seats are being filled.
    Lobby,
    /// Deals are being played.
    Playing,
    /// The game is over; nothing is restored.
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

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused.
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    /// The data directory cannot be created.
    #[error("data directory: {0}")]
    Dir(#[from] std::io::Error),
    /// The group commit failed for this row, or the writer task has stopped.
    #[error("database: {0}")]
    Group(String),
    /// A stored row does not parse (a bug or a hand-edited database).
    #[error("stored table {table} is damaged: {why}")]
    Damaged {
        /// The table's row number.
        table: i64,
        /// What does not parse.
        why: String,
    },
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tables (
    no INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    host_token TEXT NOT NULL,
    profile TEXT NOT NULL,
    spectator_chat INTEGER NOT NULL,
    first_dealer INTEGER NOT NULL,
    state TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_no INTEGER NOT NULL REFERENCES tables(no),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token TEXT NOT NULL,
    bot TEXT,
    PRIMARY KEY (table_no, seat)
);
CREATE TABLE IF NOT EXISTS deals (
    table_no INTEGER NOT NULL REFERENCES tables(no),
    deal_no INTEGER NOT NULL,
    deck TEXT NOT NULL,
    PRIMARY KEY (table_no, deal_no)
);
CREATE TABLE IF NOT EXISTS actions (
    table_no INTEGER NOT NULL REFERENCES tables(no),
    deal_no INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    player INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_no, deal_no, seq)
);
";

/// Rows queued for the group commit at most; writers wait beyond it.
const QUEUE: usize = 8192;

/// Rows committed in one transaction at most (five bound values a row, well inside
/// SQLite's limit of 32,766 per statement).
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

/// A queued row and the writer waiting for it.
#[derive(Debug)]
struct Queued {
    /// The row.
    row: Hot,
    /// Answered once the row's transaction has committed.
    done: oneshot::Sender<Result<(), String>>,
}

/// The database handle; cheap to clone.
#[derive(Clone, Debug)]
pub struct Store {
    pool: SqlitePool,
    /// The group-commit writer's queue.
    hot: mpsc::Sender<Queued>,
}

/// Commits queued rows in groups until every [`Store`] is gone.
async fn group_commit(pool: SqlitePool, mut rx: mpsc::Receiver<Queued>) {
    let mut batch = Vec::with_capacity(GROUP);
    while rx.recv_many(&mut batch, GROUP).await > 0 {
        match write_group(&pool, &batch).await {
            Ok(()) => {
                for q in batch.drain(..) {
                    let _ = q.done.send(Ok(()));
                }
            }
            Err(e) if batch.len() == 1 => {
                for q in batch.drain(..) {
                    let _ = q.done.send(Err(e.to_string()));
                }
            }
            Err(_) => {
                for q in batch.drain(..) {
                    let r = write_group(&pool, std::slice::from_ref(&q)).await;
                    let _ = q.done.send(r.map_err(|e| e.to_string()));
                }
            }
        }
    }
}

/// Writes `rows` in one transaction, with one multi-row `INSERT` per kind of row: every
/// statement is a round trip to sqlx's SQLite thread, and on a busy machine each round trip
/// waits for a turn on a CPU, so a group costs four round trips however large it is.
async fn write_group(pool: &SqlitePool, rows: &[Queued]) -> Result<(), sqlx::Error> {
    let mut deals = QueryBuilder::<Sqlite>::new("INSERT INTO deals (table_no, deal_no, deck) ");
    let mut actions = QueryBuilder::<Sqlite>::new(
        "INSERT INTO actions (table_no, deal_no, seq, player, action) ",
    );
    let deal_rows = rows.iter().filter_map(|q| match &q.row {
        Hot::Deal { no, deal_no, deck } => Some((*no, *deal_no, deck)),
        Hot::Action { .. } => None,
    });
    let action_rows = rows.iter().filter_map(|q| match &q.row {
        Hot::Action {
            no,
            deal_no,
            seq,
            player,
            action,
        } => Some((*no, *deal_no, *seq, *player, action)),
        Hot::Deal { .. } => None,
    });
    let has_deals = deal_rows.clone().next().is_some();
    let has_actions = action_rows.clone().next().is_some();
    let mut tx = pool.begin().await?;
    // An empty VALUES list is not SQL: each statement is built only when it has rows.
    if has_deals {
        deals.push_values(deal_rows, |mut b, (no, deal_no, deck)| {
            b.push_bind(no)
                .push_bind(i64::from(deal_no))
                .push_bind(deck.as_str());
        });
        // Not kept prepared: the statement's shape changes with the group's size.
        deals.build().persistent(false).execute(&mut *tx).await?;
    }
    if has_actions {
        actions.push_values(action_rows, |mut b, (no, deal_no, seq, player, action)| {
            b.push_bind(no)
                .push_bind(i64::from(deal_no))
                .push_bind(i64::from(seq))
                .push_bind(i64::from(player))
                .push_bind(action.as_str());
        });
        actions.build().persistent(false).execute(&mut *tx).await?;
    }
    tx.commit().await
}

impl Store {
    /// Opens (creating if missing) `dir/pref.sqlite3` and its schema.
    ///
    /// # Errors
    /// [`StoreError`] if the directory or the database cannot be opened.
    pub async fn open(dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir)?;
        let options = SqliteConnectOptions::new()
            .filename(dir.join("pref.sqlite3"))
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true);
        // One connection: SQLite lets one writer in at a time, and a second connection that
        // finds the lock taken sleeps in SQLite's busy handler (up to 100 ms a try) instead
        // of queueing; sqlx's pool queues waiters fairly and wakes them at once.
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options)
            .await?;
        sqlx::raw_sql(SCHEMA).execute(&pool).await?;
        // Databases made before bots could hold seats lack the column.
        let has_bot: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM pragma_table_info('seats') WHERE name = 'bot'",
        )
        .fetch_one(&pool)
        .await?;
        if has_bot == 0 {
            sqlx::raw_sql("ALTER TABLE seats ADD COLUMN bot TEXT")
                .execute(&pool)
                .await?;
        }
        let (hot, rx) = mpsc::channel(QUEUE);
        tokio::spawn(group_commit(pool.clone(), rx));
        Ok(Store { pool, hot })
    }

    /// Queues `row` for the next group commit and waits until it is on disk.
    async fn commit(&self, row: Hot) -> Result<(), StoreError> {
        let (done, answer) = oneshot::channel();
        let stopped = || StoreError::Group("the writer has stopped".into());
        self.hot
            .send(Queued { row, done })
            .await
            .map_err(|_| stopped())?;
        answer
            .await
            .map_err(|_| stopped())?
            .map_err(StoreError::Group)
    }

    /// Stores a new table in the lobby; returns its row number.
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
        let row = sqlx::query(
            "INSERT INTO tables (id, host_token, profile, spectator_chat, first_dealer, state)
             VALUES (?, ?, ?, ?, ?, 'lobby') RETURNING no",
        )
        .bind(id.expose())
        .bind(host.expose())
        .bind(profile.to_string())
        .bind(spectator_chat)
        .bind(i64::from(first_dealer))
        .fetch_one(&self.pool)
        .await?;
        Ok(row.get(0))
    }

    /// Replaces the profile of a table in the lobby.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub async fn set_profile(
        &self,
        no: i64,
        profile: &serde_json::Value,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE tables SET profile = ? WHERE no = ?")
            .bind(profile.to_string())
            .bind(no)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Moves a table to `state`.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub async fn set_state(&self, no: i64, state: Stored) -> Result<(), StoreError> {
        sqlx::query("UPDATE tables SET state = ? WHERE no = ?")
            .bind(state.as_str())
            .bind(no)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Gives `seat` to a player, or to a bot of level `bot`.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub async fn put_seat(
        &self,
        no: i64,
        seat: u8,
        name: &str,
        token: &Secret,
        bot: Option<&str>,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT OR REPLACE INTO seats (table_no, seat, name, token, bot) VALUES (?, ?, ?, ?, ?)",
        )
        .bind(no)
        .bind(i64::from(seat))
        .bind(name)
        .bind(token.expose())
        .bind(bot)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Frees `seat`.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub async fn free_seat(&self, no: i64, seat: u8) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM seats WHERE table_no = ? AND seat = ?")
            .bind(no)
            .bind(i64::from(seat))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Stores the deck of deal `deal_no` (0-based) before anyone sees a card of it.
    ///
    /// # Errors
    /// [`StoreError::Db`].
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
    /// [`StoreError::Db`].
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
        let rows = sqlx::query(
            "SELECT no, id, host_token, profile, spectator_chat, first_dealer, state
             FROM tables WHERE state != 'over' ORDER BY no",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let no: i64 = r.get(0);
            let damaged = |why: String| StoreError::Damaged { table: no, why };
            let secret = |s: String| Secret::parse(&s).ok_or_else(|| damaged("bad secret".into()));
            let id = secret(r.get(1))?;
            let host = secret(r.get(2))?;
            let profile =
                serde_json::from_str(&r.get::<String, _>(3)).map_err(|e| damaged(e.to_string()))?;
            let state = match r.get::<String, _>(6).as_str() {
                "lobby" => Stored::Lobby,
                _ => Stored::Playing,
            };
            let mut seats = Vec::new();
            for s in sqlx::query(
                "SELECT seat, name, token, bot FROM seats WHERE table_no = ? ORDER BY seat",
            )
            .bind(no)
            .fetch_all(&self.pool)
            .await?
            {
                seats.push(SeatRow {
                    seat: s.get::<i64, _>(0) as u8,
                    name: s.get(1),
                    token: secret(s.get(2))?,
                    bot: s.get(3),
                });
            }
            let mut deals = Vec::new();
            for d in
                sqlx::query("SELECT deal_no, deck FROM deals WHERE table_no = ? ORDER BY deal_no")
                    .bind(no)
                    .fetch_all(&self.pool)
                    .await?
            {
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
                for a in sqlx::query(
                    "SELECT player, action FROM actions WHERE table_no = ? AND deal_no = ? ORDER BY seq",
                )
                .bind(no)
                .bind(deal_no)
                .fetch_all(&self.pool)
                .await?
                {
                    let action: Action = serde_json::from_str(&a.get::<String, _>(1))
                        .map_err(|e| damaged(e.to_string()))?;
                    actions.push((Seat(a.get::<i64, _>(0) as u8), action));
                }
                deals.push(DealRow { deck, actions });
            }
            out.push(TableRow {
                no,
                id,
                host,
                profile,
                spectator_chat: r.get(4),
                first_dealer: r.get::<i64, _>(5) as u8,
                state,
                seats,
                deals,
            });
        }
        Ok(out)
    }
}
