//! The defenders' choices: whist, half-whist or pass, and open or closed play.
//!
//! The declarer's hand is sampled (his ten unseen cards fitting his contract, plus the
//! talon, less the discard he would make; the partner's hand fitting the partner's calls)
//! and solved. Each legal answer is priced by the table's profile (`tables.rs`) with the
//! partner's answer, when he has not spoken yet, taken from the partner's sampled hand by
//! the rule of thumb he is likely to follow: a whist of mine may turn out to be one of two,
//! and my pass may leave him whisting alone rather than conceding the contract.

use pref_core::{Action, ActionList, CardSet, Contract, Defence, Seat, WhistCall};

use super::Bot;
use super::concede;
use super::context::{AUCTION_TRIES, Ctx};
use super::level::Level;
use crate::heuristic;
use crate::infer;
use crate::sample::{self, Pile};
use crate::score::Whists;
use crate::solver::{Bound, Goal, Position, Solver};
use crate::tables;

/// One sampled layout for a defender: what the solver said of it (the declarer's
/// open-hand tricks, or a bound question's answer) and the partner's hand.
#[derive(Clone, Copy, Debug)]
struct Layout<T> {
    tricks: T,
    partner: CardSet,
}

/// Whether a defender holding `hand` whists `contract` by the rule of thumb: his high cards
/// and trumps with the contract's level reach nine.
pub(crate) fn would_whist(hand: CardSet, contract: Contract) -> bool {
    let honours = hand
        .iter()
        .filter(|c| c.rank() as u8 >= 6 || Some(c.suit()) == contract.strain().trump())
        .count();
    honours as u8 + contract.level() >= 9
}

/// The partner's whist answer as one call's value sees it, with the declarer's sampled trick
/// counts.
pub(crate) enum Answers<'a> {
    /// He has answered: every layout under his answer.
    Known(WhistCall, &'a [u8]),
    /// He has not: the layouts where his hand would whist, and those where it would pass.
    Sampled {
        /// Counts of the layouts where he whists.
        whisting: Vec<u8>,
        /// Counts of the layouts where he passes.
        passing: Vec<u8>,
    },
}

/// `me`'s expected result for whist call `call` against the view's contract, by the table's
/// profile. At R5.3's second decision the partner's pass is known and `Half` is priced as
/// the withdrawal's outcome (me half, him pass, nothing played); at the first defender's
/// first call, where `whist_pass_half` lets him withdraw after his partner's pass, his whist
/// is worth the better of playing alone and withdrawing in the layouts where he is left
/// alone.
pub(crate) fn call_value(
    ctx: &Ctx<'_>,
    me: Seat,
    partner: Seat,
    call: WhistCall,
    answers: &Answers<'_>,
) -> Whists {
    let view = ctx.view;
    let (Some(d), Some(contract)) = (view.declarer, view.contract) else {
        return Whists::default();
    };
    let current = tables::whists_array(view);
    let value_with = |mine: WhistCall, answer: WhistCall| {
        let mut w = current;
        w[me.index()] = Some(mine);
        w[partner.index()] = Some(answer);
        let played = match (mine, answer) {
            (WhistCall::Whist, _) | (WhistCall::Pass, WhistCall::Whist) => true,
            (WhistCall::Half | WhistCall::Pass, _) => false,
        };
        tables::table(&ctx.prices, me, |t| {
            tables::game_outcome(view, d, contract, w, t, played)
        })
    };
    match answers {
        Answers::Known(known, counts) => tables::expect(&value_with(call, *known), counts),
        Answers::Sampled { whisting, passing } => {
            let mut alone = tables::expect(&value_with(call, WhistCall::Pass), passing);
            if call == WhistCall::Whist && concede::may_withdraw(&ctx.prices.profile, contract) {
                // R5.3: left alone, I may still withdraw to a half-whist.
                alone = alone.max(value_with(WhistCall::Half, WhistCall::Pass)[0]);
            }
            let n = (whisting.len() + passing.len()).max(1) as i64;
            (tables::expect(&value_with(call, WhistCall::Whist), whisting) * whisting.len() as i64
                + alone * passing.len() as i64)
                / n
        }
    }
}

impl Bot {
    /// The solver's answer `ask` (an exact count, or a bound question) and the partner's
    /// hand over sampled layouts.
    fn defender_samples<T>(
        &mut self,
        ctx: &Ctx<'_>,
        mut ask: impl FnMut(&mut Solver, &Position) -> Option<T>,
    ) -> Vec<Layout<T>> {
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
            let discard = |p: &[Pile]| {
                let twelve = p[0].cards.or(talon);
                twelve.minus(heuristic::trick_discard(twelve, trump))
            };
            let partner_calls = self.seen.calls[partner.index()];
            sample::deal_fitting(&mut self.rng, pool, &mut piles, AUCTION_TRIES, |p| {
                infer::fits_contract(discard(p), contract)
                    && infer::fits_calls(&partner_calls, p[1].cards)
            });
            let mut hands = [CardSet::EMPTY; 3];
            hands[ctx.player(d)] = discard(&piles);
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
            match ask(&mut self.solver, &pos) {
                Some(t) => out.push(Layout {
                    tricks: t,
                    partner: piles[1].cards,
                }),
                None => break,
            }
        }
        out
    }

    pub(crate) fn whist(&mut self, ctx: &Ctx<'_>, legal: &ActionList) -> Action {
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
            self.defender_samples(ctx, Solver::solve)
        };
        if samples.is_empty() {
            let want = if would_whist(hand, contract) {
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
        let counts: Vec<u8> = samples.iter().map(|l| l.tricks).collect();
        let answers = match tables::whists_array(view)[partner.index()] {
            Some(known) => Answers::Known(known, &counts),
            None => {
                let (with, alone): (Vec<&Layout<u8>>, Vec<&Layout<u8>>) = samples
                    .iter()
                    .partition(|l| would_whist(l.partner, contract));
                let tricks = |ls: &[&Layout<u8>]| ls.iter().map(|l| l.tricks).collect::<Vec<u8>>();
                Answers::Sampled {
                    whisting: tricks(&with),
                    passing: tricks(&alone),
                }
            }
        };
        let mut best: Option<(Whists, WhistCall)> = None;
        for &call in &calls {
            let v = call_value(ctx, me, partner, call, &answers);
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, call));
            }
        }
        pick(best.map_or(calls[0], |b| b.1))
    }

    pub(crate) fn defence(&mut self, ctx: &Ctx<'_>) -> Action {
        if self.level == Level::Easy {
            return Action::Defence(Defence::Closed);
        }
        if self.open_alone {
            return Action::Defence(Defence::Open);
        }
        let level = ctx.view.contract.map_or(6, |c| c.level());
        // Only "made or not" matters here: a bound query per layout, not the exact count.
        let samples =
            self.defender_samples(ctx, |solver, pos| solver.holds(pos, Bound::AtLeast(level)));
        if samples.is_empty() {
            return Action::Defence(Defence::Closed);
        }
        let made = samples.iter().filter(|l| l.tricks).count();
        // Expecting the contract to make, open play lets the whister steer both hands to
        // the quota; expecting it to fail, closed play keeps the declarer guessing.
        Action::Defence(if 2 * made >= samples.len() {
            Defence::Open
        } else {
            Defence::Closed
        })
    }
}
