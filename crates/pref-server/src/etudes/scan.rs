//! The scan that finds études in the games played here: every `limits.etude_scan_secs` it reads a few
//! finished tables not read before, replays each one's game (`Table::restore`) and asks the
//! analysis for the positions where exactly one card keeps the goal
//! (`pref_analysis::found_in_record`), in the analyses' lane so that it never takes a bot's
//! turn; what it finds is stored (`store.rs`) and listed with the collection.

use std::sync::Arc;
use std::time::Duration;

use pref_analysis::found_in_record;

use crate::analysis::Analyses;
use crate::config::Limits;
use crate::etudes::store;
use crate::ids::Secret;
use crate::store::{Store, StoreError};
use crate::table::Table;

/// Finished tables read per run.
pub(crate) const BATCH: i64 = 20;
/// Tricks left in a found position: enough for a problem, few enough for instant replies.
const TRICKS: (u8, u8) = (3, 6);

/// Reads up to `batch` finished tables not read before and stores their études; returns how
/// many études it found. A full lane stops the run, the rest left for the next.
///
/// # Errors
/// [`StoreError`] if the database cannot be read or written.
pub(crate) async fn scan(
    store: &Store,
    limits: &Limits,
    analyses: &Analyses,
    batch: i64,
) -> Result<usize, StoreError> {
    let mut total = 0;
    for (no, id) in store::unscanned(store, batch).await? {
        let row = match Secret::parse(&id) {
            Some(id) => store.finished(&id).await?,
            None => None,
        };
        let record = row.and_then(|row| {
            Table::restore(row, store.clone(), limits.clone())
                .ok()
                .and_then(|t| t.played_record())
        });
        let found = match record {
            Some(record) => {
                let nodes = limits.hint_nodes;
                let work = move || found_in_record(&record, TRICKS.0, TRICKS.1, nodes);
                match analyses.solve(work).await {
                    Ok(found) => found,
                    Err(_) => break,
                }
            }
            None => Vec::new(),
        };
        let found: Vec<_> = found.into_iter().map(|f| (f.etude, f.nodes)).collect();
        total += found.len();
        store::scanned(store, no, &found, crate::store::now()).await?;
    }
    Ok(total)
}

/// Runs [`scan`] now and then every `limits.etude_scan_secs`.
pub(crate) fn every_while(store: Store, limits: Limits, analyses: Arc<Analyses>) {
    tokio::spawn(async move {
        let every = limits.etude_scan_secs.at_least(Duration::from_secs(1));
        let mut tick = tokio::time::interval(every);
        loop {
            tick.tick().await;
            if let Err(e) = scan(&store, &limits, &analyses, BATCH).await {
                tracing::error!(error = %e, "étude scan failed");
            }
        }
    });
}
