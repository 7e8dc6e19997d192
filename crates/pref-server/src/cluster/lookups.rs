//! Cheap misses: what a node does with requests for table ids it does not serve, so that a
//! flood of random ids cannot load the database that lease renewals depend on.
//!
//! On PostgreSQL a request for a table this node does not hold costs a lookup (`lease::route`,
//! then the finished-game read): a stranger sending random ids could otherwise make one
//! query per request. Two guards stand in front of those queries:
//! - an id that was just found not to exist answers `404 no_table` at once for
//!   `cluster.miss_cache_secs` (a `moka` cache bounded in entries; a table id is 128 random bits, so an id that
//!   did not exist a minute ago does not exist now);
//! - lookups go through a `governor` token bucket of `cluster.lookups_per_second` (burst: twice that);
//!   beyond it the request answers `503 unavailable` with no query, and the client retries.
//!
//! The tables this node serves never reach either guard: they are found in the registry.

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::Clock;
use governor::middleware::NoOpMiddleware;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};
use moka::future::Cache;
use tokio::time::Instant;

use crate::ids::Secret;

/// Most ids the miss cache holds; beyond it the least useful go first.
const MISSES: u64 = 65_536;

/// governor's clock read from tokio's, so that the tests' paused time drives the bucket.
#[derive(Clone, Debug)]
struct TokioClock(Instant);

impl Clock for TokioClock {
    type Instant = Duration;

    fn now(&self) -> Duration {
        self.0.elapsed()
    }
}

/// The guards of one node.
#[derive(Debug)]
pub(crate) struct Lookups {
    /// When each id was found missing (tokio's clock, checked against `miss_ttl`; the
    /// cache's own time to live frees the entry).
    misses: Cache<Secret, Instant>,
    miss_ttl: Duration,
    bucket: RateLimiter<NotKeyed, InMemoryState, TokioClock, NoOpMiddleware<Duration>>,
}

impl Lookups {
    /// Guards allowing `per_second` lookups (burst twice that) and remembering misses for
    /// `miss_ttl`.
    #[must_use]
    pub(crate) fn new(per_second: u32, miss_ttl: Duration) -> Lookups {
        let rate = NonZeroU32::new(per_second.max(1)).unwrap_or(NonZeroU32::MIN);
        let burst = rate.saturating_mul(NonZeroU32::MIN.saturating_add(1));
        let quota = Quota::per_second(rate).allow_burst(burst);
        Lookups {
            misses: Cache::builder()
                .max_capacity(MISSES)
                .time_to_live(miss_ttl.max(Duration::from_millis(1)))
                .build(),
            miss_ttl,
            bucket: RateLimiter::direct_with_clock(quota, TokioClock(Instant::now())),
        }
    }

    /// Whether `id` was found missing less than the cache's time ago.
    pub(crate) async fn missed(&self, id: &Secret) -> bool {
        self.misses
            .get(id)
            .await
            .is_some_and(|at| at.elapsed() < self.miss_ttl)
    }

    /// Remembers that `id` does not exist.
    pub(crate) async fn miss(&self, id: Secret) {
        self.misses.insert(id, Instant::now()).await;
    }

    /// Takes one lookup from the bucket; `false` when it is empty.
    pub(crate) fn allow(&self) -> bool {
        self.bucket.check().is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn misses_are_remembered_for_their_time_and_lookups_refill_at_their_rate() {
        let lookups = Lookups::new(10, Duration::from_secs(60));
        let id = Secret::random();
        assert!(!lookups.missed(&id).await);
        lookups.miss(id).await;
        assert!(lookups.missed(&id).await);
        assert!(!lookups.missed(&Secret::random()).await);
        tokio::time::advance(Duration::from_secs(61)).await;
        assert!(
            !lookups.missed(&id).await,
            "a miss is forgotten after its time"
        );

        // A burst of twice the rate, then nothing until the bucket refills.
        let allowed = (0..100).filter(|_| lookups.allow()).count();
        assert_eq!(allowed, 20);
        tokio::time::advance(Duration::from_millis(500)).await;
        let allowed = (0..100).filter(|_| lookups.allow()).count();
        assert_eq!(allowed, 5);
    }
}
