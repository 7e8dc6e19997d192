//! The `PREF_*` environment variables, applied over the file's settings, and the one list
//! that names every setting: its key in `config/server.toml`, its variable, and where it
//! goes. The shipped file's comments and `docs/security.md`'s limits table are checked
//! against this list by the tests (`config/tests.rs`), so a setting is named once.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::str::FromStr;

use super::{Config, ConfigError, Proxy};

/// One setting: its key in the TOML file (`section.name`), its environment variable, and
/// how a variable's text is put in place (or what the text should have been).
#[derive(Clone, Copy)]
pub struct Setting {
    /// `limits.max_frame_bytes`; a top-level key has no section (`bind`).
    pub key: &'static str,
    /// `PREF_MAX_FRAME_BYTES`.
    pub env: &'static str,
    set: fn(&mut Config, &str) -> Result<(), &'static str>,
}

impl std::fmt::Debug for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.key, self.env)
    }
}

/// A setting's value as a variable writes it.
trait FromVar: Sized {
    /// What the text should have been, for the error.
    const WHY: &'static str;
    /// The value, or `None` if `text` does not read as one.
    fn from_var(text: &str) -> Option<Self>;
}

macro_rules! parsed {
    ($why:literal: $($t:ty),+) => {$(
        impl FromVar for $t {
            const WHY: &'static str = $why;
            fn from_var(text: &str) -> Option<$t> {
                text.trim().parse().ok()
            }
        }
    )+};
}

parsed!("a non-negative integer": u32, u64, usize);
parsed!("true or false": bool);

macro_rules! span {
    ($($t:ident: $why:literal),+) => {$(
        impl FromVar for super::$t {
            const WHY: &'static str = $why;
            fn from_var(text: &str) -> Option<super::$t> {
                u64::from_var(text).map(super::$t)
            }
        }
    )+};
}

span!(
    Millis: "a whole number of milliseconds",
    Secs: "a whole number of seconds",
    Days: "a whole number of days"
);
parsed!("an address such as 127.0.0.1:8080": SocketAddr);

impl FromVar for PathBuf {
    const WHY: &'static str = "a path";
    fn from_var(text: &str) -> Option<PathBuf> {
        Some(PathBuf::from(text))
    }
}

/// An optional text: an empty variable unsets it.
impl FromVar for Option<String> {
    const WHY: &'static str = "a text";
    fn from_var(text: &str) -> Option<Option<String>> {
        Some(Some(text.to_owned()).filter(|t| !t.trim().is_empty()))
    }
}

/// A comma-separated list; empty items are skipped.
impl FromVar for Vec<String> {
    const WHY: &'static str = "a comma-separated list";
    fn from_var(text: &str) -> Option<Vec<String>> {
        Some(items(text).map(str::to_owned).collect())
    }
}

impl FromVar for Vec<Proxy> {
    const WHY: &'static str = "comma-separated addresses or blocks such as 10.0.0.0/8";
    fn from_var(text: &str) -> Option<Vec<Proxy>> {
        items(text).map(|p| Proxy::from_str(p).ok()).collect()
    }
}

fn items(text: &str) -> impl Iterator<Item = &str> {
    text.split(',').map(str::trim).filter(|i| !i.is_empty())
}

/// `settings! { "key" => ENV: field.path, … }`: the list, each entry setting its field.
macro_rules! settings {
    ($($key:literal => $env:ident: $($field:ident).+),+ $(,)?) => {
        /// Every setting, in the order of `config/server.toml`.
        pub const SETTINGS: &[Setting] = &[$(
            Setting {
                key: $key,
                env: stringify!($env),
                set: |config, text| {
                    config.$($field).+ = FromVar::from_var(text).ok_or_else(|| why(&config.$($field).+))?;
                    Ok(())
                },
            }
        ),+];
    };
}

/// The expected form of a field's type.
fn why<T: FromVar>(_: &T) -> &'static str {
    T::WHY
}

settings! {
    "bind" => PREF_BIND: bind,
    "data_dir" => PREF_DATA_DIR: data_dir,
    "database" => PREF_DATABASE_URL: database,
    "web_dir" => PREF_WEB_DIR: web_dir,
    "cluster.node_addr" => PREF_NODE_ADDR: cluster.node_addr,
    "cluster.lease_ms" => PREF_LEASE_MS: cluster.lease_ms,
    "cluster.secret" => PREF_CLUSTER_SECRET: cluster.secret,
    "cluster.lookups_per_second" => PREF_LOOKUPS_PER_SECOND: cluster.lookups_per_second,
    "cluster.miss_cache_secs" => PREF_MISS_CACHE_SECS: cluster.miss_cache_secs,
    "cluster.forward_send_timeout_ms" => PREF_FORWARD_SEND_TIMEOUT_MS: cluster.forward_send_timeout_ms,
    "security.same_origin" => PREF_SAME_ORIGIN: security.same_origin,
    "security.allowed_origins" => PREF_ALLOWED_ORIGINS: security.allowed_origins,
    "security.trusted_proxies" => PREF_TRUSTED_PROXIES: security.trusted_proxies,
    "lifecycle.lobby_idle_secs" => PREF_LOBBY_IDLE_SECS: lifecycle.lobby_idle_secs,
    "lifecycle.finished_linger_secs" => PREF_FINISHED_LINGER_SECS: lifecycle.finished_linger_secs,
    "bots.core_share_percent" => PREF_BOT_CORE_SHARE_PERCENT: bots.core_share_percent,
    "limits.max_frame_bytes" => PREF_MAX_FRAME_BYTES: limits.max_frame_bytes,
    "limits.max_body_bytes" => PREF_MAX_BODY_BYTES: limits.max_body_bytes,
    "limits.messages_per_second" => PREF_MESSAGES_PER_SECOND: limits.messages_per_second,
    "limits.message_burst" => PREF_MESSAGE_BURST: limits.message_burst,
    "limits.idle_timeout_secs" => PREF_IDLE_TIMEOUT_SECS: limits.idle_timeout_secs,
    "limits.ping_secs" => PREF_PING_SECS: limits.ping_secs,
    "limits.history" => PREF_HISTORY: limits.history,
    "limits.queue" => PREF_QUEUE: limits.queue,
    "limits.chat_max_chars" => PREF_CHAT_MAX_CHARS: limits.chat_max_chars,
    "limits.chat_history_lines" => PREF_CHAT_HISTORY_LINES: limits.chat_history_lines,
    "limits.max_tables" => PREF_MAX_TABLES: limits.max_tables,
    "limits.max_keepers" => PREF_MAX_KEEPERS: limits.max_keepers,
    "limits.keeper_max_deals" => PREF_KEEPER_MAX_DEALS: limits.keeper_max_deals,
    "limits.keeper_max_changes" => PREF_KEEPER_MAX_CHANGES: limits.keeper_max_changes,
    "limits.max_record_bytes" => PREF_MAX_RECORD_BYTES: limits.max_record_bytes,
    "limits.max_profiles" => PREF_MAX_PROFILES: limits.max_profiles,
    "limits.keeper_idle_secs" => PREF_KEEPER_IDLE_SECS: limits.keeper_idle_secs,
    "limits.keeper_max_open" => PREF_KEEPER_MAX_OPEN: limits.keeper_max_open,
    "limits.keeper_expire_days" => PREF_KEEPER_EXPIRE_DAYS: limits.keeper_expire_days,
    "limits.keeper_sheets_per_ip_per_minute" => PREF_KEEPER_SHEETS_PER_IP_PER_MINUTE: limits.keeper_sheets_per_ip_per_minute,
    "limits.keeper_sheet_burst_per_ip" => PREF_KEEPER_SHEET_BURST_PER_IP: limits.keeper_sheet_burst_per_ip,
    "limits.keeper_requests_per_ip_per_second" => PREF_KEEPER_REQUESTS_PER_IP_PER_SECOND: limits.keeper_requests_per_ip_per_second,
    "limits.keeper_request_burst_per_ip" => PREF_KEEPER_REQUEST_BURST_PER_IP: limits.keeper_request_burst_per_ip,
    "limits.max_streams_per_ip" => PREF_MAX_STREAMS_PER_IP: limits.max_streams_per_ip,
    "limits.max_streams_per_sheet" => PREF_MAX_STREAMS_PER_SHEET: limits.max_streams_per_sheet,
    "limits.max_streams" => PREF_MAX_STREAMS: limits.max_streams,
    "limits.profiles_per_ip_per_minute" => PREF_PROFILES_PER_IP_PER_MINUTE: limits.profiles_per_ip_per_minute,
    "limits.profile_burst_per_ip" => PREF_PROFILE_BURST_PER_IP: limits.profile_burst_per_ip,
    "limits.profile_expire_days" => PREF_PROFILE_EXPIRE_DAYS: limits.profile_expire_days,
    "limits.bot_delay_min_ms" => PREF_BOT_DELAY_MIN_MS: limits.bot_delay_min_ms,
    "limits.bot_delay_max_ms" => PREF_BOT_DELAY_MAX_MS: limits.bot_delay_max_ms,
    "limits.analysis_max_record_bytes" => PREF_ANALYSIS_MAX_RECORD_BYTES: limits.analysis_max_record_bytes,
    "limits.analysis_burst" => PREF_ANALYSIS_BURST: limits.analysis_burst,
    "limits.analysis_every_ms" => PREF_ANALYSIS_EVERY_MS: limits.analysis_every_ms,
    "limits.deal_analyses_per_minute" => PREF_DEAL_ANALYSES_PER_MINUTE: limits.deal_analyses_per_minute,
    "limits.deal_analysis_burst" => PREF_DEAL_ANALYSIS_BURST: limits.deal_analysis_burst,
    "limits.analysis_running" => PREF_ANALYSIS_RUNNING: limits.analysis_running,
    "limits.analysis_queue" => PREF_ANALYSIS_QUEUE: limits.analysis_queue,
    "limits.hints_per_deal" => PREF_HINTS_PER_DEAL: limits.hints_per_deal,
    "limits.hint_nodes" => PREF_HINT_NODES: limits.hint_nodes,
    "limits.etude_requests_per_ip_per_minute" => PREF_ETUDE_REQUESTS_PER_IP_PER_MINUTE: limits.etude_requests_per_ip_per_minute,
    "limits.etude_request_burst_per_ip" => PREF_ETUDE_REQUEST_BURST_PER_IP: limits.etude_request_burst_per_ip,
    "limits.etude_scan_secs" => PREF_ETUDE_SCAN_SECS: limits.etude_scan_secs,
    "limits.analysis_cache_deals" => PREF_ANALYSIS_CACHE_DEALS: limits.analysis_cache_deals,
    "limits.analysis_cache_secs" => PREF_ANALYSIS_CACHE_SECS: limits.analysis_cache_secs,
    "limits.max_conns_per_ip" => PREF_MAX_CONNS_PER_IP: limits.max_conns_per_ip,
    "limits.max_conns_per_table" => PREF_MAX_CONNS_PER_TABLE: limits.max_conns_per_table,
    "limits.max_conns_per_token" => PREF_MAX_CONNS_PER_TOKEN: limits.max_conns_per_token,
    "limits.tables_per_ip_per_minute" => PREF_TABLES_PER_IP_PER_MINUTE: limits.tables_per_ip_per_minute,
    "limits.table_burst_per_ip" => PREF_TABLE_BURST_PER_IP: limits.table_burst_per_ip,
    "limits.sockets_per_ip_per_second" => PREF_SOCKETS_PER_IP_PER_SECOND: limits.sockets_per_ip_per_second,
    "limits.socket_burst_per_ip" => PREF_SOCKET_BURST_PER_IP: limits.socket_burst_per_ip,
    "limits.seat_heavy_per_second" => PREF_SEAT_HEAVY_PER_SECOND: limits.seat_heavy_per_second,
    "limits.seat_heavy_burst" => PREF_SEAT_HEAVY_BURST: limits.seat_heavy_burst,
    "limits.spectators_heavy_per_second" => PREF_SPECTATORS_HEAVY_PER_SECOND: limits.spectators_heavy_per_second,
    "limits.spectators_heavy_burst" => PREF_SPECTATORS_HEAVY_BURST: limits.spectators_heavy_burst,
    "limits.fair_window_ms" => PREF_FAIR_WINDOW_MS: limits.fair_window_ms,
    "limits.header_read_timeout_ms" => PREF_HEADER_READ_TIMEOUT_MS: limits.header_read_timeout_ms,
    "limits.body_read_timeout_ms" => PREF_BODY_READ_TIMEOUT_MS: limits.body_read_timeout_ms,
    "limits.fair_snapshot_deals" => PREF_FAIR_SNAPSHOT_DEALS: limits.fair_snapshot_deals,
    "limits.score_snapshot_deals" => PREF_SCORE_SNAPSHOT_DEALS: limits.score_snapshot_deals,
    "limits.score_page_deals" => PREF_SCORE_PAGE_DEALS: limits.score_page_deals,
    "limits.score_pages_per_second" => PREF_SCORE_PAGES_PER_SECOND: limits.score_pages_per_second,
    "limits.score_page_burst" => PREF_SCORE_PAGE_BURST: limits.score_page_burst,
    "limits.socket_write_buffer_bytes" => PREF_SOCKET_WRITE_BUFFER_BYTES: limits.socket_write_buffer_bytes,
    "limits.spectators_every_ms" => PREF_SPECTATORS_EVERY_MS: limits.spectators_every_ms,
    "accounts.argon2_memory_kib" => PREF_ARGON2_MEMORY_KIB: accounts.argon2_memory_kib,
    "accounts.argon2_iterations" => PREF_ARGON2_ITERATIONS: accounts.argon2_iterations,
    "accounts.argon2_lanes" => PREF_ARGON2_LANES: accounts.argon2_lanes,
    "accounts.hashes_at_once" => PREF_HASHES_AT_ONCE: accounts.hashes_at_once,
    "accounts.min_password_chars" => PREF_MIN_PASSWORD_CHARS: accounts.min_password_chars,
    "accounts.max_password_bytes" => PREF_MAX_PASSWORD_BYTES: accounts.max_password_bytes,
    "accounts.session_days" => PREF_SESSION_DAYS: accounts.session_days,
    "accounts.max_sessions_per_account" => PREF_MAX_SESSIONS_PER_ACCOUNT: accounts.max_sessions_per_account,
    "accounts.max_accounts" => PREF_MAX_ACCOUNTS: accounts.max_accounts,
    "accounts.signups_per_ip_per_minute" => PREF_SIGNUPS_PER_IP_PER_MINUTE: accounts.signups_per_ip_per_minute,
    "accounts.signup_burst_per_ip" => PREF_SIGNUP_BURST_PER_IP: accounts.signup_burst_per_ip,
    "accounts.signins_per_ip_per_minute" => PREF_SIGNINS_PER_IP_PER_MINUTE: accounts.signins_per_ip_per_minute,
    "accounts.signin_burst_per_ip" => PREF_SIGNIN_BURST_PER_IP: accounts.signin_burst_per_ip,
    "accounts.signins_per_account_per_minute" => PREF_SIGNINS_PER_ACCOUNT_PER_MINUTE: accounts.signins_per_account_per_minute,
    "accounts.signin_burst_per_account" => PREF_SIGNIN_BURST_PER_ACCOUNT: accounts.signin_burst_per_account,
    "accounts.attach_max_seats" => PREF_ATTACH_MAX_SEATS: accounts.attach_max_seats,
    "accounts.games_page" => PREF_GAMES_PAGE: accounts.games_page,
    "accounts.stats_games_per_request" => PREF_STATS_GAMES_PER_REQUEST: accounts.stats_games_per_request,
    "accounts.balance_points" => PREF_BALANCE_POINTS: accounts.balance_points,
    "accounts.leaderboard_page" => PREF_LEADERBOARD_PAGE: accounts.leaderboard_page,
    "accounts.rating_points" => PREF_RATING_POINTS: accounts.rating_points,
    "accounts.bot_tokens_per_account" => PREF_BOT_TOKENS_PER_ACCOUNT: accounts.bot_tokens_per_account,
    "accounts.bot_requests_per_token_per_minute" => PREF_BOT_REQUESTS_PER_TOKEN_PER_MINUTE: accounts.bot_requests_per_token_per_minute,
    "accounts.bot_request_burst_per_token" => PREF_BOT_REQUEST_BURST_PER_TOKEN: accounts.bot_request_burst_per_token,
    "accounts.behind_tls" => PREF_BEHIND_TLS: accounts.behind_tls,
    "tournaments.daily_tournament" => PREF_DAILY_TOURNAMENT: tournaments.daily_tournament,
    "tournaments.daily_deals" => PREF_DAILY_DEALS: tournaments.daily_deals,
    "tournaments.max_tournament_deals" => PREF_MAX_TOURNAMENT_DEALS: tournaments.max_tournament_deals,
    "tournaments.max_tournament_hours" => PREF_MAX_TOURNAMENT_HOURS: tournaments.max_tournament_hours,
    "tournaments.max_entrants" => PREF_MAX_ENTRANTS: tournaments.max_entrants,
    "tournaments.max_open_tournaments" => PREF_MAX_OPEN_TOURNAMENTS: tournaments.max_open_tournaments,
    "tournaments.challenges_per_ip_per_hour" => PREF_CHALLENGES_PER_IP_PER_HOUR: tournaments.challenges_per_ip_per_hour,
    "tournaments.challenge_burst_per_ip" => PREF_CHALLENGE_BURST_PER_IP: tournaments.challenge_burst_per_ip,
    "tournaments.entries_per_ip_per_minute" => PREF_ENTRIES_PER_IP_PER_MINUTE: tournaments.entries_per_ip_per_minute,
    "tournaments.entry_burst_per_ip" => PREF_ENTRY_BURST_PER_IP: tournaments.entry_burst_per_ip,
    "tournaments.past_tournaments_listed" => PREF_PAST_TOURNAMENTS_LISTED: tournaments.past_tournaments_listed,
    "tournaments.max_old_loaded" => PREF_MAX_OLD_LOADED: tournaments.max_old_loaded,
    "tournaments.old_loads_per_ip_per_minute" => PREF_OLD_LOADS_PER_IP_PER_MINUTE: tournaments.old_loads_per_ip_per_minute,
    "lobby.lobby_tick_ms" => PREF_LOBBY_TICK_MS: lobby.lobby_tick_ms,
    "lobby.seek_stale_ms" => PREF_SEEK_STALE_MS: lobby.seek_stale_ms,
    "lobby.lobby_sockets_per_ip" => PREF_LOBBY_SOCKETS_PER_IP: lobby.lobby_sockets_per_ip,
    "lobby.seeks_per_ip" => PREF_SEEKS_PER_IP: lobby.seeks_per_ip,
    "lobby.seeks_per_account" => PREF_SEEKS_PER_ACCOUNT: lobby.seeks_per_account,
    "lobby.seeks_per_ip_per_minute" => PREF_SEEKS_PER_IP_PER_MINUTE: lobby.seeks_per_ip_per_minute,
    "lobby.seek_burst_per_ip" => PREF_SEEK_BURST_PER_IP: lobby.seek_burst_per_ip,
    "lobby.public_tables_per_ip" => PREF_PUBLIC_TABLES_PER_IP: lobby.public_tables_per_ip,
    "lobby.bots_after_max_secs" => PREF_BOTS_AFTER_MAX_SECS: lobby.bots_after_max_secs,
    "lobby.open_grace_secs" => PREF_OPEN_GRACE_SECS: lobby.open_grace_secs,
    "lobby.lobby_max_listed" => PREF_LOBBY_MAX_LISTED: lobby.lobby_max_listed,
    "lobby.lobby_max_live" => PREF_LOBBY_MAX_LIVE: lobby.lobby_max_live,
    "lobby.lobby_socket_threads" => PREF_LOBBY_SOCKET_THREADS: lobby.lobby_socket_threads,
    "lobby.lobby_socket_nice" => PREF_LOBBY_SOCKET_NICE: lobby.lobby_socket_nice,
}

impl Config {
    /// Applies overrides from `get` (the environment, or a map in tests): every setting of
    /// [`SETTINGS`] whose variable is set.
    ///
    /// # Errors
    /// [`ConfigError::Env`] for a value that does not parse (this and later settings are
    /// then left as they were).
    pub fn apply_env(
        &mut self,
        get: impl Fn(&'static str) -> Option<String>,
    ) -> Result<(), ConfigError> {
        for setting in SETTINGS {
            if let Some(value) = get(setting.env) {
                (setting.set)(self, &value).map_err(|why| ConfigError::Env {
                    name: setting.env,
                    value,
                    why,
                })?;
            }
        }
        Ok(())
    }
}
