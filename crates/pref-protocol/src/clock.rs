//! The table's clock as the wire carries it: the time control chosen when the table was
//! opened ([`TimeControl`]) and, on every turn, whose clock runs and until when
//! ([`ClockView`]), so that every viewer draws the same clock from the same numbers.

use pref_core::Seat;
use serde::{Deserialize, Serialize};

use crate::bot::BotLevel;

/// A table's time control: per move an allowance, then a bank that is refilled a little each
/// deal. All values in whole seconds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// The preset it came from (`relaxed`, `normal`, `blitz`) or `custom`.
    pub preset: String,
    /// Seconds a move may take before the bank is spent.
    #[serde(rename = "move")]
    pub per_move: u32,
    /// Seconds of bank each seat starts with (also its ceiling).
    pub bank: u32,
    /// Seconds added to every seat's bank at each new deal.
    pub refill: u32,
    /// Seconds a disconnected seat keeps its turn before the autopilot plays it.
    pub grace: u32,
    /// How strong the autopilot plays.
    #[serde(default = "normal")]
    pub level: BotLevel,
}

fn normal() -> BotLevel {
    BotLevel::Normal
}

/// Whose clock runs: the seat to act, its deadline and what is left of its bank. A paused
/// clock has no deadline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockView {
    /// The seat whose clock runs.
    pub seat: Seat,
    /// When the autopilot moves for it, in Unix milliseconds.
    pub deadline: u64,
    /// When the move allowance ends and the bank starts to run, in Unix milliseconds.
    pub bank_from: u64,
    /// Milliseconds left in each seat's bank (seat order), as at the start of this turn.
    pub banks: Vec<u64>,
    /// Seats the autopilot plays until their person acts again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub away: Vec<Seat>,
    /// The server's time when it made this view, in Unix milliseconds: a browser whose own
    /// clock differs counts down by the difference, not to a deadline its clock misplaces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub now_ms: Option<u64>,
    /// Seats the autopilot has moved for in this deal (lowest first), so that every viewer,
    /// also one who opens the table afterwards, sees that it played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub piloted: Vec<Seat>,
}

/// `POST /api/tables/{id}/clock`: the host pauses or resumes the clock between deals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PauseClock {
    /// Pause (`true`) or resume (`false`).
    pub paused: bool,
}

/// The clock's state on a table: the control, whether the host paused it, and who is away.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockInfo {
    /// The time control.
    pub control: TimeControl,
    /// Whether the host has paused the clock (between deals).
    #[serde(default)]
    pub paused: bool,
    /// Seats the autopilot plays until their person acts again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub away: Vec<Seat>,
}
