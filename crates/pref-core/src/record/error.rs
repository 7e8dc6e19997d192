//! What a record that cannot be read says: where the problem is ([`Location`]) and what it
//! is ([`Reason`]), in the spec's words.

use std::fmt;

use super::FORMAT;
use crate::error::{DealError, RuleError};
use crate::profile::ProfileError;

/// Where an error in a record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Location {
    /// Outside the deals: the document, its profile, players, dealer or stop.
    Record,
    /// A deal (0-based), before any of its actions: hands, talon, outcome.
    Deal(usize),
    /// An action (0-based) of a deal (0-based); for a deal that stops short, the index the
    /// next action would have had.
    Action {
        /// The deal.
        deal: usize,
        /// The action.
        action: usize,
    },
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Record => f.write_str("record"),
            Location::Deal(d) => write!(f, "deal {d}"),
            Location::Action { deal, action } => write!(f, "deal {deal}, action {action}"),
        }
    }
}

/// Why a record is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Not JSON, or a key given twice in one object (the parser's message).
    Json(String),
    /// The document is not a JSON object.
    NotAnObject,
    /// `format` is not [`FORMAT`].
    Format(String),
    /// A required key is missing.
    Missing(&'static str),
    /// A key the format does not have.
    UnknownKey(String),
    /// A value of the wrong kind.
    WrongType {
        /// The key (or the item, for list entries).
        key: &'static str,
        /// What it must be, in words.
        expected: &'static str,
    },
    /// The profile is invalid.
    Profile(ProfileError),
    /// The number of names does not match the table.
    PlayerCount {
        /// Names given.
        given: usize,
        /// Players at the table.
        players: u8,
    },
    /// A seat number that is not at the table.
    Seat(u64),
    /// `stop` is not `"agreed"`.
    Stop(String),
    /// A card that is not rank + suit (`QS`, `TH`, `10H`).
    UnknownCard(String),
    /// An action key that is neither `seat` nor a verb.
    UnknownVerb(String),
    /// An action without a verb, or with more than one.
    VerbCount(usize),
    /// A verb's value that is not one of its values.
    BadValue {
        /// The verb.
        verb: &'static str,
        /// The value, as written.
        value: String,
    },
    /// The deal has both played keys and `outcome`, or neither.
    DealForm,
    /// The deal cannot be set up (hands, talon).
    Deal(DealError),
    /// An action the rules refuse.
    Rule(RuleError),
    /// An outcome that does not fit the rules.
    Outcome(String),
    /// The actions stop before the deal ends.
    NotFinished,
    /// A deal after the deal that closed the last pool.
    AfterEnd,
    /// An error of the game that a well-formed record cannot cause.
    Game(String),
    /// A deal's fairness data does not hold together or does not deal its cards.
    Fairness(crate::fair::FairError),
    /// Clock fields given for a deal that is not played, or not one per action (the number
    /// given).
    Timing(usize),
    /// Hints given outside a practice record, or not one whole number per seat, or all
    /// zero (`record/practice.rs`).
    Hints,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Json(e) => write!(f, "not valid JSON: {e}"),
            Reason::NotAnObject => f.write_str("a record is a JSON object"),
            Reason::Format(s) => write!(f, "format {s:?} is not {FORMAT:?}"),
            Reason::Missing(k) => write!(f, "missing key {k:?}"),
            Reason::UnknownKey(k) => write!(f, "unknown key {k:?}"),
            Reason::WrongType { key, expected } => write!(f, "{key:?} must be {expected}"),
            Reason::Profile(e) => write!(f, "{e}"),
            Reason::PlayerCount { given, players } => {
                write!(f, "{given} players named for a table of {players}")
            }
            Reason::Seat(s) => write!(f, "seat {s} is not at the table (R1.2)"),
            Reason::Stop(s) => write!(f, "stop {s:?} is not \"agreed\""),
            Reason::UnknownCard(c) => write!(f, "unknown card {c:?}"),
            Reason::UnknownVerb(v) => write!(f, "unknown verb {v:?}"),
            Reason::VerbCount(0) => f.write_str("an action needs a verb"),
            Reason::VerbCount(n) => write!(f, "an action has one verb, not {n}"),
            Reason::BadValue { verb, value } => {
                let noun = match *verb {
                    "declare" => "contract",
                    "whist" => "whist decision",
                    other => other,
                };
                write!(f, "unknown {noun} {value}")
            }
            Reason::DealForm => f.write_str(
                "a deal is either played (\"hands\", \"talon\", \"actions\") or an \"outcome\"",
            ),
            Reason::Deal(e) => write!(f, "{e}"),
            Reason::Rule(e) => f.write_str(&rule_message(e)),
            Reason::Outcome(s) => f.write_str(s),
            Reason::NotFinished => f.write_str("the deal is not finished"),
            Reason::AfterEnd => f.write_str("the game is over: every pool is closed (R9.4)"),
            Reason::Game(s) => f.write_str(s),
            Reason::Fairness(e) => write!(f, "{e}"),
            Reason::Timing(n) => write!(
                f,
                "{n} clock entries do not match the deal's actions one to one"
            ),
            Reason::Hints => f.write_str(
                "\"hints\" is one count per seat, not all zero, in a practice record only",
            ),
        }
    }
}

/// A rule error's message without its trailing rule id: records name the place and the
/// reason; the id stays available from [`RecordError::rule`].
fn rule_message(e: &RuleError) -> String {
    let s = e.to_string();
    match e.rule() {
        Some(r) => s
            .strip_suffix(&format!(" ({r})"))
            .map_or_else(|| s.clone(), str::to_owned),
        None => s,
    }
}

/// A record that cannot be read: where, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {reason}")]
pub struct RecordError {
    /// Where the error is.
    pub location: Location,
    /// What is wrong.
    pub reason: Reason,
}

impl RecordError {
    pub(super) fn at(location: Location, reason: Reason) -> RecordError {
        RecordError { location, reason }
    }

    /// The id of the rule an action breaks (`"R6.2"`), if it is a rule error.
    #[must_use]
    pub fn rule(&self) -> Option<&'static str> {
        match &self.reason {
            Reason::Rule(e) => e.rule(),
            _ => None,
        }
    }
}

pub(super) type Result<T, E = RecordError> = std::result::Result<T, E>;
