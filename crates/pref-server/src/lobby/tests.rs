//! The lobby's pure parts: who of a line gets a table, the grid's counts, and the items a
//! change makes.

use std::collections::HashSet;

use pref_protocol::LobbyMessage;

use super::store::{PublicRow, SeekRow, Waiting, pick};
use super::view::{Known, SEEKING_EVERY_MS};
use super::{COUNT_EVERY, count_due, counts};

fn seek(no: i64, players: u8, bots_after_ms: Option<i64>, created_ms: i64) -> SeekRow {
    SeekRow {
        no,
        name: format!("p{no}"),
        players,
        profile: String::new(),
        clock: "normal".to_owned(),
        bots_after_ms,
        created_ms,
    }
}

fn nos(rows: &[SeekRow]) -> Vec<i64> {
    rows.iter().map(|s| s.no).collect()
}

#[test]
fn the_first_come_are_seated_and_a_short_line_waits() {
    let line = [
        seek(3, 3, None, 0),
        seek(5, 3, None, 0),
        seek(9, 3, None, 0),
        seek(11, 3, None, 0),
    ];
    assert_eq!(nos(&pick(&line, 0)), [3, 5, 9]);
    assert_eq!(nos(&pick(&line[..2], 1_000_000)), Vec::<i64>::new());
    let four = [
        seek(1, 4, None, 0),
        seek(2, 4, None, 0),
        seek(4, 4, None, 0),
    ];
    assert_eq!(nos(&pick(&four, 0)), Vec::<i64>::new());
}

#[test]
fn bots_fill_only_once_the_first_seeker_waited_as_long_as_he_allowed() {
    let line = [seek(1, 3, Some(5_000), 1_000), seek(2, 3, None, 2_000)];
    assert_eq!(nos(&pick(&line, 5_999)), Vec::<i64>::new());
    // The second seeker does not allow bots: the first gets a table with two bots.
    assert_eq!(nos(&pick(&line, 6_000)), [1]);
    let both = [
        seek(1, 3, Some(5_000), 1_000),
        seek(2, 3, Some(60_000), 2_000),
    ];
    assert_eq!(nos(&pick(&both, 6_000)), [1, 2]);
}

fn row(id: &str, no: i64, state: &str, watchers: i64) -> PublicRow {
    PublicRow {
        id: id.to_owned(),
        no,
        host: Some("Anna".to_owned()),
        preset: Some("sochi".to_owned()),
        differs: "{}".to_owned(),
        clock: Some("normal".to_owned()),
        players: 3,
        created_ms: 1_000 * no,
        watchers,
        state: state.to_owned(),
        rated: None,
        preview: None,
    }
}

#[test]
fn a_change_is_told_once_as_numbered_items_and_a_full_table_leaves_the_list() {
    let mut known = Known::default();
    let rows = [
        row("a", 1, "lobby", 0),
        row("b", 2, "playing", 1),
        row("c", 3, "playing", 4),
    ];
    let seats = vec![
        (1, 0, "Anna".to_owned()),
        (2, 0, "B".to_owned()),
        (3, 1, "C".to_owned()),
    ];
    let items = known.update(Known::read(&rows, &seats, &[], &[], (10, 10)), 5_000);
    let numbers: Vec<_> = items
        .iter()
        .map(|i| match i {
            LobbyMessage::Listed { n, table } => (
                *n,
                format!(
                    "listed {} {:?} {}",
                    table.id, table.seats, table.waiting_secs
                ),
            ),
            LobbyMessage::LiveChanged { n, games, gone } => (
                *n,
                format!(
                    "live {:?} gone {gone:?}",
                    games.iter().map(|l| l.id.as_str()).collect::<Vec<_>>()
                ),
            ),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        numbers,
        [
            (1, "listed a [Some(\"Anna\"), None, None] 4".to_owned()),
            (2, "live [\"c\", \"b\"] gone []".to_owned())
        ]
    );
    // Read again unchanged: nothing to tell, though a second went by.
    assert!(
        known
            .update(Known::read(&rows, &seats, &[], &[], (10, 10)), 6_000)
            .is_empty()
    );
    // Table a fills up: it leaves the list.
    let full = vec![
        (1, 0, "Anna".to_owned()),
        (1, 1, "X".to_owned()),
        (1, 2, "Y".to_owned()),
    ];
    let items = known.update(Known::read(&rows[..1], &full, &[], &[], (10, 10)), 7_000);
    assert_eq!(items.len(), 2, "{items:?}");
    assert!(matches!(&items[0], LobbyMessage::Unlisted { n: 3, id } if id == "a"));
    assert!(
        matches!(&items[1], LobbyMessage::LiveChanged { n: 4, games, gone }
            if games.is_empty() && gone == &["c", "b"]),
        "{items:?}"
    );
    assert_eq!(known.view(7_000).n, 4);
}

#[test]
fn a_game_s_preview_rides_in_its_live_entry_and_a_new_one_is_one_item() {
    let preview = |deal: u32| {
        format!(
            r#"{{"deal": {deal}, "contract": {{"kind": "raspasy"}}, "stage": "play", "turn": 1,
               "tricks": [1, 0, 2], "pool": [0, 0, 0], "mountain": [2, 0, 4],
               "balance": ["0", "20", "-20"]}}"#
        )
    };
    let with = |deal: Option<u32>| {
        let mut r = row("g", 1, "playing", 2);
        r.preview = deal.map(preview);
        [r]
    };
    let seats = [(1, 0, "Anna".to_owned())];
    let mut known = Known::default();
    let items = known.update(Known::read(&with(None), &seats, &[], &[], (10, 10)), 0);
    assert!(
        matches!(&items[..], [LobbyMessage::LiveChanged { games, .. }] if games[0].preview.is_none()),
        "{items:?}"
    );
    let items = known.update(Known::read(&with(Some(3)), &seats, &[], &[], (10, 10)), 0);
    let [LobbyMessage::LiveChanged { n: 2, games, gone }] = &items[..] else {
        panic!("{items:?}");
    };
    assert!(gone.is_empty());
    let shown = games[0].preview.as_ref().unwrap();
    assert_eq!(
        (
            shown.deal,
            shown.contract,
            &shown.tricks,
            shown.balance[2].as_str()
        ),
        (
            3,
            pref_protocol::PreviewContract::Raspasy,
            &vec![1, 0, 2],
            "-20"
        )
    );
    // The same preview read again tells nothing; the next deal's is one more item.
    assert!(
        known
            .update(Known::read(&with(Some(3)), &seats, &[], &[], (10, 10)), 0)
            .is_empty()
    );
    let items = known.update(Known::read(&with(Some(4)), &seats, &[], &[], (10, 10)), 0);
    assert!(
        matches!(&items[..], [LobbyMessage::LiveChanged { n: 3, .. }]),
        "{items:?}"
    );
}

/// A client's list of games kept from the snapshot by the items, as `web/js/room.js` keeps it.
fn follow(list: &mut Vec<pref_protocol::LiveTable>, item: &LobbyMessage) {
    let LobbyMessage::LiveChanged { games, gone, .. } = item else {
        return;
    };
    list.retain(|l| !gone.contains(&l.id));
    for g in games {
        match list.iter_mut().find(|l| l.id == g.id) {
            Some(place) => *place = g.clone(),
            None => list.push(g.clone()),
        }
    }
    list.sort_by(pref_protocol::LiveTable::busiest_first);
}

#[test]
fn the_live_list_sends_only_the_games_that_changed_and_a_client_keeps_it_in_order() {
    // Five games, the list holds the four busiest; among equals the older table first.
    let mut rows = vec![
        row("e", 5, "playing", 0),
        row("b", 2, "playing", 1),
        row("d", 4, "playing", 1),
        row("a", 1, "playing", 3),
        row("c", 3, "playing", 0),
    ];
    rows.sort_by_key(|r| r.created_ms);
    let seats: Vec<_> = (1..=5).map(|no| (no, 0, format!("p{no}"))).collect();
    let mut known = Known::default();
    let mut client = Vec::new();
    let first = known.update(Known::read(&rows, &seats, &[], &[], (10, 4)), 0);
    first.iter().for_each(|i| follow(&mut client, i));
    let ids = |l: &[pref_protocol::LiveTable]| l.iter().map(|g| g.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&client), ["a", "b", "d", "c"]);
    assert_eq!(ids(&known.view(0).live), ids(&client));
    // Game d gains four spectators (to the top), a's preview changes, e gains one (into
    // the list, c out): one item with d, a and e, and c gone; b is not sent again.
    rows.iter_mut().for_each(|r| match r.id.as_str() {
        "d" => r.watchers = 5,
        "e" => r.watchers = 1,
        "a" => {
            r.preview = Some(
                r#"{"deal": 2, "contract": {"kind": "raspasy"}, "stage": "play", "turn": 0,
                    "tricks": [0, 0, 0], "pool": [0, 0, 0], "mountain": [0, 0, 0],
                    "balance": ["0", "0", "0"]}"#
                    .to_owned(),
            );
        }
        _ => {}
    });
    let items = known.update(Known::read(&rows, &seats, &[], &[], (10, 4)), 0);
    let [LobbyMessage::LiveChanged { n: 2, games, gone }] = &items[..] else {
        panic!("{items:?}");
    };
    assert_eq!(
        (ids(games), gone.clone()),
        (
            vec!["d".to_owned(), "a".to_owned(), "e".to_owned()],
            vec!["c".to_owned()]
        )
    );
    items.iter().for_each(|i| follow(&mut client, i));
    assert_eq!(ids(&client), ["d", "a", "b", "e"]);
    assert_eq!(
        known.view(0).live,
        client,
        "the client's list is the server's"
    );
    // The item's JSON is only the three games, not the list of four.
    let text = serde_json::to_string(&items[0]).unwrap();
    assert!(
        text.starts_with(r#"{"type":"live_changed","n":2,"games":[{"id":"d""#),
        "{text}"
    );
    assert!(!text.contains(r#""id":"b""#), "{text}");
}

fn waiting(no: i64, choice: &str, label: Option<&str>, clock: &str) -> Waiting {
    Waiting {
        choice: choice.to_owned(),
        label: label.map(str::to_owned),
        row: SeekRow {
            clock: clock.to_owned(),
            ..seek(no, 3, None, 0)
        },
    }
}

#[test]
fn the_grid_counts_the_seekers_left_waiting_and_leaves_bot_accounts_out() {
    let line = [
        waiting(1, "sochi/normal", Some("sochi"), "normal"),
        waiting(2, "sochi/normal", Some("sochi"), "normal"),
        waiting(3, "own rules", None, "blitz"),
        waiting(4, "bots:sochi/normal", Some("sochi"), "normal"),
        waiting(5, "leningrad/normal", Some("leningrad"), "normal"),
        waiting(6, "sochi/normal", Some("sochi"), "normal"),
    ];
    // Seek 2 was just taken for a table; seek 4 is a bot account's.
    let counted = counts(&line, &HashSet::from([2]));
    let want = [
        ("custom", "blitz", 1),
        ("leningrad", "normal", 1),
        ("sochi", "normal", 2),
    ];
    assert_eq!(
        counted,
        want.map(|(p, c, n)| (p.to_owned(), c.to_owned(), n))
    );
}

#[test]
fn a_step_that_read_only_the_seeks_tells_the_grid_once_and_keeps_the_tables() {
    let mut known = Known::default();
    let rows = [row("a", 1, "lobby", 0)];
    let items = known.update(Known::read(&rows, &[], &[], &[], (10, 10)), 5_000);
    assert_eq!(items.len(), 1, "{items:?}");
    let grid = vec![("sochi".to_owned(), "normal".to_owned(), 2)];
    match known.update_seeking(&grid, 5_000) {
        Some(LobbyMessage::Seeking { n: 2, seeking }) => {
            assert_eq!(seeking.len(), 1);
            assert_eq!(
                (seeking[0].preset.as_str(), seeking[0].clock.as_str()),
                ("sochi", "normal")
            );
            assert_eq!(seeking[0].seeking, 2);
        }
        other => panic!("{other:?}"),
    }
    // The same counts again: nothing to tell.
    assert_eq!(known.update_seeking(&grid, 5_100), None);
    let view = known.view(6_000);
    assert_eq!(view.n, 2);
    assert_eq!(view.tables.len(), 1);
    assert_eq!(view.seeking.len(), 1);
    // The next full read with the same counts and tables tells nothing either.
    assert!(
        known
            .update(Known::read(&rows, &[], &[], &grid, (10, 10)), 7_000)
            .is_empty()
    );
    // The seekers were paired: the grid empties, told once.
    assert!(matches!(
        known.update_seeking(&[], 7_000),
        Some(LobbyMessage::Seeking { n: 3, seeking }) if seeking.is_empty()
    ));
    // A change sooner than SEEKING_EVERY_MS after is held back (the snapshot has it), and
    // the first step after the wait sends it.
    let three = vec![("rostov".to_owned(), "blitz".to_owned(), 1)];
    assert_eq!(
        known.update_seeking(&three, 7_000 + SEEKING_EVERY_MS - 1),
        None
    );
    assert_eq!(known.view(7_100).seeking[0].preset, "rostov");
    assert!(matches!(
        known.update_seeking(&three, 7_000 + SEEKING_EVERY_MS),
        Some(LobbyMessage::Seeking { n: 4, seeking }) if seeking[0].preset == "rostov"
    ));
    // A full read takes a held change along at once, with its own items (one write to
    // each socket): a new count 1 ms after the last one sent goes with the listing.
    let four = vec![("sochi".to_owned(), "normal".to_owned(), 2)];
    let at = 7_000 + SEEKING_EVERY_MS + 1;
    assert_eq!(known.update_seeking(&four, at), None);
    let more = [row("a", 1, "lobby", 0), row("t2", 2, "lobby", 0)];
    let items = known.update(Known::read(&more, &[], &[], &four, (10, 10)), at);
    assert!(
        matches!(
            items.as_slice(),
            [
                LobbyMessage::Listed { n: 5, .. },
                LobbyMessage::Seeking { n: 6, seeking }
            ] if seeking[0].preset == "sochi"
        ),
        "{items:?}"
    );
    // Nothing is told twice: the next seeks' step and full read with the same counts.
    assert_eq!(known.update_seeking(&four, at + SEEKING_EVERY_MS), None);
    assert!(
        known
            .update(Known::read(&more, &[], &[], &four, (10, 10)), at + 1)
            .is_empty()
    );
    // The same counts later: nothing to tell.
    assert_eq!(known.update_seeking(&four, 9_000), None);
}

/// A new table in the lobby of `store`, listed public; returns its id and row number.
async fn listed(store: &crate::store::Store, rows: &super::store::LobbyStore) -> (String, i64) {
    use crate::ids::{Secret, TokenHash};
    let id = Secret::table_id();
    let token = TokenHash::of(&Secret::random());
    let no = store
        .create_table(&id, (&token, &token), &serde_json::json!({}), false, 0)
        .await
        .unwrap();
    let public = row(&id.expose(), no, "lobby", 0);
    rows.publish(&super::store::NewPublic {
        row: &public,
        invite_key: "key",
        address: None,
    })
    .await
    .unwrap();
    (id.expose(), no)
}

/// A new SQLite store in a directory of its own (`pref-lobby-{name}-…`) and its lobby's rows.
async fn lobby_store(
    name: &str,
) -> (
    std::path::PathBuf,
    crate::store::Store,
    super::store::LobbyStore,
) {
    let dir = std::env::temp_dir().join(format!(
        "pref-lobby-{name}-{}",
        crate::ids::Secret::random().expose()
    ));
    let store = crate::store::Store::open(&dir).await.unwrap();
    let rows = super::store::LobbyStore::new(store.clone());
    (dir, store, rows)
}

/// The follower reads only the public tables the lobby shows: the longest waiting with a
/// free seat (at most `lobby_max_listed`) and the busiest games (at most `lobby_max_live`),
/// with their seats; the count of spectators reads every public game.
#[tokio::test]
async fn the_lobby_reads_only_the_tables_it_shows() {
    use crate::store::Pool;
    let (dir, store, rows) = lobby_store("shown").await;
    let mut tables = Vec::new();
    for _ in 0..6 {
        tables.push(listed(&store, &rows).await);
    }
    let Pool::Sqlite(writer) = store.pool() else {
        unreachable!("a store in a directory is SQLite")
    };
    let sql = |q: String| async move { sqlx::query(&q).execute(writer).await.unwrap() };
    // The first (oldest) is full; the second and third wait with a seat taken / none.
    for seat in 0..3 {
        sql(format!(
            "INSERT INTO seats (table_no, seat, name, token) VALUES ({}, {seat}, 'p{seat}', 't')",
            tables[0].1
        ))
        .await;
    }
    sql(format!(
        "INSERT INTO seats (table_no, seat, name, token) VALUES ({}, 1, 'Vera', 't')",
        tables[1].1
    ))
    .await;
    // The last three play, watched by 1, 3 and 2.
    for (i, watchers) in [(3, 1), (4, 3), (5, 2)] {
        sql(format!(
            "UPDATE tables SET state = 'playing' WHERE no = {}",
            tables[i].1
        ))
        .await;
        sql(format!(
            "UPDATE lobby_tables SET watchers = {watchers} WHERE table_no = {}",
            tables[i].1
        ))
        .await;
    }
    let (public, seats, rated) = rows.public((1, 2)).await.unwrap();
    let ids: Vec<&str> = public.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, [&tables[1].0, &tables[4].0, &tables[5].0]);
    assert_eq!(seats, [(tables[1].1, 1, "Vera".to_owned())]);
    assert!(rated.is_empty());
    let (public, _, _) = rows.public((10, 10)).await.unwrap();
    let ids: Vec<&str> = public.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            &tables[1].0,
            &tables[2].0,
            &tables[4].0,
            &tables[5].0,
            &tables[3].0
        ]
    );
    // The games are counted by slices of their row numbers: each in its own slice only.
    let mut playing: Vec<(String, i64)> = Vec::new();
    for slice in 0..3 {
        let part = rows.playing((slice, 3)).await.unwrap();
        for (id, _, _) in &part {
            let no = tables.iter().find(|(t, _)| t == id).unwrap().1;
            assert_eq!(
                no % 3,
                i64::try_from(slice).unwrap(),
                "{id} in slice {slice}"
            );
        }
        playing.extend(part.into_iter().map(|(id, watchers, _)| (id, watchers)));
    }
    playing.sort_by_key(|(_, w)| *w);
    assert_eq!(
        playing,
        [
            (tables[3].0.clone(), 1),
            (tables[5].0.clone(), 2),
            (tables[4].0.clone(), 3)
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The follower's reads go to the read-only connections beside SQLite's one writer: with a
/// write transaction held open on the writer (the tables' group commit, a seek, a paired
/// table's opening), the lobby's public tables and seeks are still read at once, as they
/// were committed before it; once it commits, the next read sees its write.
#[tokio::test]
async fn the_lobby_reads_beside_a_write_held_open() {
    use std::time::Duration;

    use crate::store::Pool;
    let (dir, store, rows) = lobby_store("read").await;
    let (first, first_no) = listed(&store, &rows).await;
    let (second, _) = listed(&store, &rows).await;
    let seek = super::store::NewSeek {
        node: "node",
        socket: 7,
        choice: "sochi/normal",
        label: Some("sochi"),
        row: seek(0, 3, None, 1_000),
        address: None,
        account: None,
    };
    let sought = rows.seek(&seek, 1_000).await.unwrap();
    let Pool::Sqlite(writer) = store.pool() else {
        unreachable!("a store in a directory is SQLite")
    };
    let mut tx = writer.begin().await.unwrap();
    sqlx::query("UPDATE tables SET state = 'over' WHERE no = $1")
        .bind(first_no)
        .execute(&mut *tx)
        .await
        .unwrap();
    // A bound, not a pause: the old store, with the writer's connection its only one,
    // waited here until the transaction ended (never, in this test).
    let bound = Duration::from_secs(10);
    let (public, seats, rated) = tokio::time::timeout(bound, rows.public((10, 10)))
        .await
        .expect("the public tables are read while a write is held open")
        .unwrap();
    let ids: Vec<(&str, &str)> = public
        .iter()
        .map(|r| (r.id.as_str(), r.state.as_str()))
        .collect();
    assert_eq!(ids, [(first.as_str(), "lobby"), (second.as_str(), "lobby")]);
    assert_eq!((seats.len(), rated.len()), (0, 0));
    let (waiting, seated) = tokio::time::timeout(bound, rows.seeks("node"))
        .await
        .expect("the seeks are read while a write is held open")
        .unwrap();
    let waiting: Vec<(i64, &str)> = waiting
        .iter()
        .map(|w| (w.row.no, w.choice.as_str()))
        .collect();
    assert_eq!(waiting, [(sought, "sochi/normal")]);
    assert!(seated.is_empty());
    tx.commit().await.unwrap();
    let (public, _, _) = rows.public((10, 10)).await.unwrap();
    let ids: Vec<&str> = public.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, [second.as_str()]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_slice_of_the_previews_is_taken_once_a_tick_however_often_the_lobby_is_read() {
    let tick = std::time::Duration::from_millis(500);
    let t0 = tokio::time::Instant::now();
    let at = |ms: u64| t0 + std::time::Duration::from_millis(ms);
    assert!(count_due(None, t0, tick), "the first read counts");
    let last = Some(t0);
    // Read only at the tick: the next tick counts the next slice (a little early too: the
    // timer's jitter is allowed), a read before it does not.
    assert!(count_due(last, at(500), tick));
    assert!(count_due(last, at(460), tick));
    // Woken by seeks many times a tick: the reads within the tick do not count.
    for ms in [5, 60, 200, 449] {
        assert!(!count_due(last, at(ms), tick), "{ms} ms after");
    }
    assert!(count_due(last, at(450), tick));
    // So each game's slice comes every COUNT_EVERY ticks: ten slices take 5 s at least.
    assert_eq!(COUNT_EVERY, 10);
}

/// The lobby's reads walk the public tables in the order they are shown and stop at the
/// limit (the indexes of migration 0210): none reads the server's every table
/// (`SCAN t`, finished tables included, a number that only grows) or sorts the public ones
/// in a temporary tree.
#[tokio::test]
async fn the_lobby_s_reads_walk_the_public_tables_in_their_order_not_every_table() {
    use crate::store::Pool;
    let (dir, store, rows) = lobby_store("plans").await;
    for _ in 0..3 {
        listed(&store, &rows).await;
    }
    let Pool::Sqlite(reader) = store.pool() else {
        unreachable!("a store in a directory is SQLite")
    };
    let (listed_sql, live_sql) = super::store::public_queries();
    for (name, sql, binds) in [
        ("listed", listed_sql.as_str(), 1),
        ("live", live_sql.as_str(), 1),
        ("playing", super::store::PLAYING, 2),
    ] {
        let explain = format!("EXPLAIN QUERY PLAN {sql}");
        let mut q = sqlx::query_as::<_, (i64, i64, i64, String)>(&explain);
        for b in 0..binds {
            q = q.bind(10 - b);
        }
        let plan: Vec<String> = q
            .fetch_all(reader)
            .await
            .unwrap()
            .into_iter()
            .map(|r| r.3)
            .collect();
        assert!(
            plan.first().is_some_and(|p| p.starts_with("SCAN l")),
            "{name} starts from the public tables: {plan:?}"
        );
        assert!(
            plan.iter()
                .all(|p| !p.starts_with("SCAN t") && !p.contains("TEMP B-TREE")),
            "{name} reads every table or sorts: {plan:?}"
        );
        if name != "playing" {
            assert!(
                plan[0].contains("USING INDEX lobby_tables_"),
                "{name} walks an index in the order shown: {plan:?}"
            );
        }
    }
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game that starts on a public table (a paired table, at every pairing) makes the
/// follower read the public tables again only if it changes what the lobby shows: it was
/// listed, the live list has room, or it would come before the list's last game (busiest
/// first, then opened first, then the smaller id); otherwise the read would find nothing new.
#[test]
fn a_started_game_is_read_only_if_it_would_enter_the_live_list() {
    let mut known = Known::default();
    // Listed "a" (opened at 1 s); live "b" watched by 2 (2 s) and "c" by nobody (3 s).
    let rows = [
        row("a", 1, "lobby", 0),
        row("b", 2, "playing", 2),
        row("c", 3, "playing", 0),
    ];
    known.update(Known::read(&rows, &[], &[], &[], (10, 2)), 5_000);
    // Room in a list of three: any game enters.
    assert!(known.changed_by_start(("z", 9_000), 3));
    // Full at two, its last without a spectator opened at 3 s: a game opened later, or in
    // the same second with a larger id, comes after it and changes nothing.
    assert!(!known.changed_by_start(("z", 9_000), 2));
    assert!(!known.changed_by_start(("d", 3_999), 2));
    // In the same second with a smaller id, or opened earlier, it comes before "c".
    assert!(known.changed_by_start(("bb", 3_500), 2));
    assert!(known.changed_by_start(("z", 2_999), 2));
    // A listed table that starts leaves the listed tables.
    assert!(known.changed_by_start(("a", 1_000), 2));
    // The last game watched: a new game without a spectator comes after it, however old.
    let watched = [row("b", 2, "playing", 2), row("c", 3, "playing", 1)];
    known.update(Known::read(&watched, &[], &[], &[], (10, 2)), 6_000);
    assert!(!known.changed_by_start(("a0", 0), 2));
    // No live list kept at all.
    assert!(!Known::default().changed_by_start(("z", 9_000), 0));
}

/// An item's fan-out is timed by the last of the sockets that followed the lobby when it
/// was published, once, and by none of the others (`pref_lobby_fanout_micros`).
#[test]
fn a_lobby_item_s_fan_out_is_timed_by_the_last_socket_to_write_it() {
    let item = super::News {
        n: 7,
        text: "{}".into(),
        published: std::time::Instant::now(),
        unwritten: std::sync::atomic::AtomicUsize::new(3),
    };
    assert_eq!(item.written(), None);
    assert_eq!(item.written(), None);
    let spent = item
        .written()
        .expect("the third socket of three is the last");
    assert!(spent <= item.published.elapsed());
}
