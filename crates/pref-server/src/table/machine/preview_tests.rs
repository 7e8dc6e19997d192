//! The lobby's preview of a game (`Machine::preview`, `pref_protocol::preview`): its values
//! exact for a known deck, and, over random games, never a hidden card: two tables whose
//! decks differ only in cards still hidden show the same preview at every step.

use std::str::FromStr;

use pref_core::{Action, Bid, Call, Card, Contract, Defence, Seat, Stage, WhistCall};
use pref_protocol::{Phase, PreviewContract, TablePreview};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::*;
use crate::ids::Secret;

/// A started three-player Sochi table dealt `deck` first, seat 0 dealing, its seats claimed
/// with `tokens`.
fn table_with(deck: [Card; 32], tokens: &[Secret]) -> Machine {
    let host = Secret::random();
    let mut m = super::tests::lobby(host);
    for (name, token) in ["Anna", "Boris", "Vera"].iter().zip(tokens) {
        m.apply(Op::Claim {
            name: (*name).into(),
            seat: None,
            host: None,
            invite: Some(crate::ids::TEST_INVITE),
            token: *token,
        })
        .unwrap();
    }
    m.apply(Op::Host {
        host,
        op: HostOp::Start { deck },
    })
    .unwrap();
    m
}

/// [`table_with`] new tokens, and the tokens.
fn table(deck: [Card; 32]) -> (Machine, Vec<Secret>) {
    let tokens: Vec<Secret> = (0..3).map(|_| Secret::random()).collect();
    (table_with(deck, &tokens), tokens)
}

fn act(m: &mut Machine, tokens: &[Secret], seat: u8, action: Action) -> Result<(), TableError> {
    m.apply(Op::Act {
        seat: Seat(seat),
        token: tokens[usize::from(seat)],
        version: m.version(),
        action,
    })
    .map(|_| ())
}

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|c| Card::from_str(c).unwrap())
        .collect()
}

/// Every string in `v`, deep.
fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        serde_json::Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        serde_json::Value::Null | serde_json::Value::Bool(_) | serde_json::Value::Number(_) => {}
    }
}

#[test]
fn r4_r6_a_known_deal_s_preview_shows_its_contract_tricks_and_totals() {
    // Seat 1 (first hand) holds every spade and the club ace and king: ten sure tricks.
    let deck: Vec<Card> = [
        "AS KS QS JS TS 9S 8S 7S AC KC",
        "QC JC TC 9C 8C 7C AD KD QD JD",
        "TD 9D 8D 7D AH KH QH JH TH 9H",
        "8H 7H",
    ]
    .iter()
    .flat_map(|h| cards(h))
    .collect();
    let (mut m, tokens) = table(deck.try_into().unwrap());
    let p = m.preview().unwrap();
    assert_eq!(
        (p.deal, p.contract, p.stage, p.turn),
        (
            1,
            PreviewContract::Bidding {
                bid: None,
                by: None
            },
            Stage::Auction,
            Some(Seat(1))
        )
    );
    let six = Bid::from_str("6S").unwrap();
    act(&mut m, &tokens, 1, Action::Bid(Call::Bid(six))).unwrap();
    assert_eq!(
        m.preview().unwrap().contract,
        PreviewContract::Bidding {
            bid: Some(six),
            by: Some(Seat(1))
        }
    );
    act(&mut m, &tokens, 2, Action::Bid(Call::Pass)).unwrap();
    act(&mut m, &tokens, 0, Action::Bid(Call::Pass)).unwrap();
    let contract = Contract::from_str("6S").ok();
    let p = m.preview().unwrap();
    assert_eq!(
        (p.contract, p.stage),
        (
            PreviewContract::Game {
                declarer: Seat(1),
                contract
            },
            Stage::Discard
        )
    );
    let discard = cards("8H 7H").into_iter().collect();
    act(&mut m, &tokens, 1, Action::Discard(discard)).unwrap();
    act(&mut m, &tokens, 1, Action::Declare(contract.unwrap())).unwrap();
    act(&mut m, &tokens, 2, Action::Whist(WhistCall::Whist)).unwrap();
    act(&mut m, &tokens, 0, Action::Whist(WhistCall::Pass)).unwrap();
    act(&mut m, &tokens, 2, Action::Defence(Defence::Closed)).unwrap();
    let play = |m: &mut Machine| {
        let turn = m.turn();
        let seat = turn.to_act.unwrap();
        let card = turn
            .legal
            .iter()
            .find(|a| matches!(a, Action::Play(_)))
            .copied()
            .unwrap();
        act(m, &tokens, seat.0, card).unwrap();
    };
    for _ in 0..9 {
        play(&mut m);
    }
    let p = m.preview().unwrap();
    assert_eq!(
        (p.stage, p.turn, p.tricks.clone()),
        (Stage::Play, Some(Seat(1)), vec![0, 3, 0])
    );
    assert_eq!(
        (p.pool.clone(), p.mountain.clone(), p.balance.clone()),
        (vec![0, 0, 0], vec![0, 0, 0], vec!["0".to_owned(); 3])
    );
    while m.phase() == Phase::Playing {
        play(&mut m);
    }
    // R8: the declarer writes the six-game's 2 to his pool; the whister, short of his
    // quota of four by four, writes 4 × 2 to his mountain (R8.4); R10.1 settles it.
    let p = m.preview().unwrap();
    assert_eq!(
        (p.deal, p.stage, p.turn, p.tricks.clone()),
        (1, Stage::Finished, None, vec![0, 10, 0])
    );
    assert_eq!(
        (p.pool, p.mountain, p.balance),
        (
            vec![0, 2, 0],
            vec![0, 0, 8],
            vec!["80/3".into(), "80/3".into(), "-160/3".into()]
        )
    );
}

/// `deck` with `swaps` pairs of cards exchanged between hands (never the talon).
fn hidden_swaps(deck: &[Card; 32], rng: &mut StdRng, swaps: usize) -> [Card; 32] {
    let mut other = *deck;
    for _ in 0..swaps {
        let a = rng.gen_range(0..30);
        let b = (a / 10 * 10 + 10 + rng.gen_range(0..20)) % 30;
        other.swap(a, b);
    }
    other
}

fn shuffled(rng: &mut StdRng) -> [Card; 32] {
    let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
    deck.shuffle(rng);
    deck.try_into().unwrap()
}

/// The preview's strings besides its contract (`10H` is ten hearts): none may read as a
/// card.
fn no_card(p: &TablePreview) {
    let mut all = Vec::new();
    let rest = TablePreview {
        contract: PreviewContract::Raspasy,
        ..p.clone()
    };
    strings(&serde_json::to_value(rest).unwrap(), &mut all);
    for s in all {
        assert!(Card::from_str(&s).is_err(), "{s} in {p:?}");
    }
}

#[test]
fn a_preview_is_the_same_for_two_deals_that_differ_only_in_hidden_cards() {
    let mut steps = 0;
    let mut finished = 0;
    for seed in 0..160u64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let deck = shuffled(&mut rng);
        let (mut one, tokens) = table(deck);
        let swaps = rng.gen_range(1..3);
        // The two tables' seats hold the same tokens, so one action goes to both.
        let mut two = table_with(hidden_swaps(&deck, &mut rng, swaps), &tokens);
        'game: for _ in 0..400 {
            assert_eq!(one.preview(), two.preview(), "seed {seed}");
            no_card(&one.preview().unwrap());
            match one.phase() {
                Phase::Playing => {
                    let turn = one.turn();
                    let Some(seat) = turn.to_act else { break };
                    let Some(&action) = turn.legal.choose(&mut rng) else {
                        break;
                    };
                    act(&mut one, &tokens, seat.0, action).unwrap();
                    // The same action may be illegal with the other cards: the game
                    // stops there.
                    if act(&mut two, &tokens, seat.0, action).is_err() {
                        break 'game;
                    }
                    steps += 1;
                }
                Phase::BetweenDeals => {
                    finished += 1;
                    let next = shuffled(&mut rng);
                    let swaps = rng.gen_range(1..3);
                    let other = hidden_swaps(&next, &mut rng, swaps);
                    for (m, deck) in [(&mut one, next), (&mut two, other)] {
                        let version = m.version();
                        m.apply(Op::NextDeal {
                            seat: Seat(0),
                            token: tokens[0],
                            version,
                            deck,
                        })
                        .unwrap();
                    }
                }
                Phase::Lobby | Phase::Over => break,
            }
        }
    }
    // The walk reached play and the deals' ends, not only the auctions.
    assert!(
        steps > 1_000 && finished > 5,
        "{steps} steps, {finished} deals"
    );
}
