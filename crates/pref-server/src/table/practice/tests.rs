//! A hint depends on the seat's view only: two deals that differ only in the cards the seat
//! cannot see give the same turn (view, legal cards, projected events) and, with one
//! sampling seed and a node budget, the same hint. Refusals are typed.

use pref_bot::Budget;
use pref_core::{Action, Call, Card, Profile, Seat, Viewer, WhistCall};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use super::HintJob;
use crate::ids::Secret;
use crate::table::machine::{HintTurn, HostOp, Machine, NewTable, Op, Stage, TableError};

fn shuffled(seed: u64) -> [Card; 32] {
    let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
    deck.shuffle(&mut StdRng::seed_from_u64(seed));
    deck.try_into().unwrap()
}

/// `deck` with the cards of seats 0 and 2 moved one place on among themselves: seat 1
/// holds the same ten cards and the talon (shown to all once the declarer takes it) is the
/// same, the other two hands are different.
fn hidden_moved(deck: [Card; 32], profile: &Profile) -> [Card; 32] {
    let deal = pref_core::Deal::new(profile, Seat(0), &deck, 0).unwrap();
    let hand = |s: u8| deal.view(Viewer::Seat(Seat(s))).hand.unwrap();
    let (h0, h2) = (hand(0), hand(2));
    let others: Vec<usize> = (0..32)
        .filter(|&i| h0.contains(deck[i]) || h2.contains(deck[i]))
        .collect();
    let mut out = deck;
    for (k, &i) in others.iter().enumerate() {
        out[i] = deck[others[(k + 1) % others.len()]];
    }
    out
}

/// A practice table (when `practice`) of three people, dealer seat 0, playing `deck`: seat 1
/// passes, seat 2 bids and declares the lowest, seat 0 passes, both defenders whist. The
/// machine at seat 1's first lead (R6.1: the first hand leads) and the seat tokens.
fn at_first_lead(deck: [Card; 32], practice: bool) -> (Machine, Vec<Secret>) {
    let host = Secret::random();
    let mut m = Machine::new(NewTable {
        host: host.into(),
        invite: crate::ids::TokenHash::of(&crate::ids::TEST_INVITE),
        profile: Profile::sochi(),
        spectator_chat: false,
        first_dealer: Seat(0),
    });
    if practice {
        m.set_practice(super::super::machine::Hints::new());
    }
    let mut tokens = Vec::new();
    for name in ["Anna", "Boris", "Vera"] {
        let token = Secret::random();
        m.apply(Op::Claim {
            name: name.into(),
            seat: None,
            host: Some(host),
            invite: None,
            token,
        })
        .unwrap();
        tokens.push(token);
    }
    m.apply(Op::Host {
        host,
        op: HostOp::Start { deck },
    })
    .unwrap();
    loop {
        let Stage::Playing { game, .. } = m.stage() else {
            panic!("the deal ended")
        };
        let deal = game.deal().unwrap();
        let seat = deal.to_act().unwrap();
        let legal: Vec<Action> = deal.legal_actions_for(seat).into_iter().collect();
        if legal.iter().all(|a| matches!(a, Action::Play(_))) {
            assert_eq!(seat, Seat(1), "the first hand leads");
            return (m, tokens);
        }
        let pick = |f: &dyn Fn(&Action) -> bool| *legal.iter().find(|a| f(a)).unwrap_or(&legal[0]);
        let action = match seat.0 {
            2 => pick(&|a| {
                matches!(
                    a,
                    Action::Bid(Call::Bid(_)) | Action::Discard(_) | Action::Declare(_)
                )
            }),
            _ => pick(&|a| matches!(a, Action::Bid(Call::Pass) | Action::Whist(WhistCall::Whist))),
        };
        m.apply(Op::Act {
            seat,
            token: tokens[seat.index()],
            version: m.version(),
            action,
        })
        .unwrap();
    }
}

fn turn(m: &Machine, tokens: &[Secret]) -> HintTurn {
    m.hint_turn(Viewer::Seat(Seat(1)), Some(&tokens[1]), m.version(), 5)
        .unwrap()
}

#[test]
fn a_hint_never_depends_on_a_hidden_card() {
    let profile = Profile::sochi();
    let budget = Budget::nodes(300_000);
    let mut compared = 0;
    for seed in [3u64, 11, 29] {
        let deck_a = shuffled(seed);
        let deck_b = hidden_moved(deck_a, &profile);
        let (a, ta) = at_first_lead(deck_a, true);
        let (b, tb) = at_first_lead(deck_b, true);
        // The decks differ in the hidden cards, not in seat 1's.
        let hands = |m: &Machine| match m.stage() {
            Stage::Playing { game, .. } => {
                let d = game.deal().unwrap();
                (
                    d.view(Viewer::Seat(Seat(0))).hand,
                    d.view(Viewer::Seat(Seat(1))).hand,
                )
            }
            _ => unreachable!(),
        };
        let (a0, a1) = hands(&a);
        let (b0, b1) = hands(&b);
        assert_eq!(a1, b1, "seed {seed}: seat 1's hand");
        assert_ne!(
            a0, b0,
            "seed {seed}: seat 0's hand is hidden from seat 1 and differs"
        );
        let (turn_a, turn_b) = (turn(&a, &ta), turn(&b, &tb));
        assert_eq!(turn_a.view, turn_b.view, "seed {seed}");
        assert_eq!(turn_a.events, turn_b.events, "seed {seed}");
        assert_eq!(turn_a.legal, turn_b.legal, "seed {seed}");
        let job = |turn| HintJob {
            turn,
            profile: profile.clone(),
            version: 0,
            per_deal: 5,
            budget,
        };
        let hint_a = job(turn_a).explain(42).expect("a hint");
        let hint_b = job(turn_b).explain(42).expect("a hint");
        assert_eq!(hint_a, hint_b, "seed {seed}");
        assert!(!hint_a.cards.is_empty() && hint_a.cards.len() <= 3);
        assert_eq!((hint_a.used, hint_a.per_deal), (1, 5));
        compared += 1;
    }
    assert_eq!(compared, 3);
}

#[test]
fn hints_are_refused_with_their_reason() {
    let deck = shuffled(3);
    // Not a practice table.
    let (plain, tokens) = at_first_lead(deck, false);
    let v = plain.version();
    assert!(matches!(
        plain.hint_turn(Viewer::Seat(Seat(1)), Some(&tokens[1]), v, 5),
        Err(TableError::NotPractice)
    ));
    let (mut m, tokens) = at_first_lead(deck, true);
    let v = m.version();
    // Not this seat's turn; a spectator; another seat's token; a stale version.
    assert!(matches!(
        m.hint_turn(Viewer::Seat(Seat(0)), Some(&tokens[0]), v, 5),
        Err(TableError::NotYourTurn(_))
    ));
    assert!(matches!(
        m.hint_turn(Viewer::Spectator, None, v, 5),
        Err(TableError::NotSeated)
    ));
    assert!(matches!(
        m.hint_turn(Viewer::Seat(Seat(1)), Some(&tokens[0]), v, 5),
        Err(TableError::SeatLost)
    ));
    assert!(matches!(
        m.hint_turn(Viewer::Seat(Seat(1)), Some(&tokens[1]), v + 1, 5),
        Err(TableError::FutureVersion { .. })
    ));
    // The budget: two hints a deal, then refused; counted per seat and deal.
    for used in 0..2 {
        let t = m
            .hint_turn(Viewer::Seat(Seat(1)), Some(&tokens[1]), v, 2)
            .unwrap();
        assert_eq!(t.used, used);
        m.count_hint(t.deal_no, Seat(1));
    }
    assert!(matches!(
        m.hint_turn(Viewer::Seat(Seat(1)), Some(&tokens[1]), v, 2),
        Err(TableError::HintsSpent(2))
    ));
    assert_eq!(
        TableError::HintsSpent(2).reason(),
        pref_protocol::Reason::HintsSpent
    );
}
