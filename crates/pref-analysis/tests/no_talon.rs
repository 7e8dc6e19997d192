//! The analysis of deals with dark calls and the no-talon calls (R3.9, R4.6): a deal won
//! with misère or nine without talon is analysed as one with no discard — the declarer's
//! ten cards as dealt, the talon in nobody's hand — and a deal whose only bids were dark is
//! not mistaken for raspasy.
#![allow(missing_docs)]

use pref_analysis::{Analyser, Par, Parts, play_line};
use pref_core::{CardSet, Record, Seat};

fn record() -> Record {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/records/dark-no-talon.json"
    ))
    .unwrap();
    Record::from_json_str(&text).unwrap()
}

#[test]
fn r4_6_no_talon_deals_are_analysed_with_the_hands_as_dealt() {
    let r = record();
    let (_, game) = Record::read(&r.to_json_string()).unwrap();
    let profile = r.profile();
    let mut analyser = Analyser::new();
    let all = analyser
        .record(
            &r,
            None,
            Parts {
                play: true,
                auction: false,
            },
        )
        .unwrap();
    assert_eq!(all.len(), 3);
    let mut streak = 0;
    for (i, a) in all.into_iter().enumerate() {
        let a = a.unwrap_or_else(|e| panic!("deal {i}: {e}"));
        let entry = &game.history()[i];
        let line = play_line(profile, entry, streak).unwrap();
        let outcome = entry.outcome().unwrap();
        let pref_core::DealEntry::Played { hands, talon, .. } = entry else {
            panic!("deal {i} is played");
        };
        let talon: CardSet = talon.iter().copied().collect();
        let all_hands = line
            .start
            .hands
            .iter()
            .fold(CardSet::EMPTY, |a, &h| a.or(h));
        if outcome.no_talon {
            // No discard: every hand is the ten cards dealt, and the talon is nobody's.
            assert!(all_hands.and(talon).is_empty(), "deal {i}");
            for (k, &h) in line.start.hands.iter().enumerate() {
                assert_eq!(h, hands[k], "deal {i}, seat {k}");
            }
        }
        match (i, a.par) {
            (0, Some(Par::Misere { declarer, tricks })) => {
                assert_eq!(declarer, Seat(0));
                assert!(tricks <= 10);
            }
            (
                1 | 2,
                Some(Par::Contract {
                    tricks, defence, ..
                }),
            ) => {
                assert_eq!(tricks + defence, 10);
            }
            (i, other) => panic!("deal {i}: {other:?}"),
        }
        assert_eq!(a.cards.len(), 30, "deal {i}: every card analysed");
        streak = 0;
    }
}

/// R3.9: a contract whose only bid was dark is a contract, not raspasy (at a table whose
/// raspasy talon takes no part, which the analysis refuses for raspasy alone, R7.5).
#[test]
fn r3_9_a_dark_bid_alone_is_no_raspasy() {
    use pref_core::{Action, Call, Card, Game, Profile};
    let p = Profile::sochi()
        .with("dark_games", true)
        .and_then(|p| p.with("raspasy_talon", "ignored"))
        .unwrap();
    let mut g = Game::new(p.clone(), Seat(2)).unwrap();
    let deck: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    g.start_deal(&deck).unwrap();
    g.apply(Seat(0), Action::Dark(Call::Bid("6S".parse().unwrap())))
        .unwrap();
    while let Some(d) = g.deal() {
        let s = d.turn().unwrap();
        let a = d.legal_actions(s).get(0).unwrap();
        g.apply(s, a).unwrap();
    }
    let a = Analyser::new()
        .entry(
            &p,
            0,
            &g.history()[0],
            0,
            Parts {
                play: true,
                auction: false,
            },
        )
        .unwrap();
    assert!(
        matches!(
            a.par,
            Some(Par::Contract {
                declarer: Seat(0),
                ..
            })
        ),
        "{:?}",
        a.par
    );
}
