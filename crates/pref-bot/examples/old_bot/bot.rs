//! The bot player: a seat's events in, one legal action out.
//!
//! The bot sees exactly what its seat sees: it is fed the seat's [`ViewEvent`]s and is asked
//! for an action with the seat's [`DealView`] and legal actions. At the normal and strong
//! levels every decision is a sampling evaluation: deal the unseen cards at random in a way
//! consistent with what the seat has seen, solve each layout with the open-hand [`Solver`],
//! score the result with R8's values ([`super::score`]) and take the action best on
//! average. The easy level uses rules of thumb only ([`super::heuristic`]).

use std::time::{Duration, Instant};

use pref_core::view::DealKind;
use pref_core::{
    Action, ActionList, Bid, Call, Card, CardSet, Contract, Deal, DealView, Defence, Outcome,
    OutcomeKind, Seat, Stage, Strain, Suit, ViewEvent, WhistCall,
};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use super::heuristic::{self, Want};
use super::sample::{self, Pile};
use super::score::deal_result;
use super::seen::Seen;
use pref_bot::solver::{Goal, Position, Solver};

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
    fn play_samples(self) -> usize {
        match self {
            Level::Easy => 0,
            Level::Normal => 10,
            Level::Strong => 40,
        }
    }

    /// Most layouts sampled for a bidding, discard, contract or whist decision.
    fn contract_samples(self) -> usize {
        match self {
            Level::Easy => 0,
            Level::Normal => 6,
            Level::Strong => 20,
        }
    }
}

/// The decision budget: the product's own (a plain value of time and nodes; the old bot
/// only ever reads both limits).
pub use pref_bot::Budget;

/// Time and nodes left for one decision.
struct Clock {
    deadline: Option<Instant>,
}

impl Clock {
    fn out(&self, solver: &Solver, budget: &Budget) -> bool {
        solver.stats().nodes >= budget.nodes || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Estimates of a hand as declarer, averaged over sampled talons and layouts.
#[derive(Clone, Debug)]
struct HandEval {
    /// The hand evaluated.
    hand: CardSet,
    /// Expected result of each trick contract, by ladder index (misère's slot unused).
    contract: [f64; Bid::COUNT],
    /// Expected result of misère, if it was evaluated.
    misere: Option<f64>,
}

/// A bot in one seat. See the crate docs for how a host drives it.
#[derive(Debug)]
pub struct Bot {
    seat: Seat,
    level: Level,
    rng: SmallRng,
    solver: Solver,
    seen: Seen,
    /// The auction evaluation of the current hand, kept for the bot's later calls.
    eval: Option<HandEval>,
}

impl Bot {
    /// A bot for `seat` at `level`; `seed` fixes its random choices.
    #[must_use]
    pub fn new(seat: Seat, level: Level, seed: u64) -> Bot {
        let bits = match level {
            Level::Easy => 1,
            Level::Normal | Level::Strong => pref_bot::solver::DEFAULT_TT_BITS,
        };
        Bot {
            seat,
            level,
            rng: SmallRng::seed_from_u64(seed ^ u64::from(seat.0).wrapping_mul(0x9E37_79B9)),
            solver: Solver::with_tt_bits(bits),
            seen: Seen::default(),
            eval: None,
        }
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
        if legal.len() == 1 {
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
        };
        let action = match view.stage {
            Stage::Auction => self.auction(&ctx, legal),
            Stage::Discard => self.discard(&ctx, legal),
            Stage::Declare => self.declare(&ctx, legal),
            Stage::Whist => self.whist(&ctx, legal),
            Stage::Defence => self.defence(&ctx),
            Stage::Play => Action::Play(self.play(&ctx, legal)),
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
struct Ctx<'a> {
    view: &'a DealView,
    budget: Budget,
    clock: Clock,
}

impl Ctx<'_> {
    /// Active seats in seat order: the solver's players 0, 1, 2 (clockwise, R11.1).
    fn active(&self) -> Vec<Seat> {
        let v = self.view;
        (0..v.players)
            .map(Seat)
            .filter(|&s| !(v.players == 4 && s == v.dealer))
            .collect()
    }

    fn player(&self, seat: Seat) -> usize {
        self.active().iter().position(|&s| s == seat).unwrap_or(0)
    }

    fn hand(&self) -> CardSet {
        self.view.hand.unwrap_or(CardSet::EMPTY)
    }
}

/// A hidden pile and whose hand it is (`None`: the discard or the raspasy talon).
type Hidden = (Option<Seat>, Pile);

/// R8 results of the seat for every possible count of declarer tricks.
type Table = [f64; 11];

fn game_outcome(
    view: &DealView,
    declarer: Seat,
    contract: Contract,
    whist: [Option<WhistCall>; 4],
    t: u8,
    played: bool,
) -> Outcome {
    // Split the defence's tricks evenly (the first defender takes an odd one): the solver
    // counts the declarer's tricks only.
    let mut tricks = [0u8; 4];
    tricks[declarer.index()] = t;
    let defenders: Vec<Seat> = (1..view.players)
        .map(|i| Seat((declarer.0 + i) % view.players))
        .filter(|&s| !(view.players == 4 && s == view.dealer))
        .collect();
    let rest = 10 - t;
    if let [a, b] = defenders[..] {
        tricks[a.index()] = rest - rest / 2;
        tricks[b.index()] = rest / 2;
    }
    Outcome {
        players: view.players,
        dealer: view.dealer,
        kind: OutcomeKind::Game {
            declarer,
            contract,
            whist,
            defence: None,
            talon_units: None,
        },
        tricks: played.then_some(tricks),
        dark: false,
        no_talon: false,
    }
}

fn table(seat: Seat, f: impl Fn(u8) -> Outcome) -> Table {
    std::array::from_fn(|t| deal_result(&f(t as u8))[seat.index()])
}

/// A declarer's results by the open-hand count of his tricks. The open-hand count favours
/// the declarer (his finesses always work), so each count is valued half as itself and half
/// as one trick fewer.
fn declarer_table(
    view: &DealView,
    me: Seat,
    contract: Contract,
    whist: [Option<WhistCall>; 4],
) -> Table {
    let exact = table(me, |t| game_outcome(view, me, contract, whist, t, true));
    std::array::from_fn(|t| (exact[t] + exact[t.saturating_sub(1)]) / 2.0)
}

fn misere_table(view: &DealView, seat: Seat, declarer: Seat) -> Table {
    table(seat, |t| {
        let mut tricks = [0u8; 4];
        tricks[declarer.index()] = t;
        Outcome {
            players: view.players,
            dealer: view.dealer,
            kind: OutcomeKind::Misere { declarer },
            tricks: Some(tricks),
            dark: false,
            no_talon: false,
        }
    })
}

fn whists_array(view: &DealView) -> [Option<WhistCall>; 4] {
    let mut w = [None; 4];
    for (slot, c) in w.iter_mut().zip(&view.whist) {
        *slot = *c;
    }
    w
}

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
    fn play_piles(&self, ctx: &Ctx<'_>) -> Option<(CardSet, Vec<Hidden>)> {
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

    fn search_play(&mut self, ctx: &Ctx<'_>, legal: CardSet) -> Option<Card> {
        let view = ctx.view;
        let turn = view.turn?;
        let (pool, mut piles) = self.play_piles(ctx)?;
        let active = ctx.active();
        let done: u8 = view.tricks_taken.iter().sum();
        // Four-player raspasy tricks 1–2: the dealer's talon card leading the trick is the
        // goal's, not a player's card (R11.3).
        let players_cards: Vec<_> = view
            .trick
            .iter()
            .filter(|sc| !(view.players == 4 && sc.seat == view.dealer))
            .collect();
        let leader = players_cards.first().map_or(turn, |sc| sc.seat);
        let trick: Vec<Card> = players_cards.iter().map(|sc| sc.card).collect();
        let (target, table) = match view.kind {
            DealKind::Game => {
                let d = view.declarer?;
                let c = view.contract?;
                let w = whists_array(view);
                (
                    d,
                    table(self.seat, |t| game_outcome(view, d, c, w, t, true)),
                )
            }
            DealKind::Misere => {
                let d = view.declarer?;
                (d, misere_table(view, self.seat, d))
            }
            DealKind::Raspasy => {
                let t: Table = std::array::from_fn(|t| if t == 0 { 1.0 } else { -(t as f64) });
                (turn, t)
            }
            DealKind::Auction => return None,
        };
        let taken = *view.tricks_taken.get(target.index())?;
        let mut sums = [0.0f64; 32];
        let mut samples = 0;
        for _ in 0..self.level.play_samples() {
            if ctx.clock.out(&self.solver, &ctx.budget) {
                break;
            }
            let mut bare: Vec<Pile> = piles.iter().map(|p| p.1).collect();
            let declarer_pile = piles
                .iter()
                .position(|p| p.0.is_some() && p.0 == view.declarer);
            for _ in 0..AUCTION_TRIES {
                sample::deal(&mut self.rng, pool, &mut bare);
                // A hidden declarer of a trick contract bid it: keep layouts where his hand
                // (cards held and played) could make it.
                let fits = match (declarer_pile, view.declarer, view.contract) {
                    (Some(i), Some(d), Some(c)) if view.kind == DealKind::Game => {
                        let played = self.seen.played_by[d.index().min(3)];
                        fits_contract(bare[i].cards.or(played), c)
                    }
                    _ => true,
                };
                if fits {
                    break;
                }
            }
            for (p, b) in piles.iter_mut().zip(&bare) {
                p.1 = *b;
            }
            let mut hands = [CardSet::EMPTY; 3];
            for (i, &s) in active.iter().enumerate() {
                hands[i] = piles
                    .iter()
                    .find(|p| p.0 == Some(s))
                    .map(|p| p.1.cards)
                    .or(if s == self.seat {
                        view.hand
                    } else {
                        view.open_hands.get(s.index()).copied().flatten()
                    })
                    .unwrap_or(CardSet::EMPTY);
            }
            let goal = match view.kind {
                DealKind::Game => Goal::Tricks {
                    declarer: ctx.player(target),
                    trump: view.contract.and_then(|c| c.strain().trump()),
                },
                DealKind::Misere => Goal::Misere {
                    declarer: ctx.player(target),
                },
                _ => {
                    let hidden_talon = piles
                        .iter()
                        .find(|p| p.0.is_none())
                        .and_then(|p| p.1.cards.first());
                    let cards = [
                        view.talon[0].or(hidden_talon),
                        view.talon[1].or(hidden_talon),
                    ];
                    let suits = cards.map(|c| c.map_or(Suit::Spades, Card::suit));
                    let talon_cards = match cards {
                        [Some(c0), Some(c1)] if view.players == 4 => Some([c0, c1]),
                        _ => None,
                    };
                    Goal::Raspasy {
                        player: ctx.player(target),
                        first_hand: ctx.player(view.first_hand),
                        talon: suits,
                        talon_cards,
                    }
                }
            };
            let pos = Position {
                hands,
                leader: ctx.player(leader),
                trick: trick.clone(),
                tricks_done: done,
                goal,
            };
            if pos.validate().is_err() {
                return None;
            }
            let Some(moves) = self.solver.solve_moves(&pos) else {
                break;
            };
            for (c, v) in moves {
                let t = (taken + v).min(10);
                sums[c.index() as usize] += table[t as usize];
            }
            samples += 1;
        }
        if samples == 0 {
            return None;
        }
        let mut best: Option<(f64, Card)> = None;
        for c in legal.iter() {
            let v = sums[c.index() as usize];
            // Ties go to the lower card: keep the high ones.
            let better = match best {
                None => true,
                Some((bv, bc)) => v > bv + 1e-9 || (v > bv - 1e-9 && c.rank() < bc.rank()),
            };
            if better {
                best = Some((v, c));
            }
        }
        best.map(|b| b.1)
    }

    // ----- auction -----

    fn auction(&mut self, ctx: &Ctx<'_>, legal: &ActionList) -> Action {
        let mut lowest: Option<Bid> = None;
        let mut misere = false;
        for a in legal.iter() {
            if let Action::Bid(Call::Bid(b)) = a {
                if b.is_misere() {
                    misere = true;
                } else if lowest.is_none_or(|l| b < l) {
                    lowest = Some(b);
                }
            }
        }
        let pass = Action::Bid(Call::Pass);
        let hand = ctx.hand();
        if self.level == Level::Easy {
            let (_, est) = heuristic::best_strain(hand);
            return match lowest.and_then(Bid::contract) {
                Some(c) if est >= f64::from(c.level()) + 0.5 => Action::Bid(Call::Bid(c.bid())),
                _ => pass,
            };
        }
        let eval = self.hand_eval(ctx, misere);
        let best_from = |b: Bid| {
            (0..Bid::COUNT as u8)
                .filter(|&i| i != Bid::MISERE.index() && i >= b.index())
                .map(|i| eval.contract[i as usize])
                .fold(f64::NEG_INFINITY, f64::max)
        };
        let trick_value = lowest.map_or(f64::NEG_INFINITY, best_from);
        let misere_value = if misere {
            eval.misere.unwrap_or(f64::NEG_INFINITY)
        } else {
            f64::NEG_INFINITY
        };
        if misere_value > 0.0 && misere_value >= trick_value {
            return Action::Bid(Call::Bid(Bid::MISERE));
        }
        match lowest {
            Some(b) if trick_value > 0.0 => Action::Bid(Call::Bid(b)),
            _ => pass,
        }
    }

    fn hand_eval(&mut self, ctx: &Ctx<'_>, with_misere: bool) -> HandEval {
        let hand = ctx.hand();
        if let Some(e) = &self.eval
            && e.hand == hand
            && (e.misere.is_some() || !with_misere)
        {
            return e.clone();
        }
        let view = ctx.view;
        let me = self.seat;
        let others: Vec<Seat> = ctx.active().into_iter().filter(|&s| s != me).collect();
        let pool = CardSet::FULL.minus(hand);
        let tables: Vec<(Contract, Table)> = all_contracts()
            .map(|c| {
                let w = defenders_whist(view, me);
                (c, declarer_table(view, me, c, w))
            })
            .collect();
        let mis_table = misere_table(view, me, me);
        let mut sums = [0.0f64; Bid::COUNT];
        let mut mis_sum = 0.0;
        let mut n = 0;
        for _ in 0..self.level.contract_samples() {
            if n > 0 && ctx.clock.out(&self.solver, &ctx.budget) {
                break;
            }
            let mut piles = [
                Pile::new(10, CardSet::FULL),
                Pile::new(10, CardSet::FULL),
                Pile::new(2, CardSet::FULL),
            ];
            sample::deal(&mut self.rng, pool, &mut piles);
            let twelve = hand.or(piles[2].cards);
            let hands_for = |mine: CardSet| {
                let mut h = [CardSet::EMPTY; 3];
                h[ctx.player(me)] = mine;
                h[ctx.player(others[0])] = piles[0].cards;
                h[ctx.player(others[1])] = piles[1].cards;
                h
            };
            let mut ok = true;
            let mut by_strain = [0u8; 5];
            for (i, strain) in STRAINS.iter().enumerate() {
                let trump = strain.trump();
                let mine = twelve.minus(heuristic::trick_discard(twelve, trump));
                let pos = Position {
                    hands: hands_for(mine),
                    leader: ctx.player(view.first_hand),
                    trick: Vec::new(),
                    tricks_done: 0,
                    goal: Goal::Tricks {
                        declarer: ctx.player(me),
                        trump,
                    },
                };
                match self.solver.solve(&pos) {
                    Some(t) => by_strain[i] = t,
                    None => ok = false,
                }
            }
            let mut mis = 0;
            if with_misere && ok {
                let mine = twelve.minus(heuristic::misere_discard(twelve));
                let pos = Position {
                    hands: hands_for(mine),
                    leader: ctx.player(view.first_hand),
                    trick: Vec::new(),
                    tricks_done: 0,
                    goal: Goal::Misere {
                        declarer: ctx.player(me),
                    },
                };
                match self.solver.solve(&pos) {
                    Some(t) => mis = t,
                    None => ok = false,
                }
            }
            if !ok {
                break;
            }
            for (c, t) in &tables {
                sums[c.bid().index() as usize] += t[by_strain[c.strain() as usize] as usize];
            }
            mis_sum += mis_table[mis as usize];
            n += 1;
        }
        let eval = if n == 0 {
            // No time to search: the rule of thumb, as a value of +1 for a playable bid.
            let (strain, est) = heuristic::best_strain(hand);
            let mut contract = [f64::NEG_INFINITY; Bid::COUNT];
            for (c, _) in &tables {
                if c.strain() == strain && est >= f64::from(c.level()) + 0.5 {
                    contract[c.bid().index() as usize] = 1.0;
                }
            }
            HandEval {
                hand,
                contract,
                misere: None,
            }
        } else {
            let mut contract = [f64::NEG_INFINITY; Bid::COUNT];
            for (c, _) in &tables {
                let i = c.bid().index() as usize;
                contract[i] = sums[i] / f64::from(n);
            }
            HandEval {
                hand,
                contract,
                misere: with_misere.then(|| mis_sum / f64::from(n)),
            }
        };
        self.eval = Some(eval.clone());
        eval
    }

    // ----- discard and contract -----

    /// Layouts of the two unseen hands around a declarer who knows his own cards.
    fn declarer_samples(&mut self, dead: CardSet) -> Vec<[CardSet; 2]> {
        let pool = CardSet::FULL.minus(dead);
        (0..self.level.contract_samples())
            .map(|_| {
                let mut piles = [Pile::new(10, CardSet::FULL), Pile::new(10, CardSet::FULL)];
                sample::deal(&mut self.rng, pool, &mut piles);
                [piles[0].cards, piles[1].cards]
            })
            .collect()
    }

    fn declarer_position(
        &self,
        ctx: &Ctx<'_>,
        mine: CardSet,
        others: [CardSet; 2],
        goal: Goal,
    ) -> Position {
        let me = self.seat;
        let opp: Vec<Seat> = ctx.active().into_iter().filter(|&s| s != me).collect();
        let mut hands = [CardSet::EMPTY; 3];
        hands[ctx.player(me)] = mine;
        hands[ctx.player(opp[0])] = others[0];
        hands[ctx.player(opp[1])] = others[1];
        Position {
            hands,
            leader: ctx.player(ctx.view.first_hand),
            trick: Vec::new(),
            tricks_done: 0,
            goal,
        }
    }

    fn discard(&mut self, ctx: &Ctx<'_>, legal: &ActionList) -> Action {
        let twelve = ctx.hand();
        let view = ctx.view;
        let misere = view.kind == DealKind::Misere;
        let fallback = if misere {
            heuristic::misere_discard(twelve)
        } else {
            heuristic::trick_discard(twelve, heuristic::best_strain(twelve).0.trump())
        };
        if self.level == Level::Easy {
            return Action::Discard(fallback);
        }
        let me = self.seat;
        let won = view.highest.map_or(Bid::LOWEST, |h| h.bid);
        // Candidates: the rule-of-thumb discard for each strain (or misère's riskiest pairs).
        let mut cands: Vec<(CardSet, Option<Strain>)> = Vec::new();
        if misere {
            for d in heuristic::misere_discards(twelve) {
                cands.push((d, None));
            }
        } else {
            for s in STRAINS {
                let d = heuristic::trick_discard(twelve, s.trump());
                cands.push((d, Some(s)));
            }
        }
        let samples = self.declarer_samples(twelve);
        let mis_table = misere_table(view, me, me);
        let w = defenders_whist(view, me);
        let mut best: Option<(f64, CardSet)> = None;
        'cands: for (d, strain) in cands {
            let mine = twelve.minus(d);
            let mut ts = Vec::new();
            for others in &samples {
                if !ts.is_empty() && ctx.clock.out(&self.solver, &ctx.budget) {
                    break;
                }
                let goal = match strain {
                    Some(s) => Goal::Tricks {
                        declarer: ctx.player(me),
                        trump: s.trump(),
                    },
                    None => Goal::Misere {
                        declarer: ctx.player(me),
                    },
                };
                let pos = self.declarer_position(ctx, mine, *others, goal);
                match self.solver.solve(&pos) {
                    Some(t) => ts.push(t),
                    None => break,
                }
            }
            if ts.is_empty() {
                break 'cands;
            }
            let mean =
                |tab: &Table| ts.iter().map(|&t| tab[t as usize]).sum::<f64>() / ts.len() as f64;
            let value = match strain {
                None => mean(&mis_table),
                Some(s) => (6..=10)
                    .filter_map(|l| Contract::new(l, s))
                    .filter(|c| c.bid() >= won)
                    .map(|c| mean(&declarer_table(view, me, c, w)))
                    .fold(f64::NEG_INFINITY, f64::max),
            };
            if best.is_none_or(|(bv, _)| value > bv) {
                best = Some((value, d));
            }
        }
        let d = best.map_or(fallback, |b| b.1);
        let a = Action::Discard(d);
        if legal.contains(&a) {
            a
        } else {
            Action::Discard(fallback)
        }
    }

    fn declare(&mut self, ctx: &Ctx<'_>, legal: &ActionList) -> Action {
        let view = ctx.view;
        let hand = ctx.hand();
        let contracts: Vec<Contract> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Declare(c) => Some(c),
                _ => None,
            })
            .collect();
        let (strain, _) = heuristic::best_strain(hand);
        let fallback = contracts
            .iter()
            .copied()
            .find(|c| c.strain() == strain)
            .or(contracts.first().copied());
        let Some(fallback) = fallback else {
            return legal.get(0).unwrap_or(Action::Bid(Call::Pass));
        };
        if self.level == Level::Easy {
            return Action::Declare(fallback);
        }
        let me = self.seat;
        let dead = hand.or(view.discard.unwrap_or(CardSet::EMPTY));
        let samples = self.declarer_samples(dead);
        let mut by_strain: Vec<Vec<u8>> = vec![Vec::new(); 5];
        'samples: for others in &samples {
            if !by_strain[4].is_empty() && ctx.clock.out(&self.solver, &ctx.budget) {
                break;
            }
            let mut ts = [0u8; 5];
            for (i, s) in STRAINS.iter().enumerate() {
                let goal = Goal::Tricks {
                    declarer: ctx.player(me),
                    trump: s.trump(),
                };
                let pos = self.declarer_position(ctx, hand, *others, goal);
                match self.solver.solve(&pos) {
                    Some(t) => ts[i] = t,
                    None => break 'samples,
                }
            }
            for i in 0..5 {
                by_strain[i].push(ts[i]);
            }
        }
        if by_strain[4].is_empty() {
            return Action::Declare(fallback);
        }
        let w = defenders_whist(view, me);
        let mut best = (f64::NEG_INFINITY, fallback);
        for c in contracts {
            let tab = declarer_table(view, me, c, w);
            let ts = &by_strain[c.strain() as usize];
            let v = ts.iter().map(|&t| tab[t as usize]).sum::<f64>() / ts.len() as f64;
            if v > best.0 {
                best = (v, c);
            }
        }
        Action::Declare(best.1)
    }

    // ----- whist and defence -----

    /// Declarer tricks over sampled declarer hands: his ten unseen cards plus the talon, less
    /// the discard a declarer would make.
    fn defender_samples(&mut self, ctx: &Ctx<'_>) -> Vec<u8> {
        let view = ctx.view;
        let (Some(d), Some(contract)) = (view.declarer, view.contract) else {
            return Vec::new();
        };
        let hand = ctx.hand();
        let talon: CardSet = view.talon.iter().flatten().copied().collect();
        let me = self.seat;
        let Some(partner) = ctx.active().into_iter().find(|&s| s != me && s != d) else {
            return Vec::new();
        };
        let pool = CardSet::FULL.minus(hand).minus(talon);
        if pool.len() != 20 || hand.len() != 10 {
            return Vec::new();
        }
        let trump = contract.strain().trump();
        let mut out = Vec::new();
        for _ in 0..self.level.contract_samples() {
            if !out.is_empty() && ctx.clock.out(&self.solver, &ctx.budget) {
                break;
            }
            let mut piles = [Pile::new(10, CardSet::FULL), Pile::new(10, CardSet::FULL)];
            let mut dh = CardSet::EMPTY;
            for _ in 0..AUCTION_TRIES {
                sample::deal(&mut self.rng, pool, &mut piles);
                let twelve = piles[0].cards.or(talon);
                dh = twelve.minus(heuristic::trick_discard(twelve, trump));
                if fits_contract(dh, contract) {
                    break;
                }
            }
            let mut hands = [CardSet::EMPTY; 3];
            hands[ctx.player(d)] = dh;
            hands[ctx.player(me)] = hand;
            hands[ctx.player(partner)] = piles[1].cards;
            let pos = Position {
                hands,
                leader: ctx.player(view.first_hand),
                trick: Vec::new(),
                tricks_done: 0,
                goal: Goal::Tricks {
                    declarer: ctx.player(d),
                    trump,
                },
            };
            match self.solver.solve(&pos) {
                Some(t) => out.push(t),
                None => break,
            }
        }
        out
    }

    fn whist(&mut self, ctx: &Ctx<'_>, legal: &ActionList) -> Action {
        let view = ctx.view;
        let calls: Vec<WhistCall> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Whist(w) => Some(w),
                _ => None,
            })
            .collect();
        let hand = ctx.hand();
        let pick = |w: WhistCall| Action::Whist(w);
        let (Some(d), Some(contract)) = (view.declarer, view.contract) else {
            return pick(calls[0]);
        };
        if hand.is_empty() {
            // A four-player dealer (R11.4): he has no cards to judge by.
            return pick(if calls.contains(&WhistCall::Pass) {
                WhistCall::Pass
            } else {
                calls[0]
            });
        }
        let me = self.seat;
        let partner = ctx
            .active()
            .into_iter()
            .find(|&s| s != me && s != d)
            .unwrap_or(me);
        let samples = if self.level == Level::Easy {
            Vec::new()
        } else {
            self.defender_samples(ctx)
        };
        if samples.is_empty() {
            let honours = hand
                .iter()
                .filter(|c| c.rank() as u8 >= 6 || Some(c.suit()) == contract.strain().trump())
                .count();
            let want = if honours as u8 + contract.level() >= 9 {
                WhistCall::Whist
            } else {
                WhistCall::Pass
            };
            return pick(if calls.contains(&want) {
                want
            } else {
                calls[0]
            });
        }
        let current = whists_array(view);
        let mut best: Option<(f64, WhistCall)> = None;
        for &call in &calls {
            let mut w = current;
            let returning = w[me.index()].is_some();
            w[me.index()] = Some(call);
            let partner_call = w[partner.index()];
            let played = match (call, partner_call) {
                (WhistCall::Whist, _) => true,
                (WhistCall::Half, _) => false,
                (WhistCall::Pass, Some(WhistCall::Whist)) => true,
                (WhistCall::Pass, _) => false,
            };
            if partner_call.is_none() {
                // Not yet spoken: assume he passes, so my whist is a lone one.
                w[partner.index()] = Some(WhistCall::Pass);
            }
            if returning && call == WhistCall::Pass {
                // Passing after a half-whist lets it stand (R5.2).
                w[me.index()] = Some(WhistCall::Pass);
            }
            let tab = table(me, |t| game_outcome(view, d, contract, w, t, played));
            let v = samples.iter().map(|&t| tab[t as usize]).sum::<f64>() / samples.len() as f64;
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, call));
            }
        }
        pick(best.map_or(calls[0], |b| b.1))
    }

    fn defence(&mut self, ctx: &Ctx<'_>) -> Action {
        if self.level == Level::Easy {
            return Action::Defence(Defence::Closed);
        }
        let level = ctx.view.contract.map_or(6, |c| c.level());
        let samples = self.defender_samples(ctx);
        if samples.is_empty() {
            return Action::Defence(Defence::Closed);
        }
        let mean = samples.iter().map(|&t| f64::from(t)).sum::<f64>() / samples.len() as f64;
        // Expecting the contract to make, open play lets the whister steer both hands to
        // the quota; expecting it to fail, closed play keeps the declarer guessing.
        Action::Defence(if mean >= f64::from(level) {
            Defence::Open
        } else {
            Defence::Closed
        })
    }
}

/// Layouts drawn at most to find one that fits the auction.
const AUCTION_TRIES: usize = 30;

/// Whether a declarer's ten cards look like a hand that names `contract`: the rule-of-thumb
/// estimate is at most a trick and a half short.
fn fits_contract(hand: CardSet, contract: Contract) -> bool {
    heuristic::trick_estimate(hand, contract.strain().trump()) >= f64::from(contract.level()) - 1.5
}

const STRAINS: [Strain; 5] = [
    Strain::Spades,
    Strain::Clubs,
    Strain::Diamonds,
    Strain::Hearts,
    Strain::NoTrump,
];

/// Every trick contract, up the ladder (R3.1).
fn all_contracts() -> impl Iterator<Item = Contract> {
    std::iter::successors(Some(Bid::LOWEST), |b| b.next_step()).filter_map(Bid::contract)
}

/// The whists a declarer expects: both defenders whist (R8.3's totals are the same with
/// one whister or two).
fn defenders_whist(view: &DealView, declarer: Seat) -> [Option<WhistCall>; 4] {
    let mut w = [None; 4];
    for i in 1..view.players {
        let s = Seat((declarer.0 + i) % view.players);
        if !(view.players == 4 && s == view.dealer) {
            w[s.index()] = Some(WhistCall::Whist);
        }
    }
    w
}

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
