//! R8–R10 with exact numbers: every scoring example of `docs/worked-example.md`, then
//! each option of `options.md` that changes a score. Seats: A = 0 (first hand), B = 1, C = 2
//! (dealer) unless a test says otherwise; the defenders of A are B (first) and C (second).
#![allow(missing_docs)]

mod common;

use common::{conceded, game, help_example_before, misere, profile, raspasy, record_all};
use num_rational::Ratio;
use pref_core::{Outcome, Profile, Seat, Sheet};
use serde_json::json;

fn scored(p: &Profile, outcomes: &[Outcome]) -> Sheet {
    let mut sheet = Sheet::new(p.players());
    record_all(&mut sheet, p, outcomes);
    sheet
}

fn sochi(outcomes: &[Outcome]) -> Sheet {
    scored(&Profile::sochi(), outcomes)
}

fn w(s: &Sheet, a: u8, b: u8) -> i64 {
    s.whists(Seat(a), Seat(b))
}

#[test]
fn worked_deal_r8_1_r8_3_r8_4_four_pool_twelve_whists() {
    let s = sochi(&[game(3, 2, 0, "7H", "- w w", &[7, 3, 0])]);
    assert_eq!(s.pool(), [4, 0, 0]);
    assert_eq!(s.mountain(), [0, 0, 0]);
    assert_eq!(
        s.whist_matrix(),
        vec![vec![0, 0, 0], vec![12, 0, 0], vec![0, 0, 0]]
    );
}

#[test]
fn example_1_r8_1_r8_3_made_both_whist() {
    let s = sochi(&[game(3, 2, 0, "7H", "- w w", &[7, 2, 1])]);
    assert_eq!(s.pool(), [4, 0, 0]);
    assert_eq!((w(&s, 1, 0), w(&s, 2, 0)), (8, 4));
    assert_eq!(s.mountain(), [0, 0, 0]);
}

#[test]
fn example_2_r8_2_remise_and_consolation() {
    let s = sochi(&[game(3, 2, 0, "7H", "- w w", &[6, 3, 1])]);
    assert_eq!(s.mountain(), [4, 0, 0]);
    assert_eq!((w(&s, 1, 0), w(&s, 2, 0)), (16, 8));
    assert_eq!(s.pool(), [0, 0, 0]);
}

#[test]
fn example_3_r8_4_two_whisters_against_6_shortfall() {
    let s = sochi(&[game(3, 2, 0, "6C", "- w w", &[8, 2, 0])]);
    assert_eq!(s.pool(), [2, 0, 0]);
    assert_eq!((w(&s, 1, 0), w(&s, 2, 0)), (4, 0));
    assert_eq!(s.mountain(), [0, 0, 4]);
}

#[test]
fn example_4_r8_2_r8_3_one_whister_failed_six() {
    let s = sochi(&[game(3, 2, 0, "6S", "- w p", &[5, 3, 2])]);
    assert_eq!((w(&s, 1, 0), w(&s, 2, 0)), (12, 2));
    assert_eq!(s.mountain(), [2, 0, 0]);
    assert_eq!(s.pool(), [0, 0, 0]);
}

#[test]
fn example_6_r8_9_raspasy() {
    let s = sochi(&[raspasy(3, 2, &[0, 5, 5])]);
    assert_eq!(s.pool(), [1, 0, 0]);
    assert_eq!(s.mountain(), [0, 5, 5]);
}

#[test]
fn example_7_r8_8_misere_two_tricks() {
    let s = sochi(&[misere(3, 2, 0, &[2, 4, 4])]);
    assert_eq!(s.mountain(), [20, 0, 0]);
    assert_eq!(s.pool(), [0, 0, 0]);
    assert_eq!(s.whist_matrix(), vec![vec![0; 3]; 3]);
}

#[test]
fn r8_8_misere_made() {
    let s = sochi(&[misere(3, 2, 1, &[6, 0, 4])]);
    assert_eq!(s.pool(), [0, 10, 0]);
    assert_eq!(s.mountain(), [0, 0, 0]);
}

#[test]
fn r8_5_two_passes_concede() {
    let s = sochi(&[game(3, 2, 0, "8D", "- p p", &[])]);
    assert_eq!(s.pool(), [6, 0, 0]);
    assert_eq!(s.whist_matrix(), vec![vec![0; 3]; 3]);
}

#[test]
fn r8_6_half_whist_stands_against_6_and_7() {
    let s = sochi(&[game(3, 2, 0, "6S", "- p h", &[])]);
    assert_eq!(s.pool(), [2, 0, 0]);
    assert_eq!(w(&s, 2, 0), 4);
    let s = sochi(&[game(3, 2, 0, "7NT", "- p h", &[])]);
    assert_eq!(s.pool(), [4, 0, 0]);
    assert_eq!(w(&s, 2, 0), 4);
}

#[test]
fn r8_7_returned_whist_failed_returner_writes_both_consolations() {
    let s = sochi(&[game(3, 2, 0, "6S", "- w h", &[5, 3, 2])]);
    assert_eq!(w(&s, 1, 0), 10 + 2 + 2);
    assert_eq!(w(&s, 2, 0), 0);
    assert_eq!(s.mountain(), [2, 0, 0]);
}

#[test]
fn r8_7_returned_whist_made_is_one_whister() {
    let s = sochi(&[game(3, 2, 0, "7S", "- w h", &[7, 2, 1])]);
    assert_eq!((w(&s, 1, 0), w(&s, 2, 0)), (12, 0));
    assert_eq!(s.pool(), [4, 0, 0]);
    // Short of the quota, the returner answers alone.
    let s = sochi(&[game(3, 2, 0, "7S", "- w h", &[9, 1, 0])]);
    assert_eq!(s.mountain(), [0, 4, 0]);
}

#[test]
fn r8_3_second_defender_as_lone_whister() {
    let s = sochi(&[game(3, 2, 0, "6S", "- p w", &[6, 3, 1])]);
    assert_eq!((w(&s, 1, 0), w(&s, 2, 0)), (0, 8));
}

#[test]
fn r8_4_one_whister_shortfall() {
    let s = sochi(&[game(3, 2, 0, "6S", "- w p", &[8, 1, 1])]);
    assert_eq!(s.mountain(), [0, 4, 0]);
    assert_eq!(w(&s, 1, 0), 4);
    assert_eq!(s.pool(), [2, 0, 0]);
}

#[test]
fn r8_4_two_whisters_against_7_and_8() {
    let s = sochi(&[game(3, 2, 0, "7S", "- w w", &[9, 1, 0])]);
    assert_eq!(s.mountain(), [0, 0, 4]);
    let s = sochi(&[game(3, 2, 0, "7S", "- w w", &[8, 0, 2])]);
    assert_eq!(s.mountain(), [0, 0, 0], "quota met: the 0 is not penalised");
    let s = sochi(&[game(3, 2, 0, "8S", "- w w", &[10, 0, 0])]);
    assert_eq!(s.mountain(), [0, 0, 6], "only the second defender");
    let s = sochi(&[game(3, 2, 0, "6S", "- w w", &[7, 0, 3])]);
    assert_eq!(s.mountain(), [0, 4, 0]);
    let s = sochi(&[game(3, 2, 0, "6S", "- w w", &[6, 0, 4])]);
    assert_eq!(s.mountain(), [0, 0, 0], "4-0 against 6 is fine");
}

#[test]
fn r5_6_ten_whisted_with_quota_one() {
    let s = sochi(&[game(3, 2, 0, "10H", "- w p", &[10, 0, 0])]);
    assert_eq!(s.pool(), [10, 0, 0]);
    assert_eq!(s.mountain(), [0, 10, 0]);
}

#[test]
fn r5_6_unwhisted_ten_has_no_trick_whists_or_quota() {
    let p = profile(json!({"preset": "sochi", "ten_whisted": false}));
    let s = scored(&p, &[game(3, 2, 0, "10H", "", &[10, 0, 0])]);
    assert_eq!(s.pool(), [10, 0, 0]);
    assert_eq!(s.mountain(), [0, 0, 0]);
    let s = scored(&p, &[game(3, 2, 0, "10H", "", &[9, 1, 0])]);
    assert_eq!(s.mountain(), [10, 0, 0]);
    // Consolation is still written by both defenders (R8.2).
    assert_eq!((w(&s, 1, 0), w(&s, 2, 0)), (10, 10));
}

#[test]
fn r8_10_pool_points_in_seat_order_from_first_hand() {
    let p = profile(json!({"preset": "sochi", "pool_target": 3, "raspasy_zero_bonus": 2}));
    // Deal 1 (dealer C): B and C take nothing, pools 0, 2, 2. Deal 2 (dealer A, first hand
    // B): B and C take nothing again. B comes first: he closes and his point over helps C,
    // the highest open pool; then C's two points help A.
    let s = scored(
        &p,
        &[raspasy(3, 2, &[10, 0, 0]), raspasy(3, 0, &[10, 0, 0])],
    );
    assert_eq!(s.pool(), [2, 3, 3]);
    assert_eq!(
        s.whist_matrix(),
        vec![vec![0, 0, 0], vec![0, 0, 10], vec![20, 0, 0]]
    );
    assert_eq!(s.mountain(), [20, 0, 0]);
}

#[test]
fn r8_9_amnesty() {
    let p = profile(json!({"preset": "sochi", "raspasy_amnesty": true}));
    let s = scored(&p, &[raspasy(3, 2, &[4, 3, 3])]);
    assert_eq!(s.mountain(), [1, 0, 0]);
    assert_eq!(s.pool(), [0, 0, 0], "amnesty never creates a zero bonus");
    let s = scored(&p, &[raspasy(3, 2, &[0, 5, 5])]);
    assert_eq!((s.mountain(), s.pool()), (&[0, 5, 5][..], &[1, 0, 0][..]));
}

#[test]
fn r8_9_zero_bonus_option() {
    let p = profile(json!({"preset": "sochi", "raspasy_zero_bonus": 0}));
    assert_eq!(scored(&p, &[raspasy(3, 2, &[0, 5, 5])]).pool(), [0, 0, 0]);
    let p = profile(json!({"preset": "sochi", "raspasy_zero_bonus": 3}));
    assert_eq!(scored(&p, &[raspasy(3, 2, &[0, 0, 10])]).pool(), [3, 3, 0]);
}

#[test]
fn r8_9_raspasy_price_progression_resets_after_any_deal() {
    let p = profile(json!({"preset": "sochi", "raspasy_price": [1, 2, 3]}));
    let r = |d| raspasy(3, d, &[0, 4, 6]);
    let s = scored(&p, &[r(2), r(0), r(1), r(2)]);
    assert_eq!(s.mountain(), [0, 4 * (1 + 2 + 3 + 3), 6 * (1 + 2 + 3 + 3)]);
    // A conceded game in between starts the progression again.
    let s = scored(&p, &[r(2), game(3, 0, 1, "6S", "p - p", &[]), r(1)]);
    assert_eq!(s.mountain(), [0, 8, 12]);
}

#[test]
fn whist_scale_multiplies_trick_whists_consolation_and_half_whist() {
    let p = profile(json!({"preset": "sochi", "whist_scale": 3}));
    let s = scored(&p, &[game(3, 2, 0, "7H", "- w w", &[6, 3, 1])]);
    assert_eq!((w(&s, 1, 0), w(&s, 2, 0)), (48, 24));
    assert_eq!(s.mountain(), [4, 0, 0], "mountain is not a whist entry");
    let s = scored(&p, &[game(3, 2, 0, "6S", "- p h", &[])]);
    assert_eq!((w(&s, 2, 0), s.pool()[0]), (12, 2));
}

#[test]
fn mountain_scale_multiplies_remise_shortfall_misere_raspasy() {
    let p = profile(json!({"preset": "sochi", "mountain_scale": 2}));
    let s = scored(&p, &[game(3, 2, 0, "7H", "- w w", &[6, 3, 1])]);
    assert_eq!(s.mountain(), [8, 0, 0]);
    assert_eq!((w(&s, 1, 0), w(&s, 2, 0)), (16, 8));
    let s = scored(&p, &[game(3, 2, 0, "6C", "- w w", &[8, 2, 0])]);
    assert_eq!(s.mountain(), [0, 0, 8]);
    assert_eq!(
        scored(&p, &[misere(3, 2, 0, &[2, 4, 4])]).mountain(),
        [40, 0, 0]
    );
    assert_eq!(
        scored(&p, &[raspasy(3, 2, &[0, 5, 5])]).mountain(),
        [0, 10, 10]
    );
}

#[test]
fn r8_4_half_responsibility() {
    let p = profile(json!({"preset": "sochi", "whist_responsibility": "half"}));
    assert_eq!(
        scored(&p, &[game(3, 2, 0, "6C", "- w w", &[8, 2, 0])]).mountain(),
        [0, 0, 2]
    );
    assert_eq!(
        scored(&p, &[game(3, 2, 0, "6S", "- w p", &[8, 1, 1])]).mountain(),
        [0, 2, 0]
    );
    assert_eq!(
        scored(&p, &[game(3, 2, 0, "8S", "- w w", &[10, 0, 0])]).mountain(),
        [0, 0, 3]
    );
}

#[test]
fn r8_3_gentleman_split_on_a_failed_contract_only() {
    let p = profile(json!({"preset": "sochi", "whist_split": "gentleman"}));
    let s = scored(&p, &[game(3, 2, 0, "6S", "- w p", &[5, 3, 2])]);
    assert_eq!((w(&s, 1, 0), w(&s, 2, 0)), (5 + 2, 5 + 2));
    let s = scored(&p, &[game(3, 2, 0, "6S", "- w p", &[6, 3, 1])]);
    assert_eq!((w(&s, 1, 0), w(&s, 2, 0)), (8, 0));
    // R8.7: the returner and the half-whister split; the returner writes both consolations.
    let s = scored(&p, &[game(3, 2, 0, "6S", "- w h", &[5, 3, 2])]);
    assert_eq!((w(&s, 1, 0), w(&s, 2, 0)), (5 + 4, 5));
}

#[test]
fn mountain_as_whists_writes_every_mountain_entry_as_whists() {
    let p = profile(json!({"preset": "sochi", "mountain_as_whists": 5}));
    let s = scored(&p, &[game(3, 2, 0, "7H", "- w w", &[6, 3, 1])]);
    assert_eq!(s.mountain(), [0, 0, 0]);
    assert_eq!((w(&s, 1, 0), w(&s, 2, 0)), (16 + 20, 8 + 20));
    let s = scored(&p, &[raspasy(3, 2, &[0, 5, 5])]);
    assert_eq!(
        s.whist_matrix(),
        vec![vec![0, 25, 25], vec![0, 0, 25], vec![0, 25, 0]]
    );
}

/// A contract conceded by both defenders (R8.5): the declarer just earns its value.

#[test]
fn example_5_r9_2_help() {
    let p = Profile::sochi();
    let mut s = scored(&p, &help_example_before());
    assert_eq!(s.pool(), [19, 17, 14]);
    let whists_before = s.whist_matrix();
    // A makes an 8 (6 points): 1 closes A, 3 go to B, 2 go to C.
    s.record(&p, &conceded(0, "8S"), 0);
    assert_eq!(s.pool(), [20, 20, 16]);
    assert_eq!((w(&s, 0, 1), w(&s, 0, 2)), (30, 20));
    assert_eq!(whists_before, vec![vec![0; 3]; 3]);
}

#[test]
fn r9_2_tie_goes_to_the_nearest_clockwise_from_the_earner() {
    let p = profile(json!({"preset": "sochi", "pool_target": 4}));
    // C closes at 4, then earns 2 more with B and A level on 0: A is next clockwise from C.
    let s = scored(
        &p,
        &[
            game(3, 0, 2, "7S", "w p -", &[]),
            game(3, 0, 2, "6S", "w p -", &[]),
        ],
    );
    assert_eq!(s.pool(), [2, 0, 4]);
    assert_eq!(w(&s, 2, 0), 20);
}

#[test]
fn r9_3_overflow_off_the_earners_mountain_then_on_each_opponent() {
    let p = profile(json!({"preset": "sochi", "pool_target": 1}));
    let s = scored(
        &p,
        &[
            // B's zero bonus closes his pool; A gets 3 mountain, C 7.
            raspasy(3, 2, &[3, 0, 7]),
            // C closes and helps A, the only open pool.
            game(3, 0, 2, "6S", "p p -", &[]),
            // Every pool is closed: A's 6 points are 6 mountain points, 3 off his own
            // mountain, the other 3 on each opponent's.
            game(3, 1, 0, "8S", "- p p", &[]),
        ],
    );
    assert_eq!(s.pool(), [1, 1, 1]);
    assert_eq!(w(&s, 2, 0), 10);
    assert_eq!(s.mountain(), [0, 3, 7 + 3]);
}

#[test]
fn r9_3_without_help_and_pool_point_whists() {
    // Leningrad: no help, a pool point is two mountain points.
    let p = profile(json!({"preset": "leningrad", "pool_target": 2}));
    let s = scored(&p, &[game(3, 2, 0, "7S", "- p p", &[])]);
    assert_eq!(s.pool(), [2, 0, 0]);
    assert_eq!(s.mountain(), [0, 4, 4]);
    assert_eq!(s.whist_matrix(), vec![vec![0; 3]; 3]);
}

#[test]
fn r9_3_overflow_under_mountain_as_whists() {
    let p = profile(json!({"preset": "rostov", "pool_target": 2, "pool_help": false}));
    let s = scored(&p, &[game(3, 2, 0, "7S", "- p p", &[])]);
    assert_eq!(s.pool(), [2, 0, 0]);
    assert_eq!(s.mountain(), [0, 0, 0]);
    assert_eq!((w(&s, 0, 1), w(&s, 0, 2)), (10, 10));
}

#[test]
fn r9_2_help_is_ten_whists_whatever_the_scales() {
    let p = profile(json!({"preset": "leningrad", "pool_target": 2, "pool_help": true}));
    let s = scored(&p, &[game(3, 2, 0, "7S", "- p p", &[])]);
    assert_eq!(s.pool(), [2, 2, 0]);
    assert_eq!(w(&s, 0, 1), 20);
}

#[test]
fn r10_1_settlement_is_exact_and_sums_to_zero() {
    let s = sochi(&[
        game(3, 2, 0, "7H", "- w w", &[6, 3, 1]),
        raspasy(3, 0, &[1, 2, 7]),
    ]);
    // Mountains 5, 2, 7: avg 14/3.
    let r = s.settlement(&Profile::sochi(), false);
    assert_eq!(
        r,
        vec![
            Ratio::new(10 * (14 - 15), 3) - 24,
            Ratio::new(10 * (14 - 6), 3) + 16,
            Ratio::new(10 * (14 - 21), 3) + 8,
        ]
    );
    assert_eq!(r.iter().sum::<Ratio<i64>>(), Ratio::from_integer(0));
}

#[test]
fn r10_3_agreed_stop_charges_open_pools_on_a_copy() {
    let p = profile(json!({"preset": "sochi", "pool_target": 6}));
    let s = scored(&p, &[game(3, 2, 0, "7H", "- w w", &[7, 3, 0])]);
    let before = s.clone();
    // Pools 4, 0, 0: mountains become 2, 6, 6, avg 14/3.
    let r = s.settlement(&p, true);
    assert_eq!(
        r,
        vec![
            Ratio::new(10 * (14 - 6), 3) - 12,
            Ratio::new(10 * (14 - 18), 3) + 12,
            Ratio::new(10 * (14 - 18), 3),
        ]
    );
    assert_eq!(s, before);
    // Leningrad: a missing pool point is two mountain points, never scaled.
    let p = profile(json!({"preset": "leningrad", "pool_target": 2}));
    assert_eq!(
        Sheet::new(3).settlement(&p, true),
        vec![Ratio::from_integer(0); 3]
    );
    let s = scored(&p, &[raspasy(3, 2, &[0, 5, 5])]);
    assert_eq!(s.mountain(), [0, 10, 10]);
    // Mountains become 2, 14, 14: avg 10.
    assert_eq!(
        s.settlement(&p, true),
        vec![
            Ratio::from_integer(80),
            Ratio::from_integer(-40),
            Ratio::from_integer(-40)
        ]
    );
}

#[test]
fn r10_3_agreed_stop_under_mountain_as_whists() {
    let p = profile(json!({"preset": "rostov", "pool_target": 2}));
    let s = scored(&p, &[raspasy(3, 2, &[0, 5, 5])]);
    // B's 5 mountain points: 25 whists from A and from C on B; C's the same.
    assert_eq!(
        s.whist_matrix(),
        vec![vec![0, 25, 25], vec![0, 0, 25], vec![0, 25, 0]]
    );
    // A misses 1 point (5 whists from B and from C), B and C 2 (10 from each other player).
    assert_eq!(
        s.settlement(&p, true),
        vec![
            Ratio::from_integer(60),
            Ratio::from_integer(-30),
            Ratio::from_integer(-30)
        ]
    );
    assert_eq!(
        s.settlement(&p, false),
        vec![
            Ratio::from_integer(50),
            Ratio::from_integer(-25),
            Ratio::from_integer(-25)
        ]
    );
}

mod four_players {
    use super::*;

    fn sochi4(outcomes: &[Outcome]) -> Sheet {
        scored(&Profile::preset("sochi4").unwrap(), outcomes)
    }

    #[test]
    fn r11_2_dealer_writes_consolation() {
        let s = sochi4(&[game(4, 3, 0, "6S", "- w w -", &[5, 3, 2, 0])]);
        assert_eq!((w(&s, 1, 0), w(&s, 2, 0), w(&s, 3, 0)), (6 + 2, 4 + 2, 2));
        assert_eq!(s.mountain(), [2, 0, 0, 0]);
    }

    #[test]
    fn r11_1_defenders_skip_the_dealer() {
        // Dealer 1, declarer 0: the defenders are 2 (first) and 3 (second).
        let s = sochi4(&[game(4, 1, 0, "8S", "- - w w", &[10, 0, 0, 0])]);
        assert_eq!(s.mountain(), [0, 0, 0, 6]);
        assert_eq!(s.pool(), [6, 0, 0, 0]);
    }

    #[test]
    fn r11_4_dealer_whist_is_the_lone_whister() {
        let s = sochi4(&[game(4, 3, 0, "6S", "- p p w", &[5, 3, 2, 0])]);
        assert_eq!((w(&s, 1, 0), w(&s, 2, 0), w(&s, 3, 0)), (2, 2, 10 + 2));
        assert_eq!(s.mountain(), [2, 0, 0, 0]);
        let s = sochi4(&[game(4, 3, 0, "6S", "- p p w", &[8, 1, 1, 0])]);
        assert_eq!(s.mountain(), [0, 0, 0, 4], "the whole quota is his");
        assert_eq!(w(&s, 3, 0), 4);
    }

    #[test]
    fn r11_4_no_gentleman_split_and_half_whist_dropped() {
        let p = profile(json!({"preset": "sochi4", "whist_split": "gentleman"}));
        let s = scored(&p, &[game(4, 3, 0, "6S", "- p h -", &[])]);
        assert_eq!(w(&s, 2, 0), 4, "a standing half-whist without the dealer");
        let s = scored(&p, &[game(4, 3, 0, "6S", "- p h w", &[5, 3, 2, 0])]);
        assert_eq!((w(&s, 1, 0), w(&s, 2, 0), w(&s, 3, 0)), (2, 2, 12));
    }

    #[test]
    fn r11_3_dealer_tricks_on_raspasy() {
        let s = sochi4(&[raspasy(4, 3, &[0, 4, 5, 1])]);
        assert_eq!(s.mountain(), [0, 4, 5, 1]);
        assert_eq!(s.pool(), [1, 0, 0, 0]);
        let s = sochi4(&[raspasy(4, 3, &[1, 4, 5, 0])]);
        assert_eq!(
            s.pool(),
            [0, 0, 0, 1],
            "a true zero earns the dealer the bonus"
        );
    }

    #[test]
    fn r11_5_settlement_over_four() {
        let s = sochi4(&[raspasy(4, 3, &[0, 4, 5, 1])]);
        let r = s.settlement(&Profile::preset("sochi4").unwrap(), false);
        assert_eq!(
            r,
            vec![
                Ratio::new(100, 4),
                Ratio::new(-60, 4),
                Ratio::new(-100, 4),
                Ratio::new(60, 4)
            ]
        );
    }
}
