//! Sheets leaving memory and the database: the sweep that takes out the sheets nobody used
//! or watched for `limits.keeper_idle_secs` (writing down when the others were last used),
//! the expiry of sheets unused for `limits.keeper_expire_days`, and the task that runs both.

use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::time::Instant;

use super::{Entry, Keepers, now, store};
use crate::api::error::ApiError;

/// A sheet held in memory has its last use written to the database at least this often,
/// so that a sheet in use is never taken for an unused one.
const TOUCH_EVERY: Duration = Duration::from_secs(3600);

/// How often the expiry of unused sheets runs (and once at start).
const EXPIRE_EVERY: Duration = Duration::from_secs(3600);

/// Most sheets one expiry pass deletes (the next pass goes on).
const EXPIRE_BATCH: i64 = 1000;

/// What a sweep of the sheets in memory did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Swept {
    /// Sheets that left memory.
    pub left: usize,
    /// Sheets still in memory.
    pub open: usize,
}

/// Marks `entry` gone if nobody holds its lock; returns its row and last use (seconds since
/// 1970) to write down when it was used since the last time that was written.
pub(super) fn take_out(entry: &Entry) -> Option<(i64, i64)> {
    let mut state = entry.state.try_lock().ok()?;
    state.gone = true;
    let used = *entry.used();
    Some((state.no, unix_at(used.last)))
}

/// The moment `at` of the runtime's clock in seconds since 1970.
fn unix_at(at: Instant) -> i64 {
    let ago = Instant::now().saturating_duration_since(at).as_secs();
    now().saturating_sub(i64::try_from(ago).unwrap_or(i64::MAX))
}

impl Keepers {
    /// How many sheets are in memory (for the tests).
    #[cfg(test)]
    #[must_use]
    pub(crate) fn in_memory(&self) -> usize {
        self.lock().len()
    }

    /// Takes out of memory every sheet nobody used or watched for `keeper_idle_secs` by
    /// `now`, and writes down the use of the sheets that stay when it is an hour newer
    /// than the database's.
    pub(crate) async fn sweep(&self, now: Instant) -> Swept {
        let (swept, written) = self.take_idle(now);
        for (no, at) in written {
            if let Err(e) = store::touch(&self.store, no, at).await {
                tracing::warn!(sheet = no, error = %e, "a sheet's last use was not stored");
            }
        }
        swept
    }

    /// The sweep's part under the lock: what left memory, and the uses to write down.
    fn take_idle(&self, now: Instant) -> (Swept, Vec<(i64, i64)>) {
        let idle = self.limits.keeper_idle();
        let mut written = Vec::new();
        let mut open = self.lock();
        let before = open.len();
        open.retain(|_, e| {
            let used = *e.used();
            let idle = now.saturating_duration_since(used.last) >= idle;
            if idle && e.watchers.receiver_count() == 0 {
                // Taken out only when nobody holds its lock; else the next sweep tries again.
                return take_out(e).map(|used| written.push(used)).is_none();
            }
            if used.last.saturating_duration_since(used.stored) >= TOUCH_EVERY
                && let Ok(state) = e.state.try_lock()
            {
                written.push((state.no, unix_at(used.last)));
                e.used().stored = used.last;
            }
            true
        });
        let swept = Swept {
            left: before - open.len(),
            open: open.len(),
        };
        (swept, written)
    }

    /// Deletes every sheet not in memory whose last use is `keeper_expire_days` before
    /// `now` (seconds since 1970); returns how many. The cap counts what is left.
    ///
    /// # Errors
    /// Store errors.
    pub(crate) async fn expire(&self, now: i64) -> Result<usize, ApiError> {
        let cutoff = now.saturating_sub(self.limits.keeper_expire_secs());
        let mut deleted = 0;
        loop {
            let stale = store::stale(&self.store, cutoff, EXPIRE_BATCH).await?;
            let batch = stale.len();
            for (no, id) in stale {
                if self.is_open(&id) {
                    continue;
                }
                if store::delete_if_stale(&self.store, no, cutoff).await? {
                    deleted += 1;
                }
            }
            if i64::try_from(batch).unwrap_or(i64::MAX) < EXPIRE_BATCH {
                break;
            }
        }
        if deleted > 0 {
            tracing::info!(sheets = deleted, "unused scorekeeping sheets expired");
        }
        Ok(deleted)
    }

    /// Sweeps the sheets in memory every quarter of `keeper_idle_secs` (at most every
    /// minute), and expires unused sheets at once and then every hour, until the node's
    /// `Keepers` is dropped.
    pub(crate) fn sweeper(keepers: &Arc<Keepers>) -> tokio::task::JoinHandle<()> {
        let weak: Weak<Keepers> = Arc::downgrade(keepers);
        let every = (keepers.limits.keeper_idle() / 4)
            .clamp(Duration::from_secs(1), Duration::from_secs(60));
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut next_expiry = Instant::now();
            loop {
                tick.tick().await;
                let Some(keepers) = weak.upgrade() else {
                    return;
                };
                keepers.sweep(Instant::now()).await;
                if Instant::now() >= next_expiry {
                    next_expiry = Instant::now() + EXPIRE_EVERY;
                    if let Err(e) = keepers.expire(now()).await {
                        tracing::warn!(error = %e, "the expiry of unused sheets failed");
                    }
                }
            }
        })
    }
}
