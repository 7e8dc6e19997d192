//! The lobby's share of a load (`--lobby-watchers`, `--seeks-per-sec`): sockets that follow
//! `/api/lobby/ws` as the start page (`web/js/room.js`) does, seekers that press "Play" as
//! the browser does, and probes that time a lobby change to every lobby socket.
//!
//! - A **watcher** holds a lobby socket: a snapshot, then numbered items. An item whose
//!   number is not the next is a gap: the watcher counts the items it lost and asks for a
//!   new snapshot (`resync`), dropping items until it comes, as the page does.
//! - A **seeker** opens a lobby socket, seeks (Sochi, the run's seek clock), waits for its
//!   seat (`paired`), and then opens the table's socket with the seat's token and reads its
//!   snapshot, as the page does when it goes to the table; then it closes both.
//! - A **probe** is a public table opened by the first lobby worker under the name
//!   `probe N T`, `T` the `POST`'s moment on the machine's monotonic clock in
//!   microseconds. The watchers are in workers of their own (`pref-load`'s
//!   `LOBBY_SOCKETS_PER_WORKER`), apart from the tables' sockets as browsers are; each one
//!   that has the probe (in a `listed` item or a snapshot) times it from `T`, and each
//!   worker reports per probe how many of its watchers have it and when the last did. The parent adds them up
//!   ([`crate::report::LobbyReport::settle`]): the latest of those moments is the lobby's
//!   latency of one change to every socket.

use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use hyper::Method;
use pref_protocol::{CreateTable, Created, LobbyMessage, LobbyRequest, LobbyView};
use tokio::sync::watch;
use tokio::time::{Instant, timeout};
use tokio_tungstenite::tungstenite::Message;

use crate::client::{self, Dialer, Stage, Ws};
use crate::histogram::Histogram;
use crate::http::Api;
use crate::report::Stats;

/// The lobby's counters of one worker.
#[derive(Debug, Default)]
pub(crate) struct LobbyStats {
    /// Per probe this worker's watchers have seen: how many have it and the latest of
    /// their times from its `POST`, in microseconds.
    pub(crate) seen: Mutex<BTreeMap<u64, Sighting>>,
    /// The probes this worker opened (their `POST` answered).
    pub(crate) posted: Mutex<Vec<u64>>,
    /// This worker's watchers.
    pub(crate) watchers: u32,
    /// From a probe's `POST` to each watcher having it.
    pub(crate) each: Mutex<Histogram>,
    /// A probe's `POST`, to its answer.
    pub(crate) created: Mutex<Histogram>,
    /// From a seek to its `paired`.
    pub(crate) paired: Mutex<Histogram>,
    /// Numbered items received by the watchers.
    pub(crate) items: std::sync::atomic::AtomicU64,
    /// Items skipped (a gap), each followed by a new snapshot.
    pub(crate) lost: std::sync::atomic::AtomicU64,
    /// Snapshots after the first: reconnections after a gap, or the server's own after the
    /// socket fell behind.
    pub(crate) resyncs: std::sync::atomic::AtomicU64,
    /// Seeks sent.
    pub(crate) seeks: std::sync::atomic::AtomicU64,
    /// Seeks that got a seat, whose table's socket then opened with the seat's token.
    pub(crate) seated: std::sync::atomic::AtomicU64,
}

/// How many of a worker's watchers have a probe, and the latest of their times from its
/// `POST` (microseconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Sighting {
    pub(crate) watchers: u32,
    pub(crate) last_micros: u64,
}

/// The machine's monotonic clock in microseconds, the same in every worker: a probe's
/// `POST` is timed in one process and its arrival in others.
pub(crate) fn monotonic_micros() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    let secs = u64::try_from(t.tv_sec).unwrap_or(0);
    let nanos = u64::try_from(t.tv_nsec).unwrap_or(0);
    secs * 1_000_000 + nanos / 1_000
}

/// Histograms are reset when the steady state begins.
pub(crate) fn reset(l: &LobbyStats) {
    for h in [&l.each, &l.created, &l.paired] {
        if let Ok(mut h) = h.lock() {
            *h = Histogram::default();
        }
    }
}

impl LobbyStats {
    /// Probes some of this worker's watchers have and others not yet: the drain waits for
    /// them (a probe none of them has seen is not known here).
    pub(crate) fn unreached(&self) -> u64 {
        self.seen.lock().map_or(0, |s| {
            s.values().filter(|v| v.watchers < self.watchers).count() as u64
        })
    }

    /// A watcher has probe `k`, whose `POST` was at `sent` (monotonic microseconds).
    fn reached(&self, k: u64, sent: u64) {
        let micros = monotonic_micros().saturating_sub(sent);
        if let Ok(mut seen) = self.seen.lock() {
            let s = seen.entry(k).or_default();
            s.watchers += 1;
            s.last_micros = s.last_micros.max(micros);
        }
        if let Ok(mut h) = self.each.lock() {
            h.record(micros);
        }
    }

    /// Each probe this worker's watchers have seen, for the report.
    pub(crate) fn sightings(&self) -> Vec<(u64, Sighting)> {
        self.seen
            .lock()
            .map(|s| s.iter().map(|(&k, &v)| (k, v)).collect())
            .unwrap_or_default()
    }
}

/// The probe a listed table is, by its host's name: its number and its `POST`'s moment.
fn probe_of(host: Option<&str>) -> Option<(u64, u64)> {
    let (k, sent) = host?.strip_prefix("probe ")?.split_once(' ')?;
    Some((k.parse().ok()?, sent.parse().ok()?))
}

/// What one watcher has: its number and the probes it has seen.
struct Watcher {
    at: u64,
    /// The probes it has seen.
    seen: HashSet<u64>,
    /// A snapshot was asked for after a gap: items are dropped until it comes.
    awaiting: bool,
}

impl Watcher {
    fn snapshot(&mut self, view: &LobbyView, stats: &LobbyStats) {
        self.at = view.n;
        self.awaiting = false;
        for t in &view.tables {
            self.saw(probe_of(t.host.as_deref()), stats);
        }
    }

    fn saw(&mut self, probe: Option<(u64, u64)>, stats: &LobbyStats) {
        if let Some((k, sent)) = probe
            && self.seen.insert(k)
        {
            stats.reached(k, sent);
        }
    }

    /// Follows one item; `false` on a gap (a snapshot is to be asked for).
    fn item(&mut self, m: &LobbyMessage, stats: &LobbyStats) -> bool {
        if self.awaiting && !matches!(m, LobbyMessage::Snapshot { .. }) {
            return true;
        }
        let n = match m {
            LobbyMessage::Listed { n, table } => {
                let probe = probe_of(table.host.as_deref());
                if *n == self.at + 1 {
                    self.saw(probe, stats);
                }
                *n
            }
            LobbyMessage::Unlisted { n, .. }
            | LobbyMessage::LiveChanged { n, .. }
            | LobbyMessage::Seeking { n, .. } => *n,
            LobbyMessage::Snapshot { lobby } => {
                stats.resyncs.fetch_add(1, Ordering::Relaxed);
                self.snapshot(lobby, stats);
                return true;
            }
            LobbyMessage::Waiting { .. }
            | LobbyMessage::Paired { .. }
            | LobbyMessage::Error { .. } => return true,
        };
        stats.items.fetch_add(1, Ordering::Relaxed);
        if n <= self.at {
            return true;
        }
        if n != self.at + 1 {
            stats.lost.fetch_add(n - self.at - 1, Ordering::Relaxed);
            self.awaiting = true;
            return false;
        }
        self.at = n;
        true
    }
}

/// Reads a lobby socket's first message, its snapshot.
async fn first_view(ws: &mut Ws) -> Result<LobbyView, String> {
    loop {
        let msg = timeout(Duration::from_secs(30), ws.next())
            .await
            .map_err(|_| "no lobby snapshot within 30 s".to_owned())?;
        match msg {
            Some(Ok(Message::Text(text))) => {
                return match serde_json::from_str::<LobbyMessage>(text.as_str()) {
                    Ok(LobbyMessage::Snapshot { lobby }) => Ok(lobby),
                    Ok(_) => Err(format!("the lobby's first message: {text}")),
                    Err(e) => Err(format!("an unreadable lobby message ({e}): {text}")),
                };
            }
            Some(Ok(Message::Close(f))) => return Err(format!("lobby closed at once: {f:?}")),
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(format!("lobby socket error: {e}")),
            None => return Err("the lobby socket ended at once".into()),
        }
    }
}

/// Opens a lobby socket and reads its snapshot.
pub(crate) async fn open(dialer: &Dialer) -> Result<(Ws, LobbyView), String> {
    let mut ws = dialer.connect("/api/lobby/ws", None).await?;
    let view = first_view(&mut ws).await?;
    Ok((ws, view))
}

/// Follows the lobby on `ws` until the stage is [`Stage::Close`], asking for a snapshot
/// after a gap.
pub(crate) async fn watch(
    (mut ws, view): (Ws, LobbyView),
    mut stage: watch::Receiver<Stage>,
    (stats, lobby): (Arc<Stats>, Arc<LobbyStats>),
) {
    let mut me = Watcher {
        at: 0,
        seen: HashSet::new(),
        awaiting: false,
    };
    me.snapshot(&view, &lobby);
    let resync = serde_json::to_string(&LobbyRequest::Resync).unwrap_or_default();
    loop {
        tokio::select! {
            changed = stage.changed() => {
                if changed.is_err() || *stage.borrow() == Stage::Close {
                    break;
                }
            }
            msg = ws.next() => match msg {
                Some(Ok(Message::Text(text))) => {
                    stats.received.fetch_add(1, Ordering::Relaxed);
                    match serde_json::from_str::<LobbyMessage>(text.as_str()) {
                        Ok(m) => {
                            if !me.item(&m, &lobby)
                                && ws.send(Message::Text(resync.clone().into())).await.is_err()
                            {
                                stats.error("a lobby socket refused a resync");
                                return;
                            }
                        }
                        Err(e) => stats.error(format!("an unreadable lobby item ({e})")),
                    }
                }
                Some(Ok(Message::Close(f))) => {
                    stats.closed_early.fetch_add(1, Ordering::Relaxed);
                    stats.error(format!("a lobby socket was closed: {f:?}"));
                    return;
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => {
                    stats.closed_early.fetch_add(1, Ordering::Relaxed);
                    stats.error("a lobby socket broke");
                    return;
                }
            },
        }
    }
    let _ = timeout(Duration::from_secs(2), ws.close(None)).await;
}

/// How long a probe stays in the lobby before its host ends it: time enough for every
/// watcher to see it (a probe reaches them in well under a second), and few enough probes
/// listed at once that a long run's lobby does not grow with them (the lobby shows the
/// `lobby.lobby_max_listed` longest-waiting tables, 200: a probe past those would never be
/// listed, and each seeker's snapshot would carry them all).
const PROBE_LISTED: Duration = Duration::from_secs(5);

/// Opens probe `k`: a public table named `probe k T`, `T` the moment before its `POST`,
/// and ends it [`PROBE_LISTED`] later.
pub(crate) async fn probe(k: u64, api: &Api, stats: &Stats, lobby: &LobbyStats) {
    let sent = monotonic_micros();
    let create = CreateTable {
        public: true,
        name: Some(format!("probe {k} {sent}")),
        ..CreateTable::default()
    };
    let created = match api
        .expect::<Created, _>(201, Method::POST, "/api/tables", Some(&create), None)
        .await
    {
        Ok(created) => {
            if let Ok(mut h) = lobby.created.lock() {
                h.record(monotonic_micros().saturating_sub(sent));
            }
            if let Ok(mut p) = lobby.posted.lock() {
                p.push(k);
            }
            created
        }
        Err(e) => return stats.error(format!("probe: {e}")),
    };
    // As a host who gave up waiting: the lobby keeps its size over a long run.
    tokio::time::sleep(PROBE_LISTED).await;
    let end = format!("/api/tables/{}/end", created.id);
    if let Err(e) = api
        .expect::<serde::de::IgnoredAny, ()>(
            200,
            Method::POST,
            &end,
            None,
            Some(&created.host_token),
        )
        .await
    {
        stats.error(format!("probe's end: {e}"));
    }
}

/// One seek as the browser makes it, start to seat: `clock` is the grid's clock.
pub(crate) async fn seek(k: u64, clock: &str, dialer: &Dialer, stats: &Stats, lobby: &LobbyStats) {
    if let Err(e) = seek_once(k, clock, dialer, lobby).await {
        stats.error(format!("seek: {e}"));
    }
}

async fn seek_once(k: u64, clock: &str, dialer: &Dialer, lobby: &LobbyStats) -> Result<(), String> {
    let (mut ws, _) = open(dialer).await?;
    let request = LobbyRequest::Seek {
        name: format!("seeker {k}"),
        profile: serde_json::json!("sochi"),
        clock: clock.to_owned(),
        bots_after_secs: None,
        rated: false,
        bots_only: false,
    };
    let text = serde_json::to_string(&request).map_err(|e| e.to_string())?;
    let sent = Instant::now();
    lobby.seeks.fetch_add(1, Ordering::Relaxed);
    ws.send(Message::Text(text.into()))
        .await
        .map_err(|e| format!("send: {e}"))?;
    let deadline = sent + Duration::from_secs(60);
    let (table, token) = loop {
        let msg = tokio::time::timeout_at(deadline, ws.next())
            .await
            .map_err(|_| "no seat within 60 s".to_owned())?;
        let Some(Ok(Message::Text(text))) = msg else {
            match msg {
                Some(Ok(Message::Close(f))) => return Err(format!("closed: {f:?}")),
                Some(Err(e)) => return Err(e.to_string()),
                None => return Err("the lobby socket ended".into()),
                Some(Ok(_)) => continue,
            }
        };
        match serde_json::from_str::<LobbyMessage>(text.as_str()) {
            Ok(LobbyMessage::Paired { table, token, .. }) => break (table, token),
            Ok(LobbyMessage::Error { message, .. }) => return Err(message),
            Ok(_) => {}
            Err(e) => return Err(format!("unreadable ({e}): {text}")),
        }
    };
    if let Ok(mut h) = lobby.paired.lock() {
        h.record(sent.elapsed().as_micros() as u64);
    }
    let _ = timeout(Duration::from_secs(2), ws.close(None)).await;
    let mut table_ws = dialer
        .connect(&format!("/api/tables/{table}/ws"), Some(&token))
        .await?;
    client::first_snapshot(&mut table_ws).await?;
    lobby.seated.fetch_add(1, Ordering::Relaxed);
    // Stay at the table as a browser does, past a few lobby ticks: the lobby starts a paired
    // table only once every seat's socket was seen open (`lobby.open_grace_secs`).
    let stay = Instant::now() + Duration::from_secs(3);
    while let Ok(Some(Ok(_))) = tokio::time::timeout_at(stay, table_ws.next()).await {}
    let _ = timeout(Duration::from_secs(2), table_ws.close(None)).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pref_protocol::PublicTable;

    fn listed(n: u64, host: &str) -> LobbyMessage {
        LobbyMessage::Listed {
            n,
            table: PublicTable {
                id: format!("t{n}"),
                preset: None,
                differs: serde_json::Map::new(),
                clock: None,
                players: 3,
                seats: vec![None; 3],
                host: Some(host.to_owned()),
                waiting_secs: 0,
                rated: None,
                ratings: Vec::new(),
            },
        }
    }

    #[test]
    fn a_watcher_counts_a_probe_once_and_a_gap_asks_for_a_new_snapshot() {
        let stats = LobbyStats {
            watchers: 2,
            ..LobbyStats::default()
        };
        let sent = monotonic_micros();
        let probe = format!("probe 7 {sent}");
        let mut w = Watcher {
            at: 4,
            seen: HashSet::new(),
            awaiting: false,
        };
        assert!(w.item(&listed(5, &probe), &stats));
        assert!(w.item(&listed(6, &probe), &stats));
        assert_eq!(stats.each.lock().unwrap().len(), 1);
        // One of the worker's two watchers has it: the drain waits for the other.
        assert_eq!(stats.unreached(), 1);
        let seen = stats.sightings();
        assert_eq!(seen.len(), 1);
        assert_eq!((seen[0].0, seen[0].1.watchers), (7, 1));
        assert!(seen[0].1.last_micros <= monotonic_micros() - sent);
        // Item 8 after 6: item 7 was lost, the watcher asks for a snapshot and drops the
        // items until it comes.
        assert!(!w.item(&listed(8, "someone"), &stats));
        assert_eq!(stats.lost.load(Ordering::Relaxed), 1);
        assert!(w.item(&listed(9, &probe), &stats));
        assert_eq!(w.at, 6);
        assert_eq!(stats.items.load(Ordering::Relaxed), 3);
        // The second watcher has it from a snapshot's table.
        let mut other = Watcher {
            at: 0,
            seen: HashSet::new(),
            awaiting: false,
        };
        assert!(other.item(&listed(1, &probe), &stats));
        assert_eq!(stats.unreached(), 0);
        assert_eq!(stats.sightings()[0].1.watchers, 2);
    }

    #[test]
    fn a_probe_s_name_carries_its_number_and_moment() {
        assert_eq!(probe_of(Some("probe 12 345")), Some((12, 345)));
        assert_eq!(probe_of(Some("probe 12")), None);
        assert_eq!(probe_of(Some("player 12 345")), None);
        assert_eq!(probe_of(None), None);
        // The name stays within a player's 32 characters for hours of uptime.
        let name = format!(
            "probe {} {}",
            u32::MAX,
            monotonic_micros() + 1_000_000 * 86_400 * 365
        );
        assert!(name.chars().count() <= 32, "{name}");
    }
}
