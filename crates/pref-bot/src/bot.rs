//! The bot player: a seat's events in, one legal action out.
//!
//! The bot sees exactly what its seat sees: it is fed the seat's [`ViewEvent`]s and is asked
//! for an action with the seat's [`DealView`] and legal actions. At the normal and strong
//! levels every decision is a sampling evaluation: deal the unseen cards at random in a way
//! consistent with what the seat has seen, solve each layout with the open-hand [`Solver`],
//! price the result by the table's own profile through the core's scoring
//! ([`crate::score`]) and take the action best on average. Layouts respect every void a
//! seat has shown and are redrawn until every hidden hand fits its seat's calls
//! (`infer.rs`). The easy level uses rules of thumb only (`heuristic.rs`). The auction and
//! the declarer's choices are in `bidding.rs`, the defenders' in `defence.rs`.

use std::time::{Duration, Instant};

use pref_core::view::DealKind;
use pref_core::{
    Action, ActionList, Card, CardSet, Deal, DealView, Profile, Seat, Stage, ViewEvent,
};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::heuristic::{self, Want};
use crate::infer;
use crate::open;
use crate::sample::{self, Pile};
use crate::score::{Prices, Whists};
use crate::seen::Seen;
use crate::solver::Solver;
use crate::tables;

mod claim;

pub use crate::budget::Budget;

/// How hard a bot thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Rules of thumb, no search.
    Easy,
    /// Sampling with few layouts.
    Normal,
    /// Sampling with many layouts.
    Strong,
}

impl Level {
    /// Most layouts sampled for one card.
    pub(crate) fn play_samples(self) -> usize {
        match self {
            Level::Easy => 0,
            Level::Normal => 10,
            Level::Strong => 40,
        }
    }

    /// Most layouts sampled for a bidding, discard, contract or whist decision.
    pub(crate) fn contract_samples(self) -> usize {
        match self {
            Level::Easy => 0,
            Level::Normal => 6,
            Level::Strong => 20,
        }
    }
}

/// Time and nodes left for one decision.
pub(crate) struct Clock {
    deadline: Option<Instant>,
}

impl Clock {
    pub(crate) fn out(&self, solver: &Solver, budget: &Budget) -> bool {
        solver.stats().nodes >= budget.nodes || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// A bot in one seat. See the crate docs for how a host drives it.
#[derive(Debug)]
pub struct Bot {
    pub(crate) seat: Seat,
    pub(crate) level: Level,
    pub(crate) rng: SmallRng,
    pub(crate) solver: Solver,
    pub(crate) seen: Seen,
    /// The table's profile: every outcome is priced by it.
    profile: Profile,
    /// The auction evaluation of the current hand, kept for the bot's later calls.
    pub(crate) eval: Option<crate::bidding::HandEval>,
    /// Whether the bot makes claims (it always answers them): off until the host says
    /// every player at the table can answer one.
    claims: bool,
}

impl Bot {
    /// A bot for `seat` at `level` at a table playing `profile`; `seed` fixes its random
    /// choices.
    #[must_use]
    pub fn new(seat: Seat, level: Level, profile: &Profile, seed: u64) -> Bot {
        let bits = match level {
            Level::Easy => 1,
            Level::Normal | Level::Strong => crate::solver::DEFAULT_TT_BITS,
        };
        Bot {
            seat,
            level,
            rng: SmallRng::seed_from_u64(seed ^ u64::from(seat.0).wrapping_mul(0x9E37_79B9)),
            solver: Solver::with_tt_bits(bits),
            seen: Seen::default(),
            profile: profile.clone(),
            eval: None,
            claims: false,
        }
    }

    /// This bot, making claims of its own when `on` (R6.7). Off by default: a host turns it
    /// on where every player at the table can answer a claim. Bots answer claims either way.
    #[must_use]
    pub fn claiming(mut self, on: bool) -> Bot {
        self.claims = on;
        self
    }

    /// Tells the bot how many raspasy deals in a row came just before the current deal
    /// (R8.9's price and R3.3's exit may rise with them). The bot counts them itself from
    /// the deals it sees to the end, as if any other deal ended the series; a host that
    /// seats it in the middle of a pulka, or plays `raspasy_series = "made"` (a failed
    /// deal keeps the count), tells it the game's count after each deal's first event (or,
    /// between deals, the count before the next one).
    pub fn set_raspasy_before(&mut self, deals: u32) {
        self.seen.raspasy_before = deals;
    }

    /// The bot's seat.
    #[must_use]
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The bot's level.
    #[must_use]
    pub fn level(&self) -> Level {
        self.level
    }

    /// Feeds one event of the bot's seat (as projected for that seat), in order.
    pub fn observe(&mut self, event: &ViewEvent) {
        if let ViewEvent::Dealt { .. } = event {
            self.eval = None;
        }
        self.seen.observe(event);
    }

    /// Chooses one of `legal` given the seat's view, within `budget`.
    ///
    /// # Panics
    /// If `legal` is empty: there is nothing to choose from.
    pub fn decide(&mut self, view: &DealView, legal: &ActionList, budget: Budget) -> Action {
        let first = legal
            .get(0)
            .expect("decide needs at least one legal action");
        if legal.len() == 1 && legal.claim().is_none() {
            return first;
        }
        self.solver.reset_stats();
        self.solver.set_node_limit(budget.nodes);
        let clock = Clock {
            deadline: budget.time.map(|t| Instant::now() + t),
        };
        let ctx = Ctx {
            view,
            budget,
            clock,
            prices: Prices {
                profile: self.profile.clone(),
                raspasy_before: self.seen.raspasy_before,
            },
        };
        let action = match view.stage {
            Stage::Auction => self.auction(&ctx, legal),
            Stage::Discard => self.discard(&ctx, legal),
            Stage::Declare => self.declare(&ctx, legal),
            Stage::Whist => self.whist(&ctx, legal),
            Stage::Defence => self.defence(&ctx),
            Stage::Play => self.play_or_claim(&ctx, legal),
            Stage::Finished => first,
        };
        if legal.contains(&action) {
            action
        } else {
            first
        }
    }
}

/// One decision's inputs.
pub(crate) struct Ctx<'a> {
    pub(crate) view: &'a DealView,
    pub(crate) budget: Budget,
    pub(crate) clock: Clock,
    /// How outcomes are priced at this table now.
    pub(crate) prices: Prices,
}

impl<'a> Ctx<'a> {
    /// A decision's inputs for `view` priced by `profile` with no raspasy before, and no
    /// budget (for the tests of pricing alone).
    #[cfg(test)]
    pub(crate) fn priced(view: &'a DealView, profile: &Profile) -> Ctx<'a> {
        Ctx {
            view,
            budget: Budget::nodes(0),
            clock: Clock { deadline: None },
            prices: Prices {
                profile: profile.clone(),
                raspasy_before: 0,
            },
        }
    }

    /// Active seats in seat order: the solver's players 0, 1, 2 (clockwise, R11.1).
    pub(crate) fn active(&self) -> Vec<Seat> {
        let v = self.view;
        (0..v.players)
            .map(Seat)
            .filter(|&s| !(v.players == 4 && s == v.dealer))
            .collect()
    }

    pub(crate) fn player(&self, seat: Seat) -> usize {
        self.active().iter().position(|&s| s == seat).unwrap_or(0)
    }

    pub(crate) fn hand(&self) -> CardSet {
        self.view.hand.unwrap_or(CardSet::EMPTY)
    }
}

/// A hidden pile and whose hand it is (`None`: the discard or the raspasy talon).
pub(crate) type Hidden = (Option<Seat>, Pile);

impl Bot {
    // ----- card play -----

    fn play(&mut self, ctx: &Ctx<'_>, legal: &ActionList) -> Card {
        let cards: CardSet = legal
            .iter()
            .filter_map(|a| match a {
                Action::Play(c) => Some(c),
                _ => None,
            })
            .collect();
        if self.level != Level::Easy {
            if let Some(c) = self.search_play(ctx, cards) {
                return c;
            }
        }
        self.heuristic_play(ctx, cards)
    }

    fn want(&self, view: &DealView, seat: Seat) -> Want {
        match view.kind {
            DealKind::Game | DealKind::Auction => Want::Win,
            DealKind::Misere if view.declarer == Some(seat) => Want::Lose,
            DealKind::Misere => Want::Low,
            DealKind::Raspasy => Want::Lose,
        }
    }

    fn heuristic_play(&self, ctx: &Ctx<'_>, legal: CardSet) -> Card {
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
    fn layout_hand(&self, view: &DealView, piles: &[Hidden], seat: Seat) -> CardSet {
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

    fn search_play(&mut self, ctx: &Ctx<'_>, legal: CardSet) -> Option<Card> {
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
        let mut samples = 0;
        for _ in 0..self.level.play_samples() {
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
            }
            samples += 1;
        }
        if samples == 0 {
            return None;
        }
        let mut best: Option<(Whists, Card)> = None;
        for c in legal.iter() {
            let v = sums[c.index() as usize];
            // Ties go to the lower card: keep the high ones.
            let better = match best {
                None => true,
                Some((bv, bc)) => v > bv || (v == bv && c.rank() < bc.rank()),
            };
            if better {
                best = Some((v, c));
            }
        }
        best.map(|b| b.1)
    }
}

/// Layouts drawn at most to find one that fits the auction.
pub(crate) const AUCTION_TRIES: usize = 30;

/// Plays one deal with a bot in every seat, feeding each its projected events: `budget`
/// gives each decision's budget, `timed` hears how long each decision with a choice took.
/// Used by tests, benches and the duplicate match.
///
/// # Errors
/// A message if a bot chose an action the rules refused (a bug).
pub fn play_deal(
    deal: &mut Deal,
    bots: &mut [Bot],
    budget: impl Fn(&Bot) -> Budget,
    mut timed: impl FnMut(&Bot, Duration),
) -> Result<(), String> {
    let players = deal.players();
    let first = deal.deal_event();
    for b in bots.iter_mut() {
        b.observe(&first.project(pref_core::Viewer::Seat(b.seat()), players));
    }
    while let Some(p) = deal.to_act() {
        let legal = deal.legal_actions_for(p);
        let bot = bots
            .iter_mut()
            .find(|b| b.seat() == p)
            .ok_or_else(|| format!("no bot in {p}"))?;
        let view = deal.view(pref_core::Viewer::Seat(p));
        let started = Instant::now();
        let action = bot.decide(&view, &legal, budget(bot));
        if legal.len() > 1 {
            timed(bot, started.elapsed());
        }
        let events = deal
            .act(p, action)
            .map_err(|e| format!("{p} {action}: {e}"))?;
        for e in &events {
            for b in bots.iter_mut() {
                b.observe(&e.project(pref_core::Viewer::Seat(b.seat()), players));
            }
        }
    }
    Ok(())
}
