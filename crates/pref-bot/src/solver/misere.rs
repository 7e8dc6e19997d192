//! Misère's cutoffs (and raspasy's from trick 4 on, played by the same rules): positions
//! where the target, who minimises his tricks, is sure to take every trick left or none,
//! to win or lose the trick now starting or in progress, or to lose one of the next two
//! tricks or two of the next three through an *exit* (a suit in which another player
//! holds only cards above his lowest), recognised from the hands and the trick alone so
//! the search stops there; and the leads misère play searches last.

use super::Solver;
use super::rules::{above, next_player, suit_bits};
use super::search::POPCOUNT;

/// The trick in progress, for misère's in-trick cutoffs.
struct Trick {
    /// The suit led's cards.
    led: u32,
    /// The card on top of the trick.
    top: u8,
    /// The target's place in the trick (0 leads).
    place: u8,
    /// The target has not played to it yet.
    to_play: bool,
}

impl Solver {
    /// The target's cards and the two others' together, when misère's rules apply: always
    /// in misère, from trick 4 on in raspasy.
    fn target_and_others(&self) -> Option<(u32, u32)> {
        if !self.misere_rules() {
            return None;
        }
        let n = &self.node;
        let t = self.rules.target;
        let others = n.hands[next_player(t, 1) as usize] | n.hands[next_player(t, 2) as usize];
        Some((n.hands[t as usize], others))
    }

    /// Whether misère's rules apply: always in misère, from trick 4 on in raspasy (callers
    /// check that the target minimises).
    fn misere_rules(&self) -> bool {
        self.rules.raspasy.is_none() || self.node.trick_no >= 3
    }

    /// Misère's bounds at a trick start, for a window whose lower end is `alpha`: the
    /// target's count when he takes every trick left (`target_takes_all`) or
    /// none (`target_takes_none`); at most all but two when that is at most `alpha` and he
    /// loses two of the tricks left (`target_loses_two`); or at most all but one when that
    /// is at most `alpha` and he loses the trick now starting (`target_ducks_now`) or this
    /// one or the next (`target_exits_next`).
    pub(super) fn misere_start(&self, left: i32, alpha: i32) -> Option<i32> {
        let (mine, others) = self.target_and_others()?;
        if self.target_takes_all(mine, others) {
            return Some(left);
        }
        if self.target_takes_none(mine, others) {
            return Some(0);
        }
        if left - 2 <= alpha && self.target_loses_two(mine) {
            return Some(left - 2);
        }
        (left - 1 <= alpha && (self.target_ducks_now(mine) || self.target_exits_next(mine)))
            .then_some(left - 1)
    }

    /// Misère, and raspasy once its first three tricks are played, at a trick start with
    /// the target on lead: he is sure to lose two of the tricks left when he holds an exit
    /// to lead now (a suit in which one of the others holds only cards above his lowest,
    /// who must beat it) and a second one kept through this trick and the next:
    ///
    /// - in another suit, held by a player with three cards of it or more, or two if he
    ///   holds the suit led now (he follows it); or
    /// - in the same suit, his second lowest card of it, below all the cards of a player
    ///   holding three of them or more.
    ///
    /// He leads the first and loses this trick; on the next he keeps the second exit's card
    /// (led, its suit loses him that trick), and if he wins it he leads that card, which
    /// the player still holding the suit must beat.
    fn target_loses_two(&self, mine: u32) -> bool {
        let n = &self.node;
        let t = self.rules.target;
        if n.leader != t {
            return false;
        }
        let others = [
            n.hands[next_player(t, 1) as usize],
            n.hands[next_player(t, 2) as usize],
        ];
        let rank_bits = |h: u32, s: u8| (h >> (s * 8)) as u8;
        // Whether `x` is a non-empty set of ranks all above the lowest of `m`.
        let only_above = |x: u8, m: u8| x != 0 && x & (m ^ m.wrapping_sub(1)) == 0;
        (0..4u8).any(|s1| {
            let m1 = rank_bits(mine, s1);
            if m1 == 0 || !others.iter().any(|&h| only_above(rank_bits(h, s1), m1)) {
                return false;
            }
            let second = m1 & (m1 - 1);
            let same_suit = second != 0
                && others.iter().any(|&h| {
                    let x = rank_bits(h, s1);
                    only_above(x, second) && POPCOUNT[x as usize] >= 3
                });
            same_suit
                || (0..4u8).filter(|&s2| s2 != s1).any(|s2| {
                    let m2 = rank_bits(mine, s2);
                    m2 != 0
                        && others.iter().any(|&h| {
                            let x = rank_bits(h, s2);
                            let follows = rank_bits(h, s1) != 0;
                            only_above(x, m2) && POPCOUNT[x as usize] >= 3 - u8::from(follows)
                        })
                })
        })
    }

    /// Misère, and raspasy once its first three tricks are played: every card the target
    /// holds is above all the others' cards of its suit, and he is on lead or the player on
    /// lead holds a card of one of his suits. Whatever the target leads wins (no trumps),
    /// and a lead of his suit makes him win, so he takes every trick left.
    fn target_takes_all(&self, mine: u32, others: u32) -> bool {
        let n = &self.node;
        let t = self.rules.target;
        let mut suits = 0;
        for s in 0..4 {
            let m = mine & suit_bits(s);
            if m != 0 {
                if others & suit_bits(s) & above(m.trailing_zeros() as u8) != 0 {
                    return false;
                }
                suits |= suit_bits(s);
            }
        }
        n.leader == t || n.hands[n.leader as usize] & suits != 0
    }

    /// Misère, and raspasy once its first three tricks are played, at a trick start: the
    /// target takes no trick from here on when
    ///
    /// - in every suit his i-th lowest card is below the others' i-th lowest card, as far
    ///   as both go ("clean"), and
    /// - another player is on lead, or he is and holds a suit of the others' where even his
    ///   second lowest card is below their lowest, his third lowest below their second …
    ///
    /// With another player on lead, whatever they lead and follow with, he plays his
    /// highest card under the trick's top card (void, he discards the top card of a suit),
    /// and every suit is clean again after the trick: the others' cards removed from a suit
    /// only raise their i-th lowest. On lead, he leads his lowest card of that suit: a
    /// player still holding the suit must beat it, and the suit is clean after the trick
    /// whichever of their cards went. So he never wins a trick and takes none.
    fn target_takes_none(&self, mine: u32, others: u32) -> bool {
        let n = &self.node;
        let t = self.rules.target;
        let mut lead = n.leader != t;
        for s in 0..4 {
            let (m, o) = ((mine >> (s * 8)) as u8, (others >> (s * 8)) as u8);
            if !below(m, o) {
                return false;
            }
            lead = lead || (m != 0 && o != 0 && below(m & (m - 1), o));
        }
        lead
    }

    /// Misère, and raspasy once its first three tricks are played, at a trick start: the
    /// target is sure to take the trick now starting when
    ///
    /// - he is on lead, and in every suit he holds each other player is void or holds a card
    ///   below his lowest: whatever he leads, both can play under it (or discard), and
    ///   nobody has to beat it; or
    /// - another player is on lead and, in a suit the target holds, has a card below all
    ///   of the target's, while the third player is void in the suit or holds a card below
    ///   the target's lowest: that lead, with the third player's card under the target's
    ///   lowest (or a discard) whether he plays before or after the target, leaves the
    ///   target only cards that win the trick.
    ///
    /// So he takes at least one trick. Used at the root of `at_least(pos, 1)` only: inside
    /// the search the same test saved nothing (the search finds that trick within a few
    /// nodes) and its cut-offs leave no table entry behind.
    pub(super) fn target_takes_one(&self) -> bool {
        let Some((mine, _)) = self.target_and_others() else {
            return false;
        };
        let n = &self.node;
        let t = self.rules.target;
        let lowest_in = |hand: u32, s: u8| {
            let x = hand & suit_bits(s);
            (x != 0).then(|| x.trailing_zeros())
        };
        if n.leader == t {
            let others = [
                n.hands[next_player(t, 1) as usize],
                n.hands[next_player(t, 2) as usize],
            ];
            return (0..4u8).all(|s| {
                lowest_in(mine, s).is_none_or(|low| {
                    others
                        .iter()
                        .all(|&h| lowest_in(h, s).is_none_or(|l| l < low))
                })
            });
        }
        let leader = n.hands[n.leader as usize];
        let third = n.hands[(3 - n.leader - t) as usize];
        (0..4u8).any(|s| match (lowest_in(mine, s), lowest_in(leader, s)) {
            (Some(low), Some(lead)) => lead < low && lowest_in(third, s).is_none_or(|l| l < low),
            _ => false,
        })
    }

    /// Misère, and raspasy once its first three tricks are played, at a trick start: the
    /// target is sure to lose the trick now starting when
    ///
    /// - he is on lead and holds a suit in which one of the others holds cards only above
    ///   his lowest: he leads that card and that player must beat it; or
    /// - another player is on lead and in every suit that player holds, the target is void,
    ///   or holds a card below the leader's lowest, or the leader's partner holds only
    ///   cards of the suit above the target's lowest: whatever is led, he plays under the
    ///   trick's top card (or discards), or, playing before the partner, his lowest, which
    ///   the partner must beat.
    ///
    /// So he takes at most all the tricks left but one.
    fn target_ducks_now(&self, mine: u32) -> bool {
        let n = &self.node;
        let t = self.rules.target;
        // `trailing_zeros` of an empty suit is 8: above every rank.
        let lowest = |hand: u32, s: u8| ((hand >> (s * 8)) as u8).trailing_zeros();
        if n.leader == t {
            let (e1, e2) = (
                n.hands[next_player(t, 1) as usize],
                n.hands[next_player(t, 2) as usize],
            );
            return (0..4u8).any(|s| {
                let low = lowest(mine, s);
                low < 8 && {
                    let (l1, l2) = (lowest(e1, s), lowest(e2, s));
                    (l1 < 8 && l1 > low) || (l2 < 8 && l2 > low)
                }
            });
        }
        let leader = n.hands[n.leader as usize];
        // When the leader's partner holds only cards above his lowest, he loses too: he
        // plays under the partner's card, or his lowest before it.
        let partner = n.hands[(3 - n.leader - t) as usize];
        (0..4u8).all(|s| {
            let low = lowest(mine, s);
            let p = lowest(partner, s);
            low == 8 || low < lowest(leader, s) || (p < 8 && low < p)
        })
    }

    /// Misère, and raspasy once its first three tricks are played, at a trick start with
    /// another player on lead: the target is sure to lose this trick or the next when he
    /// holds an *exit*, a suit in which one of the others holds only cards above his
    /// lowest and still holds one after this trick:
    ///
    /// - that player is the leader (he leads the suit, and the target plays his lowest
    ///   under that player's card, or he leads another and keeps the suit), or
    /// - the leader's partner holds two cards of the suit or more, or holds every other suit
    ///   the leader holds (he follows what is led and keeps the suit).
    ///
    /// The target keeps his lowest card of the suit through the trick (he follows the suit
    /// led, or discards another card; led, the suit loses him this trick). If he wins the
    /// trick he leads that card next, and that player must beat it. So he takes at most
    /// all the tricks left but one.
    fn target_exits_next(&self, mine: u32) -> bool {
        let n = &self.node;
        let t = self.rules.target;
        if n.leader == t {
            return false;
        }
        let leader = n.hands[n.leader as usize];
        let partner = n.hands[(3 - n.leader - t) as usize];
        // The leader's suits the partner cannot follow: a lead of one lets him discard.
        let unfollowed = suits_held(leader) & !suits_held(partner);
        (0..4u8).any(|s| {
            let m = (mine >> (s * 8)) as u8;
            if m == 0 {
                return false;
            }
            // His lowest card of the suit and the ranks under it.
            let up_to_low = m ^ (m - 1);
            let only_above = |h: u32| {
                let x = (h >> (s * 8)) as u8;
                x != 0 && x & up_to_low == 0
            };
            let p = (partner >> (s * 8)) as u8;
            only_above(leader)
                || (only_above(partner) && (p & (p - 1) != 0 || unfollowed & !(1 << s) == 0))
        })
    }

    /// Misère, and raspasy once its first three tricks are played, inside a trick: the
    /// target is sure to lose this trick or the next when he holds an *exit*, a suit in
    /// which one of the others holds only cards above his lowest and still holds one after
    /// this trick (he has played to it, or holds the suit led and it is not the exit suit,
    /// or holds two cards of the exit suit or more), and he keeps his lowest card of it
    /// through the trick: he has played to it, or the suit led is another (he follows it,
    /// or discards another card: he holds more than one, since the others still hold one
    /// after the trick), or he holds two cards of the suit led or more and plays one above
    /// his lowest. If he wins the trick he leads that card next, and that player must beat
    /// it. So he takes at most the tricks left, this one included, but one.
    pub(super) fn target_exits_after_trick(&self) -> bool {
        let Some(trick) = self.misere_trick() else {
            return false;
        };
        let n = &self.node;
        let t = self.rules.target;
        let mut mine = n.hands[t as usize];
        if trick.to_play && (mine & trick.led).count_ones() < 2 {
            mine &= !trick.led;
        }
        let defenders = [next_player(t, 1), next_player(t, 2)].map(|p| {
            let hand = n.hands[p as usize];
            let played = (p + 3 - n.leader) % 3 < n.len as u8;
            (hand, played, hand & trick.led != 0)
        });
        (0..4u8).any(|s| {
            let m = (mine >> (s * 8)) as u8;
            if m == 0 {
                return false;
            }
            let led = trick.led & suit_bits(s) != 0;
            // His lowest card of the suit and the ranks under it.
            let up_to_low = m ^ (m - 1);
            defenders.iter().any(|&(hand, played, follows)| {
                let x = (hand >> (s * 8)) as u8;
                x != 0 && x & up_to_low == 0 && (played || (follows && !led) || x & (x - 1) != 0)
            })
        })
    }

    /// Misère, and raspasy once its first three tricks are played, inside a trick: the
    /// target is sure to lose the trick in progress when
    ///
    /// - he has not played and is void in the suit led, or holds a card of it below the
    ///   trick's top card (he plays under it, or discards; later cards only raise the top),
    ///   or another player still to play holds only cards of the suit above his lowest (he
    ///   plays under that player's card, or his lowest, which that player must beat);
    /// - he has played and his card is not the top (nothing played later makes it so), or
    ///   a player still to play holds cards of the suit led only above the top, so must
    ///   beat it.
    ///
    /// So he takes at most the tricks left, this one included, but one.
    pub(super) fn target_loses_trick(&self) -> bool {
        let Some(trick) = self.misere_trick() else {
            return false;
        };
        let n = &self.node;
        let under = trick.led & !above(trick.top);
        if trick.to_play {
            let mine = n.hands[self.rules.target as usize] & trick.led;
            if mine == 0 || mine & under != 0 {
                return true;
            }
            // Another player still to play holds only cards of the suit above his lowest:
            // he plays under that player's card, or his lowest before it.
            let low = !above(mine.trailing_zeros() as u8);
            return self.others_to_play(&trick).any(|h| h != 0 && h & low == 0);
        }
        n.win != trick.place
            || self
                .others_to_play(&trick)
                .any(|h| h != 0 && h & under == 0)
    }

    /// Misère, and raspasy once its first three tricks are played, inside a trick: the
    /// target is sure to win the trick in progress when his card is (or, not played yet,
    /// each of his cards of the suit led would be) above the trick's top card, and each
    /// other player still to play, before or after him, is void in the suit led or holds a
    /// card of it below that card (the lowest of his, not played yet): each plays under
    /// it, or discards.
    pub(super) fn target_wins_trick(&self) -> bool {
        let Some(trick) = self.misere_trick() else {
            return false;
        };
        let n = &self.node;
        let card = if trick.to_play {
            let mine = n.hands[self.rules.target as usize] & trick.led;
            if mine == 0 || mine & !above(trick.top) != 0 {
                return false;
            }
            mine.trailing_zeros() as u8
        } else if n.win == trick.place {
            trick.top
        } else {
            return false;
        };
        let under = trick.led & !above(card);
        self.others_to_play(&trick)
            .all(|h| h == 0 || h & under != 0)
    }

    /// The trick in progress as misère's in-trick cutoffs read it, when misère's rules
    /// apply.
    fn misere_trick(&self) -> Option<Trick> {
        if !self.misere_rules() {
            return None;
        }
        let n = &self.node;
        let place = (self.rules.target + 3 - n.leader) % 3;
        Some(Trick {
            led: suit_bits(n.led),
            top: n.trick[n.win as usize],
            place,
            to_play: place >= n.len as u8,
        })
    }

    /// The cards of the suit led held by each player still to play in `trick` but the
    /// target.
    fn others_to_play(&self, trick: &Trick) -> impl Iterator<Item = u32> + '_ {
        let (n, led, place) = (&self.node, trick.led, trick.place);
        (n.len as u8..3)
            .filter(move |&i| i != place)
            .map(move |i| n.hands[next_player(n.leader, i) as usize] & led)
    }

    /// Misère play, at a trick start: the cards whose leads are searched after all
    /// others, whatever their history. A defender's lead in a suit the target has none of cannot make him win
    /// this trick (he discards under it), and the target's lead in a suit neither other
    /// player holds wins it for him. Either can still be the best lead, so it is searched,
    /// only last: on 400 random full deals misère nodes median 39.6 k → 33.8 k.
    pub(super) fn lead_last_cards(&self, player: u8) -> u32 {
        let n = &self.node;
        let t = self.rules.target;
        // The hand whose void suits make a lead "last": the others' for the target, the
        // target's for a defender.
        let watched = if player == t {
            n.hands[next_player(t, 1) as usize] | n.hands[next_player(t, 2) as usize]
        } else {
            n.hands[t as usize]
        };
        (0..4).fold(0, |acc, s| {
            if watched & suit_bits(s) == 0 {
                acc | suit_bits(s)
            } else {
                acc
            }
        })
    }
}

/// The suits `hand` holds, as bits 0..4.
fn suits_held(hand: u32) -> u8 {
    (0..4).fold(0, |acc, s| {
        if hand & suit_bits(s) != 0 {
            acc | 1 << s
        } else {
            acc
        }
    })
}

/// Whether, in one suit's ranks, the i-th lowest card of `mine` is below the i-th lowest
/// of `others` for every i both reach.
fn below(mut mine: u8, mut others: u8) -> bool {
    while mine != 0 && others != 0 {
        if mine.trailing_zeros() > others.trailing_zeros() {
            return false;
        }
        mine &= mine - 1;
        others &= others - 1;
    }
    true
}
