//! Duplicate scoring (`docs/tournaments.md`): the document's worked example recomputed
//! exactly, and properties: the same cards and the same play give the same result, results
//! sum to zero, and a deal's matchpoints sum to `n (n − 1)`.
#![allow(missing_docs)]

use num_rational::Ratio;
use pref_core::duplicate::{DealComparison, Exact, Standings, deal_result};
use pref_core::{
    Card, Contract, Deal, Outcome, OutcomeKind, PRESETS, Profile, Seat, Strain, WhistCall,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

const W: Option<WhistCall> = Some(WhistCall::Whist);

fn r(n: i64, d: i64) -> Exact {
    Ratio::new(n, d)
}

/// 6♠ by seat 0 (dealer seat 2), both defenders whisting, with these tricks.
fn six_spades(tricks: [u8; 4]) -> Outcome {
    Outcome {
        players: 3,
        dealer: Seat(2),
        kind: OutcomeKind::Game {
            declarer: Seat(0),
            contract: Contract::new(6, Strain::Spades).expect("6♠"),
            whist: [None, W, W, None],
            defence: None,
            talon_units: None,
        },
        tricks: Some(tricks),
        dark: false,
        no_talon: false,
    }
}

fn misere(taken: u8) -> Outcome {
    Outcome {
        players: 3,
        dealer: Seat(0),
        kind: OutcomeKind::Misere { declarer: Seat(1) },
        tricks: Some([5, taken, 5 - taken, 0]),
        dark: false,
        no_talon: false,
    }
}

/// `docs/tournaments.md`, "A worked example": every number of the document.
#[test]
fn worked_example_of_the_document() {
    let sochi = Profile::preset("sochi").expect("sochi");
    // Deal 1, the entrants in seat 0. R8.3, R10.1: 6♠ made with 6 tricks.
    let made = deal_result(&sochi, &six_spades([6, 2, 2, 0]));
    assert_eq!(made, vec![r(16, 3), r(-8, 3), r(-8, 3)]);
    // R8.4: 6♠ one down: 2 on the mountain; the whisters write 2·3 and 2·2, and each the
    // consolation 2·1.
    let down = deal_result(&sochi, &six_spades([5, 3, 2, 0]));
    assert_eq!(down, vec![r(-82, 3), r(44, 3), r(38, 3)]);
    // Deal 2, the entrants in seat 1: misère made (10 pool points), or caught with 1 trick.
    let mis_made = deal_result(&sochi, &misere(0));
    assert_eq!(mis_made, vec![r(-100, 3), r(200, 3), r(-100, 3)]);
    let mis_one = deal_result(&sochi, &misere(1));
    assert_eq!(mis_one, vec![r(100, 3), r(-200, 3), r(100, 3)]);

    let mut s = Standings::new(2);
    let (a, b, c) = (s.enter(), s.enter(), s.enter());
    assert!(s.finish(a, 0, made[0]));
    assert!(s.finish(b, 0, down[0]));
    assert!(s.finish(c, 0, made[0]));
    assert!(s.finish(a, 1, mis_one[1]));
    assert!(s.finish(b, 1, mis_made[1]));
    let d0 = s.deal(0).expect("deal 1");
    assert_eq!(
        (d0.matchpoints(0), d0.matchpoints(1), d0.matchpoints(2)),
        (Some(3), Some(0), Some(3))
    );
    assert_eq!(s.percentage(a, 0), Some(r(75, 1)));
    assert_eq!(s.percentage(b, 0), Some(r(0, 1)));
    assert_eq!(s.percentage(a, 1), Some(r(0, 1)));
    assert_eq!(s.percentage(b, 1), Some(r(100, 1)));
    assert_eq!(s.standing(a), Some(r(75, 2)));
    assert_eq!(s.standing(b), Some(r(50, 1)));
    assert_eq!(s.standing(c), Some(r(75, 1)));
}

/// Where no pool closes, the duplicate result is what the pulka's own scoring of that one
/// deal on an empty sheet settles to with the agreed stop (R10.3).
#[test]
fn equals_the_settlement_of_the_deal_alone_when_no_pool_closes() {
    for name in PRESETS {
        let p = Profile::preset(name).expect("preset");
        let o = Outcome {
            players: p.players(),
            ..six_spades([6, 2, 2, 0])
        };
        let mut sheet = pref_core::Sheet::new(p.players());
        sheet.record(&p, &o, 0);
        assert_eq!(deal_result(&p, &o), sheet.settlement(&p, true), "{name}");
    }
}

/// Plays a deal of `deck` with legal actions chosen by `seed`; its outcome.
fn play(profile: &Profile, deck: &[Card; 32], seed: u64) -> Outcome {
    let mut deal = Deal::new(profile, Seat(2), deck, 0).expect("deal");
    let mut rng = SmallRng::seed_from_u64(seed);
    while let Some(p) = deal.to_act() {
        let legal: Vec<_> = deal.legal_actions_for(p).iter().collect();
        let a = legal[rng.gen_range(0..legal.len())];
        deal.act(p, a).expect("legal");
    }
    deal.outcome().expect("over")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Two entrants with the same cards and the same play get the same result, on every
    /// preset; each deal's results sum to zero.
    #[test]
    fn same_cards_same_play_same_result(deck_seed: u64, play_seed: u64, preset in 0..PRESETS.len()) {
        let p = Profile::preset(PRESETS[preset]).expect("preset");
        let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
        deck.shuffle(&mut SmallRng::seed_from_u64(deck_seed));
        let deck: [Card; 32] = deck.try_into().expect("32");
        let first = deal_result(&p, &play(&p, &deck, play_seed));
        let second = deal_result(&p, &play(&p, &deck, play_seed));
        prop_assert_eq!(&first, &second);
        prop_assert_eq!(first.iter().sum::<Exact>(), Exact::default());
    }

    /// 2 per entrant beaten and 1 per tie: `n (n − 1)` matchpoints in all, each entrant's
    /// within `0..=2 (n − 1)`, in whatever order the results arrive.
    #[test]
    fn matchpoints_sum_to_n_n_minus_1(results in prop::collection::vec(-5i64..5, 1..40)) {
        let mut c = DealComparison::new();
        for &x in &results {
            c.add(Exact::from_integer(x));
        }
        let n = results.len() as u64;
        let sum: u64 = (0..results.len()).map(|i| c.matchpoints(i).expect("mp")).sum();
        prop_assert_eq!(sum, n * (n - 1));
        for (i, &x) in results.iter().enumerate() {
            let beaten = results.iter().filter(|&&y| y < x).count() as u64;
            let tied = results.iter().filter(|&&y| y == x).count() as u64 - 1;
            prop_assert_eq!(c.matchpoints(i), Some(2 * beaten + tied));
        }
    }
}
