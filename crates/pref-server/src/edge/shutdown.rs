//! Stopping a node gracefully (SIGTERM or SIGINT): it stops accepting connections, lets the
//! actions already on their way commit, closes every WebSocket with code 1001 ("going away")
//! so that clients reconnect, and lets go of its leases so that another node takes its
//! tables at once instead of after the lease runs out.
//!
//! One flag, a `watch` channel, carries the signal: every socket holds a receiver of it and
//! closes after the message it is handling, and the sender learns that every socket has
//! gone when the last receiver is dropped.

use std::sync::Arc;

use tokio::sync::watch;

/// The shutdown flag, shared by the server and its sockets; cheap to clone.
#[derive(Clone, Debug)]
pub(crate) struct Shutdown {
    flag: Arc<watch::Sender<bool>>,
}

impl Default for Shutdown {
    fn default() -> Shutdown {
        Shutdown::new()
    }
}

impl Shutdown {
    /// A flag not yet raised.
    #[must_use]
    pub(crate) fn new() -> Shutdown {
        Shutdown {
            flag: Arc::new(watch::Sender::new(false)),
        }
    }

    /// A receiver for one socket (or the listener): [`going_away`] completes on it once the
    /// flag is raised. While it lives, [`Shutdown::sockets_closed`] waits for it.
    #[must_use]
    pub(crate) fn watch(&self) -> watch::Receiver<bool> {
        self.flag.subscribe()
    }

    /// Raises the flag.
    pub(crate) fn begin(&self) {
        self.flag.send_replace(true);
    }

    /// Completes once every receiver handed out by [`Shutdown::watch`] is gone.
    pub(crate) async fn sockets_closed(&self) {
        self.flag.closed().await;
    }
}

/// Completes once the flag behind `rx` is raised (at once if it already is); never if the
/// flag's owner is gone without raising it.
pub(crate) async fn going_away(rx: &mut watch::Receiver<bool>) {
    if rx.wait_for(|raised| *raised).await.is_err() {
        std::future::pending::<()>().await;
    }
}
