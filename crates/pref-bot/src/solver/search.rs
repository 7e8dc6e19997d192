//! The search: fail-soft alpha-beta over the node state, with the transposition table
//! probed at trick starts, the quick-trick and sure-trump bounds, misère's cutoffs
//! (`misere.rs`), and the last two tricks settled by plain minimax.

use super::Solver;
use super::rules::{DEALER, above, highest, next_player, suit_bits, suit_of};
use crate::tt::NO_MOVE;

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

/// `POPCOUNT[a]`: the number of bits of `a` (the target has no popcount instruction).
pub(super) static POPCOUNT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut a = 0;
    while a < 256 {
        t[a] = (a as u8).count_ones() as u8;
        a += 1;
    }
    t
};

/// Search state that changes as cards are played.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub(super) hands: [u32; 3],
    pub(super) trick: [u8; 3],
    pub(super) len: usize,
    pub(super) leader: u8,
    pub(super) trick_no: u8,
    /// The trick in progress's suit to follow and its first card's suit (valid if `len > 0`).
    pub(super) led: u8,
    pub(super) first: u8,
    /// Index in the trick of the card winning it so far, and that card's `card_key`.
    pub(super) win: u8,
    pub(super) win_key: u8,
}

impl Node {
    pub(super) const EMPTY: Node = Node {
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
impl Solver {
    pub(super) fn player(&self) -> u8 {
        next_player(self.node.leader, self.node.len as u8)
    }

    /// The tricks left to play, the one in progress included.
    #[inline]
    pub(super) fn tricks_left_now(&self) -> i32 {
        i32::from(self.end - self.node.trick_no)
    }

    pub(super) fn legal_now(&self, player: u8) -> u32 {
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
    pub(super) fn live(&self) -> u32 {
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

    /// Plays `c` for the player to move; returns 1 if it completed a trick the target won.
    #[inline]
    pub(super) fn play(&mut self, c: u8) -> i32 {
        if self.node.trick_no >= self.rules.plain_from {
            return self.play_plain(c);
        }
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

    /// `play` on a trick of the plain rules (`Rules::plain_from`): the suit of its first
    /// card to follow, no talon card, its winner to lead the next trick.
    #[inline]
    fn play_plain(&mut self, c: u8) -> i32 {
        let n = &mut self.node;
        let p = next_player(n.leader, n.len as u8) as usize;
        n.hands[p] &= !(1 << c);
        let s = suit_of(c);
        let trump = self.rules.trump;
        // `Rules::card_key` with the suit led the first card's.
        let class = |s: u8, led: u8| {
            if s == trump {
                3 << 3
            } else if s == led {
                2 << 3
            } else {
                0
            }
        };
        if n.len == 0 {
            n.trick[0] = c;
            n.led = s;
            n.first = s;
            n.win = 0;
            n.win_key = class(s, s) | (c & 7);
            n.len = 1;
            return 0;
        }
        let k = class(s, n.led);
        let k = if k == 0 { 0 } else { k | (c & 7) };
        if k > n.win_key {
            n.win = n.len as u8;
            n.win_key = k;
        }
        if n.len == 1 {
            n.trick[1] = c;
            n.len = 2;
            return 0;
        }
        let winner = next_player(n.leader, n.win);
        n.trick_no += 1;
        n.leader = winner;
        n.len = 0;
        i32::from(winner == self.rules.target)
    }

    /// The transposition key: for each suit the number of cards still out and, compressed
    /// to those cards (ranks already played squeezed out), which of them players 0 and 1
    /// hold; then the leader and the goal.
    pub(super) fn key(&self) -> u128 {
        let n = &self.node;
        let all = n.hands[0] | n.hands[1] | n.hands[2];
        let mut k: u128 = 0;
        for s in 0..4 {
            let a = (all >> (s * 8)) as u8;
            let row = &COMPRESS[a as usize];
            let h0 = row[(n.hands[0] >> (s * 8)) as u8 as usize];
            let h1 = row[(n.hands[1] >> (s * 8)) as u8 as usize];
            let suit = u32::from(POPCOUNT[a as usize]) << 16 | u32::from(h0) << 8 | u32::from(h1);
            k = k << 20 | u128::from(suit);
        }
        k << 2 | u128::from(n.leader) | self.rules.context(n.trick_no)
    }

    /// Tricks the leader's side is sure to take by cashing top cards: his top trumps, and
    /// when no other player holds a trump (or in no trumps) his top cards in every suit.
    pub(super) fn quick_tricks(&self) -> i32 {
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
    pub(super) fn sure_trumps(&self) -> (i32, i32) {
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

    pub(super) fn search(&mut self, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes > self.limit {
            self.aborted = true;
            return alpha;
        }
        let at_start = self.node.len == 0;
        // The value lies in 0..=tricks left: a window outside that range is decided already.
        let left_now = self.tricks_left_now();
        if left_now <= alpha {
            return left_now;
        }
        if beta <= 0 {
            return 0;
        }
        // Misère play: he loses the trick in progress, so takes at most the others.
        // Or he loses this trick or the next (an exit kept through it).
        if !at_start
            && self.rules.minimise
            && left_now - 1 <= alpha
            && (self.target_loses_trick() || self.target_exits_after_trick())
        {
            return left_now - 1;
        }
        // And the mirror: he wins it, so takes at least one.
        if !at_start && self.rules.minimise && beta <= 1 && self.target_wins_trick() {
            return 1;
        }
        let mut key = 0;
        let mut stored = false;
        let mut hint = None;
        if at_start {
            let left = left_now;
            if left == 0 {
                return 0;
            }
            if left == 1 {
                return self.last_trick();
            }
            if self.rules.minimise {
                if let Some(v) = self.misere_start(left, alpha) {
                    return v;
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
        let mut cut = false;
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
                    cut = true;
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
                    cut = true;
                    break;
                }
                b = b.min(best);
            }
        }
        if stored {
            let left = left_now;
            let (lo, hi) = if best <= alpha {
                (0, best)
            } else if best >= beta {
                (best, left)
            } else {
                (best, best)
            };
            // A lead that cut the search off, or the best inside the window, guides the
            // next search here; a node where every lead failed has none to give.
            let code = if cut || (alpha < best && best < beta) {
                self.encode_move(best_card)
            } else {
                NO_MOVE
            };
            self.tt.store(key, lo as u8, hi as u8, code, left as u8);
        }
        best
    }

    /// The value of the last trick: every hand holds one card, so there is no choice.
    pub(super) fn last_trick(&mut self) -> i32 {
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
    pub(super) fn two_tricks(&mut self, depth: usize) -> i32 {
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
}
