//! R6.7, clause by clause: who the players of a deal are, when a claim may be made, the
//! claimer's hand face up, answers clockwise, accept ends the deal and is scored as if
//! played, a reject lets play go on, and nothing checks a claim against the cards.
#![allow(missing_docs)]

use pref_core::error::Verb;
use pref_core::{
    Action, Answer, Claim, ClaimRoom, Deal, Defence, Event, Game, Profile, RuleError, Seat, Stage,
    Viewer, WhistCall,
};

mod common;

use common::{WORKED_AUCTION, WORKED_HANDS, WORKED_TALON, bid, cards, profile, run, worked_hands};

fn set(s: &str) -> pref_core::CardSet {
    cards(s).into_iter().collect()
}

fn play(c: &str) -> Action {
    Action::Play(c.parse().unwrap())
}

fn claim(entries: &[u8]) -> Action {
    Action::Claim(Claim::new(entries).unwrap())
}

const ACCEPT: Action = Action::Answer(Answer::Accept);
const REJECT: Action = Action::Answer(Answer::Reject);

/// Refused by R6.7, and the deal unchanged.
fn refused(d: &mut Deal, seat: u8, a: Action) -> RuleError {
    let e = common::refused(d, seat, a);
    assert_eq!(e.rule(), Some("R6.7"), "{e}");
    e
}

/// The worked deal's cards under `p`, dealer seat 2.
fn dealt(p: &Profile) -> Deal {
    Deal::from_hands(p, Seat(2), &worked_hands(), &cards(WORKED_TALON), 0).unwrap()
}

/// The worked deal (dealer seat 2) under `p`, up to A's (seat 0) 7♥ and the given whists.
fn worked(p: &Profile, whists: &[(u8, WhistCall)]) -> Deal {
    let mut d = dealt(p);
    for &(s, c) in &WORKED_AUCTION {
        run(&mut d, &[(s, bid(c))]);
    }
    run(
        &mut d,
        &[
            (0, Action::Discard(set("♣7 ♦8"))),
            (0, Action::Declare("7H".parse().unwrap())),
        ],
    );
    for &(s, w) in whists {
        run(&mut d, &[(s, Action::Whist(w))]);
    }
    d
}

/// Both defenders whist: closed play, all three are players of the deal.
fn closed() -> Deal {
    worked(
        &Profile::sochi(),
        &[(1, WhistCall::Whist), (2, WhistCall::Whist)],
    )
}

/// The worked deal's ten tricks, as (leader, cards).
const TRICKS: [(u8, &str); 10] = [
    (0, "♥A ♥7 ♥8"),
    (0, "♥K ♥9 ♠8"),
    (0, "♠7 ♠A ♠9"),
    (1, "♣A ♣10 ♣8"),
    (1, "♦Q ♦7 ♦A"),
    (0, "♥Q ♠K ♣Q"),
    (0, "♦K ♦10 ♦9"),
    (0, "♣9 ♣K ♣J"),
    (1, "♠Q ♠J ♥J"),
    (0, "♥10 ♦J ♠10"),
];

fn play_tricks(d: &mut Deal, tricks: &[(u8, &str)]) {
    for &(leader, cs) in tricks {
        let mut seat = Seat(leader);
        for c in cards(cs) {
            d.apply(seat, Action::Play(c)).unwrap();
            seat = d.next_seat(seat);
        }
    }
}

#[test]
fn r6_7_players_of_the_deal_in_closed_play_are_all_three() {
    let d = closed();
    for s in 0..3 {
        assert_eq!(
            d.claim_room(Seat(s)),
            Some(ClaimRoom {
                tricks_left: 10,
                seats: 3,
                dealer: None
            })
        );
    }
    // One whister, closed: the passer plays his own hand and is a player too.
    let mut d = worked(
        &Profile::sochi(),
        &[(1, WhistCall::Whist), (2, WhistCall::Pass)],
    );
    run(&mut d, &[(1, Action::Defence(Defence::Closed))]);
    assert!((0..3).all(|s| d.claim_room(Seat(s)).is_some()));
}

#[test]
fn r6_7_in_open_play_the_lone_whister_claims_and_answers_not_the_passer() {
    let mut d = worked(
        &Profile::sochi(),
        &[(1, WhistCall::Pass), (2, WhistCall::Whist)],
    );
    run(&mut d, &[(2, Action::Defence(Defence::Open))]);
    assert_eq!(
        refused(&mut d, 1, claim(&[7, 3, 0])),
        RuleError::ClaimNotPlayer(Seat(1))
    );
    assert_eq!(d.claim_room(Seat(1)), None);
    // The declarer claims; the whister, not the passer, answers.
    let ev = d.apply(Seat(0), claim(&[8, 1, 1])).unwrap();
    assert_eq!(
        ev[0],
        Event::Claimed {
            seat: Seat(0),
            claim: Claim::new(&[8, 1, 1]).unwrap()
        }
    );
    assert_eq!(d.to_act(), Some(Seat(2)));
    assert_eq!(
        refused(&mut d, 1, ACCEPT),
        RuleError::AnswerOutOfTurn {
            seat: Seat(1),
            expected: Seat(2)
        }
    );
    d.apply(Seat(2), ACCEPT).unwrap();
    assert!(d.is_finished());
    assert_eq!(d.outcome().unwrap().tricks, Some([8, 1, 1, 0]));
}

#[test]
fn r6_7_a_four_player_dealer_who_took_the_defence_over_claims_and_his_entry_is_0() {
    let p = Profile::preset("sochi4").unwrap();
    let hands = vec![
        cards(WORKED_HANDS[0]),
        cards(WORKED_HANDS[1]),
        cards(WORKED_HANDS[2]),
        vec![],
    ];
    let mut d = Deal::from_hands(&p, Seat(3), &hands, &cards(WORKED_TALON), 0).unwrap();
    run(
        &mut d,
        &[
            (0, bid("6S")),
            (1, bid("pass")),
            (2, bid("pass")),
            (0, Action::Discard(set("♣7 ♦8"))),
            (0, Action::Declare("6S".parse().unwrap())),
            (1, Action::Whist(WhistCall::Pass)),
            (2, Action::Whist(WhistCall::Pass)),
            (3, Action::Whist(WhistCall::Whist)),
        ],
    );
    assert_eq!(d.stage(), Stage::Play);
    for s in [1, 2] {
        assert_eq!(
            refused(&mut d, s, claim(&[6, 2, 2, 0])),
            RuleError::ClaimNotPlayer(Seat(s))
        );
    }
    assert_eq!(
        refused(&mut d, 3, claim(&[6, 2, 0, 2])),
        RuleError::ClaimDealerEntry(Seat(3))
    );
    assert_eq!(
        refused(&mut d, 3, claim(&[6, 2, 2])),
        RuleError::ClaimSeats { given: 3, seats: 4 }
    );
    assert_eq!(
        d.claim_room(Seat(3)),
        Some(ClaimRoom {
            tricks_left: 10,
            seats: 4,
            dealer: Some(Seat(3))
        })
    );
    // The dealer holds no cards: nothing more opens; the declarer answers.
    let ev = d.act(Seat(3), claim(&[6, 2, 2, 0])).unwrap();
    assert_eq!(ev.len(), 1);
    assert_eq!(d.to_act(), Some(Seat(0)));
    d.act(Seat(0), ACCEPT).unwrap();
    assert_eq!(d.outcome().unwrap().tricks, Some([6, 2, 2, 0]));
}

#[test]
fn r6_7_no_claim_when_the_table_plays_without_claims() {
    let p = profile(serde_json::json!({"preset": "sochi", "claims": false}));
    let mut d = worked(&p, &[(1, WhistCall::Whist), (2, WhistCall::Whist)]);
    assert_eq!(refused(&mut d, 0, claim(&[10, 0, 0])), RuleError::ClaimsOff);
    assert_eq!(d.claim_room(Seat(0)), None);
    assert_eq!(d.legal_actions(Seat(0)).claim(), None);
}

#[test]
fn r6_7_no_claim_in_raspasy_nor_before_play() {
    let mut d = dealt(&Profile::sochi());
    let e = d.apply(Seat(0), claim(&[10, 0, 0])).unwrap_err();
    assert_eq!(
        e,
        RuleError::WrongStage {
            verb: Verb::Claim,
            stage: Stage::Auction
        }
    );
    run(
        &mut d,
        &[(0, bid("pass")), (1, bid("pass")), (2, bid("pass"))],
    );
    assert!(d.is_raspasy());
    assert_eq!(
        refused(&mut d, 0, claim(&[0, 5, 5])),
        RuleError::ClaimInRaspasy
    );
    assert_eq!(d.legal_actions(Seat(0)).claim(), None);
}

#[test]
fn r6_7_only_at_a_trick_boundary_the_first_lead_included() {
    let mut d = closed();
    assert!(d.claim_room(Seat(1)).is_some());
    run(&mut d, &[(0, play("♥A"))]);
    assert_eq!(
        refused(&mut d, 1, claim(&[7, 3, 0])),
        RuleError::ClaimMidTrick
    );
    assert_eq!(d.claim_room(Seat(0)), None);
    run(&mut d, &[(1, play("♥7")), (2, play("♥8"))]);
    assert_eq!(d.claim_room(Seat(2)).unwrap().tricks_left, 9);
    assert_eq!(
        refused(&mut d, 2, claim(&[7, 3, 0])),
        RuleError::ClaimTotal { given: 10, left: 9 }
    );
    assert_eq!(
        refused(&mut d, 2, claim(&[6, 3, 0, 0])),
        RuleError::ClaimSeats { given: 4, seats: 3 }
    );
    d.apply(Seat(2), claim(&[6, 3, 0])).unwrap();
}

#[test]
fn r6_7_one_claim_per_player_per_trick_boundary() {
    let mut d = closed();
    run(&mut d, &[(0, claim(&[10, 0, 0])), (1, REJECT)]);
    assert_eq!(
        refused(&mut d, 0, claim(&[9, 1, 0])),
        RuleError::ClaimRepeated(Seat(0))
    );
    assert_eq!(d.claim_room(Seat(0)), None);
    // Another player may still claim at this boundary, and the claimer at the next one.
    run(&mut d, &[(1, claim(&[5, 5, 0])), (2, REJECT)]);
    assert_eq!(
        refused(&mut d, 1, claim(&[5, 5, 0])),
        RuleError::ClaimRepeated(Seat(1))
    );
    play_tricks(&mut d, &TRICKS[..1]);
    d.apply(Seat(0), claim(&[9, 0, 0])).unwrap();
}

#[test]
fn r6_7_while_a_claim_is_pending_nobody_plays_or_claims() {
    let mut d = closed();
    run(&mut d, &[(1, claim(&[6, 4, 0]))]);
    assert_eq!(refused(&mut d, 0, play("♥A")), RuleError::ClaimPending);
    assert_eq!(
        refused(&mut d, 2, claim(&[7, 3, 0])),
        RuleError::ClaimPending
    );
    assert_eq!(d.claim_room(Seat(0)), None);
    // The player to act is the one who answers next; he may only answer.
    assert_eq!(d.to_act(), Some(Seat(2)));
    assert_eq!(d.turn(), Some(Seat(2)));
    let legal = d.legal_actions_for(Seat(2));
    assert_eq!(legal.to_vec(), vec![ACCEPT, REJECT]);
    assert_eq!(legal.claim(), None);
    assert!(d.legal_actions_for(Seat(0)).to_vec().is_empty());
    assert_eq!(
        d.act(Seat(0), play("♥A")).unwrap_err(),
        RuleError::ClaimPending
    );
    assert_eq!(
        d.act(Seat(2), play("♥8")).unwrap_err(),
        RuleError::ClaimPending
    );
}

#[test]
fn r6_7_answers_go_clockwise_from_the_claimers_left() {
    let mut d = closed();
    assert_eq!(refused(&mut d, 2, ACCEPT), RuleError::NoClaim);
    run(&mut d, &[(1, claim(&[6, 4, 0]))]);
    for (s, expected) in [(0, 2), (1, 2)] {
        assert_eq!(
            refused(&mut d, s, ACCEPT),
            RuleError::AnswerOutOfTurn {
                seat: Seat(s),
                expected: Seat(expected)
            }
        );
    }
    run(&mut d, &[(2, ACCEPT)]);
    assert_eq!(d.to_act(), Some(Seat(0)));
    let pending = d.view(Viewer::Spectator).claim.unwrap();
    assert_eq!(pending.seat, Seat(1));
    assert_eq!(pending.accepted, vec![Seat(2)]);
    assert_eq!(pending.to_answer, Some(Seat(0)));
    assert_eq!(
        refused(&mut d, 2, ACCEPT),
        RuleError::AnswerOutOfTurn {
            seat: Seat(2),
            expected: Seat(0)
        }
    );
    run(&mut d, &[(0, ACCEPT)]);
    assert!(d.is_finished());
}

#[test]
fn r6_7_the_claimers_hand_is_face_up_from_the_claim_on() {
    let mut d = closed();
    play_tricks(&mut d, &TRICKS[..2]);
    let hand = d.hand(Seat(0));
    for v in [Viewer::Seat(Seat(1)), Viewer::Spectator] {
        assert_eq!(d.view(v).open_hands[0], None);
    }
    let ev = d.apply(Seat(0), claim(&[7, 1, 0])).unwrap();
    assert!(ev.contains(&Event::HandOpened {
        seat: Seat(0),
        hand
    }));
    for v in [
        Viewer::Seat(Seat(1)),
        Viewer::Seat(Seat(2)),
        Viewer::Spectator,
    ] {
        assert_eq!(d.view(v).open_hands[0], Some(hand));
        assert_eq!(d.view(v).open_hands[1], None);
    }
    // A reject: it stays face up, card by card, to the end of the deal.
    run(&mut d, &[(1, REJECT)]);
    play_tricks(&mut d, &TRICKS[2..3]);
    let spectator = d.view(Viewer::Spectator);
    assert_eq!(
        spectator.open_hands[0],
        Some(hand.without("♠7".parse().unwrap()))
    );
    assert_eq!(spectator.claim, None);
}

#[test]
fn r6_7_a_reject_lapses_the_claim_at_once_and_play_goes_on_from_the_same_position() {
    let mut d = closed();
    play_tricks(&mut d, &TRICKS[..3]);
    let before = d;
    run(&mut d, &[(1, claim(&[5, 2, 0]))]);
    let ev = d.apply(Seat(2), REJECT).unwrap();
    assert_eq!(
        ev.to_vec(),
        vec![Event::Answered {
            seat: Seat(2),
            answer: Answer::Reject
        }]
    );
    // Seat 0 never answers: the claim is gone.
    assert_eq!(refused(&mut d, 0, ACCEPT), RuleError::NoClaim);
    assert_eq!(d.to_act(), before.to_act());
    assert_eq!(
        d.legal_actions(Seat(1)).to_vec(),
        before.legal_actions(Seat(1)).to_vec()
    );
    play_tricks(&mut d, &TRICKS[3..]);
    assert_eq!(d.outcome(), {
        let mut rest = before;
        play_tricks(&mut rest, &TRICKS[3..]);
        rest.outcome()
    });
}

#[test]
fn r6_7_all_accept_ends_the_deal_scored_exactly_as_if_played() {
    // The worked deal ends 7–3–0. Claiming the same split of the rest at any boundary
    // gives the same outcome and the same score sheet.
    let mut played = closed();
    play_tricks(&mut played, &TRICKS);
    let sheet_of = |steps: &[(u8, Action)]| {
        let mut g = Game::new(Profile::sochi(), Seat(2)).unwrap();
        g.start_deal_from_hands(&worked_hands(), &cards(WORKED_TALON))
            .unwrap();
        for &(s, a) in steps {
            g.apply(Seat(s), a).unwrap();
        }
        assert!(g.deal().is_none(), "the deal ended");
        g.sheet().clone()
    };
    let mut prefix: Vec<(u8, Action)> = WORKED_AUCTION.iter().map(|&(s, c)| (s, bid(c))).collect();
    prefix.extend([
        (0, Action::Discard(set("♣7 ♦8"))),
        (0, Action::Declare("7H".parse().unwrap())),
        (1, Action::Whist(WhistCall::Whist)),
        (2, Action::Whist(WhistCall::Whist)),
    ]);
    let mut all = prefix.clone();
    let mut d = closed();
    for &(leader, cs) in &TRICKS {
        let mut seat = Seat(leader);
        for c in cards(cs) {
            all.push((seat.0, Action::Play(c)));
            d.apply(seat, Action::Play(c)).unwrap();
            seat = d.next_seat(seat);
        }
    }
    let full = sheet_of(&all);
    for k in 0..10 {
        let mut d = closed();
        play_tricks(&mut d, &TRICKS[..k]);
        let taken = d.tricks_taken();
        let final_tricks = played.tricks_taken();
        let rest: Vec<u8> = (0..3).map(|s| final_tricks[s] - taken[s]).collect();
        run(&mut d, &[(2, claim(&rest)), (0, ACCEPT)]);
        let ev = d.apply(Seat(1), ACCEPT).unwrap();
        assert!(ev.contains(&Event::ClaimAccepted {
            tricks: [7, 3, 0, 0]
        }));
        assert!(ev.contains(&Event::DealOver));
        assert!(d.is_finished());
        assert_eq!(d.outcome(), played.outcome(), "claim after {k} tricks");
        assert_eq!(d.completed_tricks().len(), k);
        let mut steps = all[..prefix.len() + 3 * k].to_vec();
        steps.extend([(2, claim(&rest)), (0, ACCEPT), (1, ACCEPT)]);
        assert_eq!(sheet_of(&steps), full, "claim after {k} tricks");
    }
}

#[test]
fn r6_7_a_claim_is_not_checked_against_the_cards_and_stands_once_accepted() {
    // The declarer holds the top trumps, yet claims none of the rest: all accept.
    let mut d = closed();
    run(&mut d, &[(0, claim(&[0, 5, 5])), (1, ACCEPT), (2, ACCEPT)]);
    let o = d.outcome().unwrap();
    assert_eq!(o.tricks, Some([0, 5, 5, 0]));
    assert_eq!(o.made(), Some(false));
    let view = d.view(Viewer::Seat(Seat(1)));
    let accepted = view.claim.unwrap();
    assert_eq!((accepted.seat, accepted.to_answer), (Seat(0), None));
    assert_eq!(accepted.accepted, vec![Seat(1), Seat(2)]);
    assert_eq!(view.tricks_taken, vec![0, 5, 5]);
}

#[test]
fn r6_7_misere_claims_and_r6_5_still_opens_the_defenders_after_the_declarers_lead() {
    // A (first hand) plays misère: a claim before his lead opens only his own hand; when
    // it is rejected and he leads, the defenders' hands open as R6.5 says.
    let mut d = dealt(&Profile::sochi());
    run(
        &mut d,
        &[
            (0, bid("misere")),
            (1, bid("pass")),
            (2, bid("pass")),
            (0, Action::Discard(set("♥A ♥K"))),
        ],
    );
    assert_eq!(d.open_seats(), 0);
    run(&mut d, &[(0, claim(&[0, 5, 5]))]);
    assert_eq!(d.open_seats(), 0b001);
    run(&mut d, &[(1, REJECT)]);
    let ev = d.apply(Seat(0), play("♠7")).unwrap();
    assert!(ev.contains(&Event::HandOpened {
        seat: Seat(2),
        hand: set(WORKED_HANDS[2])
    }));
    assert_eq!(d.open_seats(), 0b111);
    // A misère defender claims at the next boundary; all accept: the declarer takes one.
    play_tricks_from(&mut d, Seat(1), "♠A ♠8");
    let leader = d.to_act().unwrap();
    let t = d.tricks_taken();
    assert_eq!(t.iter().sum::<u8>(), 1);
    d.apply(Seat(2), claim(&[1, 4, 4])).unwrap();
    let mut s = Seat(0);
    while !d.is_finished() {
        d.apply(s, ACCEPT).unwrap();
        s = if s == Seat(0) { Seat(1) } else { Seat(0) };
    }
    assert_eq!(leader, Seat(1));
    let o = d.outcome().unwrap();
    assert_eq!(o.tricks, Some([1, 5, 4, 0]));
    assert_eq!(o.made(), Some(false));
}

/// Plays the rest of the current trick from `seat`.
fn play_tricks_from(d: &mut Deal, mut seat: Seat, cs: &str) {
    for c in cards(cs) {
        d.apply(seat, Action::Play(c)).unwrap();
        seat = d.next_seat(seat);
    }
}
