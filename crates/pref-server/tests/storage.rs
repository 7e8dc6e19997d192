//! The storage suite, run against every backend: SQLite always, PostgreSQL when
//! `PREF_TEST_POSTGRES_URL` names a server (skipped with a message otherwise, and failed
//! under `CI=true`). Each case opens the store, writes through its API, and reads back
//! through a second store on the same database, as a restarted server would.

mod common;

use std::time::Duration;

use common::*;
use futures_util::future::join_all;
use pref_core::{Action, Card, Seat};
use pref_server::ids::{Secret, TokenHash};
use pref_server::store::lease;
use pref_server::store::{Database, Store, StoreError, Stored};
use serde_json::json;

/// Every backend this run can reach.
async fn backends(tag: &str) -> Vec<Database> {
    let mut all = vec![Database::in_dir(&temp_dir(tag))];
    if let Some(url) = postgres(tag).await {
        all.push(Database::Postgres(url));
    }
    all
}

const LEASE: Duration = Duration::from_secs(10);

fn action(v: serde_json::Value) -> Action {
    serde_json::from_value(v).unwrap()
}

fn pass() -> Action {
    action(json!({"bid": "pass"}))
}

fn deck() -> [Card; 32] {
    std::array::from_fn(|i| Card::from_index(i as u8))
}

async fn new_table(store: &Store) -> (Secret, i64) {
    let id = Secret::random();
    let no = store
        .create_table(
            &id,
            (&Secret::random().into(), &Secret::random().into()),
            &json!("sochi"),
            true,
            2,
        )
        .await
        .unwrap();
    (id, no)
}

#[tokio::test]
async fn a_table_reads_back_as_written() {
    for db in backends("roundtrip").await {
        let store = Store::connect(&db, LEASE).await.unwrap();
        let (id, no) = new_table(&store).await;
        let anna = TokenHash::of(&Secret::random());
        // Anna is the host, in the seat he claimed with his token.
        store
            .put_seat((no, 0), "Anna", &anna, None, 0, true)
            .await
            .unwrap();
        store
            .put_seat(
                (no, 1),
                "Bot",
                &Secret::random().into(),
                Some("strong"),
                0,
                false,
            )
            .await
            .unwrap();
        // A seat given again is replaced, not duplicated (nor kept as the host's).
        let boris = TokenHash::of(&Secret::random());
        store
            .put_seat((no, 2), "Old", &Secret::random().into(), None, 0, true)
            .await
            .unwrap();
        store
            .put_seat((no, 2), "Boris", &boris, None, 0, false)
            .await
            .unwrap();
        store.set_state(no, Stored::Playing).await.unwrap();
        store.put_deal(no, 0, &deck()).await.unwrap();
        let actions = [(Seat(0), action(json!({"bid": "6S"}))), (Seat(1), pass())];
        for (seq, (p, a)) in actions.iter().enumerate() {
            store.put_action(no, 0, seq as u32, *p, a).await.unwrap();
        }

        let again = Store::connect(&db, LEASE).await.unwrap();
        let rows = again.unfinished().await.unwrap();
        assert_eq!(rows.len(), 1, "{db:?}");
        let row = &rows[0];
        assert_eq!((row.no, row.id, row.state), (no, id, Stored::Playing));
        assert_eq!(row.profile, json!("sochi"));
        assert!(row.spectator_chat);
        assert_eq!(row.first_dealer, 2);
        let seats: Vec<_> = row
            .seats
            .iter()
            .map(|s| (s.seat, s.name.as_str(), s.bot.as_deref()))
            .collect();
        assert_eq!(
            seats,
            [
                (0, "Anna", None),
                (1, "Bot", Some("strong")),
                (2, "Boris", None)
            ]
        );
        assert_eq!(row.seats[0].token, anna);
        assert_eq!(row.seats[2].token, boris);
        let hosts: Vec<bool> = row.seats.iter().map(|s| s.host).collect();
        assert_eq!(hosts, [true, false, false], "{db:?}");
        assert_eq!(row.deals.len(), 1);
        assert_eq!(row.deals[0].deck, deck());
        assert_eq!(row.deals[0].actions, actions);

        store.free_seat(no, 1).await.unwrap();
        store.set_state(no, Stored::Over).await.unwrap();
        assert!(again.unfinished().await.unwrap().is_empty(), "{db:?}");
        assert!(again.table(no).await.unwrap().is_none(), "{db:?}");
    }
}

#[tokio::test]
async fn a_group_commit_stores_every_row_and_fails_only_the_bad_one() {
    for db in backends("group").await {
        let store = Store::connect(&db, LEASE).await.unwrap();
        let mut tables = Vec::new();
        for _ in 0..100 {
            let (_, no) = new_table(&store).await;
            store.set_state(no, Stored::Playing).await.unwrap();
            tables.push(no);
        }
        // Every table's deck and eight actions, all at once: the writer takes them in groups.
        let pass = pass();
        let writes = tables.iter().map(|&no| {
            let store = store.clone();
            async move {
                store.put_deal(no, 0, &deck()).await?;
                for seq in 0..8 {
                    store
                        .put_action(no, 0, seq, Seat((seq % 3) as u8), &pass)
                        .await?;
                }
                Ok::<_, StoreError>(())
            }
        });
        for r in join_all(writes).await {
            r.unwrap();
        }
        // One duplicate among many good rows: only the duplicate fails.
        let mixed = tables.iter().enumerate().map(|(i, &no)| {
            let store = store.clone();
            let seq = if i == 7 { 3 } else { 8 };
            async move { store.put_action(no, 0, seq, Seat(2), &pass).await }
        });
        let results = join_all(mixed).await;
        for (i, r) in results.iter().enumerate() {
            assert_eq!(r.is_ok(), i != 7, "row {i} on {db:?}: {r:?}");
        }
        let again = Store::connect(&db, LEASE).await.unwrap();
        let rows = again.unfinished().await.unwrap();
        assert_eq!(rows.len(), 100);
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row.deals.len(), 1);
            assert_eq!(row.deals[0].actions.len(), if i == 7 { 8 } else { 9 });
        }
    }
}

#[tokio::test]
async fn a_node_that_lost_its_lease_cannot_write() {
    let Some(url) = postgres("fence").await else {
        return;
    };
    let db = Database::Postgres(url);
    let a = Store::connect(&db, LEASE).await.unwrap();
    let b = Store::connect(&db, LEASE).await.unwrap();
    let (id, no) = new_table(&a).await;
    a.set_state(no, Stored::Playing).await.unwrap();
    a.put_deal(no, 0, &deck()).await.unwrap();
    let pool = b.postgres().unwrap();
    let lb = b.leases().unwrap();
    // Held and unexpired: the other node cannot take it, and B's writes are refused.
    assert!(!lease::take(pool, lb, no).await.unwrap());
    let pass = pass();
    assert!(matches!(
        b.put_action(no, 0, 0, Seat(0), &pass).await,
        Err(StoreError::NotOwner { .. })
    ));
    let route = lease::route(pool, &id).await.unwrap().unwrap();
    assert_eq!(
        (route.no, route.node.as_str(), route.expired),
        (no, a.leases().unwrap().node(), false)
    );
    // Once A's heartbeat has run out by the database's clock, B takes it at the next epoch; A's own
    // map still says epoch 1, and the database refuses A's write.
    sqlx::query("UPDATE nodes SET expires = now() - INTERVAL '1 second' WHERE id = $1")
        .bind(a.leases().unwrap().node())
        .execute(pool)
        .await
        .unwrap();
    assert!(lease::take(pool, lb, no).await.unwrap());
    assert_eq!(lb.epoch(no), Some(2));
    assert!(matches!(
        a.put_action(no, 0, 0, Seat(0), &pass).await,
        Err(StoreError::NotOwner { .. })
    ));
    b.put_action(no, 0, 0, Seat(0), &pass).await.unwrap();
    let row = b.table(no).await.unwrap().unwrap();
    assert_eq!(row.deals[0].actions, [(Seat(0), pass)]);
    // A's next heartbeat finds that it had lapsed and lets every table go; none names A.
    let (pa, la) = (a.postgres().unwrap(), a.leases().unwrap());
    assert_eq!(
        lease::beat(pa, la).await.unwrap(),
        lease::Beat::Lapsed(vec![no])
    );
    assert_eq!(la.epoch(no), None);
    assert!(lease::take_mine(pa, la).await.unwrap().is_empty());
    // B's heartbeat is alive: its lease stands.
    assert_eq!(lease::beat(pool, lb).await.unwrap(), lease::Beat::Renewed);
    assert_eq!(lb.epoch(no), Some(2));
}

#[tokio::test]
async fn the_sweep_clears_finished_games_leases_and_long_dead_nodes_only() {
    let Some(url) = postgres("sweep").await else {
        return;
    };
    let db = Database::Postgres(url);
    let a = Store::connect(&db, LEASE).await.unwrap();
    let b = Store::connect(&db, LEASE).await.unwrap();
    let (_, playing) = new_table(&a).await;
    a.set_state(playing, Stored::Playing).await.unwrap();
    let (_, over) = new_table(&a).await;
    a.set_state(over, Stored::Over).await.unwrap();
    let pool = b.postgres().unwrap();
    let count = |sql: &'static str| async move {
        sqlx::query_scalar::<_, i64>(sql)
            .fetch_one(pool)
            .await
            .unwrap()
    };
    assert_eq!(count("SELECT COUNT(*) FROM leases").await, 2);
    // A's heartbeat ran out an hour ago, but it still holds the unfinished table: it stays.
    sqlx::query("UPDATE nodes SET expires = now() - INTERVAL '1 hour' WHERE id = $1")
        .bind(a.leases().unwrap().node())
        .execute(pool)
        .await
        .unwrap();
    let after = Duration::from_secs(60);
    assert_eq!(lease::sweep(pool, after).await.unwrap(), (1, 0));
    let held: Vec<i64> = sqlx::query_scalar("SELECT table_no FROM leases")
        .fetch_all(pool)
        .await
        .unwrap();
    assert_eq!(held, [playing], "only the finished game's lease went");
    // Once B has taken the table over, A's row names nothing and goes; B's, alive, stays.
    assert!(
        lease::take(pool, b.leases().unwrap(), playing)
            .await
            .unwrap()
    );
    assert_eq!(lease::sweep(pool, after).await.unwrap(), (0, 1));
    let nodes: Vec<String> = sqlx::query_scalar("SELECT id FROM nodes")
        .fetch_all(pool)
        .await
        .unwrap();
    assert_eq!(nodes, [b.leases().unwrap().node().to_owned()]);
    // A node dead for less than `after` is kept even when it holds nothing.
    sqlx::query("UPDATE nodes SET expires = now() - INTERVAL '1 second'")
        .execute(pool)
        .await
        .unwrap();
    sqlx::query("DELETE FROM leases")
        .execute(pool)
        .await
        .unwrap();
    assert_eq!(lease::sweep(pool, after).await.unwrap(), (0, 0));
}

#[tokio::test]
async fn a_node_stops_writing_when_its_own_clock_says_the_lease_may_be_over() {
    let Some(url) = postgres("timer").await else {
        return;
    };
    let db = Database::Postgres(url);
    let lease = Duration::from_millis(2000);
    let a = Store::connect(&db, lease).await.unwrap();
    let (_, no) = new_table(&a).await;
    assert_eq!(a.leases().unwrap().epoch(no), Some(1));
    // Nobody has taken the table, but 1.5 s (lease less a quarter) after the heartbeat was
    // written, with no renewal since, the node no longer trusts it.
    tokio::time::sleep(Duration::from_millis(1600)).await;
    assert_eq!(a.leases().unwrap().epoch(no), None);
    assert!(matches!(
        a.put_deal(no, 0, &deck()).await,
        Err(StoreError::NotOwner { .. })
    ));
    assert!(a.table(no).await.unwrap().unwrap().deals.is_empty());
}

#[tokio::test]
async fn an_sqlite_database_from_before_migrations_still_opens() {
    let dir = temp_dir("legacy");
    let file = dir.join("pref.sqlite3");
    let (id, host, token) = (Secret::random(), Secret::random(), Secret::random());
    {
        let pool = sqlx::sqlite::SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(
                sqlx::sqlite::SqliteConnectOptions::new()
                    .filename(&file)
                    .create_if_missing(true),
            )
            .await
            .unwrap();
        // The schema as the server made it before migrations and bots.
        sqlx::raw_sql(
            "CREATE TABLE tables (no INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
                host_token TEXT NOT NULL, profile TEXT NOT NULL, spectator_chat INTEGER NOT NULL,
                first_dealer INTEGER NOT NULL, state TEXT NOT NULL);
             CREATE TABLE seats (table_no INTEGER NOT NULL REFERENCES tables(no),
                seat INTEGER NOT NULL, name TEXT NOT NULL, token TEXT NOT NULL,
                PRIMARY KEY (table_no, seat));
             CREATE TABLE deals (table_no INTEGER NOT NULL REFERENCES tables(no),
                deal_no INTEGER NOT NULL, deck TEXT NOT NULL, PRIMARY KEY (table_no, deal_no));
             CREATE TABLE actions (table_no INTEGER NOT NULL REFERENCES tables(no),
                deal_no INTEGER NOT NULL, seq INTEGER NOT NULL, player INTEGER NOT NULL,
                action TEXT NOT NULL, PRIMARY KEY (table_no, deal_no, seq));",
        )
        .execute(&pool)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO tables (id, host_token, profile, spectator_chat, first_dealer, state)
             VALUES (?, ?, '\"sochi\"', 0, 1, 'lobby')",
        )
        .bind(id.expose())
        .bind(host.expose())
        .execute(&pool)
        .await
        .unwrap();
        sqlx::query("INSERT INTO seats VALUES (1, 0, 'Anna', ?)")
            .bind(token.expose())
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
    }
    let store = Store::open(&dir).await.unwrap();
    let rows = store.unfinished().await.unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].seats.len(), 1);
    assert_eq!(rows[0].seats[0].name, "Anna");
    assert_eq!(rows[0].seats[0].bot, None);
    // The plain tokens stored before are kept as their hashes now, and still verify.
    assert!(rows[0].id.matches(&id));
    assert_eq!(rows[0].host, TokenHash::of(&host));
    assert_eq!(rows[0].seats[0].token, TokenHash::of(&token));
    let stored: Vec<String> =
        sqlx::query_scalar("SELECT host_token FROM tables UNION ALL SELECT token FROM seats")
            .fetch_all(
                &sqlx::SqlitePool::connect_with(
                    sqlx::sqlite::SqliteConnectOptions::new().filename(&file),
                )
                .await
                .unwrap(),
            )
            .await
            .unwrap();
    assert_eq!(
        stored,
        [
            TokenHash::of(&host).expose(),
            TokenHash::of(&token).expose()
        ]
    );
    store
        .put_seat(
            (1, 1),
            "Bot",
            &Secret::random().into(),
            Some("easy"),
            0,
            false,
        )
        .await
        .unwrap();
    let again = Store::open(&dir).await.unwrap();
    let rows = again.unfinished().await.unwrap();
    assert_eq!(rows[0].seats[1].bot.as_deref(), Some("easy"));
}

#[tokio::test]
async fn plain_tokens_stored_before_migration_0040_are_hashed_on_postgresql() {
    let Some(url) = postgres("hash0040").await else {
        return;
    };
    let db = Database::Postgres(url);
    let store = Store::connect(&db, LEASE).await.unwrap();
    let (id, no) = new_table(&store).await;
    let (host, token) = (Secret::random(), Secret::random());
    let pool = store.postgres().unwrap();
    // The rows as a server before 0040 wrote them, and 0040 not yet applied.
    sqlx::query("UPDATE tables SET host_token = $1 WHERE no = $2")
        .bind(host.expose())
        .bind(no)
        .execute(pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO seats (table_no, seat, name, token) VALUES ($1, 0, 'Anna', $2)")
        .bind(no)
        .bind(token.expose())
        .execute(pool)
        .await
        .unwrap();
    sqlx::query("DELETE FROM _sqlx_migrations WHERE version = 40")
        .execute(pool)
        .await
        .unwrap();
    let again = Store::connect(&db, LEASE).await.unwrap();
    let row = again.table(no).await.unwrap().unwrap();
    assert!(row.id.matches(&id));
    assert_eq!(row.host, TokenHash::of(&host));
    assert_eq!(row.seats[0].token, TokenHash::of(&token));
    let stored: String = sqlx::query_scalar("SELECT token FROM seats WHERE table_no = $1")
        .bind(no)
        .fetch_one(again.postgres().unwrap())
        .await
        .unwrap();
    assert_eq!(stored, TokenHash::of(&token).expose());
}

/// The fairness rows (`docs/fairness.md`): a seed, commitments, their closing and values read
/// back through a second store, and a second seed for the same deal is refused, so that a
/// deal's commitment never changes.
#[tokio::test]
async fn fairness_rows_read_back_and_a_deal_keeps_its_first_seed() {
    use pref_server::store::{ContributionRow, FairRow};
    for db in backends("fair_rows").await {
        let store = Store::connect(&db, LEASE).await.unwrap();
        let (_, no) = new_table(&store).await;
        let (seed, other) = ("a5".repeat(32), "5a".repeat(32));
        store.put_fair_seed(no, 0, &seed, 2).await.unwrap();
        store
            .put_fair_commitment(no, 0, 0, &"c0".repeat(32))
            .await
            .unwrap();
        store
            .put_fair_commitment(no, 0, 2, &"c2".repeat(32))
            .await
            .unwrap();
        store.close_fair_commits(no, 0).await.unwrap();
        store
            .put_fair_value(no, 0, 2, &"02".repeat(32), false)
            .await
            .unwrap();
        store
            .put_fair_value(no, 0, 0, &"01".repeat(32), true)
            .await
            .unwrap();
        store.put_fair_seed(no, 1, &other, 2).await.unwrap();
        let again = store.put_fair_seed(no, 0, &other, 2).await;
        assert!(matches!(again, Err(StoreError::Group(_))), "{again:?}");
        drop(store);

        let back = Store::connect(&db, LEASE).await.unwrap();
        let row = |seat, c: &str, value: Option<&str>, late| ContributionRow {
            seat,
            commitment: c.repeat(32),
            value: value.map(|v| v.repeat(32)),
            late,
        };
        assert_eq!(
            back.fair_rows(no).await.unwrap(),
            [
                FairRow {
                    deal_no: 0,
                    seed,
                    scheme: 2,
                    commits_closed: true,
                    contributions: vec![
                        row(0, "c0", Some("01"), true),
                        row(2, "c2", Some("02"), false),
                    ],
                },
                FairRow {
                    deal_no: 1,
                    seed: other,
                    scheme: 2,
                    commits_closed: false,
                    contributions: vec![],
                },
            ],
            "on {db:?}"
        );
    }
}
