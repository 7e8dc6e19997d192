//! Budgets shared across connections, as `governor` token buckets:
//!
//! - **Chat, `resync` and binary frames** cost the table's task work (a snapshot built, a
//!   line broadcast, an error written), so each has one budget per seat token and one for
//!   all the spectators of a table together. Every socket on one token spends the same
//!   budget: opening more sockets does not buy more (`limits.seat_heavy_per_second`,
//!   `…_burst`; `limits.spectators_heavy_per_second`, `…_burst`). Spectators cannot spend
//!   a seat's budget, so they cannot starve a player's `resync`.
//! - **Pages of the score log** (`score_page`) cost the table's task a page of entries to
//!   build and the socket up to a page to write, so they have a budget of their own, keyed
//!   the same way: per seat token, and for all the spectators of a table together
//!   (`limits.score_pages_per_second`, `limits.score_page_burst`).
//! - **Opening tables**, per client address (`limits.tables_per_ip_per_minute`,
//!   `limits.table_burst_per_ip`): a stranger cannot fill the node's table cap.
//!
//! Each socket also keeps its own budget for every message (`socket/limits.rs`).

use std::hash::Hash;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Mutex;

use governor::clock::DefaultClock;
use governor::state::keyed::HashMapStateStore;
use governor::{Quota, RateLimiter};

use crate::config::Limits;
use crate::ids::{Secret, TokenHash};

/// A keyed token bucket.
type Keyed<K> = RateLimiter<K, HashMapStateStore<K>, DefaultClock>;

/// Keys kept before idle ones (whose buckets are full again) are dropped.
const PRUNE_AT: usize = 4096;

/// Who spends a table's chat and `resync` budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Spender {
    /// A seat, by its token (a new occupant starts with a full budget).
    Seat(TokenHash),
    /// Every spectator of the table, together.
    Spectators,
}

/// The node's shared budgets.
#[derive(Debug)]
pub struct Budgets {
    seats: Keyed<(Secret, TokenHash)>,
    spectators: Keyed<Secret>,
    pages: Keyed<(Secret, Spender)>,
    create: Keyed<IpAddr>,
    /// Serialises pruning, so that one caller does it while the others go on.
    pruning: Mutex<()>,
}

/// `per` per `unit` seconds, `burst` at once (each at least 1).
fn quota(per_second: u32, burst: u32) -> Quota {
    Quota::per_second(NonZeroU32::new(per_second).unwrap_or(NonZeroU32::MIN))
        .allow_burst(NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN))
}

/// Drops the keys of `limiter` whose buckets are full again, once there are many.
fn prune<K: Clone + Eq + Hash>(limiter: &Keyed<K>) {
    if limiter.len() > PRUNE_AT {
        limiter.retain_recent();
        limiter.shrink_to_fit();
    }
}

impl Budgets {
    /// Budgets with the rates of `limits`.
    #[must_use]
    pub fn new(limits: &Limits) -> Budgets {
        let per_minute =
            NonZeroU32::new(limits.tables_per_ip_per_minute).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(limits.table_burst_per_ip).unwrap_or(NonZeroU32::MIN);
        Budgets {
            seats: RateLimiter::hashmap(quota(
                limits.seat_heavy_per_second,
                limits.seat_heavy_burst,
            )),
            spectators: RateLimiter::hashmap(quota(
                limits.spectators_heavy_per_second,
                limits.spectators_heavy_burst,
            )),
            pages: RateLimiter::hashmap(quota(
                limits.score_pages_per_second,
                limits.score_page_burst,
            )),
            create: RateLimiter::hashmap(Quota::per_minute(per_minute).allow_burst(burst)),
            pruning: Mutex::new(()),
        }
    }

    /// Spends one chat line, `resync` or binary frame of `who` at `table`; `false` when
    /// the budget is spent.
    pub fn heavy(&self, table: Secret, who: Spender) -> bool {
        self.prune();
        match who {
            Spender::Seat(token) => self.seats.check_key(&(table, token)).is_ok(),
            Spender::Spectators => self.spectators.check_key(&table).is_ok(),
        }
    }

    /// Spends one `score_page` request of `who` at `table`; `false` when the budget is
    /// spent.
    pub fn page(&self, table: Secret, who: Spender) -> bool {
        self.prune();
        self.pages.check_key(&(table, who)).is_ok()
    }

    /// Spends one table opening of `ip`; `false` when its budget is spent.
    pub fn create(&self, ip: IpAddr) -> bool {
        self.prune();
        self.create.check_key(&ip).is_ok()
    }

    fn prune(&self) {
        if let Ok(_one) = self.pruning.try_lock() {
            prune(&self.seats);
            prune(&self.spectators);
            prune(&self.pages);
            prune(&self.create);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            seat_heavy_per_second: 1,
            seat_heavy_burst: 3,
            spectators_heavy_per_second: 1,
            spectators_heavy_burst: 2,
            tables_per_ip_per_minute: 1,
            table_burst_per_ip: 2,
            score_pages_per_second: 1,
            score_page_burst: 2,
            ..Limits::default()
        }
    }

    #[test]
    fn a_seat_s_budget_is_its_own_and_spectators_share_one_per_table() {
        let b = Budgets::new(&limits());
        let (t, u) = (Secret::random(), Secret::random());
        let (anna, boris) = (
            Spender::Seat(TokenHash::of(&Secret::random())),
            Spender::Seat(TokenHash::of(&Secret::random())),
        );
        // Anna's burst of 3, from however many sockets: the 4th is refused.
        assert_eq!(
            (0..4).map(|_| b.heavy(t, anna)).collect::<Vec<_>>(),
            [true, true, true, false]
        );
        // Boris and the spectators keep theirs; the spectators share 2 for the table.
        assert!(b.heavy(t, boris));
        assert_eq!(
            (0..3)
                .map(|_| b.heavy(t, Spender::Spectators))
                .collect::<Vec<_>>(),
            [true, true, false]
        );
        // Another table's budgets are apart.
        assert!(b.heavy(u, anna));
        assert!(b.heavy(u, Spender::Spectators));
    }

    #[test]
    fn score_pages_have_their_own_budget_per_seat_and_for_a_table_s_spectators() {
        let b = Budgets::new(&limits());
        let t = Secret::random();
        let anna = Spender::Seat(TokenHash::of(&Secret::random()));
        // Anna's burst of 2 pages, then none; her chat and resync budget is untouched.
        assert_eq!(
            (0..3).map(|_| b.page(t, anna)).collect::<Vec<_>>(),
            [true, true, false]
        );
        assert!(b.heavy(t, anna));
        // The spectators of the table share their own 2.
        assert_eq!(
            (0..3)
                .map(|_| b.page(t, Spender::Spectators))
                .collect::<Vec<_>>(),
            [true, true, false]
        );
    }

    #[test]
    fn table_openings_are_budgeted_per_address() {
        let b = Budgets::new(&limits());
        let (one, two): (IpAddr, IpAddr) = ([192, 0, 2, 1].into(), [192, 0, 2, 2].into());
        assert_eq!(
            (0..3).map(|_| b.create(one)).collect::<Vec<_>>(),
            [true, true, false]
        );
        assert!(b.create(two));
    }
}
