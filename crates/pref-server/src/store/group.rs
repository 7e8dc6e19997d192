//! The group commit: seeds, decks and actions, the rows every deal writes, queued and
//! committed together in one transaction, fenced on PostgreSQL by this node's leases.

use std::collections::{BTreeSet, HashSet};
use std::sync::Arc;

use pref_core::{Action, Card, Seat};
use sqlx::{Postgres, QueryBuilder, Sqlite};
use tokio::sync::{mpsc, oneshot};

use super::{Pool, Stamp, Store, StoreError};
use crate::store::lease::Leases;

/// Rows queued for the group commit at most; writers wait beyond it.
pub(super) const QUEUE: usize = 8192;

/// Rows committed in one transaction at most (seven bound values a row, well inside
/// SQLite's limit of 32,766 per statement and PostgreSQL's of 65,535).
const GROUP: usize = 1024;

/// A row of a deal's hot path, queued for the group commit.
#[derive(Debug)]
pub(super) enum Hot {
    /// A deal's fairness seed (`docs/fairness.md`), written before its commitment is told.
    Seed {
        no: i64,
        deal_no: u32,
        seed: String,
        scheme: u8,
    },
    /// A deal's deck.
    Deal {
        no: i64,
        deal_no: u32,
        deck: String,
        at_ms: Option<i64>,
    },
    /// An accepted action.
    Action {
        no: i64,
        deal_no: u32,
        seq: u32,
        player: u8,
        action: String,
        stamp: Stamp,
    },
}

impl Hot {
    fn table(&self) -> i64 {
        match self {
            Hot::Seed { no, .. } | Hot::Deal { no, .. } | Hot::Action { no, .. } => *no,
        }
    }
}

/// Why a queued row was not written.
#[derive(Debug)]
enum Refused {
    /// The database refused the row (or its group).
    Db(String),
    /// The table's lease is not this node's any more.
    Lease,
}

/// A queued row and the writer waiting for it.
#[derive(Debug)]
pub(super) struct Queued {
    /// The row.
    row: Hot,
    /// Answered once the row's transaction has committed.
    done: oneshot::Sender<Result<(), Refused>>,
}

/// Commits queued rows in groups until every [`Store`] is gone.
pub(super) async fn group_commit(
    pool: Pool,
    leases: Option<Arc<Leases>>,
    mut rx: mpsc::Receiver<Queued>,
) {
    let mut batch = Vec::with_capacity(GROUP);
    while rx.recv_many(&mut batch, GROUP).await > 0 {
        match write_group(&pool, leases.as_deref(), &batch).await {
            Ok(refused) => {
                for q in batch.drain(..) {
                    let r = if refused.contains(&q.row.table()) {
                        Err(Refused::Lease)
                    } else {
                        Ok(())
                    };
                    let _ = q.done.send(r);
                }
            }
            Err(e) if batch.len() == 1 => {
                for q in batch.drain(..) {
                    let _ = q.done.send(Err(Refused::Db(e.to_string())));
                }
            }
            Err(_) => {
                for q in batch.drain(..) {
                    let r = match write_group(&pool, leases.as_deref(), std::slice::from_ref(&q))
                        .await
                    {
                        Ok(refused) if refused.is_empty() => Ok(()),
                        Ok(_) => Err(Refused::Lease),
                        Err(e) => Err(Refused::Db(e.to_string())),
                    };
                    let _ = q.done.send(r);
                }
            }
        }
    }
}

/// The group's statements, one multi-row `INSERT` per kind of row.
struct Inserts<'a, DB: sqlx::Database> {
    seeds: QueryBuilder<'a, DB>,
    deals: QueryBuilder<'a, DB>,
    actions: QueryBuilder<'a, DB>,
}

impl<'a, DB: sqlx::Database> Inserts<'a, DB> {
    fn new() -> Self {
        Inserts {
            seeds: QueryBuilder::new(INSERT_SEEDS),
            deals: QueryBuilder::new(INSERT_DEALS),
            actions: QueryBuilder::new(INSERT_ACTIONS),
        }
    }
}

/// Builds one multi-row `INSERT` for the seeds, one for the decks and one for the actions of
/// `rows`, leaving out the tables in `skip`; which kinds have rows (an empty `VALUES` list is
/// not SQL).
fn inserts<'a, DB: sqlx::Database>(
    rows: &'a [Queued],
    skip: &HashSet<i64>,
    to: &mut Inserts<'a, DB>,
) -> (bool, bool, bool)
where
    i64: sqlx::Encode<'a, DB> + sqlx::Type<DB>,
    Option<i64>: sqlx::Encode<'a, DB>,
    &'a str: sqlx::Encode<'a, DB> + sqlx::Type<DB>,
{
    let seed_rows = rows.iter().filter_map(|q| match &q.row {
        Hot::Seed {
            no,
            deal_no,
            seed,
            scheme,
        } if !skip.contains(no) => Some((*no, *deal_no, seed, *scheme)),
        Hot::Seed { .. } | Hot::Deal { .. } | Hot::Action { .. } => None,
    });
    let deal_rows = rows.iter().filter_map(|q| match &q.row {
        Hot::Deal {
            no,
            deal_no,
            deck,
            at_ms,
        } if !skip.contains(no) => Some((*no, *deal_no, deck, *at_ms)),
        Hot::Seed { .. } | Hot::Deal { .. } | Hot::Action { .. } => None,
    });
    let action_rows = rows.iter().filter_map(|q| match &q.row {
        Hot::Action {
            no,
            deal_no,
            seq,
            player,
            action,
            stamp,
        } if !skip.contains(no) => Some((*no, *deal_no, *seq, *player, action, *stamp)),
        Hot::Seed { .. } | Hot::Deal { .. } | Hot::Action { .. } => None,
    });
    let has_seeds = seed_rows.clone().next().is_some();
    let has_deals = deal_rows.clone().next().is_some();
    let has_actions = action_rows.clone().next().is_some();
    if has_seeds {
        to.seeds
            .push_values(seed_rows, |mut b, (no, deal_no, seed, scheme)| {
                b.push_bind(no)
                    .push_bind(i64::from(deal_no))
                    .push_bind(seed.as_str())
                    .push_bind(i64::from(scheme));
            });
    }
    if has_deals {
        to.deals
            .push_values(deal_rows, |mut b, (no, deal_no, deck, at_ms)| {
                b.push_bind(no)
                    .push_bind(i64::from(deal_no))
                    .push_bind(deck.as_str())
                    .push_bind(at_ms);
            });
    }
    if has_actions {
        to.actions.push_values(
            action_rows,
            |mut b, (no, deal_no, seq, player, action, stamp)| {
                b.push_bind(no)
                    .push_bind(i64::from(deal_no))
                    .push_bind(i64::from(seq))
                    .push_bind(i64::from(player))
                    .push_bind(action.as_str())
                    .push_bind(stamp.at_ms.map(|t| t as i64))
                    .push_bind(i64::from(stamp.auto));
            },
        );
    }
    (has_seeds, has_deals, has_actions)
}

const INSERT_SEEDS: &str = "INSERT INTO fair_seeds (table_no, deal_no, seed, scheme) ";
const INSERT_DEALS: &str = "INSERT INTO deals (table_no, deal_no, deck, at_ms) ";
const INSERT_ACTIONS: &str =
    "INSERT INTO actions (table_no, deal_no, seq, player, action, at_ms, auto) ";

/// Writes `rows` in one transaction, with one multi-row `INSERT` per kind of row: every
/// statement is a round trip (to sqlx's SQLite thread, or over the network to PostgreSQL),
/// so a group costs the same few round trips however large it is. Returns the tables whose
/// rows were refused because this node does not hold their lease.
async fn write_group(
    pool: &Pool,
    leases: Option<&Leases>,
    rows: &[Queued],
) -> Result<HashSet<i64>, sqlx::Error> {
    match pool {
        Pool::Sqlite(pool) => {
            let skip = HashSet::new();
            let mut to = Inserts::<Sqlite>::new();
            let has = inserts(rows, &skip, &mut to);
            let mut tx = pool.begin().await?;
            // Not kept prepared: a statement's shape changes with the group's size.
            for (has, q) in [
                (has.0, &mut to.seeds),
                (has.1, &mut to.deals),
                (has.2, &mut to.actions),
            ] {
                if has {
                    q.build().persistent(false).execute(&mut *tx).await?;
                }
            }
            tx.commit().await?;
            Ok(skip)
        }
        Pool::Postgres(pool) => {
            let mut tx = pool.begin().await?;
            let mut skip = HashSet::new();
            if let Some(leases) = leases {
                // The epoch each table is held at, as this node's own timer still allows.
                let tables: BTreeSet<i64> = rows.iter().map(|q| q.row.table()).collect();
                let (mut nos, mut epochs) = (Vec::new(), Vec::new());
                for no in tables {
                    match leases.epoch(no) {
                        Some(e) => {
                            nos.push(no);
                            epochs.push(e);
                        }
                        None => {
                            skip.insert(no);
                        }
                    }
                }
                let held: Vec<i64> = sqlx::query_scalar(
                    "SELECT l.table_no FROM leases l
                     JOIN UNNEST($1::BIGINT[], $2::BIGINT[]) AS h(no, epoch)
                       ON l.table_no = h.no AND l.epoch = h.epoch
                     WHERE l.node = $3
                     ORDER BY l.table_no
                     FOR SHARE OF l",
                )
                .bind(&nos)
                .bind(&epochs)
                .bind(leases.node())
                .fetch_all(&mut *tx)
                .await?;
                skip.extend(nos.iter().filter(|no| held.binary_search(no).is_err()));
            }
            let mut to = Inserts::<Postgres>::new();
            let has = inserts(rows, &skip, &mut to);
            for (has, q) in [
                (has.0, &mut to.seeds),
                (has.1, &mut to.deals),
                (has.2, &mut to.actions),
            ] {
                if has {
                    q.build().persistent(false).execute(&mut *tx).await?;
                }
            }
            tx.commit().await?;
            Ok(skip)
        }
    }
}
impl Store {
    /// Queues `row` for the next group commit and waits until it is on disk.
    pub(super) async fn commit(&self, row: Hot) -> Result<(), StoreError> {
        let no = row.table();
        self.fenced(no)?;
        let (done, answer) = oneshot::channel();
        let stopped = || StoreError::Group("the writer has stopped".into());
        self.hot
            .send(Queued { row, done })
            .await
            .map_err(|_| stopped())?;
        match answer.await.map_err(|_| stopped())? {
            Ok(()) => Ok(()),
            Err(Refused::Db(e)) => Err(StoreError::Group(e)),
            Err(Refused::Lease) => Err(StoreError::NotOwner { table: no }),
        }
    }

    /// Stores the deck of deal `deal_no` (0-based) before anyone sees a card of it.
    ///
    /// # Errors
    /// [`StoreError::Group`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn put_deal(
        &self,
        no: i64,
        deal_no: u32,
        deck: &[Card; 32],
    ) -> Result<(), StoreError> {
        self.put_deal_at(no, deal_no, deck, Stamp::default()).await
    }

    /// [`Store::put_deal`] with the moment it was dealt (the clock's start of the deal).
    ///
    /// # Errors
    /// [`StoreError::Group`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn put_deal_at(
        &self,
        no: i64,
        deal_no: u32,
        deck: &[Card; 32],
        stamp: Stamp,
    ) -> Result<(), StoreError> {
        let text: Vec<String> = deck.iter().map(Card::to_string).collect();
        self.commit(Hot::Deal {
            no,
            deal_no,
            deck: text.join(" "),
            at_ms: stamp.at_ms.map(|t| t as i64),
        })
        .await
    }

    /// Stores accepted action `seq` (0-based) of deal `deal_no`.
    ///
    /// # Errors
    /// [`StoreError::Group`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn put_action(
        &self,
        no: i64,
        deal_no: u32,
        seq: u32,
        player: Seat,
        action: &Action,
    ) -> Result<(), StoreError> {
        self.put_action_at(no, deal_no, seq, player, action, Stamp::default())
            .await
    }

    /// [`Store::put_action`] with when the action was made and whether by the autopilot.
    ///
    /// # Errors
    /// [`StoreError::Group`], or [`StoreError::NotOwner`] once another node holds the table.
    pub async fn put_action_at(
        &self,
        no: i64,
        deal_no: u32,
        seq: u32,
        player: Seat,
        action: &Action,
        stamp: Stamp,
    ) -> Result<(), StoreError> {
        let text = serde_json::to_string(action).map_err(|e| StoreError::Damaged {
            table: no,
            why: e.to_string(),
        })?;
        self.commit(Hot::Action {
            no,
            deal_no,
            seq,
            player: player.0,
            action: text,
            stamp,
        })
        .await
    }
}
