//! What one run (or one worker's share of it) does: how many tables, seats and spectators,
//! how fast the players act, and for how long.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::resync::Follow;

/// How many players sit at each table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Players {
    /// Every table plays the three-handed game (preset `sochi`).
    Three,
    /// Every table plays the four-handed game (preset `sochi4`).
    Four,
    /// Every fourth table is four-handed, the rest three-handed.
    Mixed,
}

impl Players {
    /// Seats at table number `i`.
    #[must_use]
    pub fn at(self, i: usize) -> u8 {
        match self {
            Players::Three => 3,
            Players::Four => 4,
            Players::Mixed if i % 4 == 3 => 4,
            Players::Mixed => 3,
        }
    }
}

/// One worker's share of a run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Plan {
    /// Tables that play.
    pub tables: usize,
    /// Seats per table.
    pub players: Players,
    /// Spectator sockets over all playing tables, spread evenly (earlier tables get one
    /// more when they do not divide).
    pub spectators: usize,
    /// Extra sockets that only watch tables still in the lobby: they hold a connection and
    /// answer pings, nothing more.
    pub idle_sockets: usize,
    /// Idle sockets per lobby table.
    pub idle_per_table: usize,
    /// How long the players play after every table has started.
    pub duration: Duration,
    /// Accepted actions per second this worker aims at, over all its tables; each player
    /// waits a random time around `tables / rate` before acting. `0` acts at once.
    pub rate: f64,
    /// How long, after play stops, answers still in flight are awaited.
    pub drain: Duration,
    /// Loopback source addresses to spread sockets over (`127.0.0.2` onward), so that more
    /// sockets fit than one address has ephemeral ports. `0` lets the kernel choose.
    pub source_ips: u8,
    /// Tables set up at once.
    pub setup_concurrency: usize,
    /// Seed of the players' choices and waits.
    pub seed: u64,
    /// Which client the sockets imitate.
    #[serde(default)]
    pub follow: Follow,
    /// The tables' clock as `POST /api/tables` takes it (a preset name or an object of
    /// custom values); `None` opens tables without a clock.
    #[serde(default)]
    pub clock: Option<serde_json::Value>,
}

impl Default for Plan {
    fn default() -> Plan {
        Plan {
            tables: 50,
            players: Players::Mixed,
            spectators: 50,
            idle_sockets: 0,
            idle_per_table: 100,
            duration: Duration::from_secs(5),
            rate: 300.0,
            drain: Duration::from_secs(5),
            source_ips: 0,
            setup_concurrency: 32,
            seed: 1,
            follow: Follow::Events,
            clock: None,
        }
    }
}

impl Plan {
    /// The mean wait before a player acts: every table acts in turn, so `tables / rate`.
    #[must_use]
    pub fn think(&self) -> Duration {
        if self.rate <= 0.0 || self.tables == 0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64(self.tables as f64 / self.rate)
        }
    }

    /// Spectators at table number `i`.
    #[must_use]
    pub fn spectators_at(&self, i: usize) -> usize {
        if self.tables == 0 {
            return 0;
        }
        self.spectators / self.tables + usize::from(i < self.spectators % self.tables)
    }

    /// Player sockets over all tables.
    #[must_use]
    pub fn player_sockets(&self) -> usize {
        (0..self.tables)
            .map(|i| usize::from(self.players.at(i)))
            .sum()
    }

    /// Every socket this plan opens.
    #[must_use]
    pub fn sockets(&self) -> usize {
        self.player_sockets() + self.spectators + self.idle_sockets
    }
}
