//! Practice tables' rows (migration `0110_practice.sql`): the mark of a practice table and
//! the hints each seat asked for per deal, read back when the table is restored.

use std::collections::BTreeMap;

use sqlx::Row;

use super::{Pool, Store, StoreError};

/// Per deal number, the hints each seat asked for (index = seat).
pub type HintCounts = BTreeMap<u32, [u32; 4]>;

impl Store {
    /// Marks table `no` as a practice table.
    ///
    /// # Errors
    /// [`StoreError::Db`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn set_practice(&self, no: i64) -> Result<(), StoreError> {
        self.fenced(no)?;
        with_pool!(self.pool(), pool => {
            sqlx::query("INSERT INTO practice_tables (table_no) VALUES ($1) ON CONFLICT DO NOTHING")
                .bind(no)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Counts one more hint for `seat` in deal `deal_no` of table `no`, and returns the
    /// seat's hints in that deal now.
    ///
    /// # Errors
    /// [`StoreError::Db`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn add_hint(&self, no: i64, deal_no: u32, seat: u8) -> Result<u32, StoreError> {
        self.fenced(no)?;
        let n: i64 = with_pool!(self.pool(), pool => {
            sqlx::query_scalar(
                "INSERT INTO practice_hints (table_no, deal_no, seat, hints) VALUES ($1, $2, $3, 1)
                 ON CONFLICT (table_no, deal_no, seat) DO UPDATE SET hints = practice_hints.hints + 1
                 RETURNING hints",
            )
            .bind(no)
            .bind(i64::from(deal_no))
            .bind(i64::from(seat))
            .fetch_one(pool)
            .await?
        });
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// Table `no`'s hint counts if it is a practice table, `None` if it is not.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub async fn practice(&self, no: i64) -> Result<Option<HintCounts>, StoreError> {
        with_pool!(self.pool(), pool => {
            let marked: Option<i64> =
                sqlx::query_scalar("SELECT table_no FROM practice_tables WHERE table_no = $1")
                    .bind(no)
                    .fetch_optional(pool)
                    .await?;
            if marked.is_none() {
                return Ok(None);
            }
            let mut counts = HintCounts::new();
            for r in sqlx::query("SELECT deal_no, seat, hints FROM practice_hints WHERE table_no = $1")
                .bind(no)
                .fetch_all(pool)
                .await?
            {
                let (deal, seat, n): (i64, i64, i64) = (r.get(0), r.get(1), r.get(2));
                if let (Ok(deal), Ok(seat @ 0..4), Ok(n)) =
                    (u32::try_from(deal), usize::try_from(seat), u32::try_from(n))
                {
                    counts.entry(deal).or_insert([0; 4])[seat] = n;
                }
            }
            Ok(Some(counts))
        })
    }
}
