//! Builders of outcomes for the scoring tests: the record's outcome form in a line.
#![allow(missing_docs, dead_code, unreachable_pub)]

use pref_core::{Outcome, OutcomeKind, Profile, Seat, Sheet, WhistCall};

/// Whist decisions from words, one per seat: `-` (null), `w`, `p`, `h`.
pub fn whist(s: &str) -> [Option<WhistCall>; 4] {
    let mut out = [None; 4];
    for (i, w) in s.split_whitespace().enumerate() {
        out[i] = match w {
            "w" => Some(WhistCall::Whist),
            "p" => Some(WhistCall::Pass),
            "h" => Some(WhistCall::Half),
            _ => None,
        };
    }
    out
}

/// Tricks per seat; an empty list: nothing was played.
pub fn tricks(t: &[u8]) -> Option<[u8; 4]> {
    if t.is_empty() {
        return None;
    }
    let mut out = [0; 4];
    out[..t.len()].copy_from_slice(t);
    Some(out)
}

/// A trick contract: `game(3, 2, 0, "7H", "- w w", &[7, 3, 0])`; empty tricks: not played.
pub fn game(players: u8, dealer: u8, declarer: u8, contract: &str, w: &str, t: &[u8]) -> Outcome {
    Outcome {
        dark: false,
        no_talon: false,
        players,
        dealer: Seat(dealer),
        kind: OutcomeKind::Game {
            declarer: Seat(declarer),
            contract: contract.parse().unwrap(),
            whist: whist(w),
            defence: None,
            talon_units: None,
        },
        tricks: tricks(t),
    }
}

pub fn misere(players: u8, dealer: u8, declarer: u8, t: &[u8]) -> Outcome {
    Outcome {
        dark: false,
        no_talon: false,
        players,
        dealer: Seat(dealer),
        kind: OutcomeKind::Misere {
            declarer: Seat(declarer),
        },
        tricks: tricks(t),
    }
}

/// A surrender (R4.5) of the winning bid `bid`.
pub fn surrender(players: u8, dealer: u8, declarer: u8, bid: &str) -> Outcome {
    Outcome {
        dark: false,
        no_talon: false,
        players,
        dealer: Seat(dealer),
        kind: OutcomeKind::Surrender {
            declarer: Seat(declarer),
            bid: bid.parse().unwrap(),
        },
        tricks: None,
    }
}

/// A trick contract with the talon's units for the four-player talon bonus (R11.6).
pub fn with_units(mut o: Outcome, units: u8) -> Outcome {
    if let OutcomeKind::Game { talon_units, .. } = &mut o.kind {
        *talon_units = Some(units);
    }
    o
}

pub fn raspasy(players: u8, dealer: u8, t: &[u8]) -> Outcome {
    Outcome {
        dark: false,
        no_talon: false,
        players,
        dealer: Seat(dealer),
        kind: OutcomeKind::Raspasy,
        tricks: tricks(t),
    }
}

/// A preset with some options changed, as a record's object form gives it.
pub fn profile(json: serde_json::Value) -> Profile {
    Profile::from_json(&json).unwrap()
}

/// Cards from text: `"♥K ♥Q 10H"`.
pub fn cards(s: &str) -> Vec<pref_core::Card> {
    s.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

/// A call of the auction from text: `"6S"`, `"pass"`, `"misere"`.
pub fn bid(s: &str) -> pref_core::Action {
    pref_core::Action::Bid(s.parse::<pref_core::Call>().unwrap())
}

/// The guide's worked deal (`worked-example.md`): hands of seats 0, 1, 2 (dealer 2).
pub const WORKED_HANDS: [&str; 3] = [
    "♥K ♥Q ♥J ♥10 ♠7 ♦A ♦K ♦8 ♣8 ♣7",
    "♥9 ♥7 ♠A ♠K ♠Q ♣A ♣K ♦Q ♦J ♦10",
    "♥8 ♠J ♠10 ♠9 ♠8 ♣Q ♣J ♣10 ♦9 ♦7",
];

/// The worked deal's talon.
pub const WORKED_TALON: &str = "♥A ♣9";

/// The worked deal's auction (R3.4's example), B's final pass included.
pub const WORKED_AUCTION: [(u8, &str); 9] = [
    (0, "6S"),
    (1, "6C"),
    (2, "pass"),
    (0, "6C"),
    (1, "6D"),
    (0, "6D"),
    (1, "6H"),
    (0, "6H"),
    (1, "pass"),
];

/// The worked deal's hands as `Deal::from_hands` takes them.
pub fn worked_hands() -> Vec<Vec<pref_core::Card>> {
    WORKED_HANDS.iter().map(|h| cards(h)).collect()
}

/// Applies each `(seat, action)` in record semantics; panics naming the one refused.
pub fn run(d: &mut pref_core::Deal, steps: &[(u8, pref_core::Action)]) {
    for &(s, a) in steps {
        d.apply(Seat(s), a)
            .unwrap_or_else(|e| panic!("{a} by seat {s}: {e}"));
    }
}

/// The error refusing `a` by `seat`, after checking that the refusal changed nothing.
pub fn refused(d: &mut pref_core::Deal, seat: u8, a: pref_core::Action) -> pref_core::RuleError {
    let before = *d;
    let e = d.apply(Seat(seat), a).unwrap_err();
    assert_eq!(*d, before, "state changed by a refused {a}");
    e
}

/// Scores `outcomes` in order on `sheet`, counting consecutive raspasy deals as the game does
/// (`raspasy_series = "any"`); returns the count after the last.
pub fn record_all(sheet: &mut Sheet, p: &Profile, outcomes: &[Outcome]) -> u32 {
    let mut streak = 0;
    for o in outcomes {
        sheet.record(p, o, streak);
        streak = if o.kind == OutcomeKind::Raspasy {
            streak + 1
        } else {
            0
        };
    }
    streak
}

/// A three-player trick contract conceded by two passes (R8.5), C (2) dealing.
pub fn conceded(declarer: u8, contract: &str) -> Outcome {
    let w = ["- p p", "p - p", "p p -"][declarer as usize];
    game(3, 2, declarer, contract, w, &[])
}

/// The deals before R9.2's example (`docs/rules.md`): pools 19, 17, 14 under Sochi.
pub fn help_example_before() -> Vec<Outcome> {
    vec![
        conceded(0, "10S"),
        conceded(0, "9S"),
        conceded(1, "10S"),
        conceded(1, "8S"),
        conceded(2, "10S"),
        conceded(2, "7S"),
        raspasy(3, 2, &[0, 0, 10]),
    ]
}
