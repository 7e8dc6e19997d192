//! A lone whister's choice of open or closed play (R5.4, R5.5). With `Bot::open_alone` (on
//! by default) a strong bot plays open whatever it expects, since closed play costs the
//! defence more than the declarer (`docs/bots.md`, the double-dummy loss by side); with it
//! off, it plays closed where most sampled layouts fail the contract, to keep the declarer
//! guessing.
#![allow(missing_docs)]

use pref_bot::{Bot, Budget, Level};
use pref_core::{
    Action, Bid, Call, Card, CardSet, Deal, Defence, Event, Profile, Seat, Suit, Viewer, WhistCall,
};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

/// Seat 0 wins 6♠ at Sochi with the others passing, discards his two lowest cards outside
/// spades, seat 1 whists and seat 2 passes: seat 1 is to choose open or closed play. The
/// deal and every event so far.
fn lone_whister(seed: u64) -> (Deal, Vec<Event>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
    deck.shuffle(&mut rng);
    let mut deal =
        Deal::new(&Profile::sochi(), Seat(2), &deck.try_into().expect("32"), 0).expect("a deal");
    let mut events = vec![deal.deal_event()];
    let mut act = |deal: &mut Deal, seat: u8, action: Action| {
        events.extend(deal.act(Seat(seat), action).expect("legal"));
    };
    act(&mut deal, 0, Action::Bid(Call::Bid(Bid::LOWEST)));
    act(&mut deal, 1, Action::Bid(Call::Pass));
    act(&mut deal, 2, Action::Bid(Call::Pass));
    let twelve = deal.hand(Seat(0));
    let mut others: Vec<Card> = twelve.iter().filter(|c| c.suit() != Suit::Spades).collect();
    others.sort_by_key(|c| c.rank());
    let discard: CardSet = others.into_iter().take(2).collect();
    act(&mut deal, 0, Action::Discard(discard));
    act(&mut deal, 0, Action::Declare("6S".parse().expect("6S")));
    act(&mut deal, 1, Action::Whist(WhistCall::Whist));
    act(&mut deal, 2, Action::Whist(WhistCall::Pass));
    (deal, events)
}

/// What a strong bot in seat 1, with or without `open_alone`, answers.
fn answer(deal: &Deal, events: &[Event], open_alone: bool) -> Action {
    let seat = Seat(1);
    let mut bot = Bot::new(seat, Level::Strong, &Profile::sochi(), 11).open_alone(open_alone);
    for e in events {
        bot.observe(&e.project(Viewer::Seat(seat), 3));
    }
    let legal = deal.legal_actions_for(seat);
    let action = bot.decide(
        &deal.view(Viewer::Seat(seat)),
        &legal,
        Budget::nodes(300_000),
    );
    assert!(legal.contains(&action), "{action} is not legal");
    action
}

#[test]
fn r5_4_a_lone_whister_plays_closed_where_he_expects_the_six_to_fail_or_with_open_alone_open() {
    let open = Action::Defence(Defence::Open);
    let closed = Action::Defence(Defence::Closed);
    let (mut saw_open, mut saw_closed) = (false, false);
    for seed in 0..40u64 {
        let (deal, events) = lone_whister(seed);
        let by_default = answer(&deal, &events, false);
        // With the option, open play whatever he expects.
        assert_eq!(answer(&deal, &events, true), open, "seed {seed}");
        saw_open |= by_default == open;
        saw_closed |= by_default == closed;
    }
    // Without it, each answer on some of the deals: closed where most of his sampled
    // layouts fail the six.
    assert!(saw_open && saw_closed, "both answers by default");
}
