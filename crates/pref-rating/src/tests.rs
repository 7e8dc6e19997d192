//! Unit tests of the method's building blocks.

use super::*;

fn bal(n: i64) -> Finish {
    Finish::Balance(Ratio::from_integer(n))
}

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
}

#[test]
fn the_winner_gains_the_loser_loses_and_everyone_is_surer() {
    let p = Params::STANDARD;
    let before = [Rating::new(&p); 3];
    let after = rate(&before, &[bal(30), bal(0), bal(-30)], 1.0, &p);
    assert!(after[0].mu > 1500.0 && after[2].mu < 1500.0);
    assert!(
        (after[1].mu - 1500.0).abs() < 1e-9,
        "the middle of equals stays: {}",
        after[1].mu
    );
    assert!(
        after
            .iter()
            .all(|r| r.sigma < p.initial_sigma && r.games == 1)
    );
}

#[test]
fn a_weight_scales_the_change() {
    let p = Params::STANDARD;
    let before = [Rating::new(&p); 3];
    let full = rate(&before, &[bal(30), bal(0), bal(-30)], 1.0, &p);
    let half = rate(&before, &[bal(30), bal(0), bal(-30)], 0.5, &p);
    assert!(((half[0].mu - 1500.0) * 2.0 - (full[0].mu - 1500.0)).abs() < 1e-9);
}

#[test]
fn idleness_widens_the_deviation_up_to_a_new_players() {
    let p = Params::STANDARD;
    let sure = Rating {
        mu: 1600.0,
        sigma: 100.0,
        games: 40,
    };
    let later = sure.after_idle(30, &p);
    assert!((later.sigma - (100.0f64 * 100.0 + 30.0 * p.daily_variance).sqrt()).abs() < 1e-9);
    assert_eq!(sure.after_idle(100_000, &p).sigma, p.initial_sigma);
    assert_eq!(later.mu, 1600.0);
}

#[test]
fn families_round_trip_and_only_standard_presets_are_rated() {
    for f in Family::ALL {
        assert_eq!(Family::parse(f.as_str()), Some(f));
    }
    assert_eq!(Family::of_preset("sochi4"), Some(Family::Four));
    assert_eq!(Family::of_preset("custom"), None);
}
