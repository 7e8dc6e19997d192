//! The house-rule options of `docs/options.md` (R4.5, R5.3, R7.5, R8.2, R8.4, R8.9, R11.2,
//! R11.4, R11.6), each on and off, in the played form (a deal played action by action) and
//! in the outcome form (a deal written by hand and checked), with exact values worked by
//! hand from the rules. Seats: A = 0 (first hand), B = 1, C = 2 (dealer) with three
//! players; with four, D = 3 deals and sits out.
#![allow(missing_docs)]

mod common;

use common::{
    WORKED_AUCTION, WORKED_TALON, bid, cards, game, profile, raspasy, surrender, worked_hands,
};
use pref_core::{
    Action, Card, CardSet, Deal, Event, Game, GameError, OutcomeKind, Profile, Record, RuleError,
    Seat, Stage, SurrenderBar, WhistCall,
};
use serde_json::json;

fn set(s: &str) -> CardSet {
    cards(s).into_iter().collect()
}

fn whist(w: WhistCall) -> Action {
    Action::Whist(w)
}

/// The worked deal (R3.4's auction): A wins 6♥.
fn worked_game(p: &Profile) -> Game {
    let mut g = Game::new(p.clone(), Seat(2)).unwrap();
    g.start_deal_from_hands(&worked_hands(), &cards(WORKED_TALON))
        .unwrap();
    for (s, b) in WORKED_AUCTION {
        g.apply(Seat(s), bid(b)).unwrap();
    }
    g
}

fn deal(g: &Game) -> Deal {
    *g.deal().expect("a deal in progress")
}

/// A refused action: the error, and nothing changed.
fn refused(g: &mut Game, seat: u8, a: Action) -> RuleError {
    let before = deal(g);
    let Err(GameError::Rule(e)) = g.apply(Seat(seat), a) else {
        panic!("{a} by seat {seat} was not refused by a rule");
    };
    assert_eq!(deal(g), before, "a refused {a} changed the deal");
    e
}

/// Writes the game as a record and reads it back: the same record and the same sheet.
fn round_trip(g: &Game) -> String {
    let names: Vec<String> = ["Anna", "Boris", "Vera", "Gleb"]
        [..usize::from(g.profile().players())]
        .iter()
        .map(|n| (*n).to_owned())
        .collect();
    let record = Record::from_game(g, &names).unwrap();
    let text = record.to_json_string();
    let (back, replayed) = Record::read(&text).unwrap();
    assert_eq!(back, record);
    assert_eq!(replayed.sheet(), g.sheet());
    text
}

fn w(g: &Game, a: u8, b: u8) -> i64 {
    g.sheet().whists(Seat(a), Seat(b))
}

fn scored(p: &Profile, dealer: u8, outcomes: &[pref_core::Outcome]) -> Game {
    let mut g = Game::new(p.clone(), Seat(dealer)).unwrap();
    for o in outcomes {
        g.record_outcome(*o).unwrap();
    }
    g
}

fn outcome_error(p: &Profile, dealer: u8, o: pref_core::Outcome) -> String {
    let mut g = Game::new(p.clone(), Seat(dealer)).unwrap();
    match g.record_outcome(o) {
        Err(GameError::Outcome(why)) => why,
        other => panic!("not refused: {other:?}"),
    }
}

// R4.5: surrender, "down three without whists".

#[test]
fn r4_5_surrender_off_is_refused_and_not_listed() {
    let mut g = worked_game(&Profile::sochi());
    let d = deal(&g);
    assert_eq!(d.stage(), Stage::Discard);
    assert!(!d.legal_actions(Seat(0)).contains(&Action::Surrender));
    let e = refused(&mut g, 0, Action::Surrender);
    assert_eq!(e, RuleError::Surrender(SurrenderBar::Disabled));
    assert_eq!(e.rule(), Some("R4.5"));
}

#[test]
fn r4_5_surrender_played_before_the_discard() {
    let p = profile(json!({"preset": "sochi", "surrender": 3}));
    let mut g = worked_game(&p);
    let legal = deal(&g).legal_actions(Seat(0));
    // 66 discards of twelve cards, then the surrender.
    assert_eq!(legal.len(), 67);
    assert_eq!(legal.get(66), Some(Action::Surrender));
    assert_eq!(legal.iter().last(), Some(Action::Surrender));
    // Only the declarer, only before the contract.
    assert!(matches!(
        refused(&mut g, 1, Action::Surrender),
        RuleError::NotYourTurn { .. }
    ));
    let events = g.apply(Seat(0), Action::Surrender).unwrap();
    assert_eq!(
        events[0],
        Event::Surrendered {
            seat: Seat(0),
            bid: "6H".parse().unwrap()
        }
    );
    assert_eq!(events[1], Event::DealOver);
    let o = *g.history()[0].outcome().unwrap();
    assert_eq!(
        o.kind,
        OutcomeKind::Surrender {
            declarer: Seat(0),
            bid: "6H".parse().unwrap()
        }
    );
    assert_eq!((o.tricks, o.made()), (None, Some(false)));
    // 3 × v(6) = 6 on A's mountain; no pool, no whists for anybody.
    assert_eq!(g.sheet().mountain(), [6, 0, 0]);
    assert_eq!(g.sheet().pool(), [0, 0, 0]);
    assert_eq!(g.sheet().whist_matrix(), vec![vec![0; 3]; 3]);
    let text = round_trip(&g);
    assert!(text.contains(r#"{"seat": 0, "surrender": true}"#), "{text}");
}

#[test]
fn r4_5_surrender_after_the_discard_but_not_after_the_contract() {
    let p = profile(json!({"preset": "sochi", "surrender": 2}));
    let mut g = worked_game(&p);
    g.apply(Seat(0), Action::Discard(set("♣8 ♣7"))).unwrap();
    let d = deal(&g);
    assert_eq!(d.stage(), Stage::Declare);
    let legal = d.legal_actions(Seat(0));
    assert_eq!(legal.iter().last(), Some(Action::Surrender));
    assert!(legal.contains(&Action::Surrender));
    let mut declared = g.clone();
    declared
        .apply(Seat(0), Action::Declare("6H".parse().unwrap()))
        .unwrap();
    assert!(matches!(
        refused(&mut declared, 1, Action::Surrender),
        RuleError::WrongStage { .. }
    ));
    g.apply(Seat(0), Action::Surrender).unwrap();
    // 2 × v(6) = 4.
    assert_eq!(g.sheet().mountain(), [4, 0, 0]);
    round_trip(&g);
}

#[test]
fn r4_5_surrender_level_and_misere_bars() {
    let p = profile(json!({"preset": "sochi", "surrender": 3, "surrender_max_level": 6}));
    let mut g = Game::new(p.clone(), Seat(2)).unwrap();
    g.start_deal_from_hands(&worked_hands(), &cards(WORKED_TALON))
        .unwrap();
    for (s, b) in [
        (0, "6S"),
        (1, "6C"),
        (2, "6D"),
        (0, "6H"),
        (1, "6NT"),
        (2, "7S"),
        (0, "pass"),
        (1, "pass"),
    ] {
        g.apply(Seat(s), bid(b)).unwrap();
    }
    assert_eq!(
        refused(&mut g, 2, Action::Surrender),
        RuleError::Surrender(SurrenderBar::Level { level: 7, max: 6 })
    );
    let mut g = Game::new(p, Seat(2)).unwrap();
    g.start_deal_from_hands(&worked_hands(), &cards(WORKED_TALON))
        .unwrap();
    for (s, b) in [(0, "misere"), (1, "pass"), (2, "pass")] {
        g.apply(Seat(s), bid(b)).unwrap();
    }
    assert_eq!(
        refused(&mut g, 0, Action::Surrender),
        RuleError::Surrender(SurrenderBar::Misere)
    );
}

#[test]
fn r4_5_surrender_outcome_form() {
    let p = profile(json!({"preset": "sochi", "surrender": 3}));
    let g = scored(&p, 2, &[surrender(3, 2, 0, "7S")]);
    // 3 × v(7) = 12; Leningrad doubles the mountain: 24.
    assert_eq!(g.sheet().mountain(), [12, 0, 0]);
    let len = profile(json!({"preset": "leningrad", "surrender": 3}));
    let g = scored(&len, 2, &[surrender(3, 2, 0, "7S")]);
    assert_eq!(g.sheet().mountain(), [24, 0, 0]);
    assert_eq!(
        outcome_error(&Profile::sochi(), 2, surrender(3, 2, 0, "7S")),
        "surrender is not played at this table (R4.5)"
    );
    let low = profile(json!({"preset": "sochi", "surrender": 3, "surrender_max_level": 6}));
    assert_eq!(
        outcome_error(&low, 2, surrender(3, 2, 0, "7S")),
        "surrender is allowed up to level 6, and the bid is 7 (R4.5)"
    );
    let text = r#"{"format": "pref-record/1", "profile": {"preset": "sochi", "surrender": 2},
      "players": ["A", "B", "C"], "first_dealer": 2,
      "deals": [{"outcome": {"kind": "surrender", "declarer": 1, "bid": "8NT"}}]}"#;
    let (record, g) = Record::read(text).unwrap();
    assert_eq!(g.sheet().mountain(), [0, 12, 0]);
    assert!(
        record
            .to_json_string()
            .contains(r#"{"outcome": {"kind": "surrender", "declarer": 1, "bid": "8NT"}}"#)
    );
    let bad = text.replace(r#""bid": "8NT"}"#, r#""bid": "8NT", "tricks": [5, 5, 0]}"#);
    assert!(Record::read(&bad).is_err());
}

// R5.3: after *whist, pass* the first defender may withdraw to a half-whist.

fn worked_6h(p: &Profile, contract: &str) -> Game {
    let mut g = worked_game(p);
    g.apply(Seat(0), Action::Discard(set("♣8 ♣7"))).unwrap();
    g.apply(Seat(0), Action::Declare(contract.parse().unwrap()))
        .unwrap();
    g.apply(Seat(1), whist(WhistCall::Whist)).unwrap();
    g.apply(Seat(2), whist(WhistCall::Pass)).unwrap();
    g
}

#[test]
fn r5_3_whist_pass_half_off_goes_to_the_defence_choice() {
    let mut g = worked_6h(&Profile::sochi(), "6H");
    let d = deal(&g);
    assert_eq!((d.stage(), d.turn()), (Stage::Defence, Some(Seat(1))));
    assert!(matches!(
        refused(&mut g, 1, whist(WhistCall::Half)),
        RuleError::WrongStage { .. }
    ));
}

#[test]
fn r5_3_withdrawal_played_form() {
    let p = profile(json!({"preset": "sochi", "whist_pass_half": true}));
    let mut g = worked_6h(&p, "6H");
    let d = deal(&g);
    assert_eq!((d.stage(), d.turn()), (Stage::Whist, Some(Seat(1))));
    assert_eq!(
        d.legal_actions(Seat(1)).to_vec(),
        vec![whist(WhistCall::Whist), whist(WhistCall::Half)]
    );
    let e = refused(&mut g, 1, whist(WhistCall::Pass));
    assert_eq!((e, e.rule()), (RuleError::StayOrWithdraw, Some("R5.3")));
    let mut stay = g.clone();
    stay.apply(Seat(1), whist(WhistCall::Whist)).unwrap();
    assert_eq!(deal(&stay).stage(), Stage::Defence);
    g.apply(Seat(1), whist(WhistCall::Half)).unwrap();
    let o = *g.history()[0].outcome().unwrap();
    let OutcomeKind::Game { whist: calls, .. } = o.kind else {
        panic!("{o:?}");
    };
    assert_eq!(
        calls[..3],
        [None, Some(WhistCall::Half), Some(WhistCall::Pass)]
    );
    assert_eq!(o.tricks, None);
    // R8.6: A earns v = 2; B, the half-whister, writes v·q/2 = 2·4/2 = 4 on A.
    assert_eq!(g.sheet().pool(), [2, 0, 0]);
    assert_eq!(w(&g, 1, 0), 4);
    let text = round_trip(&g);
    assert!(text.contains(r#"{"seat": 1, "whist": "whist"}"#));
    assert!(text.contains(r#"{"seat": 1, "whist": "half"}"#));
}

#[test]
fn r5_3_no_withdrawal_against_eight_or_without_half_whist() {
    let p = profile(json!({"preset": "sochi", "whist_pass_half": true}));
    let g = worked_6h(&p, "8H");
    assert_eq!(deal(&g).stage(), Stage::Defence);
    let p = profile(json!({"preset": "sochi", "whist_pass_half": true, "half_whist": false}));
    let g = worked_6h(&p, "6H");
    assert_eq!(deal(&g).stage(), Stage::Defence);
}

#[test]
fn r5_3_withdrawal_outcome_form() {
    let on = profile(json!({"preset": "sochi", "whist_pass_half": true}));
    let g = scored(&on, 2, &[game(3, 2, 0, "7S", "- h p", &[])]);
    // v = 4, q = 2: B writes 4·2/2 = 4.
    assert_eq!((g.sheet().pool()[0], w(&g, 1, 0)), (4, 4));
    assert_eq!(
        outcome_error(&Profile::sochi(), 2, game(3, 2, 0, "7S", "- h p", &[])),
        "the first defender cannot withdraw to a half-whist: whist_pass_half is off (R5.3)"
    );
    assert_eq!(
        outcome_error(&on, 2, game(3, 2, 0, "8S", "- h p", &[])),
        "half-whist is only against 6 and 7, not 8 (R5.2)"
    );
    assert!(outcome_error(&on, 2, game(3, 2, 0, "7S", "- h p", &[7, 3, 0])).contains("no tricks"));
    // Four players: the dealer takes the defence over after the withdrawal (R11.4).
    let four = profile(json!({"preset": "sochi4", "whist_pass_half": true}));
    let g = scored(&four, 3, &[game(4, 3, 0, "6S", "- h p w", &[6, 2, 2, 0])]);
    // Made: A 2 pool; the dealer writes v × 4 = 8 trick whists; no half-whist entry.
    assert_eq!((g.sheet().pool()[0], w(&g, 3, 0), w(&g, 1, 0)), (2, 8, 0));
}

// R7.5: the talon takes no part in raspasy.

fn all_pass(p: &Profile) -> (Deal, Vec<Event>) {
    let mut d = Deal::from_hands(p, Seat(2), &worked_hands(), &cards(WORKED_TALON), 0).unwrap();
    let mut events = Vec::new();
    for s in 0..3 {
        events.extend(d.apply(Seat(s), bid("pass")).unwrap());
    }
    (d, events)
}

#[test]
fn r7_5_talon_leads_by_default() {
    let (d, events) = all_pass(&Profile::sochi());
    assert!(events.contains(&Event::TalonCardTurned {
        trick: 0,
        card: "♥A".parse().unwrap()
    }));
    // R7.2: A must lead a heart, the turned card's suit.
    assert_eq!(
        d.legal_actions(Seat(0)).len(),
        4,
        "{:?}",
        d.legal_actions(Seat(0)).to_vec()
    );
}

#[test]
fn r7_5_talon_ignored_played_form() {
    let p = profile(json!({"preset": "sochi", "raspasy_talon": "ignored"}));
    let (mut d, events) = all_pass(&p);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::TalonCardTurned { .. }))
    );
    assert_eq!(d.talon_shown(), 0);
    assert_eq!(d.view(pref_core::Viewer::Seat(Seat(1))).talon, [None, None]);
    // A leads any card, and each winner leads the next trick.
    assert_eq!(d.legal_actions(Seat(0)).len(), 10);
    while !d.is_finished() {
        let s = d.turn().unwrap();
        let a = d.legal_actions(s).get(0).unwrap();
        d.apply(s, a).unwrap();
    }
    let tricks = d.completed_tricks();
    for i in 1..10 {
        assert_eq!(tricks[i].leader, tricks[i - 1].winner, "trick {i}");
    }
    assert!(tricks.iter().all(|t| t.cards().len() == 3));
}

#[test]
fn r7_5_four_players_dealer_takes_no_tricks_and_is_not_scored() {
    let p = profile(json!({"preset": "sochi4", "raspasy_talon": "ignored"}));
    let deck: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    let mut g = Game::new(p.clone(), Seat(3)).unwrap();
    let mut events = vec![g.start_deal(&deck).unwrap()];
    while let Some(d) = g.deal() {
        let s = d.to_act().unwrap();
        let a = d.legal_actions_for(s).get(0).unwrap();
        events.extend(g.act(s, a).unwrap());
    }
    let o = *g.history()[0].outcome().unwrap();
    assert_eq!(o.kind, OutcomeKind::Raspasy);
    let t = o.tricks.unwrap();
    assert_eq!(t[3], 0);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::TalonCardTurned { .. }))
    );
    // The dealer's zero earns nothing (R7.5); each other seat's tricks are charged at 1.
    assert_eq!(g.sheet().pool()[3], 0);
    assert_eq!(g.sheet().mountain()[..3], [t[0], t[1], t[2]].map(i64::from));
    round_trip(&g);
}

#[test]
fn r7_5_outcome_form() {
    let lead = Profile::preset("sochi4").unwrap();
    let ignored = profile(json!({"preset": "sochi4", "raspasy_talon": "ignored"}));
    let g = scored(&lead, 3, &[raspasy(4, 3, &[4, 3, 3, 0])]);
    assert_eq!(g.sheet().pool(), [0, 0, 0, 1]);
    let g = scored(&ignored, 3, &[raspasy(4, 3, &[4, 3, 3, 0])]);
    assert_eq!(g.sheet().pool(), [0, 0, 0, 0]);
    assert_eq!(g.sheet().mountain(), [4, 3, 3, 0]);
    assert!(outcome_error(&ignored, 3, raspasy(4, 3, &[4, 3, 2, 1])).contains("(R7.5)"));
    // Amnesty counts the seats scored: 4–3–3 → 1–0–0 with the dealer left out.
    let amnesty = profile(json!({"preset": "sochi4", "raspasy_talon": "ignored",
        "raspasy_amnesty": true}));
    let g = scored(&amnesty, 3, &[raspasy(4, 3, &[4, 3, 3, 0])]);
    assert_eq!(g.sheet().mountain(), [1, 0, 0, 0]);
    let amnesty = profile(json!({"preset": "sochi4", "raspasy_amnesty": true}));
    let g = scored(&amnesty, 3, &[raspasy(4, 3, &[4, 3, 3, 0])]);
    assert_eq!(g.sheet().mountain(), [4, 3, 3, 0]);
}

/// R4.5 on the wire: the action and the projected event as serde writes them.
#[test]
fn r4_5_surrender_action_and_event_serialise() {
    assert_eq!(
        serde_json::to_value(Action::Surrender).unwrap(),
        json!("surrender")
    );
    let a: Action = serde_json::from_value(json!("surrender")).unwrap();
    assert_eq!(a, Action::Surrender);
    let e = Event::Surrendered {
        seat: Seat(1),
        bid: "7S".parse().unwrap(),
    }
    .project(pref_core::Viewer::Spectator, 3);
    assert_eq!(
        serde_json::to_value(&e).unwrap(),
        json!({"type": "surrendered", "seat": 1, "bid": "7S"})
    );
}
