//! The public lobby: public tables waiting for players, games in progress on public tables,
//! and quick pairing (`docs/protocol.md`, "The lobby"; `docs/scaling.md`, "The lobby on
//! several nodes").
//!
//! The lobby lives in the database (`store.rs`), so every node shows the same one. Each
//! node runs one task ([`Lobby::follow`]) that, every `lobby.lobby_tick_ms` and soon after
//! this node changed the lobby or another node notified it (`LISTEN pref_lobby` on
//! PostgreSQL; the seeks' wake-ups of [`GATHER`] are taken as one step): marks its seeks
//! alive and drops those of dead nodes (once a tick), reads the seeks (one query), pairs
//! the seekers of each choice whose line fills a table (`pairing.rs`), hands the seats of
//! its own seekers over their sockets, and, once a tick or when a public table may have
//! changed (not when only a seek did, nor when a game started that would not enter a full
//! live list), reads again the public tables it shows (the longest waiting and the busiest,
//! not every public table) and now and then counts the spectators of the public games it
//! serves and stores their previews (the table and its sheet as a spectator sees them,
//! `pref_protocol::preview`): what changed goes out to its lobby sockets as numbered items
//! (`view.rs`; the live list as its changed entries). Each part's time is counted in
//! `/metrics` (`pref_lobby_*_micros`).
//!
//! - `choice.rs`: what a seek asks for, checked, and the key seekers pair by.
//! - `socket.rs`: one lobby socket's task: what its client asks, the seek it holds.
//! - `fanout.rs`: the writers of the lobby sockets' frames: the snapshot, the items.
//! - `threads.rs`: the lobby sockets' own threads, below the tables' priority.
//! - `http.rs`: `GET /api/lobby` and the socket's upgrade.

mod choice;
mod fanout;
pub(crate) mod http;
mod pairing;
pub(crate) mod socket;
mod store;
#[cfg(test)]
mod tests;
mod threads;
mod view;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use pref_core::Profile;
use pref_protocol::clock::TimeControl;
use pref_protocol::{LobbyMessage, LobbyView};
use tokio::sync::{Notify, mpsc};

use crate::api::budgets::ClientBudget;
use crate::api::client::ClientKey;
use crate::api::error::ApiError;
use crate::config::Config;
use crate::metrics::{LobbyPart, METRICS};
use crate::store::Store;
use crate::table::registry::Registry;
pub(crate) use socket::Seeker;
use store::{LobbyStore, NewPublic, SEEKS_ONLY, STARTED, Seated, Waiting};

/// A lobby socket's write half, as its writer holds it.
type LobbySink =
    futures_util::stream::SplitSink<axum::extract::ws::WebSocket, axum::extract::ws::Message>;

/// The spectators of the public games a node serves are counted, and their previews taken
/// (asked of each table), one slice of the games at a time and at most one slice a tick
/// ([`count_due`]): slice `k` holds the games whose row number leaves `k` divided by this.
/// So each game is counted every this many ticks (5 s at the 500 ms tick), never at every
/// trick, however often seeks wake the follower; and the counts are spread over the ticks:
/// the tables asked, the writer storing the counts and the lobby sockets sent the entries
/// that changed take a tenth of the games at each tick, not all of them at once (a
/// thousand games' previews were 15 KB to every socket in one burst).
const COUNT_EVERY: u64 = 10;

/// After a wake-up by a seek the follower waits this long before its step, so that the
/// changes of those few milliseconds (fifty seeks a second at full load, each a wake-up) are
/// read once; a public table's change is read at once.
const GATHER: std::time::Duration = std::time::Duration::from_millis(5);

/// One numbered item as its sockets send it: serialised once when it is published, not
/// once per socket (with thousands of lobby sockets the per-socket JSON was most of the
/// cost of a change, `docs/performance.md`).
#[derive(Debug)]
pub(crate) struct News {
    /// The item's number.
    n: u64,
    /// The item as JSON text.
    text: axum::extract::ws::Utf8Bytes,
    /// When it was published.
    published: std::time::Instant,
    /// The writers (`fanout.rs`) that have not written it to their sockets yet: the last
    /// to end its pass counts the fan-out's time (`pref_lobby_fanout_micros`).
    unwritten: std::sync::atomic::AtomicUsize,
}

impl News {
    /// Notes that one more writer wrote the item to its sockets; for the last of them, the
    /// time since it was published.
    fn written(&self) -> Option<std::time::Duration> {
        (self.unwritten.fetch_sub(1, Ordering::AcqRel) == 1).then(|| self.published.elapsed())
    }
}

/// The lobby of this node: its view of the shared lobby, its sockets and its seekers.
#[derive(Debug)]
pub(crate) struct Lobby {
    rows: LobbyStore,
    store: Store,
    tables: Arc<Registry>,
    config: Arc<Config>,
    base_url: String,
    /// This node's name in the seeks' rows.
    node: String,
    /// The lobby as last read, with the number of its last item; locked while an item is
    /// published, so that a socket's snapshot and its items join without a gap.
    view: Mutex<view::Known>,
    /// The writers of the lobby sockets' frames (one per lobby socket thread): the
    /// numbered items, each serialised once for every socket, go to each of them.
    writers: Vec<fanout::Outlet<LobbySink>>,
    /// Wakes the follower at once.
    poke: Arc<Notify>,
    /// A public table may have changed since the last read of them: the next step reads
    /// them again (a step woken only by a seek does not).
    tables_changed: Arc<AtomicBool>,
    /// The games started on public tables since the last step (table id, its listing's
    /// `created_ms`): the step reads the public tables again only for one that changes
    /// what the lobby shows ([`view::Known::changed_by_start`]).
    started: Mutex<Vec<(String, i64)>>,
    /// The sockets holding a seek, by their number: where a seat is handed over.
    seekers: Mutex<HashMap<u64, mpsc::UnboundedSender<LobbyMessage>>>,
    next_socket: AtomicU64,
    /// When the last slice of the public games was counted ([`COUNT_EVERY`]), and how
    /// many slices were counted so far.
    counted: Mutex<(Option<tokio::time::Instant>, u64)>,
    /// Whether the spectators are being counted now.
    counting: std::sync::atomic::AtomicBool,
    /// When this node last marked its seeks alive (ms since 1970).
    touched: std::sync::atomic::AtomicI64,
    /// Seeks made per client (`lobby.seeks_per_ip_per_minute`).
    seeks: ClientBudget,
    /// Where the lobby sockets run (`lobby.lobby_socket_threads`).
    sockets: threads::SocketThreads,
}

/// The seekers waiting per (preset, clock) in `waiting` but for those `taken` now; other
/// house rules count as `custom`; bot accounts' seeks (`choice::bots_line`) are not counted
/// for people.
fn counts(waiting: &[Waiting], taken: &HashSet<i64>) -> Vec<(String, String, i64)> {
    let mut by: BTreeMap<(String, String), i64> = BTreeMap::new();
    for w in waiting {
        if taken.contains(&w.row.no) || choice::is_bots_line(&w.choice) {
            continue;
        }
        let label = w.label.clone().unwrap_or_else(|| "custom".to_owned());
        *by.entry((label, w.row.clock.clone())).or_default() += 1;
    }
    by.into_iter().map(|((l, c), n)| (l, c, n)).collect()
}

/// Whether a read at `now` counts the next slice of the spectators and previews, the last
/// slice having been counted at `last`, with the follower ticking every `tick`: the first
/// read, then one a tick after the last slice (less a tenth of a tick, for the timer's
/// jitter). With only the tick waking the follower that is every read; under seeks, when it
/// reads many times a tick, still once a tick.
fn count_due(
    last: Option<tokio::time::Instant>,
    now: tokio::time::Instant,
    tick: std::time::Duration,
) -> bool {
    let gap = tick.saturating_sub(tick / 10);
    last.is_none_or(|at| now.duration_since(at) >= gap)
}

/// Milliseconds since 1970.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

impl Lobby {
    /// The lobby of node `node`; its seeks of an earlier life are dropped. Call
    /// [`Lobby::follow`] to run it.
    ///
    /// # Errors
    /// [`ApiError::Internal`] if the database refuses, or the lobby sockets' threads
    /// cannot be started.
    pub(crate) async fn new(
        store: Store,
        tables: Arc<Registry>,
        config: Arc<Config>,
        base_url: String,
        node: String,
    ) -> Result<Arc<Lobby>, ApiError> {
        let rows = LobbyStore::new(store.clone());
        rows.drop_node(&node).await?;
        let l = &config.lobby;
        let seeks =
            ClientBudget::per_minute("seeks", l.seeks_per_ip_per_minute, l.seek_burst_per_ip);
        let sockets = threads::SocketThreads::new(l.lobby_socket_threads, l.lobby_socket_nice)
            .map_err(|e| ApiError::Internal(format!("the lobby sockets' threads: {e}")))?;
        let writers = l.lobby_socket_threads.max(1);
        Ok(Arc::new_cyclic(|me: &std::sync::Weak<Lobby>| {
            let writers = (0..writers)
                .map(|_| {
                    let lobby = me.clone();
                    let snapshots: fanout::Snapshots =
                        Arc::new(move || lobby.upgrade()?.snapshot_text());
                    let (outlet, writer) = fanout::writer(snapshots);
                    // Unbudgeted: tokio's budget would end a pass after 128 writes.
                    sockets.spawn(tokio::task::unconstrained(writer));
                    outlet
                })
                .collect();
            Lobby {
                writers,
                sockets,
                rows,
                store,
                tables,
                base_url,
                node,
                view: Mutex::new(view::Known::default()),
                poke: Arc::new(Notify::new()),
                tables_changed: Arc::new(AtomicBool::new(true)),
                started: Mutex::new(Vec::new()),
                seekers: Mutex::new(HashMap::new()),
                next_socket: AtomicU64::new(1),
                counted: Mutex::new((None, 0)),
                touched: std::sync::atomic::AtomicI64::new(0),
                counting: std::sync::atomic::AtomicBool::new(false),
                seeks,
                config,
            }
        }))
    }

    /// Runs the follower until the runtime stops: reads the lobby once at once, then every
    /// tick and at every poke; on PostgreSQL also at every `NOTIFY pref_lobby`.
    pub(crate) fn follow(self: &Arc<Lobby>) {
        if let Some(pool) = self.store.postgres() {
            let pool = pool.clone();
            let lobby = Arc::downgrade(self);
            tokio::spawn(async move {
                let Ok(mut listener) = sqlx::postgres::PgListener::connect_with(&pool).await else {
                    tracing::error!("the lobby cannot listen; it follows by its tick only");
                    return;
                };
                if listener.listen("pref_lobby").await.is_err() {
                    return;
                }
                while let Ok(heard) = listener.recv().await {
                    let Some(lobby) = lobby.upgrade() else { return };
                    if let Some(game) = store::started(heard.payload()) {
                        lobby.note_start(game);
                    } else if heard.payload() != SEEKS_ONLY {
                        lobby.tables_changed.store(true, Ordering::Release);
                    }
                    lobby.poke.notify_one();
                }
            });
        }
        let lobby = Arc::downgrade(self);
        let tick = self
            .config
            .lobby
            .lobby_tick_ms
            .at_least(std::time::Duration::from_millis(10));
        tokio::spawn(async move {
            loop {
                let Some(l) = lobby.upgrade() else { return };
                if let Err(e) = l.step().await {
                    tracing::warn!(error = %e, "the lobby's step failed");
                }
                let poke = Arc::clone(&l.poke);
                let tables_changed = Arc::clone(&l.tables_changed);
                drop(l);
                tokio::select! {
                    () = tokio::time::sleep(tick) => {}
                    () = poke.notified() => {}
                }
                // A public table's change goes out at once; the seeks' wake-ups are gathered.
                if !tables_changed.load(Ordering::Acquire) {
                    tokio::time::sleep(GATHER).await;
                }
            }
        });
    }

    /// One step of the follower.
    async fn step(self: &Arc<Lobby>) -> Result<(), ApiError> {
        let now = now_ms();
        let stale = i64::try_from(self.config.lobby.seek_stale_ms.0).unwrap_or(i64::MAX);
        // Once a tick, not at every poke: a seek goes stale only after many ticks.
        let tick = i64::try_from(self.config.lobby.lobby_tick_ms.0).unwrap_or(0);
        let last = self.touched.load(Ordering::Relaxed);
        let ticked = now - last >= tick || now < last;
        // Taken before the reads: a change meanwhile is read at the next step.
        let started =
            std::mem::take(&mut *self.started.lock().unwrap_or_else(PoisonError::into_inner));
        let tables = self.tables_changed.swap(false, Ordering::AcqRel) || ticked || {
            let known = self.view.lock().unwrap_or_else(PoisonError::into_inner);
            let max_live = self.config.lobby.lobby_max_live;
            started
                .iter()
                .any(|(id, created)| known.changed_by_start((id, *created), max_live))
        };
        if ticked {
            let t = std::time::Instant::now();
            self.touched.store(now, Ordering::Relaxed);
            self.rows.touch(&self.node, now, stale).await?;
            METRICS.lobby_part(LobbyPart::Touch, t.elapsed());
        }
        let t = std::time::Instant::now();
        let (waiting, seated) = self.rows.seeks(&self.node).await?;
        METRICS.lobby_part(LobbyPart::Seeks, t.elapsed());
        let t = std::time::Instant::now();
        let taken = pairing::pair(self, &waiting, now).await?;
        METRICS.lobby_part(LobbyPart::Pair, t.elapsed());
        let t = std::time::Instant::now();
        self.hand_over(seated).await?;
        METRICS.lobby_part(LobbyPart::HandOver, t.elapsed());
        self.read(tables, &counts(&waiting, &taken)).await?;
        METRICS.lobby_step(tables);
        Ok(())
    }

    /// Wakes the follower of this node and those of the others: a public table may have
    /// changed (and a seek with it).
    pub(crate) async fn changed(&self) {
        self.tables_changed.store(true, Ordering::Release);
        self.poke.notify_one();
        if let Err(e) = self.rows.notify("").await {
            tracing::warn!(error = %e, "the other nodes were not told of a lobby change");
        }
    }

    /// Wakes the follower of this node and those of the others: the game on public table
    /// `id` (listed at `created_ms`) started. Each reads the public tables again only if
    /// the game changes what its lobby shows.
    pub(crate) async fn changed_by_start(&self, id: &str, created_ms: i64) {
        self.note_start((id.to_owned(), created_ms));
        if let Err(e) = self
            .rows
            .notify(&format!("{STARTED}{id} {created_ms}"))
            .await
        {
            tracing::warn!(error = %e, "the other nodes were not told of a game's start");
        }
    }

    /// Notes a game started on a public table for the next step, and wakes the follower.
    fn note_start(&self, game: (String, i64)) {
        self.started
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(game);
        self.poke.notify_one();
    }

    /// Wakes the follower of this node and those of the others: only a seek changed.
    pub(crate) async fn changed_seeks(&self) {
        self.poke.notify_one();
        if let Err(e) = self.rows.notify(SEEKS_ONLY).await {
            tracing::warn!(error = %e, "the other nodes were not told of a seek");
        }
    }

    /// Hands the seats given to this node's seekers (`seated`) over their sockets.
    async fn hand_over(&self, seated: Vec<Seated>) -> Result<(), ApiError> {
        let mut done = Vec::with_capacity(seated.len());
        for s in seated {
            let socket = self
                .seekers
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(&s.socket);
            if let Some(socket) = socket {
                let _ = socket.send(LobbyMessage::Paired {
                    table: s.table,
                    seat: s.seat,
                    token: s.token,
                });
            }
            done.push(s.no);
        }
        Ok(self.rows.drop_seeks(&done).await?)
    }

    /// Runs a lobby socket (`socket::run` and what its upgrade holds) on the lobby
    /// sockets' threads.
    pub(crate) fn run_socket(
        &self,
        socket: impl std::future::Future<Output = ()> + Send + 'static,
    ) {
        self.sockets.spawn(socket);
    }

    /// The lobby as this node last read it.
    pub(crate) fn snapshot(&self) -> LobbyView {
        self.view
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .view(now_ms())
    }

    /// The snapshot as a writer sends it: the number of its last item and its JSON
    /// (`LobbyMessage::Snapshot`). Taken by the writer in its own order among the items, so
    /// that a socket's snapshot and the items after it join without a gap.
    fn snapshot_text(&self) -> Option<(u64, axum::extract::ws::Utf8Bytes)> {
        let lobby = self.snapshot();
        let n = lobby.n;
        match serde_json::to_string(&LobbyMessage::Snapshot { lobby }) {
            Ok(text) => Some((n, text.into())),
            Err(e) => {
                tracing::error!(error = %e, "the lobby's snapshot does not serialise");
                None
            }
        }
    }

    /// The writer of lobby socket `number`.
    fn outlet(&self, number: u64) -> &fanout::Outlet<LobbySink> {
        let at = usize::try_from(number).unwrap_or(0) % self.writers.len();
        &self.writers[at]
    }

    /// Publishes what changed: the grid's `counts`, and when `tables`, the public tables
    /// read again from the database.
    async fn read(
        self: &Arc<Lobby>,
        tables: bool,
        counts: &[(String, String, i64)],
    ) -> Result<(), ApiError> {
        if !tables {
            let t = std::time::Instant::now();
            let mut known = self.view.lock().unwrap_or_else(PoisonError::into_inner);
            let item = known.update_seeking(counts, now_ms());
            self.send(item.into_iter().collect());
            drop(known);
            METRICS.lobby_part(LobbyPart::Publish, t.elapsed());
            return Ok(());
        }
        let t = std::time::Instant::now();
        let limits = &self.config.lobby;
        let shown = (limits.lobby_max_listed, limits.lobby_max_live);
        let (rows, seats, rated) = self.rows.public(shown).await?;
        if let Some(slice) = self.count_due() {
            // Beside the follower, one count at a time: a hundred public games are a
            // hundred questions to busy tables, which would hold up the lobby's items.
            if !self.counting.swap(true, Ordering::AcqRel) {
                let lobby = Arc::clone(self);
                tokio::spawn(async move {
                    lobby.count_spectators(slice).await;
                    lobby.counting.store(false, Ordering::Release);
                });
            }
            if slice == 0 {
                self.rows.prune().await?;
            }
        }
        METRICS.lobby_part(LobbyPart::Public, t.elapsed());
        let t = std::time::Instant::now();
        let fresh = view::Known::read(
            &rows,
            &seats,
            &rated,
            counts,
            (limits.lobby_max_listed, limits.lobby_max_live),
        );
        let mut known = self.view.lock().unwrap_or_else(PoisonError::into_inner);
        let items = known.update(fresh, now_ms());
        self.send(items);
        drop(known);
        METRICS.lobby_part(LobbyPart::Publish, t.elapsed());
        Ok(())
    }

    /// The slice of the spectators and previews this read counts ([`count_due`], from 0 to
    /// [`COUNT_EVERY`] − 1), if it counts one; if so it is noted as the last count.
    fn count_due(&self) -> Option<u64> {
        let now = tokio::time::Instant::now();
        let mut counted = self.counted.lock().unwrap_or_else(PoisonError::into_inner);
        let (last, slices) = &mut *counted;
        if !count_due(*last, now, self.config.lobby.lobby_tick_ms.duration()) {
            return None;
        }
        *last = Some(now);
        *slices += 1;
        Some((*slices - 1) % COUNT_EVERY)
    }

    /// Serialises each item once and hands it to every writer; called with the view
    /// locked, so that a snapshot and the items after it join without a gap.
    fn send(&self, items: Vec<LobbyMessage>) {
        let mut step = Vec::with_capacity(items.len());
        for item in items {
            let Some(n) = view::number(&item) else {
                continue;
            };
            match serde_json::to_string(&item) {
                Ok(text) => step.push(Arc::new(News {
                    n,
                    text: text.into(),
                    published: std::time::Instant::now(),
                    unwritten: std::sync::atomic::AtomicUsize::new(self.writers.len()),
                })),
                Err(e) => tracing::error!(error = %e, "a lobby item does not serialise"),
            }
        }
        if step.is_empty() {
            return;
        }
        // The step's items together: one write to each socket for them all, where a
        // writer woken by the first would start its pass before the next was serialised.
        let step: Arc<[Arc<News>]> = step.into();
        for writer in &self.writers {
            writer.publish(&step);
        }
    }

    /// Stores the spectators of the public games of `slice` this node serves and their
    /// previews, for the live list: the rows where one of them changed, in one write.
    async fn count_spectators(&self, slice: u64) {
        let playing = match self.rows.playing((slice, COUNT_EVERY)).await {
            Ok(playing) => playing,
            Err(e) => {
                tracing::warn!(error = %e, "the public games were not read for their count");
                return;
            }
        };
        let mut changed = Vec::new();
        for (table, watchers, stored) in playing {
            let Some(id) = crate::ids::Secret::parse(&table) else {
                continue;
            };
            let Ok(handle) = self.tables.get(&id) else {
                continue;
            };
            let Ok((spectators, preview)) =
                handle.ask(crate::table::command::Command::Preview).await
            else {
                continue;
            };
            let preview = preview.and_then(|p| serde_json::to_string(&p).ok());
            if i64::from(spectators) != watchers || preview != stored {
                changed.push((table, spectators, preview));
            }
        }
        if let Err(e) = self.rows.watchers(&changed).await {
            tracing::warn!(error = %e, "the live games' spectators and previews were not stored");
        }
    }

    /// Lists table `id` (just opened, row `no`, with its host token `host`) as public.
    ///
    /// # Errors
    /// [`ApiError::RateLimited`] when `client` has `lobby.public_tables_per_ip` public
    /// tables in the lobby already (checked by [`Lobby::may_publish`] before the table is
    /// opened); [`ApiError::Internal`] if the database refuses.
    pub(crate) async fn publish(
        &self,
        (id, no): (&str, i64),
        invite_key: &str,
        (profile, clock): (&Profile, Option<&TimeControl>),
        host: Option<String>,
        client: Option<ClientKey>,
    ) -> Result<(), ApiError> {
        let row = choice::public_row((id, no), profile, clock, host, now_ms());
        self.rows
            .publish(&NewPublic {
                row: &row,
                invite_key,
                address: client.map(|c| c.to_string()),
            })
            .await?;
        self.changed().await;
        Ok(())
    }

    /// Whether `client` may open one more public table.
    ///
    /// # Errors
    /// [`ApiError::RateLimited`] when it has `lobby.public_tables_per_ip` in the lobby.
    pub(crate) async fn may_publish(&self, client: Option<ClientKey>) -> Result<(), ApiError> {
        let Some(client) = client else { return Ok(()) };
        let open = self.rows.public_by(&client.to_string()).await?;
        if open >= i64::from(self.config.lobby.public_tables_per_ip) {
            return Err(ApiError::RateLimited(
                "too many public tables in the lobby from this address".into(),
            ));
        }
        Ok(())
    }

    /// The invite key of public table `id` while it is in the lobby: a seat there is
    /// taken without the invite link.
    ///
    /// # Errors
    /// [`ApiError::Internal`] if the database refuses.
    pub(crate) async fn public_key(&self, id: &str) -> Result<Option<String>, ApiError> {
        Ok(self.rows.public_key(id).await?)
    }
}
