//! The scan on a stored game built here: the deals of `tests/records/leningrad.json` stored as
//! a finished table (its decks made to deal the record's hands), read once, and the études
//! its positions hold stored, listed the easiest first and found again by id; on SQLite and,
//! where `PREF_TEST_POSTGRES_URL` names a server, on a fresh PostgreSQL database.

use pref_core::{Action, Card, CardSet, Deal, Record, RecordDeal, Seat};

use crate::analysis::Analyses;
use crate::config::Limits;
use crate::etudes::{scan, store};
use crate::ids::{Secret, TokenHash};
use crate::store::{Database, Store, Stored};

/// The deck that deals `hands` and `talon` with `dealer` dealing: the dealing pattern read off
/// a deck in card order.
fn deck_for(record: &Record, dealer: Seat, hands: &[Vec<Card>], talon: [Card; 2]) -> [Card; 32] {
    let order: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    let probe = Deal::new(record.profile(), dealer, &order, 0).unwrap();
    let mut deck = order;
    for (s, hand) in hands.iter().enumerate() {
        let places = probe.hand(Seat(s as u8));
        for (place, &card) in places.iter().zip(hand) {
            deck[usize::from(place.index())] = card;
        }
    }
    for (place, card) in probe.talon().into_iter().zip(talon) {
        deck[usize::from(place.index())] = card;
    }
    let dealt = Deal::new(record.profile(), dealer, &deck, 0).unwrap();
    for (s, hand) in hands.iter().enumerate() {
        assert_eq!(
            dealt.hand(Seat(s as u8)),
            hand.iter().copied().collect::<CardSet>()
        );
    }
    deck
}

#[tokio::test]
async fn the_scan_reads_a_stored_game_once_and_keeps_its_etudes() {
    let dir = std::env::temp_dir().join(format!("pref-etude-scan-{}", Secret::random().expose()));
    std::fs::create_dir_all(&dir).unwrap();
    scan_once(&Store::open(&dir).await.unwrap()).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same scan on PostgreSQL (its SQL is the same text, run by another engine).
#[tokio::test]
async fn the_scan_reads_a_stored_game_once_and_keeps_its_etudes_on_postgres() {
    let Some(url) = postgres_database().await else {
        return;
    };
    // No heartbeat runs here: a lease longer than the test keeps the table this node's
    // (with a short one the node's own clock gives it up while the deals are stored).
    let lease = std::time::Duration::from_secs(3600);
    let store = Store::connect(&Database::Postgres(url), lease)
        .await
        .unwrap();
    scan_once(&store).await;
}

/// A fresh, empty database on the PostgreSQL server `PREF_TEST_POSTGRES_URL` names, as a URL;
/// `None` (the test skipped, and saying so) when it is unset. Under `CI=true` an unset
/// variable fails instead.
async fn postgres_database() -> Option<String> {
    const VAR: &str = "PREF_TEST_POSTGRES_URL";
    let Some(url) = std::env::var(VAR).ok().filter(|u| !u.trim().is_empty()) else {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "{VAR} is unset under CI=true"
        );
        eprintln!("skipped on PostgreSQL: {VAR} is not set");
        return None;
    };
    let name = format!("pref_etude_scan_{}", Secret::random().expose());
    let admin = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .unwrap_or_else(|e| panic!("{VAR}={url} does not connect: {e}"));
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
    let (scheme, rest) = url.split_once("://").unwrap();
    let (rest, query) = rest
        .split_once('?')
        .map_or((rest, String::new()), |(r, q)| (r, format!("?{q}")));
    let host = rest.split('/').next().unwrap();
    Some(format!("{scheme}://{host}/{name}{query}"))
}

/// Stores the record's game as a finished table in `store`, scans it and checks what is
/// found, listed and found again, and that a second scan reads nothing.
async fn scan_once(store: &Store) {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/records/leningrad.json"
    ))
    .unwrap();
    let record = Record::from_json_str(&text).unwrap();
    // Each deal's dealer and raspasy streak before it, as the game gives them.
    let mut dealers = vec![(record.first_dealer(), 0)];
    record
        .replay(|_, game| dealers.push((game.dealer(), game.raspasy_streak())))
        .unwrap();
    let id = Secret::random();
    let host = TokenHash::of(&Secret::random());
    let no = store
        .create_table(
            &id,
            (&host, &host),
            &record.profile().to_json(),
            false,
            record.first_dealer().0,
        )
        .await
        .unwrap();
    for s in 0..3u8 {
        let token = TokenHash::of(&Secret::random());
        store
            .put_seat((no, s), &format!("seat {s}"), &token, None, 0, false)
            .await
            .unwrap();
    }
    // Stored as a game is: playing, then each deal's deck and actions, then over.
    store.set_state(no, Stored::Playing).await.unwrap();
    for (i, deal) in record.deals().iter().enumerate() {
        let RecordDeal::Played {
            hands,
            talon,
            actions,
        } = deal
        else {
            panic!("a played deal");
        };
        let (dealer, streak) = dealers[i];
        let deck = deck_for(&record, dealer, hands, *talon);
        let d = u32::try_from(i).unwrap();
        store.put_deal(no, d, &deck).await.unwrap();
        // A record names a card's owner; the table stores who played it (in open defence
        // one defender plays both hands, R5.5).
        let mut replay = Deal::new(record.profile(), dealer, &deck, streak).unwrap();
        for (seq, (seat, action)) in actions.iter().enumerate() {
            let seq = u32::try_from(seq).unwrap();
            let actor = match action {
                Action::Play(_) => replay.controller(*seat),
                _ => *seat,
            };
            store.put_action(no, d, seq, actor, action).await.unwrap();
            replay.apply(*seat, *action).unwrap();
        }
    }
    store.set_state(no, Stored::Over).await.unwrap();

    let limits = Limits::default();
    let analyses = Analyses::new(&limits);
    // The record's own analysis finds 15 études of 3 to 6 tricks (pref-analysis's test).
    assert_eq!(scan::scan(store, &limits, &analyses, 20).await.unwrap(), 15);
    let listed = store::listed(store).await.unwrap();
    assert_eq!(listed.len(), 15);
    assert!(listed.windows(2).all(|w| w[0].1 <= w[1].1));
    let (first, nodes) = &listed[0];
    assert_eq!(
        store::one(store, &first.id).await.unwrap(),
        Some((first.clone(), *nodes))
    );
    assert_eq!(store::one(store, "g0").await.unwrap(), None);
    // Read once: the next scan has nothing to read.
    assert_eq!(scan::scan(store, &limits, &analyses, 20).await.unwrap(), 0);
    assert!(store::unscanned(store, 20).await.unwrap().is_empty());
}
