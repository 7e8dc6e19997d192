//! The move order: equivalent cards reduced to one representative, the stored best lead
//! first, then leads by the history heuristic and followers by trick logic.

use super::Solver;
use super::rules::{DEALER, above, highest, next_player, suit_bits, suit_of};
use crate::tt::NO_MOVE;

/// The key of the stored best lead: above every history score (at most 2^24), so it is
/// always tried first (below them, a stored lead that had cut off a search was passed over
/// by one with a long history: misère nodes on 300 deals 9.92 M -> 9.68 M).
const STORED_LEAD: i32 = 1 << 27;

impl Solver {
    /// The top card of the run of `c` in `player`'s hand: cards with no live card of
    /// another player between them are equivalent.
    pub(super) fn representative(&self, player: u8, c: u8) -> u8 {
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

    /// Credits a lead that cut the search off to the history heuristic.
    pub(super) fn cutoff(&mut self, at_start: bool, player: u8, card: u8, left: i32) {
        if at_start {
            self.history[player as usize][card as usize] += (left * left) as u32;
        }
    }

    /// A lead card as (suit, place from the top among the cards left in its suit), so it
    /// survives the rank compression of the key.
    pub(super) fn encode_move(&self, c: u8) -> u8 {
        let all = self.node.hands[0] | self.node.hands[1] | self.node.hands[2];
        let above = all & suit_bits(suit_of(c)) & above(c);
        suit_of(c) << 3 | above.count_ones() as u8
    }

    pub(super) fn decode_move(&self, code: u8) -> Option<u8> {
        if code == NO_MOVE {
            return None;
        }
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
    pub(super) fn ordered_moves(&self, player: u8, hint: Option<u8>) -> Moves {
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
        // Everything but the card is the node's: each key is a base plus a sign times the
        // rank, chosen once here (leads: by history; followers: whether the card beats the
        // trick's top card).
        let lead_sign = if maxim && (!self.rules.minimise || self.rules.raspasy.is_none()) {
            // A misère defence leads high in a tie: its low cards are the ones that force
            // the declarer later.
            1
        } else {
            -1
        };
        // Below every history score (at most 2^24): see `lead_last_cards`.
        let last_cards = if winning.is_none() && misere_play {
            self.lead_last_cards(player)
        } else {
            0
        };
        let history = &self.history[player as usize];
        let follow = winning.map(|(wk, wp)| {
            let friend_wins = self.rules.maximises(wp) == maxim;
            // (base, rank sign) for a card that beats the top card, and for one that does not.
            let (beats, loses) = if self.rules.minimise && player == self.rules.target {
                // Duck under the winner with the highest card that still loses.
                ((-100, -1), (0, 1))
            } else if misere_play && (self.rules.target + 3 - n.leader) % 3 < n.len as u8 {
                // The declarer has played: a defender ducks under him when he wins, else
                // dumps his highest card and keeps his low ones to lead under the
                // declarer later.
                if wp == self.rules.target {
                    ((-100, 1), (0, 1))
                } else {
                    ((0, 1), (0, 1))
                }
            } else if misere_play && friend_wins {
                // A defender second after his partner's lead: the declarer must get under
                // the partner's card, so the defender stays under it too, with his highest
                // card.
                ((-100, -1), (0, 1))
            } else if friend_wins || (self.rules.minimise && wp == self.rules.target) {
                ((0, -1), (0, -1))
            } else {
                ((100, -1), (0, -1))
            };
            (wk, beats, loses)
        });
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
                STORED_LEAD
            } else {
                match follow {
                    None => {
                        let h = history[c as usize].min(1 << 20) as i32;
                        let last = if last_cards & (1 << c) != 0 {
                            -(1 << 26)
                        } else {
                            0
                        };
                        last + 16 * h + lead_sign * rank
                    }
                    Some((wk, beats, loses)) => {
                        let (base, sign) = if self.rules.card_key(c, led, first) > wk {
                            beats
                        } else {
                            loses
                        };
                        base + sign * rank
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
pub(super) struct Moves {
    pub(super) cards: [u8; 10],
    pub(super) len: usize,
}

#[cfg(test)]
mod tests {
    //! The move order computed once per node against the same order computed card by
    //! card (the form it had before): the same cards in the same order at every node of
    //! random play, every goal, with and without a stored best lead.

    use super::super::rules::{DEALER, next_player, suit_bits};
    use super::Solver;
    use crate::{Goal, Position};
    use pref_core::{Card, CardSet, Suit};
    use proptest::prelude::*;
    use rand::rngs::SmallRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    impl Solver {
        /// The key of one card as `ordered_moves` computed it card by card before.
        fn key_card_by_card(&self, player: u8, hint: Option<u8>, c: u8) -> i32 {
            let n = &self.node;
            let rank = i32::from(c & 7);
            if Some(c) == hint {
                return super::STORED_LEAD;
            }
            let maxim = self.rules.maximises(player);
            let minimise = self.rules.minimise;
            let misere_play = minimise && (self.rules.raspasy.is_none() || n.trick_no >= 3);
            if n.len == 0 {
                let h = self.history[player as usize][c as usize].min(1 << 20) as i32;
                let last = if misere_play && self.lead_last_by_card(player, c) {
                    -(1 << 26)
                } else {
                    0
                };
                let high = maxim && (!minimise || self.rules.raspasy.is_none());
                return last + 16 * h + if high { rank } else { -rank };
            }
            let wp = match n.win {
                DEALER => DEALER,
                w => next_player(n.leader, w),
            };
            let beats = self.rules.card_key(c, n.led, n.first) > n.win_key;
            let friend_wins = self.rules.maximises(wp) == maxim;
            let target = self.rules.target;
            if minimise && player == target {
                if beats { -100 - rank } else { rank }
            } else if misere_play && (target + 3 - n.leader) % 3 < n.len as u8 {
                if wp == target {
                    if beats { -100 + rank } else { rank }
                } else {
                    rank
                }
            } else if misere_play && friend_wins {
                if beats { -100 - rank } else { rank }
            } else if friend_wins || (minimise && wp == target) {
                -rank
            } else if beats {
                100 - rank
            } else {
                -rank
            }
        }

        /// `lead_last_cards` card by card, as it was.
        fn lead_last_by_card(&self, player: u8, c: u8) -> bool {
            let n = &self.node;
            let t = self.rules.target;
            let suit = suit_bits(c >> 3);
            if player == t {
                let others =
                    n.hands[next_player(t, 1) as usize] | n.hands[next_player(t, 2) as usize];
                others & suit == 0
            } else {
                n.hands[t as usize] & suit == 0
            }
        }
    }

    fn goal(rng: &mut SmallRng, deck: &[Card]) -> Goal {
        match rng.gen_range(0..4) {
            0 => Goal::Misere {
                declarer: rng.gen_range(0..3),
            },
            1 => Goal::Raspasy {
                player: rng.gen_range(0..3),
                first_hand: rng.gen_range(0..3),
                talon: [deck[30].suit(), deck[31].suit()],
                talon_cards: rng.gen_bool(0.3).then(|| [deck[30], deck[31]]),
            },
            _ => Goal::Tricks {
                declarer: rng.gen_range(0..3),
                trump: rng
                    .gen_bool(0.8)
                    .then(|| Suit::from_index(rng.gen_range(0..4))),
            },
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        #[test]
        fn the_move_order_per_node_is_the_order_card_by_card(seed in any::<u64>()) {
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
            deck.shuffle(&mut rng);
            let hands: [CardSet; 3] =
                std::array::from_fn(|p| deck[p * 10..p * 10 + 10].iter().copied().collect());
            let goal = goal(&mut rng, &deck);
            let leader = match goal {
                Goal::Raspasy { first_hand, .. } => first_hand,
                _ => rng.gen_range(0..3),
            };
            let pos = Position { hands, leader, trick: Vec::new(), tricks_done: 0, goal };
            prop_assume!(pos.validate().is_ok());
            let mut solver = Solver::with_tt_bits(4);
            solver.load(&pos);
            // Some history, as a search leaves it.
            for h in solver.history.iter_mut().flatten() {
                *h = rng.gen_range(0..4) * rng.gen_range(0..2000);
            }
            for _ in 0..29 {
                let player = solver.player();
                let legal = solver.legal_now(player);
                let cards: Vec<u8> = (0..32).filter(|&c| legal & 1 << c != 0).collect();
                let hint = rng.gen_bool(0.5).then(|| cards[rng.gen_range(0..cards.len())]);
                for h in [None, hint] {
                    let new = solver.ordered_moves(player, h);
                    // The top card of each run, by key, ties in card order.
                    let mut old: Vec<u8> = cards
                        .iter()
                        .copied()
                        .filter(|&c| solver.representative(player, c) == c)
                        .collect();
                    old.sort_by_key(|&c| -solver.key_card_by_card(player, h, c));
                    prop_assert_eq!(&new.cards[..new.len], &old[..]);
                }
                solver.play(cards[rng.gen_range(0..cards.len())]);
            }
        }
    }
}
