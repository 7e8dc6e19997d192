//! Who is at the table besides its players, and where they all go next: the spectator
//! count every viewer is told, and the rematch the host opens once the game is over (the
//! new table itself is made by the edge; the machine checks the host, hands out what the
//! new table copies, and tells every viewer its link).

use pref_core::Profile;
use pref_protocol::{BotLevel, Public};

use super::{Change, Machine, Stage, TableError};
use crate::ids::Secret;
use crate::wire::News;

/// What a rematch copies from a finished table.
#[derive(Clone, Debug)]
pub struct RematchPlan {
    /// The same house profile.
    pub profile: Profile,
    /// As it was requested, to store.
    pub request: serde_json::Value,
    /// The same chat rule for spectators.
    pub spectator_chat: bool,
    /// The bots to seat again, by seat and level; people take their seats by the link.
    pub bots: Vec<(u8, BotLevel)>,
}

impl Machine {
    /// Open spectator sockets.
    #[must_use]
    pub fn spectators(&self) -> u32 {
        self.spectators
    }

    /// The rematch's table id, once the host opened one.
    #[must_use]
    pub fn rematch(&self) -> Option<&str> {
        self.rematch.as_deref()
    }

    /// The preset the table's profile was requested from: the request is a preset's name
    /// or an object naming it.
    #[must_use]
    pub fn preset_name(&self) -> Option<String> {
        let name = match &self.request {
            serde_json::Value::String(name) => Some(name),
            serde_json::Value::Object(map) => match map.get("preset") {
                Some(serde_json::Value::String(name)) => Some(name),
                _ => None,
            },
            _ => None,
        };
        name.cloned()
    }

    /// A spectator's socket opened (`true`) or closed: every viewer is told the new count.
    pub(super) fn watching(&mut self, change: &mut Change, connected: bool) {
        self.spectators = if connected {
            self.spectators.saturating_add(1)
        } else {
            self.spectators.saturating_sub(1)
        };
        let count = self.spectators;
        self.publish(change, News::Public(Public::Spectators { count }));
    }

    /// What a rematch of this table copies, for its host once the game is over and before
    /// a rematch is open.
    ///
    /// # Errors
    /// [`TableError::NotHost`], [`TableError::NotOver`] or [`TableError::Rematched`].
    pub fn rematch_plan(&self, host: &Secret) -> Result<RematchPlan, TableError> {
        self.check_rematch(host)?;
        Ok(RematchPlan {
            profile: self.profile.clone(),
            request: self.request.clone(),
            spectator_chat: self.spectator_chat,
            bots: (0..self.players())
                .filter_map(|s| self.occupant(s).and_then(|o| o.bot).map(|b| (s, b)))
                .collect(),
        })
    }

    fn check_rematch(&self, host: &Secret) -> Result<(), TableError> {
        if !self.host.matches(host) {
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
