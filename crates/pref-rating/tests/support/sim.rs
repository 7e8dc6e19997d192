//! The simulation of `docs/ratings.md`, shared by the small test (`tests/simulation.rs`)
//! and the large example (`examples/simulate.rs`): a population of bots of known strength
//! plays rated pools among themselves, three at a time drawn at random, each pool played
//! offline to its end with `pref-core`'s [`Game`] and rated with [`pref_rating::rate`].
//! A bot sees only its seat's projected events and view, as at a table.

use num_rational::Ratio;
use pref_bot::{Bot, Budget, Level};
use pref_core::{Action, ActionList, Card, DealView, Game, Profile, Seat, ViewEvent, Viewer};
use pref_rating::{Finish, Params, Rating, rate};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// A seat's player for the length of one pool.
pub(crate) trait Player {
    /// Hears one event as projected for its seat.
    fn observe(&mut self, event: &ViewEvent);
    /// Chooses one of `legal` from the seat's view.
    fn decide(&mut self, view: &DealView, legal: &ActionList) -> Action;
}

/// Today's bot at a level, with a node budget (deterministic for a seed).
struct LevelBot {
    bot: Bot,
    budget: Budget,
}

impl Player for LevelBot {
    fn observe(&mut self, event: &ViewEvent) {
        self.bot.observe(event);
    }

    fn decide(&mut self, view: &DealView, legal: &ActionList) -> Action {
        self.bot.decide(view, legal, self.budget)
    }
}

/// Makes a player for a seat of a pool: its seat, the profile, a seed, solver nodes per
/// decision.
pub(crate) type Make = fn(Seat, &Profile, u64, u64) -> Box<dyn Player>;

/// One kind of bot in the population.
#[derive(Clone, Copy)]
pub(crate) struct Kind {
    /// Its name in the figures.
    pub(crate) name: &'static str,
    /// Solver nodes per decision.
    pub(crate) nodes: u64,
    /// Makes one for a seat.
    pub(crate) make: Make,
}

/// Solver nodes per decision of the normal level in the simulation: enough for some of its
/// layouts, so that it plays between the easy level's rules and the strong level.
pub(crate) const NORMAL_NODES: u64 = 2_000;
/// Solver nodes per decision of the strong level (and of the old strong bot). At the
/// 30,000 of the duplicate matches in `docs/bots.md` the strong level spreads too few nodes
/// over its four times as many layouts and does no better than the normal one
/// (`docs/ratings.md`); at 100,000 it is the strongest. Node budgets keep a seeded run the
/// same on any host.
pub(crate) const STRONG_NODES: u64 = 100_000;

fn level(level: Level, nodes: u64, seat: Seat, profile: &Profile, seed: u64) -> Box<dyn Player> {
    Box::new(LevelBot {
        bot: Bot::new(seat, level, profile, seed),
        budget: Budget::nodes(nodes),
    })
}

/// The easy level (rules of thumb, no search).
pub(crate) const EASY: Kind = Kind {
    name: "easy",
    nodes: 0,
    make: |seat, profile, seed, nodes| level(Level::Easy, nodes, seat, profile, seed),
};
/// The normal level at [`NORMAL_NODES`].
pub(crate) const NORMAL: Kind = Kind {
    name: "normal",
    nodes: NORMAL_NODES,
    make: |seat, profile, seed, nodes| level(Level::Normal, nodes, seat, profile, seed),
};
/// The strong level at [`STRONG_NODES`].
pub(crate) const STRONG: Kind = Kind {
    name: "strong",
    nodes: STRONG_NODES,
    make: |seat, profile, seed, nodes| level(Level::Strong, nodes, seat, profile, seed),
};

/// Deals after which a pool that has not closed is stopped by agreement (R10.3), so a
/// run always ends; short pools close long before.
pub(crate) const MAX_DEALS: usize = 200;

/// Plays one pool to its end (or to [`MAX_DEALS`]) with `players[s]` in seat `s`, the deals
/// shuffled from `rng`; the settlement balance of each seat (whists).
///
/// # Panics
/// If a player chooses an action the rules refuse (the bots never do).
pub(crate) fn play_pool(
    profile: &Profile,
    players: &mut [Box<dyn Player>],
    rng: &mut SmallRng,
) -> Vec<Ratio<i64>> {
    let n = profile.players();
    let mut game = Game::new(profile.clone(), Seat(rng.gen_range(0..n))).expect("a seat");
    let mut deck: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    for _ in 0..MAX_DEALS {
        if game.is_over() {
            break;
        }
        deck.shuffle(rng);
        let dealt = game.start_deal(&deck).expect("a deal can start");
        for (s, p) in players.iter_mut().enumerate() {
            p.observe(&dealt.project(Viewer::Seat(Seat(s as u8)), n));
        }
        while let Some(seat) = game.deal().and_then(|d| d.to_act()) {
            let deal = game.deal().expect("a deal in progress");
            let legal = deal.legal_actions_for(seat);
            let action = players[seat.index()].decide(&deal.view(Viewer::Seat(seat)), &legal);
            for e in game.act(seat, action).expect("bots act legally") {
                for (s, p) in players.iter_mut().enumerate() {
                    p.observe(&e.project(Viewer::Seat(Seat(s as u8)), n));
                }
            }
        }
    }
    game.settlement()
        .unwrap_or_else(|| game.agreed_settlement())
}

/// A population: `per_kind` bots of each kind, each with its rating.
pub(crate) struct Population {
    /// The kinds, in the order their ratings should come out (weakest first).
    pub(crate) kinds: Vec<Kind>,
    /// Each member's kind (an index into `kinds`).
    pub(crate) kind_of: Vec<usize>,
    /// Each member's rating.
    pub(crate) ratings: Vec<Rating>,
    /// The profile every pool is played under.
    pub(crate) profile: Profile,
    /// The rating parameters.
    pub(crate) params: Params,
    /// Each kind's balances summed over its games, and its games (a member's game each).
    pub(crate) balance_by_kind: Vec<(Ratio<i64>, u64)>,
    rng: SmallRng,
    games: u64,
}

impl Population {
    /// `per_kind` new players of each of `kinds`, playing `profile`'s pools, seeded by
    /// `seed`.
    #[must_use]
    pub(crate) fn new(
        kinds: Vec<Kind>,
        per_kind: usize,
        profile: Profile,
        seed: u64,
    ) -> Population {
        let kind_of: Vec<usize> = (0..kinds.len())
            .flat_map(|k| std::iter::repeat_n(k, per_kind))
            .collect();
        let params = Params::STANDARD;
        Population {
            ratings: vec![Rating::new(&params); kind_of.len()],
            balance_by_kind: vec![(Ratio::from_integer(0), 0); kinds.len()],
            kind_of,
            kinds,
            profile,
            params,
            rng: SmallRng::seed_from_u64(seed),
            games: 0,
        }
    }

    /// Rated games played so far.
    #[must_use]
    pub(crate) fn games(&self) -> u64 {
        self.games
    }

    /// Plays one rated pool among three members drawn at random (in random seats) and
    /// rates it at full weight; the members and their balances.
    pub(crate) fn play_one(&mut self) -> (Vec<usize>, Vec<Ratio<i64>>) {
        let n = usize::from(self.profile.players());
        let mut members: Vec<usize> = (0..self.kind_of.len()).collect();
        members.shuffle(&mut self.rng);
        members.truncate(n);
        let seed = self.rng.r#gen::<u64>();
        let mut players: Vec<Box<dyn Player>> = members
            .iter()
            .enumerate()
            .map(|(s, &m)| {
                let kind = self.kinds[self.kind_of[m]];
                (kind.make)(Seat(s as u8), &self.profile, seed + m as u64, kind.nodes)
            })
            .collect();
        let balances = play_pool(&self.profile, &mut players, &mut self.rng);
        let before: Vec<Rating> = members.iter().map(|&m| self.ratings[m]).collect();
        let finishes: Vec<Finish> = balances.iter().map(|&b| Finish::Balance(b)).collect();
        for (&m, after) in members
            .iter()
            .zip(rate(&before, &finishes, 1.0, &self.params))
        {
            self.ratings[m] = after;
        }
        for (&m, &b) in members.iter().zip(&balances) {
            let sum = &mut self.balance_by_kind[self.kind_of[m]];
            *sum = (sum.0 + b, sum.1 + 1);
        }
        self.games += 1;
        (members, balances)
    }

    /// The mean rating of each kind's members, in the order of `kinds`.
    #[must_use]
    pub(crate) fn mean_by_kind(&self) -> Vec<f64> {
        (0..self.kinds.len())
            .map(|k| {
                let of_kind: Vec<f64> = self
                    .ratings
                    .iter()
                    .zip(&self.kind_of)
                    .filter(|(_, kind)| **kind == k)
                    .map(|(r, _)| r.mu)
                    .collect();
                of_kind.iter().sum::<f64>() / of_kind.len() as f64
            })
            .collect()
    }

    /// Whether the first `ranked` kinds' mean ratings increase strictly in their order (the
    /// large run's figure; the small test asserts less, `tests/simulation.rs`).
    #[cfg_attr(test, allow(dead_code))]
    #[must_use]
    pub(crate) fn ordered(&self, ranked: usize) -> bool {
        self.mean_by_kind()[..ranked]
            .windows(2)
            .all(|w| w[0] < w[1])
    }
}

/// Sochi with a pool of `pool` points for each player: short pools, fast runs.
#[must_use]
pub(crate) fn short_sochi(pool: u32) -> Profile {
    Profile::sochi()
        .with("pool_target", pool)
        .expect("a pool target in range")
}
