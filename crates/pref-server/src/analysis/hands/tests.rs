//! The hands of every played deal of the test records, position by position, against the
//! records' own cards: before trick `k` a seat holds exactly the cards it plays from trick
//! `k` on and what it still held at the end; the hands as dealt and the discard are the
//! record's. Raspasy (its talon cards lead tricks, R7.2), misère, open defence, claims
//! (cards left unplayed, R6.7) and four players (the dealer sits out) are all in them.

use pref_core::{Action, CardSet, Record, RecordDeal, Seat};

use super::{DealHands, HandsError};

fn record(name: &str) -> Record {
    let path = format!("{}/../../tests/records/{name}", env!("CARGO_MANIFEST_DIR"));
    Record::from_json_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Checks every played deal of `name`; returns how many deals ended with cards unplayed.
fn check(name: &str) -> usize {
    let record = record(name);
    let players = usize::from(record.profile().players());
    let mut claimed = 0;
    for (i, deal) in record.deals().iter().enumerate() {
        let RecordDeal::Played {
            hands,
            talon,
            actions,
        } = deal
        else {
            assert_eq!(DealHands::of(&record, i), Err(HandsError::Scored(i)));
            continue;
        };
        let got = DealHands::of(&record, i).unwrap();
        assert_eq!(got.deal, i);
        let dealt: Vec<CardSet> = hands.iter().map(|h| h.iter().copied().collect()).collect();
        assert_eq!(got.dealt, dealt, "{name}, deal {i}: as dealt");
        assert_eq!(&got.talon, talon, "{name}, deal {i}: the talon");
        let discard: CardSet = actions
            .iter()
            .filter_map(|(_, a)| match a {
                Action::Discard(cards) => Some(*cards),
                _ => None,
            })
            .next()
            .unwrap_or_default();
        assert_eq!(got.discard, discard, "{name}, deal {i}: the discard");
        let plays: Vec<(Seat, pref_core::Card)> = actions
            .iter()
            .filter_map(|&(s, a)| match a {
                Action::Play(c) => Some((s, c)),
                _ => None,
            })
            .collect();
        // Three seats play each trick, at four players too (the dealer sits out).
        assert_eq!(
            got.tricks.len(),
            plays.len().div_ceil(3),
            "{name}, deal {i}"
        );
        for (k, position) in got.tricks.iter().enumerate() {
            assert_eq!(position.len(), players, "{name}, deal {i}, trick {k}");
            for (s, (held, left)) in position.iter().zip(&got.left).enumerate() {
                let mut expected = *left;
                for &(seat, card) in &plays[3 * k..] {
                    if seat.index() == s {
                        expected = expected.with(card);
                    }
                }
                assert_eq!(*held, expected, "{name}, deal {i}, trick {k}, seat {s}");
            }
        }
        let left: u32 = got.left.iter().map(|h| h.len()).sum();
        if left > 0 {
            claimed += 1;
        }
    }
    claimed
}

#[test]
fn every_hand_before_each_trick_is_what_the_record_plays_from_there() {
    assert_eq!(check("leningrad.json"), 0);
    assert_eq!(check("raspasy.json"), 0);
    assert_eq!(check("misere.json"), 0);
    assert_eq!(check("open-defence.json"), 0);
    assert_eq!(check("four-players.json"), 0);
}

#[test]
fn a_claimed_deal_keeps_the_cards_left_unplayed_r6_7() {
    assert!(
        check("claims.json") > 0,
        "the claims record ends deals by a claim"
    );
}

#[test]
fn a_deal_past_the_record_is_refused() {
    let record = record("misere.json");
    let n = record.deals().len();
    assert_eq!(DealHands::of(&record, n), Err(HandsError::NoDeal(n)));
}
