//! The lines that explain a deal (`Sheet::record_explained`), exactly, for the scoring
//! examples of `docs/rules.md` and `docs/worked-example.md` and for each kind of entry:
//! seat, column, amount, reason and rule id. Seats: A = 0, B = 1, C = 2 (dealer) unless a
//! test says otherwise.
#![allow(missing_docs)]

mod common;

use common::{
    conceded, game, help_example_before, misere, profile, raspasy, record_all, surrender,
    with_units,
};
use pref_core::{Column, Consoler, Contract, Converted, Line, Outcome, Profile, Seat, Sheet, Why};
use serde_json::json;

fn c(s: &str) -> Contract {
    s.parse().unwrap()
}

fn line(seat: u8, column: Column, amount: i64, why: Why) -> Line {
    Line {
        dark: false,
        seat: Seat(seat),
        column,
        amount,
        why,
        converted: None,
    }
}

fn on(s: u8) -> Column {
    Column::Whists { on: Seat(s) }
}

/// The lines of `last`, scored after `before` on a fresh sheet.
fn lines_after(p: &Profile, before: &[Outcome], last: &Outcome) -> Vec<Line> {
    let mut sheet = Sheet::new(p.players());
    let streak = record_all(&mut sheet, p, before);
    sheet.record_explained(p, last, streak)
}

fn lines(p: &Profile, o: &Outcome) -> Vec<Line> {
    lines_after(p, &[], o)
}

#[test]
fn worked_deal_r8_1_pool_and_r8_3_trick_whists() {
    let l = lines(&Profile::sochi(), &game(3, 2, 0, "7H", "- w w", &[7, 3, 0]));
    let tw = |tricks| Why::TrickWhists {
        contract: c("7H"),
        tricks,
        split: false,
        dealer: false,
    };
    // R8.10: whists before pool points; C's trick whists of nothing are not written.
    assert_eq!(
        l,
        vec![
            line(1, on(0), 12, tw(3)),
            line(
                0,
                Column::Pool,
                4,
                Why::Made {
                    contract: c("7H"),
                    unwhisted: false
                }
            ),
        ]
    );
    assert_eq!((l[0].rule(), l[1].rule()), ("R8.3", "R8.1"));
}

#[test]
fn example_2_r8_2_remise_then_consolation_then_trick_whists() {
    let l = lines(&Profile::sochi(), &game(3, 2, 0, "7H", "- w w", &[6, 3, 1]));
    let cons = |owner| Why::Consolation {
        contract: c("7H"),
        undertricks: 1,
        owner: Seat(owner),
        by: Consoler::Defender,
    };
    let tw = |tricks| Why::TrickWhists {
        contract: c("7H"),
        tricks,
        split: false,
        dealer: false,
    };
    let failed = Why::Failed {
        contract: c("7H"),
        undertricks: 1,
        unwhisted: false,
    };
    assert_eq!(
        l,
        vec![
            line(0, Column::Mountain, 4, failed),
            line(1, on(0), 4, cons(1)),
            line(2, on(0), 4, cons(2)),
            line(1, on(0), 12, tw(3)),
            line(2, on(0), 4, tw(1)),
        ]
    );
    assert_eq!(l[0].rule(), "R8.2");
}

#[test]
fn example_3_r8_4_shortfall_of_the_second_whister_against_6() {
    let l = lines(&Profile::sochi(), &game(3, 2, 0, "6C", "- w w", &[8, 2, 0]));
    let short = Why::Shortfall {
        contract: c("6C"),
        short: 2,
        half: false,
    };
    assert_eq!(l[0], line(2, Column::Mountain, 4, short));
    assert_eq!(l[0].rule(), "R8.4");
    assert_eq!(l.len(), 3, "{l:?}");
}

#[test]
fn r8_3_gentleman_split_on_a_failed_contract() {
    let p = profile(json!({"preset": "sochi", "whist_split": "gentleman"}));
    let l = lines(&p, &game(3, 2, 0, "6S", "- w p", &[5, 3, 2]));
    let split = Why::TrickWhists {
        contract: c("6S"),
        tricks: 5,
        split: true,
        dealer: false,
    };
    assert_eq!(
        &l[3..],
        [line(1, on(0), 5, split), line(2, on(0), 5, split)]
    );
}

#[test]
fn r8_5_conceded_and_r8_6_half_whist() {
    let p = Profile::sochi();
    let conceded = lines(&p, &game(3, 2, 0, "8S", "- p p", &[]));
    assert_eq!(
        conceded,
        [line(
            0,
            Column::Pool,
            6,
            Why::Conceded { contract: c("8S") }
        )]
    );
    let half = lines(&p, &game(3, 2, 0, "6S", "- p h", &[]));
    assert_eq!(
        half,
        [
            line(2, on(0), 4, Why::HalfWhist { contract: c("6S") }),
            line(
                0,
                Column::Pool,
                2,
                Why::HalfWhistStands { contract: c("6S") }
            ),
        ]
    );
    assert_eq!(half[0].rule(), "R8.6");
}

#[test]
fn r8_7_the_returner_writes_the_half_whisters_consolation() {
    let l = lines(&Profile::sochi(), &game(3, 2, 0, "7S", "- w h", &[6, 3, 1]));
    let by_returner = Why::Consolation {
        contract: c("7S"),
        undertricks: 1,
        owner: Seat(2),
        by: Consoler::Returner,
    };
    assert!(l.contains(&line(1, on(0), 4, by_returner)), "{l:?}");
    assert_eq!(by_returner.rule(), "R8.7");
}

#[test]
fn r8_8_misere() {
    let p = Profile::sochi();
    assert_eq!(
        lines(&p, &misere(3, 2, 0, &[0, 5, 5])),
        [line(0, Column::Pool, 10, Why::MisereMade)]
    );
    assert_eq!(
        lines(&p, &misere(3, 2, 0, &[2, 4, 4])),
        [line(
            0,
            Column::Mountain,
            20,
            Why::MisereFailed { tricks: 2 }
        )]
    );
}

#[test]
fn example_6_r8_9_raspasy_with_the_deals_price() {
    let p = Profile::sochi();
    let t = |tricks, dealer| Why::RaspasyTricks {
        tricks,
        charged: tricks,
        price: 1,
        dealer,
    };
    assert_eq!(
        lines(&p, &raspasy(3, 2, &[0, 5, 5])),
        [
            line(1, Column::Mountain, 5, t(5, false)),
            line(2, Column::Mountain, 5, t(5, false)),
            line(
                0,
                Column::Pool,
                1,
                Why::RaspasyZero {
                    price: 1,
                    dealer: false
                }
            ),
        ]
    );
}

#[test]
fn r4_5_surrender() {
    let p = profile(json!({"preset": "sochi", "surrender": 3}));
    let l = lines(&p, &surrender(3, 2, 0, "7S"));
    let why = Why::Surrender {
        bid: c("7S"),
        factor: 3,
    };
    assert_eq!(l, [line(0, Column::Mountain, 12, why)]);
    assert_eq!(why.rule(), "R4.5");
}

#[test]
fn example_5_r9_2_help_lines() {
    // Pools 19, 17, 14; A makes 8 (6 points): 1 closes A, 3 go to B, 2 go to C.
    let l = lines_after(
        &Profile::sochi(),
        &help_example_before(),
        &conceded(0, "8S"),
    );
    let help = |points| Why::Help {
        earner: Seat(0),
        points,
    };
    assert_eq!(
        l,
        [
            line(0, Column::Pool, 1, Why::Conceded { contract: c("8S") }),
            line(1, Column::Pool, 3, help(3)),
            line(0, on(1), 30, help(3)),
            line(2, Column::Pool, 2, help(2)),
            line(0, on(2), 20, help(2)),
        ]
    );
    assert_eq!(l[1].rule(), "R9.2");
}

#[test]
fn r9_3_overflow_lines_off_the_earners_mountain_then_on_each_opponent() {
    let p = profile(json!({"preset": "sochi", "pool_target": 1}));
    let before = [raspasy(3, 2, &[3, 0, 7]), game(3, 0, 2, "6S", "p p -", &[])];
    let l = lines_after(&p, &before, &game(3, 1, 0, "8S", "- p p", &[]));
    let over = Why::Overflow {
        earner: Seat(0),
        points: 6,
    };
    assert_eq!(
        l,
        [
            line(0, Column::Mountain, -3, over),
            line(1, Column::Mountain, 3, over),
            line(2, Column::Mountain, 3, over),
        ]
    );
    assert_eq!(over.rule(), "R9.3");
}

#[test]
fn mountain_as_whists_writes_each_mountain_entry_as_whists_by_the_others() {
    // Rostov: k = 5; a failed 7 (4 mountain) is 20 whists by B and by C on A.
    let p = Profile::preset("rostov").unwrap();
    let l = lines(&p, &game(3, 2, 0, "7S", "- w p", &[6, 3, 1]));
    let failed = Why::Failed {
        contract: c("7S"),
        undertricks: 1,
        unwhisted: false,
    };
    let converted = Some(Converted {
        seat: Seat(0),
        mountain: 4,
        factor: 5,
    });
    for (i, writer) in [1, 2].into_iter().enumerate() {
        assert_eq!(
            l[i],
            Line {
                dark: false,
                seat: Seat(writer),
                column: on(0),
                amount: 20,
                why: failed,
                converted
            }
        );
    }
    // R9.3 under k: the whole overflow is one entry −r on the earner.
    let p = profile(json!({"preset": "rostov", "pool_target": 2, "pool_help": false}));
    let l = lines(&p, &game(3, 2, 0, "7S", "- p p", &[]));
    assert_eq!(l.len(), 3, "{l:?}");
    assert_eq!((l[1].seat, l[1].column, l[1].amount), (Seat(0), on(1), 10));
    assert_eq!(l[1].converted.map(|c| c.mountain), Some(-2));
}

#[test]
fn four_players_r11_2_dealer_consolation_r11_6_talon_bonus_r11_3_talon_tricks() {
    let p = profile(json!({"preset": "sochi4", "talon_bonus": true}));
    // Dealer D = 3; A declares 7♠, B and C whist, A takes 6.
    let o = with_units(game(4, 3, 0, "7S", "- w w", &[6, 3, 1]), 2);
    let l = lines(&p, &o);
    let bonus = Why::TalonBonus {
        contract: c("7S"),
        units: 2,
    };
    assert!(l.contains(&line(3, on(0), 8, bonus)), "{l:?}");
    let dealers = Why::Consolation {
        contract: c("7S"),
        undertricks: 1,
        owner: Seat(3),
        by: Consoler::Dealer,
    };
    assert!(l.contains(&line(3, on(0), 4, dealers)), "{l:?}");
    assert_eq!((bonus.rule(), dealers.rule()), ("R11.6", "R11.2"));
    // Raspasy: the dealer's talon won a trick.
    let l = lines(&p, &raspasy(4, 3, &[3, 3, 3, 1]));
    let talon = Why::RaspasyTricks {
        tricks: 1,
        charged: 1,
        price: 1,
        dealer: true,
    };
    assert!(l.contains(&line(3, Column::Mountain, 1, talon)), "{l:?}");
    assert_eq!(talon.rule(), "R11.3");
}

#[test]
fn r10_3_agreed_stop_lines_charge_each_open_pool() {
    // The Game doc example: raspasy 0–5–5, then an agreed stop at target 20.
    let p = Profile::sochi();
    let mut sheet = Sheet::new(3);
    sheet.record(&p, &raspasy(3, 2, &[0, 5, 5]), 0);
    let stop = sheet.agreed_stop_lines(&p);
    assert_eq!(
        stop,
        [
            line(0, Column::Mountain, 19, Why::OpenPool { missing: 19 }),
            line(1, Column::Mountain, 20, Why::OpenPool { missing: 20 }),
            line(2, Column::Mountain, 20, Why::OpenPool { missing: 20 }),
        ]
    );
    assert_eq!(stop[0].rule(), "R10.3");
    // The sheet as recorded is unchanged.
    assert_eq!(sheet.mountain(), [0, 5, 5]);
}

#[test]
fn a_line_in_json_flattens_its_column_and_reason() {
    let l = lines(&Profile::sochi(), &game(3, 2, 0, "7H", "- w w", &[7, 3, 0]));
    let v = serde_json::to_value(&l).unwrap();
    assert_eq!(
        v,
        json!([
            {"seat": 1, "column": "whists", "on": 0, "amount": 12, "reason": "trick_whists",
             "contract": "7H", "tricks": 3, "split": false, "dealer": false},
            {"seat": 0, "column": "pool", "amount": 4, "reason": "made", "contract": "7H",
             "unwhisted": false}
        ])
    );
    let back: Vec<Line> = serde_json::from_value(v).unwrap();
    assert_eq!(back, l);
}
