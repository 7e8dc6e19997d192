//! The agreed stop (R10.3): between deals a seated player proposes to stop the game; every
//! other seat is asked and accepts or declines (a bot accepts at once: it has no stake in
//! going on). The game ends by agreement, settled as R10.3 says, only once every seat has
//! accepted; one decline ends the proposal and the game goes on. While a proposal stands no
//! deal opens, and a seat that changes hands withdraws it (the new occupant was not asked).
//! A seat away on the clock's autopilot accepts for its absent player, as a bot does (the
//! actor, which keeps the clock, says so with `Op::AwayAccepts`).
//!
//! The host's end (`POST /api/tables/{id}/end`) is the host's say, not everybody's: between
//! deals it ends the game at once only when no other person sits at the table (every seat a
//! bot's or the host's own, claimed with his token); otherwise it is this proposal, made by
//! the host's seat (or by the host, who holds none), and each other person accepts or
//! declines it.

use pref_core::{Seat, Viewer};
use pref_protocol::{Public, StopProposal, StopVote};

use super::{Change, Machine, Stage, TableError, Write, settlement};
use crate::ids::Secret;
use crate::table::wire::News;

/// A standing proposal: who proposed and, per seat, who accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Proposal {
    /// The proposing seat; `None` for the host who holds no seat.
    by: Option<u8>,
    accepted: [bool; 4],
}

impl Machine {
    /// `seat`'s vote on stopping the game (the seat's `token` proves it).
    ///
    /// # Errors
    /// [`TableError::SeatLost`] for a token that does not hold the seat;
    /// [`TableError::NotStarted`], [`TableError::DealInProgress`] or [`TableError::Over`]
    /// outside the time between deals; [`TableError::StopPending`] for a second proposal,
    /// [`TableError::NoStop`] for an answer with none standing, [`TableError::StopAnswered`]
    /// for a seat that accepted already.
    pub(super) fn stop_vote(
        &mut self,
        change: &mut Change,
        seat: Seat,
        token: &Secret,
        vote: StopVote,
    ) -> Result<(), TableError> {
        if !self.holds(Viewer::Seat(seat), Some(token)) {
            return Err(TableError::SeatLost);
        }
        match self.stage {
            Stage::BetweenDeals { .. } if self.fair_step().is_none() => {}
            Stage::BetweenDeals { .. } | Stage::Playing { .. } => {
                return Err(TableError::DealInProgress);
            }
            Stage::Lobby => return Err(TableError::NotStarted),
            Stage::Over { .. } => return Err(TableError::Over),
        }
        let s = usize::from(seat.0);
        match (vote, &mut self.stop) {
            (StopVote::Propose, Some(_)) => return Err(TableError::StopPending),
            (StopVote::Propose, None) => {
                let accepted = self.not_asked(|i| i == s);
                self.stop = Some(Proposal {
                    by: Some(seat.0),
                    accepted,
                });
            }
            (StopVote::Accept | StopVote::Decline, None) => return Err(TableError::NoStop),
            (StopVote::Accept, Some(p)) if p.accepted[s] => {
                return Err(TableError::StopAnswered);
            }
            (StopVote::Accept, Some(p)) => p.accepted[s] = true,
            (StopVote::Decline, Some(_)) => self.stop = None,
        }
        self.tell_vote(change, Some(seat.0), vote);
        Ok(())
    }

    /// The host's end between deals or in the lobby: at once when no other person sits
    /// (every seat a bot's or the host's own, [`super::Occupant::host`]) or in the lobby,
    /// where nothing is at stake yet; otherwise the agreed stop's proposal, made by the
    /// host's seat (or by the host, `by` absent), which every other person answers.
    ///
    /// # Errors
    /// [`TableError::DealInProgress`] during a deal or its fair opening, [`TableError::Over`]
    /// after the game, [`TableError::StopPending`] while a proposal stands.
    pub(super) fn host_end(&mut self, change: &mut Change) -> Result<(), TableError> {
        match self.stage {
            Stage::Lobby => {
                self.end_by_agreement(change);
                return Ok(());
            }
            Stage::BetweenDeals { .. } if self.fair_step().is_none() => {}
            Stage::BetweenDeals { .. } | Stage::Playing { .. } => {
                return Err(TableError::DealInProgress);
            }
            Stage::Over { .. } => return Err(TableError::Over),
        }
        if self.stop.is_some() {
            return Err(TableError::StopPending);
        }
        let hosts = |i: usize| self.seats[i].as_ref().is_some_and(|o| o.host);
        let accepted = self.not_asked(hosts);
        if accepted.iter().all(|&a| a) {
            self.end_by_agreement(change);
            return Ok(());
        }
        let by = (0..self.players()).find(|&s| hosts(usize::from(s)));
        self.stop = Some(Proposal { by, accepted });
        self.tell_vote(change, by, StopVote::Propose);
        Ok(())
    }

    /// Per seat, whether a proposal needs no answer from it: `proposer`'s, a bot's or a bot
    /// account's (a program has no stake in going on, and the bot API has no vote) or a
    /// seat beyond the table's players.
    fn not_asked(&self, proposer: impl Fn(usize) -> bool) -> [bool; 4] {
        let mut accepted = [true; 4];
        for (i, a) in accepted
            .iter_mut()
            .enumerate()
            .take(usize::from(self.players()))
        {
            let bot = self.seats[i]
                .as_ref()
                .is_some_and(|o| o.bot.is_some() || o.bot_account);
            *a = proposer(i) || bot;
        }
        accepted
    }

    /// Tells everybody `seat`'s vote (`None`: the host's proposal) and ends the game once
    /// every seat accepted.
    fn tell_vote(&mut self, change: &mut Change, seat: Option<u8>, vote: StopVote) {
        let accepted = self.stop_view().map(|p| p.accepted).unwrap_or_default();
        self.publish(
            change,
            News::Public(Public::StopVote {
                seat,
                vote,
                accepted,
            }),
        );
        let all = self
            .stop
            .is_some_and(|p| p.accepted[..usize::from(self.players())].iter().all(|&a| a));
        if all {
            self.end_by_agreement(change);
        }
    }

    /// `seat` is away (the clock's autopilot plays for it): it accepts a standing proposal,
    /// as a bot does, so a player who left cannot hold the others at the table; nothing
    /// when no proposal stands or the seat accepted already.
    pub(super) fn away_accepts(&mut self, change: &mut Change, seat: Seat) {
        let s = usize::from(seat.0);
        let players = usize::from(self.players());
        match &mut self.stop {
            Some(p) if !p.accepted[s] && s < players => p.accepted[s] = true,
            Some(_) | None => return,
        }
        self.tell_vote(change, Some(seat.0), StopVote::Accept);
    }

    /// The standing proposal, as the summary shows it.
    #[must_use]
    pub(crate) fn stop_view(&self) -> Option<StopProposal> {
        self.stop.map(|p| StopProposal {
            by: p.by,
            accepted: (0..self.players())
                .filter(|&s| p.accepted[usize::from(s)])
                .collect(),
        })
    }

    /// Seat `seat` changed hands: a standing proposal is withdrawn (its new occupant was
    /// not asked), and every viewer is told so as that seat's decline.
    pub(super) fn withdraw_stop(&mut self, change: &mut Change, seat: u8) {
        if self.stop.take().is_some() {
            self.publish(
                change,
                News::Public(Public::StopVote {
                    seat: Some(seat),
                    vote: StopVote::Decline,
                    accepted: Vec::new(),
                }),
            );
        }
    }

    /// Ends the game by agreement (R10.3) between deals or in the lobby: the settlement with
    /// the missing pools charged, `game_over` told to everybody.
    pub(super) fn end_by_agreement(&mut self, change: &mut Change) {
        let (game, last, deals) = match std::mem::replace(&mut self.stage, Stage::Lobby) {
            Stage::BetweenDeals { game, last, deals } => (Some(game), last, deals),
            Stage::Lobby => (None, None, 0),
            other @ (Stage::Playing { .. } | Stage::Over { .. }) => {
                self.stage = other;
                return;
            }
        };
        self.stop = None;
        let balance = game
            .as_ref()
            .map(|g| g.agreed_settlement())
            .unwrap_or_default();
        let settlement = settlement(true, &balance, game.as_deref());
        change.writes.push(Write::Over);
        self.stage = Stage::Over {
            game,
            last,
            deals,
            settlement: settlement.clone(),
        };
        self.state_version = self.version + 1;
        self.publish(change, News::Public(Public::GameOver(settlement)));
    }
}
