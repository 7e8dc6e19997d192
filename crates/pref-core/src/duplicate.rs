//! Duplicate scoring (`docs/tournaments.md`): everyone plays the same deals, and each
//! entrant is scored against the others who held the same cards, so that the luck of the
//! cards leaves the score.
//!
//! - [`deal_result`]: what one finished deal is worth to each seat, in whists, exactly: R8's
//!   entries of that deal alone (no raspasy streak before it), the mountain priced as the
//!   settlement prices it (R10.1, or `mountain_as_whists`), and every pool point as the
//!   agreed stop prices a missing one (R10.3: `pool_point_whists / 10` mountain points).
//!   Closing the pool (R9: help, overflow) and the settlement's open-pool charges depend on
//!   the running sheet of a pulka, which a duplicate deal does not have; they are left out,
//!   so a deal's result is linear in its entries and the same for everyone who scored the
//!   same entries.
//! - [`DealComparison`]: one deal's results of every entrant, as matchpoints (2 per entrant
//!   beaten, 1 per tie) and a percentage of the top; adding an entrant updates the others'
//!   matchpoints in one pass ([`DealComparison::add`]), nothing is recomputed.
//! - [`Standings`]: a tournament's deals, each entrant's place in each deal's comparison,
//!   and the standing: the average percentage of the deals an entrant finished.
//!
//! Everything is an exact [`Ratio`]; nothing is converted to floating point.

use num_rational::Ratio;

use crate::line::Column;
use crate::outcome::{Outcome, OutcomeKind};
use crate::profile::Profile;
use crate::scoring::Entries;
use crate::sheet::Sheet;

/// A result in whists, or a percentage: exact.
pub type Exact = Ratio<i64>;

/// Each seat's result for one finished deal in whists under `profile` (index = seat, one
/// entry per player; they sum to zero). The deal is scored as if it were the first of a
/// pulka: no raspasy streak before it, no pool closed, nothing settled but its own entries.
/// An outcome for another table size, or naming a seat off the table, scores zero for all.
#[must_use]
pub fn deal_result(profile: &Profile, outcome: &Outcome) -> Vec<Exact> {
    let n = usize::from(outcome.players.clamp(3, 4));
    let declarer = match outcome.kind {
        OutcomeKind::Game { declarer, .. }
        | OutcomeKind::Misere { declarer }
        | OutcomeKind::Surrender { declarer, .. } => declarer,
        OutcomeKind::Raspasy => outcome.dealer,
    };
    let mut sheet = Sheet::new(outcome.players);
    if outcome.players != profile.players() || outcome.dealer.0.max(declarer.0) >= sheet.players() {
        return vec![Exact::default(); n];
    }
    let mut written = Vec::new();
    let mut pool = vec![0i64; n];
    for line in Entries::of(profile, outcome, 0).lines {
        match line.column {
            Column::Mountain => sheet.add_mountain(profile, line, &mut written),
            Column::Whists { .. } => sheet.apply(&line),
            Column::Pool => pool[line.seat.index()] += line.amount,
        }
    }
    // Mountain and whists as the settlement (R10.1) turns them into whists.
    let base = sheet.settlement(profile, false);
    // Each pool point is `pool_point_whists / 10` mountain points off (R10.3's price),
    // priced like any mountain point: 10 whists against the mean (R10.1), or k whists by
    // every other player under `mountain_as_whists = k`.
    let off: Vec<Exact> = pool
        .iter()
        .map(|&p| Exact::new(p * i64::from(profile.pool_point_whists()), 10))
        .collect();
    let total: Exact = off.iter().sum();
    let n_i = n as i64;
    let k = i64::from(profile.mountain_as_whists());
    base.into_iter()
        .zip(&off)
        .map(|(b, &o)| {
            if k == 0 {
                b + (o - total / n_i) * 10
            } else {
                b + (o * n_i - total) * k
            }
        })
        .collect()
}

/// One deal's results of every entrant who finished it, in the order they finished, and
/// their matchpoints against each other.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DealComparison {
    results: Vec<Exact>,
    matchpoints: Vec<u64>,
}

impl DealComparison {
    /// No entrant yet.
    #[must_use]
    pub fn new() -> DealComparison {
        DealComparison::default()
    }

    /// Adds an entrant's result; returns the entrant's index in this comparison. Every
    /// earlier entrant's matchpoints change by what this one's result does to them: one
    /// pass over this deal's entrants, no other deal is touched.
    pub fn add(&mut self, result: Exact) -> usize {
        let mut own = 0;
        for (other, mp) in self.results.iter().zip(self.matchpoints.iter_mut()) {
            match result.cmp(other) {
                std::cmp::Ordering::Greater => own += 2,
                std::cmp::Ordering::Equal => {
                    own += 1;
                    *mp += 1;
                }
                std::cmp::Ordering::Less => *mp += 2,
            }
        }
        self.results.push(result);
        self.matchpoints.push(own);
        self.results.len() - 1
    }

    /// Entrants who finished the deal.
    #[must_use]
    pub fn entrants(&self) -> usize {
        self.results.len()
    }

    /// Entrant `i`'s result (`None` past the end).
    #[must_use]
    pub fn result(&self, i: usize) -> Option<Exact> {
        self.results.get(i).copied()
    }

    /// Entrant `i`'s matchpoints: 2 per entrant beaten, 1 per tie (`None` past the end).
    #[must_use]
    pub fn matchpoints(&self, i: usize) -> Option<u64> {
        self.matchpoints.get(i).copied()
    }

    /// The most matchpoints anyone can have on this deal: `2 (n − 1)`.
    #[must_use]
    pub fn top(&self) -> u64 {
        2 * (self.results.len().saturating_sub(1)) as u64
    }

    /// Entrant `i`'s matchpoints as a percentage of the top; an entrant alone on the deal
    /// has 50 (`None` past the end).
    #[must_use]
    pub fn percentage(&self, i: usize) -> Option<Exact> {
        let mp = self.matchpoints(i)?;
        let top = self.top();
        Some(if top == 0 {
            Exact::from_integer(50)
        } else {
            Exact::new(mp as i64 * 100, top as i64)
        })
    }
}

/// A tournament's scores: each deal's comparison and where each entrant sits in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standings {
    deals: Vec<DealComparison>,
    /// `places[e][d]`: entrant `e`'s index in deal `d`'s comparison, once finished.
    places: Vec<Vec<Option<usize>>>,
}

impl Standings {
    /// A tournament of `deals` deals and no entrant.
    #[must_use]
    pub fn new(deals: usize) -> Standings {
        Standings {
            deals: vec![DealComparison::new(); deals],
            places: Vec::new(),
        }
    }

    /// Adds an entrant; returns its number.
    pub fn enter(&mut self) -> usize {
        self.places.push(vec![None; self.deals.len()]);
        self.places.len() - 1
    }

    /// Entrants so far.
    #[must_use]
    pub fn entrants(&self) -> usize {
        self.places.len()
    }

    /// Records entrant `e`'s result on deal `d`. `false`, and nothing changes, if there is
    /// no such entrant or deal or the entrant already has a result there.
    pub fn finish(&mut self, e: usize, d: usize, result: Exact) -> bool {
        let (Some(row), Some(deal)) = (self.places.get_mut(e), self.deals.get_mut(d)) else {
            return false;
        };
        if row[d].is_some() {
            return false;
        }
        row[d] = Some(deal.add(result));
        true
    }

    /// Deal `d`'s comparison.
    #[must_use]
    pub fn deal(&self, d: usize) -> Option<&DealComparison> {
        self.deals.get(d)
    }

    /// Entrant `e`'s index in deal `d`'s comparison, once finished there.
    #[must_use]
    pub fn place(&self, e: usize, d: usize) -> Option<usize> {
        self.places.get(e)?.get(d).copied().flatten()
    }

    /// Entrant `e`'s percentage on deal `d`, once finished there.
    #[must_use]
    pub fn percentage(&self, e: usize, d: usize) -> Option<Exact> {
        self.deals.get(d)?.percentage(self.place(e, d)?)
    }

    /// Deals entrant `e` has finished.
    #[must_use]
    pub fn finished(&self, e: usize) -> usize {
        self.places.get(e).map_or(0, |r| r.iter().flatten().count())
    }

    /// Entrant `e`'s standing: the average percentage of the deals finished (`None` before
    /// the first).
    #[must_use]
    pub fn standing(&self, e: usize) -> Option<Exact> {
        let row = self.places.get(e)?;
        let (sum, n) = row
            .iter()
            .enumerate()
            .filter_map(|(d, p)| self.deals[d].percentage((*p)?))
            .fold((Exact::default(), 0i64), |(s, n), p| (s + p, n + 1));
        (n > 0).then(|| sum / n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64) -> Exact {
        Exact::from_integer(n)
    }

    #[test]
    fn matchpoints_two_per_beaten_one_per_tie() {
        let mut c = DealComparison::new();
        c.add(r(10));
        c.add(r(-5));
        c.add(r(10));
        assert_eq!(c.matchpoints(0), Some(3));
        assert_eq!(c.matchpoints(1), Some(0));
        assert_eq!(c.matchpoints(2), Some(3));
        assert_eq!(c.top(), 4);
        assert_eq!(c.percentage(0), Some(Exact::new(75, 1)));
        assert_eq!(c.percentage(3), None);
    }

    #[test]
    fn alone_is_fifty() {
        let mut s = Standings::new(2);
        let e = s.enter();
        assert_eq!(s.standing(e), None);
        assert!(s.finish(e, 1, r(3)));
        assert!(
            !s.finish(e, 1, r(4)),
            "a second result on a deal is refused"
        );
        assert!(!s.finish(e, 2, r(4)), "no such deal");
        assert_eq!(s.standing(e), Some(r(50)));
    }
}
