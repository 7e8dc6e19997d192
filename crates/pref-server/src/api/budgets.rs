//! Budgets shared across connections, as `governor` token buckets:
//!
//! - **Chat, `resync` and binary frames** cost the table's task work (a snapshot built, a
//!   line broadcast, an error written), so each has one budget per seat token and one for
//!   all the spectators of a table together. Every socket on one token spends the same
//!   budget: opening more sockets does not buy more (`limits.seat_heavy_per_second`,
//!   `…_burst`; `limits.spectators_heavy_per_second`, `…_burst`). Spectators cannot spend
//!   a seat's budget, so they cannot starve a player's `resync`.
//! - **What one client may do**, each a [`ClientBudget`] keyed by the client as the node
//!   computes it ([`ClientKey`], `client.rs`): opening tables
//!   (`limits.tables_per_ip_per_minute`, `limits.table_burst_per_ip`), so that a stranger
//!   cannot fill the node's table cap; opening WebSockets
//!   (`limits.sockets_per_ip_per_second`, `limits.socket_burst_per_ip`), since each costs
//!   its table a snapshot; analysing uploaded deals (`limits.analysis_burst`,
//!   `limits.analysis_every_ms`) and table deals not analysed yet
//!   (`limits.deal_analyses_per_minute`, `limits.deal_analysis_burst`), so that one client
//!   cannot take the solver from the others; opening or importing scorekeeping sheets
//!   (`limits.keeper_sheets_per_ip_per_minute`, `…_burst_per_ip`), requests on existing
//!   sheets (`limits.keeper_requests_per_ip_per_second`, `…_burst_per_ip`) and saving
//!   profiles (`limits.profiles_per_ip_per_minute`, `limits.profile_burst_per_ip`), so that
//!   a stranger cannot fill the node's caps, or its memory and cores, from one address.
//! - **Pages of the score log** (`score_page`) cost the table's task a page of entries to
//!   build and the socket up to a page to write, so they have a budget of their own, keyed
//!   like chat and `resync`: per seat token, and for all the spectators of a table together
//!   (`limits.score_pages_per_second`, `limits.score_page_burst`).
//!
//! Each socket also keeps its own budget for every message (`socket/limits.rs`).

use std::hash::Hash;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::state::keyed::HashMapStateStore;
use governor::{Quota, RateLimiter};

use crate::api::client::{Client, ClientKey};
use crate::api::error::ApiError;
use crate::config::Limits;
use crate::ids::{Secret, TokenHash};

/// A keyed token bucket.
type Keyed<K> = RateLimiter<K, HashMapStateStore<K>, DefaultClock>;

/// Keys kept before idle ones (whose buckets are full again) are dropped.
const PRUNE_AT: usize = 4096;

/// Who spends a table's chat and `resync` budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Spender {
    /// A seat, by its token (a new occupant starts with a full budget).
    Seat(TokenHash),
    /// Every spectator of the table, together.
    Spectators,
}

/// A budget of one kind of request per client: a token bucket for each [`ClientKey`].
#[derive(Debug)]
pub(crate) struct ClientBudget {
    limiter: Keyed<ClientKey>,
    /// What is spent, in the refusal ("tables opened").
    what: &'static str,
    /// Serialises pruning, so that one caller does it while the others go on.
    pruning: Mutex<()>,
}

impl ClientBudget {
    /// `burst` requests at once from one client, then one more every `every`; `what`
    /// names them in the refusal. A zero `burst` or `every` counts as the least there is.
    #[must_use]
    pub(crate) fn new(what: &'static str, every: Duration, burst: u32) -> ClientBudget {
        let quota = Quota::with_period(every.max(Duration::from_millis(1)))
            .expect("a period of at least a millisecond")
            .allow_burst(NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN));
        ClientBudget {
            limiter: RateLimiter::hashmap(quota),
            what,
            pruning: Mutex::new(()),
        }
    }

    /// `per_minute` a minute from one client, `burst` at once.
    #[must_use]
    pub(crate) fn per_minute(what: &'static str, per_minute: u32, burst: u32) -> ClientBudget {
        let every = Duration::from_secs(60) / per_minute.max(1);
        ClientBudget::new(what, every, burst)
    }

    /// Spends one request of `client`. A request the router got without a server (its own
    /// tests; [`Client`] is `None`) is not counted.
    ///
    /// # Errors
    /// [`ApiError::RateLimited`] when the client's budget is spent, saying when to come
    /// back; nothing is spent then.
    pub(crate) fn spend(&self, client: Client) -> Result<(), ApiError> {
        let Client(Some(key)) = client else {
            return Ok(());
        };
        if let Ok(_one) = self.pruning.try_lock() {
            prune(&self.limiter);
        }
        self.limiter.check_key(&key).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            ApiError::RateLimited(format!(
                "too many {} from this address; try again in {} s",
                self.what,
                wait.as_secs() + 1
            ))
        })
    }
}

/// The node's shared budgets.
#[derive(Debug)]
pub(crate) struct Budgets {
    seats: Keyed<(Secret, TokenHash)>,
    spectators: Keyed<Secret>,
    pages: Keyed<(Secret, Spender)>,
    /// Tables opened (new ones and rematches), per client.
    pub tables: ClientBudget,
    /// WebSockets opened, per client.
    pub sockets: ClientBudget,
    /// Deals of uploaded records analysed, per client.
    pub uploads: ClientBudget,
    /// Table deals analysed (not yet in the cache), per client.
    pub deal_analyses: ClientBudget,
    /// Scorekeeping sheets opened or imported, per client.
    pub sheets: ClientBudget,
    /// Requests on existing sheets (a view, the record, a check, a change, a stream), per
    /// client.
    pub sheet_requests: ClientBudget,
    /// Profiles saved, per client.
    pub profiles: ClientBudget,
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
    pub(crate) fn new(limits: &Limits) -> Budgets {
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
            tables: ClientBudget::per_minute(
                "tables opened",
                limits.tables_per_ip_per_minute,
                limits.table_burst_per_ip,
            ),
            sockets: ClientBudget::new(
                "sockets opened",
                Duration::from_secs(1) / limits.sockets_per_ip_per_second.max(1),
                limits.socket_burst_per_ip,
            ),
            uploads: ClientBudget::new(
                "records analysed",
                limits.analysis_every_ms.duration(),
                limits.analysis_burst,
            ),
            deal_analyses: ClientBudget::per_minute(
                "deals analysed",
                limits.deal_analyses_per_minute,
                limits.deal_analysis_burst,
            ),
            sheets: ClientBudget::per_minute(
                "scorekeeping sheets opened or imported",
                limits.keeper_sheets_per_ip_per_minute,
                limits.keeper_sheet_burst_per_ip,
            ),
            sheet_requests: ClientBudget::new(
                "requests on scorekeeping sheets",
                Duration::from_secs(1) / limits.keeper_requests_per_ip_per_second.max(1),
                limits.keeper_request_burst_per_ip,
            ),
            profiles: ClientBudget::per_minute(
                "profiles saved",
                limits.profiles_per_ip_per_minute,
                limits.profile_burst_per_ip,
            ),
            pruning: Mutex::new(()),
        }
    }

    /// Spends one chat line, `resync` or binary frame of `who` at `table`; `false` when
    /// the budget is spent.
    pub(crate) fn heavy(&self, table: Secret, who: Spender) -> bool {
        self.prune();
        match who {
            Spender::Seat(token) => self.seats.check_key(&(table, token)).is_ok(),
            Spender::Spectators => self.spectators.check_key(&table).is_ok(),
        }
    }

    /// Spends one `score_page` request of `who` at `table`; `false` when the budget is
    /// spent.
    pub(crate) fn page(&self, table: Secret, who: Spender) -> bool {
        self.prune();
        self.pages.check_key(&(table, who)).is_ok()
    }

    fn prune(&self) {
        if let Ok(_one) = self.pruning.try_lock() {
            prune(&self.seats);
            prune(&self.spectators);
            prune(&self.pages);
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

    fn client(ip: &str) -> Client {
        Client(Some(ClientKey::of(ip.parse().unwrap())))
    }

    #[test]
    fn table_openings_are_budgeted_per_address() {
        let b = Budgets::new(&limits());
        let spend = |c| b.tables.spend(c).is_ok();
        assert_eq!(
            (0..3)
                .map(|_| spend(client("192.0.2.1")))
                .collect::<Vec<_>>(),
            [true, true, false]
        );
        assert!(spend(client("192.0.2.2")));
        // One IPv6 client is its /64: another address of its block has no fresh budget.
        assert!(spend(client("2001:db8:1:2::1")));
        assert!(spend(client("2001:db8:1:2::ffff")));
        assert!(!spend(client("2001:db8:1:2:1:2:3:4")));
        assert!(spend(client("2001:db8:1:3::1")));
        // A request without a server's client is not counted.
        assert!((0..5).all(|_| spend(Client(None))));
        let Err(ApiError::RateLimited(why)) = b.tables.spend(client("192.0.2.1")) else {
            panic!("the spent budget let a table through");
        };
        assert!(
            why.starts_with("too many tables opened from this address"),
            "{why}"
        );
    }

    #[test]
    fn uploads_are_budgeted_per_client_not_for_all_together() {
        let b = Budgets::new(&Limits {
            analysis_burst: 2,
            analysis_every_ms: crate::config::Millis(60_000),
            ..Limits::default()
        });
        let spend = |c| b.uploads.spend(c).is_ok();
        assert_eq!(
            (0..3)
                .map(|_| spend(client("192.0.2.1")))
                .collect::<Vec<_>>(),
            [true, true, false]
        );
        // Another client's uploads are its own.
        assert!(spend(client("192.0.2.2")));
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
        let (one, two) = (client("192.0.2.1"), client("192.0.2.2"));
        let sheets: Vec<_> = (0..3).map(|_| b.sheets.spend(one).is_ok()).collect();
        assert_eq!(sheets, [true, true, false]);
        let Err(ApiError::RateLimited(why)) = b.sheets.spend(one) else {
            panic!("the spent budget let a sheet through");
        };
        assert!(
            why.starts_with("too many scorekeeping sheets opened or imported from this address"),
            "{why}"
        );
        // Requests on sheets and profiles are budgets apart, and so is every other address.
        let requests: Vec<_> = (0..4)
            .map(|_| b.sheet_requests.spend(one).is_ok())
            .collect();
        assert_eq!(requests, [true, true, true, false]);
        assert_eq!(
            (0..2)
                .map(|_| b.profiles.spend(one).is_ok())
                .collect::<Vec<_>>(),
            [true, false]
        );
        assert!(b.sheets.spend(two).is_ok());
        assert!(b.profiles.spend(two).is_ok());
        // A client without an address (a router test) spends nothing.
        assert!((0..10).all(|_| b.sheets.spend(Client(None)).is_ok()));
    }
}
