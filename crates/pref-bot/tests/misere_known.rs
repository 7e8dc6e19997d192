//! Misère defence on positions whose results the literature gives (R6.4, R6.5): a suit of
//! 7-10-J is "caught" (O. Skuratov, *Preferans: istoriya, strategiya, taktika*, lists 7-10-J,
//! 7-8-K and 7-9-Q-A as caught combinations) when one defender holds the other five cards
//! of the suit, and 7-8-10 with the same five cards out is clean (one leads its 7 safely,
//! where 7-8-J would not be safe to lead from; *review-pref.ru*, on misère play). The
//! declarer, first hand, holds the suit and three clean ones; the bots play both sides from
//! their seats' views only (the defenders open their cards after the first lead, the
//! declarer's stay hidden), and the deal must end as the literature says and as the
//! open-hand solver counts it.
#![allow(missing_docs)]

use pref_bot::{Bot, Budget, Goal, Level, Position, Solver};
use pref_core::{Action, Bid, Call, Card, CardSet, Deal, Event, Profile, Seat, Viewer};

fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace()
        .map(|c| c.parse::<Card>().expect("card"))
        .collect()
}

/// Seat 0 (first hand, the dealer is seat 2) holds `spades` with ♣7 ♣8 ♦7 ♦8 ♥7 ♥8 ♥9 and
/// buys ♣9 ♦9, which he discards; seat 1 holds the five other spades and ♣J ♣Q ♦J ♦Q ♥J
/// (so that he can win a trick over his partner's ten), seat 2 the other ten (♣T ♣K ♣A
/// ♦T ♦K ♦A ♥T ♥Q ♥K ♥A). Returns the declarer's tricks with the bots playing every seat,
/// and the open-hand solver's count after the discard.
fn play_misere(spades: &str, others: &str) -> (u8, u8) {
    let profile = Profile::sochi();
    let mut declarer = cards(spades);
    declarer.extend(cards("7C 8C 7D 8D 7H 8H 9H"));
    let mut one = cards(others);
    one.extend(cards("JC QC JD QD JH"));
    let two = cards("TC KC AC TD KD AD TH QH KH AH");
    let talon = cards("9C 9D");
    let mut deal = Deal::from_hands(
        &profile,
        Seat(2),
        &[declarer.clone(), one.clone(), two.clone()],
        &talon,
        0,
    )
    .expect("a deal");
    let mut events: Vec<Event> = vec![deal.deal_event()];
    let act = |deal: &mut Deal, events: &mut Vec<Event>, s: u8, a: Action| {
        events.extend(deal.act(Seat(s), a).expect("a legal action"));
    };
    act(
        &mut deal,
        &mut events,
        0,
        Action::Bid(Call::Bid(Bid::MISERE)),
    );
    act(&mut deal, &mut events, 1, Action::Bid(Call::Pass));
    act(&mut deal, &mut events, 2, Action::Bid(Call::Pass));
    act(
        &mut deal,
        &mut events,
        0,
        Action::Discard(talon.iter().copied().collect()),
    );
    let solved = Solver::new()
        .solve(&Position {
            hands: [
                declarer.iter().copied().collect::<CardSet>(),
                one.iter().copied().collect(),
                two.iter().copied().collect(),
            ],
            leader: 0,
            trick: Vec::new(),
            tricks_done: 0,
            goal: Goal::Misere { declarer: 0 },
        })
        .expect("no limit");
    let mut bots: Vec<Bot> = (0..3)
        .map(|s| Bot::new(Seat(s), Level::Strong, &profile, 5))
        .collect();
    for b in &mut bots {
        for e in &events {
            b.observe(&e.project(Viewer::Seat(b.seat()), 3));
        }
    }
    while let Some(p) = deal.to_act() {
        let legal = deal.legal_actions_for(p);
        let view = deal.view(Viewer::Seat(p));
        let a = bots[p.index()].decide(&view, &legal, Budget::nodes(400_000));
        let evs = deal.act(p, a).expect("a legal action");
        for e in &evs {
            for b in &mut bots {
                b.observe(&e.project(Viewer::Seat(b.seat()), 3));
            }
        }
    }
    (deal.tricks_taken()[0], solved)
}

/// 7-10-J against ♠8 ♠9 ♠Q ♠K ♠A in one hand: caught. Whatever the declarer leads first,
/// the defender with the spades gets in (his ♠8 over the ♠7, or his jack or queen over his
/// partner's ten), leads ♠8 and ♠9, and the declarer must win the second with the ♠10 or
/// ♠J: one trick (the solver's count too), and the bots' defence takes it.
#[test]
fn r6_4_seven_ten_jack_is_caught() {
    let (taken, solved) = play_misere("7S TS JS", "8S 9S QS KS AS");
    assert_eq!((taken, solved), (1, 1));
}

/// 7-8-10 against ♠9 ♠J ♠Q ♠K ♠A in one hand: clean. Every spade the defence leads has a
/// spade of the declarer under it (♠7 or ♠8 under the ♠9, then anything under the ♠J),
/// and the declarer's own ♠7 lead is beaten. The declarer takes nothing.
#[test]
fn r6_4_seven_eight_ten_is_clean() {
    let (taken, solved) = play_misere("7S 8S TS", "9S JS QS KS AS");
    assert_eq!((taken, solved), (0, 0));
}
