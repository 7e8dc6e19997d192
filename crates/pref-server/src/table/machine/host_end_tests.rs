//! The host's end (`stop.rs`, [`Machine::host_end`]): with no other person at the table it
//! ends the game at once; with other people seated it is the agreed stop's proposal (R10.3)
//! they each answer, made by the host's own seat or, when he holds none, by the host.

use pref_protocol::{Phase, Public, StopProposal, StopVote};

use super::stop_tests::{hosted, vote, votes};
use super::*;

fn end(m: &mut Machine, host: Secret) -> Result<Change, TableError> {
    m.apply(Op::Host {
        host,
        op: HostOp::End,
    })
}

#[test]
fn r10_3_the_hosts_end_alone_with_bots_ends_the_game_at_once() {
    // Anna is the host in seat 0 (claimed with the host token); Boris and Vera are bots.
    let (mut m, _, host) = hosted([false, true, true], [true, false, false]);
    let c = end(&mut m, host).unwrap();
    assert_eq!(m.phase(), Phase::Over);
    assert_eq!(c.writes, vec![Write::Over]);
    let news = votes(&c);
    assert_eq!(news.len(), 1, "no proposal is told: {news:?}");
    assert!(matches!(&news[0], Public::GameOver(s) if s.agreed));
    // A host who holds no seat, at a table of bots only: the same.
    let (mut m, _, host) = hosted([true; 3], [false; 3]);
    end(&mut m, host).unwrap();
    assert_eq!(m.phase(), Phase::Over);
}

#[test]
fn r10_3_the_hosts_end_with_another_person_seated_waits_for_his_answer() {
    // Anna (host, seat 0) and Boris are people, Vera a bot.
    let (mut m, t, host) = hosted([false, false, true], [true, false, false]);
    let c = end(&mut m, host).unwrap();
    assert_eq!(m.phase(), Phase::BetweenDeals);
    assert_eq!(c.writes, vec![]);
    assert_eq!(
        votes(&c),
        vec![Public::StopVote {
            seat: Some(0),
            vote: StopVote::Propose,
            accepted: vec![0, 2]
        }]
    );
    assert_eq!(
        m.summary().stop,
        Some(StopProposal {
            by: Some(0),
            accepted: vec![0, 2]
        })
    );
    // A second end while it stands is refused and changes nothing.
    let before = format!("{m:?}");
    assert_eq!(end(&mut m, host).unwrap_err(), TableError::StopPending);
    assert_eq!(format!("{m:?}"), before);
    // The host's seat needs no answer; Boris's acceptance ends the game by agreement.
    assert_eq!(
        vote(&mut m, 0, t[0], StopVote::Accept).unwrap_err(),
        TableError::StopAnswered
    );
    let c = vote(&mut m, 1, t[1], StopVote::Accept).unwrap();
    assert_eq!(m.phase(), Phase::Over);
    assert_eq!(c.writes, vec![Write::Over]);
}

#[test]
fn r10_3_a_host_without_a_seat_proposes_as_the_host_and_one_decline_goes_on() {
    // The host watches: Anna and Boris are people, Vera a bot.
    let (mut m, t, host) = hosted([false, false, true], [false; 3]);
    let c = end(&mut m, host).unwrap();
    assert_eq!(
        votes(&c),
        vec![Public::StopVote {
            seat: None,
            vote: StopVote::Propose,
            accepted: vec![2]
        }]
    );
    // On the wire the host's proposal has no `by`.
    assert_eq!(
        serde_json::to_value(m.summary().stop).unwrap(),
        serde_json::json!({"accepted": [2]})
    );
    vote(&mut m, 0, t[0], StopVote::Accept).unwrap();
    let c = vote(&mut m, 1, t[1], StopVote::Decline).unwrap();
    assert_eq!(
        votes(&c),
        vec![Public::StopVote {
            seat: Some(1),
            vote: StopVote::Decline,
            accepted: vec![]
        }]
    );
    assert_eq!(m.phase(), Phase::BetweenDeals);
    assert_eq!(m.summary().stop, None);
    // Asked again, both accept: over by agreement.
    end(&mut m, host).unwrap();
    vote(&mut m, 0, t[0], StopVote::Accept).unwrap();
    vote(&mut m, 1, t[1], StopVote::Accept).unwrap();
    assert_eq!(m.phase(), Phase::Over);
}

#[test]
fn only_the_host_token_ends_and_never_during_the_game_over() {
    let (mut m, t, host) = hosted([false, false, true], [true, false, false]);
    assert_eq!(end(&mut m, t[1]).unwrap_err(), TableError::NotHost);
    assert_eq!(m.summary().stop, None);
    end(&mut m, host).unwrap();
    vote(&mut m, 1, t[1], StopVote::Accept).unwrap();
    assert_eq!(end(&mut m, host).unwrap_err(), TableError::Over);
}
