//! How a table's refusals read as the API's errors: the machine's [`TableError`], and why a
//! record or a deal cannot be shown, each mapped to its status and code. They live with the
//! table so that the API's error (`api/error.rs`) names no table type.

use crate::api::error::ApiError;
use crate::table::machine::{DealHidden, RecordError, TableError};

impl From<TableError> for ApiError {
    fn from(e: TableError) -> ApiError {
        match e {
            TableError::BadName | TableError::NoSuchSeat(_) => ApiError::BadRequest(e.to_string()),
            TableError::NotHost => ApiError::Forbidden("the host token is not valid at this table"),
            TableError::InviteRequired => ApiError::InviteRequired,
            TableError::RatedElsewhere => ApiError::RatedElsewhere,
            TableError::PeopleOnly => ApiError::PeopleOnly,
            TableError::RatedKind | TableError::RatedRules => ApiError::Rated(e.to_string()),
            TableError::HostSeats => {
                ApiError::Forbidden("the game has started: only the host can seat a player")
            }
            TableError::NotSeated | TableError::SeatLost => ApiError::Forbidden(
                "the seat token is not valid at this table (the seat may have been freed)",
            ),
            TableError::Internal(detail) => ApiError::Internal(detail),
            TableError::SeatTaken(_)
            | TableError::SeatFree(_)
            | TableError::Full
            | TableError::Started
            | TableError::ProfileFrozen
            | TableError::NoClock
            | TableError::SeatBeyond
            | TableError::SeatsFree
            | TableError::DealInProgress
            | TableError::NoDeal
            | TableError::NotStarted
            | TableError::Over
            | TableError::Stale { .. }
            | TableError::FutureVersion { .. }
            | TableError::NotYourTurn(_)
            | TableError::Rule { .. }
            | TableError::ChatForbidden
            | TableError::NotOver
            | TableError::Rematched
            | TableError::NoRematch
            | TableError::StopPending
            | TableError::NoStop
            | TableError::StopAnswered
            | TableError::SeatReserved(..)
            | TableError::NotKept(_)
            | TableError::Fair(_)
            | TableError::FairLate
            | TableError::NotPractice
            | TableError::HintsSpent(_)
            | TableError::NoHint => ApiError::Conflict(e.to_string()),
        }
    }
}

impl From<RecordError> for ApiError {
    fn from(e: RecordError) -> ApiError {
        match e {
            RecordError::NotStarted | RecordError::Hidden => ApiError::Conflict(e.to_string()),
            RecordError::Internal(detail) => ApiError::Internal(detail),
        }
    }
}

/// A deal whose cards are not yet seen by all: a conflict (it will be analysable later),
/// whose message names no card.
impl From<DealHidden> for ApiError {
    fn from(e: DealHidden) -> ApiError {
        match e {
            DealHidden::NotStarted | DealHidden::NotFinished { .. } | DealHidden::Hidden => {
                ApiError::Conflict(e.to_string())
            }
            DealHidden::Internal(detail) => ApiError::Internal(detail),
        }
    }
}
