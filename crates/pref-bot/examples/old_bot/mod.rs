//! The sampling bot as it was before it scored with the core and read the auction: its
//! decision code, unchanged, kept only so that the examples can measure the bot against it.
//! Nothing in the product uses it. [`Player`] seats either bot, and [`play`] plays a deal.
#![allow(dead_code, unreachable_pub, clippy::all, clippy::pedantic)]

pub mod bot;
mod heuristic;
mod sample;
mod score;
mod seen;

use std::time::{Duration, Instant};

use pref_bot::{Bot, Budget, Level};
use pref_core::{Action, ActionList, Deal, DealView, Outcome, Profile, Seat, ViewEvent, Viewer};

/// A seat's player: the bot of today or the old one.
pub enum Player {
    /// Today's bot.
    New(Box<Bot>),
    /// The old strong bot.
    Old(Box<bot::Bot>),
}

impl Player {
    /// `kind` is `easy`, `normal`, `strong` (today's levels), `old` (the old strong bot),
    /// `base` (strong before issue 39), `prior` (strong before the lone whister's open play
    /// and the measured raspasy price; `normal-prior` the normal bot so), `open` and `rasp`
    /// (`prior` with one of the two),
    /// `wide` (strong with the wider raspasy sample) or `likely` (`base` pricing by likely
    /// whists).
    pub fn make(kind: &str, seat: Seat, profile: &Profile, seed: u64) -> Player {
        let strong = || Bot::new(seat, Level::Strong, profile, seed);
        // Both changes of `prior` off (`Bot::open_alone`, `Bot::measured_raspasy`).
        let before_open_and_rasp = |b: Bot| b.open_alone(false).measured_raspasy(false);
        let bot = match kind {
            "old" => return Player::Old(Box::new(bot::Bot::new(seat, bot::Level::Strong, seed))),
            // The strong bot as it was before issue 39: its bids at the open-hand count,
            // without the declarer's edge (`Bot::declarer_edge`), and its raspasy cards on
            // the ordinary sample (`Bot::wide_raspasy`), the matches' baseline.
            "base" => before_open_and_rasp(strong().declarer_edge(false).wide_raspasy(false)),
            // The strong bot sampling up to 100 layouts for a raspasy card
            // (`Bot::wide_raspasy`), to be measured against `strong`.
            "wide" => strong().wide_raspasy(true),
            // Today's strong bot before the lone whister's open play and the measured
            // raspasy price: the baseline they were measured against.
            "prior" => before_open_and_rasp(strong()),
            // The normal bot with both of `prior`'s changes off.
            "normal-prior" => before_open_and_rasp(Bot::new(seat, Level::Normal, profile, seed)),
            // `prior` playing open whenever it whists alone.
            "open" => strong().measured_raspasy(false),
            // `prior` pricing a pass at the measured raspasy count.
            "rasp" => strong().open_alone(false),
            // The baseline pricing its contracts by its defenders' likely whists
            // (`Bot::likely_whists`), to be measured against `base`.
            "likely" => before_open_and_rasp(strong().declarer_edge(false).wide_raspasy(false))
                .likely_whists(true),
            "easy" => Bot::new(seat, Level::Easy, profile, seed),
            "normal" => Bot::new(seat, Level::Normal, profile, seed),
            _ => strong(),
        };
        Player::New(Box::new(bot))
    }

    pub fn observe(&mut self, e: &ViewEvent) {
        match self {
            Player::New(b) => b.observe(e),
            Player::Old(b) => b.observe(e),
        }
    }

    pub fn decide(&mut self, view: &DealView, legal: &ActionList, nodes: u64) -> Action {
        match self {
            Player::New(b) => b.decide(view, legal, Budget::nodes(nodes)),
            Player::Old(b) => b.decide(view, legal, bot::Budget::nodes(nodes)),
        }
    }
}

/// Plays one deal; `nodes[s]` is seat s's budget per decision; `before` hears each decision
/// before it is played (the deal, the view, the action) and `timed` its seat and time.
pub fn play(
    deal: &mut Deal,
    players: &mut [Player],
    nodes: &[u64],
    mut before: impl FnMut(&Deal, &DealView, Action, usize),
    mut timed: impl FnMut(Seat, Duration),
) -> Outcome {
    let n = deal.players();
    let first = deal.deal_event();
    for (s, p) in players.iter_mut().enumerate() {
        p.observe(&first.project(Viewer::Seat(Seat(s as u8)), n));
    }
    while let Some(seat) = deal.to_act() {
        let legal = deal.legal_actions_for(seat);
        let view = deal.view(Viewer::Seat(seat));
        let started = Instant::now();
        let action = players[seat.index()].decide(&view, &legal, nodes[seat.index()]);
        if legal.len() > 1 {
            timed(seat, started.elapsed());
        }
        before(deal, &view, action, legal.len());
        for e in deal.act(seat, action).expect("bots act legally") {
            for (s, p) in players.iter_mut().enumerate() {
                p.observe(&e.project(Viewer::Seat(Seat(s as u8)), n));
            }
        }
    }
    deal.outcome().expect("finished")
}
