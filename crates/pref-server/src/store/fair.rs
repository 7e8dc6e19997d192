//! The rows of provably fair deals (`docs/fairness.md`): a deal's seed is written before its
//! commitment is published, and each contribution before it is acknowledged, so that a
//! restart or a takeover in the contribution window finds the same seed and the same
//! commitments. Plain text as the scheme writes it (64 hex digits); the table checks it.

use sqlx::Row;

use super::{Pool, Store, StoreError};

/// One deal's stored fairness rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FairRow {
    /// The deal.
    pub deal_no: u32,
    /// The server seed, 64 hex digits.
    pub seed: String,
    /// The scheme's version: 2 (`pref-fair/2`), or 1 for a deal stored before it.
    pub scheme: u8,
    /// Whether the list of commitments was published.
    pub commits_closed: bool,
    /// The contributions, by seat.
    pub contributions: Vec<ContributionRow>,
}

/// One seat's stored contribution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContributionRow {
    /// The seat.
    pub seat: u8,
    /// Its commitment.
    pub commitment: String,
    /// The value, once revealed.
    pub value: Option<String>,
    /// Whether the value came after the deck was fixed.
    pub late: bool,
}

impl Store {
    /// Stores deal `deal_no`'s seed and its scheme's version (`scheme`, 2 for
    /// `pref-fair/2`); a second seed for the same deal is refused, so that a deal's
    /// commitment never changes. Every deal writes one, so it goes with the decks and actions
    /// through the group commit.
    ///
    /// # Errors
    /// [`StoreError::Group`] (also for a second seed), or [`StoreError::NotOwner`].
    pub async fn put_fair_seed(
        &self,
        no: i64,
        deal_no: u32,
        seed: &str,
        scheme: u8,
    ) -> Result<(), StoreError> {
        self.commit(super::group::Hot::Seed {
            no,
            deal_no,
            seed: seed.to_owned(),
            scheme,
        })
        .await
    }

    /// Marks deal `deal_no`'s commitments as published.
    ///
    /// # Errors
    /// [`StoreError::Db`], or [`StoreError::NotOwner`].
    pub async fn close_fair_commits(&self, no: i64, deal_no: u32) -> Result<(), StoreError> {
        self.fenced(no)?;
        with_pool!(self.pool(), pool => {
            sqlx::query(
                "UPDATE fair_seeds SET commits_closed = 1 WHERE table_no = $1 AND deal_no = $2",
            )
            .bind(no)
            .bind(i64::from(deal_no))
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// Stores a seat's commitment for deal `deal_no`.
    ///
    /// # Errors
    /// [`StoreError::Db`], or [`StoreError::NotOwner`].
    pub async fn put_fair_commitment(
        &self,
        no: i64,
        deal_no: u32,
        seat: u8,
        commitment: &str,
    ) -> Result<(), StoreError> {
        self.fenced(no)?;
        with_pool!(self.pool(), pool => {
            sqlx::query(
                "INSERT INTO fair_contributions (table_no, deal_no, seat, commitment)
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(no)
            .bind(i64::from(deal_no))
            .bind(i64::from(seat))
            .bind(commitment)
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// Stores the value a seat committed to, in time or `late`.
    ///
    /// # Errors
    /// [`StoreError::Db`], or [`StoreError::NotOwner`].
    pub async fn put_fair_value(
        &self,
        no: i64,
        deal_no: u32,
        seat: u8,
        value: &str,
        late: bool,
    ) -> Result<(), StoreError> {
        self.fenced(no)?;
        with_pool!(self.pool(), pool => {
            sqlx::query(
                "UPDATE fair_contributions SET value = $1, late = $2
                 WHERE table_no = $3 AND deal_no = $4 AND seat = $5",
            )
            .bind(value)
            .bind(i64::from(late))
            .bind(no)
            .bind(i64::from(deal_no))
            .bind(i64::from(seat))
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// Every deal's fairness rows of table `no`, by deal.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub async fn fair_rows(&self, no: i64) -> Result<Vec<FairRow>, StoreError> {
        with_pool!(self.pool(), pool => {
            let seeds = sqlx::query(
                "SELECT deal_no, seed, commits_closed, scheme FROM fair_seeds WHERE table_no = $1
                 ORDER BY deal_no",
            )
            .bind(no)
            .fetch_all(pool)
            .await?;
            let all = sqlx::query(
                "SELECT deal_no, seat, commitment, value, late FROM fair_contributions
                 WHERE table_no = $1 ORDER BY deal_no, seat",
            )
            .bind(no)
            .fetch_all(pool)
            .await?;
            Ok(seeds
                .iter()
                .map(|s| {
                    let deal_no: i64 = s.get(0);
                    FairRow {
                        deal_no: deal_no as u32,
                        seed: s.get(1),
                        commits_closed: s.get::<i64, _>(2) != 0,
                        scheme: u8::try_from(s.get::<i64, _>(3)).unwrap_or(0),
                        contributions: all
                            .iter()
                            .filter(|c| c.get::<i64, _>(0) == deal_no)
                            .map(|c| ContributionRow {
                                seat: c.get::<i64, _>(1) as u8,
                                commitment: c.get(2),
                                value: c.get(3),
                                late: c.get::<i64, _>(4) != 0,
                            })
                            .collect(),
                    }
                })
                .collect())
        })
    }
}
