//! One socket of the load: a random-legal player or a spectator.
//!
//! Every socket checks that the versions it receives are gap-free and in order, and asks for
//! a snapshot as the browser does ([`Follow`]): on a gap only, or, imitating the browser
//! before it followed events, after every item carrying a turn. A snapshot nobody asked for
//! (other than after `lagged`) is an error. A player to act waits its think time, picks one
//! of the legal actions the server sent (in the turn of the item, or of the snapshot it
//! asked for), and marks
//! the table's [`Probe`] with the moment it sent; each viewer of the table, on receiving
//! the item that ends the action's batch (the one carrying the next `turn`), counts itself
//! in, and the last one records the latency. Actions at a table are strictly sequential, so
//! one pending slot per table is enough.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use pref_core::Action;
use pref_protocol::{ClientMessage, ErrorCode, Item, Public, ServerMessage, TurnView};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::watch;
use tokio::time::{Instant, sleep_until, timeout};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::header;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use crate::report::Stats;
use crate::resync::{Cause, Follow};

/// A socket to the server.
pub(crate) type Ws = WebSocketStream<TcpStream>;

/// The stages of a run, broadcast to every socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    /// Tables are being set up: sockets read (and answer pings) but nobody acts.
    Setup,
    /// Players act.
    Play,
    /// Players stop acting; answers in flight still arrive.
    Drain,
    /// Every socket notes the last version it reached, before any closes: a socket's close
    /// is itself news (the spectator count, a seat's presence) for those still open.
    Record,
    /// Sockets close.
    Close,
}

/// An action whose broadcast is awaited.
#[derive(Debug)]
struct Pending {
    /// When it was sent.
    sent: Instant,
    /// The sender's version then: the batch's items come after it.
    after: u64,
    /// Viewers that have not yet received the batch's last item.
    left: u32,
}

/// What one table's sockets share.
#[derive(Debug)]
pub(crate) struct Probe {
    /// Sockets at the table.
    viewers: u32,
    /// The action in flight, if any.
    pending: Mutex<Option<Pending>>,
    /// The last version each socket reached, checked to agree at the end.
    pub(crate) finals: Mutex<Vec<u64>>,
}

impl Probe {
    /// A probe for a table with `viewers` sockets.
    pub(crate) fn new(viewers: u32) -> Probe {
        Probe {
            viewers,
            pending: Mutex::new(None),
            finals: Mutex::new(Vec::new()),
        }
    }

    fn sending(&self, after: u64) {
        if let Ok(mut p) = self.pending.lock() {
            *p = Some(Pending {
                sent: Instant::now(),
                after,
                left: self.viewers,
            });
        }
    }

    /// Whether every socket of the table has noted its last version.
    pub(crate) fn recorded(&self) -> bool {
        self.finals
            .lock()
            .map(|f| f.len() >= self.viewers as usize)
            .unwrap_or(true)
    }

    fn record(&self, version: u64) {
        if let Ok(mut f) = self.finals.lock() {
            f.push(version);
        }
    }

    /// A viewer received the item at `version` that ends a batch.
    fn arrived(&self, version: u64, stats: &Stats) {
        let Ok(mut slot) = self.pending.lock() else {
            return;
        };
        let Some(p) = slot.as_mut() else { return };
        if version <= p.after {
            return;
        }
        p.left = p.left.saturating_sub(1);
        if p.left == 0 {
            let micros = p.sent.elapsed().as_micros() as u64;
            *slot = None;
            drop(slot);
            stats.latency(micros);
        }
    }

    /// Whether an action is still waiting for some viewer.
    pub(crate) fn unanswered(&self) -> bool {
        self.pending.lock().map(|p| p.is_some()).unwrap_or(true)
    }
}

/// Where and how sockets connect.
#[derive(Clone, Debug)]
pub(crate) struct Dialer {
    /// The server.
    pub(crate) server: SocketAddr,
    /// Source addresses to rotate over; empty lets the kernel choose.
    pub(crate) sources: Vec<Ipv4Addr>,
    /// Sockets opened so far, to pick the next source.
    pub(crate) next: Arc<AtomicU64>,
}

/// Small buffers: a load of thousands of sockets sends messages of a few hundred bytes.
fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0)
        .max_message_size(Some(1 << 20))
        .max_frame_size(Some(1 << 20))
}

impl Dialer {
    /// Opens a socket to `path_and_query` on the server, offering the seat `token` (if any)
    /// as a subprotocol, as the browser does: a token is never put in the URL.
    pub(crate) async fn connect(
        &self,
        path_and_query: &str,
        token: Option<&str>,
    ) -> Result<Ws, String> {
        let socket = TcpSocket::new_v4().map_err(|e| format!("socket: {e}"))?;
        if !self.sources.is_empty() {
            let i = self.next.fetch_add(1, Ordering::Relaxed) as usize % self.sources.len();
            socket
                .bind(SocketAddr::from((self.sources[i], 0)))
                .map_err(|e| format!("bind {}: {e}", self.sources[i]))?;
        }
        let stream = socket
            .connect(self.server)
            .await
            .map_err(|e| format!("connect: {e}"))?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        let mut request = format!("ws://{}{path_and_query}", self.server)
            .into_client_request()
            .map_err(|e| format!("request: {e}"))?;
        let offer = pref_protocol::subprotocol::offer(token)
            .parse()
            .map_err(|_| "a malformed token".to_owned())?;
        request
            .headers_mut()
            .insert(header::SEC_WEBSOCKET_PROTOCOL, offer);
        let (ws, _) =
            tokio_tungstenite::client_async_with_config(request, stream, Some(ws_config()))
                .await
                .map_err(|e| format!("upgrade: {e}"))?;
        Ok(ws)
    }
}

/// What a player will send when its wait is over.
#[derive(Debug)]
enum Intent {
    /// An action.
    Act(Action),
    /// Start the next deal.
    NextDeal,
}

/// What a socket shares with the rest of its table and worker.
pub(crate) struct Link {
    /// The table's probe.
    pub(crate) probe: Arc<Probe>,
    /// The worker's counters.
    pub(crate) stats: Arc<Stats>,
    /// The run's stage.
    pub(crate) stage: watch::Receiver<Stage>,
    /// Mean wait before acting.
    pub(crate) think: Duration,
    /// Which client to imitate.
    pub(crate) follow: Follow,
}

/// One socket's loop.
pub(crate) struct Client {
    /// The socket.
    pub(crate) ws: Ws,
    /// The seat, or `None` for a spectator.
    pub(crate) seat: Option<u8>,
    /// The table's shared probe.
    pub(crate) probe: Arc<Probe>,
    /// The worker's counters.
    pub(crate) stats: Arc<Stats>,
    /// The run's stage.
    pub(crate) stage: watch::Receiver<Stage>,
    /// Mean wait before acting.
    pub(crate) think: Duration,
    /// Choices and waits.
    pub(crate) rng: SmallRng,
    /// The last version received.
    pub(crate) version: u64,
    /// What to send, and when.
    intent: Option<(Instant, Intent)>,
    /// Messages sent, for ids.
    count: u64,
    /// Which client to imitate.
    follow: Follow,
    /// The snapshot awaited after `lagged` or a gap; items are dropped until it comes.
    awaiting: Option<Cause>,
    /// Snapshots asked for after a turn and not yet received.
    asked: u32,
    /// The version of the last snapshot: items at or below it are covered by it.
    covered: u64,
    /// The version this player last acted at: a turn no newer is the one it answered.
    acted_at: Option<u64>,
    /// A player who never acts (the run's absent share).
    absent: bool,
}

impl Client {
    /// A client on an open socket whose first snapshot was at `version`.
    pub(crate) fn new(ws: Ws, seat: Option<u8>, link: Link, seed: u64, version: u64) -> Client {
        Client {
            ws,
            seat,
            probe: link.probe,
            stats: link.stats,
            stage: link.stage,
            think: link.think,
            rng: SmallRng::seed_from_u64(seed),
            version,
            intent: None,
            count: 0,
            follow: link.follow,
            awaiting: None,
            asked: 0,
            covered: version,
            acted_at: None,
            absent: false,
        }
    }

    /// The same client as a player who never acts, when `absent`.
    pub(crate) fn absent(mut self, absent: bool) -> Client {
        self.absent = absent;
        self
    }

    fn plan(&mut self, intent: Intent) {
        let wait = self.think.mul_f64(self.rng.gen_range(0.5..1.5));
        self.intent = Some((Instant::now() + wait, intent));
    }

    /// Runs until the stage is [`Stage::Close`]; the last version reached at
    /// [`Stage::Record`] goes to the probe.
    pub(crate) async fn run(mut self) {
        let mut recorded = false;
        loop {
            let deadline = self.intent.as_ref().map(|(at, _)| *at);
            tokio::select! {
                biased;
                changed = self.stage.changed() => {
                    let stage = *self.stage.borrow();
                    if changed.is_err() || stage == Stage::Close {
                        break;
                    }
                    if stage == Stage::Drain {
                        self.intent = None;
                    }
                    if stage == Stage::Record && !recorded {
                        recorded = true;
                        self.intent = None;
                        self.probe.record(self.version);
                    }
                }
                () = sleep_until(deadline.unwrap_or_else(Instant::now)), if deadline.is_some() => {
                    if let Some((_, intent)) = self.intent.take()
                        && *self.stage.borrow() == Stage::Play
                        && !self.send(intent).await
                    {
                        break;
                    }
                }
                msg = self.ws.next() => match msg {
                    Some(Ok(Message::Text(text))) => {
                        if self.message(text.as_str()) && !self.resync().await {
                            break;
                        }
                    }
                    Some(Ok(Message::Close(frame))) => {
                        self.closed(format!("closed by the server: {frame:?}"));
                        break;
                    }
                    Some(Ok(_)) => {}
                    Some(Err(e)) => {
                        self.closed(format!("socket error: {e}"));
                        break;
                    }
                    None => {
                        self.closed("socket ended".into());
                        break;
                    }
                },
            }
        }
        if !recorded {
            self.probe.record(self.version);
        }
        let _ = timeout(Duration::from_secs(2), self.ws.close(None)).await;
    }

    fn closed(&self, why: String) {
        self.stats.closed_early.fetch_add(1, Ordering::Relaxed);
        self.stats.error(format!("seat {:?}: {why}", self.seat));
    }

    async fn send(&mut self, intent: Intent) -> bool {
        self.count += 1;
        let message = match intent {
            Intent::Act(action) => ClientMessage::Action {
                id: format!("a{}", self.count),
                version: self.version,
                action,
            },
            Intent::NextDeal => ClientMessage::NextDeal {
                id: format!("n{}", self.count),
                version: self.version,
            },
        };
        let text = match serde_json::to_string(&message) {
            Ok(t) => t,
            Err(e) => {
                self.stats.error(format!("unwritable message: {e}"));
                return false;
            }
        };
        self.probe.sending(self.version);
        self.acted_at = Some(self.version);
        self.stats.sent.fetch_add(1, Ordering::Relaxed);
        if let Err(e) = self.ws.send(Message::Text(text.into())).await {
            self.stats.error(format!("send: {e}"));
            return false;
        }
        true
    }

    /// Asks for a snapshot.
    async fn resync(&mut self) -> bool {
        let text = match serde_json::to_string(&ClientMessage::Resync {}) {
            Ok(t) => t,
            Err(e) => {
                self.stats.error(format!("unwritable message: {e}"));
                return false;
            }
        };
        if let Err(e) = self.ws.send(Message::Text(text.into())).await {
            self.stats.error(format!("send: {e}"));
            return false;
        }
        true
    }

    /// Handles one message; says whether to ask for a snapshot.
    fn message(&mut self, text: &str) -> bool {
        let stats = Arc::clone(&self.stats);
        stats.received.fetch_add(1, Ordering::Relaxed);
        let msg: ServerMessage = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(e) => {
                stats.error(format!("unreadable message ({e}): {text}"));
                return false;
            }
        };
        match msg {
            ServerMessage::Snapshot(snapshot) => {
                let cause = match self.awaiting.take() {
                    Some(c) => c,
                    None if self.asked > 0 => {
                        self.asked -= 1;
                        Cause::Turn
                    }
                    None => {
                        stats.error(format!("seat {:?}: a snapshot nobody asked for", self.seat));
                        Cause::Unasked
                    }
                };
                stats.resyncs.fetch_add(1, Ordering::Relaxed);
                stats.causes.count(cause);
                self.version = self.version.max(snapshot.version);
                self.covered = snapshot.version;
                self.turn(Some(&snapshot.turn), snapshot.version);
                false
            }
            ServerMessage::Event {
                version: v,
                event,
                turn,
            } => {
                if v <= self.version {
                    // A snapshot is current at its version: items up to it that were
                    // already queued behind it are covered, not out of order.
                    if v > self.covered {
                        stats.out_of_order.fetch_add(1, Ordering::Relaxed);
                    }
                    return false;
                }
                if self.awaiting.is_some() {
                    return false;
                }
                if v > self.version + 1 {
                    stats
                        .lost
                        .fetch_add(v - self.version - 1, Ordering::Relaxed);
                    self.awaiting = Some(Cause::Gap);
                    return true;
                }
                self.version = v;
                let mut phase_news = false;
                match event {
                    // Seat 0's socket counts each deal once and starts the next.
                    Some(Item::Public(Public::DealFinished { .. })) if self.seat == Some(0) => {
                        stats.deals.fetch_add(1, Ordering::Relaxed);
                        self.plan(Intent::NextDeal);
                    }
                    Some(Item::Public(Public::GameOver(_))) => {
                        phase_news = true;
                        if self.seat == Some(0) {
                            stats.games_over.fetch_add(1, Ordering::Relaxed);
                            self.intent = None;
                        }
                    }
                    Some(Item::Public(Public::Started { .. })) => phase_news = true,
                    Some(_) | None => {}
                }
                if let Some(t) = &turn {
                    self.probe.arrived(v, &stats);
                    // Seat 0's socket counts each move the autopilot made, once per table.
                    if t.autopilot.is_some() && self.seat == Some(0) {
                        stats.autopilot.fetch_add(1, Ordering::Relaxed);
                    }
                }
                match self.follow {
                    Follow::Events => {
                        self.turn(turn.as_ref(), v);
                        false
                    }
                    Follow::SnapshotEveryTurn if turn.is_some() || phase_news => {
                        self.asked += 1;
                        true
                    }
                    Follow::SnapshotEveryTurn => false,
                }
            }
            ServerMessage::Ack { .. } => {
                stats.acked.fetch_add(1, Ordering::Relaxed);
                false
            }
            ServerMessage::Error {
                code: ErrorCode::Lagged,
                ..
            } => {
                self.awaiting = Some(Cause::Lagged);
                false
            }
            // The load generator never asks for a page of the score log, nor for a hint.
            ServerMessage::Rejected { .. }
            | ServerMessage::Error { .. }
            | ServerMessage::ScorePage(_)
            | ServerMessage::Hint { .. } => {
                stats.error(format!("seat {:?}: {text}", self.seat));
                false
            }
        }
    }

    /// Plans an action from the turn at version `at`, unless it is one already answered or
    /// an action is already planned.
    fn turn(&mut self, turn: Option<&TurnView>, at: u64) {
        let Some(turn) = turn else { return };
        if self.absent
            || turn.legal.is_empty()
            || *self.stage.borrow() != Stage::Play
            || self.acted_at.is_some_and(|v| at <= v)
            || matches!(self.intent, Some((_, Intent::Act(_))))
        {
            return;
        }
        let pick = turn.legal[self.rng.gen_range(0..turn.legal.len())];
        self.plan(Intent::Act(pick));
    }
}

/// Reads a new socket's first message, which must be a snapshot; returns its version.
pub(crate) async fn first_snapshot(ws: &mut Ws) -> Result<u64, String> {
    let deadline = Duration::from_secs(30);
    loop {
        let msg = timeout(deadline, ws.next())
            .await
            .map_err(|_| "no snapshot within 30 s".to_owned())?;
        match msg {
            Some(Ok(Message::Text(text))) => {
                let m: ServerMessage = serde_json::from_str(text.as_str())
                    .map_err(|e| format!("unreadable first message ({e}): {text}"))?;
                return match m {
                    ServerMessage::Snapshot(s) => Ok(s.version),
                    _ => Err(format!("first message is not a snapshot: {text}")),
                };
            }
            Some(Ok(Message::Close(f))) => return Err(format!("closed at once: {f:?}")),
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(format!("socket error: {e}")),
            None => return Err("socket ended at once".into()),
        }
    }
}

/// Holds an idle socket open, answering pings, until the stage is [`Stage::Close`].
pub(crate) async fn idle(mut ws: Ws, mut stage: watch::Receiver<Stage>, stats: Arc<Stats>) {
    loop {
        tokio::select! {
            changed = stage.changed() => {
                if changed.is_err() || *stage.borrow() == Stage::Close {
                    break;
                }
            }
            msg = ws.next() => match msg {
                Some(Ok(Message::Close(_)) | Err(_)) | None => {
                    stats.closed_early.fetch_add(1, Ordering::Relaxed);
                    stats.error("an idle socket was closed");
                    return;
                }
                Some(Ok(_)) => {
                    stats.received.fetch_add(1, Ordering::Relaxed);
                }
            },
        }
    }
    let _ = timeout(Duration::from_secs(2), ws.close(None)).await;
}
