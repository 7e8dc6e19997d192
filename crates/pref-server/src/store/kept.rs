//! The rows a table keeps besides its game, so that a restart loses nothing its viewers saw:
//! the last chat lines (bounded by `limits.chat_history_lines`) and each seat's "I'm back",
//! placed in the deal's actions so that the clock's replay ends the seat's autopilot where
//! it was said.

use sqlx::Row;

use super::{Pool, Store, StoreError};

/// A kept chat line: who wrote it (`None` for a spectator) and the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRow {
    /// The line's number at its table, counted from 0.
    pub no: i64,
    /// The writer's seat; `None` for a spectator.
    pub seat: Option<u8>,
    /// The text.
    pub text: String,
}

/// An "I'm back": before action `seq` of deal `deal_no`, `seat` left the autopilot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Back {
    /// The deal (from 0).
    pub deal_no: u32,
    /// The number of the deal's actions made before it.
    pub seq: u32,
    /// The seat.
    pub seat: u8,
}

impl Store {
    /// Keeps chat line `line` of table `no` and drops the lines more than `keep` before it.
    ///
    /// # Errors
    /// [`StoreError::Db`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn put_chat(&self, no: i64, line: &ChatRow, keep: usize) -> Result<(), StoreError> {
        self.fenced(no)?;
        let keep = i64::try_from(keep).unwrap_or(i64::MAX);
        with_pool!(&self.pool, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("INSERT INTO chat_lines (table_no, no, seat, text) VALUES ($1, $2, $3, $4)")
                .bind(no)
                .bind(line.no)
                .bind(line.seat.map(i64::from))
                .bind(&line.text)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM chat_lines WHERE table_no = $1 AND no <= $2")
                .bind(no)
                .bind(line.no.saturating_sub(keep))
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Table `no`'s kept chat lines, oldest first.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub async fn chat_lines(&self, no: i64) -> Result<Vec<ChatRow>, StoreError> {
        Ok(with_pool!(&self.pool, pool => {
            sqlx::query("SELECT no, seat, text FROM chat_lines WHERE table_no = $1 ORDER BY no")
                .bind(no)
                .fetch_all(pool)
                .await?
                .into_iter()
                .map(|r| ChatRow {
                    no: r.get(0),
                    seat: r.get::<Option<i64>, _>(1).and_then(|s| u8::try_from(s).ok()),
                    text: r.get(2),
                })
                .collect()
        }))
    }

    /// Keeps `back` for table `no`.
    ///
    /// # Errors
    /// [`StoreError::Db`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn put_back(&self, no: i64, back: Back) -> Result<(), StoreError> {
        self.fenced(no)?;
        with_pool!(&self.pool, pool => {
            sqlx::query(
                "INSERT INTO clock_backs (table_no, deal_no, seq, seat) VALUES ($1, $2, $3, $4)
                 ON CONFLICT DO NOTHING",
            )
            .bind(no)
            .bind(i64::from(back.deal_no))
            .bind(i64::from(back.seq))
            .bind(i64::from(back.seat))
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// Table `no`'s kept "I'm back"s, in order.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub async fn backs(&self, no: i64) -> Result<Vec<Back>, StoreError> {
        let n = |v: i64| u32::try_from(v).unwrap_or(u32::MAX);
        Ok(with_pool!(&self.pool, pool => {
            sqlx::query(
                "SELECT deal_no, seq, seat FROM clock_backs WHERE table_no = $1
                 ORDER BY deal_no, seq, seat",
            )
            .bind(no)
            .fetch_all(pool)
            .await?
            .into_iter()
            .map(|r| Back {
                deal_no: n(r.get(0)),
                seq: n(r.get(1)),
                seat: u8::try_from(r.get::<i64, _>(2)).unwrap_or(u8::MAX),
            })
            .collect()
        }))
    }
}
