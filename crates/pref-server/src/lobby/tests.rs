//! The lobby's pure parts: who of a line gets a table, the grid's counts, and the items a
//! change makes.

use std::collections::HashSet;

use pref_protocol::LobbyMessage;

use super::store::{PublicRow, SeekRow, Waiting, pick};
use super::view::Known;
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
            LobbyMessage::Live { n, live } => (
                *n,
                format!(
                    "live {:?}",
                    live.iter().map(|l| l.id.as_str()).collect::<Vec<_>>()
                ),
            ),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        numbers,
        [
            (1, "listed a [Some(\"Anna\"), None, None] 4".to_owned()),
            (2, "live [\"c\", \"b\"]".to_owned())
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
    assert!(matches!(&items[1], LobbyMessage::Live { n: 4, live } if live.is_empty()));
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
        matches!(&items[..], [LobbyMessage::Live { live, .. }] if live[0].preview.is_none()),
        "{items:?}"
    );
    let items = known.update(Known::read(&with(Some(3)), &seats, &[], &[], (10, 10)), 0);
    let [LobbyMessage::Live { n: 2, live }] = &items[..] else {
        panic!("{items:?}");
    };
    let shown = live[0].preview.as_ref().unwrap();
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
        matches!(&items[..], [LobbyMessage::Live { n: 3, .. }]),
        "{items:?}"
    );
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
    match known.update_seeking(&grid) {
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
    assert_eq!(known.update_seeking(&grid), None);
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
        known.update_seeking(&[]),
        Some(LobbyMessage::Seeking { n: 3, seeking }) if seeking.is_empty()
    ));
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

/// The follower's reads go to the read-only connections beside SQLite's one writer: with a
/// write transaction held open on the writer (the tables' group commit, a seek, a paired
/// table's opening), the lobby's public tables and seeks are still read at once, as they
/// were committed before it; once it commits, the next read sees its write.
#[tokio::test]
async fn the_lobby_reads_beside_a_write_held_open() {
    use std::time::Duration;

    use crate::store::{Pool, Store};
    let dir = std::env::temp_dir().join(format!(
        "pref-lobby-read-{}",
        crate::ids::Secret::random().expose()
    ));
    let store = Store::open(&dir).await.unwrap();
    let rows = super::store::LobbyStore::new(store.clone());
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
    let (public, seats, rated) = tokio::time::timeout(bound, rows.public())
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
    let (public, _, _) = rows.public().await.unwrap();
    let ids: Vec<&str> = public.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, [second.as_str()]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn previews_are_taken_every_tenth_read_and_no_sooner_than_ten_ticks_apart() {
    let tick = std::time::Duration::from_millis(500);
    let t0 = tokio::time::Instant::now();
    let at = |ms: u64| t0 + std::time::Duration::from_millis(ms);
    assert!(count_due(None, 0, t0, tick), "the first read counts");
    let last = Some((t0, 0));
    // Read only at the tick: the tenth read after the count, 5 s later, counts again; the
    // ninth does not, nor the tenth a little early (the timer's jitter is allowed).
    assert!(!count_due(last, COUNT_EVERY - 1, at(4_500), tick));
    assert!(count_due(last, COUNT_EVERY, at(5_000), tick));
    assert!(count_due(last, COUNT_EVERY, at(4_800), tick));
    // Woken by seeks many times a tick: ten reads and more come before ten ticks have
    // passed, and do not count until they have.
    assert!(!count_due(last, 10 * COUNT_EVERY, at(1_000), tick));
    assert!(!count_due(last, 100 * COUNT_EVERY, at(4_700), tick));
    assert!(count_due(last, 100 * COUNT_EVERY, at(4_750), tick));
    // From a later count on, counted from it.
    let later = Some((at(60_000), 500));
    assert!(!count_due(later, 509, at(70_000), tick));
    assert!(!count_due(later, 600, at(64_000), tick));
    assert!(count_due(later, 510, at(65_000), tick));
}
