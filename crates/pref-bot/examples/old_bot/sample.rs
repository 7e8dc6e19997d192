//! Random layouts of the cards a bot cannot see, consistent with what it has seen.
//!
//! Every hidden place (a seat's hand, the talon, the declarer's discard) is a [`Pile`]: how
//! many cards it holds and which cards it may hold (a seat that failed to follow shows a
//! void; talon cards turned up can only be in the declarer's hand or his discard). Cards
//! are dealt most-constrained first, each to a random pile with room, weighted by the room
//! left; a dead end starts over, and after a few dead ends the constraints other than size
//! are dropped, so a layout always comes out.

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
    for attempt in 0..=TRIES {
        let strict = attempt < TRIES;
        if try_deal(rng, pool, piles, strict) {
            return;
        }
    }
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
}
