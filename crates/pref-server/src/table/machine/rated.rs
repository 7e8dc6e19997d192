//! A rated table in the machine (`docs/ratings.md`): its family, fixed when it opens, and
//! the rules only a rated table has. Its profile stays the standard preset (the host may not
//! change it), no house bot fills a seat, and its seats are all people's or all bot
//! accounts' (the boards never mix): the first occupant decides which. That only signed-in
//! accounts sit is the edge's check, and at one rated table at a time the store's, in the
//! write that takes the seat (the machine does not know accounts).

use pref_rating::Family;

use super::{Machine, TableError};

impl Machine {
    /// Makes the table rated in `family`: chosen when the table opens.
    pub(crate) fn set_rated(&mut self, family: Family) {
        self.rated = Some(family);
    }

    /// The table's family, at a rated table.
    pub(crate) fn rated(&self) -> Option<Family> {
        self.rated
    }

    /// Whether an occupant of this kind (a bot account when `bot_account`) may sit: at a
    /// rated table only one kind sits.
    ///
    /// # Errors
    /// [`TableError::RatedKind`] for a bot account at a rated table where a person sits, or
    /// a person where a bot account sits.
    pub(super) fn rated_kind(&self, bot_account: bool) -> Result<(), TableError> {
        if self.rated.is_none() {
            return Ok(());
        }
        let other = (0..self.players())
            .filter_map(|s| self.occupant(s))
            .any(|o| o.bot_account != bot_account);
        if other {
            return Err(TableError::RatedKind);
        }
        Ok(())
    }

    /// The host's change refused at a rated table: a house bot or another profile.
    ///
    /// # Errors
    /// [`TableError::RatedRules`] at a rated table.
    pub(super) fn rated_refuses(&self) -> Result<(), TableError> {
        if self.rated.is_some() {
            return Err(TableError::RatedRules);
        }
        Ok(())
    }
}
