//! Bot accounts at the table (`docs/bot-api.md`): an outside program signed in by an API
//! token takes a seat like a person (the same rules, the same view of its seat) but is
//! marked as a bot to everybody, may not sit at a table for people only, and takes a seat
//! its host kept for its name when it was invited.

use super::seats::Holder;
use super::{Change, Machine, Stage, TableError, check_name};
use crate::ids::Secret;

impl Machine {
    /// The seats a program holds now: a house bot or a bot account (the record marks them).
    pub(super) fn program_seats(&self) -> Vec<pref_core::Seat> {
        (0..self.players())
            .filter(|&s| {
                self.occupant(s)
                    .is_some_and(|o| o.bot.is_some() || o.bot_account)
            })
            .map(pref_core::Seat)
            .collect()
    }

    /// Keeps bot accounts out (`true`) or lets them sit: chosen when the table opens.
    pub(crate) fn set_people_only(&mut self, people_only: bool) {
        self.people_only = people_only;
    }

    /// A bot account named `name` takes a seat: with `invited` the seat the host kept for
    /// it (the one asked, or the first kept for its name), otherwise a free seat kept for
    /// nobody with the invite key, as a person's claim in the lobby.
    ///
    /// # Errors
    /// [`TableError::PeopleOnly`] at a table for people only; [`TableError::NotKept`] for a
    /// seat not kept for this name; otherwise a person's claim's refusals.
    pub(super) fn bot_claim(
        &mut self,
        change: &mut Change,
        name: &str,
        seat: Option<u8>,
        (invite, invited): (Option<Secret>, bool),
        token: Secret,
    ) -> Result<(), TableError> {
        if self.people_only {
            return Err(TableError::PeopleOnly);
        }
        self.rated_kind(true)?;
        let name = check_name(name)?;
        match self.stage {
            Stage::Lobby => {}
            Stage::Playing { .. } | Stage::BetweenDeals { .. } => {
                return Err(TableError::HostSeats);
            }
            Stage::Over { .. } => return Err(TableError::Over),
        }
        let folded = name.to_lowercase();
        let kept_for_me =
            |m: &Machine, s: u8| m.reserved(s).is_some_and(|k| k.to_lowercase() == folded);
        let seat = if invited {
            let seat = match seat {
                Some(s) => s,
                None => (0..self.players())
                    .find(|&s| kept_for_me(self, s))
                    .ok_or(TableError::NotKept(0))?,
            };
            let seat = self.free_seat(Some(seat))?;
            if !kept_for_me(self, seat) {
                return Err(TableError::NotKept(seat));
            }
            seat
        } else {
            if !invite.is_some_and(|k| self.invites(&k)) {
                return Err(TableError::InviteRequired);
            }
            self.seat_for(seat, false)?
        };
        self.seat_marked(change, seat, (name, token), None, Holder::BotAccount);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use pref_core::{Profile, Seat};
    use pref_protocol::Public;

    use super::super::{HostOp, Machine, NewTable, Op, TableError};
    use crate::ids::{Secret, TEST_INVITE, TokenHash};
    use crate::table::wire::News;

    fn lobby(host: Secret) -> Machine {
        Machine::new(NewTable {
            host: TokenHash::of(&host),
            invite: TokenHash::of(&TEST_INVITE),
            profile: Profile::sochi(),
            spectator_chat: false,
            first_dealer: Seat(0),
        })
    }

    fn bot(name: &str, seat: Option<u8>, invite: Option<Secret>, invited: bool) -> Op {
        Op::BotClaim {
            name: name.into(),
            seat,
            invite,
            invited,
            token: Secret::random(),
        }
    }

    #[test]
    fn a_bot_account_sits_marked_and_never_at_a_table_for_people_only() {
        let host = Secret::random();
        let mut m = lobby(host);
        // Without the invite key or an invitation, no seat.
        assert_eq!(
            m.apply(bot("Robo", None, None, false)).err(),
            Some(TableError::InviteRequired)
        );
        let change = m
            .apply(bot("Robo", Some(1), Some(TEST_INVITE), false))
            .unwrap();
        let taken = change.news.iter().find_map(|n| match n {
            News::Public(Public::SeatTaken {
                seat, bot_account, ..
            }) => Some((*seat, *bot_account)),
            _ => None,
        });
        assert_eq!(taken, Some((1, true)));
        let seats = m.summary().seats;
        assert!(seats[1].bot_account && seats[1].bot.is_none());
        assert!(!seats[0].bot_account);

        let mut people = lobby(host);
        people.set_people_only(true);
        assert!(people.summary().people_only);
        assert_eq!(
            people
                .apply(bot("Robo", None, Some(TEST_INVITE), false))
                .err(),
            Some(TableError::PeopleOnly)
        );
        assert!(people.summary().seats.iter().all(|s| s.name.is_none()));
    }

    #[test]
    fn an_invited_bot_takes_the_seat_kept_for_its_name_only() {
        let host = Secret::random();
        let mut m = lobby(host);
        m.apply(Op::Host {
            host,
            op: HostOp::Reserve {
                seat: 2,
                name: "Robo".into(),
                rematch: false,
            },
        })
        .unwrap();
        // Another bot's invitation does not open this seat, nor is another seat kept.
        assert_eq!(
            m.apply(bot("Other", None, None, true)).err(),
            Some(TableError::NotKept(0))
        );
        assert_eq!(
            m.apply(bot("Robo", Some(0), None, true)).err(),
            Some(TableError::NotKept(0))
        );
        // A person's claim with the invite key is refused the kept seat.
        assert_eq!(
            m.apply(Op::Claim {
                name: "Robo".into(),
                seat: Some(2),
                host: None,
                invite: Some(TEST_INVITE),
                token: Secret::random(),
            })
            .err(),
            Some(TableError::SeatReserved(2, "Robo".into()))
        );
        m.apply(bot("robo", None, None, true)).unwrap();
        let seat = &m.summary().seats[2];
        assert_eq!(seat.name.as_deref(), Some("robo"));
        assert!(seat.bot_account && seat.reserved.is_none());
        // An invitation is no rematch: with every seat taken the host still starts the game.
        for (seat, name) in [(0, "Anna"), (1, "Boris")] {
            m.apply(Op::Claim {
                name: name.into(),
                seat: Some(seat),
                host: None,
                invite: Some(TEST_INVITE),
                token: Secret::random(),
            })
            .unwrap();
        }
        assert!(m.summary().seats.iter().all(|s| s.name.is_some()));
        assert!(!m.rematch_ready());
    }
}
