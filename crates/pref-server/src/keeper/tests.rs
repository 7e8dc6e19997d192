//! Sheets leave memory and the database: an idle sheet leaves memory and is read back
//! exactly as it was, a watched one stays, the least recently used one leaves over
//! `keeper_max_open`, and a sheet unused for `keeper_expire_days` is deleted, giving its
//! place under `max_keepers` back. The sweeps take the time as an argument (the runtime's
//! clock for memory, seconds since 1970 for the database), so no test waits.

use std::time::Duration;

use serde_json::json;

use super::sweep::Swept;
use super::*;

fn limits() -> Limits {
    Limits {
        keeper_idle_secs: crate::config::Secs(60),
        keeper_max_open: 100,
        keeper_expire_days: crate::config::Days(30),
        max_keepers: 2,
        ..Limits::default()
    }
}

async fn keepers(name: &str, limits: Limits) -> Keepers {
    let dir = std::env::temp_dir().join(format!("pref-{name}-{}", Secret::random().expose()));
    Keepers::new(Store::open(&dir).await.unwrap(), limits)
}

fn header() -> Header {
    Header {
        profile: json!("sochi"),
        names: vec!["Anna".into(), "Boris".into(), "Vera".into()],
        first_dealer: 0,
    }
}

/// A sheet imported with two raspasy deals, then a third entered (R7, R8.9).
async fn sheet(k: &Keepers) -> Opened {
    let deals = Deals {
        outcomes: vec![
            json!({"kind": "raspasy", "tricks": [4, 3, 3]}),
            json!({"kind": "raspasy", "tricks": [2, 4, 4]}),
        ],
        agreed: false,
    };
    let opened = k.create(header(), Some(deals)).await.unwrap();
    let add = KeeperOp::Add {
        outcome: json!({"kind": "raspasy", "tricks": [5, 5, 0]}),
    };
    let view = k.change(&opened.id, &opened.keeper, add).await.unwrap();
    Opened { view, ..opened }
}

#[tokio::test]
async fn an_idle_sheet_leaves_memory_and_comes_back_intact() {
    let k = keepers("keeper-idle", limits()).await;
    let s = sheet(&k).await;
    let t0 = Instant::now();
    assert_eq!(k.sweep(t0 + Duration::from_secs(59)).await.left, 0);
    assert_eq!(k.in_memory(), 1);
    let swept = k.sweep(t0 + Duration::from_secs(61)).await;
    assert_eq!(swept, Swept { left: 1, open: 0 });
    assert_eq!(k.in_memory(), 0);
    // Read again from the database: the same view, three deals, the same history.
    let (view, _) = k.watch(&s.id).await.unwrap();
    assert_eq!(*view, *s.view);
    assert_eq!(view.sheet.mountain, vec![11, 12, 7]);
    assert_eq!(k.in_memory(), 1);
    // The keeper goes on where he stopped: version 3 follows version 2.
    let add = KeeperOp::Add {
        outcome: json!({"kind": "raspasy", "tricks": [3, 3, 4]}),
    };
    let after = k.change(&s.id, &s.keeper, add).await.unwrap();
    assert_eq!(after.version, 3);
}

#[tokio::test]
async fn a_watched_sheet_stays_in_memory_and_an_unwatched_one_leaves() {
    let k = keepers("keeper-watched", limits()).await;
    let (watched, left) = (sheet(&k).await, sheet(&k).await);
    let (_, rx) = k.watch(&watched.id).await.unwrap();
    let later = Instant::now() + Duration::from_secs(120);
    assert_eq!(k.sweep(later).await, Swept { left: 1, open: 1 });
    assert!(k.is_open(&watched.id) && !k.is_open(&left.id));
    // The stream ends: its sheet leaves at the next sweep.
    drop(rx);
    assert_eq!(k.sweep(later).await, Swept { left: 1, open: 0 });
}

#[tokio::test]
async fn the_least_recently_used_unwatched_sheet_leaves_over_the_memory_cap() {
    let k = keepers(
        "keeper-lru",
        Limits {
            keeper_max_open: 2,
            max_keepers: 10,
            ..limits()
        },
    )
    .await;
    let (a, b) = (sheet(&k).await, sheet(&k).await);
    // a is used after b: b is the least recently used when c comes.
    k.watch(&a.id).await.unwrap();
    let c = sheet(&k).await;
    assert_eq!(k.in_memory(), 2);
    assert!(k.is_open(&a.id) && !k.is_open(&b.id) && k.is_open(&c.id));
    // b comes back from the database as it was (and another leaves for it).
    let (view, _) = k.watch(&b.id).await.unwrap();
    assert_eq!(*view, *b.view);
    assert_eq!(k.in_memory(), 2);
}

#[tokio::test]
async fn an_expired_sheet_is_gone_and_gives_its_place_under_the_cap_back() {
    let l = limits();
    let k = keepers("keeper-expiry", l.clone()).await;
    let (a, b) = (sheet(&k).await, sheet(&k).await);
    let third = k.create(header(), None).await;
    assert!(matches!(third, Err(ApiError::Full)), "{third:?}");
    // Sheets in memory are in use: none expires.
    let month = l.keeper_expire_secs();
    assert_eq!(k.expire(now() + month + 10).await.unwrap(), 0);
    k.sweep(Instant::now() + Duration::from_secs(61)).await;
    assert_eq!(k.in_memory(), 0);
    // Not yet unused for 30 days: kept.
    assert_eq!(k.expire(now() + month - 10).await.unwrap(), 0);
    assert_eq!(*k.watch(&a.id).await.unwrap().0, *a.view);
    k.sweep(Instant::now() + Duration::from_secs(61)).await;
    // Unused for 30 days: both deleted, with their changes.
    assert_eq!(k.expire(now() + month + 10).await.unwrap(), 2);
    for id in [a.id, b.id] {
        assert!(matches!(k.watch(&id).await, Err(ApiError::NoTable)));
    }
    let rows = with_pool!(k.store.pool(), pool => {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM keeper_changes")
            .fetch_one(pool)
            .await
            .unwrap()
    });
    assert_eq!(rows, 0);
    // The cap has room again, for this node and for one started on the same database.
    k.create(header(), None).await.unwrap();
    let again = Keepers::new(k.store.clone(), l);
    again.create(header(), None).await.unwrap();
    assert!(matches!(
        again.create(header(), None).await,
        Err(ApiError::Full)
    ));
}
