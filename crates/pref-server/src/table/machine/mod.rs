//! The table as a pure state machine: lobby, seats, host rules and the game's phases, with
//! no tokio, no database and no socket, so that every rule of the table can be tested alone.
//!
//! [`Machine::apply`] takes one [`Op`] and either refuses it with a [`TableError`] and
//! changes nothing, or changes the table and returns the [`Change`]: the items to broadcast
//! (numbered from the next version, without a gap), the turn after them, and the
//! [`Write`]s the actor must make durable before anybody is told. Randomness (decks, tokens)
//! comes in with the op, so the machine is deterministic.

use pref_core::{Action, Card, Game, GameError, Profile, RuleError, Seat, Viewer};
use pref_protocol::{LineView, Public, ScoreEntry, Settlement, SheetView, Speaker};

use crate::ids::{Secret, TokenHash};
use crate::table::wire::News;

mod audience;
mod bot_account;
pub(crate) mod clock;
#[cfg(test)]
mod deal_record_tests;
mod fair;
mod fair_ops;
#[cfg(test)]
mod fair_tests;
mod op;
mod practice;
#[cfg(test)]
mod preview_tests;
mod rated;
#[cfg(test)]
mod seat_view_tests;
#[cfg(test)]
mod tests;

#[cfg(test)]
mod host_end_tests;
mod restore;
mod seats;
mod stop;
#[cfg(test)]
mod stop_tests;
mod view;

pub(crate) use audience::{RematchPlan, nearest_preset};
pub(crate) use fair_ops::{FairOp, FairWrite, Opening, StoredFair};
pub(crate) use op::disallowed_char;
pub(crate) use op::{
    Change, DealHidden, HostOp, Occupant, Op, RecordError, Stage, StoredDeal, StoredSeat,
    TableError, Write, check_name, checked_name,
};
pub(crate) use practice::{HintTurn, Hints};

/// One table's rules and state.
#[derive(Clone, Debug)]
pub(crate) struct Machine {
    /// Proves the host: the hash of the host token.
    host: TokenHash,
    /// Proves an invited player: the hash of the invite key.
    invite: TokenHash,
    /// The agreements.
    profile: Profile,
    /// Whether spectators take part in the chat.
    spectator_chat: bool,
    /// Dealer of the first deal.
    first_dealer: Seat,
    /// Seats 0..4 (only the first `players` are used).
    seats: [Option<Occupant>; 4],
    /// The phase with its data.
    stage: Stage,
    /// The last version handed out.
    version: u64,
    /// The version of the last change to the game; actions made before it are stale.
    state_version: u64,
    /// Open spectator sockets.
    spectators: u32,
    /// The spectator count the viewers were last told.
    spectators_told: u32,
    /// The rematch's table id, once the host opened one after the game.
    rematch: Option<String>,
    /// Free seats of a rematch kept for the names that sat there (lobby only).
    reserved: [Option<String>; 4],
    /// This lobby is a rematch's (the host kept seats in it): it starts by itself once
    /// every seat is taken ([`Machine::rematch_ready`]).
    rematch_lobby: bool,
    /// A standing proposal to stop by agreement (R10.3, `stop.rs`), between deals.
    stop: Option<stop::Proposal>,
    /// Provably fair deals: the deal being opened and each dealt deal's data (`fair.rs`).
    fair: fair::Fair,
    /// People only: bot accounts may not sit (`bot_account.rs`).
    people_only: bool,
    /// A practice table's hint counts (`practice.rs`); `None` at any other table.
    practice: Option<Hints>,
    /// A rated table's family (`rated.rs`); `None` at any other table.
    rated: Option<pref_rating::Family>,
}

/// The parts of a new table the caller chooses.
#[derive(Clone, Debug)]
pub struct NewTable {
    /// The host token's hash.
    pub host: TokenHash,
    /// The invite key's hash: of [`Secret::invite_key`] of the host token for a table opened
    /// now, of [`TokenHash::legacy_invite_key`] for one stored before the key had a column.
    pub invite: TokenHash,
    /// Validated profile.
    pub profile: Profile,
    /// Spectators in the chat.
    pub spectator_chat: bool,
    /// First dealer.
    pub first_dealer: Seat,
}

/// The protocol's settlement of balances.
/// The protocol's settlement of balances; an agreed stop (R10.3) of `game` carries the
/// lines charging its open pools.
fn settlement<T: ToString>(agreed: bool, balance: &[T], game: Option<&Game>) -> Settlement {
    let stop = match game {
        Some(g) if agreed => LineView::all(&g.sheet().agreed_stop_lines(g.profile())),
        Some(_) | None => Vec::new(),
    };
    Settlement {
        agreed,
        balance: balance.iter().map(ToString::to_string).collect(),
        stop,
    }
}

fn internal(e: impl std::fmt::Display) -> TableError {
    TableError::Internal(e.to_string())
}

impl Machine {
    /// A table in the lobby.
    #[must_use]
    pub(crate) fn new(t: NewTable) -> Machine {
        Machine {
            host: t.host,
            invite: t.invite,
            profile: t.profile,
            spectator_chat: t.spectator_chat,
            first_dealer: t.first_dealer,
            seats: [None, None, None, None],
            stage: Stage::Lobby,
            version: 0,
            state_version: 0,
            spectators: 0,
            spectators_told: 0,
            rematch: None,
            reserved: [None, None, None, None],
            rematch_lobby: false,
            stop: None,
            fair: fair::Fair::default(),
            people_only: false,
            practice: None,
            rated: None,
        }
    }

    /// The key of the table's invite link, for its host: made from his token
    /// ([`Secret::invite_key`]), or at a table stored before the key had a column of its
    /// own, the key it had then ([`TokenHash::legacy_invite_key`]).
    ///
    /// # Errors
    /// [`TableError::NotHost`] for another token.
    pub(crate) fn invite_key(&self, host: &Secret) -> Result<Secret, TableError> {
        if !self.host.verifies(host) {
            return Err(TableError::NotHost);
        }
        [host.invite_key(), self.host.legacy_invite_key()]
            .into_iter()
            .find(|key| self.invite.verifies(key))
            .ok_or_else(|| internal("the stored invite key is not the host's"))
    }

    /// Whether `key` is this table's invite key.
    #[must_use]
    pub(crate) fn invites(&self, key: &Secret) -> bool {
        self.invite.verifies(key)
    }

    /// Whether `token` is the host's.
    #[must_use]
    pub(crate) fn is_host(&self, token: &Secret) -> bool {
        self.host.verifies(token)
    }

    /// Players at the table.
    #[must_use]
    pub(crate) fn players(&self) -> u8 {
        self.profile.players()
    }

    /// The table's house profile.
    #[must_use]
    pub(crate) fn profile(&self) -> &Profile {
        &self.profile
    }

    /// The last version handed out.
    #[must_use]
    pub(crate) fn version(&self) -> u64 {
        self.version
    }

    /// The version of the last change to the game.
    #[must_use]
    pub(crate) fn state_version(&self) -> u64 {
        self.state_version
    }

    /// Checks the version an action or `next_deal` was chosen at: not before the game's
    /// last change (stale), and not after the last item (a version nobody was sent).
    fn check_version(&self, version: u64) -> Result<(), TableError> {
        if version < self.state_version {
            return Err(TableError::Stale {
                at: self.state_version,
                yours: version,
            });
        }
        if version > self.version {
            return Err(TableError::FutureVersion {
                at: self.version,
                yours: version,
            });
        }
        Ok(())
    }

    /// Where the table stands.
    #[must_use]
    pub(crate) fn stage(&self) -> &Stage {
        &self.stage
    }

    /// Whether spectators take part in the chat.
    #[must_use]
    pub(crate) fn spectator_chat(&self) -> bool {
        self.spectator_chat
    }

    /// The occupant of `seat`.
    #[must_use]
    pub(crate) fn occupant(&self, seat: u8) -> Option<&Occupant> {
        self.seats.get(usize::from(seat)).and_then(Option::as_ref)
    }

    /// The seat whose token this is; every seat is compared, without an early exit.
    #[must_use]
    pub(crate) fn seat_of(&self, token: &Secret) -> Option<u8> {
        let token = TokenHash::of(token);
        let mut found = None;
        for (i, o) in self.seats.iter().enumerate() {
            if let Some(o) = o
                && o.token.matches(&token)
            {
                found = Some(i as u8);
            }
        }
        found
    }

    /// Whether `viewer` with `token` speaks for itself: a spectator always does; a seat only
    /// while `token` is its current occupant's.
    #[must_use]
    pub(crate) fn holds(&self, viewer: Viewer, token: Option<&Secret>) -> bool {
        match (viewer, token) {
            (Viewer::Spectator, _) => true,
            (Viewer::Seat(seat), Some(token)) => self
                .occupant(seat.0)
                .is_some_and(|o| o.token.verifies(token)),
            (Viewer::Seat(_), None) => false,
        }
    }

    /// The game, once started.
    #[must_use]
    pub(crate) fn game(&self) -> Option<&Game> {
        match &self.stage {
            Stage::Lobby => None,
            Stage::Playing { game, .. } | Stage::BetweenDeals { game, .. } => Some(game),
            Stage::Over { game, .. } => game.as_deref(),
        }
    }
}

impl Machine {
    /// Applies `op`: refused, nothing changes; accepted, the table changes and the
    /// [`Change`] says what to store and what to tell.
    ///
    /// # Errors
    /// [`TableError`] saying why the op was refused.
    pub(crate) fn apply(&mut self, op: Op) -> Result<Change, TableError> {
        let mut change = Change::default();
        self.fair_guard(&op)?;
        match op {
            Op::Claim {
                name,
                seat,
                host,
                invite,
                token,
            } => self.claim(&mut change, &name, seat, (host, invite), token)?,
            Op::Rejoin { seat, name, token } => self.rejoin(&mut change, seat, &name, token)?,
            Op::BotClaim {
                name,
                seat,
                invite,
                invited,
                token,
            } => self.bot_claim(&mut change, &name, seat, (invite, invited), token)?,
            Op::Leave { token } => {
                let seat = self.seat_of(&token).ok_or(TableError::NotSeated)?;
                if let Stage::Over { .. } = self.stage {
                    return Err(TableError::Over);
                }
                self.free(&mut change, seat)?;
            }
            Op::Host { host, op } => {
                if !self.host.verifies(&host) {
                    return Err(TableError::NotHost);
                }
                if let Stage::Over { .. } = self.stage {
                    return Err(TableError::Over);
                }
                self.host_op(&mut change, op)?;
            }
            Op::Act {
                seat,
                token,
                version,
                action,
            } => {
                if !self.holds(Viewer::Seat(seat), Some(&token)) {
                    return Err(TableError::SeatLost);
                }
                self.act(&mut change, seat, version, action)?;
            }
            Op::Autopilot {
                seat,
                version,
                action,
            } => {
                if self.occupant(seat.0).is_none_or(|o| o.bot.is_some()) {
                    return Err(TableError::SeatLost);
                }
                self.act(&mut change, seat, version, action)?;
            }
            #[cfg(test)]
            Op::NextDeal {
                seat,
                token,
                version,
                deck,
            } => {
                if !self.holds(Viewer::Seat(seat), Some(&token)) {
                    return Err(TableError::SeatLost);
                }
                self.next_deal(&mut change, version, &deck)?;
            }
            Op::Chat {
                viewer,
                token,
                text,
            } => {
                if !self.holds(viewer, token.as_ref()) {
                    return Err(TableError::SeatLost);
                }
                let from = match viewer {
                    Viewer::Seat(s) => Speaker::Seat(s),
                    Viewer::Spectator if self.spectator_chat => Speaker::Spectator,
                    Viewer::Spectator => return Err(TableError::ChatForbidden),
                };
                self.publish(&mut change, News::Public(Public::Chat { from, text }));
            }
            Op::Presence {
                seat,
                token,
                connected,
            } => self.presence(&mut change, seat, &token, connected),
            Op::Watching { connected } => self.watching(connected),
            Op::TellSpectators => self.tell_spectators(&mut change),
            Op::Rematch { host, table } => self.rematched(&mut change, &host, table)?,
            Op::ClockPaused { paused } => {
                self.publish(&mut change, News::Public(Public::ClockPaused { paused }));
            }
            Op::ClockBack { seat } => {
                self.publish(
                    &mut change,
                    News::Public(Public::ClockBack { seat: seat.0 }),
                );
            }
            Op::Fair(op) => self.fair_op(&mut change, op)?,
            Op::Stop { seat, token, vote } => self.stop_vote(&mut change, seat, &token, vote)?,
            Op::AwayAccepts { seat } => self.away_accepts(&mut change, seat),
        }
        self.fair_publish(&mut change);
        Ok(change)
    }

    /// Numbers `news` with the next version.
    fn publish(&mut self, change: &mut Change, news: News) {
        self.version += 1;
        if change.news.is_empty() {
            change.first = self.version;
        }
        change.news.push(news);
    }

    /// The game has dealt deal `deal_no` from `deck`: the table is playing it.
    fn dealt(
        &mut self,
        change: &mut Change,
        game: Box<Game>,
        deal_no: u32,
        deck: &[Card; 32],
        event: pref_core::Event,
    ) {
        change.writes.push(Write::Deal {
            deal_no,
            deck: *deck,
        });
        self.stage = Stage::Playing {
            game,
            deal_no,
            seq: 0,
        };
        self.state_version = self.version + 1;
        self.publish(change, News::Deal { deal_no, event });
        change.turn = Some(self.turn());
    }

    fn next_deal(
        &mut self,
        change: &mut Change,
        version: u64,
        deck: &[Card; 32],
    ) -> Result<(), TableError> {
        let Stage::BetweenDeals { game, deals, .. } = &self.stage else {
            return Err(match self.stage {
                Stage::Over { .. } => TableError::Over,
                Stage::Lobby => TableError::NotStarted,
                Stage::Playing { .. } | Stage::BetweenDeals { .. } => TableError::DealInProgress,
            });
        };
        self.check_version(version)?;
        if (0..self.players()).any(|s| self.occupant(s).is_none()) {
            return Err(TableError::SeatsFree);
        }
        let deal_no = *deals;
        let mut game = game.clone();
        let event = game.start_deal(deck).map_err(internal)?;
        self.dealt(change, game, deal_no, deck, event);
        Ok(())
    }

    fn act(
        &mut self,
        change: &mut Change,
        seat: Seat,
        version: u64,
        action: Action,
    ) -> Result<(), TableError> {
        let Stage::Playing { game, deal_no, seq } = &self.stage else {
            return Err(match self.stage {
                Stage::Over { .. } => TableError::Over,
                Stage::Lobby => TableError::NotStarted,
                Stage::Playing { .. } | Stage::BetweenDeals { .. } => TableError::NoDeal,
            });
        };
        let (deal_no, seq) = (*deal_no, *seq);
        let Some(&before) = game.deal() else {
            return Err(TableError::NoDeal);
        };
        self.check_version(version)?;
        let mut next = game.clone();
        let events = next.act(seat, action).map_err(|e| match e {
            GameError::Rule(e @ RuleError::NotYourTurn { .. }) => {
                TableError::NotYourTurn(e.to_string())
            }
            GameError::Rule(e) => TableError::Rule {
                message: e.to_string(),
                rule: e.rule(),
            },
            GameError::GameOver => TableError::Over,
            other => TableError::Internal(other.to_string()),
        })?;
        change.writes.push(Write::Action {
            deal_no,
            seq,
            seat,
            action,
        });
        self.state_version = self.version + 1;
        for event in events {
            self.publish(change, News::Deal { deal_no, event });
        }
        if next.deal().is_some() {
            self.stage = Stage::Playing {
                game: next,
                deal_no,
                seq: seq + 1,
            };
        } else {
            let mut finished = before;
            // The core accepted this action on the same deal a moment ago.
            let _ = finished.act(seat, action);
            let over = next.settlement();
            let sheet = SheetView::of(next.sheet());
            let score = next
                .scores()
                .len()
                .checked_sub(1)
                .and_then(|last| ScoreEntry::of(&next, last))
                .map(Box::new)
                .ok_or_else(|| internal("a finished deal has no score"))?;
            self.publish(
                change,
                News::Public(Public::DealFinished {
                    deal_no,
                    sheet,
                    game_over: over.is_some(),
                    score,
                }),
            );
            let last = Some(Box::new(finished));
            let deals = deal_no + 1;
            match over {
                Some(balance) => {
                    let settlement = settlement(false, &balance, Some(&next));
                    change.writes.push(Write::Over);
                    self.stage = Stage::Over {
                        game: Some(next),
                        last,
                        deals,
                        settlement: settlement.clone(),
                    };
                    self.publish(change, News::Public(Public::GameOver(settlement)));
                }
                None => {
                    self.stage = Stage::BetweenDeals {
                        game: next,
                        last,
                        deals,
                    };
                }
            }
        }
        change.turn = Some(self.turn());
        Ok(())
    }

    fn presence(&mut self, change: &mut Change, seat: Seat, token: &Secret, connected: bool) {
        let Some(o) = self.seats.get_mut(seat.index()).and_then(Option::as_mut) else {
            return;
        };
        if !o.token.verifies(token) {
            return;
        }
        let before = o.sockets > 0;
        if connected {
            o.sockets += 1;
        } else {
            o.sockets = o.sockets.saturating_sub(1);
        }
        let after = o.sockets > 0;
        if before != after {
            self.publish(
                change,
                News::Public(Public::Presence {
                    seat: seat.0,
                    connected: after,
                }),
            );
        }
    }
}
