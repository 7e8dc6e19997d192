//! A seat's messages about provably fair deals (`docs/fairness.md`): `fair_join`,
//! `fair_commit` and `fair_reveal`, read strictly and passed to the table.

use axum::extract::ws::Message;
use futures_util::Sink;
use pref_core::Viewer;
use pref_core::fair::{Contribution, Digest};
use pref_protocol::{ClientMessage, ErrorCode};

use super::{Conn, Stop, close};
use crate::table::command::{Command, FairRequest};

impl<S> Conn<S>
where
    S: Sink<Message> + Unpin,
{
    /// Passes a fair-deal message to the table and answers it; a value that is not 64
    /// lowercase hex digits is refused here, and a spectator's is not a contribution.
    pub(super) async fn fair(&mut self, msg: ClientMessage) -> Result<(), Stop> {
        let caller = self.caller();
        let (id, request) = match msg {
            ClientMessage::FairJoin {} => (None, FairRequest::Join),
            ClientMessage::FairCommit {
                id,
                deal_no,
                commitment,
            } => match commitment.parse::<Digest>() {
                Ok(commitment) => (
                    Some(id),
                    FairRequest::Commit {
                        deal_no,
                        commitment,
                    },
                ),
                Err(e) => return self.error(ErrorCode::Malformed, e.to_string()).await,
            },
            ClientMessage::FairReveal { id, deal_no, value } => {
                match value.parse::<Contribution>() {
                    Ok(value) => (Some(id), FairRequest::Reveal { deal_no, value }),
                    Err(e) => return self.error(ErrorCode::Malformed, e.to_string()).await,
                }
            }
            ClientMessage::Action { .. }
            | ClientMessage::NextDeal { .. }
            | ClientMessage::Hint { .. }
            | ClientMessage::Chat { .. }
            | ClientMessage::Resync {}
            | ClientMessage::Back {}
            | ClientMessage::ScorePage { .. } => return Ok(()),
        };
        let (Viewer::Seat(seat), Some(token)) = (caller.viewer, caller.token) else {
            return match id {
                Some(id) => self.not_seated(id).await,
                None => {
                    self.error(
                        ErrorCode::NotSeated,
                        "spectators do not contribute to the deals",
                    )
                    .await
                }
            };
        };
        let out = self
            .table
            .ask(|reply| Command::Fair {
                seat,
                token,
                request,
                reply,
            })
            .await
            .map_err(|_| Stop::Close(close::TABLE_CLOSED, "the table stopped"))?;
        match id {
            Some(id) => self.answer(id, out).await,
            None => Ok(()),
        }
    }
}
