//! One lobby socket's task: it reads the client's requests and hands its write half, then
//! its own frames, to its writer (`fanout.rs`), which sends the lobby's snapshot on
//! connect, then its numbered items (a new snapshot if the socket fell behind). A socket
//! holds at most one seek, which lives as long as the socket: cancelled, replaced by a new
//! one, or dropped when the socket closes. The seat a seek is given comes back over the
//! socket ([`LobbyMessage::Paired`]).

use std::future::Future;
use std::num::NonZeroU32;
use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::StreamExt;
use governor::{Quota, RateLimiter};
use pref_protocol::{LobbyMessage, LobbyRequest};
use tokio::sync::{mpsc, oneshot};

use super::fanout::{Control, Outlet};
use super::store::{NewSeek, SeekRow};
use super::{Lobby, LobbySink, choice, now_ms};
use crate::api::client::{Client, ClientKey};
use crate::api::error::ApiError;
use crate::table::machine::check_name;

/// Who holds a lobby socket.
#[derive(Clone, Debug)]
pub(crate) struct Seeker {
    /// The client's key.
    pub client: Option<ClientKey>,
    /// The signed-in player (his account's number and user name): he seeks under his name.
    pub account: Option<(i64, String)>,
    /// The account is a bot account signed in by its API token: its seeks pair only with
    /// other bot accounts' (`choice::bots_line`), never for a rated game here.
    pub bot: bool,
}

/// The seek a socket holds.
#[derive(Clone, Copy, Debug)]
struct Held {
    no: i64,
}

fn error(e: &ApiError) -> LobbyMessage {
    LobbyMessage::Error {
        error: e.code().1.to_owned(),
        message: e.to_string(),
    }
}

/// Where a socket's frames go: its writer (`fanout.rs`).
struct Out<'a> {
    outlet: &'a Outlet<LobbySink>,
    id: u64,
}

impl Out<'_> {
    /// Hands the writer one message of the socket's own (an answer, its seek's news, an
    /// error).
    fn send(&self, m: &LobbyMessage) {
        match serde_json::to_string(m) {
            Ok(text) => self.frame(Message::Text(text.into())),
            Err(e) => tracing::error!(error = %e, "a lobby message does not serialise"),
        }
    }

    fn frame(&self, message: Message) {
        self.outlet.tell(Control::Own {
            id: self.id,
            message,
        });
    }

    /// Hands the writer the socket's write half: it sends the snapshot first, then the
    /// items after it; it drops `gone` when it gives the socket up.
    fn open(&self, sink: LobbySink, gone: oneshot::Sender<()>) {
        let id = self.id;
        self.outlet.tell(Control::Open { id, sink, gone });
    }

    fn resync(&self) {
        self.outlet.tell(Control::Resync { id: self.id });
    }

    /// The socket's task ends: the writer writes `frame`, if any, then drops the socket.
    fn close(&self, frame: Option<CloseFrame>) {
        self.outlet.tell(Control::Close { id: self.id, frame });
    }
}

/// Serves one lobby socket until it closes or `going` completes (the node stops);
/// `paired` is called with every seat handed over (table id, seat, token), before the
/// client is told, to tie it to the seeker's account. Called on the lobby sockets' threads
/// (`threads.rs`): the database work of a request, of `paired` and of the seek's drop runs
/// on the server's runtime.
pub(crate) async fn run<P, F>(
    ws: WebSocket,
    lobby: Arc<Lobby>,
    seeker: Seeker,
    paired: P,
    going: impl Future<Output = ()>,
) where
    P: Fn(String, u8, String) -> F,
    F: Future<Output = ()> + Send + 'static,
{
    let number = lobby.next_socket.fetch_add(1, Ordering::Relaxed);
    let (tx, mut personal) = mpsc::unbounded_channel();
    let (sink, mut stream) = ws.split();
    let (gone_tx, mut gone) = oneshot::channel::<()>();
    let out = Out {
        outlet: lobby.outlet(number),
        id: number,
    };
    out.open(sink, gone_tx);
    let mut held: Option<Held> = None;
    let limits = &lobby.config.limits;
    let quota =
        Quota::per_second(NonZeroU32::new(limits.messages_per_second).unwrap_or(NonZeroU32::MIN))
            .allow_burst(NonZeroU32::new(limits.message_burst).unwrap_or(NonZeroU32::MIN));
    let bucket = RateLimiter::direct(quota);
    let mut ping = tokio::time::interval(limits.ping_interval());
    ping.tick().await;
    tokio::pin!(going);
    let mut close = None;
    loop {
        tokio::select! {
            () = &mut going => {
                close = Some((1001, "the server is restarting"));
                break;
            }
            // The writer gave the socket up (broken, or taking nothing).
            _ = &mut gone => break,
            mine = personal.recv() => {
                let Some(mine) = mine else { break };
                if let LobbyMessage::Paired { table, seat, token } = &mine {
                    held = None;
                    let tie = paired(table.clone(), *seat, token.clone());
                    lobby.sockets.on_main(tie).await;
                }
                out.send(&mine);
            }
            heard = stream.next() => {
                let Some(Ok(message)) = heard else { break };
                let text = match message {
                    Message::Text(t) => t,
                    Message::Close(_) => break,
                    Message::Ping(_) | Message::Pong(_) => continue,
                    Message::Binary(_) => {
                        close = Some((1003, "the lobby speaks JSON text"));
                        break;
                    }
                };
                if bucket.check().is_err() {
                    close = Some((1008, "too many messages"));
                    break;
                }
                let answer = match pref_protocol::strict::read::<LobbyRequest>(text.as_bytes()) {
                    Ok(LobbyRequest::Resync) => {
                        out.resync();
                        Ok(None)
                    }
                    Ok(request) => {
                        let (l, who, tx) = (Arc::clone(&lobby), seeker.clone(), tx.clone());
                        let mut h = held.take();
                        let work = async move {
                            let answer = handle(&l, &who, (number, &tx), &mut h, request).await;
                            (answer, h)
                        };
                        match lobby.sockets.on_main(work).await {
                            Some((answer, h)) => {
                                held = h;
                                answer
                            }
                            None => Err(ApiError::Internal("the request was not answered".into())),
                        }
                    }
                    Err(e) => Err(ApiError::BadRequest(e.to_string())),
                };
                if let Some(m) = answer.unwrap_or_else(|e| Some(error(&e))) {
                    out.send(&m);
                }
            }
            _ = ping.tick() => out.frame(Message::Ping(Default::default())),
        }
    }
    lobby
        .seekers
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(&number);
    if let Some(h) = held {
        let l = Arc::clone(&lobby);
        let drop_seek = async move {
            if let Err(e) = l.rows.drop_seek(h.no).await {
                tracing::warn!(error = %e, "a closed socket's seek was not dropped; it goes stale");
            }
            l.changed_seeks().await;
        };
        lobby.sockets.on_main(drop_seek).await;
    }
    let frame = close.map(|(code, reason)| CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    });
    out.close(frame);
}

/// Answers one request of the socket numbered `number`.
async fn handle(
    lobby: &Arc<Lobby>,
    seeker: &Seeker,
    (number, tx): (u64, &mpsc::UnboundedSender<LobbyMessage>),
    held: &mut Option<Held>,
    request: LobbyRequest,
) -> Result<Option<LobbyMessage>, ApiError> {
    // A new seek replaces the socket's seek, so the old one is dropped first.
    if let Some(h) = held.take() {
        lobby.rows.drop_seek(h.no).await?;
        lobby.changed_seeks().await;
    }
    let LobbyRequest::Seek {
        name,
        profile,
        clock,
        bots_after_secs,
        rated,
        bots_only,
    } = request
    else {
        return Ok(None);
    };
    lobby.seeks.spend(Client(seeker.client))?;
    let mut choice = choice::resolve(&profile, &clock)?;
    if rated {
        let who = (seeker.account.is_some(), seeker.bot);
        choice::rated(&mut choice, who, bots_after_secs.is_some())?;
    }
    choice::bots_line(&mut choice, seeker.bot, bots_only)?;
    let bounds = &lobby.config.lobby;
    let bots_after_ms = bots_after_secs
        .map(|s| {
            if u64::from(s) > bounds.bots_after_max_secs.0 {
                return Err(ApiError::BadRequest(format!(
                    "bots fill a table after at most {} s",
                    bounds.bots_after_max_secs.0
                )));
            }
            Ok(i64::from(s) * 1000)
        })
        .transpose()?;
    let name = match &seeker.account {
        Some((_, user)) => user.clone(),
        None => check_name(&name)?,
    };
    let address = seeker.client.map(|c| c.to_string());
    let account = seeker.account.as_ref().map(|(no, _)| *no);
    // One rated table at a time: a seeker seated at one is refused now; the pairing's seat
    // write claims it again, so a seat taken meanwhile still gives one (`pairing.rs`).
    if let (true, Some(account)) = (rated, account) {
        crate::accounts::rated::may_seek(&lobby.store, account).await?;
    }
    let (by_address, by_account) = lobby.rows.seeks_by(address.as_deref(), account).await?;
    if address.is_some() && by_address >= i64::from(bounds.seeks_per_ip) {
        return Err(ApiError::RateLimited(
            "too many seeks waiting from this address".into(),
        ));
    }
    if account.is_some() && by_account >= i64::from(bounds.seeks_per_account) {
        return Err(ApiError::RateLimited(
            "too many seeks waiting from this account".into(),
        ));
    }
    lobby
        .seekers
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(number, tx.clone());
    let no = lobby
        .rows
        .seek(
            &NewSeek {
                node: &lobby.node,
                socket: number,
                choice: &choice.key,
                label: choice.label.as_deref(),
                row: SeekRow {
                    no: 0,
                    name,
                    players: choice.profile.players(),
                    profile: choice.profile.to_json().to_string(),
                    clock: choice.clock.clone(),
                    bots_after_ms,
                    created_ms: now_ms(),
                },
                address,
                account,
            },
            now_ms(),
        )
        .await?;
    *held = Some(Held { no });
    lobby.changed_seeks().await;
    Ok(Some(LobbyMessage::Waiting {
        preset: choice.label.unwrap_or_else(|| "custom".to_owned()),
        clock: choice.clock,
    }))
}
