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
//! every trick left or none (see `docs/bots.md` for the measurements behind each).

use std::fmt;

use pref_core::{Card, CardSet, Suit};

use crate::tt::Table;

mod misere;

/// What is being played, and whose tricks are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// A trick contract: the declarer's tricks, declarer maximising (R6).
    Tricks {
        /// The declarer's player index.
        declarer: usize,
        /// The trump suit; `None` for no trumps.
        trump: Option<Suit>,
    },
    /// Misère (R6.4, R6.5): the declarer's tricks, the defence maximising.
    Misere {
        /// The declarer's player index.
        declarer: usize,
    },
    /// Raspasy (R7) seen from one player, who minimises his own tricks while the others
    /// maximise them (paranoid).
    Raspasy {
        /// The player whose tricks are counted.
        player: usize,
        /// First hand's player index: he leads tricks 1 to 3 (R7.2, R7.3).
        first_hand: usize,
        /// The suits of the two turned talon cards: the suits of tricks 1 and 2 (R7.2).
        talon: [Suit; 2],
        /// Four players (R11.3): the two talon cards themselves, which belong to the
        /// sitting-out dealer, lead tricks 1 and 2 and win them unless a player beats them
        /// in their suit (first hand plays first after them). Their suits are `talon`'s.
        /// `None` with three players (R7.2).
        talon_cards: Option<[Card; 2]>,
    },
}

/// A position to solve: hands, the trick in progress, and the goal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The cards each player holds now, by player index.
    pub hands: [CardSet; 3],
    /// Who led (or leads) the current trick.
    pub leader: usize,
    /// Cards already played to the current trick, in order from the leader (0 to 2).
    pub trick: Vec<Card>,
    /// Tricks completed in this deal (only raspasy's first three tricks depend on it).
    pub tricks_done: u8,
    /// What is being played.
    pub goal: Goal,
}

/// Why a [`Position`] cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A player index is not 0, 1 or 2.
    NoSuchPlayer(usize),
    /// A card is in two places.
    CardTwice(Card),
    /// The hands do not fit the trick: players still to play must hold one card more than
    /// those who have played.
    HandSizes,
    /// A trick holds three cards or more: it is complete, not in progress.
    TrickFull,
    /// Four-player raspasy: a talon card's suit is not the talon suit given for its trick.
    TalonSuit(Card),
    /// The card is not one the player to move may play ([`Position::legal_cards`]).
    IllegalCard(Card),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::NoSuchPlayer(p) => write!(f, "there is no player {p}"),
            PositionError::CardTwice(c) => write!(f, "card {c} is in two places"),
            PositionError::HandSizes => f.write_str("hand sizes do not fit the trick"),
            PositionError::TrickFull => f.write_str("the trick in progress is complete"),
            PositionError::TalonSuit(c) => write!(f, "talon card {c} is not of its trick's suit"),
            PositionError::IllegalCard(c) => write!(f, "{c} may not be played here"),
        }
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// The player whose tricks the value counts.
    #[must_use]
    pub fn target(&self) -> usize {
        match self.goal {
            Goal::Tricks { declarer, .. } | Goal::Misere { declarer } => declarer,
            Goal::Raspasy { player, .. } => player,
        }
    }

    /// The player to play next.
    #[must_use]
    pub fn to_play(&self) -> usize {
        (self.leader + self.trick.len()) % 3
    }

    /// Tricks left to play, the one in progress included.
    #[must_use]
    pub fn tricks_left(&self) -> u8 {
        self.hands[self.leader].len() as u8 + u8::from(!self.trick.is_empty())
    }

    /// Checks that the position is well formed.
    ///
    /// # Errors
    /// A [`PositionError`] saying what is wrong.
    pub fn validate(&self) -> Result<(), PositionError> {
        let players = match self.goal {
            Goal::Tricks { declarer, .. } | Goal::Misere { declarer } => [declarer, 0],
            Goal::Raspasy {
                player, first_hand, ..
            } => [player, first_hand],
        };
        for p in [self.leader, players[0], players[1]] {
            if p >= 3 {
                return Err(PositionError::NoSuchPlayer(p));
            }
        }
        if self.trick.len() >= 3 {
            return Err(PositionError::TrickFull);
        }
        let mut seen = CardSet::EMPTY;
        let talon_cards = match self.goal {
            Goal::Raspasy {
                talon,
                talon_cards: Some(cards),
                ..
            } => {
                for (c, s) in cards.into_iter().zip(talon) {
                    if c.suit() != s {
                        return Err(PositionError::TalonSuit(c));
                    }
                }
                cards.to_vec()
            }
            _ => Vec::new(),
        };
        for c in self
            .hands
            .iter()
            .flat_map(|h| h.iter())
            .chain(self.trick.iter().copied())
            .chain(talon_cards)
        {
            if seen.contains(c) {
                return Err(PositionError::CardTwice(c));
            }
            seen = seen.with(c);
        }
        let base = self.hands[self.leader].len() + u32::from(!self.trick.is_empty());
        for i in 0..3 {
            let p = (self.leader + i) % 3;
            let expected = if i < self.trick.len() { base - 1 } else { base };
            if self.hands[p].len() != expected {
                return Err(PositionError::HandSizes);
            }
        }
        Ok(())
    }

    /// The cards the player to move may play (R6.2, R7.2); `must_overtake` is not modelled.
    #[must_use]
    pub fn legal_cards(&self) -> CardSet {
        let rules = Rules::of(self);
        let mut trick = [0u8; 3];
        for (slot, c) in trick.iter_mut().zip(&self.trick) {
            *slot = c.index();
        }
        CardSet(rules.legal(
            self.hands[self.to_play()].0,
            &trick,
            self.trick.len(),
            self.tricks_done,
        ))
    }

    /// The position after the player to move plays `card`, and the trick's winner if the
    /// card completed it: `Some(Some(player))`, or `Some(None)` when a four-player dealer's
    /// talon card won it (R11.3). The rules are the search's own (R6.3, R7.2, R7.3).
    ///
    /// # Errors
    /// [`PositionError::IllegalCard`] if `card` is not among [`Position::legal_cards`].
    pub fn play(&self, card: Card) -> Result<(Position, Option<Option<usize>>), PositionError> {
        if !self.legal_cards().contains(card) {
            return Err(PositionError::IllegalCard(card));
        }
        let mut next = self.clone();
        let player = self.to_play();
        next.hands[player] = next.hands[player].without(card);
        next.trick.push(card);
        if next.trick.len() < 3 {
            return Ok((next, None));
        }
        let rules = Rules::of(self);
        let trick_no = self.tricks_done;
        let cards: [u8; 3] = std::array::from_fn(|i| next.trick[i].index());
        let w = rules.winning(&cards, 3, trick_no);
        let mut winner = Some((self.leader + w) % 3);
        if let Some(t) = rules.talon_lead(trick_no) {
            // The dealer's talon card is one more card of the suit to follow (R11.3).
            let led = rules.led_suit(cards[0], trick_no);
            let key = |c: u8| rules.card_key(c, led, led);
            if key(t) > key(cards[w]) {
                winner = None;
            }
        }
        next.tricks_done += 1;
        let by = winner.map_or(self.leader as u8, |p| p as u8);
        next.leader = usize::from(rules.next_leader(by, next.tricks_done));
        next.trick.clear();
        Ok((next, Some(winner)))
    }
}

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

/// The goal as the search uses it.
#[derive(Clone, Copy, Debug)]
struct Rules {
    target: u8,
    /// The target minimises (misère, raspasy) instead of maximising.
    minimise: bool,
    /// Trump suit index, or 4.
    trump: u8,
    /// Raspasy: first hand and the talon suits.
    raspasy: Option<(u8, [u8; 2])>,
    /// Four-player raspasy: the talon cards leading tricks 1 and 2 (R11.3).
    talon_cards: Option<[u8; 2]>,
    /// The trump suit's cards (none in no trumps).
    trump_bits: u32,
}

const SUIT_MASK: u32 = 0xFF;

fn suit_of(c: u8) -> u8 {
    c >> 3
}

fn suit_bits(s: u8) -> u32 {
    SUIT_MASK << (s * 8)
}

/// The cards above card index `c` (in any suit; callers mask the suit).
fn above(c: u8) -> u32 {
    u32::MAX.checked_shl(u32::from(c) + 1).unwrap_or(0)
}

fn highest(bits: u32) -> u8 {
    31 - bits.leading_zeros() as u8
}

/// `Node::win` when the four-player dealer's talon card wins the trick (R11.3); also the
/// "player" who then wins it.
const DEALER: u8 = 3;

/// `COMPRESS[a][h]`: the bits of `h` that are in `a`, packed to the bottom in order (a
/// parallel bit extract on one suit's eight ranks).
static COMPRESS: [[u8; 256]; 256] = {
    let mut t = [[0u8; 256]; 256];
    let mut a = 0;
    while a < 256 {
        let mut h = 0;
        while h < 256 {
            let (mut out, mut pos, mut bit) = (0u8, 0, 0);
            while bit < 8 {
                if a & (1 << bit) != 0 {
                    if h & (1 << bit) != 0 {
                        out |= 1 << pos;
                    }
                    pos += 1;
                }
                bit += 1;
            }
            t[a][h] = out;
            h += 1;
        }
        a += 1;
    }
    t
};

/// The player `steps` places clockwise after `player` (`steps` < 3).
#[inline]
fn next_player(player: u8, steps: u8) -> u8 {
    let p = player + steps;
    if p >= 3 { p - 3 } else { p }
}

impl Rules {
    fn of(pos: &Position) -> Rules {
        match pos.goal {
            Goal::Tricks { declarer, trump } => Rules {
                target: declarer as u8,
                minimise: false,
                trump: trump.map_or(4, |s| s as u8),
                raspasy: None,
                talon_cards: None,
                trump_bits: trump.map_or(0, |s| suit_bits(s as u8)),
            },
            Goal::Misere { declarer } => Rules {
                target: declarer as u8,
                minimise: true,
                trump: 4,
                raspasy: None,
                talon_cards: None,
                trump_bits: 0,
            },
            Goal::Raspasy {
                player,
                first_hand,
                talon,
                talon_cards,
            } => Rules {
                target: player as u8,
                minimise: true,
                trump: 4,
                raspasy: Some((first_hand as u8, [talon[0] as u8, talon[1] as u8])),
                talon_cards: talon_cards.map(|t| t.map(Card::index)),
                trump_bits: 0,
            },
        }
    }

    /// The suit that must be followed on trick `trick_no` given its first card (R7.2 makes
    /// it the talon card's suit on raspasy tricks 1 and 2).
    fn led_suit(&self, first: u8, trick_no: u8) -> u8 {
        match self.raspasy {
            Some((_, talon)) if trick_no < 2 => talon[trick_no as usize],
            _ => suit_of(first),
        }
    }

    fn legal(&self, hand: u32, trick: &[u8; 3], len: usize, trick_no: u8) -> u32 {
        if len == 0 {
            if let Some((_, talon)) = self.raspasy
                && trick_no < 2
            {
                let x = hand & suit_bits(talon[trick_no as usize]);
                return if x == 0 { hand } else { x };
            }
            return hand;
        }
        let follow = hand & suit_bits(self.led_suit(trick[0], trick_no));
        if follow != 0 {
            return follow;
        }
        if self.trump < 4 {
            let t = hand & suit_bits(self.trump);
            if t != 0 {
                return t;
            }
        }
        hand
    }

    /// Index in the trick of the card winning it so far (R6.3, R7.2).
    fn winning(&self, trick: &[u8; 3], len: usize, trick_no: u8) -> usize {
        let led = self.led_suit(trick[0], trick_no);
        let first = suit_of(trick[0]);
        let mut best = 0;
        let mut best_key = self.card_key(trick[0], led, first);
        for (i, &c) in trick.iter().enumerate().take(len).skip(1) {
            let k = self.card_key(c, led, first);
            if k > best_key {
                best = i;
                best_key = k;
            }
        }
        best
    }

    /// A card's strength in a trick: trumps above the suit to follow (the talon suit on
    /// raspasy tricks 1–2) above the suit of the first card; other suits never win (key 0
    /// class). Within a class, rank decides.
    fn card_key(&self, c: u8, led: u8, first: u8) -> u8 {
        let s = suit_of(c);
        let class = if s == self.trump {
            3
        } else if s == led {
            2
        } else if s == first {
            1
        } else {
            return 0;
        };
        class << 3 | (c & 7)
    }

    /// The talon card leading trick `trick_no`, if the dealer's card leads it (R11.3).
    fn talon_lead(&self, trick_no: u8) -> Option<u8> {
        match self.talon_cards {
            Some(cards) if trick_no < 2 => Some(cards[trick_no as usize]),
            _ => None,
        }
    }

    /// Who leads trick `trick_no` after `winner` took the one before (R6.1, R7.3).
    fn next_leader(&self, winner: u8, trick_no: u8) -> u8 {
        match self.raspasy {
            Some((first, _)) if trick_no < 3 => first,
            _ => winner,
        }
    }

    fn maximises(&self, player: u8) -> bool {
        (player == self.target) != self.minimise
    }

    /// Context bits of the transposition key (bits 82..96): everything but the cards and
    /// the leader. Misère and raspasy from trick 4 on play by the same rules (the target
    /// minimises, no trumps, the winner leads), so they share entries.
    fn context(&self, trick_no: u8) -> u128 {
        let mode = if self.minimise { 5 } else { self.trump };
        let mut c = u128::from(self.target) | u128::from(mode) << 2;
        if let Some((first, talon)) = self.raspasy
            && trick_no < 3
        {
            c |= 1 << 5 | u128::from(trick_no) << 6 | u128::from(first) << 8;
            c |= u128::from(talon[0]) << 10 | u128::from(talon[1]) << 12;
        }
        c << 82
    }
}

/// Search state that changes as cards are played.
#[derive(Clone, Copy, Debug)]
struct Node {
    hands: [u32; 3],
    trick: [u8; 3],
    len: usize,
    leader: u8,
    trick_no: u8,
    /// The trick in progress's suit to follow and its first card's suit (valid if `len > 0`).
    led: u8,
    first: u8,
    /// Index in the trick of the card winning it so far, and that card's `card_key`.
    win: u8,
    win_key: u8,
}

impl Node {
    const EMPTY: Node = Node {
        hands: [0; 3],
        trick: [0; 3],
        len: 0,
        leader: 0,
        trick_no: 0,
        led: 0,
        first: 0,
        win: 0,
        win_key: 0,
    };
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
    /// History heuristic for leads, by player and card: how often (weighted by tricks
    /// left, squared) the lead cut off a search in this solve.
    history: [[u32; 32]; 3],
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
            },
            node: Node::EMPTY,
            history: [[0; 32]; 3],
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
        // Replay the trick in progress so the incremental winner is set up.
        for (i, c) in pos.trick.iter().enumerate() {
            let p = (pos.leader + i) % 3;
            self.node.hands[p] |= 1 << c.index();
            self.play(c.index());
        }
        self.aborted = false;
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

    fn player(&self) -> u8 {
        next_player(self.node.leader, self.node.len as u8)
    }

    fn legal_now(&self, player: u8) -> u32 {
        let n = &self.node;
        let hand = n.hands[player as usize];
        if n.len == 0 {
            return self.rules.legal(hand, &n.trick, 0, n.trick_no);
        }
        let follow = hand & suit_bits(n.led);
        if follow != 0 {
            return follow;
        }
        let t = hand & self.rules.trump_bits;
        if t != 0 { t } else { hand }
    }

    /// The cards still in play: hands, the trick in progress, and the four-player dealer's
    /// talon cards of this trick and the next (they can still win a trick).
    fn live(&self) -> u32 {
        let n = &self.node;
        let mut live = n.hands[0] | n.hands[1] | n.hands[2];
        for &c in &n.trick[..n.len] {
            live |= 1 << c;
        }
        if let Some(cards) = self.rules.talon_cards {
            for &c in cards.iter().skip(n.trick_no as usize) {
                live |= 1 << c;
            }
        }
        live
    }

    /// The top card of the run of `c` in `player`'s hand: cards with no live card of
    /// another player between them are equivalent.
    fn representative(&self, player: u8, c: u8) -> u8 {
        let live = self.live();
        let mine = self.node.hands[player as usize];
        let suit = suit_bits(suit_of(c));
        let mut card = c;
        loop {
            let above = live & suit & above(card);
            if above == 0 {
                return card;
            }
            let next = above.trailing_zeros() as u8;
            if mine & (1 << next) == 0 {
                return card;
            }
            card = next;
        }
    }

    /// Plays `c` for the player to move; returns 1 if it completed a trick the target won.
    #[inline]
    fn play(&mut self, c: u8) -> i32 {
        let p = self.player() as usize;
        let n = &mut self.node;
        n.hands[p] &= !(1 << c);
        if n.len == 0 {
            // A four-player dealer's talon card leading the trick is in it like a played
            // card, the first (R11.3).
            let talon = self.rules.talon_lead(n.trick_no);
            n.trick[0] = c;
            n.led = self.rules.led_suit(c, n.trick_no);
            n.first = if talon.is_some() { n.led } else { suit_of(c) };
            n.win = 0;
            n.win_key = self.rules.card_key(c, n.led, n.first);
            if let Some(t) = talon {
                let k = self.rules.card_key(t, n.led, n.first);
                if k > n.win_key {
                    n.win = DEALER;
                    n.win_key = k;
                }
            }
            n.len = 1;
            return 0;
        }
        let k = self.rules.card_key(c, n.led, n.first);
        if k > n.win_key {
            n.win = n.len as u8;
            n.win_key = k;
        }
        if n.len == 1 {
            n.trick[1] = c;
            n.len = 2;
            return 0;
        }
        let winner = if n.win == DEALER {
            DEALER
        } else {
            next_player(n.leader, n.win)
        };
        n.trick_no += 1;
        n.leader = self.rules.next_leader(winner, n.trick_no);
        n.len = 0;
        i32::from(winner == self.rules.target)
    }

    /// The transposition key: for each suit the number of cards still out and, compressed
    /// to those cards (ranks already played squeezed out), which of them players 0 and 1
    /// hold; then the leader and the goal.
    fn key(&self) -> u128 {
        let n = &self.node;
        let all = n.hands[0] | n.hands[1] | n.hands[2];
        let mut k: u128 = 0;
        for s in 0..4 {
            let a = (all >> (s * 8)) as u8;
            let row = &COMPRESS[a as usize];
            let h0 = row[(n.hands[0] >> (s * 8)) as u8 as usize];
            let h1 = row[(n.hands[1] >> (s * 8)) as u8 as usize];
            let suit = a.count_ones() << 16 | u32::from(h0) << 8 | u32::from(h1);
            k = k << 20 | u128::from(suit);
        }
        k << 2 | u128::from(n.leader) | self.rules.context(n.trick_no)
    }

    /// Tricks the leader's side is sure to take by cashing top cards: his top trumps, and
    /// when no other player holds a trump (or in no trumps) his top cards in every suit.
    fn quick_tricks(&self) -> i32 {
        let n = &self.node;
        let l = n.leader as usize;
        let all = n.hands[0] | n.hands[1] | n.hands[2];
        let mine = n.hands[l];
        let others = all & !mine;
        let run = |s: u8| -> i32 {
            let mut bits = all & suit_bits(s);
            let mut count = 0;
            while bits != 0 {
                let c = highest(bits);
                if mine & (1 << c) == 0 {
                    break;
                }
                count += 1;
                bits &= !(1 << c);
            }
            count
        };
        let trump = self.rules.trump;
        if trump < 4 && others & suit_bits(trump) != 0 {
            return run(trump);
        }
        (0..4).map(run).sum()
    }

    /// Trump tricks each side takes whoever leads (trick contracts, at a trick start): a
    /// declarer's trump above every defender's trump wins the trick it falls on, and so
    /// does a defender's trump above all the declarer's (or his partner's, still a defence
    /// trick), one trick per card of the same hand. Returns (the declarer's, the defence's).
    fn sure_trumps(&self) -> (i32, i32) {
        let t = self.rules.trump_bits;
        if t == 0 {
            return (0, 0);
        }
        let n = &self.node;
        let d = self.rules.target as usize;
        let (e1, e2) = (
            n.hands[next_player(d as u8, 1) as usize],
            n.hands[next_player(d as u8, 2) as usize],
        );
        let mine = n.hands[d] & t;
        let over = |hand: u32, other: u32| -> i32 {
            let x = if other == 0 {
                hand
            } else {
                hand & above(highest(other))
            };
            x.count_ones() as i32
        };
        let (t1, t2) = (e1 & t, e2 & t);
        let declarer = over(mine, t1 | t2);
        let defence = over(t1, mine).max(over(t2, mine));
        (declarer, defence)
    }

    fn search(&mut self, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes > self.limit {
            self.aborted = true;
            return alpha;
        }
        let at_start = self.node.len == 0;
        // The value lies in 0..=tricks left: a window outside that range is decided already.
        let left_now =
            self.node.hands[self.node.leader as usize].count_ones() as i32 + i32::from(!at_start);
        if left_now <= alpha {
            return left_now;
        }
        if beta <= 0 {
            return 0;
        }
        let mut key = 0;
        let mut stored = false;
        let mut hint = None;
        if at_start {
            let left = self.node.hands[self.node.leader as usize].count_ones() as i32;
            if left == 0 {
                return 0;
            }
            if left == 1 {
                return self.last_trick();
            }
            if self.rules.minimise {
                if self.target_takes_all() {
                    return left;
                }
                if self.target_takes_none() {
                    return 0;
                }
                // Trick contracts settle their two-trick endings faster with their bounds
                // and the search (measured: 5-15% slower with this).
                if left == 2 && self.rules.talon_lead(self.node.trick_no).is_none() {
                    return self.two_tricks(0);
                }
            }
            if !self.rules.minimise {
                let qt = self.quick_tricks().min(left);
                let (mut lower, mut sure_def) = self.sure_trumps();
                if self.node.leader == self.rules.target {
                    lower = lower.max(qt);
                } else {
                    sure_def = sure_def.max(qt);
                }
                if lower >= beta {
                    return lower;
                }
                let upper = left - sure_def.min(left);
                if upper <= alpha {
                    return upper;
                }
            }
            // The rank-compressed key cannot tell a talon card's rank among the live cards:
            // tricks led by one (a few positions near the root) skip the table.
            stored = left > 2 && self.rules.talon_lead(self.node.trick_no).is_none();
            key = if stored { self.key() } else { 0 };
            if let Some(e) = stored.then(|| self.tt.probe(key)).flatten() {
                let (lo, hi) = (i32::from(e.lo()), i32::from(e.hi()));
                if lo >= beta || lo == hi {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                hint = self.decode_move(e.best);
            }
        }
        let player = self.player();
        let maxim = self.rules.maximises(player);
        let moves = self.ordered_moves(player, hint);
        let start = self.node;
        let mut best = if maxim { -1 } else { 99 };
        let mut best_card = moves.cards[0];
        let (mut a, mut b) = (alpha, beta);
        for &c in &moves.cards[..moves.len] {
            let gained = self.play(c);
            let v = gained + self.search(a - gained, b - gained);
            self.node = start;
            if self.aborted {
                return alpha;
            }
            if maxim {
                if v > best {
                    best = v;
                    best_card = c;
                }
                if best >= b {
                    self.cutoff(at_start, player, best_card, left_now);
                    break;
                }
                a = a.max(best);
            } else {
                if v < best {
                    best = v;
                    best_card = c;
                }
                if best <= a {
                    self.cutoff(at_start, player, best_card, left_now);
                    break;
                }
                b = b.min(best);
            }
        }
        let left = self.node.hands[self.node.leader as usize].count_ones() as i32;
        if stored {
            let (lo, hi) = if best <= alpha {
                (0, best)
            } else if best >= beta {
                (best, left)
            } else {
                (best, best)
            };
            let code = self.encode_move(best_card);
            self.tt.store(key, lo as u8, hi as u8, code, left as u8);
        }
        best
    }

    /// Credits a lead that cut the search off to the history heuristic.
    fn cutoff(&mut self, at_start: bool, player: u8, card: u8, left: i32) {
        if at_start {
            self.history[player as usize][card as usize] += (left * left) as u32;
        }
    }

    /// The value of the last trick: every hand holds one card, so there is no choice.
    fn last_trick(&mut self) -> i32 {
        if self.rules.talon_lead(self.node.trick_no).is_some() {
            let start = self.node;
            let mut v = 0;
            for _ in 0..3 {
                let p = self.player() as usize;
                v += self.play(self.node.hands[p].trailing_zeros() as u8);
            }
            self.node = start;
            return v;
        }
        let n = &self.node;
        let mut trick = [0u8; 3];
        for (i, slot) in trick.iter_mut().enumerate() {
            *slot = n.hands[(n.leader as usize + i) % 3].trailing_zeros() as u8;
        }
        let w = self.rules.winning(&trick, 3, n.trick_no);
        i32::from(((n.leader as usize + w) % 3) as u8 == self.rules.target)
    }

    /// The value of the last two tricks by plain minimax over the first of them (at most
    /// eight ways to play it; the last trick is forced), `depth` cards into it: cheaper
    /// than searching them node by node with the table and move order.
    fn two_tricks(&mut self, depth: usize) -> i32 {
        let player = self.player();
        let maxim = self.rules.maximises(player);
        let start = self.node;
        let mut legal = self.legal_now(player);
        let mut best = if maxim { -1 } else { 99 };
        while legal != 0 {
            let c = legal.trailing_zeros() as u8;
            legal &= legal - 1;
            let gained = self.play(c);
            let v = gained
                + if depth == 2 {
                    self.last_trick()
                } else {
                    self.two_tricks(depth + 1)
                };
            self.node = start;
            best = if maxim { best.max(v) } else { best.min(v) };
        }
        best
    }

    /// A lead card as (suit, place from the top among the cards left in its suit), so it
    /// survives the rank compression of the key.
    fn encode_move(&self, c: u8) -> u8 {
        let all = self.node.hands[0] | self.node.hands[1] | self.node.hands[2];
        let above = all & suit_bits(suit_of(c)) & above(c);
        suit_of(c) << 3 | above.count_ones() as u8
    }

    fn decode_move(&self, code: u8) -> Option<u8> {
        let all = self.node.hands[0] | self.node.hands[1] | self.node.hands[2];
        let mut bits = all & suit_bits(code >> 3);
        for _ in 0..(code & 7) {
            if bits == 0 {
                return None;
            }
            bits &= !(1 << highest(bits));
        }
        (bits != 0).then(|| highest(bits))
    }

    /// Representatives of the legal cards, best first by a cheap guess: the stored best
    /// lead, then leads by history (rank breaking ties), followers by trick logic.
    fn ordered_moves(&self, player: u8, hint: Option<u8>) -> Moves {
        let n = &self.node;
        let legal = self.legal_now(player);
        let live = self.live();
        let mine = n.hands[player as usize];
        let mut m = Moves {
            cards: [0; 10],
            len: 0,
        };
        let mut keys = [0i32; 10];
        let (led, first) = (n.led, n.first);
        let winning = (n.len > 0).then(|| {
            let wp = if n.win == DEALER {
                DEALER
            } else {
                next_player(n.leader, n.win)
            };
            (n.win_key, wp)
        });
        let maxim = self.rules.maximises(player);
        // Misère, and raspasy from trick 4 on: the target minimises, the winner leads.
        let misere_play = self.rules.minimise && (self.rules.raspasy.is_none() || n.trick_no >= 3);
        let mut rest = legal;
        while rest != 0 {
            let c = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let above = live & suit_bits(suit_of(c)) & above(c);
            if above != 0 && mine & (1 << above.trailing_zeros()) != 0 {
                continue;
            }
            let rank = i32::from(c & 7);
            let key = if Some(c) == hint {
                1000
            } else {
                match winning {
                    None => {
                        let h = self.history[player as usize][c as usize].min(1 << 20) as i32;
                        // Below every history score (at most 2^24): see `lead_last`.
                        let last = if misere_play && self.lead_last(player, c) {
                            -(1 << 26)
                        } else {
                            0
                        };
                        last + 16 * h
                            // A misère defence leads high in a tie: its low cards are
                            // the ones that force the declarer later.
                            + if maxim && (!self.rules.minimise || self.rules.raspasy.is_none()) {
                                rank
                            } else {
                                -rank
                            }
                    }
                    Some((wk, wp)) => {
                        let beats = self.rules.card_key(c, led, first) > wk;
                        let friend_wins = self.rules.maximises(wp) == maxim;
                        if self.rules.minimise && player == self.rules.target {
                            // Duck under the winner with the highest card that still loses.
                            if beats { -100 - rank } else { rank }
                        } else if misere_play
                            && (self.rules.target + 3 - n.leader) % 3 < n.len as u8
                        {
                            // The declarer has played: a defender ducks under him
                            // when he wins, else dumps his highest card and keeps his low
                            // ones to lead under the declarer later.
                            if wp == self.rules.target {
                                if beats { -100 + rank } else { rank }
                            } else {
                                rank
                            }
                        } else if misere_play && friend_wins {
                            // A defender second after his partner's lead: the
                            // declarer must get under the partner's card, so the defender
                            // stays under it too, with his highest card.
                            if beats { -100 - rank } else { rank }
                        } else if friend_wins || (self.rules.minimise && wp == self.rules.target) {
                            -rank
                        } else if beats {
                            100 - rank
                        } else {
                            -rank
                        }
                    }
                }
            };
            let mut i = m.len;
            while i > 0 && keys[i - 1] < key {
                keys[i] = keys[i - 1];
                m.cards[i] = m.cards[i - 1];
                i -= 1;
            }
            keys[i] = key;
            m.cards[i] = c;
            m.len += 1;
        }
        m
    }
}

/// The ordered moves of one node, without heap allocation.
struct Moves {
    cards: [u8; 10],
    len: usize,
}
