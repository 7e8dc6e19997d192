//! Bots at every level play whole random deals on every preset (3 and 4 players), making
//! and answering claims (R6.7): every action they choose is legal (`Deal::act` would refuse
//! anything else), every deal reaches its end, and a fixed seed with a node budget gives
//! the same game twice. What a bot is given is only its seat's view: `play_deal` hands it
//! projected events and views, and `views_show_a_bot_only_its_seat` checks every view it was
//! given against the cards the seat may see.
#![allow(missing_docs)]

use pref_bot::{Bot, Budget, Level, play_deal};
use pref_core::{
    Card, CardSet, Deal, Outcome, OutcomeKind, PRESETS, Profile, Seat, Viewer, WhistCall,
};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

fn run(profile: &Profile, levels: [Level; 3], deals: usize, nodes: u64, seed: u64) -> Vec<Deal> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut deck: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    let mut out = Vec::with_capacity(deals);
    for i in 0..deals {
        deck.shuffle(&mut rng);
        let players = profile.players();
        let dealer = Seat(rng.gen_range(0..players));
        let mut deal = Deal::new(profile, dealer, &deck, 0).expect("valid deck");
        let mut bots: Vec<Bot> = (0..players)
            .map(|s| {
                Bot::new(Seat(s), levels[s as usize % 3], profile, seed + i as u64).claiming(true)
            })
            .collect();
        play_deal(&mut deal, &mut bots, |_| Budget::nodes(nodes), |_, _| {})
            .expect("bots act legally");
        assert!(deal.is_finished());
        assert!(deal.outcome().is_some());
        out.push(deal);
    }
    out
}

fn preset(name: &str) -> Profile {
    Profile::preset(name).expect("a preset")
}

#[test]
fn easy_bots_finish_thousands_of_deals() {
    run(&Profile::sochi(), [Level::Easy; 3], 2000, 0, 1);
}

#[test]
fn bots_act_legally_on_every_preset() {
    for (i, name) in PRESETS.into_iter().enumerate() {
        run(&preset(name), MIXED, 60, 4_000, 20 + i as u64);
    }
}

/// Levels in seats 0, 1, 2, deals, nodes per decision, seed.
type Table = ([Level; 3], usize, u64, u64);

const MIXED: [Level; 3] = [Level::Strong, Level::Normal, Level::Easy];

#[test]
fn normal_and_strong_bots_finish_hundreds_of_deals() {
    let sochi = Profile::sochi();
    let rows: [Table; 2] = [
        (MIXED, 400, 3_000, 2),
        (
            [Level::Strong, Level::Normal, Level::Strong],
            25,
            150_000,
            3,
        ),
    ];
    let mut claimed = 0;
    for (levels, deals, nodes, seed) in rows {
        let played = run(&sochi, levels, deals, nodes, seed);
        claimed += played
            .iter()
            .filter(|d| d.accepted_claim().is_some())
            .count();
    }
    // Some deals end by a claim all accepted (R6.7).
    assert!(claimed >= 10, "only {claimed} deals ended by a claim");
}

#[test]
fn r11_r6_2_bots_finish_four_player_and_must_overtake_deals() {
    let four = preset("sochi4");
    let overtake =
        Profile::from_toml_str("preset = \"sochi\"\nmust_overtake = true").expect("a profile");
    run(&four, MIXED, 200, 5_000, 4);
    run(&overtake, MIXED, 200, 5_000, 5);
}

/// R4.5, R5.3: bots finish deals at a table with the house rules' exits on (a surrender of
/// three, the first defender's withdrawal after *whist, pass*), three- and four-handed, and
/// take both exits: declarers surrender and first defenders withdraw.
#[test]
fn r4_5_r5_3_bots_finish_deals_with_surrender_and_withdrawal() {
    for base in ["sochi", "sochi4"] {
        let profile = Profile::from_toml_str(&format!(
            "preset = \"{base}\"\nsurrender = 3\nwhist_pass_half = true"
        ))
        .expect("a profile");
        let played = run(&profile, MIXED, 150, 5_000, 8);
        let surrendered = played.iter().filter(|d| d.surrendered()).count();
        let withdrew = played.iter().filter(|d| withdrew(d)).count();
        // With seed 8 and node budgets the run is fixed: 11 and 13 surrenders, one
        // withdrawal each. The bounds leave the bots room to improve, not to stop.
        assert!(
            surrendered >= 5,
            "{base}: only {surrendered} of 150 deals surrendered (R4.5)"
        );
        assert!(
            withdrew >= 1,
            "{base}: no first defender withdrew to a half-whist in 150 deals (R5.3)"
        );
    }
}

/// Whether the first defender withdrew to a half-whist after *whist, pass* (R5.3): the deal
/// ended with him on `Half` and the second defender on `Pass`, which no other way of
/// calling leaves (a half-whist of the second defender is *pass, half*).
fn withdrew(deal: &Deal) -> bool {
    let Some(Outcome {
        players,
        dealer,
        kind: OutcomeKind::Game {
            declarer, whist, ..
        },
        ..
    }) = deal.outcome()
    else {
        return false;
    };
    let next = |s: Seat| {
        let n = Seat((s.0 + 1) % players);
        if players == 4 && n == dealer {
            Seat((n.0 + 1) % players)
        } else {
            n
        }
    };
    let first = next(declarer);
    let second = next(first);
    whist[first.index()] == Some(WhistCall::Half) && whist[second.index()] == Some(WhistCall::Pass)
}

#[test]
fn a_fixed_seed_and_node_budget_give_the_same_game() {
    let a = run(
        &Profile::sochi(),
        [Level::Strong, Level::Normal, Level::Strong],
        15,
        40_000,
        6,
    );
    let b = run(
        &Profile::sochi(),
        [Level::Strong, Level::Normal, Level::Strong],
        15,
        40_000,
        6,
    );
    assert_eq!(a, b);
}

/// Every view a bot is handed shows only what its seat may see: its own hand, the cards
/// played, the talon once turned, its own discard as declarer and the hands opened to all
/// (R5.5, R6.5). Checked at every decision of every bot, on every preset.
#[test]
fn views_show_a_bot_only_its_seat() {
    let mut rng = SmallRng::seed_from_u64(40);
    let mut deck: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    for name in PRESETS {
        let profile = preset(name);
        let players = profile.players();
        for i in 0..40u64 {
            deck.shuffle(&mut rng);
            let mut deal = Deal::new(&profile, Seat((i % 3) as u8), &deck, 0).expect("valid");
            let mut bots: Vec<Bot> = (0..players)
                .map(|s| Bot::new(Seat(s), MIXED[s as usize % 3], &profile, i))
                .collect();
            let mut public = CardSet::EMPTY;
            let first = deal.deal_event();
            for b in &mut bots {
                b.observe(&first.project(Viewer::Seat(b.seat()), players));
            }
            while let Some(p) = deal.to_act() {
                let view = deal.view(Viewer::Seat(p));
                let own = view.hand.unwrap_or_default();
                let opened = view
                    .open_hands
                    .iter()
                    .flatten()
                    .fold(CardSet::EMPTY, |a, h| a.or(*h));
                let turned: CardSet = view.talon.iter().flatten().copied().collect();
                let discard = if view.declarer == Some(p) {
                    view.discard.unwrap_or_default()
                } else {
                    CardSet::EMPTY
                };
                let may = own.or(opened).or(turned).or(discard).or(public);
                assert_eq!(
                    view.cards().minus(may),
                    CardSet::EMPTY,
                    "{name}: {p} sees too much"
                );
                assert!(
                    view.discard.is_none() || view.declarer == Some(p),
                    "{name}: discard"
                );
                let legal = deal.legal_actions_for(p);
                let bot = bots.iter_mut().find(|b| b.seat() == p).expect("a bot");
                let action = bot.decide(&view, &legal, Budget::nodes(3_000));
                assert!(legal.contains(&action), "{name}: {action} is not legal");
                for e in deal.act(p, action).expect("legal") {
                    for b in &mut bots {
                        let seen = e.project(Viewer::Seat(b.seat()), players);
                        if let pref_core::ViewEvent::Played { card, .. }
                        | pref_core::ViewEvent::TalonCardTurned { card, .. } = seen
                        {
                            public = public.with(card);
                        }
                        b.observe(&seen);
                    }
                }
            }
        }
    }
}
