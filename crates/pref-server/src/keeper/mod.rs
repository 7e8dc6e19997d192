//! The scorekeeper: a score sheet (pulka) for a game played with real cards. The keeper
//! enters each deal's outcome; everybody with the link watches the sheet live.
//!
//! - [`sheet`]: the sheet as a value, scored as a whole record by the rules core.
//! - [`store`]: its rows in the server's database.
//! - [`http`]: the routes (`docs/protocol.md`, "Scorekeeping").
//!
//! A sheet is not a table task: it has no clock, no cards and no turns, only changes the
//! keeper makes. Each open sheet is an [`Entry`] here: its state behind an async mutex
//! (one change at a time), and a broadcast of the view each change makes, for the
//! watchers' event streams. A change is checked by the core, written to the database, and
//! only then applied and broadcast. On PostgreSQL with several nodes any node may serve a
//! sheet: it reads the changes other nodes wrote before each change and each view, and the
//! change's version, part of its row's key, lets only one writer store a version.
//!
//! Sheets do not stay in memory for good: one nobody read, changed or watched for
//! `limits.keeper_idle_secs` leaves memory, and so does the least recently used unwatched
//! one when more than `limits.keeper_max_open` are held; either is read again from the
//! database when next asked for. A sheet nobody used for `limits.keeper_expire_days` is
//! deleted from the database, so the `limits.max_keepers` cap cannot stay full. The sweeps
//! run in [`Keepers::sweeper`]; an entry taken out of memory is marked gone under its own
//! lock, so a request that held it asks again for the sheet rather than change a copy that
//! is no longer served.

pub(crate) mod http;
mod sheet;
mod store;
mod sweep;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use pref_protocol::{KeeperChange, KeeperDeal, KeeperOp, KeeperView};
use tokio::sync::{OwnedMutexGuard, broadcast};
use tokio::time::Instant;

use crate::api::error::ApiError;
use crate::config::Limits;
use crate::ids::{Secret, TokenHash};
#[cfg(test)]
use crate::store::{Pool, with_pool};
use crate::store::{Store, StoreError, now};

use self::sheet::{Deals, Header, SheetError};
use self::store::Written;
use self::sweep::take_out;

/// Views queued per watcher before a slow one skips to the newest.
const WATCH_QUEUE: usize = 16;

/// The open sheets of this node.
#[derive(Debug)]
pub(crate) struct Keepers {
    store: Store,
    limits: Limits,
    open: Mutex<HashMap<Secret, Arc<Entry>>>,
}

/// One open sheet.
#[derive(Debug)]
pub(crate) struct Entry {
    state: Arc<tokio::sync::Mutex<State>>,
    watchers: broadcast::Sender<Arc<KeeperView>>,
    used: Mutex<Used>,
}

/// When a sheet in memory was last used, and when its use was last written down.
#[derive(Clone, Copy, Debug)]
struct Used {
    last: Instant,
    stored: Instant,
}

impl Entry {
    fn new(state: State) -> Arc<Entry> {
        let now = Instant::now();
        Arc::new(Entry {
            state: Arc::new(tokio::sync::Mutex::new(state)),
            watchers: broadcast::channel(WATCH_QUEUE).0,
            used: Mutex::new(Used {
                last: now,
                stored: now,
            }),
        })
    }

    fn used(&self) -> std::sync::MutexGuard<'_, Used> {
        self.used
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A sheet's state: everything its changes made.
#[derive(Debug)]
struct State {
    no: i64,
    /// The keeper token's hash.
    keeper: TokenHash,
    header: Header,
    deals: Deals,
    history: Vec<KeeperChange>,
    view: Arc<KeeperView>,
    /// Taken out of memory: whoever holds this state asks for the sheet again.
    gone: bool,
}

impl From<SheetError> for ApiError {
    fn from(e: SheetError) -> ApiError {
        match e {
            SheetError::Rule(m) => ApiError::BadDeal(m),
            SheetError::NoDeal(_) | SheetError::Limit(_) => ApiError::BadRequest(e.to_string()),
            SheetError::Stopped | SheetError::Over => ApiError::Conflict(e.to_string()),
        }
    }
}

fn damaged(no: i64, why: impl ToString) -> ApiError {
    ApiError::from(StoreError::Damaged {
        table: no,
        why: why.to_string(),
    })
}

impl State {
    /// The state `stored` replays to.
    fn replay(
        no: i64,
        keeper: TokenHash,
        header: &str,
        changes: &[(u64, i64, String)],
    ) -> Result<State, ApiError> {
        let header: Header = serde_json::from_str(header).map_err(|e| damaged(no, e))?;
        let mut state = State {
            no,
            keeper,
            header,
            deals: Deals::default(),
            history: Vec::new(),
            view: Arc::new(placeholder_view()),
            gone: false,
        };
        state.take(changes)?;
        Ok(state)
    }

    /// Applies changes read from the database, then scores the sheet once.
    fn take(&mut self, changes: &[(u64, i64, String)]) -> Result<(), ApiError> {
        for (version, at, text) in changes {
            let op: KeeperOp = serde_json::from_str(text).map_err(|e| damaged(self.no, e))?;
            self.deals = self.deals.after(&op).map_err(|e| damaged(self.no, e))?;
            self.history.push(KeeperChange {
                version: *version,
                at: *at,
                op,
            });
        }
        let scored = sheet::score(&self.header, &self.deals).map_err(|e| damaged(self.no, e))?;
        self.view = Arc::new(sheet::view(
            &self.header,
            &self.deals,
            scored,
            &self.history,
        ));
        Ok(())
    }

    fn version(&self) -> u64 {
        self.history.last().map_or(0, |c| c.version)
    }
}

/// A view for the instant between reading a sheet and scoring it; never shown.
fn placeholder_view() -> KeeperView {
    KeeperView {
        version: 0,
        players: 3,
        names: Vec::new(),
        profile: serde_json::Value::Null,
        first_dealer: 0,
        deals: Vec::new(),
        sheet: pref_protocol::SheetView {
            pool: Vec::new(),
            mountain: Vec::new(),
            whists: Vec::new(),
        },
        settlement: None,
        next: None,
        history: Vec::new(),
    }
}

/// A new sheet's id, keeper token and first view.
#[derive(Debug)]
pub(crate) struct Opened {
    /// The sheet's id.
    pub id: Secret,
    /// The keeper's token.
    pub keeper: Secret,
    /// Its view.
    pub view: Arc<KeeperView>,
}

impl Keepers {
    /// No sheet open yet; they are read from `store` when first asked for.
    #[must_use]
    pub(crate) fn new(store: Store, limits: Limits) -> Keepers {
        Keepers {
            store,
            limits,
            open: Mutex::new(HashMap::new()),
        }
    }

    /// Opens a new sheet with `header` and, for an import, its deals.
    async fn create(&self, header: Header, imported: Option<Deals>) -> Result<Opened, ApiError> {
        let mut deals = Deals::default();
        let mut history = Vec::new();
        if let Some(imported) = imported {
            if imported.outcomes.len() > self.limits.keeper_max_deals {
                return Err(SheetError::Limit(format!(
                    "a sheet holds at most {} deals",
                    self.limits.keeper_max_deals
                ))
                .into());
            }
            let op = KeeperOp::Import {
                deals: imported.outcomes.clone(),
                agreed: imported.agreed,
            };
            deals = imported;
            history.push(KeeperChange {
                version: 1,
                at: now(),
                op,
            });
        }
        // Scoring a long import takes milliseconds: off the async workers.
        let scored = {
            let (header, deals) = (header.clone(), deals.clone());
            tokio::task::spawn_blocking(move || sheet::score(&header, &deals))
                .await
                .map_err(|e| ApiError::Internal(e.to_string()))??
        };
        // Deals are stored as the core writes them, so that a record exported and imported
        // again reads the same.
        if !history.is_empty() {
            deals.outcomes = scored.deals.iter().map(|d| d.outcome.clone()).collect();
            history[0].op = KeeperOp::Import {
                deals: deals.outcomes.clone(),
                agreed: deals.agreed,
            };
        }
        let max = i64::try_from(self.limits.max_keepers).unwrap_or(i64::MAX);
        if store::count(&self.store).await? >= max {
            return Err(ApiError::Full);
        }
        let (id, keeper) = (Secret::random(), Secret::random());
        let header_text =
            serde_json::to_string(&header).map_err(|e| ApiError::Internal(e.to_string()))?;
        let rows: Vec<_> = history
            .iter()
            .map(|c| (c.version, c.at, store::change_text(&c.op)))
            .collect();
        let hash = TokenHash::of(&keeper);
        let no = store::create(&self.store, &id, &hash, &header_text, now(), &rows).await?;
        let view = Arc::new(sheet::view(&header, &deals, scored, &history));
        let entry = Entry::new(State {
            no,
            keeper: hash,
            header,
            deals,
            history,
            view: Arc::clone(&view),
            gone: false,
        });
        self.insert(id, entry);
        tracing::info!(sheet = no, "scorekeeping sheet opened");
        Ok(Opened { id, keeper, view })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Secret, Arc<Entry>>> {
        self.open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The open sheet `id`, read from the database if it is not in memory.
    async fn entry(&self, id: &Secret) -> Result<Arc<Entry>, ApiError> {
        if let Some(e) = self.lock().get(id) {
            return Ok(Arc::clone(e));
        }
        let stored = store::load(&self.store, id, 0, now())
            .await?
            .ok_or(ApiError::NoTable)?;
        let state = State::replay(stored.no, stored.keeper, &stored.header, &stored.changes)?;
        Ok(self.insert(*id, Entry::new(state)))
    }

    /// Sheet `id` with its state locked, marked used now. An entry taken out of memory
    /// while this request waited for its lock is let go, and the sheet asked for again.
    async fn locked(&self, id: &Secret) -> Result<(Arc<Entry>, OwnedMutexGuard<State>), ApiError> {
        loop {
            let entry = self.entry(id).await?;
            let state = Arc::clone(&entry.state).lock_owned().await;
            if !state.gone {
                entry.used().last = Instant::now();
                return Ok((entry, state));
            }
        }
    }

    /// Puts `entry` in memory as sheet `id` (or keeps the one another request put there
    /// first), and takes the least recently used unwatched sheets out while more than
    /// `keeper_max_open` are held.
    fn insert(&self, id: Secret, entry: Arc<Entry>) -> Arc<Entry> {
        let mut open = self.lock();
        let entry = Arc::clone(open.entry(id).or_insert(entry));
        let mut written = Vec::new();
        while open.len() > self.limits.keeper_max_open.max(1) {
            let oldest = open
                .iter()
                .filter(|(k, e)| **k != id && e.watchers.receiver_count() == 0)
                .filter(|(_, e)| e.state.try_lock().is_ok())
                .map(|(k, e)| (*k, e.used().last))
                .min_by_key(|(_, last)| *last);
            let Some((k, _)) = oldest else { break };
            if let Some(e) = open.remove(&k) {
                written.extend(take_out(&e));
            }
        }
        drop(open);
        self.write_uses(written);
        entry
    }

    /// Writes down the last uses of sheets that left memory, in the background.
    fn write_uses(&self, uses: Vec<(i64, i64)>) {
        if uses.is_empty() {
            return;
        }
        let store = self.store.clone();
        tokio::spawn(async move {
            for (no, at) in uses {
                if let Err(e) = store::touch(&store, no, at).await {
                    tracing::warn!(sheet = no, error = %e, "a sheet's last use was not stored");
                }
            }
        });
    }

    fn is_open(&self, id: &Secret) -> bool {
        self.lock().contains_key(id)
    }

    /// Brings `state` up to the changes another node wrote (PostgreSQL only: on SQLite
    /// this process is the only writer).
    async fn refresh(&self, state: &mut State) -> Result<bool, ApiError> {
        if self.store.postgres().is_none() {
            return Ok(false);
        }
        let newer = store::changes_after(&self.store, state.no, state.version()).await?;
        if newer.is_empty() {
            return Ok(false);
        }
        state.take(&newer)?;
        Ok(true)
    }

    /// The sheet's view as it stands, and a receiver of the views changes make after it.
    ///
    /// # Errors
    /// [`ApiError::NoTable`] for an unknown id; store errors.
    pub(crate) async fn watch(
        &self,
        id: &Secret,
    ) -> Result<(Arc<KeeperView>, broadcast::Receiver<Arc<KeeperView>>), ApiError> {
        let (entry, mut state) = self.locked(id).await?;
        if self.refresh(&mut state).await? {
            let _ = entry.watchers.send(Arc::clone(&state.view));
        }
        Ok((Arc::clone(&state.view), entry.watchers.subscribe()))
    }

    /// Applies the keeper's change `op` to sheet `id`: checked by the core, stored, then
    /// shown to every watcher. Returns the new view.
    ///
    /// # Errors
    /// [`ApiError::Forbidden`] for a wrong token; [`ApiError::BadDeal`] with the rule's
    /// words for a deal the rules refuse; [`ApiError::Conflict`] when another change was
    /// stored first, or the change does not fit the stop; nothing changes on any error.
    pub(crate) async fn change(
        &self,
        id: &Secret,
        token: &Secret,
        op: KeeperOp,
    ) -> Result<Arc<KeeperView>, ApiError> {
        let (entry, mut state) = self.locked(id).await?;
        if !state.keeper.verifies(token) {
            return Err(ApiError::Forbidden(
                "the keeper token is not valid for this sheet",
            ));
        }
        self.refresh(&mut state).await?;
        if state.history.len() >= self.limits.keeper_max_changes {
            return Err(SheetError::Limit(format!(
                "a sheet keeps at most {} changes",
                self.limits.keeper_max_changes
            ))
            .into());
        }
        let op = state.deals.complete(op);
        let mut deals = state.deals.after(&op)?;
        if deals.outcomes.len() > self.limits.keeper_max_deals {
            return Err(SheetError::Limit(format!(
                "a sheet holds at most {} deals",
                self.limits.keeper_max_deals
            ))
            .into());
        }
        let scored = sheet::score(&state.header, &deals)?;
        deals.outcomes = scored.deals.iter().map(|d| d.outcome.clone()).collect();
        let op = canonical(op, &scored.deals);
        let change = KeeperChange {
            version: state.version() + 1,
            at: now(),
            op,
        };
        let text = store::change_text(&change.op);
        match store::append(&self.store, state.no, change.version, change.at, &text).await? {
            Written::Done => {}
            Written::Taken => {
                self.refresh(&mut state).await?;
                let _ = entry.watchers.send(Arc::clone(&state.view));
                return Err(ApiError::Conflict(
                    "the sheet was changed meanwhile; look at it again".into(),
                ));
            }
        }
        state.history.push(change);
        let view = Arc::new(sheet::view(&state.header, &deals, scored, &state.history));
        state.deals = deals;
        state.view = Arc::clone(&view);
        let _ = entry.watchers.send(Arc::clone(&view));
        Ok(view)
    }

    /// Whether `outcome` would be accepted as deal `index` (the next deal when `None`):
    /// the deal as it would stand, or the rule it breaks. Nothing changes.
    ///
    /// # Errors
    /// As [`Keepers::change`] for the deal; no token is needed.
    pub(crate) async fn check(
        &self,
        id: &Secret,
        index: Option<usize>,
        outcome: serde_json::Value,
    ) -> Result<KeeperDeal, ApiError> {
        let (_entry, state) = self.locked(id).await?;
        let at = index.unwrap_or(state.deals.outcomes.len());
        let op = match index {
            Some(index) => KeeperOp::Correct {
                index,
                was: serde_json::Value::Null,
                outcome,
            },
            None => KeeperOp::Add { outcome },
        };
        let deals = state.deals.after(&op)?;
        let mut scored = sheet::score(&state.header, &deals)?;
        Ok(scored.deals.swap_remove(at))
    }

    /// The choices for deal `index` (the next deal when `None`), for a correction as for
    /// an entry: the dealer is the one that deal had.
    ///
    /// # Errors
    /// [`ApiError::NoTable`]; [`ApiError::BadRequest`] for a deal that is not on the sheet.
    pub(crate) async fn choices(
        &self,
        id: &Secret,
        index: Option<usize>,
    ) -> Result<pref_protocol::KeeperNext, ApiError> {
        let (_entry, state) = self.locked(id).await?;
        let view = &state.view;
        let dealer = match index {
            None => view
                .next
                .as_ref()
                .map_or_else(|| next_dealer(view), |n| n.dealer),
            Some(i) => view.deals.get(i).ok_or(SheetError::NoDeal(i))?.dealer,
        };
        let profile = pref_core::Profile::from_resolved(&view.profile)
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(sheet::next(&profile, pref_core::Seat(dealer)))
    }

    /// The sheet as a `pref-record/1` record (outcome form).
    ///
    /// # Errors
    /// [`ApiError::NoTable`]; store errors.
    pub(crate) async fn record(&self, id: &Secret) -> Result<String, ApiError> {
        let (_entry, mut state) = self.locked(id).await?;
        self.refresh(&mut state).await?;
        // The record read back from the sheet carries the agreed stop itself.
        let scored = sheet::score(&state.header, &state.deals)?;
        Ok(scored.record.to_json_string())
    }
}

/// The dealer after the last deal (R1.3), for a sheet whose game is over.
fn next_dealer(view: &KeeperView) -> u8 {
    let deals = u8::try_from(view.deals.len() % usize::from(view.players)).unwrap_or(0);
    (view.first_dealer + deals) % view.players
}

/// `op` with its outcomes as the core writes them.
fn canonical(op: KeeperOp, deals: &[KeeperDeal]) -> KeeperOp {
    let at = |i: usize| {
        deals
            .get(i)
            .map_or(serde_json::Value::Null, |d| d.outcome.clone())
    };
    match op {
        KeeperOp::Add { .. } => KeeperOp::Add {
            outcome: at(deals.len().saturating_sub(1)),
        },
        KeeperOp::Correct { index, was, .. } => KeeperOp::Correct {
            index,
            was,
            outcome: at(index),
        },
        other @ (KeeperOp::Import { .. } | KeeperOp::Delete { .. } | KeeperOp::Stop { .. }) => {
            other
        }
    }
}
