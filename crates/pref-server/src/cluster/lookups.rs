//! Cheap misses: what a node does with requests for table ids it does not serve, so that a
//! flood of random ids cannot load the database that lease renewals depend on.
//!
//! On PostgreSQL a request for a table this node does not hold costs a lookup (`lease::route`,
//! then the finished-game read): a stranger sending random ids could otherwise make one
//! query per request. Two guards stand in front of those queries:
//! - an id that was just found not to exist answers `404 no_table` at once for
//!   `cluster.miss_cache_secs` (a bounded map; a table id is 128 random bits, so an id that
//!   did not exist a minute ago does not exist now);
//! - lookups go through a token bucket of `cluster.lookups_per_second` (burst: twice that);
//!   beyond it the request answers `503 unavailable` with no query, and the client retries.
//!
//! The tables this node serves never reach either guard: they are found in the registry.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use crate::ids::Secret;

/// Most ids the miss cache holds; beyond it the expired ones go, then all.
const MISSES: usize = 65_536;

/// The guards of one node.
#[derive(Debug)]
pub(crate) struct Lookups {
    per_second: f64,
    miss_ttl: Duration,
    inner: Mutex<Inner>,
}

#[derive(Debug)]
struct Inner {
    misses: HashMap<Secret, Instant>,
    tokens: f64,
    at: Instant,
}

impl Lookups {
    /// Guards allowing `per_second` lookups (burst twice that) and remembering misses for
    /// `miss_ttl`.
    #[must_use]
    pub(crate) fn new(per_second: u32, miss_ttl: Duration) -> Lookups {
        let per_second = f64::from(per_second.max(1));
        Lookups {
            per_second,
            miss_ttl,
            inner: Mutex::new(Inner {
                misses: HashMap::new(),
                tokens: per_second * 2.0,
                at: Instant::now(),
            }),
        }
    }

    /// Whether `id` was found missing less than the cache's time ago.
    #[must_use]
    pub(crate) fn missed(&self, id: &Secret) -> bool {
        let Ok(inner) = self.inner.lock() else {
            return false;
        };
        inner
            .misses
            .get(id)
            .is_some_and(|at| at.elapsed() < self.miss_ttl)
    }

    /// Remembers that `id` does not exist.
    pub(crate) fn miss(&self, id: Secret) {
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        if inner.misses.len() >= MISSES {
            let ttl = self.miss_ttl;
            inner.misses.retain(|_, at| at.elapsed() < ttl);
            if inner.misses.len() >= MISSES {
                inner.misses.clear();
            }
        }
        inner.misses.insert(id, Instant::now());
    }

    /// Takes one lookup from the bucket; `false` when it is empty.
    pub(crate) fn allow(&self) -> bool {
        let Ok(mut inner) = self.inner.lock() else {
            return false;
        };
        let now = Instant::now();
        let refill = now.duration_since(inner.at).as_secs_f64() * self.per_second;
        inner.tokens = (inner.tokens + refill).min(self.per_second * 2.0);
        inner.at = now;
        if inner.tokens >= 1.0 {
            inner.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn misses_are_remembered_for_their_time_and_lookups_refill_at_their_rate() {
        let lookups = Lookups::new(10, Duration::from_secs(60));
        let id = Secret::random();
        assert!(!lookups.missed(&id));
        lookups.miss(id);
        assert!(lookups.missed(&id));
        assert!(!lookups.missed(&Secret::random()));
        tokio::time::advance(Duration::from_secs(61)).await;
        assert!(!lookups.missed(&id), "a miss is forgotten after its time");

        // A burst of twice the rate, then nothing until the bucket refills.
        let allowed = (0..100).filter(|_| lookups.allow()).count();
        assert_eq!(allowed, 20);
        tokio::time::advance(Duration::from_millis(500)).await;
        let allowed = (0..100).filter(|_| lookups.allow()).count();
        assert_eq!(allowed, 5);
    }
}
