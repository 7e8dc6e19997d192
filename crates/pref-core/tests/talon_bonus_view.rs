//! R11.6 as every viewer sees it: from the moment the talon of a trick contract is turned at a
//! four-handed table with `talon_bonus`, the view says the talon's units, and once the contract
//! is named the whists the dealer will write (`U · v · whist_scale`), the same the outcome
//! then scores. Never before the talon is turned, on misère, on a surrender, or with the
//! option off.
#![allow(missing_docs)]

use pref_core::{
    Action, Bid, Call, Card, CardSet, Contract, Deal, Profile, Seat, Strain, TalonBonus, Viewer,
};

/// A four-handed deal dealt by seat 3 (seat 0 is first hand) whose talon is `talon`.
fn deal(profile: &Profile, talon: [&str; 2]) -> Deal {
    let talon: Vec<Card> = talon.iter().map(|c| c.parse().expect("a card")).collect();
    let mut deck: Vec<Card> = (0..32)
        .map(Card::from_index)
        .filter(|c| !talon.contains(c))
        .collect();
    deck.extend(&talon);
    Deal::new(profile, Seat(3), &deck.try_into().expect("32 cards"), 0).expect("a deal")
}

fn profile(extra: &str) -> Profile {
    Profile::from_toml_str(&format!("preset = \"sochi4\"\ntalon_bonus = true\n{extra}"))
        .expect("a profile")
}

fn act(d: &mut Deal, seat: u8, a: Action) {
    d.act(Seat(seat), a).expect("a legal action");
}

/// Seat 0 bids `bid`, seats 1 and 2 pass: the talon is turned.
fn auction(d: &mut Deal, bid: Bid) {
    act(d, 0, Action::Bid(Call::Bid(bid)));
    act(d, 1, Action::Bid(Call::Pass));
    act(d, 2, Action::Bid(Call::Pass));
}

/// What every viewer (each seat, the dealer and a spectator) is shown: all the same.
fn shown(d: &Deal) -> Option<TalonBonus> {
    let all: Vec<Option<TalonBonus>> = (0..4)
        .map(|s| Viewer::Seat(Seat(s)))
        .chain([Viewer::Spectator])
        .map(|v| d.view(v).talon_bonus)
        .collect();
    assert!(all.windows(2).all(|w| w[0] == w[1]), "{all:?}");
    all[0]
}

fn six_spades() -> Contract {
    Contract::new(6, Strain::Spades).expect("6♠")
}

fn discard(d: &Deal) -> CardSet {
    d.view(Viewer::Seat(Seat(0)))
        .hand
        .expect("the declarer's hand")
        .iter()
        .filter(|c| !matches!(c.to_string().as_str(), "AS" | "AH"))
        .take(2)
        .collect()
}

#[test]
fn r11_6_the_talon_bonus_shows_from_the_turned_talon_to_the_named_contract() {
    let p = profile("");
    let mut d = deal(&p, ["AS", "AH"]);
    assert_eq!(shown(&d), None, "not before the talon is turned");
    auction(&mut d, Bid::LOWEST);
    // Two aces: 3 units; the contract is not named yet.
    assert_eq!(
        shown(&d),
        Some(TalonBonus {
            units: 3,
            whists: None
        })
    );
    let two = discard(&d);
    act(&mut d, 0, Action::Discard(two));
    act(&mut d, 0, Action::Declare(six_spades()));
    // v(6) = 2: the dealer writes 3 · 2 = 6 whists on the declarer.
    let named = TalonBonus {
        units: 3,
        whists: Some(6),
    };
    assert_eq!(shown(&d), Some(named));
    // Both defenders pass: the contract is conceded and scored with the same units.
    act(&mut d, 1, Action::Whist(pref_core::WhistCall::Pass));
    act(&mut d, 2, Action::Whist(pref_core::WhistCall::Pass));
    while !d.is_finished() {
        let seat = d.to_act().expect("someone acts");
        let first = d.legal_actions_for(seat).get(0).expect("an action");
        d.act(seat, first).expect("legal");
    }
    let outcome = d.outcome().expect("over");
    match outcome.kind {
        pref_core::OutcomeKind::Game { talon_units, .. } => assert_eq!(talon_units, Some(3)),
        other => panic!("a game, not {other:?}"),
    }
}

#[test]
fn r11_6_the_whists_follow_the_whist_scale_and_the_units_the_talon() {
    let p = profile("whist_scale = 2");
    let mut d = deal(&p, ["AD", "KD"]);
    auction(&mut d, Bid::LOWEST);
    let two = discard(&d);
    act(&mut d, 0, Action::Discard(two));
    act(
        &mut d,
        0,
        Action::Declare(Contract::new(7, Strain::Hearts).expect("7♥")),
    );
    // Ace and king of one suit: 2 units; v(7) = 4, whist_scale 2: 16 whists.
    assert_eq!(
        shown(&d),
        Some(TalonBonus {
            units: 2,
            whists: Some(16)
        })
    );
    let mut d = deal(&p, ["8C", "9D"]);
    auction(&mut d, Bid::LOWEST);
    assert_eq!(
        shown(&d),
        Some(TalonBonus {
            units: 0,
            whists: None
        }),
        "no ace, no marriage: nothing to write, said as 0"
    );
}

#[test]
fn r11_6_no_talon_bonus_off_on_misere_or_after_a_surrender() {
    let mut d = deal(&Profile::preset("sochi4").expect("sochi4"), ["AS", "AH"]);
    auction(&mut d, Bid::LOWEST);
    assert_eq!(shown(&d), None, "the option is off");

    let mut d = deal(&profile(""), ["AS", "AH"]);
    act(&mut d, 0, Action::Bid(Call::Bid(Bid::MISERE)));
    act(&mut d, 1, Action::Bid(Call::Pass));
    act(&mut d, 2, Action::Bid(Call::Pass));
    assert_eq!(shown(&d), None, "never on misère");

    let mut d = deal(&profile("surrender = 3"), ["AS", "AH"]);
    auction(&mut d, Bid::LOWEST);
    assert!(shown(&d).is_some());
    act(&mut d, 0, Action::Surrender);
    assert_eq!(shown(&d), None, "never after a surrender");
}
