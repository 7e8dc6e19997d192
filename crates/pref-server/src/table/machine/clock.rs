//! The table's clock, kept apart from the rules and pure: every method takes the current time
//! (Unix milliseconds) as an argument, so the actor owns the one timer and the tests need no
//! real time at all.
//!
//! A seat to act has its move allowance, then its bank; when both are spent the autopilot
//! moves for it. Two timeouts in a row, or a disconnection longer than the grace period, put
//! the seat on autopilot ("away") until its person acts again. The clock is rebuilt after a
//! restart from the stored times of the deals and actions ([`Clock::replay`]), so a deadline
//! survives a restart instead of starting over; and the time no node served the table is
//! nobody's ([`Clock::resume`], [`credit_outages`]): the player to act gets back the time he
//! had when the node went down.

use pref_core::{ProfileError, Seat};
use pref_protocol::BotLevel;
use pref_protocol::clock::{ClockInfo, ClockView, TimeControl};
use serde_json::Value;

/// How long the autopilot waits before it moves for an away seat: long enough for the
/// person to come back and act, short enough that nobody waits for a vanished player.
pub(crate) const AWAY_MOVE_MS: u64 = 2_000;

/// Timeouts in a row that put a seat on autopilot.
const STRIKES: u8 = 2;

/// The presets: name, move, bank, refill, grace (seconds).
const PRESETS: [(&str, u32, u32, u32, u32); 3] = [
    ("relaxed", 60, 300, 30, 120),
    ("normal", 30, 120, 15, 60),
    ("blitz", 10, 30, 5, 30),
];

/// Where a custom value goes in a [`TimeControl`].
type Field = fn(&mut TimeControl) -> &mut u32;

/// A custom value's key, its allowed range, how the range reads in an error, and its field.
const RANGES: [(&str, u32, u32, &str, Field); 4] = [
    ("move", 3, 600, "3 to 600 seconds", |c| &mut c.per_move),
    ("bank", 0, 3600, "0 to 3600 seconds", |c| &mut c.bank),
    ("refill", 0, 600, "0 to 600 seconds", |c| &mut c.refill),
    ("grace", 5, 600, "5 to 600 seconds", |c| &mut c.grace),
];

/// The preset called `name`.
fn preset(name: &str) -> Option<TimeControl> {
    PRESETS
        .iter()
        .find(|p| p.0 == name)
        .map(|&(preset, per_move, bank, refill, grace)| TimeControl {
            preset: preset.to_owned(),
            per_move,
            bank,
            refill,
            grace,
            level: BotLevel::Normal,
        })
}

fn unknown_preset(key: &str, value: &str) -> ProfileError {
    ProfileError::OutOfRange {
        key: key.to_owned(),
        value: format!("{value:?}"),
        allowed: "off, relaxed, normal, blitz or an object of custom values",
    }
}

/// Reads the `clock` of a new table: absent, `null` or `"off"` for no clock, a preset name,
/// or `{"preset": …, "move": s, "bank": s, "refill": s, "grace": s, "level": …}` where every key is
/// optional (the preset, `normal` by default, fills the rest).
///
/// # Errors
/// [`ProfileError`] naming the key (`clock`, `clock.move` …) that is wrong.
pub(crate) fn parse(value: Option<&Value>) -> Result<Option<TimeControl>, ProfileError> {
    let object = match value {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(s)) if s == "off" => return Ok(None),
        Some(Value::String(s)) => {
            return preset(s)
                .map(Some)
                .ok_or_else(|| unknown_preset("clock", s));
        }
        Some(Value::Object(o)) => o,
        Some(_) => {
            return Err(ProfileError::WrongType {
                key: "clock".into(),
                expected: "off, a preset name or an object",
            });
        }
    };
    let mut control = match object.get("preset") {
        None => preset("normal"),
        Some(Value::String(s)) => preset(s),
        Some(_) => {
            return Err(ProfileError::WrongType {
                key: "clock.preset".into(),
                expected: "a preset name",
            });
        }
    }
    .ok_or_else(|| unknown_preset("clock.preset", &object["preset"].to_string()))?;
    if let Some(level) = object.get("level") {
        control.level =
            level
                .as_str()
                .and_then(BotLevel::parse)
                .ok_or_else(|| ProfileError::OutOfRange {
                    key: "clock.level".into(),
                    value: level.to_string(),
                    allowed: "easy, normal or strong",
                })?;
    }
    for key in object.keys() {
        if key != "preset" && key != "level" && !RANGES.iter().any(|r| r.0 == key) {
            return Err(ProfileError::UnknownKey(format!("clock.{key}")));
        }
    }
    let mut custom = false;
    for (name, low, high, allowed, field) in RANGES {
        let Some(v) = object.get(name) else { continue };
        let key = format!("clock.{name}");
        let n = v.as_u64().ok_or_else(|| ProfileError::WrongType {
            key: key.clone(),
            expected: "a whole number of seconds",
        })?;
        let n = u32::try_from(n)
            .ok()
            .filter(|n| (low..=high).contains(n))
            .ok_or_else(|| ProfileError::OutOfRange {
                key,
                value: v.to_string(),
                allowed,
            })?;
        let field = field(&mut control);
        custom |= *field != n;
        *field = n;
    }
    if custom {
        control.preset = "custom".into();
    }
    Ok(Some(control))
}

/// A stored deal's times: when it was dealt, and per action the seat, when, and whether the
/// autopilot made it (times absent in rows written before clocks were stored).
pub(crate) type TimedDeal = (Option<u64>, Vec<(Seat, Option<u64>, bool)>);

/// Credits stored outages to the stored times: an outage of `ms` before action `seq` of deal
/// `deal_no` moves every time before it `ms` later, so that the turn it fell in is charged
/// only what its player had, and every other turn what it took. `outages` are
/// `(deal_no, seq, ms)`.
pub(crate) fn credit_outages(deals: &mut [TimedDeal], outages: &[(u32, u32, u64)]) {
    for &(deal_no, seq, ms) in outages {
        for (d, (at, actions)) in deals.iter_mut().enumerate() {
            if d > deal_no as usize {
                break;
            }
            *at = at.map(|t| t + ms);
            let before = if d == deal_no as usize {
                seq as usize
            } else {
                actions.len()
            };
            for action in actions.iter_mut().take(before) {
                action.1 = action.1.map(|t| t + ms);
            }
        }
    }
}

/// One table's clock: the control, the banks, when the current turn started, and who is away.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Clock {
    /// The table's time control.
    control: TimeControl,
    /// Set by the host between deals: no deadline runs while paused.
    paused: bool,
    /// Milliseconds left in each seat's bank.
    banks: [u64; 4],
    /// When the current turn started; `None` between deals.
    started: Option<u64>,
    /// Timeouts in a row per seat.
    strikes: [u8; 4],
    /// Seats the autopilot plays until their person acts.
    away: [bool; 4],
    /// Since when each seat has had no open socket, while it has none.
    gone: [Option<u64>; 4],
    /// Seats the autopilot has moved for in the current deal.
    piloted: [bool; 4],
}

/// Milliseconds in `seconds`.
fn ms(seconds: u32) -> u64 {
    u64::from(seconds) * 1_000
}

impl Clock {
    /// A clock with full banks and no turn running.
    #[must_use]
    pub(crate) fn new(control: TimeControl) -> Clock {
        let bank = ms(control.bank);
        Clock {
            control,
            paused: false,
            banks: [bank; 4],
            started: None,
            strikes: [0; 4],
            away: [false; 4],
            gone: [None; 4],
            piloted: [false; 4],
        }
    }

    /// Rebuilds the clock from what was stored: per deal its start time and per action the
    /// seat, its time and whether the autopilot made it. A time missing (written before
    /// clocks were stored) counts as `now`. `playing` says whether the last deal still runs.
    #[must_use]
    #[cfg(test)]
    pub(crate) fn replay(
        control: TimeControl,
        paused: bool,
        deals: &[TimedDeal],
        playing: bool,
        now: u64,
    ) -> Clock {
        Clock::replay_with(control, paused, deals, &[], playing, now)
    }

    /// [`Clock::replay`], with each seat's "I'm back" (`(deal, actions before it, seat)`, in
    /// order) said again where it was: the seat's autopilot ends there.
    #[must_use]
    pub(crate) fn replay_with(
        control: TimeControl,
        paused: bool,
        deals: &[TimedDeal],
        backs: &[(u32, u32, Seat)],
        playing: bool,
        now: u64,
    ) -> Clock {
        let mut clock = Clock::new(control);
        clock.paused = paused;
        let mut backs = backs.iter().peekable();
        let mut say_backs = |clock: &mut Clock, deal: usize, seq: usize| {
            while let Some(&(_, _, seat)) =
                backs.next_if(|b| (b.0 as usize, b.1 as usize) <= (deal, seq))
            {
                clock.back(seat);
            }
        };
        for (d, (at, actions)) in deals.iter().enumerate() {
            clock.deal_started(at.unwrap_or(now));
            for (k, &(seat, at, auto)) in actions.iter().enumerate() {
                say_backs(&mut clock, d, k);
                clock.acted(seat, at.unwrap_or(now), auto);
            }
            say_backs(&mut clock, d, actions.len());
        }
        if !playing {
            clock.started = None;
        }
        clock
    }

    /// Brings a restored clock back after an outage: the table was last served at `served`
    /// and is served again from `now`, so the running turn (if a deadline runs) starts that
    /// much later and its player has the time he had when the node went down (at most one
    /// mark's interval more). Returns the milliseconds credited, 0 when no turn runs.
    pub(crate) fn resume(&mut self, served: u64, now: u64) -> u64 {
        let Some(started) = self.started.filter(|_| !self.paused) else {
            return 0;
        };
        let gap = now.saturating_sub(served.max(started));
        self.started = Some(started + gap);
        gap
    }

    /// The time control.
    #[must_use]
    pub(crate) fn control(&self) -> &TimeControl {
        &self.control
    }

    /// Whether the host has paused the clock (for the tests).
    #[cfg(test)]
    #[must_use]
    pub(crate) fn paused(&self) -> bool {
        self.paused
    }

    /// Pauses or resumes; a resumed clock runs from the next deal.
    pub(crate) fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
    }

    /// Whether `seat` is on autopilot: at a rated game's end, its player abandoned it.
    #[must_use]
    pub(crate) fn away(&self, seat: Seat) -> bool {
        self.away[seat.index()]
    }

    /// A deal started at `now`: every bank gets its refill (up to the full bank) and the
    /// first turn starts.
    pub(crate) fn deal_started(&mut self, now: u64) {
        let full = ms(self.control.bank);
        for bank in &mut self.banks {
            *bank = (*bank + ms(self.control.refill)).min(full);
        }
        self.piloted = [false; 4];
        self.started = Some(now);
    }

    /// `seat` acted at `now` (by the autopilot if `auto`): its bank pays what the move took
    /// beyond the allowance, and the next turn starts now. Returns the milliseconds the move
    /// took. A person's own move ends the seat's timeouts and its autopilot.
    pub(crate) fn acted(&mut self, seat: Seat, now: u64, auto: bool) -> u64 {
        let i = seat.index();
        let used = self.started.map_or(0, |s| now.saturating_sub(s));
        let over = used.saturating_sub(ms(self.control.per_move));
        self.banks[i] = self.banks[i].saturating_sub(over);
        if auto {
            self.piloted[i] = true;
            self.strikes[i] = self.strikes[i].saturating_add(1);
            self.away[i] |= self.strikes[i] >= STRIKES;
        } else {
            self.strikes[i] = 0;
            self.away[i] = false;
        }
        self.started = Some(now);
        used
    }

    /// The deal is over: no turn runs until the next deal.
    pub(crate) fn deal_ended(&mut self) {
        self.started = None;
    }

    /// `seat`'s person says "I'm back": its timeouts and autopilot end at once, before its
    /// next turn. Returns whether the seat was away.
    pub(crate) fn back(&mut self, seat: Seat) -> bool {
        let i = seat.index();
        let was = self.away[i];
        self.strikes[i] = 0;
        self.away[i] = false;
        was
    }

    /// Somebody new sits in `seat` (or it is freed): the seat's timeouts, autopilot and
    /// absence were the last occupant's and go with him; its bank is the seat's and stays.
    pub(crate) fn seated(&mut self, seat: Seat) {
        let i = seat.index();
        self.strikes[i] = 0;
        self.away[i] = false;
        self.gone[i] = None;
    }

    /// `seat`'s sockets opened or all closed at `now`. Returns whether the seat's autopilot
    /// state changed (a disconnection past the grace period that is noticed now).
    pub(crate) fn presence(&mut self, seat: Seat, connected: bool, now: u64) {
        let gone = &mut self.gone[seat.index()];
        *gone = match (connected, *gone) {
            (true, _) => None,
            (false, Some(since)) => Some(since),
            (false, None) => Some(now),
        };
    }

    /// Marks away every seat disconnected for longer than the grace period at `now`;
    /// returns whether any seat newly went away.
    pub(crate) fn expire(&mut self, now: u64) -> bool {
        let grace = ms(self.control.grace);
        let mut changed = false;
        for (gone, away) in self.gone.iter().zip(self.away.iter_mut()) {
            if let Some(since) = gone
                && since + grace <= now
                && !*away
            {
                *away = true;
                changed = true;
            }
        }
        changed
    }

    /// When the autopilot moves for `seat`, the seat to act: never while paused or between
    /// deals; soon for an away seat; otherwise after the allowance and the bank.
    #[must_use]
    pub(crate) fn deadline(&self, seat: Seat) -> Option<u64> {
        let started = self.started.filter(|_| !self.paused)?;
        let full = started + ms(self.control.per_move) + self.banks[seat.index()];
        Some(if self.away[seat.index()] {
            full.min(started + AWAY_MOVE_MS)
        } else {
            full
        })
    }

    /// The next moment the table must wake for its clock: the deadline of `to_act`, or a
    /// disconnected seat's grace running out, whichever comes first.
    #[must_use]
    pub(crate) fn next_wake(&self, to_act: Option<Seat>) -> Option<u64> {
        let grace = ms(self.control.grace);
        let expiries = self
            .gone
            .iter()
            .zip(self.away)
            .filter_map(|(gone, away)| gone.filter(|_| !away).map(|since| since + grace));
        to_act
            .and_then(|s| self.deadline(s))
            .into_iter()
            .chain(expiries)
            .min()
    }

    /// Whether `seat`'s time is up at `now`.
    #[must_use]
    pub(crate) fn due(&self, seat: Seat, now: u64) -> bool {
        self.deadline(seat).is_some_and(|d| d <= now)
    }

    /// Seats on autopilot.
    fn away_seats(&self) -> Vec<Seat> {
        (0..4u8)
            .filter(|&s| self.away[usize::from(s)])
            .map(Seat)
            .collect()
    }

    /// The clock as every viewer sees it at `now` while `to_act` is to act over `players`
    /// seats.
    #[must_use]
    pub(crate) fn view(&self, to_act: Option<Seat>, players: u8, now: u64) -> Option<ClockView> {
        let seat = to_act?;
        let started = self.started?;
        Some(ClockView {
            seat,
            deadline: self.deadline(seat)?,
            bank_from: started + ms(self.control.per_move),
            banks: self.banks[..usize::from(players)].to_vec(),
            away: self.away_seats(),
            now_ms: Some(now),
            piloted: (0..4u8)
                .filter(|&s| self.piloted[usize::from(s)])
                .map(Seat)
                .collect(),
        })
    }

    /// The clock's settings and state, for the table's summary.
    #[must_use]
    pub(crate) fn info(&self) -> ClockInfo {
        ClockInfo {
            control: self.control.clone(),
            paused: self.paused,
            away: self.away_seats(),
        }
    }
}

#[cfg(test)]
#[path = "clock_tests.rs"]
mod tests;
