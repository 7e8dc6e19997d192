//! The spectator count, told at most once a second per table. Each spectator's socket that
//! opens or closes changes the machine's count at once, but an item for every one of them
//! let one address flapping sockets flood every viewer's queue (and push slow ones into
//! `lagged` and a snapshot). So the table tells the count when it changed, at once after a
//! quiet second, else when the second since the last telling is over, with the latest count.
//! The machine stays pure: the time lives here, in the actor, and comes to the machine as an
//! op ([`Op::TellSpectators`]) when it is due.

use tokio::time::Instant;

use super::Table;
use crate::table::machine::Op;

/// When the spectator count was last told, and when it is to be told next.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Told {
    /// The last telling.
    last: Option<Instant>,
    /// The next one, while the count has changed since.
    due: Option<Instant>,
}

impl Table {
    /// A spectator's socket opened (`true`) or closed: counts it, and arms the telling.
    pub(super) async fn watching(&mut self, connected: bool) {
        let _ = self.apply(Op::Watching { connected }).await;
        if self.machine.spectators_untold() && self.told.due.is_none() {
            let now = Instant::now();
            let every = self.limits.spectators_every_ms.duration();
            self.told.due = Some(self.told.last.map_or(now, |last| (last + every).max(now)));
        }
    }

    /// When the spectator count is to be told next, if it is.
    pub(super) fn spectators_at(&self) -> Option<Instant> {
        self.told.due
    }

    /// Tells every viewer the latest spectator count (nothing if it is back to the one last
    /// told).
    pub(super) async fn tell_spectators(&mut self) {
        self.told = Told {
            last: Some(Instant::now()),
            due: None,
        };
        let _ = self.apply(Op::TellSpectators).await;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use pref_protocol::Public;
    use tokio::sync::broadcast;

    use crate::config::Limits;
    use crate::ids::Secret;
    use crate::store::Store;
    use crate::table::command::Command;
    use crate::table::registry::Registry;
    use crate::table::wire::{News, Stamped};

    /// The spectator counts told on `rx` so far; a queue overflowed by them fails.
    fn counts(rx: &mut broadcast::Receiver<Arc<Stamped>>) -> Vec<u32> {
        let mut out = Vec::new();
        loop {
            match rx.try_recv() {
                Ok(item) => {
                    if let News::Public(Public::Spectators { count }) = item.news {
                        out.push(count);
                    }
                }
                Err(broadcast::error::TryRecvError::Lagged(n)) => {
                    panic!("the counts overflowed a viewer's queue by {n} items")
                }
                Err(_) => return out,
            }
        }
    }

    /// Keeps tokio's paused clock from moving by itself while held (a running blocking task
    /// turns its auto-advance off), so that the test alone moves it.
    fn hold_time() -> std::sync::mpsc::Sender<()> {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        tokio::task::spawn_blocking(move || {
            let _ = rx.recv();
        });
        tx
    }

    /// Waits a little real time (virtual time stands still) for the table to act.
    async fn settle() {
        tokio::task::spawn_blocking(|| std::thread::sleep(std::time::Duration::from_millis(100)))
            .await
            .unwrap();
    }

    #[tokio::test(start_paused = true)]
    async fn a_thousand_opens_and_closes_in_a_second_tell_the_count_at_most_twice() {
        let _hold = hold_time();
        let dir = std::env::temp_dir().join(format!("pref-told-{}", Secret::random().expose()));
        let store = Store::open(&dir).await.unwrap();
        let limits = Limits::default();
        let (id, no, _host, table) = super::super::test_table(&store, &limits).await;
        let registry = Registry::new(store.clone(), limits.clone());
        registry.spawn(id, no, table);
        let handle = registry.get(&id).unwrap();
        let mut rx = handle
            .ask(|reply| Command::Connect {
                token: None,
                resume: None,
                reply,
            })
            .await
            .unwrap()
            .unwrap()
            .rx;
        // 1,001 sockets opened and closed in turn within the second: one stays open.
        for i in 0..1001 {
            handle
                .tell(Command::Watching {
                    connected: i % 2 == 0,
                })
                .await;
        }
        let summary = |h: &crate::table::registry::TableHandle| {
            let h = h.clone();
            async move { h.ask(Command::Summary).await.unwrap() }
        };
        // Told at most once so far; the summary says what was told (a snapshot agrees with
        // the items before it), not the count not yet told.
        settle().await;
        let first = counts(&mut rx);
        assert!(
            first.len() <= 1,
            "told {} times within the second",
            first.len()
        );
        assert_eq!(
            summary(&handle).await.spectators,
            first.last().copied().unwrap_or(0)
        );

        // The second is over: the latest count is told, once, and then nothing more.
        tokio::time::advance(std::time::Duration::from_millis(1000)).await;
        settle().await;
        let later = counts(&mut rx);
        let told: Vec<u32> = first.iter().chain(&later).copied().collect();
        assert!(
            (1..=2).contains(&told.len()),
            "a thousand changes told as {told:?}"
        );
        assert_eq!(told.last(), Some(&1), "the final count: {told:?}");
        assert_eq!(summary(&handle).await.spectators, 1);
        tokio::time::advance(std::time::Duration::from_millis(5000)).await;
        settle().await;
        assert_eq!(counts(&mut rx), Vec::<u32>::new());

        // A socket closing after a quiet second is told at once.
        handle.tell(Command::Watching { connected: false }).await;
        settle().await;
        assert_eq!(counts(&mut rx), [0]);
    }
}
