//! The scoring options (R8.2, R8.4, R8.9, R11.2, R11.4, R11.6) in the played form: random
//! deals are played card by card under the option off and again, with the same actions,
//! under the option on. The play is the same (these options change no legal action), each
//! played sheet equals the sheet of its outcome written by hand, and the option changes the
//! score of some deals and only of the kind of deal its rule names.
#![allow(missing_docs)]

use pref_core::{
    Action, Card, Game, Outcome, OutcomeKind, Profile, RaspasySeries, Seat, WhistCall,
};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

/// One played deal: the deck and every action with its seat.
type Played = ([Card; 32], Vec<(Seat, Action)>);

/// Plays up to `deals` random deals under `p`, the actions chosen by `seed`; returns the
/// actions of each deal, for the same deals to be played again under another profile.
fn play(p: &Profile, seed: u64, deals: usize) -> (Game, Vec<Played>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut g = Game::new(p.clone(), Seat(0)).unwrap();
    let mut log = Vec::new();
    for _ in 0..deals {
        if g.is_over() {
            break;
        }
        let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
        deck.shuffle(&mut rng);
        let deck: [Card; 32] = deck.try_into().unwrap();
        g.start_deal(&deck).unwrap();
        let mut actions = Vec::new();
        while let Some(d) = g.deal() {
            let seat = d.turn().unwrap();
            let legal = d.legal_actions(seat);
            // Declarers name their winning bid, as they mostly do: low contracts come often.
            let a = if d.stage() == pref_core::Stage::Declare {
                legal.get(0).unwrap()
            } else {
                legal.get(rng.gen_range(0..legal.len())).unwrap()
            };
            g.apply(seat, a).unwrap();
            actions.push((seat, a));
        }
        log.push((deck, actions));
    }
    (g, log)
}

fn replay(p: &Profile, log: &[Played]) -> Game {
    let mut g = Game::new(p.clone(), Seat(0)).unwrap();
    for (deck, actions) in log {
        g.start_deal(deck).unwrap();
        for &(s, a) in actions {
            g.apply(s, a).unwrap();
        }
    }
    g
}

/// The same outcomes entered by hand.
fn scorekeeper(p: &Profile, g: &Game) -> Game {
    let mut k = Game::new(p.clone(), Seat(0)).unwrap();
    for e in g.history() {
        k.record_outcome(*e.outcome().unwrap()).unwrap();
    }
    k
}

/// Plays 300 games of six deals under `base`, then the same under `base` + `key = value`, and
/// returns how many games scored differently.
fn differing(base: &Profile, key: &str, value: Value, may_differ: fn(&Outcome) -> bool) -> usize {
    let on = base.clone().with(key, value).unwrap();
    let mut count = 0;
    for seed in 0..300 {
        let (off_game, log) = play(base, seed, 6);
        let on_game = replay(&on, &log);
        assert_eq!(
            scorekeeper(&on, &on_game).sheet(),
            on_game.sheet(),
            "{key}: the played and the written forms agree"
        );
        if on_game.sheet() != off_game.sheet() {
            count += 1;
            assert!(
                on_game
                    .history()
                    .iter()
                    .any(|e| may_differ(e.outcome().unwrap())),
                "{key} changed a game with no deal its rule names"
            );
        }
    }
    count
}

fn failed_game(o: &Outcome) -> bool {
    matches!(o.kind, OutcomeKind::Game { .. }) && o.made() == Some(false)
}

fn pool_target(p: &str, target: u32) -> Profile {
    Profile::preset(p)
        .unwrap()
        .with("pool_target", target)
        .unwrap()
}

#[test]
fn r8_2_checked_ten_consolation_played() {
    let base = pool_target("sochi", 200)
        .with("ten_whisted", false)
        .unwrap();
    let n = differing(&base, "checked_ten_consolation", json!(false), |o| {
        failed_game(o)
            && matches!(o.kind, OutcomeKind::Game { contract, .. } if contract.level() == 10)
    });
    assert!(n > 0, "no unwhisted ten failed in 300 games");
}

#[test]
fn r8_4_whist_shortfall_cap_played() {
    let n = differing(
        &pool_target("sochi", 200),
        "whist_shortfall_cap",
        json!(true),
        |o| {
            matches!(o.kind, OutcomeKind::Game { contract, whist, .. }
            if contract.level() == 6
                && whist.iter().filter(|w| **w == Some(WhistCall::Whist)).count() == 2)
        },
    );
    assert!(n > 0);
}

#[test]
fn r8_9_zero_bonus_price_and_series_played() {
    let base = pool_target("leningrad", 200);
    let n = differing(&base, "raspasy_zero_bonus", json!("price"), |o| {
        o.kind == OutcomeKind::Raspasy
    });
    assert!(n > 0);
    assert_eq!(
        base.clone()
            .with("raspasy_series", "made")
            .unwrap()
            .raspasy_series(),
        RaspasySeries::Made
    );
    // The series changes the price of a raspasy after a failed deal (with one exit level,
    // so that it changes no legal bid).
    let base = base.with("raspasy_exit", vec![6]).unwrap();
    let n = differing(&base, "raspasy_series", json!("made"), |o| {
        o.kind == OutcomeKind::Raspasy
    });
    assert!(n > 0);
}

#[test]
fn r11_2_r11_4_r11_6_four_player_options_played() {
    let base = pool_target("sochi4", 200);
    assert!(differing(&base, "dealer_consolation", json!(false), failed_game) > 0);
    let dealer_defended = |o: &Outcome| {
        failed_game(o)
            && matches!(o.kind, OutcomeKind::Game { whist, .. }
                if whist[o.dealer.index()] == Some(WhistCall::Whist))
    };
    assert!(
        differing(
            &base,
            "dealer_whist_consolation",
            json!("all"),
            dealer_defended
        ) > 0
    );
    let contract = |o: &Outcome| matches!(o.kind, OutcomeKind::Game { .. });
    assert!(differing(&base, "talon_bonus", json!(true), contract) > 0);
}
