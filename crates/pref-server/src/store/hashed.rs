//! Rewrites tokens an SQLite database stored in plain text, before tokens were hashed, as
//! their SHA-256 ([`TokenHash`]). PostgreSQL does the same in its migration
//! `0040_hashed_tokens.sql`; SQLite has no SHA-256 function, so the server does it when it
//! opens the database. Reading a plain token still works (`TokenHash::read_stored`), so an
//! interrupted rewrite loses nothing.

use sqlx::SqlitePool;

use super::StoreError;
use crate::ids::TokenHash;

/// Every column that holds a token, with its table's key column.
const COLUMNS: [(&str, &str, &str); 3] = [
    ("tables", "no", "host_token"),
    ("seats", "rowid", "token"),
    ("keeper_sheets", "no", "keeper_token"),
];

/// Hashes every token still stored in plain text (32 hex digits); returns how many.
///
/// # Errors
/// [`StoreError::Db`].
pub(super) async fn hash_plain_tokens(pool: &SqlitePool) -> Result<u64, StoreError> {
    let mut tx = pool.begin().await?;
    let mut done = 0;
    for (table, key, column) in COLUMNS {
        let plain: Vec<(i64, String)> = sqlx::query_as(&format!(
            "SELECT {key}, {column} FROM {table} WHERE length({column}) = 32"
        ))
        .fetch_all(&mut *tx)
        .await?;
        for (row, token) in plain {
            // A token that does not read is left for the loader to report as damaged.
            let Some(hash) = TokenHash::read_stored(&token) else {
                continue;
            };
            sqlx::query(&format!(
                "UPDATE {table} SET {column} = $1 WHERE {key} = $2"
            ))
            .bind(hash.expose())
            .bind(row)
            .execute(&mut *tx)
            .await?;
            done += 1;
        }
    }
    tx.commit().await?;
    Ok(done)
}
