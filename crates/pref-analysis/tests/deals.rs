//! Whole deals, played with random legal actions (auction, discard, whist, cards) under the
//! Sochi profile with three and four players, then analysed: properties that tie every
//! card's value to its neighbours, to the par and to what was really taken.
#![allow(missing_docs)]

use pref_analysis::{Analyser, DealAnalysis, Par, Parts, discards};
use pref_bot::{Goal, Position, Solver};
use pref_core::{Bid, Card, DealEntry, Game, OutcomeKind, Profile, Seat, Strain};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// One deal played with random legal actions; the history's entry for it.
fn random_deal(seed: u64, players: u8) -> (Profile, DealEntry) {
    let profile = Profile::sochi()
        .with("players", players)
        .expect("3 or 4 players");
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Game::new(profile.clone(), Seat(rng.gen_range(0..players))).unwrap();
    let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
    deck.shuffle(&mut rng);
    game.start_deal(&deck.try_into().unwrap()).unwrap();
    play_out(&mut game, &mut rng);
    (profile, game.history()[0].clone())
}

/// Plays the deal in progress to its end with random legal actions.
fn play_out(game: &mut Game, rng: &mut SmallRng) {
    while let Some(p) = game.deal().and_then(|d| d.to_act()) {
        let legal = game.deal().unwrap().legal_actions_for(p);
        let action = legal.get(rng.gen_range(0..legal.len())).unwrap();
        game.act(p, action).unwrap();
    }
}

fn analyse(seed: u64, players: u8, parts: Parts) -> (DealEntry, DealAnalysis) {
    let (profile, entry) = random_deal(seed, players);
    let a = Analyser::new()
        .entry(&profile, 0, &entry, 0, parts)
        .unwrap();
    (entry, a)
}

/// Whether the card's side wants the counted tricks high.
fn maximiser(a: &DealAnalysis, seat: Seat) -> bool {
    match a.outcome.kind {
        OutcomeKind::Game { declarer, .. } | OutcomeKind::Surrender { declarer, .. } => {
            seat == declarer
        }
        OutcomeKind::Misere { declarer } => seat != declarer,
        OutcomeKind::Raspasy => false,
    }
}

fn check_play(a: &DealAnalysis) {
    let tricks = a.outcome.tricks;
    for c in &a.cards {
        let max = maximiser(a, c.seat);
        // The value after the best card equals the value before; no card does better.
        assert!(c.best.contains(c.card) == (c.cost == 0), "{c:?}");
        for &(card, v) in &c.values {
            assert_eq!(c.best.contains(card), v == c.before, "{c:?}");
            assert!(if max { v <= c.before } else { v >= c.before }, "{c:?}");
        }
        let after = c.values.iter().find(|v| v.0 == c.card).unwrap().1;
        assert_eq!(after, c.after);
    }
    match a.par.unwrap() {
        Par::Contract {
            declarer,
            tricks: par,
            ..
        }
        | Par::Misere {
            declarer,
            tricks: par,
        } => {
            let Some(first) = a.cards.first() else {
                return;
            };
            assert_eq!(
                first.before, par,
                "the first card's value before is the par"
            );
            // The counted value moves only by mistakes: the maximising side's lower it, the
            // other side's raise it. So no card of the maximising side (the declarer; in
            // misère the defence) is worth more than the par plus the other side's mistakes
            // so far: with none, no card's value exceeds the par.
            let mut level = i32::from(par);
            let mut given = 0;
            for c in &a.cards {
                assert_eq!(c.counted, declarer);
                assert_eq!(i32::from(c.before), level, "{c:?}");
                for &(_, v) in c.values.iter().filter(|_| maximiser(a, c.seat)) {
                    assert!(i32::from(v) <= i32::from(par) + given, "{c:?}");
                }
                let cost = i32::from(c.cost);
                if maximiser(a, c.seat) {
                    level -= cost;
                } else {
                    level += cost;
                    given += cost;
                }
                assert_eq!(i32::from(c.after), level, "{c:?}");
            }
            // The last card's value is what the declarer really took.
            let taken = tricks.unwrap()[declarer.index()];
            assert_eq!(a.cards.last().unwrap().after, taken);
        }
        Par::Raspasy { tricks: par } => {
            let first = &a.cards[0];
            assert_eq!(Some(first.before), par[first.seat.index()]);
            for c in &a.cards {
                assert_eq!(c.counted, c.seat, "raspasy counts the player's own tricks");
            }
            // In the last trick the value after each card is what its player took.
            for c in &a.cards[a.cards.len() - 3..] {
                assert_eq!(c.after, tricks.unwrap()[c.seat.index()], "{c:?}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn r6_r7_card_values_chain_to_the_par_and_the_tricks_taken(seed in any::<u64>()) {
        let (_, a) = analyse(seed, 3, Parts { play: true, auction: false });
        check_play(&a);
    }

    #[test]
    fn r11_four_player_card_values_chain_to_the_par_and_the_tricks_taken(seed in any::<u64>()) {
        let (_, a) = analyse(seed, 4, Parts { play: true, auction: false });
        check_play(&a);
    }
}

/// R4.1, R4.2: a seat's tricks per strain are the most any of the 66 discards gives (the
/// equivalent-card reduction loses nothing), the discard named gives them, misère is
/// clean exactly when some discard takes no trick, and the best bid is the highest made.
#[test]
fn r4_best_contracts_match_every_discard_solved() {
    let mut solver = Solver::new();
    for seed in 0..3 {
        let (entry, a) = analyse(seed, 3, Parts::ALL);
        let DealEntry::Played {
            dealer,
            hands,
            talon,
            ..
        } = entry
        else {
            unreachable!("a played deal")
        };
        let first = (dealer.index() + 1) % 3;
        for s in &a.auction {
            let d = s.seat.index();
            let twelve = hands[d].with(talon[0]).with(talon[1]);
            let all: Vec<_> = discards_all(twelve);
            assert_eq!(all.len(), 66);
            assert!(discards(twelve).len() <= 66);
            let pos = |x, goal| Position {
                hands: std::array::from_fn(|i| if i == d { twelve.minus(x) } else { hands[i] }),
                leader: first,
                trick: Vec::new(),
                tricks_done: 0,
                goal,
            };
            for (k, strain) in Strain::ALL.into_iter().enumerate() {
                let goal = Goal::Tricks {
                    declarer: d,
                    trump: strain.trump(),
                };
                let most = all
                    .iter()
                    .map(|&x| solver.solve(&pos(x, goal)).unwrap())
                    .max()
                    .unwrap();
                let (t, x) = s.strains[k];
                assert_eq!(t, most, "seed {seed}, seat {d}, {strain:?}");
                assert_eq!(solver.solve(&pos(x, goal)), Some(t));
            }
            let misere = Goal::Misere { declarer: d };
            let clean = all
                .iter()
                .any(|&x| solver.solve(&pos(x, misere)) == Some(0));
            assert_eq!(s.misere.is_some(), clean, "seed {seed}, seat {d}");
            if let Some(x) = s.misere {
                assert_eq!(solver.solve(&pos(x, misere)), Some(0));
            }
            let made = Strain::ALL
                .into_iter()
                .enumerate()
                .filter_map(|(k, st)| {
                    pref_core::Contract::new(s.strains[k].0.min(10), st).map(|c| c.bid())
                })
                .chain(clean.then_some(Bid::MISERE))
                .max();
            assert_eq!(s.best.map(|b| b.0), made, "seed {seed}, seat {d}");
        }
    }
}

fn discards_all(twelve: pref_core::CardSet) -> Vec<pref_core::CardSet> {
    let cards: Vec<Card> = twelve.iter().collect();
    let mut out = Vec::new();
    for i in 0..cards.len() {
        for j in i + 1..cards.len() {
            out.push(pref_core::CardSet::EMPTY.with(cards[i]).with(cards[j]));
        }
    }
    out
}

/// A game's deal in progress is not analysed (its cards may not all be seen yet), a
/// finished one is, the same as through its record.
#[test]
fn a_deal_in_progress_is_not_analysed_a_finished_one_is() {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut game = Game::new(Profile::sochi(), Seat(0)).unwrap();
    let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
    deck.shuffle(&mut rng);
    game.start_deal(&deck.try_into().unwrap()).unwrap();
    let mut analyser = Analyser::new();
    let parts = Parts {
        play: true,
        auction: false,
    };
    assert_eq!(
        analyser.game(&game, 0, parts),
        Err(pref_analysis::NotAnalysable::NoSuchDeal { deal: 0, deals: 0 })
    );
    play_out(&mut game, &mut rng);
    let a = analyser.game(&game, 0, parts).unwrap();
    let b = analyser
        .entry(&Profile::sochi(), 0, &game.history()[0], 0, parts)
        .unwrap();
    assert_eq!(a, b);
    check_play(&a);
}
