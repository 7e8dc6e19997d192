//! Who is at the table besides its players, and where they all go next: the spectator
//! count every viewer is told (counted at once, told when the table asks, at most once a
//! second: `table/audience.rs`), and the rematch the host opens once the game is over (the
//! new table itself is made by the edge; the machine checks the host, hands out what the
//! new table copies, and tells every viewer its link).

use pref_core::Profile;
use pref_protocol::{BotLevel, Public};

use super::{Change, Machine, Stage, TableError};
use crate::ids::Secret;
use crate::table::wire::News;

/// What a rematch copies from a finished table.
#[derive(Clone, Debug)]
pub struct RematchPlan {
    /// The same house profile.
    pub profile: Profile,
    /// The same chat rule for spectators.
    pub spectator_chat: bool,
    /// The bots to seat again, by seat and level.
    pub bots: Vec<(u8, BotLevel)>,
    /// The people's seats, kept for their names until they take them by the link.
    pub people: Vec<(u8, String)>,
    /// The bot accounts' seats, kept for them by an invitation (`docs/bot-api.md`).
    pub bot_accounts: Vec<(u8, String)>,
    /// People only: bot accounts may not sit.
    pub people_only: bool,
}

/// The preset `profile` is closest to (the fewest keys overridden; the first preset of
/// [`pref_core::PRESETS`] on a tie).
#[must_use]
pub(crate) fn nearest_preset(profile: &Profile) -> Option<String> {
    pref_core::PRESETS
        .iter()
        .filter_map(|&name| Profile::preset(name).map(|p| (name, profile.overrides_from(&p).len())))
        .min_by_key(|&(_, differ)| differ)
        .map(|(name, _)| name.to_owned())
}

impl Machine {
    /// The preset the table's profile is closest to (the fewest keys overridden; the first
    /// preset of [`pref_core::PRESETS`] on a tie): the lobby names it.
    #[must_use]
    pub(crate) fn preset_name(&self) -> Option<String> {
        nearest_preset(&self.profile)
    }

    /// Whether the spectator count changed since the viewers were last told it.
    #[must_use]
    pub(crate) fn spectators_untold(&self) -> bool {
        self.spectators != self.spectators_told
    }

    /// A spectator's socket opened (`true`) or closed: the count changes at once; the
    /// viewers (and the summary a snapshot carries) are told it by
    /// [`Machine::tell_spectators`], which the table calls at most once a second.
    pub(super) fn watching(&mut self, connected: bool) {
        self.spectators = if connected {
            self.spectators.saturating_add(1)
        } else {
            self.spectators.saturating_sub(1)
        };
    }

    /// Tells every viewer the spectator count, if it changed since they were last told.
    pub(super) fn tell_spectators(&mut self, change: &mut Change) {
        if !self.spectators_untold() {
            return;
        }
        let count = self.spectators;
        self.spectators_told = count;
        self.publish(change, News::Public(Public::Spectators { count }));
    }

    /// What a rematch of this table copies, for its host once the game is over and before
    /// a rematch is open.
    ///
    /// # Errors
    /// [`TableError::NotHost`], [`TableError::NotOver`] or [`TableError::Rematched`].
    pub(crate) fn rematch_plan(&self, host: &Secret) -> Result<RematchPlan, TableError> {
        self.check_rematch(host)?;
        Ok(RematchPlan {
            profile: self.profile.clone(),
            spectator_chat: self.spectator_chat,
            bots: (0..self.players())
                .filter_map(|s| self.occupant(s).and_then(|o| o.bot).map(|b| (s, b)))
                .collect(),
            people: (0..self.players())
                .filter_map(|s| {
                    self.occupant(s)
                        .filter(|o| o.bot.is_none() && !o.bot_account)
                        .map(|o| (s, o.name.clone()))
                })
                .collect(),
            bot_accounts: (0..self.players())
                .filter_map(|s| {
                    self.occupant(s)
                        .filter(|o| o.bot_account)
                        .map(|o| (s, o.name.clone()))
                })
                .collect(),
            people_only: self.people_only,
        })
    }

    /// The name free seat `seat` is kept for, if any.
    #[must_use]
    pub(crate) fn reserved(&self, seat: u8) -> Option<&str> {
        self.reserved
            .get(usize::from(seat))
            .and_then(Option::as_deref)
    }

    /// Keeps free seat `seat` for `name` while the table is in the lobby; a rematch's kept
    /// seat (`rematch`) makes the lobby a rematch's, which starts itself.
    pub(super) fn reserve(
        &mut self,
        seat: u8,
        name: String,
        rematch: bool,
    ) -> Result<(), TableError> {
        if !matches!(self.stage, Stage::Lobby) {
            return Err(TableError::Started);
        }
        let name = super::check_name(&name)?;
        self.free_seat(Some(seat))?;
        self.reserved[usize::from(seat)] = Some(name);
        self.rematch_lobby |= rematch;
        Ok(())
    }

    /// Whether this is a rematch's lobby with every seat taken again (its kept seats by
    /// their holders, the others by the bots the host seated): the table starts it itself
    /// ([`super::Opening::Rematch`]), nobody presses Start again.
    #[must_use]
    pub(crate) fn rematch_ready(&self) -> bool {
        self.rematch_lobby
            && matches!(self.stage, Stage::Lobby)
            && self.fair_step().is_none()
            && (0..self.players()).all(|s| self.occupant(s).is_some())
    }

    /// The seat a claim takes: the one asked for unless it is kept, else the first free
    /// seat kept for nobody. A kept seat goes only to its holder at the finished table
    /// ([`Machine::rejoin`]), whatever name a claim gives; the host (`by_host`) may still
    /// seat anyone in it, as he may put a bot there.
    pub(super) fn seat_for(&self, seat: Option<u8>, by_host: bool) -> Result<u8, TableError> {
        let kept = |s: u8| if by_host { None } else { self.reserved(s) };
        match seat {
            Some(s) => {
                let s = self.free_seat(Some(s))?;
                match kept(s) {
                    Some(name) => Err(TableError::SeatReserved(s, name.to_owned())),
                    None => Ok(s),
                }
            }
            None => (0..self.players())
                .find(|&s| self.occupant(s).is_none() && kept(s).is_none())
                .ok_or(TableError::Full),
        }
    }

    /// The player who held a seat of the finished table takes the seat this rematch keeps
    /// for `name` (the edge has checked his seat token there: it stands for the invite link).
    ///
    /// # Errors
    /// [`TableError::Started`] once the game has started, [`TableError::Over`],
    /// [`TableError::SeatTaken`] for a seat taken already, [`TableError::NotKept`] for a
    /// seat kept for nobody or for another name.
    pub(super) fn rejoin(
        &mut self,
        change: &mut Change,
        seat: u8,
        name: &str,
        token: Secret,
    ) -> Result<(), TableError> {
        match self.stage {
            Stage::Lobby => {}
            Stage::Playing { .. } | Stage::BetweenDeals { .. } => return Err(TableError::Started),
            Stage::Over { .. } => return Err(TableError::Over),
        }
        let seat = self.free_seat(Some(seat))?;
        let kept = self
            .reserved(seat)
            .filter(|kept| kept.to_lowercase() == name.to_lowercase())
            .ok_or(TableError::NotKept(seat))?
            .to_owned();
        self.seat(change, seat, kept, token, None);
        Ok(())
    }

    /// Where the person holding `token` at this table sits in its rematch: the rematch's
    /// id, the seat and the name it is kept for.
    ///
    /// # Errors
    /// [`TableError::NoRematch`] before the host opened one; [`TableError::NotSeated`] for a
    /// token that holds no person's seat here.
    pub(crate) fn rematch_seat(&self, token: &Secret) -> Result<(String, u8, String), TableError> {
        let table = self.rematch.clone().ok_or(TableError::NoRematch)?;
        let seat = self.seat_of(token).ok_or(TableError::NotSeated)?;
        // A bot account is invited to the rematch instead (`docs/bot-api.md`).
        let name = self
            .occupant(seat)
            .filter(|o| o.bot.is_none() && !o.bot_account)
            .map(|o| o.name.clone())
            .ok_or(TableError::NotSeated)?;
        Ok((table, seat, name))
    }

    fn check_rematch(&self, host: &Secret) -> Result<(), TableError> {
        if !self.host.verifies(host) {
            return Err(TableError::NotHost);
        }
        if !matches!(self.stage, Stage::Over { .. }) {
            return Err(TableError::NotOver);
        }
        if self.rematch.is_some() {
            return Err(TableError::Rematched);
        }
        Ok(())
    }

    /// The host opened table `table` as this one's rematch: every viewer is told its link.
    pub(super) fn rematched(
        &mut self,
        change: &mut Change,
        host: &Secret,
        table: String,
    ) -> Result<(), TableError> {
        self.check_rematch(host)?;
        self.rematch = Some(table.clone());
        self.publish(change, News::Public(Public::Rematch { table }));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use pref_core::{Profile, Seat};
    use serde_json::json;

    use super::super::{HostOp, Machine, NewTable, Op, TableError};
    use crate::ids::{Secret, TokenHash};

    fn lobby(host: Secret) -> Machine {
        Machine::new(NewTable {
            host: TokenHash::of(&host),
            invite: crate::ids::TokenHash::of(&crate::ids::TEST_INVITE),
            profile: Profile::from_json(&json!({"preset": "sochi", "pool_target": 30})).unwrap(),
            spectator_chat: false,
            first_dealer: Seat(0),
        })
    }

    fn claim(m: &mut Machine, name: &str, seat: Option<u8>) -> Result<u8, TableError> {
        m.apply(Op::Claim {
            name: name.into(),
            seat,
            host: None,
            invite: Some(crate::ids::TEST_INVITE),
            token: Secret::random(),
        })?;
        Ok((0..3)
            .find(|&s| m.occupant(s).is_some_and(|o| o.name == name))
            .expect("seated"))
    }

    #[test]
    fn the_lobby_names_the_preset_nearest_to_the_profile() {
        for (request, preset) in [
            (json!("leningrad"), "leningrad"),
            (json!({"preset": "rostov", "pool_target": 40}), "rostov"),
            (json!({"preset": "sochi", "pool_target": 30}), "sochi"),
        ] {
            let m = Machine::new(NewTable {
                host: TokenHash::of(&Secret::random()),
                invite: crate::ids::TokenHash::of(&crate::ids::TEST_INVITE),
                profile: Profile::from_json(&request).unwrap(),
                spectator_chat: false,
                first_dealer: Seat(0),
            });
            assert_eq!(m.preset_name().as_deref(), Some(preset), "{request}");
        }
    }

    #[test]
    fn a_kept_seat_goes_only_to_its_holder_at_the_finished_table() {
        let host = Secret::random();
        let mut m = lobby(host);
        assert_eq!(m.preset_name().as_deref(), Some("sochi"));
        let keep = |m: &mut Machine, seat: u8, name: &str| {
            m.apply(Op::Host {
                host,
                op: HostOp::Reserve {
                    seat,
                    name: name.into(),
                    rematch: true,
                },
            })
        };
        let rejoin = |m: &mut Machine, seat: u8, name: &str| {
            m.apply(Op::Rejoin {
                seat,
                name: name.into(),
                token: Secret::random(),
            })
            .map(|_| ())
        };
        keep(&mut m, 0, "Anna").unwrap();
        keep(&mut m, 2, "Vera").unwrap();
        assert_eq!(m.summary().seats[0].reserved.as_deref(), Some("Anna"));
        // Another name is refused the kept seat, and the first free seat skips kept ones.
        assert_eq!(
            claim(&mut m, "Boris", Some(0)),
            Err(TableError::SeatReserved(0, "Anna".into()))
        );
        assert_eq!(claim(&mut m, "Boris", None), Ok(1));
        assert_eq!(claim(&mut m, "Gleb", None), Err(TableError::Full));
        // A plain claim with the kept name is refused too: the name alone proves nothing.
        let before = format!("{m:?}");
        assert_eq!(claim(&mut m, "vera", None), Err(TableError::Full));
        assert_eq!(
            claim(&mut m, "Anna", Some(0)),
            Err(TableError::SeatReserved(0, "Anna".into()))
        );
        assert_eq!(
            format!("{m:?}"),
            before,
            "a refused claim changed the table"
        );
        // Only the holder (the edge checked his token at the finished table) takes it.
        assert_eq!(rejoin(&mut m, 0, "Vera"), Err(TableError::NotKept(0)));
        assert_eq!(rejoin(&mut m, 1, "Boris"), Err(TableError::SeatTaken(1)));
        assert_eq!(rejoin(&mut m, 2, "vera"), Ok(()));
        assert_eq!(m.occupant(2).unwrap().name, "Vera");
        // The host may still seat anyone in a kept seat, as he may put a bot there.
        let by_host = m.apply(Op::Claim {
            name: "Gleb".into(),
            seat: Some(0),
            host: Some(host),
            invite: None,
            token: Secret::random(),
        });
        assert!(by_host.is_ok());
        assert!(m.summary().seats.iter().all(|s| s.reserved.is_none()));
        // Only a free seat in the lobby is kept.
        assert_eq!(
            keep(&mut m, 1, "Gleb").unwrap_err(),
            TableError::SeatTaken(1)
        );
    }

    /// The contribution window of a deal opened by `opening`.
    fn open(m: &mut Machine, opening: super::super::Opening) -> Result<(), TableError> {
        m.apply(Op::Fair(super::super::FairOp::Open {
            opening,
            seed: pref_core::fair::Seed::from_bytes([7; 32]),
            window_ms: 3000,
        }))
        .map(|_| ())
    }

    #[test]
    fn a_rematch_starts_itself_once_every_kept_seat_is_back_and_a_plain_lobby_never_does() {
        use super::super::Opening;
        // A plain lobby, full: only the host starts it.
        let host = Secret::random();
        let mut plain = lobby(host);
        for name in ["Anna", "Boris", "Vera"] {
            claim(&mut plain, name, None).unwrap();
        }
        assert!(!plain.rematch_ready());
        let before = format!("{plain:?}");
        assert_eq!(open(&mut plain, Opening::Rematch), Err(TableError::NotHost));
        assert_eq!(
            format!("{plain:?}"),
            before,
            "a refused start changed the table"
        );

        // A rematch's lobby: ready once its kept seats are taken by their holders.
        let mut m = lobby(host);
        for (seat, name) in [(0, "Anna"), (1, "Boris")] {
            m.apply(Op::Host {
                host,
                op: HostOp::Reserve {
                    seat,
                    name: name.into(),
                    rematch: true,
                },
            })
            .unwrap();
        }
        m.apply(Op::Host {
            host,
            op: HostOp::Bot {
                seat: 2,
                level: pref_protocol::BotLevel::Easy,
                token: Secret::random(),
            },
        })
        .unwrap();
        assert!(!m.rematch_ready(), "two kept seats are free");
        m.apply(Op::Rejoin {
            seat: 0,
            name: "Anna".into(),
            token: Secret::random(),
        })
        .unwrap();
        assert!(!m.rematch_ready(), "Boris is not back");
        assert_eq!(open(&mut m, Opening::Rematch), Err(TableError::SeatsFree));
        m.apply(Op::Rejoin {
            seat: 1,
            name: "Boris".into(),
            token: Secret::random(),
        })
        .unwrap();
        assert!(m.rematch_ready());
        m.set_fair_table(pref_core::fair::TableTag::of("rematch"));
        assert_eq!(open(&mut m, Opening::Rematch), Ok(()));
        // Opened once (nobody joined the fair window, so the first deal is dealt at once):
        // the game runs, and the table is not ready to start it again.
        assert_eq!(m.phase(), pref_protocol::Phase::Playing);
        assert!(!m.rematch_ready());
        assert_eq!(open(&mut m, Opening::Rematch), Err(TableError::Started));
    }
}
