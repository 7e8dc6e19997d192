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
//! - A **probe** is a public table opened under the name `probe N` by the worker holding
//!   the watchers; the time from the `POST` to the moment the last watcher has it (in a
//!   `listed` item or a snapshot) is the lobby's latency of one change to every socket.

use std::collections::{HashMap, HashSet};
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
    /// Per probe: when its `POST` was sent and the watchers that have not seen it yet.
    pub(crate) probes: Mutex<HashMap<u64, (Instant, u32)>>,
    /// Watchers, for a probe's count.
    pub(crate) watchers: u32,
    /// From a probe's `POST` to each watcher having it.
    pub(crate) each: Mutex<Histogram>,
    /// From a probe's `POST` to the last watcher having it.
    pub(crate) all: Mutex<Histogram>,
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

/// Histograms are reset when the steady state begins.
pub(crate) fn reset(l: &LobbyStats) {
    for h in [&l.each, &l.all, &l.paired] {
        if let Ok(mut h) = h.lock() {
            *h = Histogram::default();
        }
    }
}

impl LobbyStats {
    /// Probes not yet seen by every watcher.
    pub(crate) fn unreached(&self) -> u64 {
        self.probes.lock().map_or(0, |p| p.len() as u64)
    }

    /// A watcher has probe `k`.
    fn reached(&self, k: u64) {
        let Ok(mut probes) = self.probes.lock() else {
            return;
        };
        let Some((sent, left)) = probes.get_mut(&k) else {
            return;
        };
        let micros = sent.elapsed().as_micros() as u64;
        *left = left.saturating_sub(1);
        let done = *left == 0;
        if done {
            probes.remove(&k);
        }
        drop(probes);
        if let Ok(mut h) = self.each.lock() {
            h.record(micros);
        }
        if done && let Ok(mut h) = self.all.lock() {
            h.record(micros);
        }
    }
}

/// The probe a listed table is, by its host's name.
fn probe_of(host: Option<&str>) -> Option<u64> {
    host?.strip_prefix("probe ")?.parse().ok()
}

/// What one watcher has: its number and the probes it has seen.
struct Watcher {
    at: u64,
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

    fn saw(&mut self, probe: Option<u64>, stats: &LobbyStats) {
        if let Some(k) = probe
            && self.seen.insert(k)
        {
            stats.reached(k);
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

/// Opens probe `k`: a public table named `probe k`, timed from before its `POST`.
pub(crate) async fn probe(k: u64, api: &Api, stats: &Stats, lobby: &LobbyStats) {
    if lobby.watchers == 0 {
        return;
    }
    if let Ok(mut p) = lobby.probes.lock() {
        p.insert(k, (Instant::now(), lobby.watchers));
    }
    let create = CreateTable {
        public: true,
        name: Some(format!("probe {k}")),
        ..CreateTable::default()
    };
    if let Err(e) = api
        .expect::<Created, _>(201, Method::POST, "/api/tables", Some(&create), None)
        .await
    {
        if let Ok(mut p) = lobby.probes.lock() {
            p.remove(&k);
        }
        stats.error(format!("probe: {e}"));
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
            watchers: 1,
            ..LobbyStats::default()
        };
        stats.probes.lock().unwrap().insert(7, (Instant::now(), 1));
        let mut w = Watcher {
            at: 4,
            seen: HashSet::new(),
            awaiting: false,
        };
        assert!(w.item(&listed(5, "probe 7"), &stats));
        assert!(w.item(&listed(6, "probe 7"), &stats));
        assert_eq!(stats.each.lock().unwrap().len(), 1);
        assert_eq!(stats.all.lock().unwrap().len(), 1);
        assert_eq!(stats.unreached(), 0);
        // Item 8 after 6: item 7 was lost, the watcher asks for a snapshot and drops the
        // items until it comes.
        assert!(!w.item(&listed(8, "someone"), &stats));
        assert_eq!(stats.lost.load(Ordering::Relaxed), 1);
        assert!(w.item(&listed(9, "probe 7"), &stats));
        assert_eq!(w.at, 6);
        assert_eq!(stats.items.load(Ordering::Relaxed), 3);
    }
}
