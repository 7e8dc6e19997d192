//! When a finished deal's record may be given for its analysis
//! ([`Machine::deal_record`]): never for a deal in progress, at the deal's end where
//! the profile's `reveal_after_deal` shows the hands to everybody,
//! otherwise only once the game is over; and a refusal names no card.

use pref_core::{Action, Card, Game, Profile, Seat};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use super::*;
use crate::ids::Secret;

fn deck(seed: u64) -> [Card; 32] {
    let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
    deck.shuffle(&mut StdRng::seed_from_u64(seed));
    deck.try_into().unwrap()
}

/// Deals played one after another in one game with the first legal action each time: per
/// seed, to the deal's end (`true`) or only its first five actions; as stored.
fn played(profile: &Profile, deals: &[(u64, bool)]) -> Vec<StoredDeal> {
    let decks: Vec<_> = deals.iter().map(|&(seed, f)| (deck(seed), f)).collect();
    played_with(profile, &decks)
}

/// [`played`] on the given decks.
pub(super) fn played_with(profile: &Profile, deals: &[([Card; 32], bool)]) -> Vec<StoredDeal> {
    let mut game = Game::new(profile.clone(), Seat(0)).unwrap();
    let mut out = Vec::new();
    for &(deck, finish) in deals {
        game.start_deal(&deck).unwrap();
        let mut actions: Vec<(Seat, Action)> = Vec::new();
        while let Some(deal) = game.deal() {
            if !finish && actions.len() == 5 {
                break;
            }
            let seat = deal
                .to_act()
                .expect("a deal in progress has a player to act");
            let legal = deal.legal_actions_for(seat);
            let action = legal.iter().next().expect("a legal action");
            game.act(seat, action).unwrap();
            actions.push((seat, action));
        }
        out.push((deck, actions));
    }
    out
}

/// A table of three people, restored with `deals` (the sochi preset, `reveal_after_deal` as
/// given), over or not.
pub(super) fn table(reveal: bool, deals: &[StoredDeal], over: bool) -> Machine {
    let request = serde_json::json!({"preset": "sochi", "reveal_after_deal": reveal});
    let profile = Profile::from_json(&request).unwrap();
    let seats = ["Anna", "Boris", "Vera"]
        .iter()
        .zip(0..)
        .map(|(name, seat)| StoredSeat {
            seat,
            name: (*name).to_owned(),
            token: Secret::random().into(),
            bot: None,
            bot_account: false,
            from_deal: 0,
            host: false,
        })
        .collect();
    Machine::restore(
        NewTable {
            host: Secret::random().into(),
            invite: crate::ids::TokenHash::of(&crate::ids::TEST_INVITE),
            profile,
            spectator_chat: false,
            first_dealer: Seat(0),
        },
        seats,
        deals,
        true,
        over,
    )
    .unwrap()
}

/// No card's name (`7S` … `AH`) in a refusal's message.
fn names_no_card(e: &DealHidden) {
    let text = e.to_string();
    for i in 0..32 {
        let card = Card::from_index(i).to_string();
        let named = text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w == card);
        assert!(!named, "{text:?} names {card}");
    }
}

#[test]
fn a_deal_in_progress_is_refused_even_where_hands_are_revealed() {
    let profile = Profile::sochi();
    let m = table(true, &played(&profile, &[(3, false)]), false);
    let e = m.deal_record(0).unwrap_err();
    assert_eq!(
        e,
        DealHidden::NotFinished {
            deal: 0,
            finished: 0
        }
    );
    names_no_card(&e);
    assert_eq!(
        m.deal_record(7).unwrap_err(),
        DealHidden::NotFinished {
            deal: 7,
            finished: 0
        }
    );
}

#[test]
fn a_finished_deal_is_given_at_once_where_reveal_after_deal_shows_it() {
    let profile = Profile::sochi();
    let deals = played(&profile, &[(4, true), (5, false)]);
    let m = table(true, &deals, false);
    let record = m.deal_record(0).unwrap();
    assert_eq!(record.deals().len(), 1, "the deal in progress is not in it");
    assert_eq!(record.players(), ["Anna", "Boris", "Vera"]);
    assert!(matches!(
        m.deal_record(1),
        Err(DealHidden::NotFinished {
            deal: 1,
            finished: 1
        })
    ));
}

#[test]
fn a_hidden_finished_deal_is_given_only_once_the_game_is_over() {
    let request = serde_json::json!({"preset": "sochi", "reveal_after_deal": false});
    let profile = Profile::from_json(&request).unwrap();
    let deals = played(&profile, &[(6, true)]);
    let running = table(false, &deals, false);
    let e = running.deal_record(0).unwrap_err();
    assert_eq!(e, DealHidden::Hidden);
    names_no_card(&e);
    // Stored as over (a closed pool or the host's end): everything may be seen.
    let over = table(false, &deals, true);
    assert_eq!(over.deal_record(0).unwrap().deals().len(), 1);
}

#[test]
fn nothing_is_given_before_the_game_starts() {
    let m = Machine::new(NewTable {
        host: Secret::random().into(),
        invite: crate::ids::TokenHash::of(&crate::ids::TEST_INVITE),
        profile: Profile::sochi(),
        spectator_chat: false,
        first_dealer: Seat(0),
    });
    assert_eq!(m.deal_record(0).unwrap_err(), DealHidden::NotStarted);
}
