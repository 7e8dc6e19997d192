//! Dark games (`dark_games`): closed hands and the look (R2.3), the dark call (R3.9), the
//! dark deal (R3.9.1), the dark misère (R4.7.1) and the deal multiplier (R8.11), with the
//! numbered examples 1–6 and 11 of the rules as tests with their exact values.
#![allow(missing_docs)]

mod common;

use common::{bid, cards, game, misere, run, surrender, worked_hands};
use pref_core::{
    Action, Bid, Call, Deal, Event, Game, Outcome, OutcomeKind, Profile, RuleError, Seat, Stage,
    ViewEvent, Viewer,
};
use serde_json::json;

fn dark_profile() -> Profile {
    common::profile(json!({"preset": "sochi", "dark_games": true}))
}

fn both_profile() -> Profile {
    common::profile(json!({"preset": "sochi", "dark_games": true, "misere_without_talon": true}))
}

/// The worked deal's hands (dealer 2, first hand 0) under `p`.
fn deal(p: &Profile) -> Deal {
    Deal::from_hands(p, Seat(2), &worked_hands(), &cards(common::WORKED_TALON), 0).unwrap()
}

fn dark(s: &str) -> Action {
    Action::Dark(s.parse().unwrap())
}

/// Scores `o` as the first deal of a game under `p` (dealer 2).
fn scored(p: &Profile, o: Outcome) -> Game {
    let mut g = Game::new(p.clone(), Seat(2)).unwrap();
    g.record_outcome(o).unwrap();
    g
}

fn dark_outcome(mut o: Outcome) -> Outcome {
    o.dark = true;
    o
}

fn with_defence(mut o: Outcome, d: pref_core::Defence) -> Outcome {
    if let OutcomeKind::Game { defence, .. } = &mut o.kind {
        *defence = Some(d);
    }
    o
}

#[test]
fn example_1_r8_11_dark_seven_made_is_doubled() {
    let p = dark_profile();
    let g = scored(&p, dark_outcome(game(3, 2, 0, "7H", "- w w", &[7, 2, 1])));
    assert_eq!(g.sheet().pool(), [8, 0, 0]);
    assert_eq!(g.sheet().whists(Seat(1), Seat(0)), 16);
    assert_eq!(g.sheet().whists(Seat(2), Seat(0)), 8);
    // In the light: 4, 8, 4.
    let light = scored(&p, game(3, 2, 0, "7H", "- w w", &[7, 2, 1]));
    assert_eq!(light.sheet().pool(), [4, 0, 0]);
    assert_eq!(light.sheet().whists(Seat(1), Seat(0)), 8);
    assert_eq!(light.sheet().whists(Seat(2), Seat(0)), 4);
}

#[test]
fn example_1_played_a_dark_six_named_seven_is_a_dark_deal() {
    let mut d = deal(&dark_profile());
    run(
        &mut d,
        &[(0, dark("6S")), (1, bid("pass")), (2, bid("pass"))],
    );
    assert!(d.is_dark(), "R3.9.1: the declarer's first call was dark");
    // R4.7: talon, discard and contract as usual, not below the winning bid.
    assert_eq!(d.talon_shown(), 2);
    let discard: pref_core::CardSet = cards("♣8 ♣7").into_iter().collect();
    run(&mut d, &[(0, Action::Discard(discard))]);
    run(&mut d, &[(0, Action::Declare("7H".parse().unwrap()))]);
    assert_eq!(d.stage(), Stage::Whist);
}

#[test]
fn example_2_r8_11_dark_seven_failed_doubles_remise_and_whists() {
    let g = scored(
        &dark_profile(),
        dark_outcome(game(3, 2, 0, "7H", "- w w", &[6, 3, 1])),
    );
    assert_eq!(g.sheet().mountain(), [8, 0, 0]);
    assert_eq!(g.sheet().whists(Seat(1), Seat(0)), 32);
    assert_eq!(g.sheet().whists(Seat(2), Seat(0)), 16);
}

#[test]
fn example_3_r8_11_dark_six_lone_whister_shortfall_doubled() {
    let o = with_defence(
        dark_outcome(game(3, 2, 0, "6S", "- w p", &[7, 2, 1])),
        pref_core::Defence::Closed,
    );
    let g = scored(&dark_profile(), o);
    assert_eq!(g.sheet().pool(), [4, 0, 0]);
    assert_eq!(g.sheet().whists(Seat(1), Seat(0)), 12);
    assert_eq!(g.sheet().mountain(), [0, 4, 0]);
}

#[test]
fn example_4_r8_11_dark_misere_one_trick_is_twenty() {
    let g = scored(&dark_profile(), dark_outcome(misere(3, 2, 0, &[1, 4, 5])));
    assert_eq!(g.sheet().mountain(), [20, 0, 0]);
}

#[test]
fn example_5_r3_9_1_only_the_declarers_first_call_makes_the_deal_dark() {
    let mut d = deal(&dark_profile());
    // R2.3: B looks while A is still to call; it uses no turn.
    assert!(d.legal_actions(Seat(1)).contains(&Action::Look));
    run(&mut d, &[(1, Action::Look)]);
    assert_eq!(d.turn(), Some(Seat(0)));
    run(&mut d, &[(0, dark("6S"))]);
    // Having looked, B cannot call dark.
    assert_eq!(
        common::refused(&mut d, 1, dark("pass")),
        RuleError::DarkTooLate(Seat(1))
    );
    run(&mut d, &[(1, bid("pass")), (2, dark("6C")), (0, bid("6C"))]);
    run(&mut d, &[(2, bid("pass"))]);
    assert_eq!(d.declarer(), Some(Seat(0)));
    assert!(d.is_dark());
    assert_eq!(d.dark_calls(), 0b101);

    // Had A's first call been in the light and C won, C's dark first call makes it dark.
    let mut d = deal(&dark_profile());
    run(
        &mut d,
        &[
            (0, bid("6S")),
            (1, bid("pass")),
            (2, dark("6C")),
            (0, bid("pass")),
        ],
    );
    assert_eq!(d.declarer(), Some(Seat(2)));
    assert!(d.is_dark());

    // And a dark call by a player who does not win has no effect.
    let mut d = deal(&dark_profile());
    run(
        &mut d,
        &[(0, bid("6S")), (1, dark("pass")), (2, bid("pass"))],
    );
    assert_eq!(d.declarer(), Some(Seat(0)));
    assert!(!d.is_dark());
}

#[test]
fn example_6_r4_5_r8_11_dark_surrender_is_doubled() {
    let p = common::profile(json!({"preset": "sochi", "dark_games": true, "surrender": 3}));
    let g = scored(&p, dark_outcome(surrender(3, 2, 0, "6S")));
    assert_eq!(g.sheet().mountain(), [12, 0, 0]);
    // Played: A calls 6♠ dark, wins, takes the talon and surrenders.
    let mut d = deal(&p);
    run(
        &mut d,
        &[
            (0, dark("6S")),
            (1, bid("pass")),
            (2, bid("pass")),
            (0, Action::Surrender),
        ],
    );
    let o = d.outcome().unwrap();
    assert!(o.dark);
    let g = scored(&p, o);
    assert_eq!(g.sheet().mountain(), [12, 0, 0]);
}

#[test]
fn example_11_r4_7_1_dark_misere_without_talon() {
    let p = both_profile();
    let mut d = deal(&p);
    run(
        &mut d,
        &[
            (0, dark("misere")),
            (1, bid("9S")),
            (2, bid("pass")),
            (0, Action::Bid(Call::Bid(Bid::MISERE_NO_TALON))),
            (1, bid("pass")),
        ],
    );
    assert!(d.is_dark() && d.is_dark_misere() && d.is_no_talon());
    assert_eq!(d.stage(), Stage::Play);
    // R4.7.1: the defenders play closed; nobody sees the talon (R4.6).
    let first = d.legal_actions(Seat(0)).get(0).unwrap();
    let events = d.apply(Seat(0), first).unwrap();
    assert!(
        !events.iter().any(|e| matches!(e, Event::HandOpened { .. })),
        "{events:?}"
    );
    assert_eq!(d.open_seats(), 0);
    for v in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        assert_eq!(d.view(v).talon, [None, None]);
    }
    let mut o = misere(3, 2, 0, &[1, 4, 5]);
    o.dark = true;
    o.no_talon = true;
    let g = scored(&p, o);
    assert_eq!(g.sheet().mountain(), [20, 0, 0]);
}

#[test]
fn r4_7_1_dark_misere_talon_seen_by_the_declarer_alone_defenders_stay_closed() {
    let p = dark_profile();
    let mut d = deal(&p);
    let events = d.apply(Seat(0), dark("misere")).unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Looked { seat: Seat(0), .. }))
    );
    run(&mut d, &[(1, bid("pass"))]);
    let events = d.apply(Seat(2), bid("pass")).unwrap();
    assert!(d.is_dark_misere());
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::TalonTurned { .. }))
    );
    let seen = events
        .iter()
        .find(|e| matches!(e, Event::TalonSeen { .. }))
        .expect("the declarer sees the talon");
    let talon = d.talon();
    assert_eq!(
        seen.project(Viewer::Seat(Seat(0)), 3),
        ViewEvent::TalonSeen {
            seat: Seat(0),
            cards: Some(talon)
        }
    );
    for v in [
        Viewer::Seat(Seat(1)),
        Viewer::Seat(Seat(2)),
        Viewer::Spectator,
    ] {
        assert_eq!(
            seen.project(v, 3),
            ViewEvent::TalonSeen {
                seat: Seat(0),
                cards: None
            }
        );
        assert_eq!(d.view(v).talon, [None, None]);
    }
    assert_eq!(
        d.view(Viewer::Seat(Seat(0))).talon,
        [Some(talon[0]), Some(talon[1])]
    );
    // The declarer discards and leads; no hand opens (an exception to R6.5).
    let discard: pref_core::CardSet = talon.into_iter().collect();
    run(&mut d, &[(0, Action::Discard(discard))]);
    while !d.is_finished() {
        let s = d.turn().unwrap();
        let a = d.legal_actions(s).get(0).unwrap();
        let events = d.apply(s, a).unwrap();
        if !d.is_finished() {
            assert!(!events.iter().any(|e| matches!(e, Event::HandOpened { .. })));
            assert_eq!(d.open_seats(), 0);
        }
    }
    let o = d.outcome().unwrap();
    assert!(o.dark);
    assert!(matches!(o.kind, OutcomeKind::Misere { declarer: Seat(0) }));
}

#[test]
fn r2_3_a_closed_hand_is_not_shown_to_its_owner_before_he_looks() {
    let mut d = deal(&dark_profile());
    let dealt = d.deal_event();
    for s in 0..3 {
        assert_eq!(
            dealt.project(Viewer::Seat(Seat(s)), 3),
            ViewEvent::Dealt {
                dealer: Seat(2),
                hand: None,
                closed: true
            }
        );
        assert_eq!(d.view(Viewer::Seat(Seat(s))).hand, None);
        assert!(!d.looked(Seat(s)));
    }
    let events = d.apply(Seat(1), Action::Look).unwrap();
    let hand = d.hand(Seat(1));
    assert_eq!(
        events[0].project(Viewer::Seat(Seat(1)), 3),
        ViewEvent::Looked {
            seat: Seat(1),
            hand: Some(hand)
        }
    );
    for v in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(2)),
        Viewer::Spectator,
    ] {
        assert_eq!(
            events[0].project(v, 3),
            ViewEvent::Looked {
                seat: Seat(1),
                hand: None
            }
        );
    }
    assert_eq!(d.view(Viewer::Seat(Seat(1))).hand, Some(hand));
    assert_eq!(d.view(Viewer::Seat(Seat(0))).hand, None);
    // A look is irreversible and only once.
    assert_eq!(
        common::refused(&mut d, 1, Action::Look),
        RuleError::AlreadyLooked(Seat(1))
    );
    // A first call in the light implies a look just before it.
    let events = d.apply(Seat(0), bid("6S")).unwrap();
    assert!(matches!(events[0], Event::Looked { seat: Seat(0), .. }));
    assert_eq!(d.view(Viewer::Seat(Seat(0))).hand, Some(d.hand(Seat(0))));
    let view = d.view(Viewer::Spectator).dark.unwrap();
    assert_eq!(view.looked, [true, true, false]);
    assert_eq!(view.calls, [false, false, false]);
}

#[test]
fn r2_3_r3_9_without_dark_games_no_look_and_no_dark_call() {
    let mut d = deal(&Profile::sochi());
    assert!(!d.legal_actions(Seat(0)).contains(&Action::Look));
    assert_eq!(common::refused(&mut d, 0, Action::Look), RuleError::DarkOff);
    assert_eq!(common::refused(&mut d, 0, dark("6S")), RuleError::DarkOff);
    assert_eq!(d.view(Viewer::Seat(Seat(0))).dark, None);
    assert!(d.view(Viewer::Seat(Seat(0))).hand.is_some());
}

#[test]
fn r3_9_dark_calls_are_the_light_calls_of_a_first_call() {
    let mut d = deal(&dark_profile());
    let legal = d.legal_actions(Seat(0)).to_vec();
    assert_eq!(
        legal,
        vec![
            Action::Look,
            bid("pass"),
            bid("6S"),
            bid("misere"),
            dark("pass"),
            dark("6S"),
            dark("misere"),
        ]
    );
    // Seat 1 is not to call, but may look.
    assert_eq!(d.legal_actions(Seat(1)).to_vec(), vec![Action::Look]);
    assert_eq!(d.legal_actions_for(Seat(1)).to_vec(), vec![Action::Look]);
    // A dark call takes the place of the same call in the light: 6♣ dark is not the next step.
    assert!(matches!(
        common::refused(&mut d, 0, dark("6C")),
        RuleError::NotNextStep { .. }
    ));
    run(&mut d, &[(0, dark("6S"))]);
    // After his dark call the player sees his hand; his later calls are in the light.
    assert!(d.looked(Seat(0)));
    run(&mut d, &[(1, bid("6C")), (2, bid("pass"))]);
    assert_eq!(
        common::refused(&mut d, 0, dark("6C")),
        RuleError::DarkTooLate(Seat(0))
    );
    assert!(!d.legal_actions(Seat(0)).contains(&Action::Look));
}

#[test]
fn r3_9_1_raspasy_is_never_dark() {
    let mut d = deal(&dark_profile());
    run(
        &mut d,
        &[(0, dark("pass")), (1, dark("pass")), (2, dark("pass"))],
    );
    assert!(d.is_raspasy());
    assert!(!d.is_dark());
    while !d.is_finished() {
        let s = d.turn().unwrap();
        let a = d.legal_actions(s).get(0).unwrap();
        d.apply(s, a).unwrap();
    }
    assert!(!d.outcome().unwrap().dark);
}

#[test]
fn r8_11_lines_of_a_dark_deal_say_so() {
    let p = dark_profile();
    let mut sheet = pref_core::Sheet::new(3);
    let lines = sheet.record_explained(
        &p,
        &dark_outcome(game(3, 2, 0, "7H", "- w w", &[7, 2, 1])),
        0,
    );
    assert!(!lines.is_empty());
    assert!(lines.iter().all(|l| l.dark), "{lines:?}");
    let text = serde_json::to_value(lines[0]).unwrap();
    assert_eq!(text["dark"], json!(true));
}

#[test]
fn r4_7_1_r6_7_a_claim_in_a_dark_misere_shows_the_claimers_hand_alone() {
    let mut d = deal(&dark_profile());
    run(
        &mut d,
        &[(0, dark("misere")), (1, bid("pass")), (2, bid("pass"))],
    );
    let discard: pref_core::CardSet = d.talon().into_iter().collect();
    run(&mut d, &[(0, Action::Discard(discard))]);
    assert!(d.is_dark_misere());
    // Before the first lead a defender claims: his hand opens for everybody, the other
    // defender's stays closed (R4.7.1, R6.7).
    let claim = pref_core::Claim::new(&[5, 5, 0]).unwrap();
    run(&mut d, &[(1, Action::Claim(claim))]);
    assert_eq!(d.open_seats(), 0b010);
    let view = d.view(Viewer::Spectator);
    assert_eq!(view.open_hands[1], Some(d.hand(Seat(1))));
    assert_eq!(view.open_hands[2], None);
}
