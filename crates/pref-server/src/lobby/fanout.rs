//! The lobby's writers: each writes every frame of the lobby sockets it holds, the items
//! of the lobby in turn to each of them, so that an item is one pass over the sockets in
//! one task, not two thousand tasks woken for it (the wake-ups and thread switches were a
//! third of the lobby thread's time, `docs/performance.md`).
//!
//! A socket's own task (`socket.rs`) reads what its client sends and hands the writer the
//! socket's write half when it opens, then its own messages (answers, a seat handed over,
//! pings, its close); the writer sends the snapshot on connect and at a resync, taking it
//! in its own order among the items, so a snapshot and the items after it join without a
//! gap. A socket whose client stops reading holds only its own queue: the others are
//! written on; past [`NEWS`] items behind it is owed a new snapshot instead, and one that
//! takes nothing for [`SEND_TIMEOUT`] is given up (its task is told, through `gone`).

use std::collections::{HashMap, VecDeque};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use futures_util::Sink;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use super::News;

/// Items a socket may fall behind before it is owed a new snapshot instead.
pub(super) const NEWS: usize = 256;

/// The follower's steps waiting for the writer itself at most (their items shared by
/// every socket): one more, and every socket of the writer is owed a new snapshot. Four
/// times the items a socket may fall behind, so that a writer kept from its core while a
/// node's public tables fill (a thousand listings in a few seconds) catches up with the
/// items instead of sending two thousand snapshots.
pub(super) const QUEUED: usize = 4 * NEWS;

/// A socket that takes nothing for this long is given up.
pub(super) const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// A socket's own messages waiting at most: one past this is a client that sends requests
/// and reads none of the answers, and is given up.
const OWN: usize = 64;

/// How often the writer looks for sockets that take nothing.
const CHECK_EVERY: Duration = Duration::from_secs(1);

/// The lobby's snapshot as its writers send it: the number of its last item and the
/// serialised `LobbyMessage::Snapshot`; `None` once the lobby is gone.
pub(super) type Snapshots = Arc<dyn Fn() -> Option<(u64, Utf8Bytes)> + Send + Sync>;

/// What a socket's task tells its writer.
pub(super) enum Control<S> {
    /// Socket `id` opened: its write half, and what the writer drops to tell its task that
    /// the socket was given up. The writer sends it the snapshot first.
    Open {
        id: u64,
        sink: S,
        gone: oneshot::Sender<()>,
    },
    /// A message of the socket's own (an answer, an error, a seat, a ping).
    Own { id: u64, message: Message },
    /// The client asked for a new snapshot.
    Resync { id: u64 },
    /// The socket's task ended: the frame to close it with, if any, is written first.
    Close { id: u64, frame: Option<CloseFrame> },
}

/// Where the lobby and its sockets reach one writer.
pub(super) struct Outlet<S> {
    control: mpsc::UnboundedSender<Control<S>>,
    /// The items of each of the follower's steps, together.
    news: mpsc::Sender<Arc<[Arc<News>]>>,
    /// A step did not fit in `news`: the writer owes every socket a snapshot.
    lagged: Arc<AtomicBool>,
}

impl<S> std::fmt::Debug for Outlet<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Outlet")
            .field("lagged", &self.lagged.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl<S> Outlet<S> {
    /// Hands the writer the items of one step of the follower. If the writer is [`QUEUED`]
    /// steps behind, they are not queued and every socket of the writer is sent a
    /// snapshot instead (taken after them).
    pub(super) fn publish(&self, items: &Arc<[Arc<News>]>) {
        if self.news.try_send(Arc::clone(items)).is_err() {
            self.lagged.store(true, Ordering::Release);
        }
    }

    /// Tells the writer something of a socket's. A writer that is gone (the lobby's
    /// threads stopping) is not told.
    pub(super) fn tell(&self, c: Control<S>) {
        let _ = self.control.send(c);
    }
}

/// A writer, and where the lobby reaches it: run the future (on the lobby sockets'
/// threads); it ends when the lobby drops the outlet.
pub(super) fn writer<S>(snapshots: Snapshots) -> (Outlet<S>, impl Future<Output = ()> + Send)
where
    S: Sink<Message> + Unpin + Send + 'static,
{
    let (control, control_rx) = mpsc::unbounded_channel();
    let (news, news_rx) = mpsc::channel(QUEUED);
    let lagged = Arc::new(AtomicBool::new(false));
    let outlet = Outlet {
        control,
        news,
        lagged: Arc::clone(&lagged),
    };
    let writer = async move {
        // Made here, on the sockets' threads, so that its timer is theirs.
        let mut check = tokio::time::interval(CHECK_EVERY);
        check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        let mut w = Writer {
            control: control_rx,
            news: news_rx,
            lagged,
            snapshots,
            sockets: HashMap::new(),
            check,
        };
        std::future::poll_fn(move |cx| w.poll(cx)).await;
    };
    (outlet, writer)
}

/// One writer's state.
struct Writer<S> {
    control: mpsc::UnboundedReceiver<Control<S>>,
    news: mpsc::Receiver<Arc<[Arc<News>]>>,
    lagged: Arc<AtomicBool>,
    snapshots: Snapshots,
    sockets: HashMap<u64, Out<S>>,
    check: tokio::time::Interval,
}

/// One socket as its writer holds it.
struct Out<S> {
    sink: S,
    /// The number of the last item queued (or in the last snapshot).
    at: u64,
    /// Frames not yet taken by the sink, each marked whether it is one of the lobby's
    /// (an item or a snapshot), which a new snapshot replaces, or the socket's own.
    queue: VecDeque<(bool, Message)>,
    /// The lobby's frames in `queue`.
    news: usize,
    /// The socket's own frames in `queue`.
    own: usize,
    /// A new snapshot is owed: items are not queued until it is.
    snapshot: bool,
    /// Frames were given to the sink since its last flush.
    unflushed: bool,
    /// The close frame is queued: the socket is dropped once it is written.
    closing: bool,
    /// Since when the sink has not taken what is queued.
    waiting: Option<Instant>,
    /// Dropped with the socket: its task learns it was given up.
    _gone: oneshot::Sender<()>,
}

impl<S: Sink<Message> + Unpin> Out<S> {
    fn new(sink: S, gone: oneshot::Sender<()>) -> Out<S> {
        Out {
            sink,
            at: 0,
            queue: VecDeque::new(),
            news: 0,
            own: 0,
            snapshot: true,
            unflushed: false,
            closing: false,
            waiting: None,
            _gone: gone,
        }
    }

    /// Queues `item` unless the socket has it (from its snapshot) or is owed a snapshot;
    /// one [`NEWS`] items behind a client that is not reading is owed a snapshot instead.
    fn offer(&mut self, item: &News) {
        if self.snapshot || self.closing || item.n <= self.at {
            return;
        }
        // Only a socket whose client is not reading falls behind: one that takes what it
        // is given is given every item of a writer catching up.
        if self.news >= NEWS && self.waiting.is_some() {
            self.owe_snapshot();
            return;
        }
        self.at = item.n;
        self.queue
            .push_back((true, Message::Text(item.text.clone())));
        self.news += 1;
    }

    /// Drops the lobby's frames still queued: a new snapshot replaces them.
    fn owe_snapshot(&mut self) {
        if self.closing {
            return;
        }
        self.drop_lobby_frames();
        self.snapshot = true;
    }

    /// Queues the close frame after the socket's own frames, in place of the lobby's.
    fn close(&mut self, frame: CloseFrame) {
        self.drop_lobby_frames();
        self.snapshot = false;
        self.closing = true;
        self.queue.push_back((false, Message::Close(Some(frame))));
        self.own += 1;
    }

    fn drop_lobby_frames(&mut self) {
        self.queue.retain(|(lobby, _)| !lobby);
        self.news = 0;
    }

    /// Whether the socket has anything to write.
    fn busy(&self) -> bool {
        self.snapshot || self.unflushed || !self.queue.is_empty()
    }

    /// Gives the sink what it takes of the queue, then flushes it. `Ok(true)` when all is
    /// written; `Err` when the socket is broken.
    fn pump(&mut self, cx: &mut Context<'_>, now: Instant) -> Result<bool, ()> {
        while !self.queue.is_empty() {
            match Pin::new(&mut self.sink).poll_ready(cx) {
                Poll::Ready(Ok(())) => {}
                Poll::Ready(Err(_)) => return Err(()),
                Poll::Pending => {
                    self.waiting.get_or_insert(now);
                    return Ok(false);
                }
            }
            let Some((lobby, frame)) = self.queue.pop_front() else {
                break;
            };
            if lobby {
                self.news -= 1;
            } else {
                self.own -= 1;
            }
            Pin::new(&mut self.sink).start_send(frame).map_err(drop)?;
            self.unflushed = true;
        }
        if self.unflushed {
            match Pin::new(&mut self.sink).poll_flush(cx) {
                Poll::Ready(Ok(())) => self.unflushed = false,
                Poll::Ready(Err(_)) => return Err(()),
                Poll::Pending => {
                    self.waiting.get_or_insert(now);
                    return Ok(false);
                }
            }
        }
        self.waiting = None;
        Ok(true)
    }
}

impl<S: Sink<Message> + Unpin> Writer<S> {
    /// Takes what the sockets' tasks and the lobby sent, then writes every socket that has
    /// something to write; pending until there is more.
    fn poll(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        loop {
            match self.control.poll_recv(cx) {
                Poll::Ready(Some(c)) => self.apply(c),
                Poll::Ready(None) => return Poll::Ready(()),
                Poll::Pending => break,
            }
        }
        let mut batch = Vec::new();
        loop {
            match self.news.poll_recv(cx) {
                Poll::Ready(Some(step)) => batch.extend(step.iter().cloned()),
                Poll::Ready(None) => return Poll::Ready(()),
                Poll::Pending => break,
            }
        }
        // After the items: a step that did not fit set the flag before the next was sent,
        // so a batch with items missing before some of its own sees the flag.
        if self.lagged.swap(false, Ordering::AcqRel) {
            for out in self.sockets.values_mut() {
                out.owe_snapshot();
            }
        }
        for item in &batch {
            for out in self.sockets.values_mut() {
                out.offer(item);
            }
        }
        let now = Instant::now();
        let mut ticked = false;
        while self.check.poll_tick(cx).is_ready() {
            ticked = true;
        }
        let mut snapshot: Option<Option<(u64, Utf8Bytes)>> = None;
        let mut dead = Vec::new();
        for (&id, out) in &mut self.sockets {
            if !out.busy() {
                continue;
            }
            if out.snapshot {
                let taken = snapshot.get_or_insert_with(|| (self.snapshots)());
                let Some((n, text)) = taken else {
                    dead.push(id);
                    continue;
                };
                out.snapshot = false;
                out.at = *n;
                // Before the socket's own frames: on connect the snapshot is the first.
                out.queue.push_front((true, Message::Text(text.clone())));
                out.news += 1;
            }
            match out.pump(cx, now) {
                Ok(true) if out.closing => dead.push(id),
                Ok(_) if ticked && out.waiting.is_some_and(|t| now - t >= SEND_TIMEOUT) => {
                    dead.push(id);
                }
                Ok(_) => {}
                Err(()) => dead.push(id),
            }
        }
        for id in dead {
            self.sockets.remove(&id);
        }
        for spent in batch.iter().filter_map(|item| item.written()) {
            crate::metrics::METRICS.lobby_fanout(spent);
        }
        Poll::Pending
    }

    /// What a socket's task said.
    fn apply(&mut self, c: Control<S>) {
        match c {
            Control::Open { id, sink, gone } => {
                self.sockets.insert(id, Out::new(sink, gone));
            }
            Control::Own { id, message } => {
                let Some(out) = self.sockets.get_mut(&id) else {
                    return;
                };
                if out.closing {
                    return;
                }
                if out.own >= OWN {
                    self.sockets.remove(&id);
                    return;
                }
                out.queue.push_back((false, message));
                out.own += 1;
            }
            Control::Resync { id } => {
                if let Some(out) = self.sockets.get_mut(&id) {
                    out.owe_snapshot();
                }
            }
            Control::Close { id, frame } => match (frame, self.sockets.get_mut(&id)) {
                (Some(frame), Some(out)) => out.close(frame),
                (None, _) => drop(self.sockets.remove(&id)),
                (Some(_), None) => {}
            },
        }
    }
}

#[cfg(test)]
#[path = "fanout_tests.rs"]
mod tests;
