//! The accounts' rows in the server's database (`migrations/*/0080_accounts.sql`): accounts,
//! sessions, seats tied to accounts, and each finished game's figures with their running sum
//! per account. The same SQL serves SQLite and PostgreSQL, so every node of a cluster knows
//! every session.

use pref_core::stats::SeatStats;
use sqlx::Row;

use super::keys::Locked;
use crate::ids::{Secret, TokenHash};
use crate::store::{Pool, Store, StoreError, with_pool};

/// A live account as stored.
#[derive(Clone, Debug)]
pub(crate) struct AccountRow {
    /// Its row number.
    pub no: i64,
    /// The user name as written.
    pub name: String,
    /// The password as locked.
    pub locked: Locked,
    /// Seconds since 1970.
    pub created: i64,
    /// Whether its page is hidden.
    pub hidden: bool,
    /// A bot account (`bot_api.rs`).
    pub bot: bool,
}

/// A live session as stored, with its account.
#[derive(Clone, Debug)]
pub(crate) struct SessionRow {
    /// The account.
    pub account: AccountRow,
    /// The account's key wrapped by the session's token.
    pub vault: String,
    /// When it was last written down as used.
    pub used: i64,
}

/// A seat tied to an account.
#[derive(Clone, Debug)]
pub(crate) struct SeatLink {
    /// The seat.
    pub seat: u8,
    /// The token's hash when it was tied.
    pub token_hash: TokenHash,
    /// The token sealed under the account's key; `None` once the account is deleted.
    pub sealed: Option<String>,
}

/// One game of a player's list, as stored.
#[derive(Clone, Debug)]
pub(crate) struct GameRow {
    /// The link's row number: the list's order and its pages' cursor.
    pub no: i64,
    /// The table's id (32 hex digits).
    pub table: String,
    /// The player's seat.
    pub seat: u8,
    /// When the seat was tied.
    pub at: i64,
    /// `lobby`, `playing` or `over`.
    pub state: String,
    /// The table's resolved profile (JSON).
    pub profile: String,
    /// The player's settlement, once counted.
    pub result: Option<String>,
}

/// Who holds a seat of a listed table now.
#[derive(Clone, Debug)]
pub(crate) struct SeatRow {
    /// The table's id.
    pub table: String,
    /// The seat.
    pub seat: u8,
    /// The name at the table.
    pub name: String,
    /// A bot's level.
    pub bot: Option<String>,
    /// The account holding it, with whether it was deleted.
    pub account: Option<(String, bool)>,
    /// That account is a bot account.
    pub bot_account: bool,
}

/// A finished game's settlement for the player, in the order counted.
#[derive(Clone, Debug)]
pub(crate) struct ResultRow {
    /// When it was counted.
    pub counted: i64,
    /// The settlement, exact (`None`: the game ended without one).
    pub result: Option<String>,
}

/// The account columns every query of an account reads, in [`AccountColumns`]' order.
pub(super) const ACCOUNT: &str =
    "a.no, a.name, a.salt, a.cost, a.verifier, a.vault, a.created, a.hidden, a.bot";

fn account(r: &impl AccountColumns) -> AccountRow {
    r.account()
}

/// Reads the [`ACCOUNT`] columns from a row of either backend.
pub(super) trait AccountColumns {
    fn account(&self) -> AccountRow;
}

macro_rules! account_columns {
    ($row:ty) => {
        impl AccountColumns for $row {
            fn account(&self) -> AccountRow {
                AccountRow {
                    no: self.get(0),
                    name: self.get(1),
                    locked: Locked {
                        salt: self.get(2),
                        cost: self.get(3),
                        verifier: self.get(4),
                        vault: self.get(5),
                    },
                    created: self.get(6),
                    hidden: self.get::<i64, _>(7) != 0,
                    bot: self.get::<i64, _>(8) != 0,
                }
            }
        }
    };
}
account_columns!(sqlx::sqlite::SqliteRow);
account_columns!(sqlx::postgres::PgRow);

fn seat_of(v: i64) -> u8 {
    u8::try_from(v).unwrap_or(u8::MAX)
}

fn damaged(why: String) -> StoreError {
    StoreError::Damaged { table: 0, why }
}

/// The accounts' rows.
impl Store {
    /// How many live accounts there are.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn account_count(&self) -> Result<i64, StoreError> {
        let count = "SELECT COUNT(*) FROM accounts WHERE deleted IS NULL";
        Ok(with_pool!(self.pool(), pool => {
            sqlx::query_scalar(count).fetch_one(pool).await?
        }))
    }

    /// Makes an account; `None` when a live account has the same folded name.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses otherwise.
    pub(crate) async fn create_account(
        &self,
        name: &str,
        folded: &str,
        locked: &Locked,
        now: i64,
    ) -> Result<Option<i64>, StoreError> {
        let insert = "INSERT INTO accounts (name, folded, salt, cost, verifier, vault, created)
                      VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING no";
        let made = with_pool!(self.pool(), pool => {
            sqlx::query_scalar::<_, i64>(insert)
                .bind(name)
                .bind(folded)
                .bind(&locked.salt)
                .bind(&locked.cost)
                .bind(&locked.verifier)
                .bind(&locked.vault)
                .bind(now)
                .fetch_one(pool)
                .await
        });
        match made {
            Ok(no) => Ok(Some(no)),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// The live account whose folded name is `folded`.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn account_named(
        &self,
        folded: &str,
    ) -> Result<Option<AccountRow>, StoreError> {
        let select = format!("SELECT {ACCOUNT} FROM accounts a WHERE a.folded = $1");
        Ok(with_pool!(self.pool(), pool => {
            sqlx::query(&select)
                .bind(folded)
                .fetch_optional(pool)
                .await?
                .map(|r| account(&r))
        }))
    }

    /// Stores a session of `account`; drops its oldest beyond `keep`.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn create_session(
        &self,
        account: i64,
        id: &str,
        vault: &str,
        now: i64,
        expires: i64,
        keep: u32,
    ) -> Result<(), StoreError> {
        let insert = "INSERT INTO account_sessions (id, account_no, vault, created, expires, used)
                      VALUES ($1, $2, $3, $4, $5, $4)";
        let trim = "DELETE FROM account_sessions WHERE account_no = $1 AND id NOT IN
                    (SELECT id FROM account_sessions WHERE account_no = $1
                     ORDER BY created DESC, id LIMIT $2)";
        with_pool!(self.pool(), pool => {
            sqlx::query(insert)
                .bind(id)
                .bind(account)
                .bind(vault)
                .bind(now)
                .bind(expires)
                .execute(pool)
                .await?;
            sqlx::query(trim)
                .bind(account)
                .bind(i64::from(keep.max(1)))
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// The live session stored as `id` at `now`, with its account; its use is written
    /// down at most once a minute.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn session(
        &self,
        id: &str,
        now: i64,
    ) -> Result<Option<SessionRow>, StoreError> {
        let select = format!(
            "SELECT {ACCOUNT}, s.vault, s.used FROM account_sessions s
             JOIN accounts a ON a.no = s.account_no
             WHERE s.id = $1 AND s.expires > $2 AND a.deleted IS NULL"
        );
        let touch = "UPDATE account_sessions SET used = $2 WHERE id = $1";
        let row = with_pool!(self.pool(), pool => {
            sqlx::query(&select)
                .bind(id)
                .bind(now)
                .fetch_optional(pool)
                .await?
                .map(|r| SessionRow {
                    account: account(&r),
                    vault: r.get(9),
                    used: r.get(10),
                })
        });
        if let Some(s) = &row
            && now - s.used >= 60
        {
            with_pool!(self.pool(), pool => {
                sqlx::query(touch).bind(id).bind(now).execute(pool).await?;
            });
        }
        Ok(row)
    }

    /// Ends the session stored as `id`.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn end_session(&self, id: &str) -> Result<(), StoreError> {
        with_pool!(self.pool(), pool => {
            sqlx::query("DELETE FROM account_sessions WHERE id = $1")
                .bind(id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Stores a new password's lock and ends every session of the account but `keep`.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn set_password(
        &self,
        account: i64,
        locked: &Locked,
        keep: &str,
    ) -> Result<(), StoreError> {
        let update = "UPDATE accounts SET salt = $2, cost = $3, verifier = $4, vault = $5
                      WHERE no = $1";
        let others = "DELETE FROM account_sessions WHERE account_no = $1 AND id <> $2";
        with_pool!(self.pool(), pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(update)
                .bind(account)
                .bind(&locked.salt)
                .bind(&locked.cost)
                .bind(&locked.verifier)
                .bind(&locked.vault)
                .execute(&mut *tx)
                .await?;
            sqlx::query(others).bind(account).bind(keep).execute(&mut *tx).await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Hides the account's page, or shows it.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn set_hidden(&self, account: i64, hidden: bool) -> Result<(), StoreError> {
        with_pool!(self.pool(), pool => {
            sqlx::query("UPDATE accounts SET hidden = $2 WHERE no = $1")
                .bind(account)
                .bind(i64::from(hidden))
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Deletes the account: its name is free again, its password, key, sessions and sealed
    /// tokens are gone; its rows stay so its games still show a deleted player.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn delete_account(&self, account: i64, now: i64) -> Result<(), StoreError> {
        let erase = "UPDATE accounts SET folded = NULL, salt = '', cost = '', verifier = '',
                     vault = '', deleted = $2 WHERE no = $1";
        with_pool!(self.pool(), pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(erase).bind(account).bind(now).execute(&mut *tx).await?;
            sqlx::query("DELETE FROM account_sessions WHERE account_no = $1")
                .bind(account)
                .execute(&mut *tx)
                .await?;
            sqlx::query("UPDATE account_seats SET sealed = NULL WHERE account_no = $1")
                .bind(account)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Ties `seat` of `table` (its token's hash and the token sealed) to `account`; a
    /// table already tied keeps its place in the list.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn tie_seat(
        &self,
        account: i64,
        table: &Secret,
        seat: u8,
        token: &TokenHash,
        sealed: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let upsert =
            "INSERT INTO account_seats (account_no, table_id, seat, token_hash, sealed, at)
                      VALUES ($1, $2, $3, $4, $5, $6)
                      ON CONFLICT (account_no, table_id) DO UPDATE SET seat = excluded.seat,
                          token_hash = excluded.token_hash, sealed = excluded.sealed";
        with_pool!(self.pool(), pool => {
            sqlx::query(upsert)
                .bind(account)
                .bind(table.expose())
                .bind(i64::from(seat))
                .bind(token.expose())
                .bind(sealed)
                .bind(now)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// The account's seat at `table`, if one is tied.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses or the stored hash does not read.
    pub(crate) async fn seat_link(
        &self,
        account: i64,
        table: &Secret,
    ) -> Result<Option<SeatLink>, StoreError> {
        let select = "SELECT seat, token_hash, sealed FROM account_seats
                      WHERE account_no = $1 AND table_id = $2";
        let row = with_pool!(self.pool(), pool => {
            sqlx::query(select)
                .bind(account)
                .bind(table.expose())
                .fetch_optional(pool)
                .await?
                .map(|r| (r.get::<i64, _>(0), r.get::<String, _>(1), r.get::<Option<String>, _>(2)))
        });
        row.map(|(seat, hash, sealed)| {
            Ok(SeatLink {
                seat: seat_of(seat),
                token_hash: TokenHash::read_stored(&hash)
                    .ok_or_else(|| damaged("a tied seat's token hash".into()))?,
                sealed,
            })
        })
        .transpose()
    }

    /// The seat of `table` whose current occupant (a person) holds the token hashed to
    /// `token`.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn seat_held(
        &self,
        table: &Secret,
        token: &TokenHash,
    ) -> Result<Option<u8>, StoreError> {
        let select = "SELECT s.seat FROM seats s JOIN tables t ON t.no = s.table_no
                      WHERE t.id = $1 AND s.token = $2 AND s.bot IS NULL
                          AND t.state <> 'expired'";
        Ok(with_pool!(self.pool(), pool => {
            sqlx::query_scalar::<_, i64>(select)
                .bind(table.expose())
                .bind(token.expose())
                .fetch_optional(pool)
                .await?
                .map(seat_of)
        }))
    }

    /// Whether a table (not expired) has the id `table` (32 hex digits).
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn table_exists(&self, table: &str) -> Result<bool, StoreError> {
        let select = "SELECT COUNT(*) FROM tables WHERE id = $1 AND state <> 'expired'";
        let n: i64 = with_pool!(self.pool(), pool => {
            sqlx::query_scalar(select).bind(table).fetch_one(pool).await?
        });
        Ok(n > 0)
    }

    /// How many games the account's list holds.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn game_count(&self, account: i64) -> Result<i64, StoreError> {
        let count = "SELECT COUNT(*) FROM account_seats a JOIN tables t ON t.id = a.table_id
                     WHERE a.account_no = $1 AND t.state <> 'expired'";
        Ok(with_pool!(self.pool(), pool => {
            sqlx::query_scalar(count).bind(account).fetch_one(pool).await?
        }))
    }

    /// A page of the account's games, newest first: at most `limit` with a row number
    /// below `before`; `over` says whether finished games or those not over are listed
    /// (`None`: both).
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn games(
        &self,
        account: i64,
        before: i64,
        limit: u32,
        over: Option<bool>,
    ) -> Result<Vec<GameRow>, StoreError> {
        let which = match over {
            None => "t.state <> 'expired'",
            Some(true) => "t.state = 'over'",
            Some(false) => "t.state IN ('lobby', 'playing')",
        };
        let select = format!(
            "SELECT a.no, a.table_id, a.seat, a.at, t.state, t.profile, g.result
             FROM account_seats a JOIN tables t ON t.id = a.table_id
             LEFT JOIN account_games g ON g.account_no = a.account_no AND g.table_id = a.table_id
             WHERE a.account_no = $1 AND a.no < $2 AND {which}
             ORDER BY a.no DESC LIMIT $3"
        );
        Ok(with_pool!(self.pool(), pool => {
            sqlx::query(&select)
                .bind(account)
                .bind(before)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await?
                .into_iter()
                .map(|r| GameRow {
                    no: r.get(0),
                    table: r.get(1),
                    seat: seat_of(r.get(2)),
                    at: r.get(3),
                    state: r.get(4),
                    profile: r.get(5),
                    result: r.get(6),
                })
                .collect()
        }))
    }

    /// Who holds each seat of `tables` now, with the account tied to it (a deleted one
    /// says so).
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn seats_of(&self, tables: &[String]) -> Result<Vec<SeatRow>, StoreError> {
        if tables.is_empty() {
            return Ok(Vec::new());
        }
        let marks: Vec<String> = (1..=tables.len()).map(|i| format!("${i}")).collect();
        let select = format!(
            "SELECT t.id, s.seat, s.name, s.bot, acc.name, acc.deleted, acc.bot
             FROM seats s JOIN tables t ON t.no = s.table_no
             LEFT JOIN account_seats l ON l.table_id = t.id AND l.seat = s.seat
                 AND l.token_hash = s.token
             LEFT JOIN accounts acc ON acc.no = l.account_no
             WHERE t.id IN ({}) ORDER BY t.id, s.seat",
            marks.join(", ")
        );
        Ok(with_pool!(self.pool(), pool => {
            let mut q = sqlx::query(&select);
            for t in tables {
                q = q.bind(t);
            }
            q.fetch_all(pool)
                .await?
                .into_iter()
                .map(|r| SeatRow {
                    table: r.get(0),
                    seat: seat_of(r.get(1)),
                    name: r.get(2),
                    bot: r.get(3),
                    account: r
                        .get::<Option<String>, _>(4)
                        .map(|n| (n, r.get::<Option<i64>, _>(5).is_some())),
                    bot_account: r.get::<Option<i64>, _>(6).unwrap_or(0) != 0,
                })
                .collect()
        }))
    }

    /// Finished games of the account not counted yet, whose seat it held at the end: at
    /// most `limit` of them, as (table id, seat).
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn uncounted(
        &self,
        account: i64,
        limit: u32,
    ) -> Result<Vec<(String, u8)>, StoreError> {
        let select = "SELECT a.table_id, a.seat FROM account_seats a
                      JOIN tables t ON t.id = a.table_id
                      JOIN seats s ON s.table_no = t.no AND s.seat = a.seat
                          AND s.token = a.token_hash
                      WHERE a.account_no = $1 AND a.counted = 0 AND t.state = 'over'
                      ORDER BY a.no LIMIT $2";
        Ok(with_pool!(self.pool(), pool => {
            sqlx::query(select)
                .bind(account)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await?
                .into_iter()
                .map(|r| (r.get::<String, _>(0), seat_of(r.get(1))))
                .collect()
        }))
    }

    /// The account's running sum of every counted game.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses or the stored sum does not read.
    pub(crate) async fn totals(&self, account: i64) -> Result<SeatStats, StoreError> {
        let read = "SELECT totals FROM account_stats WHERE account_no = $1";
        let text: Option<String> = with_pool!(self.pool(), pool => {
            sqlx::query_scalar(read).bind(account).fetch_optional(pool).await?
        });
        text.map_or_else(
            || Ok(SeatStats::default()),
            |t| serde_json::from_str(&t).map_err(|e| damaged(e.to_string())),
        )
    }

    /// The settlement of every counted game of the account, in the order counted.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn results(&self, account: i64) -> Result<Vec<ResultRow>, StoreError> {
        let select = "SELECT counted, result FROM account_games
                      WHERE account_no = $1 ORDER BY counted, table_id";
        Ok(with_pool!(self.pool(), pool => {
            sqlx::query(select)
                .bind(account)
                .fetch_all(pool)
                .await?
                .into_iter()
                .map(|r| ResultRow {
                    counted: r.get(0),
                    result: r.get(1),
                })
                .collect()
        }))
    }
}
