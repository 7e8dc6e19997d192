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

/// A deal with dealer C (seat 2), so A (seat 0) is first hand: A holds `mine`, the talon
/// is `talon`, and the other twenty cards go to B and C in turn, by card index.
fn deal_for(profile: &pref_core::Profile, mine: &[&str], talon: [&str; 2]) -> pref_core::Deal {
    use pref_core::{Card, Deal};
    let card = |s: &&str| s.parse::<Card>().unwrap();
    let a: Vec<Card> = mine.iter().map(card).collect();
    let t: Vec<Card> = talon.iter().map(card).collect();
    let rest: Vec<Card> = (0..32)
        .map(Card::from_index)
        .filter(|c| !a.contains(c) && !t.contains(c))
        .collect();
    let b = rest.iter().copied().step_by(2).collect();
    let c = rest.iter().copied().skip(1).step_by(2).collect();
    Deal::from_hands(profile, Seat(2), &[a, b, c], &t, 0).unwrap()
}

const ACTIVE: [Seat; 3] = [Seat(0), Seat(1), Seat(2)];

/// R3.10, R4.6: with `misere_without_talon`, a hand whose ten dealt cards take no trick is
/// worth misère without talon, the step above 9NT; without the option the same hand is worth
/// misère. The lowest two of each suit and a third spade and club: every card is under every
/// card of its suit the others hold, and they hold at least as many of each.
#[test]
fn r3_10_a_clean_ten_card_misere_is_worth_mwt_when_the_option_is_on() {
    use pref_analysis::best_contracts;
    use pref_bot::Solver;
    use pref_core::{Bid, Profile};
    let mine = ["7S", "8S", "9S", "7C", "8C", "9C", "7D", "8D", "7H", "8H"];
    let on = Profile::sochi().with("misere_without_talon", true).unwrap();
    let deal = deal_for(&on, &mine, ["AD", "AH"]);
    let mut solver = Solver::new();
    let a = &best_contracts(&mut solver, &deal, &ACTIVE, true)[0];
    let no_talon = a.no_talon.expect("the option is on");
    assert!(
        no_talon.misere,
        "ten cards under every card of their suit: clean"
    );
    assert_eq!(
        a.best,
        Some((Bid::MISERE_NO_TALON, pref_core::CardSet::EMPTY))
    );
    let off = Profile::sochi();
    let a = &best_contracts(
        &mut solver,
        &deal_for(&off, &mine, ["AD", "AH"]),
        &ACTIVE,
        false,
    )[0];
    assert_eq!(a.no_talon, None);
    assert_eq!(a.best.map(|(b, _)| b), Some(Bid::MISERE));
}

/// R3.10.2, R4.6: all eight spades and an ace take nine tricks without the talon, in
/// spades or no trumps, and a talon of two low diamonds adds none, so the hand is worth nine
/// without talon (above 9NT); with the option off it is worth 9NT.
#[test]
fn r3_10_nine_sure_tricks_without_the_talon_are_worth_9wt() {
    use pref_analysis::best_contracts;
    use pref_bot::Solver;
    use pref_core::{Bid, Contract, Profile, Strain};
    let mine = ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "AH", "7D"];
    let on = Profile::sochi().with("misere_without_talon", true).unwrap();
    let mut solver = Solver::new();
    let a = &best_contracts(
        &mut solver,
        &deal_for(&on, &mine, ["8D", "9D"]),
        &ACTIVE,
        true,
    )[0];
    let no_talon = a.no_talon.expect("the option is on");
    assert_eq!(no_talon.strains[Strain::Spades as usize], 9);
    assert_eq!(no_talon.strains[Strain::NoTrump as usize], 9);
    assert!(!no_talon.misere);
    assert_eq!(
        a.strains[Strain::NoTrump as usize].0,
        9,
        "the talon adds no trick"
    );
    assert_eq!(a.best.map(|(b, _)| b), Some(Bid::NINE_NO_TALON));
    let off = Profile::sochi();
    let a = &best_contracts(
        &mut solver,
        &deal_for(&off, &mine, ["8D", "9D"]),
        &ACTIVE,
        false,
    )[0];
    assert_eq!(
        a.best.map(|(b, _)| b),
        Contract::new(9, Strain::NoTrump).map(Contract::bid)
    );
}
