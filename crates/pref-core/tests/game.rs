//! The pulka (`game.rs`): the game-record replay example of `docs/game-record.md`
//! scored through `Game::record_outcome`, dealer rotation (R1.3), the raspasy streak and the
//! next deal's lowest bid (R3.3), the end of the game (R9.4), and the consistency checks of
//! an outcome written by hand.
#![allow(missing_docs)]

mod common;

use common::{
    WORKED_AUCTION, WORKED_TALON, bid, cards, game, misere, profile, raspasy, worked_hands,
};
use num_rational::Ratio;
use pref_core::{
    Action, Call, Card, CardSet, DealEntry, Defence, Game, GameError, Outcome, OutcomeKind,
    Profile, RuleError, Seat,
};
use serde_json::json;

fn with_defence(mut o: Outcome, d: Defence) -> Outcome {
    if let OutcomeKind::Game { defence, .. } = &mut o.kind {
        *defence = Some(d);
    }
    o
}

#[test]
fn game_record_replay_example() {
    let mut g = Game::new(
        profile(json!({"preset": "sochi", "pool_target": 6})),
        Seat(2),
    )
    .unwrap();
    let deals = [
        game(3, 2, 0, "7H", "- w w", &[7, 3, 0]),
        raspasy(3, 0, &[0, 5, 5]),
        misere(3, 1, 1, &[6, 0, 4]),
        game(3, 2, 2, "6S", "p h -", &[]),
        with_defence(game(3, 0, 2, "6D", "w p -", &[4, 1, 5]), Defence::Open),
        game(3, 1, 0, "6NT", "- w p", &[6, 2, 2]),
    ];
    let made: Vec<Option<bool>> = deals.iter().map(Outcome::made).collect();
    assert_eq!(
        made,
        [
            Some(true),
            None,
            Some(true),
            Some(true),
            Some(false),
            Some(true)
        ]
    );
    for (i, o) in deals.into_iter().enumerate() {
        assert!(!g.is_over(), "deal {i}");
        assert_eq!(g.settlement(), None);
        g.record_outcome(o).unwrap();
    }
    let s = g.sheet();
    assert_eq!(s.pool(), [6, 6, 6]);
    assert_eq!(s.mountain(), [0, 6, 8]);
    assert_eq!(
        s.whist_matrix(),
        vec![vec![0, 0, 22], vec![30, 0, 36], vec![0, 0, 0]]
    );
    assert!(g.is_over());
    assert_eq!(
        g.settlement(),
        Some(vec![
            Ratio::new(116, 3),
            Ratio::new(158, 3),
            Ratio::new(-274, 3)
        ])
    );
    let text: Vec<String> = g
        .settlement()
        .unwrap()
        .iter()
        .map(|r| r.to_string())
        .collect();
    assert_eq!(text, ["116/3", "158/3", "-274/3"]);
    // R9.4: a deal after the last pool closed is refused.
    assert_eq!(
        g.record_outcome(raspasy(3, 0, &[0, 5, 5])),
        Err(GameError::GameOver)
    );
    let deck: Vec<Card> = (0..32).map(Card::from_index).collect();
    assert_eq!(
        g.start_deal(&deck.try_into().unwrap()),
        Err(GameError::GameOver)
    );
    assert_eq!(g.history().len(), 6);
}

#[test]
fn r1_3_dealer_rotates_after_every_deal_raspasy_included() {
    let mut g = Game::new(Profile::sochi(), Seat(1)).unwrap();
    g.record_outcome(raspasy(3, 1, &[2, 4, 4])).unwrap();
    assert_eq!(g.dealer(), Seat(2));
    g.record_outcome(game(3, 2, 0, "6S", "- p p", &[])).unwrap();
    assert_eq!(g.dealer(), Seat(0));
    let mut g = Game::new(Profile::preset("sochi4").unwrap(), Seat(3)).unwrap();
    g.record_outcome(raspasy(4, 3, &[2, 4, 4, 0])).unwrap();
    assert_eq!(g.dealer(), Seat(0));
    assert_eq!(
        g.history()
            .iter()
            .map(DealEntry::dealer)
            .collect::<Vec<_>>(),
        [Seat(3)]
    );
}

#[test]
fn r8_9_streak_counts_consecutive_raspasy_and_resets_after_a_conceded_deal() {
    let mut g = Game::new(Profile::preset("leningrad").unwrap(), Seat(2)).unwrap();
    assert_eq!(g.raspasy_streak(), 0);
    g.record_outcome(raspasy(3, 2, &[2, 4, 4])).unwrap();
    g.record_outcome(raspasy(3, 0, &[2, 4, 4])).unwrap();
    assert_eq!(g.raspasy_streak(), 2);
    // Leningrad prices 1 then 2, doubled by mountain_scale.
    assert_eq!(g.sheet().mountain(), [12, 24, 24]);
    g.record_outcome(game(3, 1, 2, "8S", "p p -", &[])).unwrap();
    assert_eq!(g.raspasy_streak(), 0);
}

fn deck() -> [Card; 32] {
    let d: Vec<Card> = (0..32).map(Card::from_index).collect();
    d.try_into().unwrap()
}

#[test]
fn r3_3_next_deal_opens_at_the_raspasy_exit() {
    // After one raspasy the lowest bid is the first entry of `raspasy_exit`.
    let p = profile(json!({"preset": "sochi", "raspasy_exit": [7, 8]}));
    let mut g = Game::new(p, Seat(2)).unwrap();
    g.record_outcome(raspasy(3, 2, &[2, 4, 4])).unwrap();
    g.start_deal(&deck()).unwrap();
    let first = g.deal().unwrap().first_hand();
    let six = Action::Bid("6S".parse::<Call>().unwrap());
    assert!(matches!(
        g.apply(first, six),
        Err(GameError::Rule(RuleError::NotNextStep { .. }))
    ));
    g.apply(first, Action::Bid("7S".parse::<Call>().unwrap()))
        .unwrap();
    assert_eq!(
        g.record_outcome(raspasy(3, 0, &[2, 4, 4])),
        Err(GameError::DealInProgress)
    );
    assert_eq!(g.start_deal(&deck()), Err(GameError::DealInProgress));
}

#[test]
fn no_deal_in_progress() {
    let mut g = Game::new(Profile::sochi(), Seat(0)).unwrap();
    assert_eq!(
        g.apply(Seat(1), Action::Bid(Call::Pass)),
        Err(GameError::NoDeal)
    );
    assert!(g.deal().is_none());
    assert!(matches!(
        Game::new(Profile::sochi(), Seat(3)),
        Err(GameError::Deal(_))
    ));
}

#[test]
fn worked_deal_played_through_the_game_is_scored() {
    let mut g = Game::new(Profile::sochi(), Seat(2)).unwrap();
    g.start_deal_from_hands(&worked_hands(), &cards(WORKED_TALON))
        .unwrap();
    for (seat, call) in WORKED_AUCTION {
        g.act(Seat(seat), bid(call)).unwrap();
    }
    let discard: CardSet = cards("♣7 ♦8").into_iter().collect();
    g.act(Seat(0), Action::Discard(discard)).unwrap();
    g.act(Seat(0), Action::Declare("7H".parse().unwrap()))
        .unwrap();
    g.act(Seat(1), Action::Whist(pref_core::WhistCall::Whist))
        .unwrap();
    g.act(Seat(2), Action::Whist(pref_core::WhistCall::Whist))
        .unwrap();
    let plays = "♥A ♥7 ♥8 ♥K ♥9 ♠8 ♠7 ♠A ♠9 ♣A ♣10 ♣8 ♦Q ♦7 ♦A ♥Q ♠K ♣Q ♦K ♦10 ♦9 ♣9 ♣K ♣J \
                 ♠Q ♠J ♥J ♥10 ♦J ♠10";
    for c in cards(plays) {
        let player = g.deal().unwrap().to_act().unwrap();
        g.act(player, Action::Play(c)).unwrap();
    }
    assert!(g.deal().is_none());
    assert_eq!(g.dealer(), Seat(0));
    assert_eq!(g.sheet().pool(), [4, 0, 0]);
    assert_eq!(
        g.sheet().whist_matrix(),
        vec![vec![0, 0, 0], vec![12, 0, 0], vec![0, 0, 0]]
    );
    let DealEntry::Played {
        dealer,
        actions,
        outcome,
        ..
    } = &g.history()[0]
    else {
        panic!("a played deal");
    };
    assert_eq!(*dealer, Seat(2));
    assert_eq!(actions.len(), 9 + 2 + 2 + 30);
    assert_eq!(outcome.unwrap().tricks, Some([7, 3, 0, 0]));
}

#[test]
fn history_records_the_seat_of_each_card_in_open_play() {
    // Seat 1 whists alone and plays openly: the cards of seat 2 are played by seat 1, but
    // the history (record semantics) names seat 2.
    let mut g = Game::new(Profile::sochi(), Seat(2)).unwrap();
    g.start_deal(&deck()).unwrap();
    g.act(Seat(0), bid("6S")).unwrap();
    g.act(Seat(1), bid("pass")).unwrap();
    g.act(Seat(2), bid("pass")).unwrap();
    let d = g.deal().unwrap();
    let discard: CardSet = d.hand(Seat(0)).iter().take(2).collect();
    g.act(Seat(0), Action::Discard(discard)).unwrap();
    g.act(Seat(0), Action::Declare("6S".parse().unwrap()))
        .unwrap();
    g.act(Seat(1), Action::Whist(pref_core::WhistCall::Whist))
        .unwrap();
    g.act(Seat(2), Action::Whist(pref_core::WhistCall::Pass))
        .unwrap();
    g.act(Seat(1), Action::Defence(Defence::Open)).unwrap();
    while let Some(d) = g.deal() {
        let player = d.to_act().unwrap();
        let seat = d.turn().unwrap();
        let card = match d.legal_actions(seat).get(0).expect("a legal card") {
            a @ Action::Play(_) => a,
            other => panic!("{other:?}"),
        };
        g.act(player, card).unwrap();
    }
    let DealEntry::Played { actions, .. } = &g.history()[0] else {
        panic!("a played deal");
    };
    assert!(
        actions
            .iter()
            .any(|(s, a)| *s == Seat(2) && matches!(a, Action::Play(_)))
    );
    let o = g.history()[0].outcome().unwrap();
    assert_eq!(o.tricks.unwrap().iter().sum::<u8>(), 10);
    assert_eq!(g.dealer(), Seat(0));
}

#[test]
fn r10_3_agreed_settlement_leaves_the_sheet() {
    let mut g = Game::new(
        profile(json!({"preset": "sochi", "pool_target": 6})),
        Seat(2),
    )
    .unwrap();
    g.record_outcome(game(3, 2, 0, "7H", "- w w", &[7, 3, 0]))
        .unwrap();
    let sheet = g.sheet().clone();
    let r = g.agreed_settlement();
    assert_eq!(r.iter().sum::<Ratio<i64>>(), Ratio::from_integer(0));
    assert_eq!(r[0], Ratio::new(80, 3) - 12);
    assert_eq!(g.sheet(), &sheet);
    assert_eq!(g.settlement(), None);
}

fn refused(g: &mut Game, o: Outcome) -> String {
    match g.record_outcome(o) {
        Err(GameError::Outcome(msg)) => msg,
        other => panic!("{other:?}"),
    }
}

#[test]
fn outcome_consistency_checks() {
    let mut g = Game::new(Profile::sochi(), Seat(2)).unwrap();
    let cases = [
        (game(3, 2, 0, "7H", "- w w", &[7, 3, 1]), "add up to 11"),
        (game(3, 2, 0, "7H", "w w w", &[7, 3, 0]), "declarer"),
        (game(3, 2, 0, "7H", "- h p", &[7, 3, 0]), "first defender"),
        (game(3, 2, 0, "8H", "- p h", &[]), "only against 6 and 7"),
        (
            game(3, 2, 0, "6H", "- p p", &[6, 2, 2]),
            "nothing is played",
        ),
        (game(3, 2, 0, "6H", "- w p", &[]), "tricks are missing"),
        (game(3, 2, 0, "6H", "- w -", &[6, 4, 0]), "second defender"),
        (
            game(3, 1, 0, "6H", "- w w", &[6, 4, 0]),
            "dealer of this deal is seat 2",
        ),
        (game(4, 2, 0, "6H", "- w w", &[6, 4, 0]), "4 players"),
        (
            game(3, 2, 0, "6H", "- w w w", &[6, 4, 0]),
            "seat 3 is not at the table",
        ),
        (
            game(3, 2, 0, "10H", "", &[10, 0, 0]),
            "whist decisions are missing",
        ),
        (
            with_defence(game(3, 2, 0, "6H", "- w w", &[6, 2, 2]), Defence::Open),
            "defence",
        ),
        (misere(3, 2, 0, &[]), "misère is always played"),
        (raspasy(3, 2, &[]), "raspasy is always played"),
    ];
    for (o, expected) in cases {
        let msg = refused(&mut g, o);
        assert!(msg.contains(expected), "{msg:?} should say {expected:?}");
    }
    assert!(g.history().is_empty(), "nothing was scored");
    assert_eq!(g.sheet().pool(), [0, 0, 0]);
}

#[test]
fn outcome_checks_follow_the_profile() {
    let p = profile(
        json!({"preset": "sochi", "half_whist": false, "stalingrad": true, "ten_whisted": false}),
    );
    let mut g = Game::new(p, Seat(2)).unwrap();
    assert!(refused(&mut g, game(3, 2, 0, "6H", "- p h", &[])).contains("(R5.2)"));
    assert!(refused(&mut g, game(3, 2, 0, "6S", "- w p", &[6, 4, 0])).contains("(R5.7)"));
    assert!(refused(&mut g, game(3, 2, 0, "10S", "- w p", &[10, 0, 0])).contains("(R5.6)"));
    g.record_outcome(game(3, 2, 0, "6C", "- w p", &[6, 4, 0]))
        .unwrap();
    g.record_outcome(game(3, 0, 1, "10S", "", &[0, 10, 0]))
        .unwrap();
}

#[test]
fn four_player_outcome_checks() {
    let mut g = Game::new(Profile::preset("sochi4").unwrap(), Seat(3)).unwrap();
    assert!(
        refused(&mut g, game(4, 3, 3, "6H", "w w p -", &[4, 3, 3, 0])).contains("not in the deal")
    );
    assert!(refused(&mut g, game(4, 3, 0, "6H", "- w w p", &[6, 2, 2, 0])).contains("(R11.4)"));
    assert!(refused(&mut g, game(4, 3, 0, "6H", "- w p w", &[6, 2, 2, 0])).contains("(R11.4)"));
    assert!(refused(&mut g, game(4, 3, 0, "6H", "- w w -", &[6, 2, 1, 1])).contains("(R11.1)"));
    assert!(refused(&mut g, raspasy(4, 3, &[2, 2, 3, 3])).contains("(R11.3)"));
    g.record_outcome(raspasy(4, 3, &[2, 3, 3, 2])).unwrap();
    g.record_outcome(with_defence(
        game(4, 0, 1, "6H", "w - p h", &[0, 6, 2, 2]),
        Defence::Open,
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let p = profile(json!({"preset": "sochi4", "dealer_whist": false}));
    let mut g = Game::new(p, Seat(3)).unwrap();
    assert!(refused(&mut g, game(4, 3, 0, "6H", "- p p w", &[6, 2, 2, 0])).contains("(R11.4)"));
}

#[test]
fn game_error_messages() {
    assert_eq!(
        GameError::Rule(RuleError::MustFollow {
            seat: Seat(1),
            suit: pref_core::Suit::Diamonds
        })
        .to_string(),
        "seat 1 must follow ♦ (R6.2)"
    );
    assert_eq!(
        GameError::GameOver.to_string(),
        "the game is over: every pool is closed (R9.4)"
    );
}

#[test]
fn deal_events_replays_the_deal_in_progress_event_for_event() {
    for (preset, deals) in [("sochi", 12), ("sochi4", 12)] {
        let mut g = Game::new(profile(json!(preset)), Seat(0)).unwrap();
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..deals {
            let mut cards: Vec<Card> = (0..32).map(Card::from_index).collect();
            for i in (1..32).rev() {
                cards.swap(i, next(i + 1));
            }
            let deck: [Card; 32] = cards.try_into().unwrap();
            assert!(g.deal_events().is_empty(), "between deals");
            let mut seen = vec![g.start_deal(&deck).unwrap()];
            assert_eq!(g.deal_events(), seen);
            while let Some(p) = g.deal().and_then(pref_core::Deal::to_act) {
                let legal = g.deal().unwrap().legal_actions_for(p);
                let action = legal.get(next(legal.len())).unwrap();
                seen.extend(g.act(p, action).unwrap());
                if g.deal().is_some() {
                    assert_eq!(g.deal_events(), seen, "{preset}");
                }
            }
            if g.is_over() {
                break;
            }
        }
    }
}
