//! One WebSocket: sends a viewer the items of its table, projected for that viewer, and
//! forwards the viewer's messages to the table's task.
//!
//! The socket is generic over a `Sink`/`Stream` of [`Message`]s so the loop does not depend on
//! the network. Every item is projected here, for this socket's viewer, right before it is
//! serialized: full deal events never leave the process. The socket keeps the last version
//! it sent; anything at or below it is skipped, and a gap (the broadcast queue overflowed)
//! is answered with a fresh snapshot, never skipped silently.
//!
//! The per-socket message budget is in `limits.rs`; the tests, over an in-memory socket, in
//! `tests.rs`.

use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use pref_core::{Seat, Viewer};
use tokio::sync::broadcast::error::RecvError;

use tokio::time::{Instant, MissedTickBehavior, interval};

pub(crate) use self::limits::Shared;
use self::limits::{Bucket, MAX_STRIKES};

use crate::accounts::bot_api::BotSocket;
use crate::config::Limits;
use crate::edge::shutdown::{Going, going_away};
use crate::ids::Secret;
use crate::metrics::METRICS;
use crate::table::command::{Caller, Command, Session, Start};
use crate::table::machine::{TableError, disallowed_char};
use crate::table::registry::TableHandle;
use crate::table::wire::Stamped;
use pref_protocol::{ClientMessage, ErrorCode, Reason, ServerMessage};

mod fair;
mod hint;
mod limits;
#[cfg(test)]
mod tests;

/// A client slow enough that one message takes longer than this is dropped.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// Close codes (RFC 6455 and the application range).
mod close {
    pub(super) const GOING_AWAY: u16 = 1001;
    pub(super) const POLICY: u16 = 1008;
    pub(super) const TOO_BIG: u16 = 1009;
    pub(super) const SEAT_FREED: u16 = 4000;
    pub(super) const TABLE_CLOSED: u16 = 4001;
    pub(super) const TOO_BIG_TO_SEND: u16 = 4002;
    pub(super) const TOKEN_REVOKED: u16 = 4003;
}

/// The most a WebSocket frame's header adds to its payload (a server's frames are not
/// masked: 2 bytes, and 8 of length).
const FRAME_HEADER: usize = 14;

/// Why the loop stopped.
enum Stop {
    /// The client went away or the connection broke.
    Gone,
    /// We close with a code and reason.
    Close(u16, &'static str),
}

/// The stop of a socket whose seat has been freed.
const SEAT_FREED: Stop = Stop::Close(close::SEAT_FREED, "your seat was freed");

/// The stop of a bot's socket whose API token was revoked (`docs/bot-api.md`).
const REVOKED: Stop = Stop::Close(close::TOKEN_REVOKED, "the API token was revoked");

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
    /// The seat's (or the spectators') budget for chat, `resync` and binary frames.
    shared: Shared,
    /// The largest message the transport's write buffer takes
    /// (`limits.socket_write_buffer_bytes`, less a frame's header).
    max_out: usize,
    /// A bot's API token, for a socket opened with one: checked before each message.
    bot: Option<BotSocket>,
    /// Hints being worked out (`hint.rs`).
    hints: hint::Hints,
}

impl<S> Conn<S>
where
    S: Sink<Message> + Unpin,
{
    /// Sends one message. One larger than the write buffer would be refused by the
    /// transport and the connection dropped without a word: it closes the socket with 4002
    /// instead, which the client reads as "reconnect".
    async fn send(&mut self, out: &ServerMessage) -> Result<(), Stop> {
        let text = serde_json::to_string(out).map_err(|_| Stop::Gone)?;
        if text.len() > self.max_out {
            tracing::warn!(
                bytes = text.len(),
                max = self.max_out,
                "a message is larger than the socket's write buffer; closing with 4002"
            );
            return Err(Stop::Close(
                close::TOO_BIG_TO_SEND,
                "a message was too large to send",
            ));
        }
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
        let event = item.news.visible(
            viewer,
            self.session.from_deal,
            self.session.players,
            self.session.spectator_chat,
        );
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

    async fn incoming(&mut self, text: &[u8], limits: &Limits) -> Result<(), Stop> {
        // Objects only: `["resync"]` is not a message (`pref_protocol::read`).
        let msg: ClientMessage = match pref_protocol::read(text) {
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
            ClientMessage::Hint { id, .. } if !self.shared.take() => {
                self.send(&ServerMessage::Rejected {
                    id,
                    reason: Reason::Busy,
                    message: "too many requests from this seat; this hint was dropped".into(),
                    rule: None,
                })
                .await
            }
            ClientMessage::Hint { id, version } => self.hint(id, version).await,
            ClientMessage::Chat { .. } | ClientMessage::Resync {} | ClientMessage::Back {}
                if !self.shared.take() =>
            {
                self.error(
                    ErrorCode::RateLimited,
                    "too many chat lines or resyncs from this seat; this one was dropped",
                )
                .await
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
                if text.chars().any(disallowed_char) {
                    return self
                        .error(
                            ErrorCode::ChatText,
                            "a chat line has no control, bidi or zero-width characters",
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
            ClientMessage::Resync {} => self.resync().await,
            ClientMessage::Back {} => self.back().await,
            ClientMessage::ScorePage { .. } if !self.shared.take_page() => {
                self.error(
                    ErrorCode::RateLimited,
                    "too many score log pages from this seat; this one was dropped",
                )
                .await
            }
            ClientMessage::ScorePage { before } => self.score_page(before).await,
            m @ (ClientMessage::FairJoin {}
            | ClientMessage::FairCommit { .. }
            | ClientMessage::FairReveal { .. }) => self.fair(m).await,
        }
    }

    /// "I'm back" from a seat on autopilot: the table takes it off at once.
    async fn back(&mut self) -> Result<(), Stop> {
        let caller = self.caller();
        let answer = self
            .table
            .ask(|reply| Command::Back { caller, reply })
            .await
            .map_err(|_| Stop::Close(close::TABLE_CLOSED, "the table stopped"))?;
        match answer {
            Ok(()) => Ok(()),
            Err(TableError::SeatLost) => self.cut().await,
            Err(TableError::NoClock) => {
                self.error(
                    ErrorCode::NoClock,
                    "this table has no clock: no seat is away",
                )
                .await
            }
            Err(e) => self.error(ErrorCode::NotSeated, e.to_string()).await,
        }
    }

    /// Answers a `score_page` with the finished deals just before `before`, if the socket
    /// still holds its seat.
    async fn score_page(&mut self, before: u32) -> Result<(), Stop> {
        if self.freed_at().is_some() {
            return self.cut().await;
        }
        let caller = self.caller();
        let answer = self
            .table
            .ask(|reply| Command::ScorePage {
                caller,
                before,
                reply,
            })
            .await
            .map_err(|_| Stop::Close(close::TABLE_CLOSED, "the table stopped"))?;
        match answer {
            Ok(page) => self.send(&ServerMessage::ScorePage(page)).await,
            Err(_) => self.cut().await,
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

    /// Sends an ack or rejection; a stale or future version is followed by a snapshot. A command refused
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
                reason: Reason::StaleVersion | Reason::FutureVersion,
                ..
            }
        );
        self.send(&out).await?;
        if stale { self.resync().await } else { Ok(()) }
    }
}

/// Serves one socket until it closes. `seat` presence is reported to the table. Once
/// `going` is raised (the node shuts down) the socket finishes the message it is handling
/// and closes with 1001, so that the client reconnects.
#[cfg(test)]
pub(crate) async fn run<S>(
    ws: S,
    table: TableHandle,
    session: Session,
    budgets: (Limits, Shared),
    going: Going,
) where
    S: Sink<Message> + Stream<Item = Result<Message, axum::Error>> + Unpin,
{
    run_watched(ws, table, session, budgets, going, None).await;
}

/// [`run`], for a socket that a bot's API token opened (`bot`): the token is checked
/// before each message the socket reads, and a revocation closes it with 4003.
pub(crate) async fn run_watched<S>(
    ws: S,
    table: TableHandle,
    session: Session,
    (limits, shared): (Limits, Shared),
    mut going: Going,
    bot: Option<BotSocket>,
) where
    S: Sink<Message> + Stream<Item = Result<Message, axum::Error>> + Unpin,
{
    METRICS.connections(1);
    let seated = match (session.viewer, session.token) {
        (Viewer::Seat(seat), Some(token)) => Some((seat, token)),
        _ => None,
    };
    table.tell(presence(seated, true)).await;
    let mut conn = Conn {
        ws,
        table: table.clone(),
        session,
        sent: 0,
        max_out: limits
            .socket_write_buffer_bytes
            .saturating_sub(FRAME_HEADER),
        bot,
        hints: hint::Hints::new(shared.lane.clone()),
        shared,
    };
    let stop = serve(&mut conn, &limits, &mut going).await;
    drop(going);
    if let Stop::Close(code, reason) = stop {
        let frame = CloseFrame {
            code,
            reason: Utf8Bytes::from_static(reason),
        };
        let _ = tokio::time::timeout(SEND_TIMEOUT, conn.ws.send(Message::Close(Some(frame)))).await;
    }
    table.tell(presence(seated, false)).await;
    METRICS.connections(-1);
}

/// What a socket's opening or closing tells the table: a seat's presence, or the spectator
/// count.
fn presence(seated: Option<(Seat, Secret)>, connected: bool) -> Command {
    match seated {
        Some((seat, token)) => Command::Presence {
            seat,
            token,
            connected,
        },
        None => Command::Watching { connected },
    }
}

async fn serve<S>(conn: &mut Conn<S>, limits: &Limits, going: &mut Going) -> Stop
where
    S: Sink<Message> + Stream<Item = Result<Message, axum::Error>> + Unpin,
{
    let start = std::mem::replace(&mut conn.session.start, Start::Missed(Vec::new()));
    if let Err(stop) = conn.start(start).await {
        return stop;
    }
    let bucket = Bucket::new(limits);
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
            () = revoked(conn.bot.as_mut()) => return REVOKED,
            msg = conn.ws.next() => {
                let Some(Ok(msg)) = msg else { return Stop::Gone };
                heard = Instant::now();
                if let (Some(bot), Message::Text(_) | Message::Binary(_)) = (&conn.bot, &msg)
                    && !bot.live().await
                {
                    return REVOKED;
                }
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
                            conn.incoming(text.as_bytes(), limits).await
                        }
                    }
                    // A binary frame spends the same budgets as chat: each costs an answer to
                    // write, and many sockets on one seat share one budget.
                    Message::Binary(_) if !bucket.take() || !conn.shared.take() => {
                        strikes += 1;
                        if strikes > MAX_STRIKES {
                            return Stop::Close(close::POLICY, "too many messages");
                        }
                        conn.error(ErrorCode::RateLimited, "too many messages; this one was dropped").await
                    }
                    Message::Binary(_) => conn.error(ErrorCode::Malformed, "messages are JSON text").await,
                    Message::Close(_) => return Stop::Gone,
                    Message::Ping(_) | Message::Pong(_) => Ok(()),
                }
            }
            // After the client's own messages, so one already sent is answered first.
            () = going_away(going) => return Stop::Close(close::GOING_AWAY, "the server is shutting down"),
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
            Some(answer) = conn.hints.rx.recv() => conn.send(&answer).await,
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

/// Completes once the bot's API token is revoked on this node; never for another socket.
async fn revoked(bot: Option<&mut BotSocket>) {
    match bot {
        Some(bot) => bot.revoked().await,
        None => std::future::pending().await,
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
