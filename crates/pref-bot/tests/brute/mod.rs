//! A plain minimax written from the rules (R6, R7.2, R7.3, R11.3), as simply as possible,
//! and random endings to hold the solver against it. Shared by the solver's tests and the
//! analysis crate's (`#[path]`-included there), so both check against one brute force.
#![allow(dead_code, unreachable_pub)]

use pref_bot::{Goal, Position};
use pref_core::{Card, CardSet, Suit};
use rand::Rng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

/// The rules written out again, as simply as possible.
pub struct Brute {
    pub goal: Goal,
}

impl Brute {
    pub fn target(&self) -> usize {
        match self.goal {
            Goal::Tricks { declarer, .. } | Goal::Misere { declarer } => declarer,
            Goal::Raspasy { player, .. } => player,
        }
    }

    pub fn trump(&self) -> Option<Suit> {
        match self.goal {
            Goal::Tricks { trump, .. } => trump,
            Goal::Misere { .. } | Goal::Raspasy { .. } => None,
        }
    }

    /// The talon suit ruling trick `n` of raspasy (R7.2).
    pub fn talon_suit(&self, n: u8) -> Option<Suit> {
        match self.goal {
            Goal::Raspasy { talon, .. } if n < 2 => Some(talon[n as usize]),
            _ => None,
        }
    }

    pub fn legal(&self, hand: &[Card], trick: &[Card], n: u8) -> Vec<Card> {
        let led = match (trick.first(), self.talon_suit(n)) {
            (_, Some(x)) => Some(x),
            (Some(c), None) => Some(c.suit()),
            (None, None) => None,
        };
        let Some(led) = led else {
            return hand.to_vec();
        };
        let follow: Vec<Card> = hand.iter().copied().filter(|c| c.suit() == led).collect();
        if !follow.is_empty() {
            return follow;
        }
        if trick.is_empty() {
            return hand.to_vec();
        }
        if let Some(t) = self.trump() {
            let trumps: Vec<Card> = hand.iter().copied().filter(|c| c.suit() == t).collect();
            if !trumps.is_empty() {
                return trumps;
            }
        }
        hand.to_vec()
    }

    /// The four-player dealer's talon card leading trick `n` (R11.3).
    pub fn talon_card(&self, n: u8) -> Option<Card> {
        match self.goal {
            Goal::Raspasy {
                talon_cards: Some(cards),
                ..
            } if n < 2 => Some(cards[n as usize]),
            _ => None,
        }
    }

    /// The index in the trick of the winning card, or `None` if the dealer's talon card
    /// leading it wins.
    pub fn winner(&self, trick: &[Card], n: u8) -> Option<usize> {
        if let Some(t) = self.talon_card(n) {
            // The talon card is one more card of the suit to follow (R11.3).
            let best = (0..3)
                .filter(|&i| trick[i].suit() == t.suit())
                .max_by_key(|&i| trick[i].rank());
            return best.filter(|&i| trick[i].rank() > t.rank());
        }
        let best_of = |s: Suit| {
            (0..3)
                .filter(|&i| trick[i].suit() == s)
                .max_by_key(|&i| trick[i].rank())
        };
        self.trump()
            .and_then(best_of)
            .or_else(|| self.talon_suit(n).and_then(best_of))
            .or_else(|| best_of(trick[0].suit()))
    }

    pub fn next_leader(&self, winner: usize, n: u8) -> usize {
        match self.goal {
            Goal::Raspasy { first_hand, .. } if n < 3 => first_hand,
            _ => winner,
        }
    }

    pub fn maximises(&self, p: usize) -> bool {
        let t = self.target();
        match self.goal {
            Goal::Tricks { .. } => p == t,
            Goal::Misere { .. } | Goal::Raspasy { .. } => p != t,
        }
    }

    pub fn value(
        &self,
        hands: &mut [Vec<Card>; 3],
        leader: usize,
        trick: &mut Vec<Card>,
        n: u8,
    ) -> u8 {
        if trick.len() == 3 {
            let w = self.winner(trick, n).map(|i| (leader + i) % 3);
            let saved = std::mem::take(trick);
            // A trick the dealer's talon card wins is one of tricks 1–2: first hand leads next.
            let next = self.next_leader(w.unwrap_or(leader), n + 1);
            let v = u8::from(w == Some(self.target())) + self.value(hands, next, trick, n + 1);
            *trick = saved;
            return v;
        }
        let p = (leader + trick.len()) % 3;
        if hands[p].is_empty() {
            return 0;
        }
        let mut best: Option<u8> = None;
        for c in self.legal(&hands[p], trick, n) {
            hands[p].retain(|&x| x != c);
            trick.push(c);
            let v = self.value(hands, leader, trick, n);
            trick.pop();
            hands[p].push(c);
            best = Some(match best {
                None => v,
                Some(b) if self.maximises(p) => b.max(v),
                Some(b) => b.min(v),
            });
        }
        best.unwrap()
    }
}

/// The goals `random_position` draws from: all four kinds, trump contracts only, misère
/// only, or four-player raspasy (the dealer's talon cards lead tricks 1–2).
#[derive(Clone, Copy)]
pub enum Goals {
    All,
    Trumps,
    Misere,
    FourRaspasy,
}

pub fn random_position(rng: &mut SmallRng, tricks: usize, goals: Goals) -> Position {
    let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
    deck.shuffle(rng);
    let leader = rng.gen_range(0..3);
    let in_trick = rng.gen_range(0..3usize);
    let mut hands = [CardSet::EMPTY; 3];
    let mut it = deck.into_iter();
    for i in 0..3 {
        let p = (leader + i) % 3;
        let n = if i < in_trick { tricks - 1 } else { tricks };
        hands[p] = it.by_ref().take(n).collect();
    }
    let trick: Vec<Card> = it.by_ref().take(in_trick).collect();
    let suit = |rng: &mut SmallRng| Suit::from_index(rng.gen_range(0..4));
    let kind = match goals {
        Goals::All => rng.gen_range(0..4),
        Goals::Trumps => 1,
        Goals::Misere => 2,
        Goals::FourRaspasy => 4,
    };
    let goal = match kind {
        0 => Goal::Tricks {
            declarer: rng.gen_range(0..3),
            trump: None,
        },
        1 => Goal::Tricks {
            declarer: rng.gen_range(0..3),
            trump: Some(suit(rng)),
        },
        2 => Goal::Misere {
            declarer: rng.gen_range(0..3),
        },
        3 => Goal::Raspasy {
            player: rng.gen_range(0..3),
            first_hand: leader,
            talon: [suit(rng), suit(rng)],
            talon_cards: None,
        },
        _ => {
            let cards = [it.next().unwrap(), it.next().unwrap()];
            Goal::Raspasy {
                player: rng.gen_range(0..3),
                first_hand: leader,
                talon: cards.map(Card::suit),
                talon_cards: Some(cards),
            }
        }
    };
    let tricks_done = match goal {
        Goal::Raspasy { .. } => {
            // Leads of tricks 1–3 are first hand's; later the leader is anyone.
            if in_trick > 0 || rng.gen_bool(0.6) {
                rng.gen_range(0..3)
            } else {
                rng.gen_range(3..6)
            }
        }
        _ => rng.gen_range(0..6),
    };
    let legal_trick = {
        // Keep the trick in progress a legal one: each card must follow the rules.
        let b = Brute { goal };
        let mut ok = true;
        for (i, &c) in trick.iter().enumerate() {
            let p = (leader + i) % 3;
            let mut h: Vec<Card> = hands[p].iter().collect();
            h.push(c);
            ok &= b.legal(&h, &trick[..i], tricks_done).contains(&c);
        }
        ok
    };
    if !legal_trick {
        return random_position(rng, tricks, goals);
    }
    Position {
        hands,
        leader,
        trick,
        tricks_done,
        goal,
    }
}

pub fn brute(pos: &Position) -> u8 {
    let b = Brute { goal: pos.goal };
    let mut hands = pos.hands.map(|h| h.iter().collect::<Vec<_>>());
    let mut trick = pos.trick.clone();
    b.value(&mut hands, pos.leader, &mut trick, pos.tricks_done)
}
