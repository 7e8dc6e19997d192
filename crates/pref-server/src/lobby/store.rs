//! The lobby's rows (`migrations/*/0090_lobby.sql`): the public tables and the seeks of
//! quick pairing. Every node reads and writes the same rows, so every node shows the same
//! lobby and a seek made on one node is paired with one made on another.
//!
//! The reads that write nothing (the follower's seeks and public tables, a seek's bounds, a
//! seat's invite key, the seekers' accounts) go to the store's reader
//! ([`Store::reader`]: on SQLite read-only connections beside the one writer), so that the
//! follower does not wait behind the tables' writes; each of them reads what was committed
//! before it started, and none of them reads inside a transaction of its own writes.

use sqlx::Row;

use crate::store::{Pool, Store, StoreError, with_pool};

/// The public tables' rows, their seats' names (`(table_no, seat, name)`) and their seated
/// accounts' ratings at rated tables (`(table_no, seat, rating)`).
pub(crate) type PublicRead = (
    Vec<PublicRow>,
    Vec<(i64, u8, String)>,
    Vec<(i64, u8, pref_protocol::RatingShown)>,
);

/// A rated table's seat held by an account: table, seat and the account's stored rating in
/// the table's family (mu, sigma, games; `None`s before his first rated game).
type RatedSeat = (i64, i64, Option<f64>, Option<f64>, Option<i64>);

/// What a public table's row holds for the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PublicRow {
    /// The table id.
    pub id: String,
    /// The table's row number.
    pub no: i64,
    /// The host's name.
    pub host: Option<String>,
    /// The nearest preset.
    pub preset: Option<String>,
    /// The options that differ from it (a JSON object).
    pub differs: String,
    /// The clock's preset.
    pub clock: Option<String>,
    /// 3 or 4.
    pub players: u8,
    /// Opened at, Unix milliseconds.
    pub created_ms: i64,
    /// Spectators, as its node last counted them.
    pub watchers: i64,
    /// `lobby` or `playing`.
    pub state: String,
    /// A rated table's family (`rated_tables`; read, never written with the row).
    pub rated: Option<String>,
    /// A game's preview as its node last wrote it (`pref_protocol::TablePreview` as JSON;
    /// read, never written with the row).
    pub preview: Option<String>,
}

/// A new public table.
#[derive(Clone, Debug)]
pub(crate) struct NewPublic<'a> {
    /// The list's part.
    pub row: &'a PublicRow,
    /// The invite key, in plain text: anybody may sit at a public table.
    pub invite_key: &'a str,
    /// Who opened it.
    pub address: Option<String>,
}

/// A seek as it is stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SeekRow {
    /// First come, first seated.
    pub no: i64,
    /// The name to sit under.
    pub name: String,
    /// 3 or 4.
    pub players: u8,
    /// The profile (JSON).
    pub profile: String,
    /// The clock's preset or `off`.
    pub clock: String,
    /// Bots may fill the table once the seek has waited this long.
    pub bots_after_ms: Option<i64>,
    /// Made at, Unix milliseconds.
    pub created_ms: i64,
}

/// A new seek.
#[derive(Clone, Debug)]
pub(crate) struct NewSeek<'a> {
    /// The node whose socket holds it.
    pub node: &'a str,
    /// The socket's number on that node.
    pub socket: u64,
    /// What it pairs with: the same profile and clock.
    pub choice: &'a str,
    /// The preset it is (for the counts), `None` for other house rules.
    pub label: Option<&'a str>,
    /// The stored seek's fields.
    pub row: SeekRow,
    /// The client's address.
    pub address: Option<String>,
    /// The signed-in seeker's account.
    pub account: Option<i64>,
}

/// A seek that has been seated: its node hands the token over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Seated {
    /// The seek.
    pub no: i64,
    /// The socket on the seeker's node.
    pub socket: u64,
    /// The table id.
    pub table: String,
    /// The seat.
    pub seat: u8,
    /// The seat token.
    pub token: String,
}

/// The payload of a `NOTIFY pref_lobby` that says only the seeks changed: the other nodes
/// pair and count the seekers again but need not read the public tables.
pub(crate) const SEEKS_ONLY: &str = "seeks";

/// The start of the payload of a `NOTIFY pref_lobby` that says a game started on a public
/// table: `started {table id} {its listing's created_ms}`. A node reads the public tables
/// again only if the game would enter its live list ([`started`]).
pub(crate) const STARTED: &str = "started ";

/// The game a [`STARTED`] payload names: its table id and its listing's `created_ms`.
pub(crate) fn started(payload: &str) -> Option<(String, i64)> {
    let (id, created) = payload.strip_prefix(STARTED)?.split_once(' ')?;
    Some((id.to_owned(), created.parse().ok()?))
}

/// A seek waiting in its line, as the follower reads it at each step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Waiting {
    /// The line it waits in (`choice.rs`'s key).
    pub choice: String,
    /// The preset it counts under in the grid, `None` for other house rules.
    pub label: Option<String>,
    /// The stored seek.
    pub row: SeekRow,
}

/// The mark of a seek taken for a table that is being opened.
const PENDING: &str = "pending";

/// A [`SeekRow`] from a row whose first seven columns are `no, name, players, profile,
/// clock, bots_after_ms, created_ms` (a macro: SQLite's and PostgreSQL's rows are
/// different types under `with_pool!`).
macro_rules! seek_row {
    ($r:expr) => {
        SeekRow {
            no: $r.get(0),
            name: $r.get(1),
            players: small($r.get(2)),
            profile: $r.get(3),
            clock: $r.get(4),
            bots_after_ms: $r.get(5),
            created_ms: $r.get(6),
        }
    };
}

fn small(v: i64) -> u8 {
    u8::try_from(v).unwrap_or(u8::MAX)
}

fn socket_no(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

/// The lobby's queries, on the node's database.
#[derive(Clone, Debug)]
pub(crate) struct LobbyStore {
    store: Store,
}

/// The two queries of [`LobbyStore::public`]: the longest waiting tables with a free seat,
/// and the busiest games (their limit is `$1`).
///
/// `CROSS JOIN`: SQLite walks the public tables in the order shown (the indexes of
/// migration 0210), looks each one's state up and stops at the limit; as an inner join it
/// read every table of the server (finished ones too, a number that only grows) and sorted
/// the public ones. PostgreSQL plans it as the join it is. The seats are counted of `t`, so
/// that only a table in the lobby has them counted.
pub(super) fn public_queries() -> (String, String) {
    const COLUMNS: &str = "SELECT l.table_id, l.table_no, l.host_name, l.preset, l.differs,
             l.clock, l.players, l.created_ms, l.watchers, t.state, r.family, l.preview
         FROM lobby_tables l CROSS JOIN tables t
         LEFT JOIN rated_tables r ON r.table_no = l.table_no";
    let listed = format!(
        "{COLUMNS} WHERE t.no = l.table_no AND t.state = 'lobby'
             AND (SELECT COUNT(*) FROM seats s WHERE s.table_no = t.no) < l.players
         ORDER BY l.created_ms, l.table_no LIMIT $1"
    );
    let live = format!(
        "{COLUMNS} WHERE t.no = l.table_no AND t.state = 'playing'
         ORDER BY l.watchers DESC, l.created_ms / 1000, l.table_id LIMIT $1"
    );
    (listed, live)
}

/// The query of [`LobbyStore::playing`]: the public games of one slice (`$1` of `$2`),
/// walked from the public tables (`CROSS JOIN`, as in [`public_queries`]).
pub(super) const PLAYING: &str = "SELECT l.table_id, l.watchers, l.preview
     FROM lobby_tables l CROSS JOIN tables t
     WHERE t.no = l.table_no AND t.state = 'playing' AND l.table_no % $2 = $1";

impl LobbyStore {
    /// The lobby's rows in `store`.
    pub(crate) fn new(store: Store) -> LobbyStore {
        LobbyStore { store }
    }

    /// The writer's pool: every write, and the reads inside a write's transaction.
    fn pool(&self) -> &Pool {
        self.store.pool()
    }

    /// The readers' pool, for the reads that write nothing.
    fn reader(&self) -> &Pool {
        self.store.reader()
    }

    /// Tells the other nodes the lobby changed (PostgreSQL's `NOTIFY pref_lobby`, with
    /// `what` as the payload: [`SEEKS_ONLY`] when only the seeks did); nothing on SQLite,
    /// where the node is alone.
    pub(crate) async fn notify(&self, what: &str) -> Result<(), StoreError> {
        if let Pool::Postgres(pool) = self.pool() {
            sqlx::query("SELECT pg_notify('pref_lobby', $1)")
                .bind(what)
                .execute(pool)
                .await?;
        }
        Ok(())
    }

    /// Lists a public table.
    pub(crate) async fn publish(&self, new: &NewPublic<'_>) -> Result<(), StoreError> {
        with_pool!(self.pool(), pool => {
            listing(new).execute(pool).await?;
        });
        Ok(())
    }

    /// The invite key of public table `id` while it is in the lobby.
    pub(crate) async fn public_key(&self, id: &str) -> Result<Option<String>, StoreError> {
        Ok(with_pool!(self.reader(), pool => {
            sqlx::query_scalar(
                "SELECT l.invite_key FROM lobby_tables l JOIN tables t ON t.no = l.table_no
                 WHERE l.table_id = $1 AND t.state = 'lobby'",
            )
            .bind(id)
            .fetch_optional(pool)
            .await?
        }))
    }

    /// Public tables in the lobby that `address` opened.
    pub(crate) async fn public_by(&self, address: &str) -> Result<i64, StoreError> {
        Ok(with_pool!(self.reader(), pool => {
            sqlx::query_scalar(
                "SELECT COUNT(*) FROM lobby_tables l JOIN tables t ON t.no = l.table_no
                 WHERE l.address = $1 AND t.state = 'lobby'",
            )
            .bind(address)
            .fetch_one(pool)
            .await?
        }))
    }

    /// Drops the rows of public tables that finished: they leave the lobby. Not needed for
    /// a read ([`LobbyStore::public`] skips them), so done now and then, not on every one.
    pub(crate) async fn prune(&self) -> Result<(), StoreError> {
        with_pool!(self.pool(), pool => {
            sqlx::query(
                "DELETE FROM lobby_tables WHERE table_no IN (SELECT l.table_no
                     FROM lobby_tables l CROSS JOIN tables t
                     WHERE t.no = l.table_no AND t.state NOT IN ('lobby', 'playing'))",
            )
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// The public tables the lobby shows: the `max_listed` longest waiting of those in the
    /// lobby with a free seat and the `max_live` busiest games (as
    /// `pref_protocol::LiveTable::busiest_first` orders them), the names in their seats
    /// (`(table_no, seat, name)`), and at rated tables the seated accounts' ratings in the
    /// table's family (`(table_no, seat, rating)`; a new player's before his first game).
    /// Only those rows are read, not every public table: with a thousand public games the
    /// follower read them all, and their three thousand seats, at every step.
    pub(crate) async fn public(
        &self,
        (max_listed, max_live): (u32, u32),
    ) -> Result<PublicRead, StoreError> {
        let (listed, live) = public_queries();
        with_pool!(self.reader(), pool => {
            // One transaction: on SQLite its statements read one state of the database, so
            // a table that started between two of them is not both listed and live.
            let mut tx = pool.begin().await?;
            let mut rows = sqlx::query(&listed)
                .bind(i64::from(max_listed))
                .fetch_all(&mut *tx)
                .await?;
            rows.extend(sqlx::query(&live).bind(i64::from(max_live)).fetch_all(&mut *tx).await?);
            let rows: Vec<PublicRow> = rows
                .iter()
                .map(|r| PublicRow {
                    id: r.get(0),
                    no: r.get(1),
                    host: r.get(2),
                    preset: r.get(3),
                    differs: r.get(4),
                    clock: r.get(5),
                    players: small(r.get(6)),
                    created_ms: r.get(7),
                    watchers: r.get(8),
                    state: r.get(9),
                    rated: r.get(10),
                    preview: r.get(11),
                })
                .collect();
            if rows.is_empty() {
                return Ok((rows, Vec::new(), Vec::new()));
            }
            // The row numbers come from the database: integers, written into the query.
            let shown = rows.iter().map(|r| r.no.to_string()).collect::<Vec<_>>().join(", ");
            let seats = sqlx::query(&format!(
                "SELECT table_no, seat, name FROM seats WHERE table_no IN ({shown})"
            ))
            .fetch_all(&mut *tx)
            .await?;
            // A rated seat's account is its claim (`store/rated.rs`), written with the seat
            // itself: read after the seats, every seat read has its rating (the account's
            // link, written after the seat, could be missing yet). The ratings only when some
            // table shown is rated: most steps have none.
            let rated: Vec<RatedSeat> = if rows.iter().all(|r| r.rated.is_none()) {
                Vec::new()
            } else {
                sqlx::query_as(&format!(
                    "SELECT s.table_no, s.seat, r.mu, r.sigma, r.games FROM rated_tables rt
                     JOIN rated_seats s ON s.table_no = rt.table_no
                     LEFT JOIN ratings r ON r.account_no = s.account_no AND r.family = rt.family
                     WHERE rt.table_no IN ({shown})"
                ))
                .fetch_all(&mut *tx)
                .await?
            };
            tx.commit().await?;
            Ok((
                rows,
                seats
                    .iter()
                    .map(|r| (r.get(0), small(r.get(1)), r.get(2)))
                    .collect(),
                rated
                    .into_iter()
                    .map(|(no, seat, mu, sigma, games)| {
                        (no, small(seat), crate::accounts::ratings::stored(mu, sigma, games))
                    })
                    .collect(),
            ))
        })
    }

    /// The public games in progress of slice `slice` of `slices` (those whose row number
    /// leaves `slice` divided by `slices`): each one's id, spectators and preview as last
    /// stored, which the node serving it compares with its own count.
    pub(crate) async fn playing(
        &self,
        (slice, slices): (u64, u64),
    ) -> Result<Vec<(String, i64, Option<String>)>, StoreError> {
        let (slice, slices) = (
            i64::try_from(slice).unwrap_or(0),
            i64::try_from(slices).unwrap_or(1).max(1),
        );
        Ok(with_pool!(self.reader(), pool => {
            sqlx::query_as(PLAYING)
            .bind(slice)
            .bind(slices)
            .fetch_all(pool)
            .await?
        }))
    }

    /// Sets the spectators public tables' node counted and the games' previews (JSON),
    /// `(table id, spectators, preview)`, in one transaction: a node serving a thousand
    /// public games writes their rows once per count, not once per row.
    pub(crate) async fn watchers(
        &self,
        rows: &[(String, u32, Option<String>)],
    ) -> Result<(), StoreError> {
        if rows.is_empty() {
            return Ok(());
        }
        with_pool!(self.pool(), pool => {
            let mut tx = pool.begin().await?;
            for (id, watchers, preview) in rows {
                sqlx::query("UPDATE lobby_tables SET watchers = $1, preview = $2 WHERE table_id = $3")
                    .bind(i64::from(*watchers))
                    .bind(preview)
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Stores a seek; returns its number (its place in the line).
    pub(crate) async fn seek(&self, new: &NewSeek<'_>, now_ms: i64) -> Result<i64, StoreError> {
        let r = &new.row;
        Ok(with_pool!(self.pool(), pool => {
            sqlx::query_scalar(
                "INSERT INTO lobby_seeks (node, socket, choice, label, profile, clock, players,
                     name, address, account_no, bots_after_ms, created_ms, seen_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) RETURNING no",
            )
            .bind(new.node)
            .bind(i64::try_from(new.socket).unwrap_or(i64::MAX))
            .bind(new.choice)
            .bind(new.label)
            .bind(&r.profile)
            .bind(&r.clock)
            .bind(i64::from(r.players))
            .bind(&r.name)
            .bind(&new.address)
            .bind(new.account)
            .bind(r.bots_after_ms)
            .bind(now_ms)
            .fetch_one(pool)
            .await?
        }))
    }

    /// Drops seek `no` (its socket cancelled it or closed).
    pub(crate) async fn drop_seek(&self, no: i64) -> Result<(), StoreError> {
        with_pool!(self.pool(), pool => {
            sqlx::query("DELETE FROM lobby_seeks WHERE no = $1")
                .bind(no)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// The signed-in accounts of seeks `seeks`, in their order (`None` for a guest's or a
    /// seek gone), in one query.
    pub(crate) async fn accounts_of(&self, seeks: &[i64]) -> Result<Vec<Option<i64>>, StoreError> {
        if seeks.is_empty() {
            return Ok(Vec::new());
        }
        let marks: Vec<String> = (1..=seeks.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT no, account_no FROM lobby_seeks WHERE no IN ({})",
            marks.join(", ")
        );
        let found: Vec<(i64, Option<i64>)> = with_pool!(self.reader(), pool => {
            let mut q = sqlx::query_as(&sql);
            for no in seeks {
                q = q.bind(no);
            }
            q.fetch_all(pool).await?
        });
        let by: std::collections::HashMap<i64, Option<i64>> = found.into_iter().collect();
        Ok(seeks
            .iter()
            .map(|no| by.get(no).copied().flatten())
            .collect())
    }

    /// Drops every seek of `node` (it starts: its sockets of before are gone).
    pub(crate) async fn drop_node(&self, node: &str) -> Result<(), StoreError> {
        with_pool!(self.pool(), pool => {
            sqlx::query("DELETE FROM lobby_seeks WHERE node = $1")
                .bind(node)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Marks `node`'s seeks alive at `now_ms` and drops every seek not marked since
    /// `stale_ms` (its node died), in one transaction.
    pub(crate) async fn touch(
        &self,
        node: &str,
        now_ms: i64,
        stale_ms: i64,
    ) -> Result<(), StoreError> {
        // One transaction, one commit: the writer is the tables' too.
        with_pool!(self.pool(), pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("UPDATE lobby_seeks SET seen_ms = $1 WHERE node = $2")
                .bind(now_ms)
                .bind(node)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM lobby_seeks WHERE seen_ms < $1")
                .bind(now_ms - stale_ms)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Seeks waiting from `address`, and from `account` if given (one query: a seek is made
    /// fifty times a second at full load).
    pub(crate) async fn seeks_by(
        &self,
        address: Option<&str>,
        account: Option<i64>,
    ) -> Result<(i64, i64), StoreError> {
        with_pool!(self.reader(), pool => {
            let row = sqlx::query(
                "SELECT COALESCE(SUM(CASE WHEN address = $1 THEN 1 ELSE 0 END), 0),
                     COALESCE(SUM(CASE WHEN account_no = $2 THEN 1 ELSE 0 END), 0)
                 FROM lobby_seeks WHERE table_id IS NULL",
            )
            .bind(address)
            .bind(account)
            .fetch_one(pool)
            .await?;
            Ok((row.try_get(0)?, row.try_get(1)?))
        })
    }

    /// What a step of the follower needs of the seeks, in one query: every seek waiting
    /// in a line, first come first, and the seats given to `node`'s seeks, to be handed
    /// over.
    pub(crate) async fn seeks(
        &self,
        node: &str,
    ) -> Result<(Vec<Waiting>, Vec<Seated>), StoreError> {
        with_pool!(self.reader(), pool => {
            let rows = sqlx::query(
                "SELECT no, name, players, profile, clock, bots_after_ms, created_ms, choice,
                     label, socket, table_id, seat, token
                 FROM lobby_seeks WHERE table_id IS NULL OR (node = $1 AND token IS NOT NULL)
                 ORDER BY no",
            )
            .bind(node)
            .fetch_all(pool)
            .await?;
            let mut waiting = Vec::new();
            let mut seated = Vec::new();
            for r in &rows {
                let table: Option<String> = r.get(10);
                let token: Option<String> = r.get(12);
                match (table, token) {
                    (Some(table), Some(token)) => seated.push(Seated {
                        no: r.get(0),
                        socket: socket_no(r.get(9)),
                        table,
                        seat: small(r.get::<Option<i64>, _>(11).unwrap_or(0)),
                        token,
                    }),
                    (None, _) => waiting.push(Waiting {
                        choice: r.get(7),
                        label: r.get(8),
                        row: seek_row!(r),
                    }),
                    (Some(_), None) => {}
                }
            }
            Ok((waiting, seated))
        })
    }

    /// Drops the seeks `nos` (their seats were handed over), in one statement.
    pub(crate) async fn drop_seeks(&self, nos: &[i64]) -> Result<(), StoreError> {
        if nos.is_empty() {
            return Ok(());
        }
        let marks: Vec<String> = (1..=nos.len()).map(|i| format!("${i}")).collect();
        let sql = format!("DELETE FROM lobby_seeks WHERE no IN ({})", marks.join(", "));
        with_pool!(self.pool(), pool => {
            let mut q = sqlx::query(&sql);
            for no in nos {
                q = q.bind(no);
            }
            q.execute(pool).await?;
        });
        Ok(())
    }

    /// Takes the seekers of `choice` who get a table now, first come first: the first
    /// `players` of them; or, when fewer wait and the first has waited as long as he
    /// allowed before bots fill his table, those who allow bots. They are marked taken in
    /// one transaction, under a lock on the choice on PostgreSQL
    /// (`pg_advisory_xact_lock`), so that no two nodes take one seeker.
    pub(crate) async fn take(&self, choice: &str, now_ms: i64) -> Result<Vec<SeekRow>, StoreError> {
        let postgres = matches!(self.pool(), Pool::Postgres(_));
        with_pool!(self.pool(), pool => {
            let mut tx = pool.begin().await?;
            if postgres {
                sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1))")
                    .bind(choice)
                    .execute(&mut *tx)
                    .await?;
            }
            let rows = sqlx::query(
                "SELECT no, name, players, profile, clock, bots_after_ms, created_ms
                 FROM lobby_seeks WHERE choice = $1 AND table_id IS NULL ORDER BY no",
            )
            .bind(choice)
            .fetch_all(&mut *tx)
            .await?;
            let waiting: Vec<SeekRow> = rows
                .iter()
                .map(|r| seek_row!(r))
                .collect();
            let taken = pick(&waiting, now_ms);
            for s in &taken {
                sqlx::query("UPDATE lobby_seeks SET table_id = $1 WHERE no = $2")
                    .bind(PENDING)
                    .bind(s.no)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok(taken)
        })
    }

    /// Gives the taken seeks their seats at `table` (`(seek, seat, token)`) and lists the
    /// table public (`listed`), all in one transaction or nothing: `false` (and nothing
    /// written) when one of them is gone meanwhile; the others then wait again in their
    /// places.
    pub(crate) async fn seat(
        &self,
        table: &str,
        seats: &[(i64, u8, String)],
        listed: &NewPublic<'_>,
    ) -> Result<bool, StoreError> {
        let all: bool = with_pool!(self.pool(), pool => {
            let mut tx = pool.begin().await?;
            let mut all = true;
            for (no, seat, token) in seats {
                let done = sqlx::query(
                    "UPDATE lobby_seeks SET table_id = $1, seat = $2, token = $3
                     WHERE no = $4 AND table_id = $5",
                )
                .bind(table)
                .bind(i64::from(*seat))
                .bind(token)
                .bind(no)
                .bind(PENDING)
                .execute(&mut *tx)
                .await?;
                all &= done.rows_affected() == 1;
            }
            if all {
                listing(listed).execute(&mut *tx).await?;
                tx.commit().await?;
            } else {
                tx.rollback().await?;
            }
            Ok::<bool, StoreError>(all)
        })?;
        if !all {
            let seeks: Vec<i64> = seats.iter().map(|(no, _, _)| *no).collect();
            self.release(&seeks).await?;
        }
        Ok(all)
    }

    /// Puts the taken seeks `seeks` back in the line, in their places, in one statement.
    pub(crate) async fn release(&self, seeks: &[i64]) -> Result<(), StoreError> {
        if seeks.is_empty() {
            return Ok(());
        }
        let marks: Vec<String> = (1..=seeks.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "UPDATE lobby_seeks SET table_id = NULL WHERE no IN ({})",
            marks.join(", ")
        );
        with_pool!(self.pool(), pool => {
            let mut q = sqlx::query(&sql);
            for no in seeks {
                q = q.bind(no);
            }
            q.execute(pool).await?;
        });
        Ok(())
    }
}

/// The insert that lists `new` public, for either backend.
fn listing<'q, DB: sqlx::Database>(
    new: &'q NewPublic<'q>,
) -> sqlx::query::Query<'q, DB, <DB as sqlx::Database>::Arguments<'q>>
where
    String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    Option<String>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    &'q str: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    let r = new.row;
    sqlx::query(
        "INSERT INTO lobby_tables (table_id, table_no, invite_key, host_name, preset,
             differs, clock, players, address, created_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(&r.id)
    .bind(r.no)
    .bind(new.invite_key)
    .bind(&r.host)
    .bind(&r.preset)
    .bind(&r.differs)
    .bind(&r.clock)
    .bind(i64::from(r.players))
    .bind(&new.address)
    .bind(r.created_ms)
}

/// Who of `waiting` (first come first) gets a table now; empty when nobody does.
pub(crate) fn pick(waiting: &[SeekRow], now_ms: i64) -> Vec<SeekRow> {
    let Some(first) = waiting.first() else {
        return Vec::new();
    };
    let players = usize::from(first.players);
    if waiting.len() >= players {
        return waiting[..players].to_vec();
    }
    match first.bots_after_ms {
        Some(after) if now_ms - first.created_ms >= after => waiting
            .iter()
            .filter(|s| s.bots_after_ms.is_some())
            .take(players)
            .cloned()
            .collect(),
        Some(_) | None => Vec::new(),
    }
}
