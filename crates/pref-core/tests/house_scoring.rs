//! The house-rule options that change a score (R8.2, R8.4, R8.9, R11.2, R11.4, R11.6), each
//! on and off with exact values worked by hand from the rules, and a few deals of a
//! Leningrad club (gchet's rules: the Leningrad preset with withdrawal to half-whist, the
//! shortfall cap, a zero worth the price, a series ended only by a made deal, and surrender)
//! scored deal by deal. Seats: A = 0 (first hand), B = 1, C = 2; C deals with three players,
//! D = 3 with four.
#![allow(missing_docs)]

mod common;

use common::{game, profile, raspasy, surrender, with_units};
use pref_core::{Action, Bid, Call, Card, Game, Outcome, OutcomeKind, Profile, Seat, talon_units};
use serde_json::json;

fn scored(p: &Profile, dealer: u8, outcomes: &[Outcome]) -> Game {
    let mut g = Game::new(p.clone(), Seat(dealer)).unwrap();
    for o in outcomes {
        // The dealer rotates (R1.3): each outcome is written for the dealer it comes to.
        let o = Outcome {
            dealer: g.dealer(),
            ..*o
        };
        g.record_outcome(o).unwrap();
    }
    g
}

fn w(g: &Game, a: u8, b: u8) -> i64 {
    g.sheet().whists(Seat(a), Seat(b))
}

fn refusal(p: &Profile, dealer: u8, o: Outcome) -> String {
    let mut g = Game::new(p.clone(), Seat(dealer)).unwrap();
    g.record_outcome(o).unwrap_err().to_string()
}

#[test]
fn r8_2_checked_ten_consolation() {
    // An unwhisted ten down one: 10 on A's mountain; consolation 10 by each other seat.
    let ten = game(3, 2, 0, "10S", "", &[9, 1, 0]);
    let on = profile(json!({"preset": "sochi", "ten_whisted": false}));
    let g = scored(&on, 2, &[ten]);
    assert_eq!(g.sheet().mountain(), [10, 0, 0]);
    assert_eq!((w(&g, 1, 0), w(&g, 2, 0)), (10, 10));
    let off = profile(json!({"preset": "sochi", "ten_whisted": false,
        "checked_ten_consolation": false}));
    let g = scored(&off, 2, &[ten]);
    assert_eq!(g.sheet().mountain(), [10, 0, 0]);
    assert_eq!(g.sheet().whist_matrix(), vec![vec![0; 3]; 3]);
    // A whisted ten keeps its consolation either way.
    let off = profile(json!({"preset": "sochi", "checked_ten_consolation": false}));
    let g = scored(&off, 2, &[game(3, 2, 0, "10S", "- w p", &[9, 1, 0])]);
    assert_eq!((w(&g, 1, 0), w(&g, 2, 0)), (10 + 10, 10));
}

#[test]
fn r8_4_whist_shortfall_cap() {
    // 6♠, both whist, 7–3–0: the defence has 3 of its 4; C took none.
    let deal = game(3, 2, 0, "6S", "- w w", &[7, 3, 0]);
    let g = scored(&Profile::sochi(), 2, &[deal]);
    assert_eq!(g.sheet().mountain(), [0, 0, 4]);
    let cap = profile(json!({"preset": "sochi", "whist_shortfall_cap": true}));
    let g = scored(&cap, 2, &[deal]);
    // Capped at the joint shortfall 4 − 3 = 1: v, not 2v.
    assert_eq!(g.sheet().mountain(), [0, 0, 2]);
    // 8–1–1: each is one short, the joint shortfall is 2: no cap bites.
    let deal = game(3, 2, 0, "6S", "- w w", &[8, 1, 1]);
    let g = scored(&cap, 2, &[deal]);
    assert_eq!(g.sheet().mountain(), [0, 2, 2]);
    // Against 7 the cap changes nothing.
    let deal = game(3, 2, 0, "7S", "- w w", &[9, 1, 0]);
    assert_eq!(scored(&cap, 2, &[deal]).sheet().mountain(), [0, 0, 4]);
}

#[test]
fn r8_9_zero_bonus_price() {
    let deals = [
        raspasy(3, 2, &[0, 5, 5]),
        raspasy(3, 0, &[0, 5, 5]),
        raspasy(3, 1, &[0, 5, 5]),
    ];
    // Sochi: one point a zero.
    let g = scored(&Profile::sochi(), 2, &deals[..1]);
    assert_eq!(g.sheet().pool(), [1, 0, 0]);
    let price = profile(json!({"preset": "sochi", "raspasy_zero_bonus": "price",
        "raspasy_price": [1, 2, 3]}));
    // Prices 1, 2, 3: zeros earn 1 + 2 + 3.
    let g = scored(&price, 2, &deals);
    assert_eq!(g.sheet().pool(), [6, 0, 0]);
    assert_eq!(g.sheet().mountain(), [0, 30, 30]);
    // × mountain_scale: Leningrad doubles it.
    let len = profile(json!({"preset": "leningrad", "raspasy_zero_bonus": "price"}));
    let g = scored(&len, 2, &deals);
    assert_eq!(g.sheet().pool(), [12, 0, 0]);
    let zero = profile(json!({"preset": "sochi", "raspasy_zero_bonus": 0}));
    assert_eq!(scored(&zero, 2, &deals).sheet().pool(), [0, 0, 0]);
}

#[test]
fn r8_9_raspasy_series_made() {
    let any = profile(json!({"preset": "sochi", "raspasy_price": [1, 2, 3],
        "raspasy_exit": [6, 7, 8]}));
    let made = profile(json!({"preset": "sochi", "raspasy_price": [1, 2, 3],
        "raspasy_exit": [6, 7, 8], "raspasy_series": "made"}));
    // Raspasy, then B fails 7♥ (6–4 tricks to the defence), then raspasy again.
    // B's first defender is C (whist), his second A (pass).
    let failed = game(3, 0, 1, "7H", "p - w", &[0, 6, 4]);
    let rasp = raspasy(3, 1, &[5, 5, 0]);
    let g = scored(&any, 2, &[raspasy(3, 2, &[0, 5, 5]), failed]);
    assert_eq!(g.raspasy_streak(), 0);
    let g = scored(&made, 2, &[raspasy(3, 2, &[0, 5, 5]), failed]);
    // The failed deal leaves the count standing: the next deal opens at 7 (R3.3).
    assert_eq!(g.raspasy_streak(), 1);
    let g_any = scored(&any, 2, &[raspasy(3, 2, &[0, 5, 5]), failed, rasp]);
    let g_made = scored(&made, 2, &[raspasy(3, 2, &[0, 5, 5]), failed, rasp]);
    // The second raspasy costs 1 a trick with "any", 2 with "made".
    assert_eq!(g_any.sheet().mountain()[0], 5);
    assert_eq!(g_made.sheet().mountain()[0], 10);
    // A made deal (here conceded) ends the series either way; so does a misère with no trick.
    let conceded = game(3, 0, 1, "6S", "p - p", &[]);
    assert_eq!(
        scored(&made, 2, &[raspasy(3, 2, &[0, 5, 5]), conceded]).raspasy_streak(),
        0
    );
    // A surrender is a failed deal (R4.5).
    let sur = profile(json!({"preset": "sochi", "raspasy_series": "made", "surrender": 3}));
    let g = scored(
        &sur,
        2,
        &[raspasy(3, 2, &[0, 5, 5]), surrender(3, 0, 1, "6S")],
    );
    assert_eq!(g.raspasy_streak(), 1);
}

#[test]
fn r11_2_dealer_consolation() {
    // Four players, A fails 6♠ by one against two whisters: consolation v·u = 2.
    let deal = game(4, 3, 0, "6S", "- w w -", &[5, 3, 2, 0]);
    let g = scored(&Profile::preset("sochi4").unwrap(), 3, &[deal]);
    assert_eq!((w(&g, 1, 0), w(&g, 2, 0), w(&g, 3, 0)), (6 + 2, 4 + 2, 2));
    let off = profile(json!({"preset": "sochi4", "dealer_consolation": false}));
    let g = scored(&off, 3, &[deal]);
    assert_eq!((w(&g, 1, 0), w(&g, 2, 0), w(&g, 3, 0)), (8, 6, 0));
}

#[test]
fn r11_4_dealer_whist_consolation() {
    // Both pass, D whists and plays both hands: A takes 5 of 6, v = 2, u = 1.
    let deal = game(4, 3, 0, "6S", "- p p w", &[5, 3, 2, 0]);
    let own = Profile::preset("sochi4").unwrap();
    let g = scored(&own, 3, &[deal]);
    // D: trick whists 2 × 5 = 10 and his own consolation 2; B and C 2 each.
    assert_eq!((w(&g, 1, 0), w(&g, 2, 0), w(&g, 3, 0)), (2, 2, 12));
    let all = profile(json!({"preset": "sochi4", "dealer_whist_consolation": "all"}));
    let g = scored(&all, 3, &[deal]);
    assert_eq!((w(&g, 1, 0), w(&g, 2, 0), w(&g, 3, 0)), (0, 0, 16));
    let all_no_own = profile(
        json!({"preset": "sochi4", "dealer_whist_consolation": "all",
        "dealer_consolation": false}),
    );
    let g = scored(&all_no_own, 3, &[deal]);
    assert_eq!((w(&g, 1, 0), w(&g, 2, 0), w(&g, 3, 0)), (0, 0, 14));
    // Made: no consolation to move.
    let made = game(4, 3, 0, "6S", "- p p w", &[6, 2, 2, 0]);
    assert_eq!(w(&scored(&all, 3, &[made]), 3, 0), 8);
}

#[test]
fn r11_6_talon_units() {
    let u = |a: &str, b: &str| talon_units([a.parse::<Card>().unwrap(), b.parse().unwrap()]);
    assert_eq!(u("AS", "AC"), 3);
    assert_eq!(u("AH", "KH"), 2);
    assert_eq!(u("KH", "AH"), 2);
    assert_eq!(u("AH", "KS"), 1);
    assert_eq!(u("AD", "7D"), 1);
    assert_eq!(u("QD", "KD"), 1);
    assert_eq!(u("KD", "QS"), 0);
    assert_eq!(u("7S", "8S"), 0);
}

#[test]
fn r11_6_talon_bonus_outcome_form() {
    let bonus = profile(json!({"preset": "sochi4", "talon_bonus": true}));
    // Conceded 7♥ with a talon of ace and king of one suit: D writes 2 · 4 = 8 on A.
    let g = scored(
        &bonus,
        3,
        &[with_units(game(4, 3, 0, "7H", "- p p -", &[]), 2)],
    );
    assert_eq!((g.sheet().pool()[0], w(&g, 3, 0)), (4, 8));
    // A failed 6♠ with two aces: 3 · 2 = 6, besides D's consolation of 2.
    let g = scored(
        &bonus,
        3,
        &[with_units(game(4, 3, 0, "6S", "- w w -", &[5, 3, 2, 0]), 3)],
    );
    assert_eq!(w(&g, 3, 0), 6 + 2);
    // × whist_scale.
    let scaled = profile(json!({"preset": "sochi4", "talon_bonus": true, "whist_scale": 2}));
    let g = scored(
        &scaled,
        3,
        &[with_units(game(4, 3, 0, "7H", "- p p -", &[]), 1)],
    );
    assert_eq!(w(&g, 3, 0), 8);
    // Off, or with three players, no units are written.
    let off = Profile::preset("sochi4").unwrap();
    assert!(
        refusal(&off, 3, with_units(game(4, 3, 0, "7H", "- p p -", &[]), 2))
            .contains("talon_units only with talon_bonus and four players")
    );
    assert!(refusal(&bonus, 3, game(4, 3, 0, "7H", "- p p -", &[])).contains("units are missing"));
    let three = profile(json!({"preset": "sochi", "talon_bonus": true}));
    let g = scored(&three, 2, &[game(3, 2, 0, "7H", "- p p", &[])]);
    assert_eq!(g.sheet().whist_matrix(), vec![vec![0; 3]; 3]);
    assert!(
        refusal(
            &bonus,
            3,
            with_units(game(4, 3, 0, "7H", "- p p -", &[]), 4)
        )
        .contains("0 to 3")
    );
}

#[test]
fn r11_6_talon_bonus_played_form() {
    let bonus = profile(json!({"preset": "sochi4", "talon_bonus": true}));
    let aces: [Card; 2] = ["AS".parse().unwrap(), "AC".parse().unwrap()];
    let mut deck: Vec<Card> = (0..32)
        .map(Card::from_index)
        .filter(|c| !aces.contains(c))
        .collect();
    deck.extend(aces);
    let deck: [Card; 32] = deck.try_into().unwrap();
    for (p, units, dealer_whists) in [
        (bonus, Some(3), 6),
        (Profile::preset("sochi4").unwrap(), None, 0),
    ] {
        let mut g = Game::new(p, Seat(3)).unwrap();
        g.start_deal(&deck).unwrap();
        let six = Bid::LOWEST;
        for (s, a) in [
            (0, Action::Bid(Call::Bid(six))),
            (1, Action::Bid(Call::Pass)),
            (2, Action::Bid(Call::Pass)),
            (0, Action::Discard(deck[..2].iter().copied().collect())),
            (0, Action::Declare(six.contract().unwrap())),
            (1, Action::Whist(pref_core::WhistCall::Pass)),
            (2, Action::Whist(pref_core::WhistCall::Pass)),
            (3, Action::Whist(pref_core::WhistCall::Pass)),
        ] {
            g.apply(Seat(s), a).unwrap();
        }
        let o = *g.history()[0].outcome().unwrap();
        let OutcomeKind::Game { talon_units, .. } = o.kind else {
            panic!("{o:?}");
        };
        assert_eq!(talon_units, units);
        assert_eq!(w(&g, 3, 0), dealer_whists);
        assert_eq!(g.sheet().pool()[0], 2);
    }
}

/// A Leningrad club: the Leningrad preset (whists and mountain doubled, half responsibility,
/// gentleman split, raspasy 1-2-3 with exits 6-7-8, no help, a pool point worth 20) with the
/// house rules such a club plays.
fn leningrad_club() -> Profile {
    profile(json!({
        "preset": "leningrad",
        "whist_pass_half": true,
        "whist_shortfall_cap": true,
        "raspasy_zero_bonus": "price",
        "raspasy_series": "made",
        "surrender": 3
    }))
}

#[test]
fn leningrad_club_six_against_two_whisters_three_nil() {
    // R8.1, R8.3, R8.4: 6♠ made 7–3–0. A: v = 2 pool. B: 2 × 3 × 2 = 12 whists.
    // C: 2 − 0 = 2 short, capped at the joint 1; half responsibility × mountain 2: 2·1/2·2 = 2.
    let g = scored(
        &leningrad_club(),
        2,
        &[game(3, 2, 0, "6S", "- w w", &[7, 3, 0])],
    );
    assert_eq!(g.sheet().pool(), [2, 0, 0]);
    assert_eq!(g.sheet().mountain(), [0, 0, 2]);
    assert_eq!(w(&g, 1, 0), 12);
    assert_eq!(w(&g, 2, 0), 0);
}

#[test]
fn leningrad_club_raspasy_series_over_a_failed_contract() {
    // 1. Raspasy 0–5–5 at price 1: A's zero earns 1 × 2 = 2; B and C 1 × 5 × 2 = 10.
    // 2. A fails 7♥ (6 tricks) against B alone: mountain 4 × 1 × 2 = 8; consolation 8 by
    //    B and by C; trick whists 4 × 4 × 2 = 32, split gentleman: 16 each.
    // 3. The series stands: raspasy 4–6–0 at price 2: A 16, B 24; C's zero 2 × 2 = 4.
    let club = leningrad_club();
    let g = scored(
        &club,
        2,
        &[
            raspasy(3, 2, &[0, 5, 5]),
            game(3, 0, 0, "7H", "- w p", &[6, 3, 1]),
            raspasy(3, 1, &[4, 6, 0]),
        ],
    );
    assert_eq!(g.sheet().pool(), [2, 0, 4]);
    assert_eq!(g.sheet().mountain(), [8 + 16, 10 + 24, 10]);
    assert_eq!((w(&g, 1, 0), w(&g, 2, 0)), (8 + 16, 8 + 16));
    assert_eq!(g.raspasy_streak(), 2);
}

#[test]
fn leningrad_club_withdrawal_and_surrender() {
    // 6♥ whist–pass, then B withdraws: A 2 pool; B writes 2 · 4/2 × 2 = 8.
    // Then B wins 7♠ and surrenders: 3 × 4 × 2 = 24 on his mountain, nothing else.
    let g = scored(
        &leningrad_club(),
        2,
        &[game(3, 2, 0, "6H", "- h p", &[]), surrender(3, 0, 1, "7S")],
    );
    assert_eq!(g.sheet().pool(), [2, 0, 0]);
    assert_eq!(g.sheet().mountain(), [0, 24, 0]);
    assert_eq!(w(&g, 1, 0), 8);
    assert_eq!(g.sheet().whist_matrix().iter().flatten().sum::<i64>(), 8);
}
