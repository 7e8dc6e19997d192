//! The scorekeeper's rows in the server's database (migrations `0020_keeper.sql`): a
//! sheet's header and its changes, one row each, in the same SQLite or PostgreSQL
//! database as the tables. A change is written, and its commit has returned, before
//! anybody is shown the sheet it makes.
//!
//! A change's version is part of its primary key, so two nodes (or two requests) that
//! both try to write version `n` cannot both succeed: the second gets
//! [`Written::Taken`] and reads the sheet again.

use pref_protocol::KeeperOp;
use sqlx::Row;

use crate::ids::{Secret, TokenHash};
use crate::store::{Pool, Store, StoreError, with_pool};

/// A sheet as stored.
#[derive(Debug)]
pub(crate) struct StoredSheet {
    /// Row number.
    pub(crate) no: i64,
    /// The keeper token's hash.
    pub(crate) keeper: TokenHash,
    /// The header as JSON (`header.rs`).
    pub(crate) header: String,
    /// Every change: (version, seconds since 1970, the change as JSON).
    pub(crate) changes: Vec<(u64, i64, String)>,
}

/// What became of a write.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Written {
    /// On disk.
    Done,
    /// Another writer stored this version first.
    Taken,
}

/// How many sheets the database holds (the cap counts them all).
pub(crate) async fn count(store: &Store) -> Result<i64, StoreError> {
    let sql = "SELECT COUNT(*) FROM keeper_sheets";
    Ok(with_pool!(store.pool(), pool => sqlx::query_scalar(sql).fetch_one(pool).await?))
}

/// Stores a new sheet with its first changes (an import's deals), in one transaction;
/// returns its row number.
pub(crate) async fn create(
    store: &Store,
    id: &Secret,
    keeper: &TokenHash,
    header: &str,
    created: i64,
    changes: &[(u64, i64, String)],
) -> Result<i64, StoreError> {
    let insert = "INSERT INTO keeper_sheets (id, keeper_token, header, created, used)
                  VALUES ($1, $2, $3, $4, $4) RETURNING no";
    let change = "INSERT INTO keeper_changes (sheet_no, version, at, change)
                  VALUES ($1, $2, $3, $4)";
    Ok(with_pool!(store.pool(), pool => {
        let mut tx = pool.begin().await?;
        let no: i64 = sqlx::query_scalar(insert)
            .bind(id.expose())
            .bind(keeper.expose())
            .bind(header)
            .bind(created)
            .fetch_one(&mut *tx)
            .await?;
        for (version, at, text) in changes {
            sqlx::query(change)
                .bind(no)
                .bind(version_i64(*version))
                .bind(*at)
                .bind(text)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        no
    }))
}

/// Appends change `version` to sheet `no`.
pub(crate) async fn append(
    store: &Store,
    no: i64,
    version: u64,
    at: i64,
    change: &str,
) -> Result<Written, StoreError> {
    let sql = "INSERT INTO keeper_changes (sheet_no, version, at, change)
               VALUES ($1, $2, $3, $4) ON CONFLICT (sheet_no, version) DO NOTHING";
    let rows = with_pool!(store.pool(), pool => sqlx::query(sql)
        .bind(no)
        .bind(version_i64(version))
        .bind(at)
        .bind(change)
        .execute(pool)
        .await?
        .rows_affected());
    Ok(if rows == 1 {
        Written::Done
    } else {
        Written::Taken
    })
}

/// Reads sheet `id` with its changes after version `after` (0 for all), first writing down
/// its use at `used` (seconds since 1970), so that an expiry pass that has not yet deleted
/// it no longer does; `None` if there is no such sheet.
pub(crate) async fn load(
    store: &Store,
    id: &Secret,
    after: u64,
    used: i64,
) -> Result<Option<StoredSheet>, StoreError> {
    let touch = "UPDATE keeper_sheets SET used = $2 WHERE id = $1";
    with_pool!(store.pool(), pool => {
        sqlx::query(touch).bind(id.expose()).bind(used).execute(pool).await?;
    });
    let head = "SELECT no, keeper_token, header FROM keeper_sheets WHERE id = $1";
    let row: Option<(i64, String, String)> = with_pool!(store.pool(), pool => {
        match sqlx::query(head).bind(id.expose()).fetch_optional(pool).await? {
            Some(r) => Some((r.try_get("no")?, r.try_get("keeper_token")?, r.try_get("header")?)),
            None => None,
        }
    });
    let Some((no, token, header)) = row else {
        return Ok(None);
    };
    let keeper = TokenHash::read_stored(&token).ok_or_else(|| StoreError::Damaged {
        table: no,
        why: "the keeper token does not parse".into(),
    })?;
    let changes = changes_after(store, no, after).await?;
    Ok(Some(StoredSheet {
        no,
        keeper,
        header,
        changes,
    }))
}

/// The changes of sheet `no` after version `after`, in order.
pub(crate) async fn changes_after(
    store: &Store,
    no: i64,
    after: u64,
) -> Result<Vec<(u64, i64, String)>, StoreError> {
    let sql = "SELECT version, at, change FROM keeper_changes
               WHERE sheet_no = $1 AND version > $2 ORDER BY version";
    let rows: Vec<(i64, i64, String)> = with_pool!(store.pool(), pool => {
        let rows = sqlx::query(sql)
            .bind(no)
            .bind(version_i64(after))
            .fetch_all(pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("version")?, r.try_get("at")?, r.try_get("change")?)))
            .collect::<Result<_, sqlx::Error>>()?
    });
    Ok(rows
        .into_iter()
        .map(|(v, at, text)| (u64::try_from(v).unwrap_or(0), at, text))
        .collect())
}

/// Writes down that sheet `no` was last used at `at` (seconds since 1970).
pub(crate) async fn touch(store: &Store, no: i64, at: i64) -> Result<(), StoreError> {
    let sql = "UPDATE keeper_sheets SET used = $2 WHERE no = $1 AND used < $2";
    with_pool!(store.pool(), pool => {
        sqlx::query(sql).bind(no).bind(at).execute(pool).await?;
    });
    Ok(())
}

/// Up to `limit` sheets last used before `cutoff`: their row numbers and ids.
pub(crate) async fn stale(
    store: &Store,
    cutoff: i64,
    limit: i64,
) -> Result<Vec<(i64, Secret)>, StoreError> {
    let sql = "SELECT no, id FROM keeper_sheets WHERE used < $1 ORDER BY used LIMIT $2";
    let rows: Vec<(i64, String)> = with_pool!(store.pool(), pool => {
        let rows = sqlx::query(sql).bind(cutoff).bind(limit).fetch_all(pool).await?;
        rows.iter()
            .map(|r| Ok((r.try_get("no")?, r.try_get("id")?)))
            .collect::<Result<_, sqlx::Error>>()?
    });
    Ok(rows
        .into_iter()
        .filter_map(|(no, id)| Secret::parse(&id).map(|id| (no, id)))
        .collect())
}

/// Deletes sheet `no` and its changes if it is still last used before `cutoff`, in one
/// transaction whose first statement locks the row (a concurrent read of the sheet writes
/// its use first and so either keeps it or finds it gone); whether it was deleted.
pub(crate) async fn delete_if_stale(
    store: &Store,
    no: i64,
    cutoff: i64,
) -> Result<bool, StoreError> {
    let lock = "UPDATE keeper_sheets SET used = used WHERE no = $1 AND used < $2";
    let changes = "DELETE FROM keeper_changes WHERE sheet_no = $1";
    let sheet = "DELETE FROM keeper_sheets WHERE no = $1";
    Ok(with_pool!(store.pool(), pool => {
        let mut tx = pool.begin().await?;
        let stale = sqlx::query(lock).bind(no).bind(cutoff).execute(&mut *tx).await?;
        if stale.rows_affected() == 1 {
            sqlx::query(changes).bind(no).execute(&mut *tx).await?;
            sqlx::query(sheet).bind(no).execute(&mut *tx).await?;
            tx.commit().await?;
            true
        } else {
            false
        }
    }))
}

/// A change as stored: its JSON.
pub(crate) fn change_text(op: &KeeperOp) -> String {
    serde_json::to_string(op).unwrap_or_default()
}

fn version_i64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}
