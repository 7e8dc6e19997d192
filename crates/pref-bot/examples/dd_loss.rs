//! The double-dummy loss: how many tricks a bot gives away against perfect open-hand play.
//!
//! A fixed set of random deals (the same seed for every run) is played by three bots of one
//! kind at a table of one preset. At every card a bot plays with a choice, the true position
//! (every hand, as the harness sees them) is solved for every legal card: the loss is the
//! tricks the chosen card gives up against the best card for the seat's side (the
//! declarer's side maximises his tricks, the defence minimises them; on misère the other
//! way; on raspasy a player minimises his own, the raspasy model). Printed: tricks lost per
//! deal and seat, by kind of deal, with the standard error over deals, and in trick
//! contracts the declarer's loss and the defence's per deal, and both by the trick the card
//! goes to and with the defenders' hands closed or open (R5.5); on raspasy the tricks lost
//! at each trick of the deal (all seats together); and the whists those tricks
//! cost each seat by the preset's prices (the others' tricks shared evenly, as the bots
//! price them; raspasy by the player's own tricks). With `DD_DEBUG` set, every card that
//! loses a trick in a trick contract is written to standard error with the position, the
//! card's value and every other card's.
//!
//! `cargo run --release -p pref-bot --features old-bot --example dd_loss -- <deals> <preset> <easy|normal|strong|base|prior|open|rasp|wide|likely|old> [nodes]`
#![allow(missing_docs)]

#[path = "old_bot/mod.rs"]
mod old_bot;

use old_bot::{Player, play};
use pref_bot::score::deal_result;
use pref_bot::{Solver, open};
use pref_core::view::DealKind;
use pref_core::{
    Action, Card, CardSet, Deal, DealView, Outcome, OutcomeKind, Profile, Seat, Stage, WhistCall,
};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(200);
    let preset = args.get(2).map_or("sochi", String::as_str);
    let profile = Profile::preset(preset).expect("a preset");
    let kind = args.get(3).map_or("strong", String::as_str);
    let nodes: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(30_000);
    let n = profile.players();
    let mut rng = SmallRng::seed_from_u64(99);
    let mut deck: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    let mut judge = Solver::new();
    // Per deal: tricks lost by all seats; and totals by kind (game, misère, raspasy).
    let mut per_deal = Vec::with_capacity(deals);
    let mut per_deal_whists = Vec::with_capacity(deals);
    let mut by_kind = [(0u32, 0usize); 3];
    let mut cards = 0usize;
    // Trick contracts only: tricks lost by the declarer and by the defence. The deal's
    // open-hand value moves by each loss against the side that made it, so the declarer's
    // tricks less the open-hand count at the first card is the defence's loss less his.
    let mut contract_sides = [0u32; 2];
    // Raspasy only: tricks lost by the trick the card is played to (0 = the first).
    let mut raspasy_by_trick = [0u32; 10];
    // Trick contracts only: tricks lost by the declarer and by the defence, by the trick
    // the card goes to, and with the defenders' hands closed or open (one lying down).
    let mut contract_by_trick = [[0u32; 10]; 2];
    let mut contract_open = [[0u32; 2]; 2];
    let mut open_deals = 0usize;
    let debug = std::env::var_os("DD_DEBUG").is_some();
    for i in 0..deals {
        deck.shuffle(&mut rng);
        let mut deal = Deal::new(&profile, Seat((i % 3) as u8), &deck, 0).expect("valid");
        let mut players: Vec<Player> = (0..n)
            .map(|s| Player::make(kind, Seat(s), &profile, i as u64 * 7 + u64::from(s)))
            .collect();
        let mut lost = 0u32;
        let mut lost_whists = 0.0f64;
        let mut was_open = false;
        if debug {
            eprintln!("deal {i}");
        }
        let nodes = vec![nodes; usize::from(n)];
        let judge_card = |deal: &Deal, view: &DealView, action: Action, choices: usize| {
            if let (Stage::Play, Action::Play(card)) = (view.stage, action)
                && choices > 1
            {
                let (loss, whists) = dd_loss(&profile, deal, view, card, &mut judge, debug);
                lost += loss;
                lost_whists += whists;
                let k = match view.kind {
                    DealKind::Misere => 1,
                    DealKind::Raspasy => 2,
                    DealKind::Game | DealKind::Auction => 0,
                };
                by_kind[k].0 += loss;
                // The trick the card goes to (0 = the first).
                let trick = usize::from(view.tricks_taken.iter().sum::<u8>().min(9));
                if k == 2 {
                    raspasy_by_trick[trick] += loss;
                }
                if view.kind == DealKind::Game {
                    let declarer = view.turn.is_some() && view.turn == view.declarer;
                    let side = usize::from(!declarer);
                    contract_sides[side] += loss;
                    contract_by_trick[side][trick] += loss;
                    let open = view.open_hands.iter().any(Option::is_some);
                    was_open |= open;
                    contract_open[side][usize::from(open)] += loss;
                }
                cards += 1;
            }
        };
        play(&mut deal, &mut players, &nodes, judge_card, |_, _| {});
        let k = match deal.outcome().map(|o| o.kind) {
            Some(pref_core::OutcomeKind::Misere { .. }) => 1,
            Some(pref_core::OutcomeKind::Raspasy) => 2,
            _ => 0,
        };
        by_kind[k].1 += 1;
        if k == 0 && was_open {
            open_deals += 1;
        }
        per_deal.push(f64::from(lost) / 3.0);
        per_deal_whists.push(lost_whists / 3.0);
    }
    let (mean, se) = mean_se(&per_deal);
    let per = |k: usize| f64::from(by_kind[k].0) / 3.0 / by_kind[k].1.max(1) as f64;
    println!(
        "{preset}, three {kind} bots ({nodes} nodes), {deals} deals, {cards} cards with a choice: \
         {mean:.3} tricks lost per deal and seat (std error {:.3}); by deal: game {:.3} ({}), \
         misere {:.3} ({}), raspasy {:.3} ({})",
        se,
        per(0),
        by_kind[0].1,
        per(1),
        by_kind[1].1,
        per(2),
        by_kind[2].1
    );
    let games = by_kind[0].1.max(1) as f64;
    println!(
        "  in trick contracts, per deal: the declarer loses {:.3} tricks, the defence {:.3}",
        f64::from(contract_sides[0]) / games,
        f64::from(contract_sides[1]) / games
    );
    println!(
        "  trick contracts, tricks lost by trick: the declarer {:?}, the defence {:?}",
        contract_by_trick[0], contract_by_trick[1]
    );
    println!(
        "  trick contracts with the defence closed / open ({open_deals} open deals): the declarer {:?}, the defence {:?}",
        contract_open[0], contract_open[1]
    );
    println!("  raspasy, tricks lost by trick (all seats, all deals): {raspasy_by_trick:?}");
    let (mean, se) = mean_se(&per_deal_whists);
    println!(
        "  whists lost per deal and seat, by the preset's prices: {mean:.2} (std error {se:.2})"
    );
}

fn mean_se(xs: &[f64]) -> (f64, f64) {
    let m = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / m;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (m - 1.0).max(1.0);
    (mean, (var / m).sqrt())
}

/// `seat`'s result in whists (R8, R10.1, no raspasy before) when `target` ends the deal
/// with `count` tricks and the two other active seats share the rest evenly, as the bots'
/// own prices split them; `None` in the auction.
fn price(profile: &Profile, view: &DealView, seat: Seat, target: Seat, count: u8) -> Option<f64> {
    let n = view.players;
    let others: Vec<Seat> = (0..n)
        .map(Seat)
        .filter(|&s| s != target && !(n == 4 && s == view.dealer))
        .collect();
    let mut tricks = [0u8; 4];
    tricks[target.index()] = count;
    let rest = 10 - count;
    tricks[others[0].index()] = rest - rest / 2;
    tricks[others[1].index()] = rest / 2;
    let mut whist: [Option<WhistCall>; 4] = [None; 4];
    for (w, c) in whist.iter_mut().zip(&view.whist) {
        *w = *c;
    }
    let kind = match view.kind {
        DealKind::Game => OutcomeKind::Game {
            declarer: target,
            contract: view.contract?,
            whist,
            defence: None,
            talon_units: None,
        },
        DealKind::Misere => OutcomeKind::Misere { declarer: target },
        DealKind::Raspasy => OutcomeKind::Raspasy,
        DealKind::Auction => return None,
    };
    let outcome = Outcome {
        players: n,
        dealer: view.dealer,
        kind,
        tricks: Some(tricks),
        dark: false,
        no_talon: false,
    };
    let r = deal_result(profile, &outcome, 0)[seat.index()];
    Some(*r.numer() as f64 / *r.denom() as f64)
}

/// Tricks `card` gives up against the best card for its seat's side in the true position,
/// and what they cost the seat in whists by the preset's prices; with `debug`, a card that
/// loses a trick in a trick contract is written out with the position.
fn dd_loss(
    profile: &Profile,
    deal: &Deal,
    view: &DealView,
    card: Card,
    judge: &mut Solver,
    debug: bool,
) -> (u32, f64) {
    let mut hands = [CardSet::EMPTY; 4];
    for s in 0..deal.players() {
        hands[usize::from(s)] = deal.hand(Seat(s));
    }
    // The raspasy talon card not yet turned, which the harness knows.
    let turned: CardSet = view.talon.iter().flatten().copied().collect();
    let hidden = (view.kind == DealKind::Raspasy)
        .then(|| deal.talon().into_iter().find(|c| !turned.contains(*c)))
        .flatten();
    let (Some(pos), Some(target)) = (open::position(view, &hands, hidden), open::target(view))
    else {
        return (0, 0.0);
    };
    let Some(moves) = judge.solve_moves(&pos) else {
        return (0, 0.0);
    };
    let seat = view.turn.unwrap_or(target);
    // The target's side maximises his tricks in a trick contract; everybody else, and every
    // side on misère and raspasy, wants the target's count the other way.
    let maximise = match view.kind {
        DealKind::Game => seat == target,
        DealKind::Misere => seat != target,
        DealKind::Raspasy | DealKind::Auction => false,
    };
    let value = |c: Card| moves.iter().find(|m| m.0 == c).map_or(0, |m| m.1);
    let values = moves.iter().map(|m| m.1);
    let best = if maximise { values.max() } else { values.min() }.unwrap_or(0);
    let chosen = value(card);
    if debug && best != chosen && view.kind == DealKind::Game {
        let done: u8 = view.tricks_taken.iter().sum();
        eprintln!(
            "trick {done} taken {:?} seat {seat:?} (declarer {:?}, {:?}, whist {:?}, open {}): played {card} for {chosen}, best {best}; moves {:?}; trick {:?}; hands {:?}; discard {:?}",
            view.tricks_taken,
            view.declarer,
            view.contract,
            view.whist,
            view.open_hands.iter().any(Option::is_some),
            moves,
            view.trick.iter().map(|sc| sc.card).collect::<Vec<_>>(),
            hands,
            deal.discard(),
        );
    }
    let taken = view.tricks_taken.get(target.index()).copied().unwrap_or(0);
    let whists = match (
        price(profile, view, seat, target, taken + best),
        price(profile, view, seat, target, taken + chosen),
    ) {
        (Some(b), Some(c)) => (b - c).max(0.0),
        (None, _) | (_, None) => 0.0,
    };
    (u32::from(best.abs_diff(chosen)), whists)
}
