//! The write that ends a game, with the figures of the accounts that sat at it: the table's
//! state becomes `over` and every seat tied to an account (whose link is still the seat's
//! occupant) has the game's figures counted into the account's running sum, in one
//! transaction. So a player's statistics are a stored row, kept up to date by the game's
//! end, and a page of them reads no record.

use pref_core::stats::SeatStats;
use sqlx::Row;

use super::rated::rate_in;
use super::{Pool, Store, StoreError, Stored, damaged, now};

/// One seat's figures in a game that ends: its settlement (`ratio_to_text`'s form) and its
/// totals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatFigures {
    /// The seat.
    pub seat: u8,
    /// Its settlement in whists, when the game has one.
    pub result: Option<String>,
    /// Its totals in this game.
    pub stats: SeatStats,
    /// Its player was away at the end (the clock's autopilot played for him): at a rated
    /// table he abandoned the game and is ranked last.
    pub abandoned: bool,
}

impl SeatFigures {
    /// Every seat's figures in the game of `record` (the rules core's
    /// [`pref_core::stats::of_record`]).
    ///
    /// # Errors
    /// The [`pref_core::RecordError`] of a record that does not replay.
    pub fn of_record(
        record: &pref_core::Record,
    ) -> Result<Vec<SeatFigures>, pref_core::RecordError> {
        let game = pref_core::stats::of_record(record)?;
        Ok(game
            .seats
            .into_iter()
            .enumerate()
            .map(|(i, stats)| SeatFigures {
                seat: u8::try_from(i).unwrap_or(u8::MAX),
                result: game
                    .settlement
                    .as_ref()
                    .and_then(|s| s.get(i))
                    .map(pref_core::stats::ratio_to_text),
                stats,
                abandoned: false,
            })
            .collect())
    }
}

/// Counts `figures` for `account`'s game at `table` once, inside `tx`: the game's row, its
/// link's mark and the account's running sum change together, and a game counted already
/// changes nothing.
macro_rules! count_in {
    ($tx:expr, $account:expr, $table:expr, $at:expr, $figures:expr) => {{
        let figures: &SeatFigures = $figures;
        let text = serde_json::to_string(&figures.stats).map_err(damaged)?;
        let added = sqlx::query(
            "INSERT INTO account_games (account_no, table_id, counted, result, stats)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
        )
        .bind($account)
        .bind($table)
        .bind($at)
        .bind(figures.result.as_deref())
        .bind(&text)
        .execute(&mut *$tx)
        .await?
        .rows_affected();
        sqlx::query("UPDATE account_seats SET counted = 1 WHERE account_no = $1 AND table_id = $2")
            .bind($account)
            .bind($table)
            .execute(&mut *$tx)
            .await?;
        if added == 1 {
            let old: Option<String> =
                sqlx::query_scalar("SELECT totals FROM account_stats WHERE account_no = $1")
                    .bind($account)
                    .fetch_optional(&mut *$tx)
                    .await?;
            let mut totals = match old {
                Some(t) => serde_json::from_str::<SeatStats>(&t).map_err(damaged)?,
                None => SeatStats::default(),
            };
            totals.add(&figures.stats);
            sqlx::query(
                "INSERT INTO account_stats (account_no, totals) VALUES ($1, $2)
                 ON CONFLICT (account_no) DO UPDATE SET totals = excluded.totals",
            )
            .bind($account)
            .bind(serde_json::to_string(&totals).map_err(damaged)?)
            .execute(&mut *$tx)
            .await?;
        }
    }};
}

impl Store {
    /// Ends table `no`'s game: its state becomes `over`, and each seat of `figures` that an
    /// account holds (its link's token is the seat's occupant's) is counted for the account,
    /// in the same transaction.
    ///
    /// # Errors
    /// [`StoreError::Db`] (nothing is written), or [`StoreError::NotOwner`] once another
    /// node holds the table.
    pub async fn set_over(&self, no: i64, figures: &[SeatFigures]) -> Result<(), StoreError> {
        self.fenced(no)?;
        let holders = "SELECT a.account_no, a.table_id, a.seat FROM account_seats a
                       JOIN tables t ON t.id = a.table_id
                       JOIN seats s ON s.table_no = t.no AND s.seat = a.seat
                           AND s.token = a.token_hash
                       WHERE t.no = $1";
        let at = now();
        with_pool!(&self.pool, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("UPDATE tables SET state = $1 WHERE no = $2")
                .bind(Stored::Over.as_str())
                .bind(no)
                .execute(&mut *tx)
                .await?;
            let rows = sqlx::query(holders).bind(no).fetch_all(&mut *tx).await?;
            let mut seated = Vec::with_capacity(rows.len());
            let mut table_id = None;
            for r in rows {
                let (account, table, seat): (i64, String, i64) = (r.get(0), r.get(1), r.get(2));
                if let Some(f) = figures.iter().find(|f| i64::from(f.seat) == seat) {
                    count_in!(tx, account, &table, at, f);
                }
                seated.push((account, seat));
                table_id = Some(table);
            }
            // A rated game changes its players' ratings in the same transaction, once.
            let family: Option<String> =
                sqlx::query_scalar("SELECT family FROM rated_tables WHERE table_no = $1")
                    .bind(no)
                    .fetch_optional(&mut *tx)
                    .await?;
            if let (Some(family), Some(table)) = (family, table_id) {
                rate_in!(tx, &table, &family, &seated, figures, at);
            }
            // The game is over: its players may sit at another rated table.
            sqlx::query("DELETE FROM rated_seats WHERE table_no = $1")
                .bind(no)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        super::GAME_COUNTED.notify_one();
        Ok(())
    }

    /// Counts a finished game's figures for the account once (the repair of a game whose
    /// end was stored without them, [`Store::set_over`] having failed after its last
    /// action): `figures` is the account's seat's, `game` every seat's. A rated game is
    /// rated in the same transaction, once (the first repair of any of its players rates
    /// them all; the history's key makes the others change nothing).
    ///
    /// # Errors
    /// [`StoreError`] if the database refuses or the stored sum does not read.
    pub(crate) async fn count_game(
        &self,
        account: i64,
        table: &str,
        at: i64,
        (figures, game): (&SeatFigures, &[SeatFigures]),
    ) -> Result<(), StoreError> {
        let holders = "SELECT a.account_no, a.seat FROM account_seats a
                       JOIN tables t ON t.id = a.table_id
                       JOIN seats s ON s.table_no = t.no AND s.seat = a.seat
                           AND s.token = a.token_hash
                       WHERE t.id = $1";
        with_pool!(&self.pool, pool => {
            let mut tx = pool.begin().await?;
            count_in!(tx, account, table, at, figures);
            let family: Option<String> = sqlx::query_scalar(
                "SELECT r.family FROM rated_tables r JOIN tables t ON t.no = r.table_no
                 WHERE t.id = $1",
            )
            .bind(table)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(family) = family {
                let seated: Vec<(i64, i64)> =
                    sqlx::query_as(holders).bind(table).fetch_all(&mut *tx).await?;
                rate_in!(tx, table, &family, &seated, game, at);
            }
            // Counted, the game is over for its players' rated seats too.
            sqlx::query("DELETE FROM rated_seats WHERE table_no = (SELECT no FROM tables WHERE id = $1)")
                .bind(table)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        super::GAME_COUNTED.notify_one();
        Ok(())
    }
}
