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
    /// The percentage of player seats, seat 0 left out, whose socket stays open but never
    /// acts: at a table with a clock the autopilot plays them; without one their tables stop.
    #[serde(default)]
    pub absent_percent: u8,
    /// The lobby's share of the run (`lobby.rs`).
    #[serde(default)]
    pub lobby: LobbyPlan,
}

/// The lobby's share of a run: public tables, lobby sockets, seeks and probes.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct LobbyPlan {
    /// Of the playing tables, the first this many are opened public: listed while they
    /// fill, then in the live list.
    pub public_tables: usize,
    /// Sockets following `/api/lobby/ws`.
    pub watchers: usize,
    /// Seeks made per second (Sochi, [`LobbyPlan::seek_clock`]).
    pub seeks_per_sec: f64,
    /// The seeks' clock: `off`, `relaxed`, `normal` or `blitz`.
    pub seek_clock: String,
    /// Probes (public tables timed to every watcher) opened per second.
    pub probes_per_sec: f64,
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
            absent_percent: 0,
            lobby: LobbyPlan::default(),
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

    /// Whether seat `seat` of table `i` never acts: [`Plan::absent_percent`] of the seats
    /// after seat 0 (which starts each deal), spread evenly over the tables.
    #[must_use]
    pub fn absent(&self, i: usize, seat: u8) -> bool {
        if seat == 0 {
            return false;
        }
        let before: usize = (0..i).map(|j| usize::from(self.players.at(j)) - 1).sum();
        let k = before + usize::from(seat) - 1;
        let p = usize::from(self.absent_percent.min(100));
        (k + 1) * p / 100 > k * p / 100
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
        self.player_sockets() + self.spectators + self.idle_sockets + self.lobby.watchers
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_absent_share_is_exact_never_seat_0_and_spread_over_the_tables() {
        let plan = Plan {
            tables: 100,
            players: Players::Mixed,
            absent_percent: 10,
            ..Plan::default()
        };
        let seats: Vec<(usize, u8)> = (0..plan.tables)
            .flat_map(|i| (0..plan.players.at(i)).map(move |s| (i, s)))
            .collect();
        let absent: Vec<&(usize, u8)> = seats.iter().filter(|(i, s)| plan.absent(*i, *s)).collect();
        // 225 seats after seat 0 (75 three-handed tables, 25 four-handed): 10 % is 22.
        assert_eq!(absent.len(), 22);
        assert!(absent.iter().all(|(_, s)| *s != 0));
        assert!(
            absent
                .iter()
                .all(|(i, _)| absent.iter().filter(|(j, _)| j == i).count() == 1)
        );
        let none = Plan {
            absent_percent: 0,
            ..plan.clone()
        };
        assert!(seats.iter().all(|(i, s)| !none.absent(*i, *s)));
        let all = Plan {
            absent_percent: 100,
            ..plan
        };
        assert!(seats.iter().all(|(i, s)| all.absent(*i, *s) == (*s != 0)));
    }
}
