//! What one decision is given: the seat's view, its budget and the clock that enforces it,
//! and how outcomes are priced at the table now; with the hidden piles a layout deals.

use std::time::Instant;

#[cfg(test)]
use pref_core::Profile;
use pref_core::{CardSet, DealView, Seat};

use super::budget::Budget;
use crate::sample::Pile;
use crate::score::Prices;
use crate::solver::Solver;

/// Time and nodes left for one decision.
pub(crate) struct Clock {
    pub(super) deadline: Option<Instant>,
}

impl Clock {
    pub(crate) fn out(&self, solver: &Solver, budget: &Budget) -> bool {
        solver.stats().nodes >= budget.nodes || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// One decision's inputs.
pub(crate) struct Ctx<'a> {
    pub(crate) view: &'a DealView,
    pub(crate) budget: Budget,
    pub(crate) clock: Clock,
    /// How outcomes are priced at this table now.
    pub(crate) prices: Prices,
}

impl<'a> Ctx<'a> {
    /// A decision's inputs for `view` priced by `profile` with no raspasy before, and no
    /// budget (for the tests of pricing alone).
    #[cfg(test)]
    pub(crate) fn priced(view: &'a DealView, profile: &Profile) -> Ctx<'a> {
        Ctx {
            view,
            budget: Budget::nodes(0),
            clock: Clock { deadline: None },
            prices: Prices {
                profile: profile.clone(),
                raspasy_before: 0,
            },
        }
    }

    /// Active seats in seat order: the solver's players 0, 1, 2 (clockwise, R11.1).
    pub(crate) fn active(&self) -> Vec<Seat> {
        let v = self.view;
        (0..v.players)
            .map(Seat)
            .filter(|&s| !(v.players == 4 && s == v.dealer))
            .collect()
    }

    pub(crate) fn player(&self, seat: Seat) -> usize {
        self.active().iter().position(|&s| s == seat).unwrap_or(0)
    }

    pub(crate) fn hand(&self) -> CardSet {
        self.view.hand.unwrap_or(CardSet::EMPTY)
    }
}
/// A hidden pile and whose hand it is (`None`: the discard or the raspasy talon).
pub(crate) type Hidden = (Option<Seat>, Pile);

/// Layouts drawn at most to find one that fits the auction.
pub(crate) const AUCTION_TRIES: usize = 30;
