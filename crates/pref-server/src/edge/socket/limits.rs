//! The socket's budgets: its own for every message (a `governor` direct limiter, which
//! replaced a hand-written token bucket of floats), the shared one of its seat or of the
//! table's spectators for chat, `resync` and binary frames, and for `score_page`
//! (`crate::api::budgets`), and how many refused messages in a row close the socket.

use std::num::NonZeroU32;
use std::sync::Arc;

use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};

use crate::api::budgets::{Budgets, Spender};
use crate::config::Limits;
use crate::ids::Secret;

/// Rate-limit strikes after which the socket is closed.
pub(super) const MAX_STRIKES: u32 = 100;

/// This socket's own budget: `message_burst` messages at once, refilled at
/// `messages_per_second`.
#[derive(Debug)]
pub(super) struct Bucket(DefaultDirectRateLimiter);

impl Bucket {
    pub(super) fn new(limits: &Limits) -> Bucket {
        let rate = NonZeroU32::new(limits.messages_per_second).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(limits.message_burst).unwrap_or(NonZeroU32::MIN);
        Bucket(RateLimiter::direct(
            Quota::per_second(rate).allow_burst(burst),
        ))
    }

    pub(super) fn take(&self) -> bool {
        self.0.check().is_ok()
    }
}

/// The shared budget a socket spends its chat lines, `resync`s and binary frames from.
#[derive(Clone, Debug)]
pub(crate) struct Shared {
    budgets: Arc<Budgets>,
    table: Secret,
    who: Spender,
    /// The analyses' lane, where a practice table's hints are solved.
    pub(super) lane: Option<Arc<crate::analysis::Analyses>>,
}

impl Shared {
    /// The budget of `who` at `table`.
    #[must_use]
    pub(crate) fn new(budgets: Arc<Budgets>, table: Secret, who: Spender) -> Shared {
        Shared {
            budgets,
            table,
            who,
            lane: None,
        }
    }

    /// Solves this socket's hints in `lane`.
    #[must_use]
    pub(crate) fn with_lane(mut self, lane: Arc<crate::analysis::Analyses>) -> Shared {
        self.lane = Some(lane);
        self
    }

    /// Spends one; `false` when the budget is spent.
    pub(super) fn take(&self) -> bool {
        self.budgets.heavy(self.table, self.who)
    }

    /// Spends one `score_page` request; `false` when that budget is spent.
    pub(super) fn take_page(&self) -> bool {
        self.budgets.page(self.table, self.who)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_socket_s_own_bucket_lets_its_burst_through_and_refuses_the_next() {
        let b = Bucket::new(&Limits {
            messages_per_second: 1,
            message_burst: 5,
            ..Limits::default()
        });
        assert_eq!(
            (0..6).map(|_| b.take()).collect::<Vec<_>>(),
            [true, true, true, true, true, false]
        );
    }
}
