//! The lifecycle on virtual time (`tokio::time::pause`): idle lobbies expire and stay gone
//! after a restart, watched and used tables stay, finished games leave memory and come back
//! read-only on demand without a slot, unwatched bots' games pause and then expire.
//!
//! Time moves only by `advance` while nothing waits on the database; it runs for real while
//! a table's expiry is written (SQLite answers from its own thread, and a paused clock would
//! jump to the next timer meanwhile).

use std::time::Duration;

use super::*;
use crate::api::error::ApiError;
use crate::config::Limits;
use crate::ids::Secret;
use crate::store::Store;
use crate::table::actor::test_table;
use crate::table::command::{Command, HostRequest, Session};
use crate::table::machine::TableError;
use crate::table::registry::{Registry, TableHandle};
use pref_protocol::Summary;

const SETTINGS: Lifecycle = Lifecycle {
    lobby_idle_secs: crate::config::Secs(60),
    finished_linger_secs: crate::config::Secs(30),
};

async fn setup(name: &str) -> (std::path::PathBuf, Store, Arc<Registry>) {
    let dir = std::env::temp_dir().join(format!("pref-{name}-{}", Secret::random().expose()));
    let store = Store::open(&dir).await.unwrap();
    let registry = Registry::with(store.clone(), Limits::default(), SETTINGS);
    (dir, store, registry)
}

/// A lobby table in `registry`: its id and host token.
async fn lobby(store: &Store, registry: &Arc<Registry>) -> (Secret, Secret) {
    let (id, no, host, table) = test_table(store, &Limits::default()).await;
    registry.spawn(id, no, table);
    (id, host)
}

/// Moves the paused clock by `secs`, then lets real time run until `done` holds (at most
/// five real seconds), and pauses again.
async fn after(secs: u64, mut done: impl FnMut() -> bool) {
    tokio::time::advance(Duration::from_secs(secs)).await;
    tokio::time::resume();
    for _ in 0..500 {
        if done() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::pause();
}

/// Moves the paused clock by `secs` and lets real time run for 300 ms, long enough (on a
/// loaded machine too) for a table whose time is up to write its expiry and stop. Only for
/// checks that nothing happens (a table that must stay): there is nothing to poll for, so
/// the wait is real; a change that must happen is waited for by [`after`], polling.
async fn settle(secs: u64) {
    tokio::time::advance(Duration::from_secs(secs)).await;
    tokio::time::resume();
    tokio::time::sleep(Duration::from_millis(300)).await;
    tokio::time::pause();
}

async fn claim(handle: &TableHandle, host: Secret, name: &str) -> Result<(u8, Secret), TableError> {
    let invite = Some(host.invite_key());
    handle
        .ask(|reply| Command::Claim {
            name: name.into(),
            seat: None,
            host: None,
            invite,
            account: None,
            reply,
        })
        .await
        .unwrap()
}

async fn end(handle: &TableHandle, host: Secret) -> Result<Summary, TableError> {
    handle
        .ask(|reply| Command::Host {
            token: host,
            op: HostRequest::End,
            reply,
        })
        .await
        .unwrap()
}

async fn spectate(registry: &Registry, id: &Secret) -> Session {
    registry
        .get(id)
        .unwrap()
        .ask(|reply| Command::Connect {
            token: None,
            resume: None,
            reply,
        })
        .await
        .unwrap()
        .unwrap()
}

#[tokio::test]
async fn an_idle_lobby_expires_and_stays_gone_after_a_restart_while_watched_and_used_ones_stay() {
    let (dir, store, registry) = setup("expiry").await;
    let (idle, _) = lobby(&store, &registry).await;
    let (watched, _) = lobby(&store, &registry).await;
    let (used, used_host) = lobby(&store, &registry).await;
    let _watcher = spectate(&registry, &watched).await;
    assert_eq!(registry.live(), 3);
    tokio::time::pause();

    // 40 s in, somebody sits down at `used`: its 60 s start again.
    settle(40).await;
    tokio::time::resume();
    assert!(
        claim(&registry.get(&used).unwrap(), used_host, "Anna")
            .await
            .is_ok()
    );
    tokio::time::pause();

    // 61 s: only the idle one is gone, and its slot with it.
    after(21, || !registry.contains(&idle)).await;
    assert!(!registry.contains(&idle), "the idle lobby did not expire");
    assert!(registry.contains(&watched));
    assert!(registry.contains(&used));
    assert_eq!(registry.live(), 2);
    tokio::time::resume();
    let gone = registry.open(&idle).await;
    tokio::time::pause();
    assert!(matches!(gone, Err(ApiError::NoTable)), "{gone:?}");

    // 101 s: the used one's 60 s since the claim are up; the watched one stays, however long.
    after(40, || !registry.contains(&used)).await;
    assert!(!registry.contains(&used), "the used lobby did not expire");
    settle(600).await;
    assert!(registry.contains(&watched));
    assert_eq!(registry.live(), 1);

    // A restart restores the watched lobby only.
    tokio::time::resume();
    let again = Store::open(&dir).await.unwrap();
    let restored: Vec<Secret> = again
        .unfinished()
        .await
        .unwrap()
        .into_iter()
        .map(|row| row.id)
        .collect();
    assert_eq!(restored, vec![watched]);
}

#[tokio::test]
async fn a_finished_game_leaves_memory_and_comes_back_read_only_without_a_slot() {
    let (_dir, store, registry) = setup("linger").await;
    let (id, host) = lobby(&store, &registry).await;
    let handle = registry.get(&id).unwrap();
    assert!(end(&handle, host).await.is_ok());
    // Over: still in memory, no longer live.
    assert!(registry.contains(&id));
    assert_eq!(registry.live(), 0);
    tokio::time::pause();

    after(31, || !registry.contains(&id)).await;
    assert!(
        !registry.contains(&id),
        "the finished game stayed in memory"
    );

    // Its link loads it again, without a slot, and it refuses every change.
    tokio::time::resume();
    let back = registry.open(&id).await.unwrap();
    assert!(registry.contains(&id));
    assert_eq!(registry.live(), 0);
    assert!(matches!(
        claim(&back, host, "Boris").await,
        Err(TableError::Over)
    ));
    assert!(matches!(end(&back, host).await, Err(TableError::Over)));
    tokio::time::pause();

    // Reading it keeps it: 20 s, a read, 20 s more, and it is still here; 11 s later it is
    // gone again.
    settle(20).await;
    tokio::time::resume();
    assert!(back.ask(Command::Summary).await.is_ok());
    tokio::time::pause();
    settle(20).await;
    assert!(registry.contains(&id));
    after(11, || !registry.contains(&id)).await;
    assert!(!registry.contains(&id));
}

#[tokio::test]
async fn the_cap_counts_live_tables_and_a_panicked_table_keeps_one_slot() {
    let (_dir, store, registry) = setup("slots").await;
    let (a, _) = lobby(&store, &registry).await;
    let (b, host) = lobby(&store, &registry).await;
    assert_eq!(registry.live(), 2);
    assert!(end(&registry.get(&b).unwrap(), host).await.is_ok());
    assert_eq!((registry.len(), registry.live()), (2, 1));
    registry.get(&a).unwrap().tell(Command::Panic).await;
    // Until it is rebuilt, the panicked table's closed inbox reads as no table.
    for _ in 0..1000 {
        if let Ok(handle) = registry.get(&a)
            && handle.ask(Command::Summary).await.is_ok()
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(registry.live(), 1);
    registry.remove(&a);
    for _ in 0..1000 {
        if registry.live() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(registry.live(), 0);
}

#[tokio::test]
async fn a_bot_table_nobody_watches_pauses_goes_on_when_opened_and_expires_when_left() {
    let dir = std::env::temp_dir().join(format!("pref-pause-{}", Secret::random().expose()));
    let store = Store::open(&dir).await.unwrap();
    let limits = Limits {
        bot_delay_min_ms: crate::config::Millis(0),
        bot_delay_max_ms: crate::config::Millis(0),
        ..Limits::default()
    };
    let registry = Registry::with(store.clone(), limits.clone(), SETTINGS);
    let (id, no, host, table) = test_table(&store, &limits).await;
    registry.spawn(id, no, table);
    let handle = registry.get(&id).unwrap();
    let host_op = |op| {
        let handle = handle.clone();
        async move {
            handle
                .ask(|reply| Command::Host {
                    token: host,
                    op,
                    reply,
                })
                .await
                .unwrap()
                .unwrap()
        }
    };
    for seat in 0..3 {
        host_op(HostRequest::Bot {
            seat,
            level: pref_protocol::BotLevel::Easy,
        })
        .await;
    }
    let started = host_op(HostRequest::Start).await.version;
    // Nobody watches: bots that act without a pause would play a card every few ms. A real
    // wait, for something that must not happen (nothing to poll for).
    tokio::time::sleep(Duration::from_millis(500)).await;
    let idle = handle.ask(Command::Summary).await.unwrap();
    assert_eq!(idle.version, started, "the unwatched bot table went on");
    // A spectator opens it: the bots play on.
    let mut watcher = spectate(&registry, &id).await;
    let item = tokio::time::timeout(Duration::from_secs(10), watcher.rx.recv())
        .await
        .expect("the bots did not go on once watched")
        .unwrap();
    assert!(item.version > started);
    // The spectator leaves: the table stops again within a turn.
    drop(watcher);
    // Real waits: one for the bot acting now to finish its turn, one in which nothing must
    // happen.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let stopped = handle.ask(Command::Summary).await.unwrap().version;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(handle.ask(Command::Summary).await.unwrap().version, stopped);

    // Unwatched for the idle time, the bots' game expires and is not restored.
    tokio::time::pause();
    after(61, || !registry.contains(&id)).await;
    assert!(!registry.contains(&id), "the unwatched bots' game stayed");
    assert_eq!(registry.live(), 0);
    tokio::time::resume();
    assert!(store.unfinished().await.unwrap().is_empty());
}
