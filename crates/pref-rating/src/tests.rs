//! Unit tests of the method's rules, with exact expected values. The figures of the uneven
//! games were computed apart from this crate, from the formulas of `docs/ratings.md`
//! (Bradley-Terry full pairing, `c² = 2β² + σᵢ² + σ_q²`, `γ = σᵢ / c`).

use super::*;
use num_rational::Ratio;

fn bal(n: i64) -> Finish {
    Finish::Balance(Ratio::from_integer(n))
}

fn rating(mu: f64, sigma: f64, games: u32) -> Rating {
    Rating { mu, sigma, games }
}

/// `got` is `want` (mean and deviation to 1e-9, games exactly), player by player.
#[track_caller]
fn assert_ratings(got: &[Rating], want: &[(f64, f64, u32)]) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g.mu - w.0).abs() < 1e-9 && (g.sigma - w.1).abs() < 1e-9 && g.games == w.2,
            "{got:?} is not {want:?}"
        );
    }
}

/// Three players of unequal ratings and deviations.
fn uneven() -> [Rating; 3] {
    [
        rating(1600.0, 200.0, 12),
        rating(1500.0, 300.0, 3),
        rating(1400.0, 100.0, 40),
    ]
}

/// 350 × √(1 − 2 × ½ × ¼ × ¼): the deviation of a new player after one game among new
/// players, whatever his place.
const NEW_AFTER_ONE: f64 = 338.886042793149;

#[test]
fn places_rank_by_balance_with_ties_and_abandons_last() {
    assert_eq!(places(&[bal(10), bal(-20), bal(10)]), vec![1, 3, 1]);
    assert_eq!(
        places(&[bal(-50), Finish::Abandoned, bal(50)]),
        vec![2, 3, 1]
    );
    assert_eq!(
        places(&[Finish::Abandoned, Finish::Abandoned, bal(0)]),
        vec![2, 2, 1]
    );
    // Exact rationals: a third of a whist apart is not a tie.
    let third = Finish::Balance(Ratio::new(1, 3));
    assert_eq!(places(&[third, bal(0), bal(0)]), vec![1, 2, 2]);
}

#[test]
fn three_new_players_move_by_exactly_half_a_new_deviation() {
    let p = Params::STANDARD;
    let after = rate(&[Rating::new(&p); 3], &[bal(30), bal(0), bal(-30)], 1.0, &p);
    assert_ratings(
        &after,
        &[
            (1675.0, NEW_AFTER_ONE, 1),
            (1500.0, NEW_AFTER_ONE, 1),
            (1325.0, NEW_AFTER_ONE, 1),
        ],
    );
}

#[test]
fn a_tie_is_half_a_win_each_way() {
    let p = Params::STANDARD;
    let after = rate(
        &[Rating::new(&p); 3],
        &[bal(10), bal(10), bal(-20)],
        1.0,
        &p,
    );
    assert_ratings(
        &after,
        &[
            (1587.5, NEW_AFTER_ONE, 1),
            (1587.5, NEW_AFTER_ONE, 1),
            (1325.0, NEW_AFTER_ONE, 1),
        ],
    );
}

#[test]
fn uneven_ratings_move_by_surprise_and_by_deviation() {
    let p = Params::STANDARD;
    let before = uneven();
    let after = rate(&before, &[bal(-5), bal(5), bal(0)], 1.0, &p);
    assert_ratings(
        &after,
        &[
            (1521.1523161975024, 197.9171432341509, 13),
            (1649.578450513638, 290.5095958856427, 4),
            (1403.0920931157757, 99.86323720297598, 41),
        ],
    );
}

#[test]
fn an_abandoner_is_last_below_every_balance() {
    let p = Params::STANDARD;
    let before = uneven();
    // The favourite walked out; the others' balances are both below zero.
    let after = rate(&before, &[Finish::Abandoned, bal(-40), bal(-60)], 1.0, &p);
    let by_balance = rate(&before, &[bal(-100), bal(-40), bal(-60)], 1.0, &p);
    assert_eq!(after, by_balance);
    assert_eq!(after, rate(&before, &[bal(-5), bal(5), bal(0)], 1.0, &p));
    // Two abandoners tie for last.
    let both = rate(
        &before,
        &[Finish::Abandoned, Finish::Abandoned, bal(-60)],
        1.0,
        &p,
    );
    assert_ratings(
        &both,
        &[
            (1553.8121794346114, 197.9171432341509, 13),
            (1422.867582693568, 290.5095958856427, 4),
            (1420.1172237309506, 99.86323720297598, 41),
        ],
    );
}

#[test]
fn a_weight_scales_the_change_of_mean_and_variance() {
    let p = Params::STANDARD;
    let before = uneven();
    let after = rate(&before, &[bal(-5), bal(5), bal(0)], 0.25, &p);
    assert_ratings(
        &after,
        &[
            (1580.2880790493755, 199.4813246810133, 13),
            (1537.3946126284095, 297.65576817090215, 4),
            (1400.773023278944, 99.9658268417986, 41),
        ],
    );
}

#[test]
fn the_same_accounts_count_fully_three_times_a_day_then_halve_to_an_eighth() {
    let weights: Vec<f64> = (0..8).map(same_trio_weight).collect();
    assert_eq!(weights, vec![1.0, 1.0, 1.0, 0.5, 0.25, 0.125, 0.125, 0.125]);
    assert_eq!(same_trio_weight(u32::MAX), WEIGHT_FLOOR);
}

#[test]
fn a_week_off_changes_nothing_then_each_day_adds_its_variance() {
    let p = Params::STANDARD;
    let sure = rating(1600.0, 100.0, 40);
    assert_eq!(sure.after_idle(0, &p), sure);
    assert_eq!(sure.after_idle(7, &p), sure);
    // One counted day: √(100² + 25²).
    assert!((sure.after_idle(8, &p).sigma - 103.07764064044152).abs() < 1e-9);
    // 30 days, 23 counted: √(10,000 + 23 × 625) = √24,375.
    let month = sure.after_idle(30, &p);
    assert!((month.sigma - 156.12494995995996).abs() < 1e-9);
    assert_eq!((month.mu, month.games), (1600.0, 40));
    // Half a year from a settled 80 comes back near a new player's 350: √(6,400 + 176 × 625).
    let settled = rating(1600.0, 80.0, 200);
    assert!((settled.after_idle(183, &p).sigma - 341.1744421846396).abs() < 1e-9);
    // Never above a new player's deviation, and a wider one is not narrowed.
    assert_eq!(sure.after_idle(100_000, &p).sigma, p.initial_sigma);
    assert_eq!(rating(1500.0, 360.0, 0).after_idle(400, &p).sigma, 360.0);
}

#[test]
fn a_rating_is_provisional_until_ten_games() {
    let p = Params::STANDARD;
    let mut three = vec![Rating::new(&p); 3];
    for game in 1..=10 {
        assert!(three.iter().all(Rating::provisional), "before game {game}");
        three = rate(&three, &[bal(1), bal(0), bal(-1)], 1.0, &p);
        assert!(three.iter().all(|r| r.games == game));
    }
    assert!(three.iter().all(|r| !r.provisional()));
    assert_eq!(PROVISIONAL_GAMES, 10);
}

#[test]
fn the_shown_figures_are_rounded() {
    let r = rating(1587.5, 338.886, 1);
    assert_eq!((r.shown(), r.shown_deviation()), (1588, 339));
    assert_eq!(rating(1324.49, 99.5, 1).shown(), 1324);
}

#[test]
fn families_round_trip_and_only_standard_presets_are_rated() {
    for f in Family::ALL {
        assert_eq!(Family::parse(f.as_str()), Some(f));
    }
    assert_eq!(Family::of_preset("sochi"), Some(Family::Sochi));
    assert_eq!(Family::of_preset("leningrad"), Some(Family::Leningrad));
    assert_eq!(Family::of_preset("rostov"), Some(Family::Rostov));
    assert_eq!(Family::of_preset("sochi4"), Some(Family::Four));
    assert_eq!(Family::of_preset("custom"), None);
    assert_eq!(Family::parse("sochi4"), None);
}
