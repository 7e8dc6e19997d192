//! Stopping a node gracefully (SIGTERM or SIGINT): it stops accepting connections, lets the
//! actions already on their way commit, closes every WebSocket with code 1001 ("going away")
//! so that clients reconnect, and lets go of its leases so that another node takes its
//! tables at once instead of after the lease runs out.
//!
//! tokio-util carries the signal: one `CancellationToken` is the flag every socket (and the
//! listener) watches, and a `TaskTracker` counts them, so that the node learns that every
//! socket has gone once the last one's [`Going`] is dropped.

use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tokio_util::task::task_tracker::TaskTrackerToken;

/// The shutdown flag, shared by the server and its sockets; cheap to clone.
#[derive(Clone, Debug, Default)]
pub(crate) struct Shutdown {
    /// Cancelled when the node begins to stop.
    flag: CancellationToken,
    /// One token per socket (or listener) still open.
    open: TaskTracker,
}

/// One socket's (or the listener's) view of the flag; while it lives,
/// [`Shutdown::sockets_closed`] waits for it.
#[derive(Debug)]
pub(crate) struct Going {
    flag: CancellationToken,
    _open: TaskTrackerToken,
}

impl Shutdown {
    /// A flag not yet raised.
    #[must_use]
    pub(crate) fn new() -> Shutdown {
        Shutdown::default()
    }

    /// A view for one socket (or the listener): [`going_away`] completes on it once the
    /// flag is raised.
    #[must_use]
    pub(crate) fn watch(&self) -> Going {
        Going {
            flag: self.flag.clone(),
            _open: self.open.token(),
        }
    }

    /// Raises the flag.
    pub(crate) fn begin(&self) {
        self.flag.cancel();
    }

    /// Completes once every view handed out by [`Shutdown::watch`] is gone.
    pub(crate) async fn sockets_closed(&self) {
        self.open.close();
        self.open.wait().await;
    }
}

/// Completes once the flag behind `going` is raised (at once if it already is); never if
/// the flag's owner is gone without raising it.
pub(crate) async fn going_away(going: &mut Going) {
    going.flag.cancelled().await;
}
