//! One WebSocket: sends a viewer the items of its table, projected for that viewer, and
//! forwards the viewer's messages to the table's task.
//!
//! The socket is generic over a `Sink`/`Stream` of [`Message`]s so the loop does not depend on
//! the network. Every item is projected here, for this socket's viewer, right before it is
//! serialized: full deal events never leave the process. The socket keeps the last version
//! it sent; anything at or below it is skipped, and a gap (the broadcast queue overflowed)
//! is answered with a fresh snapshot, never skipped silently.

use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use pref_core::Viewer;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::{Instant, MissedTickBehavior, interval};

use crate::command::{Caller, Command, Session, Start};
use crate::config::Limits;
use crate::machine::TableError;
use crate::metrics::METRICS;
use crate::registry::TableHandle;
use crate::wire::Stamped;
use pref_protocol::{ClientMessage, ErrorCode, Reason, ServerMessage};

/// A client slow enough that one message takes longer than this is dropped.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// Rate-limit strikes after which the socket is closed.
const MAX_STRIKES: u32 = 100;

/// Close codes (RFC 6455 and the application range).
mod close {
    pub(super) const GOING_AWAY: u16 = 1001;
    pub(super) const POLICY: u16 = 1008;
    pub(super) const TOO_BIG: u16 = 1009;
    pub(super) const SEAT_FREED: u16 = 4000;
    pub(super) const TABLE_CLOSED: u16 = 4001;
}

/// A token bucket: `burst` messages at once, refilled at `rate` per second.
#[derive(Debug)]
struct Bucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    last: Instant,
}

impl Bucket {
    fn new(limits: &Limits) -> Bucket {
        let burst = f64::from(limits.message_burst.max(1));
        Bucket {
            tokens: burst,
            rate: f64::from(limits.messages_per_second.max(1)),
            burst,
            last: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let dt = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Why the loop stopped.
enum Stop {
    /// The client went away or the connection broke.
    Gone,
    /// We close with a code and reason.
    Close(u16, &'static str),
}

/// The stop of a socket whose seat has been freed.
const SEAT_FREED: Stop = Stop::Close(close::SEAT_FREED, "your seat was freed");

/// The state of one socket.
struct Conn<S> {
    /// The socket.
    ws: S,
    /// The table.
    table: TableHandle,
    /// Subscription and viewer.
    session: Session,
    /// The last version sent.
    sent: u64,
}

impl<S> Conn<S>
where
    S: Sink<Message> + Unpin,
{
    async fn send(&mut self, out: &ServerMessage) -> Result<(), Stop> {
        let text = serde_json::to_string(out).map_err(|_| Stop::Gone)?;
        match tokio::time::timeout(SEND_TIMEOUT, self.ws.send(Message::Text(text.into()))).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) | Err(_) => Err(Stop::Gone),
        }
    }

    async fn error(&mut self, code: ErrorCode, message: impl Into<String>) -> Result<(), Stop> {
        METRICS.error();
        self.send(&ServerMessage::Error {
            code,
            message: message.into(),
        })
        .await
    }

    /// Who this socket speaks for.
    fn caller(&self) -> Caller {
        Caller {
            viewer: self.session.viewer,
            token: self.session.token,
        }
    }

    /// The version of the `seat_freed` item that ended this socket's seat, once it has.
    fn freed_at(&self) -> Option<u64> {
        self.session.tenure.as_ref().and_then(|t| *t.borrow())
    }

    /// Sends one item as this viewer may see it (a stub if it may not). Nothing after the
    /// item that freed this socket's seat is sent: the socket closes there.
    async fn item(&mut self, item: &Stamped) -> Result<(), Stop> {
        if item.version <= self.sent {
            return Ok(());
        }
        let freed = self.freed_at();
        if freed.is_some_and(|v| item.version > v) {
            return Err(SEAT_FREED);
        }
        let viewer = self.session.viewer;
        let event = item
            .news
            .visible(viewer, self.session.players, self.session.spectator_chat);
        let out = ServerMessage::Event {
            version: item.version,
            event,
            turn: item.turn.as_ref().map(|t| t.view(viewer)),
        };
        self.send(&out).await?;
        self.sent = item.version;
        if freed == Some(item.version) {
            return Err(SEAT_FREED);
        }
        Ok(())
    }

    /// The seat was freed: sends what is queued up to the item that freed it, then closes.
    /// The table sets the tenure's end before it broadcasts that item, so it is on its way.
    async fn cut(&mut self) -> Result<(), Stop> {
        let wait = tokio::time::timeout(SEND_TIMEOUT, async {
            loop {
                match self.session.rx.recv().await {
                    Ok(item) => self.item(&item).await?,
                    Err(_) => return Err(SEAT_FREED),
                }
            }
        });
        match wait.await {
            Ok(stop) => stop,
            Err(_) => Err(SEAT_FREED),
        }
    }

    /// Sends what the session starts with.
    async fn start(&mut self, start: Start) -> Result<(), Stop> {
        match start {
            Start::Snapshot(s) => {
                let version = s.version;
                self.send(&ServerMessage::Snapshot(s)).await?;
                self.sent = version;
            }
            Start::Missed(items) => {
                for item in items {
                    self.item(&item).await?;
                }
            }
        }
        Ok(())
    }

    /// Replaces the subscription with a fresh snapshot, if the socket still holds its seat.
    async fn resync(&mut self) -> Result<(), Stop> {
        if self.freed_at().is_some() {
            return self.cut().await;
        }
        let caller = self.caller();
        let answer = self
            .table
            .ask(|reply| Command::Resync { caller, reply })
            .await
            .map_err(|_| Stop::Close(close::TABLE_CLOSED, "the table stopped"))?;
        let Ok(session) = answer else {
            // Refused only when the seat was freed.
            return self.cut().await;
        };
        let Session { start, rx, .. } = session;
        self.session.rx = rx;
        self.sent = 0;
        self.start(start).await
    }

    async fn incoming(&mut self, text: &str, limits: &Limits) -> Result<(), Stop> {
        let msg: ClientMessage = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(e) => {
                return self
                    .error(ErrorCode::Malformed, format!("not a message: {e}"))
                    .await;
            }
        };
        let caller = self.caller();
        match msg {
            ClientMessage::Action {
                id,
                version,
                action,
            } => {
                let (Viewer::Seat(seat), Some(token)) = (caller.viewer, caller.token) else {
                    return self.not_seated(id).await;
                };
                let out = self
                    .table
                    .ask(|reply| Command::Act {
                        seat,
                        token,
                        version,
                        action,
                        reply,
                    })
                    .await
                    .map_err(|_| Stop::Close(close::TABLE_CLOSED, "the table stopped"))?;
                self.answer(id, out).await
            }
            ClientMessage::NextDeal { id, version } => {
                let (Viewer::Seat(seat), Some(token)) = (caller.viewer, caller.token) else {
                    return self.not_seated(id).await;
                };
                let out = self
                    .table
                    .ask(|reply| Command::NextDeal {
                        seat,
                        token,
                        version,
                        reply,
                    })
                    .await
                    .map_err(|_| Stop::Close(close::TABLE_CLOSED, "the table stopped"))?;
                self.answer(id, out).await
            }
            ClientMessage::Chat { text } => {
                let text = text.trim().to_owned();
                let n = text.chars().count();
                if n == 0 || n > limits.chat_max_chars {
                    return self
                        .error(
                            ErrorCode::ChatLength,
                            format!("a chat line is 1 to {} characters", limits.chat_max_chars),
                        )
                        .await;
                }
                let answer = self
                    .table
                    .ask(|reply| Command::Chat {
                        caller,
                        text,
                        reply,
                    })
                    .await
                    .map_err(|_| Stop::Close(close::TABLE_CLOSED, "the table stopped"))?;
                match answer {
                    Ok(()) => Ok(()),
                    Err(TableError::SeatLost) => self.cut().await,
                    Err(e) => self.error(ErrorCode::ChatForbidden, e.to_string()).await,
                }
            }
            ClientMessage::Resync => self.resync().await,
        }
    }

    async fn not_seated(&mut self, id: String) -> Result<(), Stop> {
        METRICS.rejection();
        self.send(&ServerMessage::Rejected {
            id,
            reason: Reason::NotSeated,
            message: "spectators do not act".into(),
            rule: None,
        })
        .await
    }

    /// Sends an ack or rejection; a stale version is followed by a snapshot. A command refused
    /// because the seat was freed ends the socket.
    async fn answer(&mut self, id: String, out: Result<u64, TableError>) -> Result<(), Stop> {
        let out = match out {
            Ok(version) => ServerMessage::Ack { id, version },
            Err(TableError::SeatLost) => return self.cut().await,
            Err(e) => ServerMessage::Rejected {
                id,
                reason: e.reason(),
                message: e.to_string(),
                rule: e.rule().map(str::to_owned),
            },
        };
        let stale = matches!(
            out,
            ServerMessage::Rejected {
                reason: Reason::StaleVersion,
                ..
            }
        );
        self.send(&out).await?;
        if stale { self.resync().await } else { Ok(()) }
    }
}

/// Serves one socket until it closes. `seat` presence is reported to the table.
pub async fn run<S>(ws: S, table: TableHandle, session: Session, limits: Limits)
where
    S: Sink<Message> + Stream<Item = Result<Message, axum::Error>> + Unpin,
{
    METRICS.connections(1);
    let seated = match (session.viewer, session.token) {
        (Viewer::Seat(seat), Some(token)) => Some((seat, token)),
        _ => None,
    };
    if let Some((seat, token)) = seated {
        table
            .tell(Command::Presence {
                seat,
                token,
                connected: true,
            })
            .await;
    }
    let mut conn = Conn {
        ws,
        table: table.clone(),
        session,
        sent: 0,
    };
    let stop = serve(&mut conn, &limits).await;
    if let Stop::Close(code, reason) = stop {
        let frame = CloseFrame {
            code,
            reason: Utf8Bytes::from_static(reason),
        };
        let _ = tokio::time::timeout(SEND_TIMEOUT, conn.ws.send(Message::Close(Some(frame)))).await;
    }
    if let Some((seat, token)) = seated {
        table
            .tell(Command::Presence {
                seat,
                token,
                connected: false,
            })
            .await;
    }
    METRICS.connections(-1);
}

async fn serve<S>(conn: &mut Conn<S>, limits: &Limits) -> Stop
where
    S: Sink<Message> + Stream<Item = Result<Message, axum::Error>> + Unpin,
{
    let start = std::mem::replace(&mut conn.session.start, Start::Missed(Vec::new()));
    if let Err(stop) = conn.start(start).await {
        return stop;
    }
    let mut bucket = Bucket::new(limits);
    let mut strikes = 0u32;
    let mut heard = Instant::now();
    let mut ping = interval(limits.ping_interval());
    ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
    ping.tick().await;
    loop {
        let step = tokio::select! {
            // Checked first: a freed seat stops the socket before anything else is sent.
            biased;
            () = tenure_ended(conn.session.tenure.as_mut()) => conn.cut().await,
            msg = conn.ws.next() => {
                let Some(Ok(msg)) = msg else { return Stop::Gone };
                heard = Instant::now();
                match msg {
                    Message::Text(text) => {
                        if text.len() > limits.max_frame_bytes {
                            let _ = conn.error(
                                ErrorCode::TooLarge,
                                format!("messages are at most {} bytes", limits.max_frame_bytes),
                            ).await;
                            return Stop::Close(close::TOO_BIG, "message too large");
                        }
                        if !bucket.take() {
                            strikes += 1;
                            if strikes > MAX_STRIKES {
                                return Stop::Close(close::POLICY, "too many messages");
                            }
                            conn.error(ErrorCode::RateLimited, "too many messages; this one was dropped").await
                        } else {
                            strikes = 0;
                            conn.incoming(text.as_str(), limits).await
                        }
                    }
                    Message::Binary(_) => conn.error(ErrorCode::Malformed, "messages are JSON text").await,
                    Message::Close(_) => return Stop::Gone,
                    Message::Ping(_) | Message::Pong(_) => Ok(()),
                }
            }
            item = conn.session.rx.recv() => match item {
                Ok(item) => conn.item(&item).await,
                Err(RecvError::Lagged(_)) if conn.freed_at().is_some() => Err(SEAT_FREED),
                Err(RecvError::Lagged(_)) => {
                    match conn.error(ErrorCode::Lagged, "you fell behind; a snapshot follows").await {
                        Ok(()) => conn.resync().await,
                        Err(stop) => Err(stop),
                    }
                }
                Err(RecvError::Closed) => {
                    let _ = conn.error(ErrorCode::TableClosed, "the table stopped; reconnect").await;
                    return Stop::Close(close::TABLE_CLOSED, "the table stopped");
                }
            },
            _ = ping.tick() => {
                if heard.elapsed() > limits.idle_timeout() {
                    return Stop::Close(close::GOING_AWAY, "idle");
                }
                match conn.ws.send(Message::Ping(Default::default())).await {
                    Ok(()) => Ok(()),
                    Err(_) => Err(Stop::Gone),
                }
            }
        };
        if let Err(stop) = step {
            return stop;
        }
    }
}

/// Completes once the occupant this socket was opened for has lost the seat; never for a
/// spectator, and never if the table stops (the subscription closing handles that).
async fn tenure_ended(tenure: Option<&mut tokio::sync::watch::Receiver<Option<u64>>>) {
    let Some(tenure) = tenure else {
        return std::future::pending().await;
    };
    loop {
        if tenure.borrow_and_update().is_some() {
            return;
        }
        if tenure.changed().await.is_err() {
            return std::future::pending().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::pin::Pin;
    use std::sync::Arc;
    use std::task::{Context, Poll};

    use futures_util::stream::BoxStream;
    use pref_core::Seat;
    use tokio::sync::{Semaphore, mpsc};

    use super::*;
    use crate::command::HostRequest;
    use crate::ids::Secret;
    use crate::registry::Registry;
    use crate::store::Store;
    use crate::table::test_table;

    type BoxSink = Pin<Box<dyn Sink<Message, Error = axum::Error> + Send>>;

    /// A socket in memory whose writes wait for a gate, to hold the socket back.
    struct Fake {
        sink: BoxSink,
        stream: BoxStream<'static, Result<Message, axum::Error>>,
    }

    impl Sink<Message> for Fake {
        type Error = axum::Error;
        fn poll_ready(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            self.get_mut().sink.as_mut().poll_ready(cx)
        }
        fn start_send(self: Pin<&mut Self>, item: Message) -> Result<(), Self::Error> {
            self.get_mut().sink.as_mut().start_send(item)
        }
        fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            self.get_mut().sink.as_mut().poll_flush(cx)
        }
        fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            self.get_mut().sink.as_mut().poll_close(cx)
        }
    }

    impl Stream for Fake {
        type Item = Result<Message, axum::Error>;
        fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            self.get_mut().stream.as_mut().poll_next(cx)
        }
    }

    /// A socket in memory whose writes wait for the returned gate, and the messages it wrote.
    fn gated() -> (Fake, Arc<Semaphore>, mpsc::UnboundedReceiver<Message>) {
        let gate = Arc::new(Semaphore::new(0));
        let (out_tx, out_rx) = mpsc::unbounded_channel::<Message>();
        let g = gate.clone();
        let sink = futures_util::sink::unfold(out_tx, move |tx, msg: Message| {
            let g = g.clone();
            async move {
                g.acquire().await.map_err(axum::Error::new)?.forget();
                tx.send(msg).map_err(axum::Error::new)?;
                Ok::<_, axum::Error>(tx)
            }
        });
        let fake = Fake {
            sink: Box::pin(sink),
            stream: Box::pin(futures_util::stream::pending()),
        };
        (fake, gate, out_rx)
    }

    /// Each written message in short: `"snapshot 3"`, `"event 4 seat_freed"`, `"lagged"`,
    /// `"close 4000"`; `dealt` events name the cards they show.
    async fn written(out: &mut mpsc::UnboundedReceiver<Message>) -> Vec<String> {
        let mut kinds = Vec::new();
        while let Some(msg) = out.recv().await {
            let kind = match msg {
                Message::Text(t) => {
                    let v: serde_json::Value = serde_json::from_str(t.as_str()).unwrap();
                    match v["type"].as_str().unwrap() {
                        "error" => v["code"].as_str().unwrap().to_owned(),
                        "event" => format!(
                            "event {} {}",
                            v["version"],
                            v["event"]["kind"].as_str().unwrap_or("stub")
                        ),
                        other => format!("{other} {}", v["version"]),
                    }
                }
                Message::Close(frame) => format!("close {}", frame.map_or(0, |f| f.code)),
                Message::Binary(_) | Message::Ping(_) | Message::Pong(_) => continue,
            };
            kinds.push(kind);
        }
        kinds
    }

    /// Takes a seat at `handle` for `name`; its token.
    async fn claim(handle: &TableHandle, name: &str) -> Secret {
        let name = name.to_owned();
        let (_, token) = handle
            .ask(|reply| Command::Claim {
                name,
                seat: None,
                host: None,
                reply,
            })
            .await
            .unwrap()
            .unwrap();
        token
    }

    /// Seat 0's socket is held back while its seat is freed and taken by Gleb, who is
    /// dealt a hand. Whether the socket's queue overflows (`queue` 2) or not, it never writes
    /// anything after the `seat_freed` item, and the old token can no longer act, chat or
    /// resync as seat 0.
    async fn freed_while_held_back(queue: usize) -> Vec<String> {
        let dir = std::env::temp_dir().join(format!("pref-freed-{}", Secret::random().expose()));
        let store = Store::open(&dir).await.unwrap();
        let limits = Limits {
            queue,
            ..Limits::default()
        };
        let (id, no, host, table) = test_table(&store, &limits).await;
        let registry = Registry::new(store, limits.clone());
        registry.spawn(id, no, table);
        let handle = registry.get(&id).unwrap();
        let anna = claim(&handle, "Anna").await;
        let boris = claim(&handle, "Boris").await;
        let vera = claim(&handle, "Vera").await;
        let session = handle
            .ask(|reply| Command::Connect {
                token: Some(anna),
                resume: None,
                reply,
            })
            .await
            .unwrap()
            .unwrap();
        let (fake, gate, mut out) = gated();
        tokio::spawn(run(fake, handle.clone(), session, limits));

        handle
            .ask(|reply| Command::Leave { token: anna, reply })
            .await
            .unwrap()
            .unwrap();
        let gleb = claim(&handle, "Gleb").await;
        assert_ne!(gleb, anna);
        handle
            .ask(|reply| Command::Host {
                token: host,
                op: HostRequest::Start,
                reply,
            })
            .await
            .unwrap()
            .unwrap();

        let old = Caller::seat(Seat(0), anna);
        let resync = handle
            .ask(|reply| Command::Resync { caller: old, reply })
            .await
            .unwrap();
        assert!(resync.is_err(), "a freed seat's token resyncs");
        let chat = handle
            .ask(|reply| Command::Chat {
                caller: old,
                text: "I am Gleb".into(),
                reply,
            })
            .await
            .unwrap();
        assert_eq!(chat, Err(TableError::SeatLost));
        // Seat 1 (left of the dealer, seat 0) and seat 2 pass: seat 0 is to bid (R3).
        let pass = pref_core::Action::Bid(pref_core::Call::Pass);
        let act = |seat: u8, token: Secret| {
            let handle = handle.clone();
            async move {
                handle
                    .ask(|reply| Command::Act {
                        seat: Seat(seat),
                        token,
                        version: 100,
                        action: pass,
                        reply,
                    })
                    .await
                    .unwrap()
            }
        };
        for (seat, token) in [(1, boris), (2, vera)] {
            assert!(act(seat, token).await.is_ok());
        }
        assert_eq!(
            act(0, anna).await.err(),
            Some(TableError::SeatLost),
            "a freed seat's token acts"
        );
        assert!(act(0, gleb).await.is_ok());
        let next = handle
            .ask(|reply| Command::NextDeal {
                seat: Seat(0),
                token: anna,
                version: 100,
                reply,
            })
            .await
            .unwrap();
        assert_eq!(next.err(), Some(TableError::SeatLost));

        gate.add_permits(1000);
        written(&mut out).await
    }

    #[tokio::test]
    async fn a_freed_seat_s_socket_stops_at_seat_freed() {
        // Snapshot at version 3 (three seats taken), then seat_freed at 4; Gleb's seat_taken
        // (5), started (6) and his dealt hand (7) never reach the old socket.
        assert_eq!(
            freed_while_held_back(64).await,
            ["snapshot 3", "event 4 seat_freed", "close 4000"]
        );
    }

    #[tokio::test]
    async fn a_lagging_socket_whose_seat_was_freed_gets_no_snapshot() {
        // Its queue overflowed: the seat_freed item is lost with the others, and instead of
        // the `lagged` snapshot (which would show Gleb's hand) the socket is closed.
        assert_eq!(freed_while_held_back(2).await, ["snapshot 3", "close 4000"]);
    }

    #[tokio::test]
    async fn a_lagging_socket_gets_a_snapshot_not_a_gap() {
        let dir = std::env::temp_dir().join(format!("pref-lag-{}", Secret::random().expose()));
        let store = Store::open(&dir).await.unwrap();
        let limits = Limits {
            queue: 2,
            ..Limits::default()
        };
        let (id, no, _, table) = test_table(&store, &limits).await;
        let registry = Registry::new(store, limits.clone());
        registry.spawn(id, no, table);
        let handle = registry.get(&id).unwrap();
        let anna = claim(&handle, "Anna").await;
        let session = handle
            .ask(|reply| Command::Connect {
                token: None,
                resume: None,
                reply,
            })
            .await
            .unwrap()
            .unwrap();
        let (fake, gate, mut out_rx) = gated();
        tokio::spawn(run(fake, handle.clone(), session, limits));
        // The socket is stuck writing its snapshot while ten items go out on a queue of two.
        for i in 0..10 {
            let text = format!("line {i}");
            let caller = Caller::seat(Seat(0), anna);
            assert_eq!(
                handle
                    .ask(|reply| Command::Chat {
                        caller,
                        text,
                        reply
                    })
                    .await
                    .unwrap(),
                Ok(())
            );
        }
        gate.add_permits(100);
        let mut kinds = Vec::new();
        while let Some(Message::Text(t)) = out_rx.recv().await {
            let v: serde_json::Value = serde_json::from_str(t.as_str()).unwrap();
            let kind = match v["type"].as_str().unwrap() {
                "error" => v["code"].as_str().unwrap().to_owned(),
                other => format!("{other} {}", v["version"]),
            };
            kinds.push(kind);
            if v["type"] == "snapshot" && v["version"] == 11 {
                break;
            }
        }
        assert_eq!(kinds, ["snapshot 1", "lagged", "snapshot 11"]);
    }
}
