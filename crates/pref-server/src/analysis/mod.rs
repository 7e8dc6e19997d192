//! After the deal, on the server: the `pref-analysis/1` analysis of a table's finished deal
//! (`docs/analysis.md`) and of a deal of an uploaded record; and a finished deal's hands
//! before each trick, for stepping through it (`hands.rs`, no solver).
//!
//! The solver's work must not take the bots' turn: analyses run in a lane of their own
//! ([`Lane`]), beside the bots' thinking permits ([`crate::thinking`]) and never holding
//! one, so a bot's move or a clock's autopilot never waits behind an analysis. The lane
//! computes `limits.analysis_running` analyses at once on the blocking pool, lets at most
//! `limits.analysis_queue` more wait, and answers `503 busy` beyond that instead of letting
//! requests pile up. A table's deal never changes once finished, so its analysis is
//! computed once and kept in a `moka` cache bounded in entries and age
//! (`limits.analysis_cache_deals`, `limits.analysis_cache_secs`); two viewers asking at
//! once share one computation. The cache is consulted only after the table has said that
//! every card of the deal may be seen by every viewer
//! ([`crate::table::machine::Machine::deal_record`]). What one client may have computed is its own
//! budget (`api/budgets.rs`): uploads (one deal per request, the size bounded by the route's
//! body limit) and table deals not in the cache.

pub(crate) mod accuracy;
pub(crate) mod hands;
pub(crate) mod http;

use std::sync::Arc;
use std::time::Duration;

use moka::future::Cache;
use pref_analysis::{Analyser, Parts, json};
use pref_core::Record;
use tokio::sync::Semaphore;

use crate::api::error::ApiError;
use crate::config::Limits;
use crate::ids::Secret;

/// The lane analyses run in: a few at once, a bounded queue behind them.
#[derive(Debug)]
pub(crate) struct Lane {
    /// One permit per analysis computed at once.
    running: Semaphore,
    /// One permit per analysis running or waiting: the queue's bound.
    admitted: Semaphore,
    queue: usize,
}

impl Lane {
    /// A lane computing `running` jobs at once (at least one) with `queue` more waiting.
    #[must_use]
    pub(crate) fn new(running: usize, queue: usize) -> Lane {
        let running = running.max(1);
        Lane {
            running: Semaphore::new(running),
            admitted: Semaphore::new(running.saturating_add(queue)),
            queue,
        }
    }

    /// Runs `work` on the blocking pool when the lane has room for it.
    ///
    /// # Errors
    /// [`ApiError::Busy`] at once when the lane runs its share and its queue is full;
    /// [`ApiError::Internal`] if the work panicked.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let Ok(_place) = self.admitted.try_acquire() else {
            return Err(ApiError::Busy(format!(
                "the server is busy with analyses ({} waiting); try again in a minute",
                self.queue
            )));
        };
        let _turn = self
            .running
            .acquire()
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| ApiError::Internal(format!("the analysis stopped: {e}")))
    }
}

/// The server's analyses: the lane and the cache of table deals.
#[derive(Debug)]
pub(crate) struct Analyses {
    cache: Cache<(Secret, usize), Arc<str>>,
    lane: Lane,
}

impl Analyses {
    /// The lane, queue and cache of `limits`.
    #[must_use]
    pub(crate) fn new(limits: &Limits) -> Analyses {
        Analyses {
            cache: Cache::builder()
                .max_capacity(limits.analysis_cache_deals)
                .time_to_live(limits.analysis_cache_secs.at_least(Duration::from_secs(1)))
                .build(),
            lane: Lane::new(limits.analysis_running, limits.analysis_queue),
        }
    }

    /// Runs other solver work (a practice table's hint) in the analyses' lane.
    ///
    /// # Errors
    /// As [`Lane::run`].
    pub(crate) async fn solve<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        self.lane.run(work).await
    }

    /// The kept document of deal `deal` of table `table`, if it was analysed lately.
    pub(crate) async fn cached(&self, table: Secret, deal: usize) -> Option<Arc<str>> {
        self.cache.get(&(table, deal)).await
    }

    /// The document for deal `deal` of table `table`, whose `record` the table gave once
    /// the deal's cards may be seen: from the cache, or computed and kept.
    ///
    /// # Errors
    /// [`ApiError::Busy`] when the lane is full; [`ApiError::Internal`] if the analysis
    /// could not run.
    pub(crate) async fn table_deal(
        &self,
        table: Secret,
        deal: usize,
        record: Record,
    ) -> Result<Arc<str>, ApiError> {
        self.cache
            .try_get_with((table, deal), analyse(&self.lane, record, deal))
            .await
            .map_err(unshare)
    }

    /// The document for deal `deal` of an uploaded record, read strictly through the rules.
    /// The record is read and replayed in the lane too, off the async workers.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] for a record that does not read or replay, or a deal it
    /// does not have; [`ApiError::Busy`] when the lane is full.
    pub(crate) async fn upload(&self, text: String, deal: usize) -> Result<String, ApiError> {
        self.lane
            .run(move || {
                let record = read_upload(&text, deal)?;
                document(&record, deal).map(|text| text.to_string())
            })
            .await?
    }
}

/// An uploaded record's text read as a record that has deal `deal`.
///
/// # Errors
/// [`ApiError::BadRequest`] for a record that does not read or a deal it does not have.
pub(crate) fn read_upload(text: &str, deal: usize) -> Result<Record, ApiError> {
    let record = Record::from_json_str(text)
        .map_err(|e| ApiError::BadRequest(format!("the record does not read: {e}")))?;
    let deals = record.deals().len();
    if deal >= deals {
        return Err(ApiError::BadRequest(format!(
            "the record has {deals} deals; deal {deal} is not one of them"
        )));
    }
    Ok(record)
}

/// The error of a computation several requests shared, for one of them.
fn unshare(e: Arc<ApiError>) -> ApiError {
    Arc::try_unwrap(e).unwrap_or_else(|e| match &*e {
        ApiError::BadRequest(m) => ApiError::BadRequest(m.clone()),
        ApiError::Busy(m) => ApiError::Busy(m.clone()),
        other => ApiError::Internal(other.to_string()),
    })
}

/// Analyses deal `deal` of `record` in `lane`.
async fn analyse(lane: &Lane, record: Record, deal: usize) -> Result<Arc<str>, ApiError> {
    lane.run(move || document(&record, deal)).await?
}

/// The `pref-analysis/1` document of deal `deal` of `record` (solver work: in the lane).
fn document(record: &Record, deal: usize) -> Result<Arc<str>, ApiError> {
    let deals = Analyser::new()
        .record(record, Some(deal), Parts::ALL)
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    Ok(Arc::from(
        json::document(record.players(), &deals).to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// Starts `n` jobs in `lane` that each wait for a word on their channel; the senders.
    fn blocked(lane: &Arc<Lane>, n: usize) -> Vec<mpsc::Sender<()>> {
        (0..n)
            .map(|_| {
                let (tx, rx) = mpsc::channel::<()>();
                let lane = Arc::clone(lane);
                tokio::spawn(async move { lane.run(move || rx.recv()).await });
                tx
            })
            .collect()
    }

    /// Waits (real time: the jobs run on real threads) until `lane` has `n` jobs admitted.
    async fn admitted(lane: &Lane, n: usize, room: usize) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while lane.admitted.available_permits() != room - n {
            assert!(tokio::time::Instant::now() < deadline, "jobs not admitted");
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn a_flood_of_analyses_is_answered_busy_beyond_the_queue() {
        let lane = Arc::new(Lane::new(1, 2));
        let gates = blocked(&lane, 3);
        admitted(&lane, 3, 3).await;
        // One running, two waiting: the fourth is refused at once, not queued.
        let refused = lane.run(|| ()).await;
        let Err(ApiError::Busy(why)) = refused else {
            panic!("a fourth analysis was let in: {refused:?}");
        };
        assert!(why.contains("busy with analyses"), "{why}");
        assert_eq!(ApiError::Busy(why).code().1, "busy");
        for gate in gates {
            gate.send(()).unwrap();
        }
        admitted(&lane, 0, 3).await;
        assert_eq!(lane.run(|| 7).await.unwrap(), 7);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_bot_s_move_is_not_delayed_by_queued_analyses() {
        let permits = crate::thinking::permits();
        // As many analyses running as bots may think at once, and a full queue behind.
        let lane = Arc::new(Lane::new(permits, 4));
        let gates = blocked(&lane, permits + 4);
        admitted(&lane, permits + 4, permits + 4).await;
        // Every bot permit is free: a bot (or the autopilot) thinks at once.
        let all = u32::try_from(permits).unwrap();
        let bots = tokio::time::timeout(
            Duration::from_secs(5),
            crate::thinking::thinkers().acquire_many(all),
        )
        .await
        .expect("a bot waited behind the analyses")
        .unwrap();
        drop(bots);
        for gate in gates {
            gate.send(()).unwrap();
        }
    }

    #[tokio::test]
    async fn the_cache_keeps_an_analysed_deal_and_its_bound() {
        let limits = Limits {
            analysis_cache_deals: 2,
            ..Limits::default()
        };
        let a = Analyses::new(&limits);
        let t = Secret::random();
        for deal in 0..3 {
            a.cache
                .insert((t, deal), Arc::from(format!("{deal}")))
                .await;
        }
        a.cache.run_pending_tasks().await;
        assert!(a.cache.entry_count() <= 2, "{}", a.cache.entry_count());
        assert_eq!(a.cached(Secret::random(), 0).await, None);
    }
}
