//! The played records of `tests/records/` that are too long to write by hand, made by a
//! deterministic generator: seeded decks, and scripted or seeded choices among the legal
//! actions. The test checks that every file is exactly what the generator makes (so each
//! one is a replayable game of the rules core); `PREF_BLESS=1` rewrites them.
#![allow(missing_docs)]

use pref_core::game::Game;
use pref_core::{
    Action, Answer, Bid, Call, Card, CardSet, Claim, Deal, Defence, Profile, Rank, Record, Seat,
    Stage, Suit, WhistCall,
};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// Chooses an action for the seat to act; `None` leaves it to chance.
type Script = fn(&Deal, Seat, &[Action]) -> Option<Action>;

fn first_legal_bid(legal: &[Action]) -> Option<Action> {
    legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::Bid(Call::Bid(b)) if !b.is_misere()))
}

fn pass() -> Option<Action> {
    Some(Action::Bid(Call::Pass))
}

/// Everybody passes: raspasy (R7).
fn all_pass(d: &Deal, _: Seat, _: &[Action]) -> Option<Action> {
    (d.stage() == Stage::Auction).then_some(Action::Bid(Call::Pass))
}

/// First hand calls misère, the others pass (R3.6, R6.5, R8.8).
fn misere(d: &Deal, seat: Seat, _: &[Action]) -> Option<Action> {
    if d.stage() != Stage::Auction {
        return None;
    }
    if seat == d.first_hand() {
        Some(Action::Bid(Call::Bid(Bid::MISERE)))
    } else {
        pass()
    }
}

/// First hand wins 6♠ and names it; the whist decisions follow `whists`.
fn six_spades(d: &Deal, seat: Seat, legal: &[Action], whists: &[WhistCall]) -> Option<Action> {
    match d.stage() {
        Stage::Auction if seat == d.first_hand() && d.highest_bid().is_none() => {
            first_legal_bid(legal)
        }
        Stage::Auction => pass(),
        Stage::Declare => Some(Action::Declare("6S".parse().ok()?)),
        Stage::Whist => {
            let said = d.whist_calls().iter().flatten().count();
            // A returned whist changes the first defender's call in place: count his second
            // word by the second defender having spoken.
            let second = d.next_seat(d.next_seat(d.declarer()?));
            let i = if d.whist_calls()[second.index()].is_some() {
                2
            } else {
                said
            };
            whists.get(i).map(|&w| Action::Whist(w))
        }
        _ => None,
    }
}

/// R5.2: pass, half-whist, pass: the half-whist stands, no play.
fn half_whist_standing(d: &Deal, s: Seat, l: &[Action]) -> Option<Action> {
    six_spades(
        d,
        s,
        l,
        &[WhistCall::Pass, WhistCall::Half, WhistCall::Pass],
    )
}

/// R5.2: pass, half-whist, whist: the whist is returned and the deal is played, closed.
fn half_whist_returned(d: &Deal, s: Seat, l: &[Action]) -> Option<Action> {
    if d.stage() == Stage::Defence {
        return Some(Action::Defence(Defence::Closed));
    }
    six_spades(
        d,
        s,
        l,
        &[WhistCall::Pass, WhistCall::Half, WhistCall::Whist],
    )
}

/// R5.4–R5.5: whist, pass, open: the whister plays both defenders' cards.
fn open_defence(d: &Deal, s: Seat, l: &[Action]) -> Option<Action> {
    if d.stage() == Stage::Defence {
        return Some(Action::Defence(Defence::Open));
    }
    six_spades(d, s, l, &[WhistCall::Whist, WhistCall::Pass])
}

/// R6.7: 6♠ whisted by both, closed; the player on lead claims every remaining trick after
/// trick 3 (the next player rejects) and again after trick 6 (all accept).
fn claims(d: &Deal, s: Seat, l: &[Action]) -> Option<Action> {
    let done: u8 = d.tricks_taken().iter().sum();
    if d.pending_claim().is_some() {
        return Some(Action::Answer(if done < 6 {
            Answer::Reject
        } else {
            Answer::Accept
        }));
    }
    if (done == 3 || done == 6) && d.current_trick().is_empty() && d.claim_room(s).is_some() {
        let mut entries = vec![0; usize::from(d.players())];
        entries[s.index()] = 10 - done;
        return Claim::new(&entries).map(Action::Claim);
    }
    six_spades(d, s, l, &[WhistCall::Whist, WhistCall::Whist])
}

/// A rough strength: two for an ace, one for a king, one for each card of the longest suit
/// beyond four.
fn strength(hand: CardSet) -> usize {
    let high = |r| hand.iter().filter(|c| c.rank() == r).count();
    let longest = Suit::ALL
        .iter()
        .map(|&s| hand.of_suit(s).len() as usize)
        .max()
        .unwrap_or(0);
    2 * high(Rank::Ace) + high(Rank::King) + longest.saturating_sub(4)
}

/// R11.4: both defenders pass and the four-player dealer takes the defence, open.
fn dealer_whist(d: &Deal, s: Seat, l: &[Action]) -> Option<Action> {
    six_spades(
        d,
        s,
        l,
        &[WhistCall::Pass, WhistCall::Pass, WhistCall::Whist],
    )
}

/// Chance with a bias towards playable games: strong hands bid (the stronger, the higher),
/// hands without aces and kings sometimes call misère, the lowest contract is named, and
/// whists come more often than passes.
fn chance(rng: &mut SmallRng, d: &Deal, seat: Seat, legal: &[Action]) -> Action {
    match d.stage() {
        Stage::Auction => {
            let misere = Action::Bid(Call::Bid(Bid::MISERE));
            let s = strength(d.hand(seat));
            let level = d
                .highest_bid()
                .and_then(|(b, _)| b.contract())
                .map_or(6, |c| c.level());
            if legal.contains(&misere) && s == 0 && rng.gen_ratio(1, 2) {
                misere
            } else if s >= 5 + 2 * usize::from(level - 6) && rng.gen_ratio(4, 5) {
                first_legal_bid(legal).unwrap_or(Action::Bid(Call::Pass))
            } else {
                Action::Bid(Call::Pass)
            }
        }
        Stage::Declare => legal[0],
        Stage::Whist if legal.contains(&Action::Whist(WhistCall::Whist)) && rng.gen_ratio(3, 5) => {
            Action::Whist(WhistCall::Whist)
        }
        _ => legal[rng.gen_range(0..legal.len())],
    }
}

/// Plays `deals` deals (or, with `None`, until the game is over) and returns the record.
fn play(profile: Profile, seed: u64, deals: Option<usize>, script: Option<Script>) -> Record {
    let players = usize::from(profile.players());
    let mut game = Game::new(profile, Seat(seed as u8 % players as u8)).unwrap();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut played = 0;
    while !game.is_over() && deals.is_none_or(|n| played < n) {
        let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
        deck.shuffle(&mut rng);
        game.start_deal(&deck.try_into().unwrap()).unwrap();
        while let Some(deal) = game.deal() {
            let seat = deal.turn().unwrap();
            let allowed = deal.legal_actions(seat);
            let legal = allowed.to_vec();
            let action = script
                .and_then(|s| s(deal, seat, &legal))
                .filter(|a| allowed.contains(a))
                .unwrap_or_else(|| chance(&mut rng, deal, seat, &legal));
            game.apply(seat, action).unwrap();
        }
        played += 1;
        assert!(played < 500, "the game does not end");
    }
    let names: Vec<String> = ["Anna", "Boris", "Vera", "Gleb"][..players]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    Record::from_game(&game, &names).unwrap()
}

fn preset(name: &str) -> Profile {
    Profile::preset(name).unwrap()
}

fn with_pool(name: &str, target: u32) -> Profile {
    preset(name).with("pool_target", target).unwrap()
}

/// Every generated record: its file name and contents.
fn corpus() -> Vec<(&'static str, String)> {
    let one = |seed, script: Script| play(preset("sochi"), seed, Some(1), Some(script));
    vec![
        ("raspasy", one(1, all_pass)),
        ("misere", one(2, misere)),
        ("half-whist-standing", one(3, half_whist_standing)),
        ("half-whist-returned", one(4, half_whist_returned)),
        ("open-defence", one(5, open_defence)),
        ("claims", one(11, claims)),
        ("four-players", play(with_pool("sochi4", 6), 6, None, None)),
        (
            "four-players-dealer-whist",
            play(preset("sochi4"), 10, Some(1), Some(dealer_whist)),
        ),
        ("leningrad", play(with_pool("leningrad", 10), 7, None, None)),
        ("rostov", play(with_pool("rostov", 10), 8, None, None)),
        (
            "agreed-stop",
            play(preset("sochi"), 9, Some(6), None).with_agreed_stop(true),
        ),
    ]
    .into_iter()
    .map(|(name, record)| (name, record.to_json_string()))
    .collect()
}

#[test]
fn generated_records_are_on_disk_and_replay() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/records");
    let bless = std::env::var_os("PREF_BLESS").is_some();
    for (name, text) in corpus() {
        let path = format!("{dir}/{name}.json");
        if bless {
            std::fs::write(&path, &text).unwrap();
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == text,
            "{path} is not what the generator makes: PREF_BLESS=1"
        );
        let record = Record::from_json_str(&on_disk).unwrap();
        assert_eq!(record.to_json_string(), text);
    }
}
