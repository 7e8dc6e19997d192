//! The `[accounts]` settings (read by `accounts/`) (`config/server.toml`, each also a `PREF_*` variable): the
//! password hash's costs, the sessions' life, and the limits of what a stranger may make
//! (accounts, sign-in attempts, guest seats attached at once). `docs/security.md` lists them.

use super::span::Days;
use serde::Deserialize;

/// The `[accounts]` settings.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct Accounts {
    /// Argon2id's memory per hash, in KiB (at least 8).
    pub argon2_memory_kib: u32,
    /// Argon2id's passes over that memory (at least 1).
    pub argon2_iterations: u32,
    /// Argon2id's lanes (at least 1).
    pub argon2_lanes: u32,
    /// Password hashes computed at once on the node (each holds its memory); more wait.
    pub hashes_at_once: usize,
    /// The shortest password, in characters.
    pub min_password_chars: usize,
    /// The longest password, in bytes (a hash's input is bounded).
    pub max_password_bytes: usize,
    /// A session lasts this many days from sign-in.
    pub session_days: Days,
    /// Sessions one account holds at once; signing in beyond drops the oldest.
    pub max_sessions_per_account: u32,
    /// Accounts the node stores at most; beyond, signing up answers `503 full`.
    pub max_accounts: u64,
    /// Accounts made from one client, a minute; and at once.
    pub signups_per_ip_per_minute: u32,
    /// The burst of those.
    pub signup_burst_per_ip: u32,
    /// Sign-in attempts (and password checks) from one client, a minute.
    pub signins_per_ip_per_minute: u32,
    /// The burst of those.
    pub signin_burst_per_ip: u32,
    /// Sign-in attempts on one user name, a minute, from anywhere.
    pub signins_per_account_per_minute: u32,
    /// The burst of those.
    pub signin_burst_per_account: u32,
    /// Guest seats one request may attach.
    pub attach_max_seats: usize,
    /// Games on one page of a player's games.
    pub games_page: u32,
    /// Finished games whose statistics one request computes at most (the rest follow on
    /// the next requests).
    pub stats_games_per_request: u32,
    /// Points of a player's balance over time, at most (evenly spaced games, the last
    /// always among them).
    pub balance_points: usize,
    /// Players on one page of a rating leaderboard (`GET /api/ratings/{family}`).
    pub leaderboard_page: u32,
    /// Rated games of one family a player's rating history shows at most (the latest).
    pub rating_points: u32,
    /// Live API tokens one bot account holds at most (`docs/bot-api.md`).
    pub bot_tokens_per_account: u32,
    /// Requests authenticated by one API token, a minute (claims, invitations, sockets).
    pub bot_requests_per_token_per_minute: u32,
    /// The burst of those.
    pub bot_request_burst_per_token: u32,
    /// Whether the node is reached over TLS (directly or behind a proxy): the session
    /// cookie is then `Secure`.
    pub behind_tls: bool,
}

impl Default for Accounts {
    fn default() -> Accounts {
        Accounts {
            argon2_memory_kib: 19_456,
            argon2_iterations: 2,
            argon2_lanes: 1,
            hashes_at_once: 2,
            min_password_chars: 8,
            max_password_bytes: 256,
            session_days: Days(30),
            max_sessions_per_account: 16,
            max_accounts: 1_000_000,
            signups_per_ip_per_minute: 3,
            signup_burst_per_ip: 3,
            signins_per_ip_per_minute: 10,
            signin_burst_per_ip: 10,
            signins_per_account_per_minute: 5,
            signin_burst_per_account: 10,
            attach_max_seats: 50,
            games_page: 20,
            stats_games_per_request: 50,
            balance_points: 500,
            leaderboard_page: 50,
            rating_points: 200,
            bot_tokens_per_account: 10,
            bot_requests_per_token_per_minute: 120,
            bot_request_burst_per_token: 60,
            behind_tls: false,
        }
    }
}

impl Accounts {
    /// How long a session lasts, in seconds.
    #[must_use]
    pub fn session_secs(&self) -> i64 {
        self.session_days.max(Days(1)).as_secs_i64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_holds_the_defaults_and_the_environment_wins() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/server.toml");
        let c: crate::config::Config =
            toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(c.accounts, Accounts::default());
        let mut c = crate::config::Config::default();
        c.apply_env(|n| {
            let v = match n {
                "PREF_ARGON2_MEMORY_KIB" => "8",
                "PREF_ARGON2_ITERATIONS" => "1",
                "PREF_BEHIND_TLS" => "true",
                "PREF_SESSION_DAYS" => "2",
                "PREF_ATTACH_MAX_SEATS" => "3",
                _ => return None,
            };
            Some(v.to_owned())
        })
        .unwrap();
        let s = &c.accounts;
        assert_eq!((s.argon2_memory_kib, s.argon2_iterations), (8, 1));
        assert!(s.behind_tls);
        assert_eq!((s.session_secs(), s.attach_max_seats), (2 * 86_400, 3));
        let err = c.apply_env(|n| (n == "PREF_BEHIND_TLS").then(|| "yes".into()));
        assert!(err.unwrap_err().to_string().contains("PREF_BEHIND_TLS"));
    }
}
