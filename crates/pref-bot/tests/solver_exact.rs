//! The solver against plain brute force: thousands of random endings of one to five
//! tricks (seeded loops), trick contracts, misère and raspasy's first tricks with three and
//! four players (R6, R7.2, R7.3, R11.3), with and without a trick in progress; every card's
//! value from `solve_moves` too.
#![allow(missing_docs)]

use pref_bot::{Goal, Position, Solver};
use pref_core::{Card, CardSet, Suit};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// The rules written out again, as simply as possible.
struct Brute {
    goal: Goal,
}

impl Brute {
    fn target(&self) -> usize {
        match self.goal {
            Goal::Tricks { declarer, .. } | Goal::Misere { declarer } => declarer,
            Goal::Raspasy { player, .. } => player,
        }
    }

    fn trump(&self) -> Option<Suit> {
        match self.goal {
            Goal::Tricks { trump, .. } => trump,
            Goal::Misere { .. } | Goal::Raspasy { .. } => None,
        }
    }

    /// The talon suit ruling trick `n` of raspasy (R7.2).
    fn talon_suit(&self, n: u8) -> Option<Suit> {
        match self.goal {
            Goal::Raspasy { talon, .. } if n < 2 => Some(talon[n as usize]),
            _ => None,
        }
    }

    fn legal(&self, hand: &[Card], trick: &[Card], n: u8) -> Vec<Card> {
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
    fn talon_card(&self, n: u8) -> Option<Card> {
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
    fn winner(&self, trick: &[Card], n: u8) -> Option<usize> {
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

    fn next_leader(&self, winner: usize, n: u8) -> usize {
        match self.goal {
            Goal::Raspasy { first_hand, .. } if n < 3 => first_hand,
            _ => winner,
        }
    }

    fn maximises(&self, p: usize) -> bool {
        let t = self.target();
        match self.goal {
            Goal::Tricks { .. } => p == t,
            Goal::Misere { .. } | Goal::Raspasy { .. } => p != t,
        }
    }

    fn value(&self, hands: &mut [Vec<Card>; 3], leader: usize, trick: &mut Vec<Card>, n: u8) -> u8 {
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

/// The goals `random_position` draws from: all four kinds, trump contracts only, or
/// four-player raspasy (the dealer's talon cards lead tricks 1–2).
#[derive(Clone, Copy)]
enum Goals {
    All,
    Trumps,
    FourRaspasy,
}

fn random_position(rng: &mut SmallRng, tricks: usize, goals: Goals) -> Position {
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

fn brute(pos: &Position) -> u8 {
    let b = Brute { goal: pos.goal };
    let mut hands = pos.hands.map(|h| h.iter().collect::<Vec<_>>());
    let mut trick = pos.trick.clone();
    b.value(&mut hands, pos.leader, &mut trick, pos.tricks_done)
}

fn check(seed: u64, count: usize, max_tricks: usize, goals: Goals) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut solver = Solver::with_tt_bits(16);
    for i in 0..count {
        let tricks = rng.gen_range(1..=max_tricks);
        let pos = random_position(&mut rng, tricks, goals);
        pos.validate().unwrap();
        let expected = brute(&pos);
        assert_eq!(solver.solve(&pos), Some(expected), "case {i}: {pos:?}");
        let moves = solver.solve_moves(&pos).unwrap();
        assert_eq!(
            moves.iter().map(|m| m.0).collect::<CardSet>(),
            pos.legal_cards(),
            "case {i}"
        );
        let best = moves.iter().map(|m| m.1);
        let best = if (Brute { goal: pos.goal }).maximises(pos.to_play()) {
            best.max()
        } else {
            best.min()
        };
        assert_eq!(best, Some(expected), "case {i}: moves {moves:?} {pos:?}");
    }
}

#[test]
fn r6_r7_solver_matches_brute_force_up_to_four_tricks() {
    check(1, 3000, 4, Goals::All);
}

#[test]
fn r6_r7_solver_matches_brute_force_on_five_tricks() {
    check(2, 300, 5, Goals::All);
}

/// Four-player raspasy (R11.3): the dealer's talon cards lead tricks 1 and 2 and can win.
#[test]
fn r11_3_solver_matches_brute_force_on_four_player_raspasy() {
    check(6, 2000, 4, Goals::FourRaspasy);
    check(7, 200, 5, Goals::FourRaspasy);
}

/// Trump contracts only: the sure-trump bounds of both sides.
#[test]
fn r6_solver_matches_brute_force_in_trump_contracts() {
    check(4, 2000, 4, Goals::Trumps);
    check(5, 150, 5, Goals::Trumps);
}

#[test]
fn solver_gives_up_when_the_node_limit_runs_out() {
    let mut rng = SmallRng::seed_from_u64(3);
    let pos = random_position(&mut rng, 8, Goals::All);
    let mut solver = Solver::with_tt_bits(10);
    solver.set_node_limit(5);
    assert_eq!(solver.solve(&pos), None);
    solver.set_node_limit(u64::MAX);
    solver.reset_stats();
    assert!(solver.solve(&pos).is_some());
}

/// Two four-player raspasy positions that differ only in the rank of the talon card
/// leading the trick share a rank-compressed table key: one solver must still tell them
/// apart (R11.3: the king of hearts beats the queen led from the talon, not the ace).
#[test]
fn r11_3_talon_card_rank_is_not_taken_from_the_table() {
    let set = |s: &str| {
        s.split(' ')
            .map(|c| c.parse::<Card>().unwrap())
            .collect::<CardSet>()
    };
    let mut solver = Solver::with_tt_bits(10);
    for (talon, expected) in [("QH", 3), ("AH", 2), ("QH", 3)] {
        let talon: Card = talon.parse().unwrap();
        let pos = Position {
            hands: [set("KH AS KS"), set("7H 9S TS"), set("8H JS QS")],
            leader: 0,
            trick: Vec::new(),
            tricks_done: 1,
            goal: Goal::Raspasy {
                player: 0,
                first_hand: 0,
                talon: [Suit::Clubs, Suit::Hearts],
                talon_cards: Some([Card::new(Suit::Clubs, pref_core::Rank::Seven), talon]),
            },
        };
        assert_eq!(brute(&pos), expected, "talon {talon}");
        assert_eq!(solver.solve(&pos), Some(expected), "talon {talon}");
    }
}
