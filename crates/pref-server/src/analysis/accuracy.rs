//! The players' "accuracy", computed in the background: every finished game counted for an
//! account is analysed once (the play of each deal, `pref_analysis::accuracy`) and the
//! tricks the account's cards lost are added to its statistics (`store/accuracy.rs`).
//!
//! Analysing a whole game costs the solver far more than the write that ends it, so it is
//! not done there nor on a page request: one task per node takes the waiting games one at a
//! time through the analyses' lane ([`super::Lane`]), so it shares their budget
//! (`limits.analysis_running` at once, `limits.analysis_queue` waiting) and, when the lane
//! is full, waits for its next round instead of queueing more.

use std::sync::Arc;
use std::time::Duration;

use pref_analysis::accuracy::{SeatAccuracy, of_record};
use pref_core::Record;

use super::Analyses;
use crate::api::error::ApiError;
use crate::ids::Secret;
use crate::store::{GAME_COUNTED, Store, Unanalysed};
use crate::table::command::Command;
use crate::table::registry::Registry;

/// How long the task rests when nothing waits (or the lane is full) before it looks again
/// without being told a game was counted.
const ROUND: Duration = Duration::from_secs(30);

/// The games read at a time.
const BATCH: i64 = 16;

/// Starts the task analysing the accounts' finished games.
pub(crate) fn follow(store: Store, tables: Arc<Registry>, analyses: Arc<Analyses>) {
    tokio::spawn(async move {
        loop {
            let done = round(&store, &tables, &analyses).await;
            if !done {
                let _ = tokio::time::timeout(ROUND, GAME_COUNTED.notified()).await;
            }
        }
    });
}

/// Counts the analysis of the waiting games of one batch; `false` when there was nothing to
/// do or the work must wait (the lane full, the database refusing).
async fn round(store: &Store, tables: &Arc<Registry>, analyses: &Analyses) -> bool {
    let waiting = match store.unanalysed(BATCH).await {
        Ok(w) => w,
        Err(e) => {
            tracing::warn!(error = %e, "the games waiting for their analysis do not read");
            return false;
        }
    };
    if waiting.is_empty() {
        return false;
    }
    for game in &waiting {
        let seat = match game_accuracy(tables, analyses, game).await {
            Ok(seats) => seats
                .get(usize::from(game.seat))
                .copied()
                .unwrap_or_default(),
            Err(ApiError::Busy(_)) => return false,
            // A game whose record cannot be had (its table gone) has nothing to analyse:
            // it counts no deal, and is not asked again.
            Err(e) => {
                tracing::warn!(table = %game.table, error = %e, "a game is not analysed");
                SeatAccuracy::default()
            }
        };
        if let Err(e) = store.count_accuracy(game, seat.deals, seat.lost).await {
            tracing::warn!(table = %game.table, error = %e, "a game's analysis is not counted");
            return false;
        }
    }
    true
}

/// Every seat's accuracy in `game`'s record, computed in the lane.
///
/// # Errors
/// [`ApiError::Busy`] when the lane is full; the table's refusal of its record, or a
/// record that does not read.
async fn game_accuracy(
    tables: &Arc<Registry>,
    analyses: &Analyses,
    game: &Unanalysed,
) -> Result<Vec<SeatAccuracy>, ApiError> {
    let id = Secret::parse(&game.table)
        .ok_or_else(|| ApiError::Internal(format!("a stored table id {:?}", game.table)))?;
    let handle = tables.open(&id).await?;
    let text = handle.ask(Command::Record).await??;
    let record = Record::from_json_str(&text)
        .map_err(|e| ApiError::Internal(format!("the record does not read: {e}")))?;
    analyses.solve(move || of_record(&record)).await
}
