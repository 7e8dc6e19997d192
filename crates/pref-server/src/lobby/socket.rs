//! One lobby socket: the lobby's snapshot on connect, then its numbered items (a new
//! snapshot if the socket fell behind), and at most one seek, which lives as long as the
//! socket: cancelled, replaced by a new one, or dropped when the socket closes. The seat a
//! seek is given comes back over the socket ([`LobbyMessage::Paired`]).

use std::future::Future;
use std::num::NonZeroU32;
use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use governor::{Quota, RateLimiter};
use pref_protocol::{LobbyMessage, LobbyRequest};
use tokio::sync::{broadcast, mpsc};

use super::store::{NewSeek, SeekRow};
use super::{Lobby, choice, now_ms};
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

/// A message written at most this long before the socket is given up.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);

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

/// Writes one message of this socket's own (a snapshot, its seek's news, an error).
async fn send(ws: &mut WebSocket, m: &LobbyMessage) -> bool {
    let Ok(text) = serde_json::to_string(m) else {
        return false;
    };
    matches!(
        tokio::time::timeout(SEND_TIMEOUT, ws.send(Message::Text(text.into()))).await,
        Ok(Ok(()))
    )
}

/// What became of the items forwarded at once.
enum Forwarded {
    /// Written.
    Sent,
    /// The socket fell more than the channel holds behind: it is sent a new snapshot.
    Lagged,
    /// The socket is gone (or the news ended).
    Broken,
}

/// Writes `first` and every item already waiting after it (those a step published
/// together, or that came while the socket wrote) with one flush: one write to the socket
/// for them, not one each. `at` is the number of the last item sent.
async fn forward(
    ws: &mut WebSocket,
    news: &mut broadcast::Receiver<Arc<super::News>>,
    at: &mut u64,
    first: Arc<super::News>,
) -> Forwarded {
    use futures_util::SinkExt;
    let write = async {
        let mut next = Some(first);
        let mut fed = Vec::new();
        let mut outcome = Forwarded::Sent;
        while let Some(item) = next.take() {
            if item.n > *at {
                *at = item.n;
                ws.feed(Message::Text(item.text.clone())).await?;
                fed.push(item);
            }
            match news.try_recv() {
                Ok(item) => next = Some(item),
                Err(broadcast::error::TryRecvError::Empty) => {}
                Err(broadcast::error::TryRecvError::Lagged(_)) => outcome = Forwarded::Lagged,
                Err(broadcast::error::TryRecvError::Closed) => outcome = Forwarded::Broken,
            }
        }
        ws.flush().await?;
        for spent in fed.iter().filter_map(|item| item.written()) {
            crate::metrics::METRICS.lobby_fanout(spent);
        }
        Ok::<_, axum::Error>(outcome)
    };
    match tokio::time::timeout(SEND_TIMEOUT, write).await {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(_)) | Err(_) => Forwarded::Broken,
    }
}

/// Serves one lobby socket until it closes or `going` completes (the node stops);
/// `paired` is called with every seat handed over (table id, seat, token), before the
/// client is told, to tie it to the seeker's account. Called on the lobby sockets' threads
/// (`threads.rs`): the database work of a request, of `paired` and of the seek's drop runs
/// on the server's runtime.
pub(crate) async fn run<P, F>(
    mut ws: WebSocket,
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
    let (view, mut news) = lobby.subscribe();
    let mut at = view.n;
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
    if send(&mut ws, &LobbyMessage::Snapshot { lobby: view }).await {
        loop {
            tokio::select! {
                () = &mut going => {
                    close = Some((1001, "the server is restarting"));
                    break;
                }
                item = news.recv() => match item {
                    Ok(item) => match forward(&mut ws, &mut news, &mut at, item).await {
                        Forwarded::Sent => {}
                        Forwarded::Lagged => {
                            let (view, again) = lobby.subscribe();
                            (at, news) = (view.n, again);
                            if !send(&mut ws, &LobbyMessage::Snapshot { lobby: view }).await { break; }
                        }
                        Forwarded::Broken => break,
                    },
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let (view, again) = lobby.subscribe();
                        (at, news) = (view.n, again);
                        if !send(&mut ws, &LobbyMessage::Snapshot { lobby: view }).await { break; }
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                mine = personal.recv() => {
                    let Some(mine) = mine else { break };
                    if let LobbyMessage::Paired { table, seat, token } = &mine {
                        held = None;
                        let tie = paired(table.clone(), *seat, token.clone());
                        lobby.sockets.on_main(tie).await;
                    }
                    if !send(&mut ws, &mine).await { break; }
                }
                heard = ws.recv() => {
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
                            let (view, again) = lobby.subscribe();
                            (at, news) = (view.n, again);
                            Ok(Some(LobbyMessage::Snapshot { lobby: view }))
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
                    let out = answer.unwrap_or_else(|e| Some(error(&e)));
                    if let Some(out) = out
                        && !send(&mut ws, &out).await
                    {
                        break;
                    }
                }
                _ = ping.tick() => {
                    if ws.send(Message::Ping(Default::default())).await.is_err() { break; }
                }
            }
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
    if let Some((code, reason)) = close {
        let frame = CloseFrame {
            code,
            reason: Utf8Bytes::from_static(reason),
        };
        let _ = tokio::time::timeout(SEND_TIMEOUT, ws.send(Message::Close(Some(frame)))).await;
    }
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
