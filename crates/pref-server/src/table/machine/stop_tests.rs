//! The agreed stop (R10.3, `stop.rs`): a seated player proposes, the others are asked, the
//! game ends by agreement only once every seat accepted (a bot at once), one decline ends the
//! proposal, no deal opens while one stands, and a refused vote changes nothing.

use pref_core::{Profile, Seat};
use pref_protocol::{BotLevel, Phase, Public, StopProposal, StopVote};

use super::deal_record_tests::played_with;
use super::*;
use crate::ids::{Secret, TokenHash};

/// Three seats after one finished deal: people with the returned tokens, or a bot where
/// `bots` says so.
fn between_deals(bots: [bool; 3]) -> (Machine, Vec<Secret>) {
    let (m, tokens, _) = hosted(bots, [false; 3]);
    (m, tokens)
}

/// [`between_deals`], with the seats `host` says claimed by the host, and the host token.
pub(super) fn hosted(bots: [bool; 3], host: [bool; 3]) -> (Machine, Vec<Secret>, Secret) {
    let host_token = Secret::random();
    let profile = Profile::from_json(&serde_json::json!("sochi")).unwrap();
    let mut deck: Vec<pref_core::Card> = (0..32).map(pref_core::Card::from_index).collect();
    deck.reverse();
    let deals = played_with(&profile, &[(deck.try_into().unwrap(), true)]);
    let tokens: Vec<Secret> = (0..3).map(|_| Secret::random()).collect();
    let seats = (0..3u8)
        .map(|seat| StoredSeat {
            seat,
            name: ["Anna", "Boris", "Vera"][usize::from(seat)].to_owned(),
            token: TokenHash::of(&tokens[usize::from(seat)]),
            bot: bots[usize::from(seat)].then_some(BotLevel::Easy),
            from_deal: 0,
            host: host[usize::from(seat)],
            bot_account: false,
        })
        .collect();
    let m = Machine::restore(
        NewTable {
            host: TokenHash::of(&host_token),
            invite: TokenHash::of(&crate::ids::TEST_INVITE),
            profile,
            spectator_chat: false,
            first_dealer: Seat(0),
        },
        seats,
        &deals,
        true,
        false,
    )
    .unwrap();
    assert_eq!(m.phase(), Phase::BetweenDeals);
    (m, tokens, host_token)
}

pub(super) fn vote(
    m: &mut Machine,
    seat: u8,
    token: Secret,
    vote: StopVote,
) -> Result<Change, TableError> {
    m.apply(Op::Stop {
        seat: Seat(seat),
        token,
        vote,
    })
}

pub(super) fn votes(change: &Change) -> Vec<Public> {
    change
        .news
        .iter()
        .filter_map(|n| match n {
            News::Public(p @ (Public::StopVote { .. } | Public::GameOver(_))) => Some(p.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn r10_3_the_game_stops_by_agreement_only_once_every_seat_accepted() {
    let (mut m, t) = between_deals([false; 3]);
    // Anna proposes: Boris and Vera are asked; no deal opens meanwhile.
    let c = vote(&mut m, 0, t[0], StopVote::Propose).unwrap();
    assert_eq!(
        votes(&c),
        vec![Public::StopVote {
            seat: Some(0),
            vote: StopVote::Propose,
            accepted: vec![0]
        }]
    );
    assert_eq!(
        m.summary().stop,
        Some(StopProposal {
            by: Some(0),
            accepted: vec![0]
        })
    );
    assert_eq!(
        m.apply(Op::Fair(FairOp::Open {
            opening: Opening::NextDeal {
                seat: Seat(1),
                token: t[1],
                version: m.version(),
            },
            seed: pref_core::fair::Seed::from_bytes([1; 32]),
            window_ms: 1000,
        }))
        .unwrap_err(),
        TableError::StopPending
    );
    // Refused votes change nothing.
    let before = format!("{m:?}");
    assert_eq!(
        vote(&mut m, 1, t[1], StopVote::Propose).unwrap_err(),
        TableError::StopPending
    );
    assert_eq!(
        vote(&mut m, 0, t[0], StopVote::Accept).unwrap_err(),
        TableError::StopAnswered
    );
    assert_eq!(
        vote(&mut m, 2, t[1], StopVote::Accept).unwrap_err(),
        TableError::SeatLost
    );
    assert_eq!(format!("{m:?}"), before);
    // Boris accepts: not over yet. Vera accepts: over by agreement, stored as over.
    vote(&mut m, 1, t[1], StopVote::Accept).unwrap();
    assert_eq!(m.phase(), Phase::BetweenDeals);
    let c = vote(&mut m, 2, t[2], StopVote::Accept).unwrap();
    assert_eq!(m.phase(), Phase::Over);
    assert_eq!(c.writes, vec![Write::Over]);
    let news = votes(&c);
    assert_eq!(news.len(), 2);
    assert!(matches!(&news[1], Public::GameOver(s) if s.agreed));
    assert_eq!(m.summary().stop, None);
}

#[test]
fn r10_3_one_decline_ends_the_proposal_and_the_game_goes_on() {
    let (mut m, t) = between_deals([false; 3]);
    vote(&mut m, 2, t[2], StopVote::Propose).unwrap();
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
    assert_eq!(
        vote(&mut m, 0, t[0], StopVote::Accept).unwrap_err(),
        TableError::NoStop
    );
    // A new proposal may be made.
    assert!(vote(&mut m, 1, t[1], StopVote::Propose).is_ok());
}

#[test]
fn r10_3_bots_accept_at_once_so_a_player_alone_with_bots_stops_by_proposing() {
    let (mut m, t) = between_deals([false, true, true]);
    let c = vote(&mut m, 0, t[0], StopVote::Propose).unwrap();
    assert_eq!(m.phase(), Phase::Over);
    let news = votes(&c);
    assert_eq!(
        news[0],
        Public::StopVote {
            seat: Some(0),
            vote: StopVote::Propose,
            accepted: vec![0, 1, 2]
        }
    );
    assert!(matches!(&news[1], Public::GameOver(s) if s.agreed));
}

#[test]
fn no_stop_is_voted_in_the_lobby_or_after_the_game() {
    let (mut m, t) = between_deals([false; 3]);
    vote(&mut m, 0, t[0], StopVote::Propose).unwrap();
    vote(&mut m, 1, t[1], StopVote::Accept).unwrap();
    vote(&mut m, 2, t[2], StopVote::Accept).unwrap();
    assert_eq!(
        vote(&mut m, 0, t[0], StopVote::Propose).unwrap_err(),
        TableError::Over
    );
}

#[test]
fn r10_3_a_seat_away_on_the_autopilot_accepts_for_its_absent_player() {
    let (mut m, t) = between_deals([false; 3]);
    // No proposal: an away seat changes nothing.
    let before = format!("{m:?}");
    let c = m.apply(Op::AwayAccepts { seat: Seat(2) }).unwrap();
    assert!(votes(&c).is_empty());
    assert_eq!(format!("{m:?}"), before);
    // Anna proposes, Boris accepts; Vera, away, accepts through the actor: the game ends.
    vote(&mut m, 0, t[0], StopVote::Propose).unwrap();
    vote(&mut m, 1, t[1], StopVote::Accept).unwrap();
    let c = m.apply(Op::AwayAccepts { seat: Seat(2) }).unwrap();
    let told = votes(&c);
    assert_eq!(
        told[0],
        Public::StopVote {
            seat: Some(2),
            vote: StopVote::Accept,
            accepted: vec![0, 1, 2]
        }
    );
    assert!(matches!(told[1], Public::GameOver(_)), "{told:?}");
    assert_eq!(m.phase(), Phase::Over);
    assert!(c.writes.contains(&Write::Over));
}
