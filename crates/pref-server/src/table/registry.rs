//! The open tables: a map from table id to the inbox of the table's task, and the
//! supervision that keeps a panicking table from taking anything else down.
//!
//! The map sits behind a `std::sync::RwLock` that is held only to look up or insert a
//! handle, never across an `.await`. Each table task is watched by a small supervisor
//! task: if the table panics, its sockets see their subscription close, and the supervisor
//! rebuilds the table from the database. A table whose lease another node has taken
//! (`cluster.rs`) is [`Registry::remove`]d: its task is aborted, and its sockets see their
//! subscription close and reconnect. A table whose time is up (`lifecycle.rs`: an idle
//! lobby, an unused finished game) stops its own task and leaves the map the same way; only
//! live tables hold one of the [`Slots`] that `max_tables` counts.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use tokio::sync::{mpsc, oneshot};

use crate::api::error::ApiError;
use crate::config::Lifecycle;
use crate::config::Limits;
use crate::ids::Secret;
use crate::metrics::METRICS;
use crate::store::Store;
use crate::table::Table;
use crate::table::command::Command;
use crate::table::lifecycle::Slots;

/// Commands waiting in one table's inbox before senders wait.
const INBOX: usize = 256;

/// A way to reach one table's task.
#[derive(Clone, Debug)]
pub struct TableHandle {
    /// Row number: the table's label in logs.
    pub no: i64,
    /// The task's inbox.
    tx: mpsc::Sender<Command>,
    /// Stops the task when the table moves to another node.
    abort: tokio::task::AbortHandle,
}

impl TableHandle {
    /// Sends the command built by `make` and waits for its answer.
    ///
    /// # Errors
    /// [`ApiError::Unavailable`] if the table's task has stopped.
    pub async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<T>) -> Command,
    ) -> Result<T, ApiError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(make(reply))
            .await
            .map_err(|_| ApiError::Unavailable)?;
        answer.await.map_err(|_| ApiError::Unavailable)
    }

    /// Sends a command that has no answer; a stopped table is ignored.
    pub async fn tell(&self, cmd: Command) {
        let _ = self.tx.send(cmd).await;
    }
}

/// Every open table.
#[derive(Debug)]
pub struct Registry {
    /// Table id → handle.
    map: RwLock<HashMap<Secret, TableHandle>>,
    /// For rebuilding a table after a panic.
    store: Store,
    /// Passed to restored tables.
    limits: Limits,
    /// Held while a finished table is brought back, so that it is loaded once.
    loading: tokio::sync::Mutex<()>,
    /// How long unused tables stay.
    lifecycle: Lifecycle,
    /// The live tables, counted against `max_tables`.
    slots: Arc<Slots>,
}

impl Registry {
    /// An empty registry with the default lifecycle.
    #[must_use]
    pub fn new(store: Store, limits: Limits) -> Arc<Registry> {
        Registry::with(store, limits, Lifecycle::default())
    }

    /// An empty registry whose tables live by `lifecycle`.
    #[must_use]
    pub fn with(store: Store, limits: Limits, lifecycle: Lifecycle) -> Arc<Registry> {
        Arc::new(Registry {
            map: RwLock::new(HashMap::new()),
            store,
            limits,
            loading: tokio::sync::Mutex::new(()),
            lifecycle,
            slots: Arc::new(Slots::default()),
        })
    }

    /// Live tables (lobby or playing), the ones `max_tables` counts; finished games in
    /// memory do not count.
    #[must_use]
    pub fn live(&self) -> usize {
        self.slots.live()
    }

    /// The handle of table `id`.
    ///
    /// # Errors
    /// [`ApiError::NoTable`].
    pub fn get(&self, id: &Secret) -> Result<TableHandle, ApiError> {
        self.map
            .read()
            .map_err(|_| ApiError::Internal("registry poisoned".into()))?
            .get(id)
            // A table that has just stopped by itself (`lifecycle.rs`) and that its
            // supervisor has not yet taken out is not there: a finished game is loaded again.
            .filter(|h| !h.tx.is_closed())
            .cloned()
            .ok_or(ApiError::NoTable)
    }

    /// The handle of table `id`, bringing a finished game back from the database when it
    /// is not open (after a restart, on a node that did not serve it, or after it left
    /// memory), so that its settlement and record stay reachable. The game is over, so the
    /// table refuses every change: it is read-only and takes no slot.
    ///
    /// # Errors
    /// [`ApiError::NoTable`] for a table that does not exist, [`ApiError::Internal`] if the
    /// database cannot be read or the stored game no longer replays.
    pub async fn open(self: &Arc<Registry>, id: &Secret) -> Result<TableHandle, ApiError> {
        match self.get(id) {
            Err(ApiError::NoTable) => {}
            found => return found,
        }
        let _one_at_a_time = self.loading.lock().await;
        if let Ok(handle) = self.get(id) {
            return Ok(handle);
        }
        let row = self.store.finished(id).await?.ok_or(ApiError::NoTable)?;
        let no = row.no;
        let table = Table::restore(row, self.store.clone(), self.limits.clone())
            .map_err(|e| ApiError::Internal(format!("stored table {no} does not replay: {e}")))?;
        // The entry of a task that stopped is replaced; its supervisor leaves the new one.
        self.spawn(*id, no, table);
        self.get(id)
    }

    /// Tables in memory, finished ones included.
    #[must_use]
    pub fn len(&self) -> usize {
        self.map.read().map(|m| m.len()).unwrap_or(0)
    }

    /// Whether no table is open.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether table `id` is served here.
    #[must_use]
    pub fn contains(&self, id: &Secret) -> bool {
        self.map.read().is_ok_and(|m| m.contains_key(id))
    }

    /// Stops table `id`'s task and forgets it; its sockets see the table close.
    pub fn remove(&self, id: &Secret) {
        let gone = self.map.write().ok().and_then(|mut m| m.remove(id));
        if let Some(handle) = gone {
            handle.abort.abort();
        }
    }

    /// Stops the task of table number `no`, wherever it is in the map.
    pub fn remove_no(&self, no: i64) {
        let id = self
            .map
            .read()
            .ok()
            .and_then(|m| m.iter().find(|(_, h)| h.no == no).map(|(id, _)| *id));
        if let Some(id) = id {
            self.remove(&id);
        }
    }

    /// Lets every table finish what its inbox already holds (an action being written is
    /// committed and told), then stops every table task; for a node shutting down.
    pub async fn drain_and_stop(&self) {
        let handles: Vec<(Secret, TableHandle)> = self
            .map
            .read()
            .map(|m| m.iter().map(|(id, h)| (*id, h.clone())).collect())
            .unwrap_or_default();
        for (_, handle) in &handles {
            // Answered after everything queued before it: the inbox is in order.
            let _ = handle.ask(Command::Summary).await;
        }
        for (id, _) in &handles {
            self.remove(id);
        }
    }

    /// Starts `table`'s task under supervision and registers it as `id`.
    pub fn spawn(self: &Arc<Registry>, id: Secret, no: i64, mut table: Table) {
        table.name_fair_table(&id);
        let slot = (!table.is_over()).then(|| self.slots.take());
        table.keep(self.lifecycle.clone(), slot);
        let (tx, rx) = mpsc::channel(INBOX);
        let me = tx.downgrade();
        let task = tokio::spawn(table.run(rx, me));
        let abort = task.abort_handle();
        let mine = tx.clone();
        if let Ok(mut map) = self.map.write() {
            map.insert(id, TableHandle { no, tx, abort });
        }
        METRICS.tables(1);
        let registry = Arc::clone(self);
        tokio::spawn(async move {
            let result = task.await;
            METRICS.tables(-1);
            match result {
                Err(e) if e.is_panic() => {
                    METRICS.panic();
                    tracing::error!(
                        table = no,
                        "table task panicked; rebuilding it from the database"
                    );
                    registry.rebuild(id, no).await;
                }
                Err(_) | Ok(()) => {
                    // Only this task's own entry: the table may be served again by now.
                    if let Ok(mut map) = registry.map.write()
                        && map.get(&id).is_some_and(|h| h.tx.same_channel(&mine))
                    {
                        map.remove(&id);
                    }
                }
            }
        });
    }

    async fn rebuild(self: &Arc<Registry>, id: Secret, no: i64) {
        match self.store.table(no).await {
            Ok(Some(row)) => match Table::restore(row, self.store.clone(), self.limits.clone()) {
                Ok(table) => self.spawn(id, no, table),
                Err(e) => tracing::error!(table = no, error = %e, "table cannot be rebuilt"),
            },
            Ok(None) => {
                if let Ok(mut map) = self.map.write() {
                    map.remove(&id);
                }
            }
            Err(e) => {
                tracing::error!(table = no, error = %e, "cannot read the database to rebuild");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::table::actor::test_table;

    #[tokio::test]
    async fn a_panicking_table_is_rebuilt_and_others_go_on() {
        let dir = std::env::temp_dir().join(format!("pref-panic-{}", Secret::random().expose()));
        let store = Store::open(&dir).await.unwrap();
        let registry = Registry::new(store.clone(), Limits::default());
        let mut handles = Vec::new();
        for _ in 0..2 {
            let (id, no, host, table) = test_table(&store, &Limits::default()).await;
            registry.spawn(id, no, table);
            handles.push((id, host));
        }
        let first = registry.get(&handles[0].0).unwrap();
        let claimed = first
            .ask(|reply| Command::Claim {
                name: "Anna".into(),
                seat: None,
                host: Some(handles[0].1),
                invite: None,
                account: None,
                reply,
            })
            .await
            .unwrap();
        assert!(claimed.is_ok());
        first.tell(Command::Panic).await;
        // The other table never notices.
        let other = registry.get(&handles[1].0).unwrap();
        assert!(other.ask(Command::Summary).await.is_ok());
        // The panicked one comes back from the database, seat and all. It is rebuilt on real
        // threads from the store: until then the registry may have no handle for it
        // (`NoTable`), or the old handle's task is gone. A loaded machine may take seconds.
        let mut summary = None;
        for _ in 0..500 {
            tokio::time::sleep(Duration::from_millis(20)).await;
            let Ok(handle) = registry.get(&handles[0].0) else {
                continue;
            };
            if let Ok(s) = handle.ask(Command::Summary).await {
                summary = Some(s);
                break;
            }
        }
        let summary = summary.expect("the table was not rebuilt");
        assert_eq!(summary.seats[0].name.as_deref(), Some("Anna"));
    }
}
