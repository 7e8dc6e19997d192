//! Budgets shared across connections, as `governor` token buckets:
//!
//! - **Chat, `resync` and binary frames** cost the table's task work (a snapshot built, a
//!   line broadcast, an error written), so each has one budget per seat token and one for
//!   all the spectators of a table together. Every socket on one token spends the same
//!   budget: opening more sockets does not buy more (`limits.seat_heavy_per_second`,
//!   `…_burst`; `limits.spectators_heavy_per_second`, `…_burst`). Spectators cannot spend
//!   a seat's budget, so they cannot starve a player's `resync`.
//! - **What a stranger opens or asks for**, per client address ([`PerAddress`], one call
//!   [`Budgets::spend`] each): opening tables (`limits.tables_per_ip_per_minute`,
//!   `limits.table_burst_per_ip`), opening or importing scorekeeping sheets
//!   (`limits.keeper_sheets_per_ip_per_minute`, `…_burst_per_ip`), requests on existing
//!   sheets (`limits.keeper_requests_per_ip_per_second`, `…_burst_per_ip`) and saving
//!   profiles (`limits.profiles_per_ip_per_minute`, `limits.profile_burst_per_ip`): a
//!   stranger cannot fill the node's caps, or its memory and cores, from one address.
//! - **Pages of the score log** (`score_page`) cost the table's task a page of entries to
//!   build and the socket up to a page to write, so they have a budget of their own, keyed
//!   the same way: per seat token, and for all the spectators of a table together
//!   (`limits.score_pages_per_second`, `limits.score_page_burst`).
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

/// What a client address spends a budget of its own on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerAddress {
    /// Opening a table (or a rematch).
    Table,
    /// Opening or importing a scorekeeping sheet.
    Sheet,
    /// A request on an existing sheet: its view, record, choices, a check, a change, or
    /// opening its event stream.
    SheetRequest,
    /// Saving a profile.
    Profile,
}

/// A request refused because its address spent its budget; the message says which and
/// how much the budget allows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OverBudget(pub String);

/// The node's shared budgets.
#[derive(Debug)]
pub struct Budgets {
    seats: Keyed<(Secret, TokenHash)>,
    spectators: Keyed<Secret>,
    pages: Keyed<(Secret, Spender)>,
    create: Keyed<IpAddr>,
    sheets: Keyed<IpAddr>,
    sheet_requests: Keyed<IpAddr>,
    profiles: Keyed<IpAddr>,
    /// The words of each refusal, from the settings.
    refusals: [String; 4],
    /// Serialises pruning, so that one caller does it while the others go on.
    pruning: Mutex<()>,
}

/// `per` per `unit` seconds, `burst` at once (each at least 1).
fn quota(per_second: u32, burst: u32) -> Quota {
    Quota::per_second(NonZeroU32::new(per_second).unwrap_or(NonZeroU32::MIN))
        .allow_burst(NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN))
}

/// `per` a minute, `burst` at once (each at least 1).
fn per_minute(per: u32, burst: u32) -> Quota {
    Quota::per_minute(NonZeroU32::new(per).unwrap_or(NonZeroU32::MIN))
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
        let l = limits;
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
                        create: RateLimiter::hashmap(per_minute(
                l.tables_per_ip_per_minute,
                l.table_burst_per_ip,
            )),
            sheets: RateLimiter::hashmap(per_minute(
                l.keeper_sheets_per_ip_per_minute,
                l.keeper_sheet_burst_per_ip,
            )),
            sheet_requests: RateLimiter::hashmap(quota(
                l.keeper_requests_per_ip_per_second,
                l.keeper_request_burst_per_ip,
            )),
            profiles: RateLimiter::hashmap(per_minute(
                l.profiles_per_ip_per_minute,
                l.profile_burst_per_ip,
            )),
            refusals: [
                format!(
                    "this address may open {} tables a minute; try again later",
                    l.tables_per_ip_per_minute
                ),
                format!(
                    "this address may open or import {} scorekeeping sheets a minute; try again later",
                    l.keeper_sheets_per_ip_per_minute
                ),
                format!(
                    "this address may make {} requests a second on scorekeeping sheets; try again later",
                    l.keeper_requests_per_ip_per_second
                ),
                format!(
                    "this address may save {} profiles a minute; try again later",
                    l.profiles_per_ip_per_minute
                ),
            ],
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

    /// Spends one `what` of the client at `ip` (nothing is counted for a client without an
    /// address: router tests).
    ///
    /// # Errors
    /// [`OverBudget`] saying which budget is spent, when it is.
    pub fn spend(&self, what: PerAddress, ip: Option<IpAddr>) -> Result<(), OverBudget> {
        let Some(ip) = ip else {
            return Ok(());
        };
        self.prune();
        let (limiter, refusal) = match what {
            PerAddress::Table => (&self.create, 0),
            PerAddress::Sheet => (&self.sheets, 1),
            PerAddress::SheetRequest => (&self.sheet_requests, 2),
            PerAddress::Profile => (&self.profiles, 3),
        };
        limiter
            .check_key(&ip)
            .map_err(|_| OverBudget(self.refusals[refusal].clone()))
    }

    fn prune(&self) {
        if let Ok(_one) = self.pruning.try_lock() {
            prune(&self.seats);
            prune(&self.spectators);
            prune(&self.pages);
            prune(&self.create);
            prune(&self.sheets);
            prune(&self.sheet_requests);
            prune(&self.profiles);
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
        let create = |ip| b.spend(PerAddress::Table, Some(ip)).is_ok();
        assert_eq!(
            (0..3).map(|_| create(one)).collect::<Vec<_>>(),
            [true, true, false]
        );
        assert!(create(two));
    }

    #[test]
    fn sheets_sheet_requests_and_profiles_have_budgets_of_their_own_per_address() {
        let b = Budgets::new(&Limits {
            keeper_sheets_per_ip_per_minute: 1,
            keeper_sheet_burst_per_ip: 2,
            keeper_requests_per_ip_per_second: 1,
            keeper_request_burst_per_ip: 3,
            profiles_per_ip_per_minute: 1,
            profile_burst_per_ip: 1,
            ..Limits::default()
        });
        let (one, two): (IpAddr, IpAddr) = ([192, 0, 2, 1].into(), [192, 0, 2, 2].into());
        let spend = |what, ip| b.spend(what, Some(ip)).map_err(|e| e.0);
        let sheets: Vec<_> = (0..3).map(|_| spend(PerAddress::Sheet, one)).collect();
        assert_eq!(
            sheets,
            [
                Ok(()),
                Ok(()),
                Err("this address may open or import 1 scorekeeping sheets a minute; try again later".into())
            ]
        );
        // Requests on sheets and profiles are budgets apart, and so is every other address.
        let requests: Vec<_> = (0..4)
            .map(|_| spend(PerAddress::SheetRequest, one).is_ok())
            .collect();
        assert_eq!(requests, [true, true, true, false]);
        assert_eq!(
            (0..2)
                .map(|_| spend(PerAddress::Profile, one).is_ok())
                .collect::<Vec<_>>(),
            [true, false]
        );
        assert_eq!(spend(PerAddress::Sheet, two), Ok(()));
        assert_eq!(spend(PerAddress::Profile, two), Ok(()));
        // A client without an address (a router test) spends nothing.
        assert!((0..10).all(|_| b.spend(PerAddress::Sheet, None).is_ok()));
    }
}
