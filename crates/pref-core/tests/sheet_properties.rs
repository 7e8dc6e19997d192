//! Properties of the sheet under every preset, for random games: outcomes written by hand
//! (through the consistency check) and deals played with random legal actions.
//! R10.1: the settlement sums to exactly zero; R9.3: a mountain is never negative;
//! R9.2: with help on no pool passes the target; nobody writes whists on himself. Every
//! preset is mixed with random house-rule options (independent switches). The lines that
//! explain a deal add up to exactly what it wrote (and R10.3's to the agreed settlement).
#![allow(missing_docs)]

use num_rational::Ratio;
use pref_core::{
    Action, Card, Column, Contract, Game, GameError, Line, Outcome, OutcomeKind, PRESETS, Profile,
    Seat, Sheet, Strain, WhistCall, Why,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::json;

/// One random deal, read against the game's state when it is entered.
#[derive(Clone, Debug)]
struct RawDeal {
    kind: u8,
    declarer: u8,
    level: u8,
    strain: u8,
    pattern: u8,
    owners: [u8; 10],
}

fn raw_deal() -> impl Strategy<Value = RawDeal> {
    (
        0u8..9,
        0u8..4,
        6u8..=10,
        0u8..5,
        0u8..10,
        prop::array::uniform10(0u8..4),
    )
        .prop_map(|(kind, declarer, level, strain, pattern, owners)| RawDeal {
            kind,
            declarer,
            level,
            strain,
            pattern,
            owners,
        })
}

fn strain(i: u8) -> Strain {
    [
        Strain::Spades,
        Strain::Clubs,
        Strain::Diamonds,
        Strain::Hearts,
        Strain::NoTrump,
    ][i as usize % 5]
}

/// Makes `raw` into an outcome for the deal `game` expects next.
fn outcome(game: &Game, raw: &RawDeal) -> Outcome {
    let players = game.profile().players();
    let dealer = game.dealer();
    let active: Vec<Seat> = (0..players)
        .map(Seat)
        .filter(|&s| !(players == 4 && s == dealer))
        .collect();
    let raspasy = raw.kind < 2;
    let mut tricks = [0u8; 4];
    for (i, &o) in raw.owners.iter().enumerate() {
        // On four-player raspasy the dealer's talon cards may win tricks 1 and 2 (R11.3).
        let seat = if raspasy && players == 4 && i < 2 && o == 3 {
            dealer
        } else {
            active[o as usize % active.len()]
        };
        tricks[seat.index()] += 1;
    }
    let declarer = active[raw.declarer as usize % active.len()];
    let kind = match raw.kind {
        0 | 1 => OutcomeKind::Raspasy,
        2 => OutcomeKind::Misere { declarer },
        // R4.5: refused by the consistency check where the table has no surrender.
        8 => {
            return Outcome {
                dark: false,
                no_talon: false,
                players,
                dealer,
                kind: OutcomeKind::Surrender {
                    declarer,
                    bid: Contract::new(raw.level, strain(raw.strain)).unwrap(),
                },
                tricks: None,
            };
        }
        _ => {
            let first = next(players, dealer, declarer);
            let second = next(players, dealer, first);
            use WhistCall::{Half, Pass, Whist};
            let (a, b, by_dealer) = [
                (Whist, Whist, None),
                (Whist, Pass, None),
                (Pass, Whist, None),
                (Whist, Half, None),
                (Pass, Pass, None),
                (Pass, Half, None),
                (Pass, Pass, Some(Whist)),
                (Pass, Half, Some(Whist)),
                // R5.3: the first defender withdrew after *whist, pass*.
                (Half, Pass, None),
                (Half, Pass, Some(Whist)),
            ][raw.pattern as usize];
            let mut whist = [None; 4];
            whist[first.index()] = Some(a);
            whist[second.index()] = Some(b);
            if players == 4 {
                whist[dealer.index()] = by_dealer;
            }
            let plays = by_dealer.is_some()
                || !matches!((a, b), (Pass, Pass) | (Pass, Half) | (Half, Pass));
            let p = game.profile();
            let bonus = p.talon_bonus() && players == 4;
            return Outcome {
                dark: false,
                no_talon: false,
                players,
                dealer,
                kind: OutcomeKind::Game {
                    declarer,
                    contract: Contract::new(raw.level, strain(raw.strain)).unwrap(),
                    whist,
                    defence: None,
                    talon_units: bonus.then_some(raw.owners[0] % 4),
                },
                tricks: plays.then_some(tricks),
            };
        }
    };
    Outcome {
        dark: false,
        no_talon: false,
        players,
        dealer,
        kind,
        tricks: Some(tricks),
    }
}

fn next(players: u8, dealer: Seat, s: Seat) -> Seat {
    let n = s.next(players);
    if players == 4 && n == dealer {
        n.next(players)
    } else {
        n
    }
}

fn check_invariants(game: &Game) -> Result<(), TestCaseError> {
    let p = game.profile();
    let sheet = game.sheet();
    let zero = Ratio::from_integer(0);
    prop_assert_eq!(game.agreed_settlement().iter().sum::<Ratio<i64>>(), zero);
    if let Some(s) = game.settlement() {
        prop_assert_eq!(s.iter().sum::<Ratio<i64>>(), zero);
    }
    prop_assert!(
        sheet.mountain().iter().all(|&m| m >= 0),
        "{:?}",
        sheet.mountain()
    );
    if p.mountain_as_whists() > 0 {
        prop_assert!(sheet.mountain().iter().all(|&m| m == 0));
    }
    if p.pool_help() {
        let t = i64::from(p.pool_target());
        prop_assert!(sheet.pool().iter().all(|&x| x <= t), "{:?}", sheet.pool());
    }
    let w = sheet.whist_matrix();
    for (i, row) in w.iter().enumerate() {
        prop_assert_eq!(row[i], 0);
        prop_assert!(row.iter().all(|&x| x >= 0));
    }
    prop_assert_eq!(game.is_over(), game.settlement().is_some());
    Ok(())
}

/// The house-rule options that change scoring or play, each with a value that is not
/// Sochi's: any mix of them is a valid profile.
fn switches() -> [(&'static str, serde_json::Value); 11] {
    [
        ("whist_pass_half", json!(true)),
        ("checked_ten_consolation", json!(false)),
        ("whist_shortfall_cap", json!(true)),
        ("raspasy_zero_bonus", json!("price")),
        ("raspasy_series", json!("made")),
        ("raspasy_talon", json!("ignored")),
        ("dealer_consolation", json!(false)),
        ("dealer_whist_consolation", json!("all")),
        ("surrender", json!(3)),
        ("talon_bonus", json!(true)),
        ("ten_whisted", json!(false)),
    ]
}

/// Every preset, with a small pool so that games end within the generated deals, and the
/// options whose bit is set in `mix`.
fn preset_with_target(i: usize, target: u32, mix: u16) -> Profile {
    let mut p = Profile::preset(PRESETS[i])
        .unwrap()
        .with("pool_target", target)
        .unwrap();
    for (bit, (key, value)) in switches().into_iter().enumerate() {
        if mix & (1 << bit) != 0 {
            p = p.with(key, value).unwrap();
        }
    }
    p
}

proptest! {
    #[test]
    fn outcome_sequences_keep_the_sheet_sound(
        preset in 0..PRESETS.len(),
        target in 1u32..12,
        mix in any::<u16>(),
        first_dealer in 0u8..4,
        deals in prop::collection::vec(raw_deal(), 1..40),
    ) {
        let profile = preset_with_target(preset, target, mix);
        let first = Seat(first_dealer % profile.players());
        let mut game = Game::new(profile, first).unwrap();
        let mut scored = 0;
        for raw in &deals {
            let o = outcome(&game, raw);
            let before = game.sheet().clone();
            let dealer = game.dealer();
            let streak = game.raspasy_streak();
            match game.record_outcome(o) {
                Ok(()) => {
                    scored += 1;
                    prop_assert_eq!(game.dealer(), dealer.next(game.profile().players()));
                    check_deal_lines(&game, &before, &o, streak)?;
                }
                Err(GameError::GameOver) => {
                    prop_assert!(game.is_over());
                    break;
                }
                Err(GameError::Outcome(_)) => {
                    prop_assert_eq!(game.sheet(), &before);
                    prop_assert_eq!(game.dealer(), dealer);
                }
                Err(e) => prop_assert!(false, "unexpected {e}"),
            }
            check_invariants(&game)?;
        }
        prop_assert_eq!(game.history().len(), scored);
        prop_assert_eq!(game.scores().len(), scored);
        check_stop_lines(&game)?;
    }

    #[test]
    fn random_played_deals_keep_the_sheet_sound(
        preset in 0..PRESETS.len(),
        target in 1u32..8,
        mix in any::<u16>(),
        seed in any::<u64>(),
    ) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let profile = preset_with_target(preset, target, mix);
        let first = Seat(rng.gen_range(0..profile.players()));
        let mut game = Game::new(profile.clone(), first).unwrap();
        // The same deals entered in outcome form must pass the consistency check and give
        // the same sheet.
        let mut scorekeeper = Game::new(profile, first).unwrap();
        for _ in 0..6 {
            if game.is_over() {
                break;
            }
            let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
            deck.shuffle(&mut rng);
            game.start_deal(&deck.try_into().unwrap()).unwrap();
            while let Some(deal) = game.deal() {
                let player = deal.to_act().unwrap();
                let legal = deal.legal_actions_for(player);
                prop_assert!(!legal.is_empty());
                let action: Action = legal.get(rng.gen_range(0..legal.len())).unwrap();
                game.act(player, action).unwrap();
            }
            let o = *game.history().last().unwrap().outcome().unwrap();
            if let Some(e) = scorekeeper.record_outcome(o).err() {
                prop_assert!(false, "{o:?} refused: {e}");
            }
            prop_assert_eq!(scorekeeper.sheet(), game.sheet());
            check_invariants(&game)?;
        }
    }
}

/// Adds `lines` to `sheet`'s numbers with the test's own arithmetic: (pool, mountain, whists).
type Totals = (Vec<i64>, Vec<i64>, Vec<Vec<i64>>);

fn totals(sheet: &Sheet) -> Totals {
    (
        sheet.pool().to_vec(),
        sheet.mountain().to_vec(),
        sheet.whist_matrix(),
    )
}

fn add_lines(mut t: Totals, lines: &[Line]) -> Totals {
    for l in lines {
        let s = l.seat.index();
        match l.column {
            Column::Pool => t.0[s] += l.amount,
            Column::Mountain => t.1[s] += l.amount,
            Column::Whists { on } => t.2[s][on.index()] += l.amount,
        }
    }
    t
}

/// What each line may be, whatever the profile: nothing empty, no whists on oneself, a
/// mountain reduced only by R9.3, mountain lines only without `mountain_as_whists` and
/// converted lines only with it, pool points only where the rules give them.
fn check_line(p: &Profile, l: &Line) -> Result<(), TestCaseError> {
    prop_assert!(l.amount != 0, "{l:?}");
    prop_assert!(
        l.amount > 0 || matches!(l.why, Why::Overflow { .. }),
        "{l:?}"
    );
    if let Column::Whists { on } = l.column {
        prop_assert!(on != l.seat, "{l:?}");
    }
    let k = p.mountain_as_whists();
    prop_assert!(k == 0 || l.column != Column::Mountain, "{l:?}");
    prop_assert_eq!(
        l.converted.is_some(),
        k > 0
            && matches!(
                l.why,
                Why::Failed { .. }
                    | Why::Shortfall { .. }
                    | Why::MisereFailed { .. }
                    | Why::RaspasyTricks { .. }
                    | Why::Surrender { .. }
                    | Why::Overflow { .. }
            ),
        "{:?}",
        l
    );
    if let Some(c) = l.converted {
        prop_assert_eq!(l.amount, i64::from(c.factor) * c.mountain.abs());
    }
    if l.column == Column::Pool {
        prop_assert!(
            matches!(
                l.why,
                Why::Made { .. }
                    | Why::Conceded { .. }
                    | Why::HalfWhistStands { .. }
                    | Why::MisereMade
                    | Why::RaspasyZero { .. }
                    | Why::Help { .. }
            ),
            "{l:?}"
        );
    }
    let rule = l.rule();
    prop_assert!(rule.starts_with('R') && rule[1..].split('.').all(|n| n.parse::<u8>().is_ok()));
    Ok(())
}

/// The deal `o`, scored after `before` with `record_explained`, gives the game's sheet and
/// the game's lines for it, and the lines added to `before` with the test's own arithmetic
/// give that sheet.
fn check_deal_lines(
    game: &Game,
    before: &Sheet,
    o: &Outcome,
    streak: u32,
) -> Result<(), TestCaseError> {
    let p = game.profile();
    let mut sheet = before.clone();
    let lines = sheet.record_explained(p, o, streak);
    prop_assert_eq!(&sheet, game.sheet());
    let score = game.scores().last().unwrap();
    prop_assert_eq!(&score.lines, &lines);
    prop_assert_eq!(&score.sheet, game.sheet());
    prop_assert_eq!(add_lines(totals(before), &lines), totals(game.sheet()));
    for l in &lines {
        check_line(p, l)?;
    }
    Ok(())
}

/// R10.3's lines, added to the sheet, give the agreed settlement.
fn check_stop_lines(game: &Game) -> Result<(), TestCaseError> {
    let (p, sheet) = (game.profile(), game.sheet());
    let mut stopped = sheet.clone();
    for l in &sheet.agreed_stop_lines(p) {
        prop_assert!(
            matches!(l.why, Why::OpenPool { missing } if missing > 0),
            "{l:?}"
        );
        stopped.apply(l);
    }
    prop_assert_eq!(stopped.settlement(p, false), sheet.settlement(p, true));
    Ok(())
}
