//! The clock at a running table, in virtual time: a player who never acts and one who
//! disconnects are played by the autopilot within the clock, a person who comes back takes
//! the seat at once, a restart keeps the deadline, and no timer moves a paused or finished
//! table.
//!
//! Time is paused and moves only when a test advances it (`tokio::time::advance`): a held
//! blocking task keeps tokio from jumping the clock while the runtime waits for SQLite's
//! thread, which would otherwise look idle. So every deadline is hit to the millisecond. A
//! watchdog thread only stops a hung test.

use std::sync::Arc;
use std::time::Duration;

use pref_core::{Seat, Viewer};
use pref_protocol::clock::{ClockInfo, TimeControl};
use pref_protocol::{BotLevel, Public};
use tokio::sync::broadcast;

use super::*;
use crate::config::Limits;
use crate::ids::Secret;
use crate::store::Store;
use crate::table::command::{Command, HostRequest};
use crate::table::machine::clock;
use crate::table::registry::{Registry, TableHandle};
use crate::table::wire::{News, Stamped, Turn};

/// 10 s a move, a 30 s bank, 30 s grace.
fn blitz() -> TimeControl {
    clock::parse(Some(&serde_json::json!("blitz")))
        .unwrap()
        .unwrap()
}

/// Stops the process if a test hangs for `secs` real seconds: a stalled table is exactly
/// what these tests look for.
fn watchdog(secs: u64) {
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(secs));
        eprintln!("a clock test hung for {secs} s");
        std::process::exit(101);
    });
}

/// Keeps tokio's paused clock from moving by itself while held: a running blocking task
/// turns its auto-advance off.
struct Hold(#[allow(dead_code)] std::sync::mpsc::Sender<()>);

fn hold_time() -> Hold {
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    tokio::task::spawn_blocking(move || {
        let _ = rx.recv();
    });
    Hold(tx)
}

/// Waits a little real time (the clock stands still) for the table to do whatever it would.
async fn settle() {
    tokio::task::spawn_blocking(|| std::thread::sleep(Duration::from_millis(100)))
        .await
        .unwrap();
}

/// Moves virtual time by `ms` milliseconds.
async fn advance(ms: u64) {
    tokio::time::advance(Duration::from_millis(ms)).await;
}

/// A blitz table with Anna (connected) in seat 0 and two easy bots that act at once, started,
/// with a spectator's subscription taken before the start.
struct Game {
    id: Secret,
    store: Store,
    limits: Limits,
    no: i64,
    host: Secret,
    handle: TableHandle,
    anna: Secret,
    rx: broadcast::Receiver<Arc<Stamped>>,
    /// Serves the table; a test that plays a node going down stops the table's task here.
    registry: Arc<Registry>,
}

async fn game(name: &str) -> Game {
    game_of(name, 1).await
}

/// [`game`] with `people` people (all connected, who never act) in the first seats and bots
/// in the rest.
async fn game_of(name: &str, people: u8) -> Game {
    let dir = std::env::temp_dir().join(format!("pref-clock-{name}-{}", Secret::random().expose()));
    let store = Store::open(&dir).await.unwrap();
    let limits = Limits {
        bot_delay_min_ms: crate::config::Millis(0),
        bot_delay_max_ms: crate::config::Millis(0),
        ..Limits::default()
    };
    let (id, no, host, table) = test_table(&store, &limits).await;
    let info = ClockInfo {
        control: blitz(),
        paused: false,
        away: Vec::new(),
    };
    store.set_clock(no, &info).await.unwrap();
    let registry = Registry::new(store.clone(), limits.clone());
    registry.spawn(id, no, table.with_clock(Some(blitz())));
    let handle = registry.get(&id).unwrap();
    let invite = Some(host.invite_key());
    let mut tokens = Vec::new();
    for (seat, name) in (0..people).zip(["Anna", "Boris"]) {
        let (_, token) = handle
            .ask(|reply| Command::Claim {
                name: name.into(),
                seat: Some(seat),
                // Anna is the host (his own seat, so his end needs nobody's answer).
                host: (seat == 0).then_some(host),
                invite,
                account: None,
                reply,
            })
            .await
            .unwrap()
            .unwrap();
        present_at(&handle, Seat(seat), token, true).await;
        tokens.push(token);
    }
    for seat in people..3 {
        let bot = HostRequest::Bot {
            seat,
            level: BotLevel::Easy,
        };
        host_op(&handle, host, bot).await.unwrap();
    }
    let anna = tokens[0];
    let session = handle
        .ask(|reply| Command::Connect {
            token: None,
            resume: None,
            reply,
        })
        .await
        .unwrap()
        .unwrap();
    host_op(&handle, host, HostRequest::Start).await.unwrap();
    Game {
        id,
        store,
        limits,
        no,
        host,
        handle,
        anna,
        rx: session.rx,
        registry,
    }
}

async fn host_op(
    handle: &TableHandle,
    host: Secret,
    op: HostRequest,
) -> Result<pref_protocol::Summary, TableError> {
    handle
        .ask(|reply| Command::Host {
            token: host,
            op,
            reply,
        })
        .await
        .unwrap()
}

async fn present(handle: &TableHandle, anna: Secret, connected: bool) {
    present_at(handle, Seat(0), anna, connected).await;
}

async fn present_at(handle: &TableHandle, seat: Seat, token: Secret, connected: bool) {
    handle
        .tell(Command::Presence {
            seat,
            token,
            connected,
        })
        .await;
}

/// What the spectator saw of one action's batch: its turn, and whether the deal finished.
struct Batch {
    turn: Turn,
    finished: bool,
}

/// The next batch that carries a turn.
async fn next_batch(rx: &mut broadcast::Receiver<Arc<Stamped>>) -> Batch {
    let mut finished = false;
    loop {
        let item = rx.recv().await.expect("the table goes on");
        if let News::Public(Public::DealFinished { .. }) = item.news {
            finished = true;
        }
        if let Some(turn) = &item.turn {
            return Batch {
                turn: turn.clone(),
                finished,
            };
        }
    }
}

/// How long Anna's turn may last by the clock it shows: from the turn's start (the bank
/// starts after the allowance) to the deadline.
fn allowed(turn: &Turn) -> u64 {
    let c = turn
        .clock
        .as_ref()
        .expect("a clocked turn carries the clock");
    c.deadline - (c.bank_from - u64::from(blitz().per_move) * 1_000)
}

/// At Anna's turn `b`: nothing happens a millisecond before her deadline, and at the
/// deadline the autopilot moves for her. Returns how long the turn lasted and the batch of
/// the autopilot's move.
async fn times_out(g: &mut Game, b: &Batch) -> (u64, Batch) {
    let wait = allowed(&b.turn);
    advance(wait - 1).await;
    settle().await;
    assert!(
        g.rx.try_recv().is_err(),
        "nothing moves before the deadline"
    );
    advance(1).await;
    let next = next_batch(&mut g.rx).await;
    assert_eq!(
        next.turn.autopilot,
        Some(Seat(0)),
        "the autopilot moved for Anna"
    );
    (wait, next)
}

/// Plays the deal to its end, Anna never acting; the length of each of her turns.
async fn never_acting(g: &mut Game, mut b: Batch) -> Vec<u64> {
    let mut waits = Vec::new();
    while !b.finished {
        if b.turn.to_act == Some(Seat(0)) {
            let (wait, next) = times_out(g, &b).await;
            waits.push(wait);
            b = next;
        } else {
            b = next_batch(&mut g.rx).await;
        }
    }
    waits
}

#[tokio::test(start_paused = true)]
async fn a_player_who_never_acts_is_played_by_the_autopilot_within_the_clock() {
    watchdog(120);
    let _hold = hold_time();
    let mut g = game("never").await;
    let start = tokio::time::Instant::now();
    let first = next_batch(&mut g.rx).await;
    let waits = never_acting(&mut g, first).await;
    assert!(waits.len() >= 2, "Anna had {} turns", waits.len());
    // First the allowance and the whole bank, then the allowance alone (the bank is spent),
    // then, away after two timeouts, the autopilot's short wait.
    assert_eq!(waits[0], 40_000);
    assert_eq!(waits[1], 10_000);
    for w in &waits[2..] {
        assert_eq!(*w, clock::AWAY_MOVE_MS);
    }
    let total = tokio::time::Instant::now() - start;
    assert_eq!(total.as_millis() as u64, waits.iter().sum::<u64>());
    let summary = g.handle.ask(Command::Summary).await.unwrap();
    let info = summary.clock.expect("the summary shows the clock");
    assert_eq!(
        info.away,
        vec![Seat(0)],
        "Anna is away (autopilot) for everybody"
    );
}

#[tokio::test(start_paused = true)]
async fn a_player_who_disconnects_is_played_after_the_grace_and_takes_the_seat_back_by_acting() {
    watchdog(120);
    let _hold = hold_time();
    let mut g = game("gone").await;
    // Anna leaves at once: her grace (30 s) ends before her first deadline (40 s).
    present(&g.handle, g.anna, false).await;
    let mut b = next_batch(&mut g.rx).await;
    while b.turn.to_act != Some(Seat(0)) {
        assert!(!b.finished);
        b = next_batch(&mut g.rx).await;
    }
    assert_eq!(allowed(&b.turn), 40_000);
    advance(30_000 - 1).await;
    settle().await;
    assert!(g.rx.try_recv().is_err(), "within the grace nothing moves");
    advance(1).await;
    b = next_batch(&mut g.rx).await;
    assert_eq!(b.turn.autopilot, Some(Seat(0)));
    let away = b
        .turn
        .clock
        .as_ref()
        .map(|c| c.away.clone())
        .unwrap_or_default();
    let summary = g.handle.ask(Command::Summary).await.unwrap();
    if !b.finished {
        assert_eq!(away, vec![Seat(0)], "everybody sees Anna away");
    }
    assert_eq!(summary.clock.unwrap().away, vec![Seat(0)]);
    // Her next turn: she is back and acts herself before the autopilot's short wait ends.
    while !b.finished && b.turn.to_act != Some(Seat(0)) {
        b = next_batch(&mut g.rx).await;
    }
    if b.finished {
        // The deal ended by the autopilot's move; she takes the seat back in the next one.
        return;
    }
    assert_eq!(allowed(&b.turn), clock::AWAY_MOVE_MS);
    present(&g.handle, g.anna, true).await;
    let action = b.turn.legal[0];
    let version = g.handle.ask(Command::Summary).await.unwrap().version;
    g.handle
        .ask(|reply| Command::Act {
            seat: Seat(0),
            token: g.anna,
            version,
            action,
            reply,
        })
        .await
        .unwrap()
        .expect("Anna's own move is taken");
    let mine = next_batch(&mut g.rx).await;
    assert_eq!(
        mine.turn.autopilot, None,
        "her own move is not the autopilot's"
    );
    let info = g.handle.ask(Command::Summary).await.unwrap().clock.unwrap();
    assert!(info.away.is_empty(), "acting took the seat back at once");
    // From here on her turns have the plain allowance again; the deal ends by the clock.
    let waits = never_acting(&mut g, mine).await;
    if let Some(w) = waits.first() {
        // The grace ended her first turn at 30 s: 20 s of her 30 s bank went, 10 s are left.
        assert_eq!(*w, 10_000 + 10_000);
    }
}

#[tokio::test(start_paused = true)]
async fn a_restart_mid_move_keeps_the_deadline() {
    watchdog(120);
    let _hold = hold_time();
    let mut g = game("restart").await;
    let deadline = loop {
        let b = next_batch(&mut g.rx).await;
        if b.turn.to_act == Some(Seat(0)) {
            break b.turn.clock.unwrap().deadline;
        }
    };
    advance(7_000).await;
    let row = g.store.table(g.no).await.unwrap().unwrap();
    let restored = Table::restore(row, g.store.clone(), g.limits.clone()).unwrap();
    let snap = restored.snapshot(Viewer::Spectator);
    let clock = snap.turn.clock.expect("the restored table's clock runs");
    assert_eq!(clock.seat, Seat(0));
    assert_eq!(clock.deadline, deadline, "the deadline is not reset");
    assert_eq!(
        restored.wake_at(),
        Some(deadline),
        "the restored timer is armed at the same deadline"
    );
}

#[tokio::test(start_paused = true)]
async fn no_timer_moves_a_paused_table() {
    watchdog(180);
    let _hold = hold_time();
    let mut g = game("paused").await;
    let first = next_batch(&mut g.rx).await;
    never_acting(&mut g, first).await;
    // Only the host pauses.
    let by_anna = g
        .handle
        .ask(|reply| Command::Pause {
            host: g.anna,
            paused: true,
            reply,
        })
        .await
        .unwrap();
    assert!(matches!(by_anna, Err(TableError::NotHost)));
    let summary = g
        .handle
        .ask(|reply| Command::Pause {
            host: g.host,
            paused: true,
            reply,
        })
        .await
        .unwrap()
        .unwrap();
    assert!(summary.clock.unwrap().paused);
    // Every viewer is told, not only the host's answer.
    let told = g.rx.recv().await.expect("the table goes on");
    assert!(
        matches!(
            told.news,
            News::Public(Public::ClockPaused { paused: true })
        ),
        "{:?}",
        told.news
    );
    assert_eq!(told.version, summary.version);
    let version = summary.version;
    g.handle
        .ask(|reply| Command::NextDeal {
            seat: Seat(0),
            token: g.anna,
            version,
            reply,
        })
        .await
        .unwrap()
        .unwrap();
    loop {
        let b = next_batch(&mut g.rx).await;
        assert_eq!(b.turn.clock, None, "a paused table shows no clock");
        assert!(!b.finished);
        if b.turn.to_act == Some(Seat(0)) {
            break;
        }
    }
    // Pausing waits for the deal's end.
    let during = g
        .handle
        .ask(|reply| Command::Pause {
            host: g.host,
            paused: false,
            reply,
        })
        .await
        .unwrap();
    assert!(matches!(during, Err(TableError::DealInProgress)));
    let before = g.handle.ask(Command::Summary).await.unwrap().version;
    advance(3_600_000).await;
    settle().await;
    assert_eq!(
        g.handle.ask(Command::Summary).await.unwrap().version,
        before
    );
    assert!(
        g.rx.try_recv().is_err(),
        "no autopilot move on a paused clock"
    );
    // A restart keeps the pause, and arms no timer.
    let row = g.store.table(g.no).await.unwrap().unwrap();
    let restored = Table::restore(row, g.store.clone(), g.limits.clone()).unwrap();
    assert!(restored.clock.as_ref().unwrap().paused());
    assert_eq!(restored.wake_at(), None);
}

#[tokio::test(start_paused = true)]
async fn no_timer_moves_a_finished_table() {
    watchdog(120);
    let _hold = hold_time();
    let mut g = game("over").await;
    let first = next_batch(&mut g.rx).await;
    never_acting(&mut g, first).await;
    let over = host_op(&g.handle, g.host, HostRequest::End).await.unwrap();
    advance(3_600_000).await;
    settle().await;
    let after = g.handle.ask(Command::Summary).await.unwrap();
    assert_eq!(after.version, over.version);
    assert!(matches!(after.phase, pref_protocol::Phase::Over));
    // The summary still shows the clock the game was played with.
    assert_eq!(after.clock.unwrap().control, blitz());
}

#[path = "clock_seat_tests.rs"]
mod seats;

/// Anna's turn and the runtime's instant it began at, with the clock's mapping of that
/// instant to Unix milliseconds (`now_ms` of the turn's clock).
async fn annas_turn(g: &mut Game) -> (pref_protocol::clock::ClockView, tokio::time::Instant) {
    loop {
        let b = next_batch(&mut g.rx).await;
        if b.turn.to_act == Some(Seat(0)) {
            return (*b.turn.clock.unwrap(), tokio::time::Instant::now());
        }
    }
}

/// Marks that the node serves at `at_ms`, then reads the table's row as a restore would.
async fn marked_row(g: &Game, at_ms: u64) -> crate::store::TableRow {
    g.store
        .mark_served(crate::store::LOCAL, at_ms)
        .await
        .unwrap();
    g.store.table(g.no).await.unwrap().unwrap()
}

#[tokio::test(start_paused = true)]
async fn a_restore_after_an_outage_gives_the_player_her_remaining_time() {
    watchdog(120);
    let _hold = hold_time();
    let mut g = game("outage").await;
    let (clock, at) = annas_turn(&mut g).await;
    let turn_ms = clock.now_ms.unwrap();
    let origin = Some((at, turn_ms));
    // The node serves 4 s of her turn and marks it, then dies: nobody serves the table for
    // 50 s, longer than the 36 s she had left.
    advance(4_000).await;
    let row = marked_row(&g, turn_ms + 4_000).await;
    assert_eq!(row.served_ms, Some(turn_ms + 4_000));
    // The node is down: its table task must not play on (its timer would pilot Anna's
    // turn, and store it, while the restored tables below are read).
    g.registry.remove(&g.id);
    advance(50_000).await;
    let now = turn_ms + 54_000;
    let restored = Table::restore_from(row, g.store.clone(), g.limits.clone(), origin).unwrap();
    assert_eq!(restored.now_ms(), now);
    let view = restored.snapshot(Viewer::Spectator).turn.clock.unwrap();
    assert_eq!(view.seat, Seat(0));
    assert_eq!(
        view.deadline - now,
        clock.deadline - (turn_ms + 4_000),
        "she has the 36 s she had when the node went down"
    );
    assert_eq!(view.deadline, clock.deadline + 50_000);
    assert_eq!(
        restored.wake_at(),
        Some(view.deadline),
        "no autopilot move at once"
    );
    assert!(!restored.clock.as_ref().unwrap().due(Seat(0), now));
    // The credit is stored, and a later restart (the node marking meanwhile) replays it.
    let outage = restored.outage.expect("the outage's credit, to store");
    assert_eq!(
        (outage.seq, outage.ms),
        (2, 50_000),
        "after the two bots' calls"
    );
    g.store.put_outage(g.no, outage).await.unwrap();
    advance(1_000).await;
    let row = marked_row(&g, now + 1_000).await;
    let again = Table::restore_from(row, g.store.clone(), g.limits.clone(), origin).unwrap();
    assert_eq!(
        again
            .snapshot(Viewer::Spectator)
            .turn
            .clock
            .unwrap()
            .deadline,
        view.deadline,
        "the outage is credited once"
    );
    assert!(again.outage.is_none());
}

#[tokio::test(start_paused = true)]
async fn the_autopilot_s_moves_are_on_every_clock_of_the_deal_and_in_a_snapshot() {
    watchdog(120);
    let _hold = hold_time();
    let mut g = game("piloted").await;
    let first = next_batch(&mut g.rx).await;
    let mut b = first;
    while b.turn.to_act != Some(Seat(0)) {
        b = next_batch(&mut g.rx).await;
    }
    let before = b.turn.clock.as_ref().unwrap().piloted.clone();
    assert!(before.is_empty(), "nobody was piloted yet");
    let (_, next) = times_out(&mut g, &b).await;
    // The next turn's clock (the bots' or hers) says so, and so does the snapshot of a page
    // that opens the table afterwards (here a restored table's, which replays the mark).
    assert_eq!(next.turn.clock.as_ref().unwrap().piloted, vec![Seat(0)]);
    let row = g.store.table(g.no).await.unwrap().unwrap();
    let restored = Table::restore(row, g.store.clone(), g.limits.clone()).unwrap();
    let snap = restored.snapshot(Viewer::Seat(Seat(0)));
    assert_eq!(snap.turn.clock.unwrap().piloted, vec![Seat(0)]);
}

/// Anna says "I'm back" (`back`) while away.
async fn back(g: &Game, viewer: Viewer, token: Option<Secret>) -> Result<(), TableError> {
    g.handle
        .ask(|reply| Command::Back {
            caller: crate::table::command::Caller { viewer, token },
            reply,
        })
        .await
        .unwrap()
}

#[tokio::test(start_paused = true)]
async fn i_m_back_takes_an_away_seat_off_the_autopilot_before_its_next_turn() {
    watchdog(120);
    let _hold = hold_time();
    let mut g = game("back").await;
    // Not away yet: "back" changes nothing and tells nobody.
    let mut b = next_batch(&mut g.rx).await;
    back(&g, Viewer::Seat(Seat(0)), Some(g.anna))
        .await
        .expect("a seat that is not away may say so");
    // Two timeouts in a row put Anna away.
    let mut timeouts = 0;
    while timeouts < 2 {
        assert!(!b.finished, "the deal lasted two of Anna's turns");
        if b.turn.to_act == Some(Seat(0)) {
            b = times_out(&mut g, &b).await.1;
            timeouts += 1;
        } else {
            b = next_batch(&mut g.rx).await;
        }
    }
    let info = g.handle.ask(Command::Summary).await.unwrap().clock.unwrap();
    assert_eq!(info.away, vec![Seat(0)], "away after two timeouts");
    // A spectator and a token that does not hold the seat are refused, and nothing changes.
    assert_eq!(
        back(&g, Viewer::Spectator, None).await,
        Err(TableError::NotSeated)
    );
    assert_eq!(
        back(&g, Viewer::Seat(Seat(0)), Some(Secret::random())).await,
        Err(TableError::SeatLost)
    );
    assert_eq!(
        g.handle
            .ask(Command::Summary)
            .await
            .unwrap()
            .clock
            .unwrap()
            .away,
        vec![Seat(0)]
    );
    // "I'm back": at once, every viewer is told, and the summary shows nobody away.
    back(&g, Viewer::Seat(Seat(0)), Some(g.anna))
        .await
        .expect("back");
    let told = loop {
        let item = g.rx.recv().await.expect("the table goes on");
        match &item.news {
            News::Public(Public::ClockBack { seat }) => break *seat,
            News::Public(Public::DealFinished { .. }) => b.finished = true,
            News::Public(_) | News::Deal { .. } => {}
        }
        if let Some(turn) = &item.turn {
            b.turn = turn.clone();
        }
    };
    assert_eq!(told, 0, "clock_back names Anna's seat");
    let info = g.handle.ask(Command::Summary).await.unwrap().clock.unwrap();
    assert!(info.away.is_empty(), "nobody is away");
    if b.finished {
        return;
    }
    if b.turn.to_act == Some(Seat(0)) {
        // Her turn was already running: the autopilot's short wait passes and nothing moves.
        advance(clock::AWAY_MOVE_MS).await;
        settle().await;
        assert!(
            g.rx.try_recv().is_err(),
            "no autopilot move after she came back"
        );
        return;
    }
    // Her next turn has the whole allowance (her bank is spent), not the autopilot's
    // short wait.
    while !b.finished && b.turn.to_act != Some(Seat(0)) {
        b = next_batch(&mut g.rx).await;
    }
    if !b.finished {
        assert_eq!(allowed(&b.turn), u64::from(blitz().per_move) * 1_000);
        assert!(allowed(&b.turn) > clock::AWAY_MOVE_MS);
    }
}
