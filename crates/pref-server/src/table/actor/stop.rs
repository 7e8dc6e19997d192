//! A seat's vote on the agreed stop (R10.3): the seat is the one its token holds, and the
//! machine (`table/machine/stop.rs`) decides what the vote does.

use pref_core::Seat;
use pref_protocol::{StopVote, Summary};

use super::Table;
use crate::ids::Secret;
use crate::table::machine::{Op, TableError};

impl Table {
    /// The vote of the seat `token` holds; the summary after it.
    ///
    /// # Errors
    /// [`TableError::NotSeated`] for a token that holds no seat, or the machine's refusal.
    pub(super) async fn stop_vote(
        &mut self,
        token: Secret,
        vote: StopVote,
    ) -> Result<Summary, TableError> {
        let seat = self.machine.seat_of(&token).ok_or(TableError::NotSeated)?;
        let op = Op::Stop {
            seat: Seat(seat),
            token,
            vote,
        };
        self.apply(op).await?;
        Ok(self.summary())
    }
}
