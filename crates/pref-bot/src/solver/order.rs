//! The move order: equivalent cards reduced to one representative, the stored best lead
//! first, then leads by the history heuristic and followers by trick logic.

use super::Solver;
use super::rules::{DEALER, above, highest, next_player, suit_bits, suit_of};

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
pub(super) struct Moves {
    pub(super) cards: [u8; 10],
    pub(super) len: usize,
}
