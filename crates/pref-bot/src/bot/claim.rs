//! Claims for bots (R6.7), decided from the seat's view only, like every other decision.
//!
//! At a trick boundary the bot deals the cards it cannot see at random (as for card play)
//! and solves each layout open-handed from here: the declarer's tricks still to come.
//!
//! - Answering a claim: accept exactly when no sampled layout lets the bot's side (the
//!   declarer, or the defence as a whole) do better than the claim gives it; one layout
//!   that does is a reject. A bot that solved nothing (the easy level, or no budget) rejects:
//!   a reject costs nothing but the time to play on.
//! - Claiming (when the host allows it, [`Bot::claiming`]): when every sampled layout gives
//!   the same result, and the claim's split
//!   follows from it — the declarer takes every remaining trick, or a misère, where the
//!   defenders' own counts score nothing (R8.8) and are split evenly.

use pref_core::view::DealKind;
use pref_core::{Action, ActionList, Answer, Claim, ClaimRoom, ClaimView, Seat};

use super::Bot;
use super::context::Ctx;
use super::level::Level;
use crate::solver::{Bound, Goal, Position, Solver};

impl Bot {
    /// A decision in the play: the answer to a pending claim, a claim, or a card.
    pub(super) fn play_or_claim(&mut self, ctx: &Ctx<'_>, legal: &ActionList) -> Action {
        if let Some(pending) = &ctx.view.claim
            && pending.to_answer == Some(self.seat)
        {
            return Action::Answer(self.answer(ctx, pending));
        }
        if let Some(room) = legal.claim().filter(|_| self.claims)
            && let Some(claim) = self.claim(ctx, room)
        {
            return Action::Claim(claim);
        }
        match legal.get(0) {
            Some(only) if legal.len() == 1 => only,
            _ => Action::Play(self.play(ctx, legal)),
        }
    }

    /// Accept when no sampled layout lets the bot's side do better than `pending`.
    fn answer(&mut self, ctx: &Ctx<'_>, pending: &ClaimView) -> Answer {
        let view = ctx.view;
        let Some(declarer) = view.declarer else {
            return Answer::Reject;
        };
        let claimed = pending.claim.of(declarer);
        // More declarer tricks are better for the declarer in a trick contract and for the
        // defence in a misère.
        let more_is_better = (self.seat == declarer) == (view.kind == DealKind::Game);
        // Beaten is a bound, not a count: one null-window search per layout.
        // (Fewer than none: no layout beats a claim of no trick, nothing to search.)
        let better = if more_is_better {
            Some(Bound::AtLeast(claimed + 1))
        } else {
            claimed.checked_sub(1).map(Bound::AtMost)
        };
        let mut beaten = false;
        let solved = self.layouts_to_come(ctx, |solver, pos| {
            beaten = match better {
                Some(b) => solver.holds(pos, b)?,
                None => false,
            };
            Some(!beaten)
        });
        if solved > 0 && !beaten {
            Answer::Accept
        } else {
            Answer::Reject
        }
    }

    /// A claim when every sampled layout gives the declarer the same tricks and the split
    /// follows from that count.
    fn claim(&mut self, ctx: &Ctx<'_>, room: ClaimRoom) -> Option<Claim> {
        let view = ctx.view;
        let declarer = view.declarer?;
        let mut first = None;
        let mut same = true;
        let solved = self.layouts_to_come(ctx, |solver, pos| {
            let v = solver.solve(pos)?;
            same = *first.get_or_insert(v) == v;
            Some(same)
        });
        let tricks = first?;
        let misere = view.kind == DealKind::Misere;
        if !same || solved < self.level.play_samples() || (tricks != room.tricks_left && !misere) {
            return None;
        }
        let mut entries = vec![0u8; usize::from(room.seats)];
        entries[declarer.index()] = tricks;
        let rest = room.tricks_left - tricks;
        let defenders: Vec<Seat> = ctx
            .active()
            .into_iter()
            .filter(|&s| s != declarer)
            .collect();
        if let [a, b] = defenders[..] {
            entries[a.index()] = rest - rest / 2;
            entries[b.index()] = rest / 2;
        }
        Claim::new(&entries).filter(|c| room.allows(c))
    }

    /// Hands `each` the solver and each sampled layout at this trick boundary (its target
    /// the declarer, its value his tricks still to come), until it returns `Some(false)`
    /// (counted) or `None` (the solver gave up: not counted), or the samples or the budget
    /// run out. Returns how many layouts were answered.
    fn layouts_to_come(
        &mut self,
        ctx: &Ctx<'_>,
        mut each: impl FnMut(&mut Solver, &Position) -> Option<bool>,
    ) -> usize {
        let view = ctx.view;
        let (Some(declarer), true) = (view.declarer, view.trick.is_empty()) else {
            return 0;
        };
        let goal = match view.kind {
            DealKind::Game => Goal::Tricks {
                declarer: ctx.player(declarer),
                trump: view.contract.and_then(|c| c.strain().trump()),
            },
            DealKind::Misere => Goal::Misere {
                declarer: ctx.player(declarer),
            },
            DealKind::Raspasy | DealKind::Auction => return 0,
        };
        if self.level == Level::Easy {
            return 0;
        }
        let Some((pool, mut piles)) = self.play_piles(ctx) else {
            return 0;
        };
        // In a trick contract or misère the first hand leads trick 1, the winner each next.
        let leader = view
            .last_trick
            .as_ref()
            .map_or(view.first_hand, |t| t.winner);
        let mut solved = 0;
        for _ in 0..self.level.play_samples() {
            if ctx.clock.out(&self.solver, &ctx.budget) {
                break;
            }
            let pos = Position {
                hands: self.sample_layout(ctx, pool, &mut piles),
                leader: ctx.player(leader),
                trick: Vec::new(),
                tricks_done: view.tricks_taken.iter().sum(),
                goal,
            };
            if pos.validate().is_err() {
                break;
            }
            let Some(go_on) = each(&mut self.solver, &pos) else {
                break;
            };
            solved += 1;
            if !go_on {
                break;
            }
        }
        solved
    }
}
