//! The bot API's rows (`migrations/*/0120_bot_api.sql`): accounts turned into bots, their
//! API tokens and the seats hosts keep for them. The same SQL serves SQLite and
//! PostgreSQL, so a token revoked on one node is refused by every node's next check.

use sqlx::Row;

use super::store::{ACCOUNT, AccountColumns, AccountRow};
use crate::store::{Pool, Store, StoreError, with_pool};

/// A live API token as stored, with its bot account.
#[derive(Clone, Debug)]
pub(crate) struct TokenRow {
    /// The token's number.
    pub no: i64,
    /// The account.
    pub account: AccountRow,
    /// The account's key wrapped by the token.
    pub vault: String,
}

/// One token of an account's list.
#[derive(Clone, Debug)]
pub(crate) struct TokenListed {
    /// Its number.
    pub no: i64,
    /// Its name.
    pub name: String,
    /// When it was made.
    pub created: i64,
    /// When it was last used, to the minute.
    pub used: Option<i64>,
}

/// A seat kept for a bot, still free at a table in the lobby.
#[derive(Clone, Debug)]
pub(crate) struct InvitationRow {
    /// The table's id.
    pub table: String,
    /// The seat.
    pub seat: u8,
    /// When the host invited.
    pub at: i64,
}

/// The bot API's rows.
impl Store {
    /// Turns the live account `account` into a bot account if it has never held a seat;
    /// `false` (nothing changed) otherwise.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn make_bot(&self, account: i64) -> Result<bool, StoreError> {
        let update = "UPDATE accounts SET bot = 1 WHERE no = $1 AND deleted IS NULL
                      AND NOT EXISTS (SELECT 1 FROM account_seats WHERE account_no = $1)";
        Ok(with_pool!(self.pool(), pool => {
            sqlx::query(update).bind(account).execute(pool).await?.rows_affected() == 1
        }))
    }

    /// Stores a new token of `account` unless it holds `keep` live ones already: its
    /// number, or `None`.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn create_token(
        &self,
        account: i64,
        (id, vault): (&str, &str),
        name: &str,
        now: i64,
        keep: u32,
    ) -> Result<Option<i64>, StoreError> {
        let count = "SELECT COUNT(*) FROM bot_tokens WHERE account_no = $1 AND revoked IS NULL";
        let insert = "INSERT INTO bot_tokens (id, account_no, name, vault, created)
                      VALUES ($1, $2, $3, $4, $5) RETURNING no";
        Ok(with_pool!(self.pool(), pool => {
            let mut tx = pool.begin().await?;
            let live: i64 = sqlx::query_scalar(count).bind(account).fetch_one(&mut *tx).await?;
            if live >= i64::from(keep) {
                return Ok(None);
            }
            let no: i64 = sqlx::query_scalar(insert)
                .bind(id)
                .bind(account)
                .bind(name)
                .bind(vault)
                .bind(now)
                .fetch_one(&mut *tx)
                .await?;
            tx.commit().await?;
            Some(no)
        }))
    }

    /// The account's live tokens, newest first.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn tokens(&self, account: i64) -> Result<Vec<TokenListed>, StoreError> {
        let select = "SELECT no, name, created, used FROM bot_tokens
                      WHERE account_no = $1 AND revoked IS NULL ORDER BY no DESC";
        Ok(with_pool!(self.pool(), pool => {
            sqlx::query(select)
                .bind(account)
                .fetch_all(pool)
                .await?
                .into_iter()
                .map(|r| TokenListed {
                    no: r.get(0),
                    name: r.get(1),
                    created: r.get(2),
                    used: r.get(3),
                })
                .collect()
        }))
    }

    /// Revokes the account's live token `no`; `false` if it has none so numbered.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn revoke_token(
        &self,
        account: i64,
        no: i64,
        now: i64,
    ) -> Result<bool, StoreError> {
        let update = "UPDATE bot_tokens SET revoked = $3
                      WHERE account_no = $1 AND no = $2 AND revoked IS NULL";
        Ok(with_pool!(self.pool(), pool => {
            sqlx::query(update)
                .bind(account)
                .bind(no)
                .bind(now)
                .execute(pool)
                .await?
                .rows_affected()
                == 1
        }))
    }

    /// The live token stored as `id`, with its live bot account; its use is written down
    /// when the last one written is a minute old.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn token(&self, id: &str, now: i64) -> Result<Option<TokenRow>, StoreError> {
        let select = format!(
            "SELECT {ACCOUNT}, t.no, t.vault, t.used FROM bot_tokens t
             JOIN accounts a ON a.no = t.account_no
             WHERE t.id = $1 AND t.revoked IS NULL AND a.deleted IS NULL AND a.bot = 1"
        );
        let touch = "UPDATE bot_tokens SET used = $2 WHERE no = $1";
        let found = with_pool!(self.pool(), pool => {
            sqlx::query(&select)
                .bind(id)
                .fetch_optional(pool)
                .await?
                .map(|r| {
                    let used: Option<i64> = r.get(11);
                    (TokenRow { account: r.account(), no: r.get(9), vault: r.get(10) }, used)
                })
        });
        let Some((row, used)) = found else {
            return Ok(None);
        };
        if used.is_none_or(|u| now - u >= 60) {
            with_pool!(self.pool(), pool => {
                sqlx::query(touch).bind(row.no).bind(now).execute(pool).await?;
            });
        }
        Ok(Some(row))
    }

    /// Whether token `no` is live still (not revoked, its account not deleted).
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn token_live(&self, no: i64) -> Result<bool, StoreError> {
        let select = "SELECT COUNT(*) FROM bot_tokens t JOIN accounts a ON a.no = t.account_no
                      WHERE t.no = $1 AND t.revoked IS NULL AND a.deleted IS NULL";
        let n: i64 = with_pool!(self.pool(), pool => {
            sqlx::query_scalar(select).bind(no).fetch_one(pool).await?
        });
        Ok(n > 0)
    }

    /// The live bot account whose folded name is `folded`.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn bot_named(&self, folded: &str) -> Result<Option<AccountRow>, StoreError> {
        Ok(self.account_named(folded).await?.filter(|a| a.bot))
    }

    /// Notes that a host keeps `seat` of `table` for bot `account` (again: the newest
    /// invitation to a table stands).
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn invite_bot(
        &self,
        account: i64,
        table: &str,
        seat: u8,
        now: i64,
    ) -> Result<(), StoreError> {
        let upsert = "INSERT INTO bot_invitations (account_no, table_id, seat, at)
                      VALUES ($1, $2, $3, $4) ON CONFLICT (account_no, table_id)
                      DO UPDATE SET seat = excluded.seat, at = excluded.at";
        with_pool!(self.pool(), pool => {
            sqlx::query(upsert)
                .bind(account)
                .bind(table)
                .bind(i64::from(seat))
                .bind(now)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// The seats kept for bot `account` that are still free at tables in the lobby, oldest
    /// first, at most `limit`.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn invitations(
        &self,
        account: i64,
        limit: u32,
    ) -> Result<Vec<InvitationRow>, StoreError> {
        let select = "SELECT i.table_id, i.seat, i.at FROM bot_invitations i
                      JOIN tables t ON t.id = i.table_id
                      WHERE i.account_no = $1 AND t.state = 'lobby'
                          AND NOT EXISTS (SELECT 1 FROM seats s
                                          WHERE s.table_no = t.no AND s.seat = i.seat)
                      ORDER BY i.at, i.table_id LIMIT $2";
        Ok(with_pool!(self.pool(), pool => {
            sqlx::query(select)
                .bind(account)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await?
                .into_iter()
                .map(|r| InvitationRow {
                    table: r.get(0),
                    seat: u8::try_from(r.get::<i64, _>(1)).unwrap_or(u8::MAX),
                    at: r.get(2),
                })
                .collect()
        }))
    }

    /// Whether a host invited bot `account` to `table`.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses.
    pub(crate) async fn invited(&self, account: i64, table: &str) -> Result<bool, StoreError> {
        let select = "SELECT COUNT(*) FROM bot_invitations WHERE account_no = $1 AND table_id = $2";
        let n: i64 = with_pool!(self.pool(), pool => {
            sqlx::query_scalar(select).bind(account).bind(table).fetch_one(pool).await?
        });
        Ok(n > 0)
    }
}
