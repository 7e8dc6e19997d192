//! Card play: at the normal and strong levels each legal card is priced over sampled
//! layouts of the hidden cards, each solved open-handed; the easy level and a search that
//! ran out of budget play by rules of thumb.

use pref_core::view::DealKind;
use pref_core::{Action, ActionList, Card, CardSet, DealView, Seat};

use super::Bot;
use super::context::{AUCTION_TRIES, Ctx, Hidden};
use super::level::Level;
use crate::heuristic::{self, Want};
use crate::infer;
use crate::open;
use crate::sample::{self, Pile};
use crate::score::Whists;
use crate::tables;
#[cfg(test)]
use {super::budget::Budget, super::context::Clock, crate::score::Prices};

impl Bot {
    pub(super) fn play(&mut self, ctx: &Ctx<'_>, legal: &ActionList) -> Card {
        let cards = play_cards(legal);
        if self.level != Level::Easy {
            if let Some(c) = self.search_play(ctx, cards) {
                return c;
            }
        }
        self.heuristic_play(ctx, cards)
    }

    pub(super) fn want(&self, view: &DealView, seat: Seat) -> Want {
        match view.kind {
            DealKind::Game | DealKind::Auction => Want::Win,
            DealKind::Misere if view.declarer == Some(seat) => Want::Lose,
            DealKind::Misere => Want::Low,
            DealKind::Raspasy => Want::Lose,
        }
    }

    pub(super) fn heuristic_play(&self, ctx: &Ctx<'_>, legal: CardSet) -> Card {
        let view = ctx.view;
        let turn = view.turn.unwrap_or(self.seat);
        let hand = view
            .open_hands
            .get(turn.index())
            .copied()
            .flatten()
            .or(view.hand);
        let hand = hand.unwrap_or(legal);
        let trump = self.seen.trump;
        let done: u8 = view.tricks_taken.iter().sum();
        let priority = match (view.kind, view.players) {
            (DealKind::Raspasy, 3) if done < 2 => view.talon[done as usize].map(|c| c.suit()),
            _ => None,
        };
        let trick: Vec<Card> = view.trick.iter().map(|sc| sc.card).collect();
        let first_suit = trick.first().map(|c| c.suit());
        let rank_of = |c: Card| -> (u8, u8) {
            let class = if Some(c.suit()) == trump {
                3
            } else if Some(c.suit()) == priority {
                2
            } else if Some(c.suit()) == first_suit {
                1
            } else {
                0
            };
            (class, c.rank() as u8)
        };
        let best = view.trick.iter().max_by_key(|sc| rank_of(sc.card));
        let same_side = |a: Seat, b: Seat| match view.declarer {
            Some(d) => (a == d) == (b == d),
            None => a == b,
        };
        let winning = best.map(|sc| (sc.card, same_side(sc.seat, turn)));
        let beats = |c: Card| best.is_none_or(|b| rank_of(c) > rank_of(b.card) && rank_of(c).0 > 0);
        heuristic::play_card(legal, hand, self.want(view, turn), winning, beats)
    }

    /// Layouts of the hidden cards for card play, or `None` if the view does not add up.
    pub(crate) fn play_piles(&self, ctx: &Ctx<'_>) -> Option<(CardSet, Vec<Hidden>)> {
        let view = ctx.view;
        let active = ctx.active();
        let declarer = view.declarer;
        let contract_deal = matches!(view.kind, DealKind::Game | DealKind::Misere);
        let talon: CardSet = view.talon.iter().flatten().copied().collect();
        let mut dead = self.seen.played;
        for sc in &view.trick {
            dead = dead.with(sc.card);
        }
        if let Some(d) = view.discard {
            dead = dead.or(d);
        }
        if view.kind == DealKind::Raspasy {
            dead = dead.or(talon);
        }
        let mut piles: Vec<Hidden> = Vec::new();
        for &s in &active {
            let known = if s == self.seat {
                view.hand
            } else {
                view.open_hands.get(s.index()).copied().flatten()
            };
            match known {
                Some(h) => dead = dead.or(h),
                None => {
                    let mut allowed = self.seen.possible(s);
                    if contract_deal && declarer != Some(s) {
                        allowed = allowed.minus(talon);
                    }
                    let size = u32::from(*view.hand_sizes.get(s.index())?);
                    piles.push((Some(s), Pile::new(size, allowed)));
                }
            }
        }
        if contract_deal && view.discard.is_none() {
            piles.push((None, Pile::new(2, CardSet::FULL)));
        }
        if view.kind == DealKind::Raspasy {
            let hidden = view.talon.iter().filter(|c| c.is_none()).count() as u32;
            if hidden > 0 {
                piles.push((None, Pile::new(hidden, CardSet::FULL)));
            }
        }
        let pool = CardSet::FULL.minus(dead);
        let total: u32 = piles.iter().map(|p| p.1.size).sum();
        (total == pool.len()).then_some((pool, piles))
    }

    /// Deals the hidden piles for one layout: voids as hard constraints (`sample.rs`), the
    /// auction and the contract as a preference (`infer.rs`, a few redraws).
    pub(crate) fn sample_piles(&mut self, ctx: &Ctx<'_>, pool: CardSet, piles: &mut [Hidden]) {
        let view = ctx.view;
        let mut bare: Vec<Pile> = piles.iter().map(|p| p.1).collect();
        let seen = &self.seen;
        let trump = view.contract.and_then(|c| c.strain().trump());
        let fits = |cards: &[Pile]| {
            piles.iter().zip(cards).all(|(&(seat, _), p)| match seat {
                // A trick declarer keeps his trumps: his discard holds none.
                None => {
                    view.kind != DealKind::Game
                        || trump.is_none_or(|t| p.cards.of_suit(t).is_empty())
                }
                Some(s) => {
                    let dealt = p.cards.or(seen.played_by[s.index().min(3)]);
                    match (view.declarer, view.contract) {
                        (Some(d), Some(c)) if d == s && view.kind == DealKind::Game => {
                            infer::fits_contract(dealt, c)
                        }
                        (Some(d), _) if d == s => true,
                        _ => infer::fits_calls(&seen.calls[s.index().min(3)], dealt),
                    }
                }
            })
        };
        sample::deal_fitting(&mut self.rng, pool, &mut bare, AUCTION_TRIES, fits);
        for (p, b) in piles.iter_mut().zip(&bare) {
            p.1 = *b;
        }
    }

    /// `n` layouts of the hidden piles as card play would sample them (for the tests).
    #[cfg(test)]
    pub(crate) fn layouts(&mut self, view: &DealView, n: usize) -> Vec<Vec<Hidden>> {
        let ctx = Ctx {
            view,
            budget: Budget::nodes(0),
            clock: Clock { deadline: None },
            prices: Prices {
                profile: self.profile.clone(),
                raspasy_before: self.seen.raspasy_before,
            },
        };
        let Some((pool, mut piles)) = self.play_piles(&ctx) else {
            return Vec::new();
        };
        (0..n)
            .map(|_| {
                self.sample_piles(&ctx, pool, &mut piles);
                piles.clone()
            })
            .collect()
    }

    /// Deals the hidden piles for one layout (as [`Bot::sample_piles`]) and returns the
    /// active seats' hands in player order, the hidden ones from the piles.
    pub(crate) fn sample_layout(
        &mut self,
        ctx: &Ctx<'_>,
        pool: CardSet,
        piles: &mut [Hidden],
    ) -> [CardSet; 3] {
        self.sample_piles(ctx, pool, piles);
        let mut hands = [CardSet::EMPTY; 3];
        for (h, &s) in hands.iter_mut().zip(&ctx.active()) {
            *h = self.layout_hand(ctx.view, piles, s);
        }
        hands
    }

    /// `seat`'s hand in a sampled layout: its pile if hidden, else what the view shows.
    pub(super) fn layout_hand(&self, view: &DealView, piles: &[Hidden], seat: Seat) -> CardSet {
        piles
            .iter()
            .find(|p| p.0 == Some(seat))
            .map(|p| p.1.cards)
            .or(if seat == self.seat {
                view.hand
            } else {
                view.open_hands.get(seat.index()).copied().flatten()
            })
            .unwrap_or(CardSet::EMPTY)
    }

    pub(super) fn search_play(&mut self, ctx: &Ctx<'_>, legal: CardSet) -> Option<Card> {
        self.card_values(ctx)?.best(legal)
    }

    /// Every card's value for the seat to play over sampled layouts, each solved open-handed
    /// and priced by the table's profile; `None` if nothing was solved.
    pub(super) fn card_values(&mut self, ctx: &Ctx<'_>) -> Option<CardValues> {
        let view = ctx.view;
        let turn = view.turn?;
        let (pool, mut piles) = self.play_piles(ctx)?;
        let prices = &ctx.prices;
        let target = open::target(view)?;
        let table = match view.kind {
            DealKind::Game => {
                let (d, c) = (view.declarer?, view.contract?);
                let w = tables::whists_array(view);
                tables::table(prices, self.seat, |t| {
                    tables::game_outcome(view, d, c, w, t, true)
                })
            }
            DealKind::Misere => tables::misere_table(prices, view, self.seat, target),
            DealKind::Raspasy => tables::raspasy_table(prices, view, turn),
            DealKind::Auction => return None,
        };
        let taken = *view.tricks_taken.get(target.index())?;
        let mut sums = [Whists::default(); 32];
        let mut tricks = [0u32; 32];
        let mut samples = 0;
        let layouts = if view.kind == DealKind::Raspasy && self.wide_raspasy {
            self.level.raspasy_samples()
        } else {
            self.level.play_samples()
        };
        for _ in 0..layouts {
            if ctx.clock.out(&self.solver, &ctx.budget) {
                break;
            }
            self.sample_piles(ctx, pool, &mut piles);
            let mut hands = [CardSet::EMPTY; 4];
            for (s, h) in hands.iter_mut().enumerate().take(usize::from(view.players)) {
                *h = self.layout_hand(view, &piles, Seat(s as u8));
            }
            let hidden_talon = piles
                .iter()
                .find(|p| p.0.is_none())
                .and_then(|p| p.1.cards.first())
                .filter(|_| view.kind == DealKind::Raspasy);
            let pos = open::position(view, &hands, hidden_talon)?;
            let Some(moves) = self.solver.solve_moves(&pos) else {
                break;
            };
            for (c, v) in moves {
                let t = (taken + v).min(10);
                sums[c.index() as usize] += table[usize::from(t)];
                tricks[c.index() as usize] += u32::from(t);
            }
            samples += 1;
        }
        (samples > 0).then_some(CardValues {
            sums,
            tricks,
            samples,
        })
    }
}

/// The cards among `legal`.
pub(super) fn play_cards(legal: &ActionList) -> CardSet {
    legal
        .iter()
        .filter_map(|a| match a {
            Action::Play(c) => Some(c),
            _ => None,
        })
        .collect()
}

/// Card play's sampled values: per card (by index), the sum over the layouts of the
/// seat's result and of the target's tricks for the deal after it.
pub(super) struct CardValues {
    pub(super) sums: [Whists; 32],
    pub(super) tricks: [u32; 32],
    pub(super) samples: usize,
}

impl CardValues {
    /// The legal cards best first: by value, ties to the lower card (keep the high ones).
    pub(super) fn ranked(&self, legal: CardSet) -> Vec<Card> {
        let mut cards: Vec<Card> = legal.iter().collect();
        cards.sort_by(|a, b| {
            let (va, vb) = (self.sums[a.index() as usize], self.sums[b.index() as usize]);
            vb.cmp(&va).then(a.rank().cmp(&b.rank()))
        });
        cards
    }

    /// The card to play.
    pub(super) fn best(&self, legal: CardSet) -> Option<Card> {
        self.ranked(legal).first().copied()
    }
}

#[cfg(test)]
mod tests {
    use pref_core::{Action, Call, Card, Deal, Profile, Seat, Stage, Viewer};

    use crate::bot::{Bot, Budget, Level};

    /// R7: a deal every seat passes is played as raspasy. From its third trick on a strong
    /// bot prices each card over 100 sampled layouts with the wider raspasy sample and over
    /// the ordinary 40 without it (the default); a normal bot over 10 either way.
    #[test]
    fn r7_raspasy_cards_sample_the_wider_count() {
        let profile = Profile::sochi();
        let deck: Vec<Card> = (0..32)
            .map(|i| Card::from_index((i * 7 + 3) % 32))
            .collect();
        let mut deal =
            Deal::new(&profile, Seat(0), &deck.try_into().expect("32"), 0).expect("a deal");
        let mut log = vec![deal.deal_event()];
        let mut checked = 0;
        while let Some(p) = deal.to_act() {
            let legal = deal.legal_actions_for(p);
            let view = deal.view(Viewer::Seat(p));
            let done: u8 = view.tricks_taken.iter().sum();
            if view.stage == Stage::Play && done >= 2 && legal.len() > 1 {
                let fresh = |level: Level, wide: Option<bool>| {
                    let mut b = Bot::new(p, level, &profile, 5);
                    if let Some(on) = wide {
                        b = b.wide_raspasy(on);
                    }
                    for e in &log {
                        b.observe(&e.project(Viewer::Seat(p), 3));
                    }
                    b
                };
                let budget = Budget::nodes(u64::MAX);
                for (level, wide, want) in [
                    (Level::Strong, Some(true), 100),
                    (Level::Strong, Some(false), 40),
                    (Level::Strong, None, 40),
                    (Level::Normal, Some(true), 10),
                ] {
                    let hint = fresh(level, wide).explain(&view, &legal, budget);
                    assert_eq!(hint.map(|h| h.samples), Some(want), "{level:?} {wide:?}");
                }
                checked += 1;
            }
            let action = if view.stage == Stage::Play {
                legal.iter().next().expect("a card")
            } else {
                assert!(legal.contains(&Action::Bid(Call::Pass)), "{legal:?}");
                Action::Bid(Call::Pass)
            };
            log.extend(deal.act(p, action).expect("a legal action"));
        }
        assert!(checked >= 3, "{checked} raspasy cards checked");
    }
}
