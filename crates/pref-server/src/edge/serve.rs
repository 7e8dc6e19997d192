//! The accept loop: each connection is served by hyper's HTTP/1.1 server with the node's own
//! header-read timeout, so a client that opens a connection and sends a request line or
//! headers slowly (or nothing at all) is cut off instead of holding a descriptor for good.
//! `axum::serve` has no such setting.
//!
//! It keeps what `axum::serve` did: the client's address as [`ConnectInfo`] (the per-address
//! caps and budgets read it), WebSocket upgrades, and a graceful shutdown that stops
//! accepting, lets every connection finish the request it is serving and then waits for
//! them all. hyper's HTTP/1.1 builder is used directly rather than hyper-util's `auto`
//! builder: the latter first reads the connection's opening bytes to tell HTTP/1 from
//! HTTP/2 with no time limit, so a connection that sends nothing would never meet the
//! header timeout. The node speaks HTTP/1.1 only, as it did under `axum::serve` (axum is
//! built without HTTP/2).

use std::net::SocketAddr;
use std::pin::pin;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::extract::Request;
use axum::serve::Listener;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::sync::watch;
use tower::ServiceExt;

/// The settings of the connections this node serves.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Serving {
    /// A connection that has not sent a whole request head (request line and headers)
    /// this long after it opened, or after its previous answer, is closed.
    pub header_read_timeout: Duration,
}

/// Serves `app` on `listener` until `stop` completes, then stops accepting and waits for
/// every connection to finish the request it is serving (an upgraded WebSocket is no
/// longer a connection here: it watches the node's shutdown itself).
pub(crate) async fn serve<L>(
    mut listener: L,
    app: Router,
    serving: Serving,
    stop: impl Future<Output = ()> + Send + 'static,
) where
    L: Listener<Addr = SocketAddr>,
{
    // Dropping the receiver tells every connection to shut down gracefully.
    let (signal_tx, signal_rx) = watch::channel(());
    tokio::spawn(async move {
        stop.await;
        drop(signal_rx);
    });
    // Every connection holds a receiver; the loop waits until none is left.
    let (close_tx, close_rx) = watch::channel(());
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(serving.header_read_timeout);
    loop {
        let (io, remote) = tokio::select! {
            conn = listener.accept() => conn,
            () = signal_tx.closed() => break,
        };
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
            // What `into_make_service_with_connect_info` would add.
            req.extensions_mut().insert(ConnectInfo(remote));
            app.clone().oneshot(req.map(Body::new))
        });
        let builder = builder.clone();
        let signal_tx = signal_tx.clone();
        let close_rx = close_rx.clone();
        tokio::spawn(async move {
            let mut conn = pin!(
                builder
                    .serve_connection(TokioIo::new(io), service)
                    .with_upgrades()
            );
            let mut signal = pin!(signal_tx.closed());
            let mut signalled = false;
            loop {
                tokio::select! {
                    done = conn.as_mut() => {
                        if let Err(e) = done {
                            // A header timeout, a reset or a malformed request: the
                            // client's doing, not the node's.
                            tracing::debug!(error = %e, %remote, "connection ended");
                        }
                        break;
                    }
                    () = &mut signal, if !signalled => {
                        signalled = true;
                        conn.as_mut().graceful_shutdown();
                    }
                }
            }
            drop(close_rx);
        });
    }
    drop(close_rx);
    drop(listener);
    close_tx.closed().await;
}
