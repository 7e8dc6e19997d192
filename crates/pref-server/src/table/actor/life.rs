//! The table's lifetime, as its actor sees it: the phase the lifecycle (`lifecycle.rs`)
//! reads, which commands count as a use, and what happens when the table's time is up.

use super::Table;
use crate::config::Lifecycle;
use crate::store::Stored;
use crate::table::command::Command;
use crate::table::lifecycle::{Due, Life, Phase, Slot};
use crate::table::machine::Stage;

impl Table {
    /// Gives the table its lifetime `settings` and, while it is live, its `slot`.
    pub fn keep(&mut self, settings: Lifecycle, slot: Option<Slot>) {
        self.life = Life::new(settings, slot);
        self.life.settle(self.phase());
    }

    /// Whether the game is over (a finished table holds no slot).
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.phase() == Phase::Over
    }

    pub(super) fn phase(&self) -> Phase {
        match self.machine.stage() {
            Stage::Lobby => Phase::Lobby,
            Stage::Playing { .. } | Stage::BetweenDeals { .. } => {
                let bots_only = (0..self.machine.players())
                    .all(|s| self.machine.occupant(s).is_some_and(|o| o.bot.is_some()));
                if bots_only {
                    Phase::Bots
                } else {
                    Phase::Playing
                }
            }
            Stage::Over { .. } => Phase::Over,
        }
    }

    /// Whether `cmd` counts as a use: in the lobby a read does not (polling a summary
    /// does not keep a table open), a finished game is kept by its readers.
    pub(super) fn uses(&self, cmd: &Command) -> bool {
        match cmd {
            Command::Summary(_)
            | Command::Preview(_)
            | Command::Record(_)
            | Command::DealRecord { .. } => self.phase() == Phase::Over,
            _ => true,
        }
    }

    /// The table's time is up: `true` when its task should stop (an idle lobby stored as
    /// expired, an idle finished game); a watched table, or an expiry the database did not
    /// take, goes on for another period.
    pub(super) async fn time_up(&mut self) -> bool {
        let phase = self.phase();
        match self.life.due(phase, self.tx.receiver_count()) {
            None | Some(Due::Watched) => false,
            Some(Due::Unload) => {
                tracing::info!(table = self.no, "finished table leaves memory");
                true
            }
            Some(Due::Expire) => match self.store.set_state(self.no, Stored::Expired).await {
                Ok(()) => {
                    tracing::info!(table = self.no, "idle lobby table expired");
                    true
                }
                Err(e) => {
                    tracing::error!(table = self.no, error = %e, "expiry not stored");
                    self.life.touch();
                    false
                }
            },
        }
    }
}
