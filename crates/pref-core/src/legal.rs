//! The list of legal actions, without allocating: a card play is a card set, a discard is
//! "any two of these twelve", a declaration is "any contract from this bid up" (to 9NT after
//! nine without talon, R4.6), and the few auction and whist choices fit in ten slots (the
//! most: a first call with `dark_games`, four calls in the light, the same four dark, and the
//! look); a surrender (R4.5) comes last where allowed.
//! Bots and the server ask for it on every move, so it costs a few bytes and no heap. A claim
//! (R6.7) is any split of the tricks left: the list says whether one is allowed
//! ([`ActionList::claim`]) instead of listing them.

use crate::action::Action;
use crate::bid::{Bid, Call};
use crate::card::{Card, CardSet};
use crate::claim::ClaimRoom;

/// Every legal action of one seat at one moment, in a fixed order; claims, when allowed,
/// are described by a [`ClaimRoom`] rather than listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ActionList {
    list: List,
    /// Whether [`Action::Surrender`] follows the list (R4.5).
    surrender: bool,
    /// Which claims are allowed besides the list (R6.7).
    claim: Option<ClaimRoom>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum List {
    /// Up to ten explicit actions (calls, whist decisions, defence choices).
    Few([Action; FEW], u8),
    /// Every pair of cards of this hand (R4.2).
    Discards(CardSet),
    /// Every trick contract from the first bid up to the second (R4.3, R4.6).
    Declarations(Bid, Bid),
    /// Each of these cards (R6.2).
    Cards(CardSet),
}

const FILLER: Action = Action::Bid(Call::Pass);
/// The room of [`List::Few`].
const FEW: usize = 10;

impl ActionList {
    /// No legal action.
    #[must_use]
    pub const fn empty() -> ActionList {
        ActionList::of(List::Few([FILLER; FEW], 0))
    }

    const fn of(list: List) -> ActionList {
        ActionList {
            list,
            surrender: false,
            claim: None,
        }
    }

    /// The same list, followed by a surrender when `allowed` (R4.5).
    pub(crate) const fn with_surrender(mut self, allowed: bool) -> ActionList {
        self.surrender = allowed;
        self
    }

    pub(crate) fn push(&mut self, a: Action) {
        if let List::Few(items, len) = &mut self.list {
            items[*len as usize] = a;
            *len += 1;
        }
    }

    pub(crate) const fn discards(hand: CardSet) -> ActionList {
        ActionList::of(List::Discards(hand))
    }

    pub(crate) const fn declarations(from: Bid, to: Bid) -> ActionList {
        ActionList::of(List::Declarations(from, to))
    }

    pub(crate) const fn cards(cards: CardSet) -> ActionList {
        ActionList::of(List::Cards(cards))
    }

    /// This list with the claims of `room` allowed besides (R6.7).
    pub(crate) const fn with_claim(mut self, room: Option<ClaimRoom>) -> ActionList {
        self.claim = room;
        self
    }

    /// Which claims are allowed now (R6.7), or `None` if this player may not claim.
    #[must_use]
    pub const fn claim(&self) -> Option<ClaimRoom> {
        self.claim
    }

    /// How many listed actions (claims are not listed).
    #[must_use]
    pub fn len(&self) -> usize {
        self.list_len() + usize::from(self.surrender)
    }

    /// How many actions before the surrender.
    fn list_len(&self) -> usize {
        match self.list {
            List::Few(_, n) => n as usize,
            List::Discards(h) => {
                let n = h.len() as usize;
                n * n.saturating_sub(1) / 2
            }
            List::Declarations(from, to) => std::iter::successors(Some(from), |b| b.next_step())
                .take_while(|&b| b <= to)
                .filter(|b| b.contract().is_some())
                .count(),
            List::Cards(c) => c.len() as usize,
        }
    }

    /// Whether no action is listed (a claim may still be allowed: see [`ActionList::claim`]).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`-th action, in the order of [`ActionList::iter`].
    #[must_use]
    pub fn get(&self, i: usize) -> Option<Action> {
        if self.surrender && i == self.list_len() {
            return Some(Action::Surrender);
        }
        match self.list {
            List::Few(items, n) => (i < n as usize).then(|| items[i]),
            List::Cards(c) => nth_card(c, i).map(Action::Play),
            List::Discards(h) => nth_pair(h, i).map(Action::Discard),
            List::Declarations(..) => self.iter().nth(i),
        }
    }

    /// Whether `a` is legal: in the list, or a claim the [`ClaimRoom`] allows.
    #[must_use]
    pub fn contains(&self, a: &Action) -> bool {
        if let Action::Claim(claim) = a {
            return self.claim.is_some_and(|room| room.allows(claim));
        }
        match (self.list, *a) {
            (_, Action::Surrender) => self.surrender,
            (List::Cards(c), Action::Play(card)) => c.contains(card),
            (List::Discards(h), Action::Discard(d)) => d.len() == 2 && d.minus(h).is_empty(),
            (List::Declarations(from, to), Action::Declare(c)) => c.bid() >= from && c.bid() <= to,
            (List::Few(items, n), a) => items[..n as usize].contains(&a),
            (List::Cards(_) | List::Discards(_) | List::Declarations(..), _) => false,
        }
    }

    /// The actions in order.
    #[must_use]
    pub fn iter(&self) -> ActionIter {
        ActionIter {
            list: *self,
            pos: 0,
            rest: self.rest_start(),
            surrender: self.surrender,
        }
    }

    /// The actions as a vector.
    #[must_use]
    pub fn to_vec(&self) -> Vec<Action> {
        self.iter().collect()
    }

    fn rest_start(&self) -> CardSet {
        match self.list {
            List::Discards(h) | List::Cards(h) => h,
            List::Few(..) | List::Declarations(..) => CardSet::EMPTY,
        }
    }
}

/// Reading a list back from its wire form (`pref-protocol`'s `turn.legal` with
/// `turn.claim`), for a program that plays a seat from outside the server.
impl ActionList {
    /// The list whose [`ActionList::to_vec`] is `listed`, with the claims of `claim`
    /// allowed besides; `None` if no list writes so (a shape or an order the server never
    /// sends).
    #[must_use]
    pub fn read(listed: &[Action], claim: Option<ClaimRoom>) -> Option<ActionList> {
        let (surrender, rest) = match listed.split_last() {
            Some((Action::Surrender, rest)) => (true, rest),
            _ => (false, listed),
        };
        let union = |f: fn(&Action) -> Option<CardSet>| {
            rest.iter()
                .try_fold(CardSet::EMPTY, |set, a| f(a).map(|c| set.or(c)))
        };
        let list = if rest.is_empty() {
            ActionList::empty()
        } else if let Some(cards) = union(|a| match a {
            Action::Play(c) => Some(c.bit()),
            _ => None,
        }) {
            ActionList::cards(cards)
        } else if let Some(hand) = union(|a| match a {
            Action::Discard(d) => Some(*d),
            _ => None,
        }) {
            ActionList::discards(hand)
        } else if let (Some(Action::Declare(from)), Some(Action::Declare(to))) =
            (rest.first(), rest.last())
        {
            ActionList::declarations(from.bid(), to.bid())
        } else if rest.len() <= FEW {
            let mut few = ActionList::empty();
            for &a in rest {
                few.push(a);
            }
            few
        } else {
            return None;
        };
        let list = list.with_surrender(surrender).with_claim(claim);
        (list.to_vec() == listed).then_some(list)
    }
}

fn nth_card(c: CardSet, i: usize) -> Option<Card> {
    let mut bits = c.0;
    for _ in 0..i {
        bits &= bits.wrapping_sub(1);
    }
    CardSet(bits).first()
}

/// The `i`-th pair in the order: first card ascending, then its partner ascending.
fn nth_pair(hand: CardSet, mut i: usize) -> Option<CardSet> {
    let mut rest = hand;
    while let Some(a) = rest.first() {
        rest = rest.without(a);
        let n = rest.len() as usize;
        if i < n {
            return nth_card(rest, i).map(|b| a.bit().with(b));
        }
        i -= n;
    }
    None
}

impl IntoIterator for ActionList {
    type Item = Action;
    type IntoIter = ActionIter;
    fn into_iter(self) -> ActionIter {
        self.iter()
    }
}

impl IntoIterator for &ActionList {
    type Item = Action;
    type IntoIter = ActionIter;
    fn into_iter(self) -> ActionIter {
        self.iter()
    }
}

/// Iterates over an [`ActionList`].
#[derive(Clone, Debug)]
pub struct ActionIter {
    list: ActionList,
    pos: usize,
    /// Discards: the cards not yet used as the first of a pair; cards: those not yet yielded.
    rest: CardSet,
    /// Whether the surrender is still to come.
    surrender: bool,
}

impl Iterator for ActionIter {
    type Item = Action;

    fn next(&mut self) -> Option<Action> {
        let next = self.next_of_list();
        if next.is_none() && self.surrender {
            self.surrender = false;
            return Some(Action::Surrender);
        }
        next
    }
}

impl ActionIter {
    fn next_of_list(&mut self) -> Option<Action> {
        match self.list.list {
            List::Few(items, n) => {
                let a = (self.pos < n as usize).then(|| items[self.pos]);
                self.pos += 1;
                a
            }
            List::Cards(_) => {
                let c = self.rest.first()?;
                self.rest = self.rest.without(c);
                Some(Action::Play(c))
            }
            List::Discards(_) => loop {
                // `pos` counts pairs already yielded with the current first card.
                let a = self.rest.first()?;
                let partners = self.rest.without(a);
                if let Some(b) = nth_card(partners, self.pos) {
                    self.pos += 1;
                    return Some(Action::Discard(a.bit().with(b)));
                }
                self.rest = partners;
                self.pos = 0;
            },
            List::Declarations(from, to) => {
                let mut b = Some(from);
                for _ in 0..self.pos {
                    b = b.and_then(Bid::next_step);
                }
                self.pos += 1;
                b.filter(|&b| b <= to)
                    .and_then(Bid::contract)
                    .map(Action::Declare)
            }
        }
    }
}

#[cfg(test)]
mod read_tests {
    use super::*;
    use crate::bid::Call;

    #[test]
    fn every_shape_of_list_reads_back_from_its_wire_form_and_nothing_else_does() {
        let hand: CardSet = (0..12)
            .map(Card::from_index)
            .fold(CardSet::EMPTY, CardSet::with);
        let lowest = Bid::LOWEST;
        let mut few = ActionList::empty();
        few.push(Action::Bid(Call::Pass));
        few.push(Action::Bid(Call::Bid(lowest)));
        let lists = [
            ActionList::empty(),
            ActionList::cards(hand),
            ActionList::discards(hand),
            ActionList::declarations(lowest, Bid::MISERE).with_surrender(true),
            few,
        ];
        for list in lists {
            let listed = list.to_vec();
            let read = ActionList::read(&listed, list.claim()).expect("reads back");
            assert_eq!(read.to_vec(), listed);
            assert!(listed.iter().all(|a| read.contains(a)));
        }
        // A list in another order, or one pair short, is no list the server writes.
        let mut cards = ActionList::cards(hand).to_vec();
        cards.reverse();
        assert_eq!(ActionList::read(&cards, None), None);
        let pairs = ActionList::discards(hand).to_vec();
        assert_eq!(ActionList::read(&pairs[1..], None), None);
    }
}
