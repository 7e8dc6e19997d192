//! The analysis of the accounts' games, counted once: which counted games still wait for it,
//! and the write that adds a game's "accuracy" (the tricks the player's cards lost to the
//! solver, `pref_analysis::accuracy`) to the game's row and to the account's running sum in
//! one transaction. The analysis itself runs in the background (`analysis/accuracy.rs`).

use pref_core::stats::SeatStats;
use sqlx::Row;
use tokio::sync::Notify;

use super::damaged;
use super::{Pool, Store, StoreError};

/// Told when a game is counted for an account (`counted.rs`), so the background analysis
/// wakes at once instead of at its next round.
pub(crate) static GAME_COUNTED: Notify = Notify::const_new();

/// An account's counted game whose analysis has not been counted yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unanalysed {
    /// The account.
    pub account: i64,
    /// The table's id.
    pub table: String,
    /// The account's seat there.
    pub seat: u8,
}

impl Store {
    /// At most `n` counted games whose analysis waits, the earliest counted first.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub(crate) async fn unanalysed(&self, n: i64) -> Result<Vec<Unanalysed>, StoreError> {
        let games = with_pool!(&self.pool, pool => {
            sqlx::query(
                "SELECT g.account_no, g.table_id, s.seat FROM account_games g
                 JOIN account_seats s ON s.account_no = g.account_no AND s.table_id = g.table_id
                 WHERE g.analysed = 0 ORDER BY g.counted, g.table_id LIMIT $1",
            )
            .bind(n)
            .fetch_all(pool)
            .await?
            .iter()
            .map(|r| Unanalysed {
                account: r.get(0),
                table: r.get(1),
                seat: u8::try_from(r.get::<i64, _>(2)).unwrap_or(u8::MAX),
            })
            .collect()
        });
        Ok(games)
    }

    /// Counts the analysis of `account`'s game at `table` once: `deals` analysed deals in
    /// which he chose a card, `lost` tricks his cards lost in them. A game counted already
    /// (by another node, or earlier) changes nothing.
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses (nothing is written) or a stored row does not
    /// read.
    pub(crate) async fn count_accuracy(
        &self,
        game: &Unanalysed,
        deals: u64,
        lost: u64,
    ) -> Result<(), StoreError> {
        with_pool!(&self.pool, pool => {
            let mut tx = pool.begin().await?;
            let row = sqlx::query(
                "SELECT stats FROM account_games
                 WHERE account_no = $1 AND table_id = $2 AND analysed = 0",
            )
            .bind(game.account)
            .bind(&game.table)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(row) = row {
                let mut stats: SeatStats =
                    serde_json::from_str(&row.get::<String, _>(0)).map_err(damaged)?;
                stats.analysed_deals = deals;
                stats.tricks_lost = lost;
                sqlx::query(
                    "UPDATE account_games SET analysed = 1, stats = $3
                     WHERE account_no = $1 AND table_id = $2",
                )
                .bind(game.account)
                .bind(&game.table)
                .bind(serde_json::to_string(&stats).map_err(damaged)?)
                .execute(&mut *tx)
                .await?;
                let totals: Option<String> =
                    sqlx::query_scalar("SELECT totals FROM account_stats WHERE account_no = $1")
                        .bind(game.account)
                        .fetch_optional(&mut *tx)
                        .await?;
                let mut totals = match totals {
                    Some(t) => serde_json::from_str::<SeatStats>(&t).map_err(damaged)?,
                    None => SeatStats::default(),
                };
                totals.analysed_deals += deals;
                totals.tricks_lost += lost;
                sqlx::query(
                    "INSERT INTO account_stats (account_no, totals) VALUES ($1, $2)
                     ON CONFLICT (account_no) DO UPDATE SET totals = excluded.totals",
                )
                .bind(game.account)
                .bind(serde_json::to_string(&totals).map_err(damaged)?)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::Secret;

    /// An account with two counted games whose analysis waits, in a fresh store.
    async fn two_games() -> (Store, i64) {
        let dir = std::env::temp_dir().join(format!("pref-accuracy-{}", Secret::random().expose()));
        let store = Store::open(&dir).await.unwrap();
        let Pool::Sqlite(pool) = &store.pool else {
            unreachable!("a store in a directory is SQLite")
        };
        let account: i64 = sqlx::query_scalar(
            "INSERT INTO accounts (name, folded, salt, cost, verifier, vault, created)
             VALUES ('Anna', 'anna', '', '', '', '', 0) RETURNING no",
        )
        .fetch_one(pool)
        .await
        .unwrap();
        let stats = SeatStats {
            games: 1,
            deals: 5,
            ..SeatStats::default()
        };
        for (i, table) in ["t1", "t2"].into_iter().enumerate() {
            sqlx::query(
                "INSERT INTO account_seats (account_no, table_id, seat, token_hash, at)
                 VALUES ($1, $2, $3, '', 0)",
            )
            .bind(account)
            .bind(table)
            .bind(i64::try_from(i).unwrap())
            .execute(pool)
            .await
            .unwrap();
            sqlx::query(
                "INSERT INTO account_games (account_no, table_id, counted, stats)
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(account)
            .bind(table)
            .bind(i64::try_from(i).unwrap())
            .bind(serde_json::to_string(&stats).unwrap())
            .execute(pool)
            .await
            .unwrap();
        }
        let mut totals = stats.clone();
        totals.add(&stats);
        sqlx::query("INSERT INTO account_stats (account_no, totals) VALUES ($1, $2)")
            .bind(account)
            .bind(serde_json::to_string(&totals).unwrap())
            .execute(pool)
            .await
            .unwrap();
        (store, account)
    }

    async fn totals(store: &Store, account: i64) -> SeatStats {
        let Pool::Sqlite(pool) = &store.pool else {
            unreachable!("a store in a directory is SQLite")
        };
        let text: String =
            sqlx::query_scalar("SELECT totals FROM account_stats WHERE account_no = $1")
                .bind(account)
                .fetch_one(pool)
                .await
                .unwrap();
        serde_json::from_str(&text).unwrap()
    }

    #[tokio::test]
    async fn each_game_s_analysis_is_added_once_to_the_account_s_sum() {
        let (store, account) = two_games().await;
        let waiting = store.unanalysed(10).await.unwrap();
        let seats: Vec<_> = waiting.iter().map(|g| (g.table.as_str(), g.seat)).collect();
        assert_eq!(seats, [("t1", 0), ("t2", 1)], "the earliest counted first");
        store.count_accuracy(&waiting[0], 4, 3).await.unwrap();
        // Counted again (another node, a retry): nothing changes.
        store.count_accuracy(&waiting[0], 4, 3).await.unwrap();
        let t = totals(&store, account).await;
        assert_eq!((t.analysed_deals, t.tricks_lost, t.deals), (4, 3, 10));
        assert_eq!(store.unanalysed(10).await.unwrap(), waiting[1..]);
        store.count_accuracy(&waiting[1], 2, 0).await.unwrap();
        let t = totals(&store, account).await;
        assert_eq!((t.analysed_deals, t.tricks_lost), (6, 3));
        assert_eq!(
            t.figures().tricks_lost_per_deal,
            Some(num_rational::Ratio::new(1, 2))
        );
        assert_eq!(store.unanalysed(10).await.unwrap(), []);
    }
}
