//! At the auction: each seat's best contract with the cards as they lay.
//!
//! **Definition.** For each active seat as declarer, with every hand open: he takes the
//! talon as it lay (R4.1) and discards any two of his twelve cards (R4.2); first hand leads
//! (R6.1) and both sides play best (the solver's open-hand values). For each strain his
//! tricks are the most any discard gives; misère makes when some discard lets him take no
//! trick (the defenders' hands open, as R6.5 opens them, and his too). His *best contract*
//! is the highest step of the bidding ladder (R3.1, misère between 8NT and 9♠) that he
//! makes: a trick contract of level L in a strain where he takes at least L tricks, or
//! misère. The auction's lowest level (R3.3) and who could have outbid whom are not part of
//! it: it says what the cards were worth, not what the auction allowed.
//!
//! With `misere_without_talon` (R3.10) the ladder has two more steps, MWT above 9NT and 9WT
//! above it: he plays the ten cards he was dealt, no talon taken and no discard (R4.6). MWT
//! makes when he takes no trick so; 9WT when some strain gives him nine tricks so.

use pref_bot::{Goal, Position, Solver};
use pref_core::{Bid, Card, CardSet, Contract, Deal, Seat, Strain};

/// One seat's best contracts with the cards as dealt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatBest {
    /// The seat.
    pub seat: Seat,
    /// Per strain (♠ ♣ ♦ ♥ NT, [`Strain`] order): the most tricks he takes as declarer,
    /// and a discard that gives them.
    pub strains: [(u8, CardSet); 5],
    /// A discard with which he takes no trick in misère, if there is one.
    pub misere: Option<CardSet>,
    /// With `misere_without_talon` on: what his ten dealt cards make without the talon.
    pub no_talon: Option<NoTalon>,
    /// The highest bid he makes, with its discard (empty for MWT and 9WT, R4.6); `None` if
    /// he makes none (fewer than six tricks in every strain and no clean misère).
    pub best: Option<(Bid, CardSet)>,
}

/// What a seat's ten dealt cards make with no talon taken (R4.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoTalon {
    /// Per strain ([`Strain`] order): the most tricks he takes as declarer.
    pub strains: [u8; 5],
    /// Whether he takes no trick in a misère (MWT, R3.10.1).
    pub misere: bool,
}

impl NoTalon {
    /// The highest no-talon step he makes: MWT when his misère is clean, 9WT when some
    /// strain gives him nine tricks (9WT ranks above MWT).
    #[must_use]
    pub fn best(self) -> Option<Bid> {
        if self.strains.iter().any(|&t| t >= 9) {
            Some(Bid::NINE_NO_TALON)
        } else if self.misere {
            Some(Bid::MISERE_NO_TALON)
        } else {
            None
        }
    }
}

/// The best contracts of every active seat of `deal` (as dealt: no action applied); with
/// `no_talon` (the profile's `misere_without_talon`) MWT and 9WT are steps of the ladder.
#[must_use]
pub fn best_contracts(
    solver: &mut Solver,
    deal: &Deal,
    active: &[Seat],
    no_talon: bool,
) -> Vec<SeatBest> {
    let dealt = deal.dealt_hands();
    let talon = deal.talon();
    let leader = active
        .iter()
        .position(|&s| s == deal.first_hand())
        .expect("first hand is active");
    active
        .iter()
        .enumerate()
        .map(|(d, &seat)| {
            let twelve = dealt[seat.index()].with(talon[0]).with(talon[1]);
            let discards = discards(twelve);
            let position = |discard: CardSet, goal: Goal| Position {
                hands: std::array::from_fn(|i| {
                    if i == d {
                        twelve.minus(discard)
                    } else {
                        dealt[active[i].index()]
                    }
                }),
                leader,
                trick: Vec::new(),
                tricks_done: 0,
                goal,
            };
            let strains: [(u8, CardSet); 5] = std::array::from_fn(|s| {
                let trump = Strain::ALL[s].trump();
                let goal = Goal::Tricks { declarer: d, trump };
                // The likeliest best discards first: a high bar early makes the others'
                // "one trick more?" cheap to refute.
                let mut order = discards.clone();
                order.sort_by(|a, b| {
                    let e = |x: &CardSet| pref_bot::trick_estimate(twelve.minus(*x), trump);
                    e(b).total_cmp(&e(a))
                });
                most_tricks(solver, &order, |x| position(x, goal))
            });
            // The misère discards share one history too, as a strain's do.
            solver.carry_history(true);
            let misere = discards.iter().copied().find(|&x| {
                let clean = solver.at_least(&position(x, Goal::Misere { declarer: d }), 1);
                !clean.expect("the analysis solver has no node limit")
            });
            solver.carry_history(false);
            let no_talon = no_talon.then(|| {
                let ten = |goal: Goal| Position {
                    hands: std::array::from_fn(|i| dealt[active[i].index()]),
                    leader,
                    trick: Vec::new(),
                    tricks_done: 0,
                    goal,
                };
                NoTalon {
                    strains: std::array::from_fn(|s| {
                        let trump = Strain::ALL[s].trump();
                        solver
                            .solve(&ten(Goal::Tricks { declarer: d, trump }))
                            .expect("the analysis solver has no node limit")
                    }),
                    misere: !solver
                        .at_least(&ten(Goal::Misere { declarer: d }), 1)
                        .expect("the analysis solver has no node limit"),
                }
            });
            let mut best = misere.map(|x| (Bid::MISERE, x));
            for (s, &(tricks, x)) in strains.iter().enumerate() {
                let made = Contract::new(tricks.min(10), Strain::ALL[s]);
                if let Some(c) = made
                    && best.is_none_or(|(b, _)| c.bid() > b)
                {
                    best = Some((c.bid(), x));
                }
            }
            if let Some(b) = no_talon.and_then(NoTalon::best)
                && best.is_none_or(|(high, _)| b > high)
            {
                best = Some((b, CardSet::EMPTY));
            }
            SeatBest {
                seat,
                strains,
                misere,
                no_talon,
                best,
            }
        })
        .collect()
}

/// The most tricks over `discards` and the first discard giving them: one exact solve,
/// then for each further discard only the question "one trick more?" (a null-window search),
/// the leads' history carried from each search to the next.
fn most_tricks(
    solver: &mut Solver,
    discards: &[CardSet],
    position: impl Fn(CardSet) -> Position,
) -> (u8, CardSet) {
    // One history for the strain's discards: like positions, like cutoffs.
    solver.carry_history(true);
    let mut best = (0, discards[0]);
    for (i, &x) in discards.iter().enumerate() {
        let pos = position(x);
        let better = i == 0
            || solver
                .at_least(&pos, best.0 + 1)
                .expect("the analysis solver has no node limit");
        if better {
            best = (
                solver
                    .solve(&pos)
                    .expect("the analysis solver has no node limit"),
                x,
            );
        }
        if best.0 == 10 {
            break;
        }
    }
    solver.carry_history(false);
    best
}

/// The discards worth trying from twelve cards: of cards that are equivalent (adjacent
/// ranks of one suit, all in the declarer's hand: every other card is in another hand),
/// discarding the lower ones gives the same value as any others, so only those are kept.
#[must_use]
pub fn discards(twelve: CardSet) -> Vec<CardSet> {
    let cards: Vec<Card> = twelve.iter().collect();
    let mut out = Vec::new();
    for (i, &a) in cards.iter().enumerate() {
        for &b in &cards[i + 1..] {
            let x = CardSet::EMPTY.with(a).with(b);
            if canonical(twelve, x) {
                out.push(x);
            }
        }
    }
    out
}

/// Whether every discarded card is the lowest of its run in `twelve` or has the card just
/// below it discarded too.
fn canonical(twelve: CardSet, discard: CardSet) -> bool {
    discard.iter().all(|c| match below(c) {
        Some(b) => !twelve.contains(b) || discard.contains(b),
        None => true,
    })
}

/// The card one rank below `c` in its suit.
fn below(c: Card) -> Option<Card> {
    let i = c.index();
    (i % 8 != 0)
        .then(|| Card::from_index(i - 1))
        .filter(|b| b.suit() == c.suit())
}
