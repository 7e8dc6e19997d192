//! Random layouts of the cards a bot cannot see, consistent with what it has seen.
//!
//! Every hidden place (a seat's hand, the talon, the declarer's discard) is a [`Pile`]: how
//! many cards it holds and which cards it may hold (a seat that failed to follow shows a
//! void; talon cards turned up can only be in the declarer's hand or his discard). Cards
//! are dealt most-constrained first, each to a random pile with room, weighted by the room
//! left; a dead end starts over. After a few dead ends an exact assignment is searched
//! (augmenting paths, as in bipartite matching), so whenever the constraints can be met
//! they are: a shown void is never broken. Only constraints that no layout meets (a view
//! that does not add up) are dropped, so a layout always comes out.
//!
//! What the auction says about a hand is not a hard fact, so it is not a pile constraint:
//! [`deal_fitting`] redraws a layout a few times until it fits a caller's test.

use pref_core::CardSet;
use rand::Rng;

/// A hidden place to fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pile {
    /// Cards it must end with.
    pub(crate) size: u32,
    /// Cards it may hold.
    pub(crate) allowed: CardSet,
    /// The cards dealt to it.
    pub(crate) cards: CardSet,
}

impl Pile {
    pub(crate) fn new(size: u32, allowed: CardSet) -> Pile {
        Pile {
            size,
            allowed,
            cards: CardSet::EMPTY,
        }
    }
}

const TRIES: usize = 24;

/// Deals `pool` into `piles` (whose sizes must add up to the pool's size).
pub(crate) fn deal<R: Rng>(rng: &mut R, pool: CardSet, piles: &mut [Pile]) {
    for _ in 0..TRIES {
        if try_deal(rng, pool, piles, true) {
            return;
        }
    }
    if !exact_deal(rng, pool, piles) {
        try_deal(rng, pool, piles, false);
    }
}

/// Deals up to `tries` layouts until one passes `fits`; keeps the last one otherwise.
/// Returns whether the layout kept fits.
pub(crate) fn deal_fitting<R: Rng>(
    rng: &mut R,
    pool: CardSet,
    piles: &mut [Pile],
    tries: usize,
    fits: impl Fn(&[Pile]) -> bool,
) -> bool {
    for _ in 0..tries {
        deal(rng, pool, piles);
        if fits(piles) {
            return true;
        }
    }
    false
}

/// A layout meeting every constraint, if there is one: cards in random order, each placed
/// through an augmenting path (a card may move a card of its pile to another pile that
/// allows it, and so on).
fn exact_deal<R: Rng>(rng: &mut R, pool: CardSet, piles: &mut [Pile]) -> bool {
    for p in piles.iter_mut() {
        p.cards = CardSet::EMPTY;
    }
    let mut cards: Vec<(u32, pref_core::Card)> =
        pool.iter().map(|c| (rng.r#gen::<u32>(), c)).collect();
    cards.sort_unstable();
    for &(_, c) in &cards {
        let mut visited = vec![false; piles.len()];
        if !place(c, piles, &mut visited) {
            return false;
        }
    }
    true
}

/// Puts `c` in a pile that allows it, moving other cards along an augmenting path.
fn place(c: pref_core::Card, piles: &mut [Pile], visited: &mut [bool]) -> bool {
    for i in 0..piles.len() {
        if visited[i] || !piles[i].allowed.contains(c) {
            continue;
        }
        visited[i] = true;
        if piles[i].cards.len() < piles[i].size {
            piles[i].cards = piles[i].cards.with(c);
            return true;
        }
        // Full: move one of its cards elsewhere to make room.
        let held: Vec<pref_core::Card> = piles[i].cards.iter().collect();
        for m in held {
            piles[i].cards = piles[i].cards.minus(m.bit());
            if place(m, piles, visited) {
                piles[i].cards = piles[i].cards.with(c);
                return true;
            }
            piles[i].cards = piles[i].cards.with(m);
        }
    }
    false
}

fn try_deal<R: Rng>(rng: &mut R, pool: CardSet, piles: &mut [Pile], strict: bool) -> bool {
    for p in piles.iter_mut() {
        p.cards = CardSet::EMPTY;
    }
    let mut cards: Vec<(u32, u32, pref_core::Card)> = pool
        .iter()
        .map(|c| {
            let options = piles
                .iter()
                .filter(|p| !strict || p.allowed.contains(c))
                .count() as u32;
            (options, rng.r#gen::<u32>(), c)
        })
        .collect();
    cards.sort_unstable();
    for &(_, _, c) in &cards {
        let room = |p: &Pile| {
            if (!strict || p.allowed.contains(c)) && p.cards.len() < p.size {
                p.size - p.cards.len()
            } else {
                0
            }
        };
        let total: u32 = piles.iter().map(room).sum();
        if total == 0 {
            return false;
        }
        let mut pick = rng.gen_range(0..total);
        for p in piles.iter_mut() {
            let r = room(p);
            if pick < r {
                p.cards = p.cards.with(c);
                break;
            }
            pick -= r;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use pref_core::Suit;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    #[test]
    fn voids_are_respected_and_sizes_met() {
        let mut rng = SmallRng::seed_from_u64(1);
        let pool = CardSet(0x00FF_FFFF).minus(CardSet(0xF));
        for _ in 0..200 {
            let mut piles = [
                Pile::new(10, CardSet::FULL.minus(Suit::Spades.cards())),
                Pile::new(10, CardSet::FULL),
            ];
            deal(&mut rng, pool, &mut piles);
            assert_eq!(piles[0].cards.len(), 10);
            assert_eq!(piles[1].cards.len(), 10);
            assert!(piles[0].cards.of_suit(Suit::Spades).is_empty());
            assert_eq!(piles[0].cards.or(piles[1].cards), pool);
        }
    }

    /// Tight constraints that the greedy deal rarely meets: three piles where one must take
    /// exactly the cards the others may not. Every layout meets every constraint.
    #[test]
    fn tight_constraints_are_always_met() {
        let mut rng = SmallRng::seed_from_u64(2);
        let spades = Suit::Spades.cards();
        let clubs = Suit::Clubs.cards();
        let pool = spades
            .or(clubs)
            .or(Suit::Hearts.cards())
            .minus(CardSet(0x3));
        for _ in 0..300 {
            let mut piles = [
                Pile::new(8, CardSet::FULL.minus(spades)),
                Pile::new(8, CardSet::FULL.minus(clubs)),
                Pile::new(6, spades.or(clubs)),
            ];
            deal(&mut rng, pool, &mut piles);
            for p in &piles {
                assert_eq!(p.cards.len(), p.size);
                assert_eq!(p.cards.minus(p.allowed), CardSet::EMPTY);
            }
            assert_eq!(piles[0].cards.or(piles[1].cards).or(piles[2].cards), pool);
        }
    }
}
