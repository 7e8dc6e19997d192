//! Forwarding a request to the node that serves its table: plain HTTP through hyper's
//! HTTP/1.1 client, and WebSockets by opening a socket to the owner and copying messages
//! both ways (browsers do not follow redirects on a WebSocket, so a redirect would not do).
//!
//! The owner sees the forwarded request with the [`FORWARDED`] header, which carries the
//! cluster's shared secret, and never forwards it again; [`crate::api::client::CLIENT`] names the
//! client this node computed, so that the owner's budgets count the client, not this node. The socket pump gives up on a side
//! that does not take a message within the send timeout, or that says nothing (not even a
//! pong) for the idle timeout, so a stalled client or owner cannot hold the pump for ever. When the owner goes away the client's socket is closed with `4001` (`table
//! closed`), as if the table had stopped here, and the client reconnects.

use std::time::Duration;

use axum::body::Body;
use axum::extract::FromRequestParts;
use axum::extract::ws::{self, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::CloseFrame as TCloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{self as tung, Message as TMessage};

use crate::api::client::{CLIENT, ClientKey, FORWARDED};
use crate::api::conns::ConnGuard;
use crate::api::error::ApiError;
use crate::config::Limits;

/// How one request is forwarded.
#[derive(Debug)]
pub(crate) struct Forwarding<'a> {
    /// The cluster's shared secret, sent in [`FORWARDED`].
    pub secret: &'a str,
    /// How long the pump waits for either side to take one message.
    pub send_timeout: Duration,
    /// Frame sizes and the idle timeout.
    pub limits: &'a Limits,
    /// The client the request came from, as this node computed it.
    pub client: Option<ClientKey>,
}

impl Forwarding<'_> {
    /// Marks `headers` as forwarded by a node, for `client`; a client's own claim to be
    /// someone is never passed on.
    fn mark(&self, headers: &mut axum::http::HeaderMap) -> Result<(), ForwardError> {
        let secret = HeaderValue::from_str(self.secret).map_err(|_| {
            ForwardError::Connect("the cluster secret is not a header value".into())
        })?;
        headers.insert(FORWARDED, secret);
        headers.remove(CLIENT);
        if let Some(client) = self.client {
            let named = HeaderValue::from_str(&client.to_string())
                .map_err(|_| ForwardError::Connect("the client is not a header value".into()))?;
            headers.insert(CLIENT, named);
        }
        Ok(())
    }
}

/// Whether `req` asks for a WebSocket upgrade.
#[must_use]
pub(crate) fn is_upgrade(req: &axum::extract::Request) -> bool {
    req.headers()
        .get(header::UPGRADE)
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"websocket"))
}

/// How long connecting to the owner may take.
const CONNECT: Duration = Duration::from_secs(5);

/// Close code sent when the owner's socket ends without a close of its own.
const TABLE_CLOSED: u16 = 4001;

/// Sends `req` to the node at `addr` and returns its answer; `unavailable` if that node
/// cannot be reached (it may have just died: the client retries, and the lease moves). A
/// socket keeps `place` (its count in this node's caps) for as long as it is pumped.
pub(crate) async fn forward(
    req: axum::extract::Request,
    addr: &str,
    how: &Forwarding<'_>,
    place: Option<ConnGuard>,
) -> Response {
    let result = if is_upgrade(&req) {
        websocket(req, addr, how, place).await
    } else {
        http(req, addr, how).await
    };
    result.unwrap_or_else(|e| {
        tracing::warn!(owner = addr, error = %e, "forwarding failed");
        ApiError::Unavailable.into_response()
    })
}

/// Why forwarding failed.
#[derive(Debug, thiserror::Error)]
enum ForwardError {
    /// The owner cannot be reached.
    #[error("connect: {0}")]
    Connect(String),
    /// The HTTP exchange failed.
    #[error("http: {0}")]
    Http(#[from] hyper::Error),
    /// The WebSocket handshake failed.
    #[error("websocket: {0}")]
    Ws(#[from] Box<tung::Error>),
}

async fn connect(addr: &str) -> Result<TcpStream, ForwardError> {
    let tcp = tokio::time::timeout(CONNECT, TcpStream::connect(addr))
        .await
        .map_err(|_| ForwardError::Connect("timed out".into()))?
        .map_err(|e| ForwardError::Connect(e.to_string()))?;
    let _ = tcp.set_nodelay(true);
    Ok(tcp)
}

async fn http(
    req: axum::extract::Request,
    addr: &str,
    how: &Forwarding<'_>,
) -> Result<Response, ForwardError> {
    let tcp = connect(addr).await?;
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(tcp)).await?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    let (mut parts, body) = req.into_parts();
    let path = parts
        .uri
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_owned();
    parts.uri = path
        .parse()
        .map_err(|_| ForwardError::Connect("bad path".into()))?;
    parts.headers.insert(
        header::HOST,
        HeaderValue::from_str(addr).map_err(|_| ForwardError::Connect("bad address".into()))?,
    );
    how.mark(&mut parts.headers)?;
    let answer = sender
        .send_request(axum::http::Request::from_parts(parts, body))
        .await?;
    Ok(answer.map(Body::new))
}

async fn websocket(
    req: axum::extract::Request,
    addr: &str,
    how: &Forwarding<'_>,
    place: Option<ConnGuard>,
) -> Result<Response, ForwardError> {
    let (mut parts, _) = req.into_parts();
    let path = parts
        .uri
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_owned();
    let Ok(upgrade) = WebSocketUpgrade::from_request_parts(&mut parts, &()).await else {
        return Ok(ApiError::BadRequest("not a WebSocket upgrade".into()).into_response());
    };
    let mut request = format!("ws://{addr}{path}")
        .into_client_request()
        .map_err(Box::new)?;
    how.mark(request.headers_mut())?;
    // The seat token travels in the subprotocols; the owner checks it and selects `pref`.
    if let Some(offered) = parts.headers.get(header::SEC_WEBSOCKET_PROTOCOL) {
        request
            .headers_mut()
            .insert(header::SEC_WEBSOCKET_PROTOCOL, offered.clone());
    }
    let tcp = connect(addr).await?;
    let upstream = match tokio_tungstenite::client_async(request, tcp).await {
        Ok((upstream, _)) => upstream,
        // The owner refused before the upgrade (no table, a bad token): pass its answer on.
        Err(tung::Error::Http(answer)) => {
            let status =
                StatusCode::from_u16(answer.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
            let body = answer.into_body().unwrap_or_default();
            return Ok((
                status,
                [(header::CONTENT_TYPE, "application/json")],
                Body::from(body),
            )
                .into_response());
        }
        Err(e) => return Err(Box::new(e).into()),
    };
    let hard = how.limits.max_frame_bytes.saturating_mul(4).max(1024);
    let times = Times {
        send: how.send_timeout,
        idle: how.limits.idle_timeout(),
    };
    Ok(upgrade
        .protocols([pref_protocol::subprotocol::PROTOCOL])
        .max_message_size(hard)
        .max_frame_size(hard)
        .on_upgrade(move |client| async move {
            pump(client, upstream, times).await;
            drop(place);
        }))
}

/// The pump's timeouts.
#[derive(Clone, Copy, Debug)]
struct Times {
    /// For one message to be taken by the other side.
    send: Duration,
    /// For a side to say anything (both sides ping and answer pings well within it).
    idle: Duration,
}

/// The next message of `rx`, `None` at its end, on an error or after `idle` of silence.
async fn next_within<S, T, E>(rx: &mut S, idle: Duration) -> Option<T>
where
    S: futures_util::Stream<Item = Result<T, E>> + Unpin,
{
    match tokio::time::timeout(idle, rx.next()).await {
        Ok(Some(Ok(m))) => Some(m),
        Ok(Some(Err(_)) | None) | Err(_) => None,
    }
}

/// Sends `m` on `tx` within `send`; `false` if it failed or timed out.
async fn send_within<S, T>(tx: &mut S, m: T, send: Duration) -> bool
where
    S: futures_util::Sink<T> + Unpin,
{
    matches!(tokio::time::timeout(send, tx.send(m)).await, Ok(Ok(())))
}

/// Copies messages both ways until either side closes, stalls or falls silent.
async fn pump(
    client: WebSocket,
    upstream: tokio_tungstenite::WebSocketStream<TcpStream>,
    times: Times,
) {
    let (mut client_tx, mut client_rx) = client.split();
    let (mut up_tx, mut up_rx) = upstream.split();
    let down = async {
        while let Some(m) = next_within(&mut up_rx, times.idle).await {
            let close = matches!(m, TMessage::Close(_));
            if let Some(m) = to_client(m)
                && !send_within(&mut client_tx, m, times.send).await
            {
                return;
            }
            if close {
                return;
            }
        }
        // The owner went away without a word: tell the client as the owner would have.
        let frame = ws::CloseFrame {
            code: TABLE_CLOSED,
            reason: "the table stopped".into(),
        };
        let _ = send_within(&mut client_tx, ws::Message::Close(Some(frame)), times.send).await;
    };
    let up = async {
        while let Some(m) = next_within(&mut client_rx, times.idle).await {
            let close = matches!(m, ws::Message::Close(_));
            if !send_within(&mut up_tx, to_owner(m), times.send).await || close {
                break;
            }
        }
    };
    tokio::select! {
        () = down => {}
        () = up => {}
    }
}

fn to_client(m: TMessage) -> Option<ws::Message> {
    Some(match m {
        TMessage::Text(t) => ws::Message::Text(t.as_str().into()),
        TMessage::Binary(b) => ws::Message::Binary(b),
        TMessage::Ping(b) => ws::Message::Ping(b),
        TMessage::Pong(b) => ws::Message::Pong(b),
        TMessage::Close(f) => ws::Message::Close(f.map(|f| ws::CloseFrame {
            code: f.code.into(),
            reason: f.reason.as_str().into(),
        })),
        TMessage::Frame(_) => return None,
    })
}

fn to_owner(m: ws::Message) -> TMessage {
    match m {
        ws::Message::Text(t) => TMessage::Text(t.as_str().into()),
        ws::Message::Binary(b) => TMessage::Binary(b),
        ws::Message::Ping(b) => TMessage::Ping(b),
        ws::Message::Pong(b) => TMessage::Pong(b),
        ws::Message::Close(f) => TMessage::Close(f.map(|f| TCloseFrame {
            code: CloseCode::from(f.code),
            reason: f.reason.as_str().into(),
        })),
    }
}
