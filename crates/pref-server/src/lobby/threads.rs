//! The lobby sockets' own threads (`lobby.lobby_socket_threads`, at a lower priority:
//! `lobby.lobby_socket_nice`). Every lobby item wakes every lobby socket at once: two
//! thousand of them, each a write to the kernel. On the server's runtime those writes stood
//! in the run queues ahead of the tables' tasks, so a move waited behind a lobby change
//! (table p99 6 ms with a thousand public tables and no lobby socket, 109 ms with two
//! thousand sockets, `docs/performance.md`). On their own threads the kernel runs a table
//! first; the sockets' database work (a seek, its seat tied to an account, its drop) is
//! still done on the server's runtime, whose reactor holds the pool's connections.

use std::future::Future;

use tokio::runtime::{Handle, Runtime};

/// Where lobby sockets run, and the server's runtime beside them.
#[derive(Debug)]
pub(crate) struct SocketThreads {
    /// The sockets' runtime; `None` when they share the server's (`lobby_socket_threads = 0`).
    own: Option<Runtime>,
    /// The server's runtime.
    main: Handle,
}

impl SocketThreads {
    /// `threads` worker threads for the lobby sockets (none: the server's own), each made
    /// `nice` steps less urgent than the thread that starts them. Called on the server's
    /// runtime.
    ///
    /// # Errors
    /// The operating system's, if the threads cannot be started.
    pub(crate) fn new(threads: usize, nice: u32) -> std::io::Result<SocketThreads> {
        let main = Handle::current();
        if threads == 0 {
            return Ok(SocketThreads { own: None, main });
        }
        let own = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .max_blocking_threads(1)
            .thread_name("pref-lobby")
            .enable_all()
            .on_thread_start(move || lower(nice))
            .build()?;
        Ok(SocketThreads {
            own: Some(own),
            main,
        })
    }

    /// Runs lobby socket `socket` on the sockets' threads.
    pub(crate) fn spawn(&self, socket: impl Future<Output = ()> + Send + 'static) {
        match &self.own {
            Some(own) => drop(own.spawn(socket)),
            None => drop(self.main.spawn(socket)),
        }
    }

    /// Runs `work` on the server's runtime and waits for it; `None` if it panicked or the
    /// runtime is stopping.
    pub(crate) async fn on_main<T: Send + 'static>(
        &self,
        work: impl Future<Output = T> + Send + 'static,
    ) -> Option<T> {
        if self.own.is_none() {
            return Some(work.await);
        }
        self.main.spawn(work).await.ok()
    }
}

impl Drop for SocketThreads {
    /// Stops the sockets' threads without waiting for them: a runtime dropped within
    /// another's task would panic, and the sockets' tasks are ended with their node.
    fn drop(&mut self) {
        if let Some(own) = self.own.take() {
            own.shutdown_background();
        }
    }
}

/// Makes the calling thread `by` steps of `nice` less urgent (capped at 19, the least).
fn lower(by: u32) {
    if by == 0 {
        return;
    }
    let me = rustix::thread::gettid();
    let Ok(now) = rustix::process::getpriority_process(Some(me)) else {
        return;
    };
    let to = now.saturating_add(i32::try_from(by).unwrap_or(19)).min(19);
    if let Err(e) = rustix::process::setpriority_process(Some(me), to) {
        tracing::warn!(error = %e, "a lobby socket thread keeps the server's priority");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sockets' threads run at the priority asked (relative to the server's), and work
    /// sent back to the server's runtime runs there.
    #[tokio::test(flavor = "multi_thread", worker_threads = 1)]
    async fn the_socket_threads_run_less_urgent_and_hand_work_back() {
        let threads = SocketThreads::new(1, 5).expect("threads");
        let server =
            rustix::process::getpriority_process(Some(rustix::thread::gettid())).expect("priority");
        let (tx, rx) = tokio::sync::oneshot::channel();
        let threads = std::sync::Arc::new(threads);
        let t = std::sync::Arc::clone(&threads);
        threads.spawn(async move {
            let here = std::thread::current().name().map(str::to_owned);
            let nice = rustix::process::getpriority_process(Some(rustix::thread::gettid()));
            let back = t
                .on_main(async { std::thread::current().name().map(str::to_owned) })
                .await;
            let _ = tx.send((here, nice, back));
        });
        let (here, nice, back) = rx.await.expect("the socket task ran");
        assert_eq!(here.as_deref(), Some("pref-lobby"));
        assert_eq!(nice.expect("priority"), (server + 5).min(19));
        // The server's runtime's worker, not a lobby thread.
        assert_eq!(back.flatten().as_deref(), Some("tokio-rt-worker"));
        let shared = SocketThreads::new(0, 5).expect("no threads");
        assert!(shared.own.is_none());
        assert_eq!(shared.on_main(async { 7 }).await, Some(7));
    }
}
