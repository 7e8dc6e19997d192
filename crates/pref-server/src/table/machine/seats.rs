//! Who sits where, and what the host may change: a seat claimed or given to a bot, freed,
//! and the host's operations on the lobby and between deals. Part of the pure table machine
//! (`mod.rs` holds its state and [`Machine::apply`], which calls these).

use pref_core::{Game, Seat};
use pref_protocol::{BotLevel, Public};

use super::{Change, HostOp, Machine, Occupant, Stage, TableError, Write, check_name, internal};
use crate::ids::{Secret, TokenHash};
use crate::table::wire::News;

/// Who takes a seat, beside a bot of the server's (which is [`Holder::Person`] with a
/// level).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Holder {
    /// Somebody by the invite link, a kept seat, or a bot the host seated.
    Person,
    /// The host by his own claim (host token as bearer): [`super::Occupant::host`].
    Host,
    /// A bot account ([`super::Occupant::bot_account`]).
    BotAccount,
}

impl Machine {
    /// The seat asked for, or the first free one.
    pub(super) fn free_seat(&self, seat: Option<u8>) -> Result<u8, TableError> {
        let free = |s: u8| self.occupant(s).is_none();
        match seat {
            Some(s) if s >= self.players() => Err(TableError::NoSuchSeat(s)),
            Some(s) if !free(s) => Err(TableError::SeatTaken(s)),
            Some(s) => Ok(s),
            None => (0..self.players())
                .find(|&s| free(s))
                .ok_or(TableError::Full),
        }
    }

    pub(super) fn claim(
        &mut self,
        change: &mut Change,
        name: &str,
        seat: Option<u8>,
        (host, invite): (Option<Secret>, Option<Secret>),
        token: Secret,
    ) -> Result<(), TableError> {
        let name = check_name(name)?;
        self.rated_kind(false)?;
        let by_host = host.is_some_and(|h| self.host.verifies(&h));
        match self.stage {
            Stage::Lobby => {
                if !by_host && !invite.is_some_and(|k| self.invites(&k)) {
                    return Err(TableError::InviteRequired);
                }
            }
            Stage::Playing { .. } | Stage::BetweenDeals { .. } => {
                if !by_host {
                    return Err(TableError::HostSeats);
                }
            }
            Stage::Over { .. } => return Err(TableError::Over),
        }
        let seat = self.seat_for(seat, by_host)?;
        let holder = if by_host {
            Holder::Host
        } else {
            Holder::Person
        };
        self.seat_marked(change, seat, (name, token), None, holder);
        Ok(())
    }

    /// Puts an occupant into free seat `seat`, which is no longer kept for anybody.
    pub(super) fn seat(
        &mut self,
        change: &mut Change,
        seat: u8,
        name: String,
        token: Secret,
        bot: Option<BotLevel>,
    ) {
        self.seat_marked(change, seat, (name, token), bot, Holder::Person);
    }

    /// [`Machine::seat`], saying who takes the seat: a bot account, or the host by his own
    /// claim.
    pub(super) fn seat_marked(
        &mut self,
        change: &mut Change,
        seat: u8,
        (name, token): (String, Secret),
        bot: Option<BotLevel>,
        holder: Holder,
    ) {
        let bot_account = holder == Holder::BotAccount;
        let host = holder == Holder::Host;
        self.reserved[usize::from(seat)] = None;
        self.withdraw_stop(change, seat);
        let token = TokenHash::of(&token);
        let from_deal = self.deals_dealt();
        self.seats[usize::from(seat)] = Some(Occupant {
            name: name.clone(),
            token,
            sockets: 0,
            bot,
            bot_account,
            host,
            from_deal,
            since: self.version + 1,
        });
        change.writes.push(Write::Seat {
            seat,
            name: name.clone(),
            token,
            bot,
            from_deal,
            host,
        });
        self.publish(
            change,
            News::Public(Public::SeatTaken {
                seat,
                name,
                bot,
                bot_account,
            }),
        );
    }

    pub(super) fn free(&mut self, change: &mut Change, seat: u8) -> Result<(), TableError> {
        if let Stage::Playing { .. } = self.stage {
            return Err(TableError::DealInProgress);
        }
        if self.occupant(seat).is_none() {
            return Err(TableError::SeatFree(seat));
        }
        self.seats[usize::from(seat)] = None;
        self.withdraw_stop(change, seat);
        change.writes.push(Write::Free(seat));
        change.freed = Some((seat, self.version + 1));
        self.publish(change, News::Public(Public::SeatFreed { seat }));
        Ok(())
    }

    pub(super) fn host_op(&mut self, change: &mut Change, op: HostOp) -> Result<(), TableError> {
        match op {
            HostOp::Start { deck } => {
                if !matches!(self.stage, Stage::Lobby) {
                    return Err(TableError::Started);
                }
                if (0..self.players()).any(|s| self.occupant(s).is_none()) {
                    return Err(TableError::SeatsFree);
                }
                let game = Game::new(self.profile.clone(), self.first_dealer).map_err(internal)?;
                let mut game = Box::new(game);
                let event = game.start_deal(&deck).map_err(internal)?;
                change.writes.push(Write::Playing);
                let first_dealer = self.first_dealer;
                self.publish(change, News::Public(Public::Started { first_dealer }));
                self.dealt(change, game, 0, &deck, event);
            }
            HostOp::Profile(profile) => {
                self.rated_refuses()?;
                if !matches!(self.stage, Stage::Lobby) {
                    return Err(TableError::ProfileFrozen);
                }
                if (profile.players()..4).any(|s| self.occupant(s).is_some()) {
                    return Err(TableError::SeatBeyond);
                }
                if self.first_dealer.0 >= profile.players() {
                    self.first_dealer = Seat(0);
                }
                let json = profile.to_json();
                change.writes.push(Write::Profile(json.clone()));
                self.profile = profile;
                self.publish(
                    change,
                    News::Public(Public::ProfileChanged { profile: json }),
                );
            }
            HostOp::Remove(seat) => self.free(change, seat)?,
            HostOp::Reserve {
                seat,
                name,
                rematch,
            } => self.reserve(seat, name, rematch)?,
            HostOp::Bot { seat, level, token } => {
                self.rated_refuses()?;
                if seat >= self.players() {
                    return Err(TableError::NoSuchSeat(seat));
                }
                if self.occupant(seat).is_some() {
                    return Err(TableError::SeatTaken(seat));
                }
                self.seat(
                    change,
                    seat,
                    format!("Bot {}", seat + 1),
                    token,
                    Some(level),
                );
                change.bot = Some((Seat(seat), level, token));
            }
            HostOp::End => self.host_end(change)?,
        }
        Ok(())
    }
}
