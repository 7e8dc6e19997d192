//! A practice table's hints, as its actor serves them: the machine checks the request
//! (`machine/practice.rs`), the count is stored before the hint is handed out (so the
//! per-deal budget `limits.hints_per_deal` and the record's counts outlive a restart), and
//! the asking socket gets the seat's [`HintJob`] to work out off the table's task.

use pref_core::Viewer;

use super::Table;
use crate::ids::Secret;
use crate::table::machine::{Hints, TableError};
use crate::table::practice::HintJob;

impl Table {
    /// Makes this table a practice table with the hints counted so far.
    #[must_use]
    pub fn practising(mut self, hints: Hints) -> Table {
        self.machine.set_practice(hints);
        self
    }

    /// Grants `viewer` (with `token`) a hint at `version`: checked, counted and stored.
    ///
    /// # Errors
    /// The machine's refusals (`Machine::hint_turn`), or [`TableError::Internal`] when the
    /// count cannot be stored (nothing is granted then).
    pub(super) async fn hint(
        &mut self,
        viewer: Viewer,
        token: Option<Secret>,
        version: u64,
    ) -> Result<HintJob, TableError> {
        let per_deal = self.limits.hints_per_deal;
        let turn = self
            .machine
            .hint_turn(viewer, token.as_ref(), version, per_deal)?;
        self.store
            .add_hint(self.no, turn.deal_no, turn.seat.0)
            .await
            .map_err(|e| TableError::Internal(e.to_string()))?;
        self.machine.count_hint(turn.deal_no, turn.seat);
        Ok(HintJob {
            turn,
            profile: self.machine.profile().clone(),
            version,
            per_deal,
            budget: pref_bot::Budget::nodes(self.limits.hint_nodes),
        })
    }
}
