//! The table actor's side of the clock: moving the pure [`Clock`](crate::table::machine::clock::Clock) after every stored change,
//! the one timer (its deadline for the actor's `select!`), the autopilot when a person's time
//! is up, and the host's pause. The clock's rules themselves are in `machine/clock.rs`.

use pref_core::{ActionTime, Seat, Viewer};
use pref_protocol::BotLevel;

use super::Table;
use crate::ids::Secret;
use crate::table::bots;
use crate::table::machine::clock::TimedDeal;
use crate::table::machine::{Change, Op, Stage, TableError, Write};

impl Table {
    /// Now, in Unix milliseconds, as the runtime's clock has moved since the table started.
    pub(super) fn now_ms(&self) -> u64 {
        self.origin.1 + self.origin.0.elapsed().as_millis() as u64
    }

    /// The runtime's instant for `ms` Unix milliseconds.
    pub(super) fn instant(&self, ms: u64) -> tokio::time::Instant {
        self.origin.0 + std::time::Duration::from_millis(ms.saturating_sub(self.origin.1))
    }

    /// Moves the clock by what `change` did at `now`, and puts the clock (and the autopilot's
    /// mark, when `auto`) on the change's turn.
    pub(super) fn clocked(&mut self, change: &mut Change, now: u64, auto: bool) {
        let Some(clock) = &mut self.clock else { return };
        let mut mover = None;
        for w in &change.writes {
            if let Write::Seat { seat, .. } | Write::Free(seat) = w {
                clock.seated(Seat(*seat));
            }
            if let Write::Deal { deal_no, .. } = w {
                clock.deal_started(now);
                deal_times(&mut self.times, *deal_no);
            }
            if let Write::Action { seat, deal_no, .. } = w {
                let ms = clock.acted(*seat, now, auto);
                mover = Some(*seat);
                deal_times(&mut self.times, *deal_no).push(ActionTime { ms: Some(ms), auto });
            }
        }
        let playing = match self.machine.stage() {
            Stage::Playing { .. } => true,
            Stage::Lobby | Stage::BetweenDeals { .. } | Stage::Over { .. } => false,
        };
        if !playing {
            clock.deal_ended();
        }
        let started = matches!(
            self.machine.stage(),
            Stage::Playing { .. } | Stage::BetweenDeals { .. }
        );
        for s in 0..self.machine.players() {
            // Only a started game waits for people: an empty or lobby seat is nobody's absence.
            let here = !started
                || self
                    .machine
                    .occupant(s)
                    .is_none_or(|o| o.sockets > 0 || o.bot.is_some());
            clock.presence(Seat(s), here, now);
        }
        let view = self.clock_view();
        if let Some(turn) = &mut change.turn {
            turn.clock = view.map(Box::new);
            turn.autopilot = mover.filter(|_| auto);
        }
    }

    /// The seat whose turn it is.
    fn to_act(&self) -> Option<Seat> {
        let Stage::Playing { game, .. } = self.machine.stage() else {
            return None;
        };
        game.deal()?.to_act()
    }

    /// The person (not a bot) whose turn it is: bots keep time by themselves.
    fn person_to_act(&self) -> Option<Seat> {
        self.to_act().filter(|seat| {
            self.machine
                .occupant(seat.0)
                .is_some_and(|o| o.bot.is_none())
        })
    }

    /// The clock every viewer is shown now.
    pub(super) fn clock_view(&self) -> Option<pref_protocol::clock::ClockView> {
        self.clock
            .as_ref()?
            .view(self.to_act(), self.machine.players(), self.now_ms())
    }

    /// When the table's one timer must fire: the clock's nearest deadline, leaving out the
    /// turn the autopilot is already deciding.
    pub(super) fn wake_at(&self) -> Option<u64> {
        let clock = self.clock.as_ref()?;
        let to_act = self
            .person_to_act()
            .filter(|_| self.piloting != Some(self.machine.state_version()));
        clock.next_wake(to_act)
    }

    /// The timer fired: seats past their grace go away, and a turn whose time is up goes to
    /// the autopilot.
    pub(super) fn on_time(&mut self) {
        let now = self.now_ms();
        let to_act = self.person_to_act();
        let Some(clock) = &mut self.clock else { return };
        if clock.expire(now) {
            tracing::info!(table = self.no, "a disconnected seat is on autopilot");
        }
        let at = self.machine.state_version();
        if let Some(seat) = to_act
            && self.piloting != Some(at)
            && clock.due(seat, now)
        {
            self.piloting = Some(at);
            self.start_autopilot(seat);
        }
    }

    /// Whether the autopilot may still move for `seat` now: its time is up, or it is away
    /// and the short wait has passed.
    pub(super) fn autopilot_due(&self, seat: Seat) -> bool {
        let now = self.now_ms();
        self.clock.as_ref().is_some_and(|c| c.due(seat, now))
    }

    /// `viewer` says "I'm back": an away seat leaves the autopilot at once, and every viewer
    /// is told (`clock_back`).
    ///
    /// # Errors
    /// [`TableError::NotSeated`] for a spectator, [`TableError::SeatLost`] for a token that
    /// no longer holds the seat, [`TableError::NoClock`] at a table without a clock.
    pub(super) async fn back(
        &mut self,
        viewer: Viewer,
        token: Option<Secret>,
    ) -> Result<(), TableError> {
        let Viewer::Seat(seat) = viewer else {
            return Err(TableError::NotSeated);
        };
        if !self.machine.holds(viewer, token.as_ref()) {
            return Err(TableError::SeatLost);
        }
        let Some(clock) = &mut self.clock else {
            return Err(TableError::NoClock);
        };
        if clock.back(seat) {
            // Kept where it was said, so that a restart's replay of the clock ends the
            // autopilot there too.
            let back = crate::store::Back {
                deal_no: u32::try_from(self.times.len().saturating_sub(1)).unwrap_or(u32::MAX),
                seq: u32::try_from(self.times.last().map_or(0, Vec::len)).unwrap_or(u32::MAX),
                seat: seat.0,
            };
            self.store
                .put_back(self.no, back)
                .await
                .map_err(|e| TableError::Internal(e.to_string()))?;
            self.apply(Op::ClockBack { seat }).await?;
        }
        Ok(())
    }

    /// Asks the autopilot for `seat`'s move, from that seat's view only.
    fn start_autopilot(&self, seat: Seat) {
        let (Some(me), Stage::Playing { game, .. }) = (self.me.clone(), self.machine.stage())
        else {
            return;
        };
        let Some(deal) = game.deal() else { return };
        let players = self.machine.players();
        let events = game
            .deal_events()
            .iter()
            .map(|e| e.project(Viewer::Seat(seat), players))
            .collect();
        let level = self
            .clock
            .as_ref()
            .map_or(BotLevel::Normal, |c| c.control().level);
        tracing::info!(
            table = self.no,
            seat = seat.0,
            "time is up: the autopilot moves"
        );
        bots::autopilot(
            self.no,
            seat,
            level,
            self.machine.profile(),
            (
                self.machine.version(),
                Box::new(deal.view(Viewer::Seat(seat))),
                deal.legal_actions_for(seat),
            ),
            events,
            me,
        );
    }

    /// The host pauses or resumes the clock, between deals; stored so a restart keeps it.
    pub(super) async fn pause(
        &mut self,
        host: &Secret,
        paused: bool,
    ) -> Result<pref_protocol::Summary, TableError> {
        if !self.machine.is_host(host) {
            return Err(TableError::NotHost);
        }
        match self.machine.stage() {
            Stage::Playing { .. } => return Err(TableError::DealInProgress),
            Stage::Over { .. } => return Err(TableError::Over),
            Stage::Lobby | Stage::BetweenDeals { .. } => {}
        }
        let Some(clock) = &self.clock else {
            return Err(TableError::NoClock);
        };
        let mut info = clock.info();
        info.paused = paused;
        info.away.clear();
        self.store
            .set_clock(self.no, &info)
            .await
            .map_err(|e| TableError::Internal(e.to_string()))?;
        if let Some(clock) = &mut self.clock {
            clock.set_paused(paused);
        }
        // Every viewer's summary follows (its `clock.paused`).
        self.apply(Op::ClockPaused { paused }).await?;
        Ok(self.summary())
    }
}

/// The system clock in Unix milliseconds (0 before 1970, which no server sees).
pub(super) fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Deal `deal_no`'s list of action times, made (with any before it) if it is new.
fn deal_times(times: &mut Vec<Vec<ActionTime>>, deal_no: u32) -> &mut Vec<ActionTime> {
    let i = deal_no as usize;
    if times.len() <= i {
        times.resize_with(i + 1, Vec::new);
    }
    &mut times[i]
}

/// The time used and the autopilot's mark of each stored action: from the deal's start or
/// the action before it to the action (unknown where a row has no time).
pub(super) fn times(deals: &[TimedDeal]) -> Vec<Vec<ActionTime>> {
    deals
        .iter()
        .map(|(dealt, actions)| {
            let mut since = *dealt;
            actions
                .iter()
                .map(|&(_, at, auto)| {
                    let ms = since.zip(at).map(|(s, a)| a.saturating_sub(s));
                    since = at;
                    ActionTime { ms, auto }
                })
                .collect()
        })
        .collect()
}
