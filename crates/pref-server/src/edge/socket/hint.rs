//! A socket's hints (practice tables): the table checks and counts the request and hands
//! the seat's view back (`table/practice.rs`); the socket has the strong bot work the hint
//! out in the analyses' lane on the blocking pool (`limits.analysis_running` at once,
//! `limits.analysis_queue` waiting, then `busy`), in a task of its own so that the socket
//! goes on sending the table's items meanwhile, and sends the answer to this viewer only.
//! One hint is worked out at a time per socket.

use std::sync::Arc;

use futures_util::Sink;
use pref_protocol::{Reason, ServerMessage};
use tokio::sync::mpsc;

use super::{Conn, Stop, close};
use crate::analysis::Analyses;
use crate::table::command::Command;
use crate::table::machine::TableError;
use axum::extract::ws::Message;

/// A socket's hints under way.
#[derive(Debug)]
pub(super) struct Hints {
    /// The lane hints are solved in (absent: every hint is answered `busy`).
    lane: Option<Arc<Analyses>>,
    /// Where a worked-out answer comes back.
    tx: mpsc::Sender<ServerMessage>,
    /// Read by the socket's loop.
    pub(super) rx: mpsc::Receiver<ServerMessage>,
}

impl Hints {
    /// Hints solved in `lane`.
    pub(super) fn new(lane: Option<Arc<Analyses>>) -> Hints {
        let (tx, rx) = mpsc::channel(1);
        Hints { lane, tx, rx }
    }
}

fn rejected(id: String, reason: Reason, message: impl Into<String>) -> ServerMessage {
    ServerMessage::Rejected {
        id,
        reason,
        message: message.into(),
        rule: None,
    }
}

impl<S> Conn<S>
where
    S: Sink<Message> + Unpin,
{
    /// A `hint` from this socket's seat at `version`.
    pub(super) async fn hint(&mut self, id: String, version: u64) -> Result<(), Stop> {
        if self.freed_at().is_some() {
            return self.cut().await;
        }
        // The answer of the one before is still on its way: one at a time.
        let Ok(slot) = self.hints.tx.clone().try_reserve_owned() else {
            return self
                .send(&rejected(id, Reason::Busy, "a hint is being worked out"))
                .await;
        };
        let caller = self.caller();
        let answer = self
            .table
            .ask(|reply| Command::Hint {
                caller,
                version,
                reply,
            })
            .await
            .map_err(|_| Stop::Close(close::TABLE_CLOSED, "the table stopped"))?;
        let job = match answer {
            Ok(job) => job,
            Err(TableError::SeatLost) => return self.cut().await,
            Err(e) => return self.send(&rejected(id, e.reason(), e.to_string())).await,
        };
        let Some(lane) = self.hints.lane.clone() else {
            return self
                .send(&rejected(id, Reason::Busy, "hints are not worked out here"))
                .await;
        };
        tokio::spawn(async move {
            let seed = rand::random();
            let out = match lane.solve(move || job.explain(seed)).await {
                Ok(Some(hint)) => ServerMessage::Hint { id, hint },
                Ok(None) => rejected(id, Reason::NoHint, "the bot found no card in time"),
                Err(e) => rejected(id, Reason::Busy, e.to_string()),
            };
            slot.send(out);
        });
        Ok(())
    }
}
