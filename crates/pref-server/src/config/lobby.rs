//! The `[lobby]` settings (read by `lobby/`) (`config/server.toml`, each also a `PREF_*`
//! variable): how often a node reads the shared lobby, and the bounds of what a stranger
//! may put in it (lobby sockets, seeks, public tables). `docs/security.md` lists them.

use super::span::{Millis, Secs};
use serde::Deserialize;

/// The `[lobby]` settings.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct Lobby {
    /// How often each node reads the lobby from the database (and pairs seekers), besides
    /// at once after a change it made or was notified of.
    pub lobby_tick_ms: Millis,
    /// A seek whose node has not marked it alive for this long is dropped (its node died).
    pub seek_stale_ms: Millis,
    /// Lobby sockets one client may hold open on a node.
    pub lobby_sockets_per_ip: usize,
    /// Seeks waiting at once from one client (every node together).
    pub seeks_per_ip: u32,
    /// Seeks waiting at once from one account (every node together).
    pub seeks_per_account: u32,
    /// Seeks made by one client, a minute.
    pub seeks_per_ip_per_minute: u32,
    /// The burst of those.
    pub seek_burst_per_ip: u32,
    /// Public tables listed at once that one client opened (every node together).
    pub public_tables_per_ip: u32,
    /// The longest wait a seek may ask for before bots fill its table.
    pub bots_after_max_secs: Secs,
    /// How long a paired seeker has to open his seat before it is freed for somebody else.
    pub open_grace_secs: Secs,
    /// Public tables the list shows at most (the longest waiting).
    pub lobby_max_listed: u32,
    /// Games in progress the live list shows at most (the busiest).
    pub lobby_max_live: u32,
    /// Threads of the lobby sockets' own (each lobby change is a write to every lobby
    /// socket: on their own threads those writes do not hold up the tables); 0 runs them
    /// on the server's threads.
    pub lobby_socket_threads: usize,
    /// How much less urgent than the server's the lobby sockets' threads run (`nice` steps,
    /// 0 to 19): the kernel runs a table's move before a lobby change's writes.
    pub lobby_socket_nice: u32,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby {
            lobby_tick_ms: Millis(500),
            seek_stale_ms: Millis(10_000),
            lobby_sockets_per_ip: 8,
            seeks_per_ip: 4,
            seeks_per_account: 1,
            seeks_per_ip_per_minute: 30,
            seek_burst_per_ip: 10,
            public_tables_per_ip: 3,
            bots_after_max_secs: Secs(600),
            open_grace_secs: Secs(30),
            lobby_max_listed: 200,
            lobby_max_live: 50,
            lobby_socket_threads: 1,
            lobby_socket_nice: 10,
        }
    }
}
