//! The `[tournaments]` settings (read by `tournaments/`) (`config/server.toml`, each also a
//! `PREF_*` variable): whether the server opens a daily tournament, and the limits of what a
//! stranger may make (challenges per address, open tournaments, deals, hours, entrants) or
//! open (old tournaments read back from the database).
//! `docs/security.md` lists them.

use serde::Deserialize;

/// The `[tournaments]` settings.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct Tournaments {
    /// Whether the server opens a tournament of its own each day (UTC), open for the day.
    pub daily_tournament: bool,
    /// Deals of the daily tournament.
    pub daily_deals: u32,
    /// Deals of a challenge, at most.
    pub max_tournament_deals: u32,
    /// Hours a challenge stays open, at most.
    pub max_tournament_hours: u32,
    /// Entrants of one tournament, at most; beyond, entering answers `503 full`.
    pub max_entrants: u32,
    /// Tournaments open at once (in the database, every node's), at most; beyond, creating answers `503 full`.
    pub max_open_tournaments: u32,
    /// Challenges created from one client, an hour.
    pub challenges_per_ip_per_hour: u32,
    /// The burst of those.
    pub challenge_burst_per_ip: u32,
    /// Entries (and their tokens) from one client, a minute.
    pub entries_per_ip_per_minute: u32,
    /// The burst of those.
    pub entry_burst_per_ip: u32,
    /// Past tournaments the list shows.
    pub past_tournaments_listed: u32,
    /// Tournaments closed before the days kept at start, read from the database when their
    /// link is asked for, held in memory at once, at most; beyond, the one read first is
    /// let go.
    pub max_old_loaded: u32,
    /// Such tournaments read from the database for one client, a minute (and at once);
    /// beyond, `429 rate_limited`.
    pub old_loads_per_ip_per_minute: u32,
}

impl Default for Tournaments {
    fn default() -> Tournaments {
        Tournaments {
            daily_tournament: false,
            daily_deals: 12,
            max_tournament_deals: 24,
            max_tournament_hours: 168,
            max_entrants: 5_000,
            max_open_tournaments: 200,
            challenges_per_ip_per_hour: 10,
            challenge_burst_per_ip: 3,
            entries_per_ip_per_minute: 10,
            entry_burst_per_ip: 10,
            past_tournaments_listed: 20,
            max_old_loaded: 50,
            old_loads_per_ip_per_minute: 20,
        }
    }
}
