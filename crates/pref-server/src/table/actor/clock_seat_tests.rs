//! The clock at a running table, continued: the record's time used and autopilot marks, a
//! claim answer that times out (R6.7), and a person the host seats in a vanished player's
//! seat. Same virtual time as the tests around it.

use pref_core::{Action, Answer, Claim, Event, Record};

use super::*;
use crate::table::command::Start;

/// What the spectator saw up to the next turn: the deal events, the turn, and whether the
/// deal finished.
struct Seen {
    events: Vec<Event>,
    turn: Turn,
    finished: bool,
}

async fn next_seen(rx: &mut broadcast::Receiver<Arc<Stamped>>) -> Seen {
    let mut events = Vec::new();
    let mut finished = false;
    loop {
        let item = rx.recv().await.expect("the table goes on");
        match &item.news {
            News::Deal { event, .. } => events.push(*event),
            News::Public(Public::DealFinished { .. }) => finished = true,
            News::Public(_) => {}
        }
        if let Some(turn) = &item.turn {
            return Seen {
                events,
                turn: turn.clone(),
                finished,
            };
        }
    }
}

async fn act(g: &Game, seat: Seat, token: Secret, action: Action) -> Result<(), TableError> {
    let version = g.handle.ask(Command::Summary).await.unwrap().version;
    g.handle
        .ask(|reply| Command::Act {
            seat,
            token,
            version,
            action,
            reply,
        })
        .await
        .unwrap()
        .map(|_| ())
}

#[tokio::test(start_paused = true)]
async fn the_record_marks_the_autopilots_moves_with_the_time_each_took() {
    watchdog(120);
    let _hold = hold_time();
    let mut g = game("record").await;
    let first = next_batch(&mut g.rx).await;
    let waits = never_acting(&mut g, first).await;
    host_op(&g.handle, g.host, HostRequest::End).await.unwrap();
    let text = g.handle.ask(Command::Record).await.unwrap().unwrap();
    // The record reads back (as `pref replay` reads it) with its clock fields.
    let record = Record::from_json_str(&text).expect("the record reads");
    let times = record
        .timing(0)
        .expect("a clocked table's record has times");
    // Exactly Anna's timed-out moves are the autopilot's, each with the time it waited;
    // the bots, which act at once, used no (virtual) time.
    let auto: Vec<u64> = times
        .iter()
        .filter(|t| t.auto)
        .filter_map(|t| t.ms)
        .collect();
    assert_eq!(auto, waits);
    assert_eq!(times.iter().filter(|t| t.auto).count(), waits.len());
    assert!(
        times.iter().filter(|t| !t.auto).all(|t| t.ms == Some(0)),
        "{times:?}"
    );
    assert_eq!(
        text.matches("\"auto\": true").count(),
        waits.len(),
        "{text}"
    );
    // Loaded again from the database, the finished table's stored times give the same
    // record.
    let row = g.store.finished(&g.id).await.unwrap().unwrap();
    let restored = Table::restore(row, g.store.clone(), g.limits.clone()).unwrap();
    assert_eq!(restored.machine.record(&restored.times).unwrap(), text);
}

#[tokio::test(start_paused = true)]
async fn r6_7_a_claim_answer_that_times_out_is_a_reject() {
    watchdog(300);
    let _hold = hold_time();
    let mut g = game_of("claim", 2).await;
    let people = [Seat(0), Seat(1)];
    let mut seen = next_seen(&mut g.rx).await;
    let mut deals = 0;
    loop {
        if seen.finished {
            deals += 1;
            assert!(deals < 40, "no claim came up in {deals} deals");
            act_next_deal_as(&g, g.anna).await;
            seen = next_seen(&mut g.rx).await;
            continue;
        }
        let turn = &seen.turn;
        let pending = turn.deal.as_ref().and_then(|d| d.claim.as_ref());
        let answering = turn.to_act.filter(|s| people.contains(s));
        if let (Some(_), Some(seat)) = (pending, answering) {
            // A person's answer is due: nothing happens before the deadline, and at it the
            // autopilot rejects, the claim lapses and play goes on.
            assert!(turn.legal.contains(&Action::Answer(Answer::Reject)));
            let wait = allowed(turn);
            advance(wait - 1).await;
            settle().await;
            assert!(g.rx.try_recv().is_err(), "the answer waits for the clock");
            advance(1).await;
            let after = next_seen(&mut g.rx).await;
            assert_eq!(after.turn.autopilot, Some(seat));
            assert_eq!(
                after.events,
                vec![Event::Answered {
                    seat,
                    answer: Answer::Reject
                }]
            );
            assert!(!after.finished, "a rejected claim does not end the deal");
            let status = after.turn.deal.as_ref().expect("a deal turn");
            assert_eq!(status.claim, None, "the claim lapsed");
            assert!(
                after
                    .turn
                    .legal
                    .iter()
                    .all(|a| matches!(a, Action::Play(_))),
                "play goes on: {:?}",
                after.turn.legal
            );
            return;
        }
        // Anna claims every trick left wherever both people are players of the deal at a
        // trick boundary, while a person is to act (so no bot's card comes first): Boris, on
        // her left, answers first.
        if pending.is_none()
            && answering.is_some()
            && let [Some(room), Some(_), ..] = turn.claims
        {
            let mut split = vec![0; usize::from(room.seats)];
            split[0] = room.tricks_left;
            let claim = Claim::new(&split).unwrap();
            act(&g, Seat(0), g.anna, Action::Claim(claim))
                .await
                .unwrap();
            seen = next_seen(&mut g.rx).await;
            assert_eq!(seen.turn.to_act, Some(Seat(1)), "Boris answers first");
            continue;
        }
        if answering.is_some() {
            // Nobody of the people acts: the autopilot moves for them.
            advance(allowed(turn)).await;
        }
        seen = next_seen(&mut g.rx).await;
    }
}

#[tokio::test(start_paused = true)]
async fn the_host_seats_another_person_where_a_player_vanished_who_gets_the_seats_view_only() {
    watchdog(120);
    let _hold = hold_time();
    let mut g = game("newcomer").await;
    let first = next_batch(&mut g.rx).await;
    never_acting(&mut g, first).await;
    // Anna timed out all deal and is gone; between deals the host frees her seat (not during
    // a deal: the table refuses) and seats Boris in it.
    present(&g.handle, g.anna, false).await;
    let info = g.handle.ask(Command::Summary).await.unwrap().clock.unwrap();
    assert_eq!(info.away, vec![Seat(0)]);
    host_op(&g.handle, g.host, HostRequest::Remove(0))
        .await
        .unwrap();
    let (seat, boris) = g
        .handle
        .ask(|reply| Command::Claim {
            name: "Boris".into(),
            seat: Some(0),
            host: Some(g.host),
            invite: None,
            account: None,
            reply,
        })
        .await
        .unwrap()
        .unwrap();
    assert_eq!(seat, 0);
    let taken = g.handle.ask(Command::Summary).await.unwrap();
    let info = taken.clock.clone().unwrap();
    assert!(info.away.is_empty(), "the newcomer is not on autopilot");
    // Anna's token holds nothing any more.
    let connect = |token: Option<Secret>, resume| {
        g.handle.ask(move |reply| Command::Connect {
            token,
            resume,
            reply,
        })
    };
    assert!(matches!(
        connect(Some(g.anna), None).await.unwrap(),
        Err(TableError::NotSeated)
    ));
    // Boris gets the seat's picture now, never the items of Anna's tenure: a resume from
    // before his arrival is answered with a snapshot, while a spectator resuming from there
    // gets the items.
    let epoch = match connect(None, None).await.unwrap().unwrap().start {
        Start::Snapshot(s) => s.epoch,
        Start::Missed(_) => panic!("a fresh spectator gets a snapshot"),
    };
    let v = taken.version;
    let resume = |since: u64| Some((since, epoch.clone()));
    match connect(Some(boris), resume(v - 1))
        .await
        .unwrap()
        .unwrap()
        .start
    {
        Start::Snapshot(s) => assert_eq!(s.you, Viewer::Seat(Seat(0))),
        Start::Missed(items) => panic!("{} items of Anna's tenure replayed", items.len()),
    }
    match connect(None, resume(v - 1)).await.unwrap().unwrap().start {
        Start::Missed(items) => assert!(!items.is_empty()),
        Start::Snapshot(_) => panic!("the spectator's items were kept"),
    }
    match connect(Some(boris), resume(v))
        .await
        .unwrap()
        .unwrap()
        .start
    {
        Start::Missed(items) => assert!(items.is_empty()),
        Start::Snapshot(_) => panic!("Boris resumes within his own tenure"),
    }
    present(&g.handle, boris, true).await;
    // His first turn of the next deal has the allowance and the seat's bank, not the
    // autopilot's short wait, and his own move is his.
    act_next_deal_as(&g, boris).await;
    let mut b = next_batch(&mut g.rx).await;
    while b.turn.to_act != Some(Seat(0)) {
        b = next_batch(&mut g.rx).await;
    }
    let clock = b.turn.clock.clone().unwrap();
    assert_eq!(allowed(&b.turn), 10_000 + clock.banks[0]);
    assert_ne!(allowed(&b.turn), clock::AWAY_MOVE_MS);
    let action = b.turn.legal[0];
    act(&g, Seat(0), boris, action).await.unwrap();
    assert_eq!(next_batch(&mut g.rx).await.turn.autopilot, None);
    assert!(matches!(
        act(&g, Seat(0), g.anna, action).await,
        Err(TableError::SeatLost)
    ));
}

/// The person with `token` in seat 0 asks for the next deal.
async fn act_next_deal_as(g: &Game, token: Secret) {
    let version = g.handle.ask(Command::Summary).await.unwrap().version;
    g.handle
        .ask(|reply| Command::NextDeal {
            seat: Seat(0),
            token,
            version,
            reply,
        })
        .await
        .unwrap()
        .unwrap();
}
