//! After the deal, on the server: the `pref-analysis/1` analysis of a table's finished deal
//! (`docs/analysis.md`) and of a deal of an uploaded record.
//!
//! The solver's work is the bots' kind of work, so it takes the same share of the CPU: each
//! analysis holds one of the bots' thinking permits ([`crate::bots::thinkers`]) while it runs
//! on the blocking pool, and never runs on the table's task or the async workers. A table's
//! deal never changes once finished, so its analysis is computed once and kept (a bounded
//! cache, oldest out first); two viewers asking at once share one computation. The cache is
//! consulted only after the table has said that every card of the deal may be seen by every
//! viewer ([`crate::machine::Machine::deal_record`]). Uploads are bounded in size (one
//! route's body limit), in work (one deal per request) and in rate (a token bucket shared by
//! every client); the size and the rate are settings (`limits.analysis_*`).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pref_analysis::{Analyser, Parts, json};
use pref_core::Record;
use tokio::sync::OnceCell;

use crate::bots;
use crate::error::ApiError;
use crate::ids::Secret;

/// Analysed deals kept (a deal's document is some tens of kilobytes).
pub const CACHE_DEALS: usize = 256;

/// One computation of a deal's document, shared by everybody who asks while it runs.
type Slot = Arc<OnceCell<Arc<str>>>;

/// The server's analyses: the cache of table deals and the uploads' rate.
#[derive(Debug)]
pub struct Analyses {
    cache: Mutex<Cache>,
    uploads: Mutex<Bucket>,
}

impl Analyses {
    /// Keeps `deals` table deals; lets `burst` uploads through at once and one more every
    /// `every` after that.
    #[must_use]
    pub fn new(deals: usize, burst: u32, every: Duration) -> Analyses {
        Analyses {
            cache: Mutex::new(Cache {
                slots: HashMap::new(),
                order: VecDeque::new(),
                capacity: deals.max(1),
            }),
            uploads: Mutex::new(Bucket {
                tokens: f64::from(burst),
                burst: f64::from(burst),
                every,
                last: Instant::now(),
            }),
        }
    }

    /// The document for deal `deal` of table `table`, whose `record` the table gave once
    /// the deal's cards may be seen: from the cache, or computed and kept.
    ///
    /// # Errors
    /// [`ApiError::Internal`] if the analysis could not run.
    pub async fn table_deal(
        &self,
        table: Secret,
        deal: usize,
        record: Record,
    ) -> Result<Arc<str>, ApiError> {
        let slot = self.slot(table, deal);
        slot.get_or_try_init(|| analyse(record, deal))
            .await
            .cloned()
    }

    /// The document for deal `deal` of an uploaded record, read strictly through the rules.
    ///
    /// # Errors
    /// [`ApiError::RateLimited`] above the uploads' rate; [`ApiError::BadRequest`] for a
    /// record that does not read or replay, or a deal it does not have.
    pub async fn upload(&self, text: &str, deal: usize) -> Result<String, ApiError> {
        self.uploads
            .lock()
            .expect("the bucket lock is never poisoned")
            .take(Instant::now())?;
        let record = Record::from_json_str(text)
            .map_err(|e| ApiError::BadRequest(format!("the record does not read: {e}")))?;
        let deals = record.deals().len();
        if deal >= deals {
            return Err(ApiError::BadRequest(format!(
                "the record has {deals} deals; deal {deal} is not one of them"
            )));
        }
        analyse(record, deal).await.map(|text| text.to_string())
    }

    fn slot(&self, table: Secret, deal: usize) -> Slot {
        let mut cache = self.cache.lock().expect("the cache lock is never poisoned");
        cache.slot((table, deal))
    }
}

/// Analyses deal `deal` of `record` with a thinking permit, on the blocking pool.
async fn analyse(record: Record, deal: usize) -> Result<Arc<str>, ApiError> {
    let _permit = bots::thinkers()
        .acquire()
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    tokio::task::spawn_blocking(move || {
        let deals = Analyser::new()
            .record(&record, Some(deal), Parts::ALL)
            .map_err(|e| ApiError::BadRequest(e.to_string()))?;
        Ok(Arc::from(
            json::document(record.players(), &deals).to_string(),
        ))
    })
    .await
    .map_err(|e| ApiError::Internal(format!("the analysis stopped: {e}")))?
}

/// The kept documents and the order they came in.
#[derive(Debug)]
struct Cache {
    slots: HashMap<(Secret, usize), Slot>,
    order: VecDeque<(Secret, usize)>,
    capacity: usize,
}

impl Cache {
    /// The deal's slot, made (and the oldest dropped past the capacity) on first use.
    fn slot(&mut self, key: (Secret, usize)) -> Slot {
        if let Some(slot) = self.slots.get(&key) {
            return Arc::clone(slot);
        }
        while self.order.len() >= self.capacity {
            if let Some(old) = self.order.pop_front() {
                self.slots.remove(&old);
            }
        }
        let slot = Slot::default();
        self.slots.insert(key, Arc::clone(&slot));
        self.order.push_back(key);
        slot
    }
}

/// A token bucket: `burst` tokens, one more every `every`.
#[derive(Debug)]
struct Bucket {
    tokens: f64,
    burst: f64,
    every: Duration,
    last: Instant,
}

impl Bucket {
    /// Takes a token at `now`.
    fn take(&mut self, now: Instant) -> Result<(), ApiError> {
        let gained = now.duration_since(self.last).as_secs_f64() / self.every.as_secs_f64();
        self.tokens = (self.tokens + gained).min(self.burst);
        self.last = now;
        if self.tokens < 1.0 {
            let wait = (1.0 - self.tokens) * self.every.as_secs_f64();
            return Err(ApiError::RateLimited(format!(
                "too many records analysed; try again in {} s",
                wait.ceil().max(1.0)
            )));
        }
        self.tokens -= 1.0;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bucket_lets_a_burst_through_then_one_per_interval() {
        let start = Instant::now();
        let mut b = Bucket {
            tokens: 2.0,
            burst: 2.0,
            every: Duration::from_secs(2),
            last: start,
        };
        assert!(b.take(start).is_ok());
        assert!(b.take(start).is_ok());
        assert!(matches!(b.take(start), Err(ApiError::RateLimited(_))));
        assert!(b.take(start + Duration::from_millis(1900)).is_err());
        assert!(b.take(start + Duration::from_millis(4100)).is_ok());
        // Idle time fills the bucket up to the burst, no further.
        let later = start + Duration::from_secs(60);
        assert!(b.take(later).is_ok());
        assert!(b.take(later).is_ok());
        assert!(b.take(later).is_err());
    }

    #[test]
    fn the_cache_keeps_its_capacity_dropping_the_oldest() {
        let mut c = Cache {
            slots: HashMap::new(),
            order: VecDeque::new(),
            capacity: 2,
        };
        let t = Secret::random();
        let first = c.slot((t, 0));
        assert!(Arc::ptr_eq(&first, &c.slot((t, 0))));
        c.slot((t, 1));
        c.slot((t, 2));
        assert_eq!(c.slots.len(), 2);
        assert!(!c.slots.contains_key(&(t, 0)));
        assert!(c.slots.contains_key(&(t, 1)) && c.slots.contains_key(&(t, 2)));
    }
}
