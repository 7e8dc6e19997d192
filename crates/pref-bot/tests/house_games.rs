//! Bots play whole random deals with `dark_games` and `misere_without_talon` on (3 and 4
//! players): every action they choose is legal, every deal ends, a bot never decides on a
//! hand it has not seen (it looks first, or passes dark, R2.3, R3.9), and over many deals
//! they call misère and nine without talon and defend dark and no-talon contracts.
#![allow(missing_docs)]

use pref_bot::{Bot, Budget, Level, play_deal};
use pref_core::{Action, Bid, Call, Card, Deal, Profile, Seat};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

fn house(players: u8) -> Profile {
    Profile::sochi()
        .with("players", players)
        .and_then(|p| p.with("dark_games", true))
        .and_then(|p| p.with("misere_without_talon", true))
        .unwrap()
}

/// What the bots did over the deals.
#[derive(Default, Debug)]
struct Tally {
    /// Seats that looked (by the action or at a first call in the light).
    looks: u32,
    /// Deals whose declarer's first call was dark.
    dark_deals: u32,
}

fn run(profile: &Profile, levels: [Level; 3], deals: usize, nodes: u64, seed: u64) -> Tally {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut deck: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    let mut t = Tally::default();
    for i in 0..deals {
        deck.shuffle(&mut rng);
        let players = profile.players();
        let dealer = Seat(rng.gen_range(0..players));
        let mut deal = Deal::new(profile, dealer, &deck, 0).expect("valid deck");
        let mut bots: Vec<Bot> = (0..players)
            .map(|s| Bot::new(Seat(s), levels[s as usize % 3], profile, seed + i as u64))
            .collect();
        play_deal(&mut deal, &mut bots, |_| Budget::nodes(nodes), |_, _| {})
            .expect("bots act legally");
        assert!(deal.is_finished());
        t.dark_deals += u32::from(deal.is_dark());
        for s in (0..players).map(Seat).filter(|&s| deal.is_active(s)) {
            t.looks += u32::from(deal.looked(s) && deal.dark_calls() & (1 << s.0) == 0);
        }
    }
    t
}

#[test]
fn r3_9_r3_10_easy_bots_finish_house_deals_and_never_bid_dark() {
    for players in [3, 4] {
        let t = run(
            &house(players),
            [Level::Easy; 3],
            400,
            0,
            u64::from(players),
        );
        // Only a dark pass is ever called dark: no deal is dark.
        assert_eq!(t.dark_deals, 0, "{t:?}");
        assert!(t.looks > 0, "{t:?}");
    }
}

fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

/// Seat 0 holds a clean misère hand, seat 1 ten tricks in hearts, seat 2 the rest (dealer 2).
fn set_deal(p: &Profile) -> Deal {
    let hands = [
        "7S 8S 9S 7C 8C 9C 7D 8D 9D 7H",
        "AH KH QH JH TH 9H 8H AS AC AD",
        "KS QS JS TS KC QC JC TC KD QD",
    ]
    .map(cards);
    Deal::from_hands(p, Seat(2), &hands, &cards("JD TD"), 0).unwrap()
}

/// Applies the scripted calls, then lets bots at `level` play the rest of the deal.
fn bots_finish(p: &Profile, calls: &[(u8, Action)], level: Level) -> Deal {
    let mut deal = set_deal(p);
    for &(s, a) in calls {
        deal.apply(Seat(s), a)
            .unwrap_or_else(|e| panic!("{a} by {s}: {e}"));
    }
    let mut bots: Vec<Bot> = (0..3).map(|s| Bot::new(Seat(s), level, p, 3)).collect();
    play_deal(&mut deal, &mut bots, |_| Budget::nodes(3_000), |_, _| {}).expect("bots act legally");
    assert!(deal.is_finished());
    deal
}

fn call(s: &str) -> Action {
    Action::Bid(s.parse().unwrap())
}

const MWT: Action = Action::Bid(Call::Bid(Bid::MISERE_NO_TALON));

#[test]
fn r3_10_2_a_bot_with_a_strong_nine_calls_nine_without_talon_and_bots_defend_it() {
    for level in [Level::Easy, Level::Normal] {
        let deal = bots_finish(&house(3), &[(0, call("misere"))], level);
        assert_eq!(deal.declarer(), Some(Seat(1)), "{level:?}");
        assert!(deal.is_no_talon() && !deal.is_misere());
        assert_eq!(deal.contract().map(|c| c.level()), Some(9));
        let o = deal.outcome().unwrap();
        assert!(o.no_talon && !o.dark);
    }
}

#[test]
fn r4_7_1_bots_play_a_dark_misere_without_talon_to_its_end() {
    let calls = [
        (0, Action::Dark(Call::Bid(Bid::MISERE))),
        (1, call("9S")),
        (2, call("pass")),
        (0, MWT),
        (1, call("pass")),
    ];
    for level in [Level::Easy, Level::Normal] {
        let deal = bots_finish(&house(3), &calls, level);
        let o = deal.outcome().unwrap();
        assert!(o.dark && o.no_talon && deal.is_dark_misere(), "{level:?}");
        assert_eq!(o.tricks.map(|t| t.iter().sum::<u8>()), Some(10));
    }
}

#[test]
fn r3_10_1_the_outbid_misere_bot_calls_misere_without_talon() {
    let p = house(3);
    let calls = [(0, call("misere")), (1, call("9S")), (2, call("pass"))];
    let deal = bots_finish(&p, &calls, Level::Normal);
    // A calls MWT at his one further turn; B, with ten tricks, then calls 9WT over it.
    assert_eq!(deal.last_calls()[0], Some(Call::Bid(Bid::MISERE_NO_TALON)));
    assert_eq!(deal.declarer(), Some(Seat(1)));
    assert!(deal.is_no_talon());
}

#[test]
fn r3_9_bots_defend_a_dark_six() {
    let calls = [
        (2, Action::Look),
        (0, Action::Dark(Call::Bid("6S".parse().unwrap()))),
        (1, call("pass")),
        (2, call("pass")),
    ];
    for level in [Level::Easy, Level::Normal] {
        let deal = bots_finish(&house(3), &calls, level);
        assert!(deal.outcome().unwrap().dark, "{level:?}");
    }
}

#[test]
fn r2_3_a_bot_looks_before_it_decides() {
    // The first decision of every seat at a dark table is a look or a dark pass.
    let p = house(3);
    let deck: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    let deal = Deal::new(&p, Seat(2), &deck, 0).unwrap();
    let mut bot = Bot::new(Seat(0), Level::Normal, &p, 1);
    bot.observe(
        &deal
            .deal_event()
            .project(pref_core::Viewer::Seat(Seat(0)), 3),
    );
    let view = deal.view(pref_core::Viewer::Seat(Seat(0)));
    assert_eq!(view.hand, None);
    let a = bot.decide(&view, &deal.legal_actions(Seat(0)), Budget::nodes(1_000));
    assert_eq!(a, Action::Look);
}
