//! Explanations for hints: the strong bot's card with the best alternatives it weighed,
//! their sampled values and a short reason code for each, for the practice pages to put
//! into words.
//!
//! The values are the card play's own (`play.rs`): the seat's mean result in whists over
//! the sampled layouts, and the target's mean tricks for the deal. The reason is read from
//! what the seat sees when it plays (its hand, the trick, the cards gone, the voids shown),
//! not from the layouts: it names what the card *does*, in the first of these that fits.

use num_rational::Ratio;
use pref_core::view::DealKind;
use pref_core::{ActionList, Card, CardSet, DealView, Seat, Stage, Suit};

use super::Bot;
use super::budget::Budget;
use super::context::{Clock, Ctx};
use crate::score::{Prices, Whists};

/// What a card does, in a word (the first that fits, in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Following: a trump on a suit the player has none of.
    Ruff,
    /// Following: a card of another suit, neither following nor trumping.
    Discard,
    /// Following: beating the partner's winning card.
    Overtake,
    /// Following: beating the opponents' winning card with the cheapest card that does.
    WinCheaply,
    /// Following: beating the opponents' winning card with a higher card than needed.
    Win,
    /// Following: staying under the opponents' winning card though a card that beats it is
    /// held.
    Duck,
    /// Following: a losing card while a lower card of the suit is held (clearing the way
    /// for the partner's suit, or a misère player's high card gone while it can lose).
    Unblock,
    /// Following: the lowest card of the suit, nothing else to do.
    Follow,
    /// Leading: a suit the declarer has shown he has none of.
    LeadToVoid,
    /// Leading: the highest card still out in its suit.
    Cash,
    /// Leading from another suit while holding a tenace (two cards of a suit with one card
    /// still out between them): it waits for the opponents to lead into it.
    KeepTenace,
    /// Leading: any other lead.
    Lead,
}

/// One card weighed for a hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alternative {
    /// The card.
    pub card: Card,
    /// The seat's mean result in whists over the sampled layouts, by the table's profile.
    pub value: Whists,
    /// The target's (declarer's, or the raspasy player's own) mean tricks for the deal.
    pub tricks: Ratio<u32>,
    /// What the card does.
    pub reason: Reason,
}

/// The strong bot's choice with the alternatives it weighed, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The card the bot plays: `alternatives[0].card`.
    pub choice: Card,
    /// The best cards, the choice first, at most [`Hint::TOP`].
    pub alternatives: Vec<Alternative>,
    /// The layouts solved.
    pub samples: usize,
}

impl Hint {
    /// Alternatives returned at most (the choice included).
    pub const TOP: usize = 3;
}

impl Bot {
    /// The card this bot would play in `view` with its best alternatives, their sampled
    /// values and a reason code each (the hint of the practice pages); `None` outside card
    /// play, for an easy bot, when fewer than two cards are legal or the budget solved no
    /// layout. With a node budget ([`Budget::nodes`]) the choice is the card
    /// [`Bot::decide`] plays in the same state.
    pub fn explain(&mut self, view: &DealView, legal: &ActionList, budget: Budget) -> Option<Hint> {
        let cards = super::play::play_cards(legal);
        if view.stage != Stage::Play || cards.len() < 2 || self.level == super::Level::Easy {
            return None;
        }
        self.solver.reset_stats();
        self.solver.set_node_limit(budget.nodes);
        let ctx = Ctx {
            view,
            budget,
            clock: Clock {
                deadline: budget.time.map(|t| std::time::Instant::now() + t),
            },
            prices: Prices {
                profile: self.profile.clone(),
                raspasy_before: self.seen.raspasy_before,
            },
        };
        let values = self.card_values(&ctx)?;
        let seen = self.situation(view)?;
        let n = values.samples as u32;
        let alternatives: Vec<Alternative> = values
            .ranked(cards)
            .into_iter()
            .take(Hint::TOP)
            .map(|card| Alternative {
                card,
                value: values.sums[card.index() as usize] / values.samples as i64,
                tricks: Ratio::new(values.tricks[card.index() as usize], n),
                reason: seen.reason(card),
            })
            .collect();
        Some(Hint {
            choice: alternatives.first()?.card,
            alternatives,
            samples: values.samples,
        })
    }

    /// What the seat to play sees, for the reasons.
    fn situation(&self, view: &DealView) -> Option<Situation> {
        let turn = view.turn?;
        let hand = view
            .open_hands
            .get(turn.index())
            .copied()
            .flatten()
            .or(view.hand)?;
        let mut gone = self.seen.played;
        for sc in &view.trick {
            gone = gone.with(sc.card);
        }
        let side = |s: Seat| match view.declarer {
            Some(d) => (s == d) == (turn == d),
            None => s == turn,
        };
        let declarer_voids = match (view.kind, view.declarer) {
            (DealKind::Game | DealKind::Misere, Some(d)) if d != turn => {
                self.seen.voids[d.index().min(3)]
            }
            _ => 0,
        };
        Some(Situation {
            hand,
            trick: view
                .trick
                .iter()
                .map(|sc| (sc.card, side(sc.seat)))
                .collect(),
            trump: self.seen.trump.filter(|_| view.kind == DealKind::Game),
            gone,
            declarer_voids,
        })
    }
}

/// What the seat to play sees when it plays.
#[derive(Clone, Debug)]
pub(crate) struct Situation {
    /// The hand it plays from.
    pub(crate) hand: CardSet,
    /// The trick so far, each card with whether it is the player's side's.
    pub(crate) trick: Vec<(Card, bool)>,
    /// Trumps (trick contracts only).
    pub(crate) trump: Option<Suit>,
    /// Cards out of play: played, and in the trick.
    pub(crate) gone: CardSet,
    /// Suits (bit per suit index) the declarer has shown void, for a defender.
    pub(crate) declarer_voids: u8,
}

impl Situation {
    /// A card's strength in the trick: trumps above the suit led above the rest.
    fn strength(&self, c: Card, led: Suit) -> (u8, u8) {
        let class = if Some(c.suit()) == self.trump {
            2
        } else {
            u8::from(c.suit() == led)
        };
        (class, c.rank() as u8)
    }

    /// Whether `c` is the highest card of its suit not yet out of play, the player's own
    /// cards aside.
    fn is_top(&self, c: Card) -> bool {
        let out = CardSet::FULL.minus(self.gone).minus(self.hand);
        out.of_suit(c.suit()).iter().all(|o| o.rank() < c.rank())
    }

    /// Whether the hand holds a tenace in `suit`: two of its cards with exactly one card
    /// between them, that card still out in another hand.
    fn tenace_in(&self, suit: Suit) -> bool {
        let mine: Vec<Card> = self.hand.of_suit(suit).iter().collect();
        let out = CardSet::FULL.minus(self.gone).minus(self.hand);
        mine.iter().any(|&a| {
            mine.iter().any(|&b| {
                b.rank() as u8 == a.rank() as u8 + 2
                    && out
                        .of_suit(suit)
                        .iter()
                        .any(|o| o.rank() as u8 == a.rank() as u8 + 1)
            })
        })
    }

    /// The reason code of playing `card` (see [`Reason`]).
    pub(crate) fn reason(&self, card: Card) -> Reason {
        let Some(&(first, _)) = self.trick.first() else {
            return self.lead_reason(card);
        };
        let led = first.suit();
        if card.suit() != led {
            return if Some(card.suit()) == self.trump {
                Reason::Ruff
            } else {
                Reason::Discard
            };
        }
        let Some(&(top, ours)) = self
            .trick
            .iter()
            .max_by_key(|(c, _)| self.strength(*c, led))
        else {
            return Reason::Follow;
        };
        let beats = |c: Card| self.strength(c, led) > self.strength(top, led);
        let suit: Vec<Card> = self.hand.of_suit(led).iter().collect();
        let lower_held = suit.iter().any(|c| c.rank() < card.rank());
        if beats(card) {
            if ours {
                return Reason::Overtake;
            }
            let cheapest = suit
                .iter()
                .filter(|&&c| beats(c))
                .all(|c| c.rank() >= card.rank());
            return if cheapest {
                Reason::WinCheaply
            } else {
                Reason::Win
            };
        }
        if !ours && suit.iter().any(|&c| beats(c)) {
            return Reason::Duck;
        }
        if lower_held {
            Reason::Unblock
        } else {
            Reason::Follow
        }
    }

    fn lead_reason(&self, card: Card) -> Reason {
        if self.declarer_voids & (1 << card.suit() as u8) != 0 {
            return Reason::LeadToVoid;
        }
        if self.is_top(card) {
            return Reason::Cash;
        }
        let other_tenace = Suit::ALL
            .iter()
            .any(|&s| s != card.suit() && self.tenace_in(s));
        if other_tenace && !self.tenace_in(card.suit()) {
            Reason::KeepTenace
        } else {
            Reason::Lead
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::Level;
    use crate::test_cards::set;
    use pref_core::{Action, Deal, Event, Profile, Viewer};

    fn card(s: &str) -> Card {
        s.parse().expect("card")
    }

    fn following(hand: &str, trick: &[(&str, bool)], trump: Option<Suit>) -> Situation {
        let trick: Vec<(Card, bool)> = trick.iter().map(|&(c, o)| (card(c), o)).collect();
        let gone = trick.iter().map(|t| t.0).collect();
        Situation {
            hand: set(hand),
            trick,
            trump,
            gone,
            declarer_voids: 0,
        }
    }

    /// R6.2, R6.3: a trump on a suit the hand is void in is a ruff, another suit a discard.
    #[test]
    fn r6_2_void_follows_are_ruffs_or_discards() {
        let s = following("7S 8S AD", &[("KH", false)], Some(Suit::Spades));
        assert_eq!(s.reason(card("7S")), Reason::Ruff);
        assert_eq!(s.reason(card("AD")), Reason::Discard);
        let nt = following("7S 8S AD", &[("KH", false)], None);
        assert_eq!(nt.reason(card("7S")), Reason::Discard);
    }

    /// Beating the opponents' card: the cheapest winner, a dearer one, staying under it
    /// while holding a winner (a duck), and beating the partner's card (an overtake).
    #[test]
    fn r6_3_winning_ducking_and_overtaking() {
        let s = following("9H QH AH", &[("TH", false)], None);
        assert_eq!(s.reason(card("QH")), Reason::WinCheaply);
        assert_eq!(s.reason(card("AH")), Reason::Win);
        assert_eq!(s.reason(card("9H")), Reason::Duck);
        let partner = following("9H QH AH", &[("TH", true)], None);
        assert_eq!(partner.reason(card("QH")), Reason::Overtake);
        assert_eq!(partner.reason(card("9H")), Reason::Follow);
        // Under the partner's winner with a higher loser than needed: an unblock.
        let high = following("7H 9H", &[("AH", true)], None);
        assert_eq!(high.reason(card("9H")), Reason::Unblock);
        assert_eq!(high.reason(card("7H")), Reason::Follow);
        // A trump already in the trick: the suit's cards cannot beat it.
        let ruffed = following("QH AH", &[("TH", false), ("7S", false)], Some(Suit::Spades));
        assert_eq!(ruffed.reason(card("QH")), Reason::Follow);
        assert_eq!(ruffed.reason(card("AH")), Reason::Unblock);
    }

    /// Leads: into the declarer's shown void, the top card still out, away from a tenace,
    /// else a plain lead.
    #[test]
    fn leads_name_the_void_the_top_card_and_the_tenace() {
        let s = Situation {
            hand: set("AS QS 7D 8C"),
            trick: Vec::new(),
            trump: None,
            gone: set("AD KD"),
            declarer_voids: 1 << Suit::Clubs as u8,
        };
        assert_eq!(s.reason(card("8C")), Reason::LeadToVoid);
        assert_eq!(s.reason(card("AS")), Reason::Cash);
        // ♦Q, ♦J … are still out above the ♦7: not a top card; the ♠A-Q waits for the ♠K.
        assert_eq!(s.reason(card("7D")), Reason::KeepTenace);
        // With the ♠K gone the ♠A-Q is no tenace, and the ♠Q is a top card too (the ♠A is
        // the player's own).
        let gone_king = Situation {
            gone: set("AD KD KS"),
            ..s.clone()
        };
        assert_eq!(gone_king.reason(card("7D")), Reason::Lead);
        assert_eq!(gone_king.reason(card("QS")), Reason::Cash);
    }

    /// A strong bot's hint at every card-play decision with a choice in a few deals: its
    /// choice is the card a twin bot (same seed, same events seen) plays, its alternatives
    /// are legal, distinct, best first, with mean tricks within 0..=10.
    #[test]
    fn hints_choose_what_the_bot_plays() {
        let profile = Profile::sochi();
        // The table's bots play fast; the hints are checked from trick 5 on with a budget
        // that always solves layouts there (the test runs unoptimised).
        let (play_budget, budget) = (Budget::nodes(20_000), Budget::nodes(200_000));
        let mut checked = 0;
        for seed in 0..4u64 {
            let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(seed);
            let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
            rand::seq::SliceRandom::shuffle(&mut deck[..], &mut rng);
            let mut deal =
                Deal::new(&profile, Seat(2), &deck.try_into().expect("32"), 0).expect("a deal");
            let mut log: Vec<Event> = vec![deal.deal_event()];
            let mut bots: Vec<Bot> = (0..3)
                .map(|s| Bot::new(Seat(s), Level::Strong, &profile, seed))
                .collect();
            for b in &mut bots {
                b.observe(&log[0].project(Viewer::Seat(b.seat()), 3));
            }
            while let Some(p) = deal.to_act() {
                let legal = deal.legal_actions_for(p);
                let view = deal.view(Viewer::Seat(p));
                let done: u8 = view.tricks_taken.iter().sum();
                if view.stage == Stage::Play
                    && done >= 4
                    && legal.len() > 1
                    && legal.claim().is_none()
                {
                    // Two fresh bots of the seat that saw the same events.
                    let twin = || {
                        let mut b = Bot::new(p, Level::Strong, &profile, 99);
                        for e in &log {
                            b.observe(&e.project(Viewer::Seat(p), 3));
                        }
                        b
                    };
                    let hint = twin().explain(&view, &legal, budget).expect("a hint");
                    let played = twin().decide(&view, &legal, budget);
                    assert_eq!(Action::Play(hint.choice), played, "seed {seed}");
                    assert_eq!(hint.alternatives[0].card, hint.choice);
                    assert!(hint.alternatives.len() <= Hint::TOP.min(legal.len()));
                    assert!(hint.samples > 0);
                    for w in hint.alternatives.windows(2) {
                        assert!(w[0].value >= w[1].value && w[0].card != w[1].card);
                    }
                    for a in &hint.alternatives {
                        assert!(legal.contains(&Action::Play(a.card)));
                        assert!(a.tricks <= Ratio::from_integer(10));
                    }
                    checked += 1;
                }
                let bot = &mut bots[p.index()];
                let action = bot.decide(&view, &legal, play_budget);
                let events = deal.act(p, action).expect("a legal action");
                for e in &events {
                    for b in &mut bots {
                        b.observe(&e.project(Viewer::Seat(b.seat()), 3));
                    }
                }
                log.extend(events);
            }
        }
        assert!(checked > 10, "{checked} card decisions checked");
    }

    /// No hint outside card play: the auction's first call.
    #[test]
    fn no_hint_in_the_auction() {
        let profile = Profile::sochi();
        let deck: Vec<Card> = (0..32).map(Card::from_index).collect();
        let deal = Deal::new(&profile, Seat(2), &deck.try_into().expect("32"), 0).expect("a deal");
        let p = deal.to_act().expect("someone bids");
        let mut bot = Bot::new(p, Level::Strong, &profile, 1);
        bot.observe(&deal.deal_event().project(Viewer::Seat(p), 3));
        let legal = deal.legal_actions_for(p);
        assert_eq!(
            bot.explain(&deal.view(Viewer::Seat(p)), &legal, Budget::nodes(10_000)),
            None
        );
    }
}
