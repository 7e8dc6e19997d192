//! The exact open-hand solver: every hand known, best play on every side.
//!
//! A [`Position`] holds the three active hands (indexed by *player*, 0..3 clockwise in play
//! order), the trick in progress, its leader and what is being played ([`Goal`]). The value
//! of a position is the number of tricks the *target* player takes from here on (the trick
//! in progress included):
//!
//! - [`Goal::Tricks`]: the declarer maximises his tricks, the defenders minimise them.
//! - [`Goal::Misere`]: the declarer minimises, the defence maximises (the most tricks the
//!   defence can force on him).
//! - [`Goal::Raspasy`]: the *paranoid* model of `docs/bots.md` — the chosen player minimises
//!   his own tricks and the other two conspire to maximise them, with R7.2's first two
//!   tricks (the talon card's suit must be played and wins) and R7.3's leads; with four
//!   players, R11.3's (the sitting-out dealer's talon card leads and can win).
//!
//! The search is fail-soft alpha-beta, driven by null-window probes (stepping from a first
//! guess, else a binary search on the value), with a bounded transposition table probed at
//! trick starts, equivalent-rank reduction, a move order with a history heuristic for
//! leads, quick-trick and sure-trump bounds, and misère's cutoffs when the target takes
//! every trick left or none, or is sure to lose or win the trick starting or in progress
//! (see `docs/bots.md` for the measurements behind each). A
//! caller that needs no exact count asks a [`Bound`] ("at least k", "at most k": one
//! null-window search) instead.
//!
//! The files: `position.rs` holds the public [`Position`] and its [`Goal`], checked and
//! played card by card for callers; `rules.rs` the trick rules again at the bit level, as
//! the search plays them; this file the [`Solver`] and its probes; `search.rs` the
//! alpha-beta search itself with its bounds and the transposition key; `order.rs` the move
//! order; `misere.rs` misère's cutoffs.

use pref_core::Card;

use crate::tt::Table;

mod misere;
mod order;
mod position;
mod rules;
mod search;

pub use position::{Goal, Position, PositionError};
use rules::Rules;
use search::Node;

/// A first guess at the value for the first probe: the rule-of-thumb trick estimate of
/// the declarer's hand in trick contracts; in misère one trick, so the first probe is the
/// cheap "does he take a trick" and later ones step up from it (7% fewer nodes than
/// bisecting on random full deals).
fn guess(pos: &Position, left: i32) -> Option<i32> {
    let Goal::Tricks { declarer, trump } = pos.goal else {
        return matches!(pos.goal, Goal::Misere { .. }).then_some(1.min(left));
    };
    let e = crate::heuristic::trick_estimate(pos.hands[declarer], trump);
    Some((e.round() as i32).clamp(0, left))
}

/// A question about a position's value that needs no exact count: one null-window search
/// answers it ([`Solver::holds`]). A caller that only compares the count with a threshold
/// (a contract made, a claim beaten, a clean misère) asks this instead of
/// [`Solver::solve`], which is several such searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The target takes at least this many tricks.
    AtLeast(u8),
    /// The target takes at most this many tricks.
    AtMost(u8),
}

impl Bound {
    /// Whether an exact count `v` satisfies the bound.
    #[must_use]
    pub fn admits(self, v: u8) -> bool {
        match self {
            Bound::AtLeast(k) => v >= k,
            Bound::AtMost(k) => v <= k,
        }
    }
}

/// Counters of the last search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes visited (cards tried).
    pub nodes: u64,
}

/// The solver: a transposition table and a node budget. Reuse one solver for many
/// positions: the table's entries stay valid across positions and goals.
#[derive(Debug)]
pub struct Solver {
    tt: Table,
    nodes: u64,
    limit: u64,
    aborted: bool,
    rules: Rules,
    node: Node,
    /// The trick number at which play ends (the loaded position's tricks done and left):
    /// the tricks left are this less `node.trick_no`.
    end: u8,
    /// History heuristic for leads, by player and card: how often (weighted by tricks
    /// left, squared) the lead cut off a search in this solve.
    history: [[u32; 32]; 3],
    /// Whether the history carries over from one search to the next
    /// ([`Solver::carry_history`]).
    carry_history: bool,
}

/// Default transposition table: 2^18 entries of 16 bytes, 4 MiB (see `docs/bots.md`).
pub const DEFAULT_TT_BITS: u32 = 18;

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// A solver with the default table ([`DEFAULT_TT_BITS`]).
    #[must_use]
    pub fn new() -> Solver {
        Solver::with_tt_bits(DEFAULT_TT_BITS)
    }

    /// A solver whose table holds `2^bits` entries (16 bytes each).
    #[must_use]
    pub fn with_tt_bits(bits: u32) -> Solver {
        Solver {
            tt: Table::new(bits),
            nodes: 0,
            limit: u64::MAX,
            aborted: false,
            rules: Rules {
                target: 0,
                minimise: false,
                trump: 4,
                raspasy: None,
                talon_cards: None,
                trump_bits: 0,
                plain_from: 0,
            },
            node: Node::EMPTY,
            end: 0,
            history: [[0; 32]; 3],
            carry_history: false,
        }
    }

    /// Bytes held by the transposition table.
    #[must_use]
    pub fn tt_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Counters since the last [`Solver::reset_stats`].
    #[must_use]
    pub fn stats(&self) -> Stats {
        Stats { nodes: self.nodes }
    }

    /// Zeroes the counters.
    pub fn reset_stats(&mut self) {
        self.nodes = 0;
    }

    /// Limits the nodes counted in [`Solver::stats`]: once past `limit`, searches give up
    /// and return `None`. `u64::MAX` (the default) means no limit.
    pub fn set_node_limit(&mut self, limit: u64) {
        self.limit = limit;
    }

    fn load(&mut self, pos: &Position) {
        self.rules = Rules::of(pos);
        self.node = Node {
            hands: pos.hands.map(|h| h.0),
            leader: pos.leader as u8,
            trick_no: pos.tricks_done,
            ..Node::EMPTY
        };
        self.end = pos.tricks_done + pos.tricks_left();
        // Replay the trick in progress so the incremental winner is set up.
        for (i, c) in pos.trick.iter().enumerate() {
            let p = (pos.leader + i) % 3;
            self.node.hands[p] |= 1 << c.index();
            self.play(c.index());
        }
        self.aborted = false;
        if !self.carry_history {
            self.history = [[0; 32]; 3];
        }
    }

    /// With `on`, the leads' history heuristic starts empty now and carries over from
    /// each search to the next, as a search's own probes share it, until called with
    /// `false` (each search then starts with none: the default). For many searches of
    /// like positions (the same deal after different discards): the move order only, so
    /// every answer is the same either way.
    pub fn carry_history(&mut self, on: bool) {
        self.carry_history = on;
        self.history = [[0; 32]; 3];
    }

    /// The target's tricks from this position on with best play by everyone; `None` if
    /// the node limit ran out first.
    ///
    /// # Panics
    /// In debug builds, if the position is not valid ([`Position::validate`]).
    pub fn solve(&mut self, pos: &Position) -> Option<u8> {
        debug_assert_eq!(pos.validate(), Ok(()));
        self.load(pos);
        self.tt.new_search();
        let left = i32::from(pos.tricks_left());
        let v = self.exact(0, left, guess(pos, left));
        (!self.aborted).then_some(v as u8)
    }

    /// Whether the target takes at least `k` tricks from this position on with best play by
    /// everyone (one null-window search: far cheaper than the exact count); `None` if the
    /// node limit ran out first. For misère, `at_least(pos, 1)` asks "does the declarer
    /// take a trick".
    ///
    /// # Panics
    /// In debug builds, if the position is not valid ([`Position::validate`]).
    pub fn at_least(&mut self, pos: &Position, k: u8) -> Option<bool> {
        debug_assert_eq!(pos.validate(), Ok(()));
        if k == 0 {
            return Some(true);
        }
        if k > pos.tricks_left() {
            return Some(false);
        }
        self.load(pos);
        // "Does he take a trick" is often settled by the first trick alone (misère play).
        if k == 1 && self.rules.minimise && pos.trick.is_empty() && self.target_takes_one() {
            return Some(true);
        }
        self.tt.new_search();
        let k = i32::from(k);
        let v = self.search(k - 1, k);
        (!self.aborted).then_some(v >= k)
    }

    /// Whether the target takes at most `k` tricks from this position on with best play by
    /// everyone: the null-window question "not `k + 1`" ([`Solver::at_least`]), as cheap as
    /// it; `None` if the node limit ran out first. For misère, `at_most(pos, 0)` asks "is
    /// the misère clean".
    ///
    /// # Panics
    /// In debug builds, if the position is not valid ([`Position::validate`]).
    pub fn at_most(&mut self, pos: &Position, k: u8) -> Option<bool> {
        self.at_least(pos, k.saturating_add(1)).map(|more| !more)
    }

    /// Answers a [`Bound`] question about the target's tricks from this position on by one
    /// null-window search; `None` if the node limit ran out first.
    ///
    /// # Panics
    /// In debug builds, if the position is not valid ([`Position::validate`]).
    pub fn holds(&mut self, pos: &Position, bound: Bound) -> Option<bool> {
        match bound {
            Bound::AtLeast(k) => self.at_least(pos, k),
            Bound::AtMost(k) => self.at_most(pos, k),
        }
    }

    /// Each legal card of the player to move with the target's tricks after it (the trick
    /// in progress included); `None` if the node limit ran out first.
    ///
    /// # Panics
    /// In debug builds, if the position is not valid ([`Position::validate`]).
    pub fn solve_moves(&mut self, pos: &Position) -> Option<Vec<(Card, u8)>> {
        debug_assert_eq!(pos.validate(), Ok(()));
        self.load(pos);
        self.tt.new_search();
        let left = i32::from(pos.tricks_left());
        let start = self.node;
        let player = self.player();
        let legal = self.legal_now(player);
        let mut out = Vec::with_capacity(legal.count_ones() as usize);
        let mut values: Vec<(u8, i32)> = Vec::new();
        let first_guess = guess(pos, left);
        let mut rest = legal;
        while rest != 0 {
            let c = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let rep = self.representative(player, c);
            let v = if let Some(&(_, v)) = values.iter().find(|(r, _)| *r == rep) {
                v
            } else {
                let gained = self.play(c);
                let rest_left = if self.node.len == 0 { left - 1 } else { left };
                // Siblings often share a value: the last one is the first guess.
                let prior = values.last().map(|&(_, v)| v).or(first_guess);
                let v = gained + self.exact(0, rest_left, prior.map(|g| g - gained));
                self.node = start;
                if self.aborted {
                    return None;
                }
                values.push((rep, v));
                v
            };
            out.push((Card::from_index(c), v as u8));
        }
        Some(out)
    }

    /// The exact value by null-window probes between `lo` and `hi`: a binary search, or
    /// with a first guess, probes that step from the guess towards the value (MTD(f)).
    fn exact(&mut self, mut lo: i32, mut hi: i32, guess: Option<i32>) -> i32 {
        let mut guess = guess;
        while lo < hi && !self.aborted {
            let mid = guess.map_or((lo + hi + 1) / 2, |g| g.clamp(lo + 1, hi));
            let v = self.search(mid - 1, mid);
            if v >= mid {
                lo = v;
                guess = guess.map(|_| lo + 1);
            } else {
                hi = v;
                guess = guess.map(|_| hi);
            }
        }
        lo
    }
}
