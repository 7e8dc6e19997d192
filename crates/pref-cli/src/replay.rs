//! `pref replay`: read a record, replay it deal by deal, and keep the sheet after each deal
//! for the printers (`table.rs` for people, `summary.rs` for `--json`), which import it.

use std::path::Path;

use num_rational::Ratio;
use pref_core::{AcceptedClaim, Outcome, Record, Sheet};

/// One replayed deal: its outcome and the sheet as it stands after it.
pub(crate) struct Step {
    /// The deal's outcome (dealer included).
    pub(crate) outcome: Outcome,
    /// The sheet after the deal was scored.
    pub(crate) sheet: Sheet,
    /// The claim all accepted that ended the deal (R6.7), with its claimer.
    pub(crate) claim: Option<AcceptedClaim>,
}

/// A record replayed to its end.
pub(crate) struct Replayed {
    /// The record as read.
    pub(crate) record: Record,
    /// Each deal in order.
    pub(crate) steps: Vec<Step>,
    /// The sheet after the last deal.
    pub(crate) sheet: Sheet,
    /// All pools closed, or the players agreed to stop (R10.3).
    pub(crate) finished: bool,
    /// Per seat, in whists; `None` while the game is not finished.
    pub(crate) settlement: Option<Vec<Ratio<i64>>>,
}

/// Runs the command: the record replayed for a printer, or the one line for stderr.
pub(crate) fn run(path: &Path) -> Result<Replayed, String> {
    let text = read_text(path)?;
    replay(&text).map_err(|e| e.to_string())
}

/// A record file's text, or the line that says why it cannot be read.
pub(crate) fn read_text(path: &Path) -> Result<String, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("record: cannot read {}: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|_| "record: not valid UTF-8".to_owned())
}

/// Reads and replays a record.
fn replay(text: &str) -> Result<Replayed, pref_core::RecordError> {
    let (record, _) = Record::read(text)?;
    let mut steps = Vec::with_capacity(record.deals().len());
    let game = record.replay(|i, game| {
        if let Some(entry) = game.history().get(i)
            && let Some(outcome) = entry.outcome()
        {
            steps.push(Step {
                outcome: *outcome,
                sheet: game.sheet().clone(),
                claim: entry.accepted_claim(),
            });
        }
    })?;
    let settlement = if game.is_over() {
        game.settlement()
    } else if record.agreed_stop() {
        Some(game.agreed_settlement())
    } else {
        None
    };
    Ok(Replayed {
        finished: settlement.is_some(),
        settlement,
        sheet: game.sheet().clone(),
        steps,
        record,
    })
}
