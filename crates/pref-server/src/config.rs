//! Server settings: `config/server.toml`, then environment variables on top.
//!
//! The file is optional (the defaults are the shipped file's values), so the binary also runs
//! from a directory without `config/`. Environment variables win so that tests and
//! deployments can move the port and the data directory without editing files.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::store::{Database, StoreError};

/// Everything the server needs to start.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Address to listen on (`127.0.0.1:0` picks a free port, as tests do).
    pub bind: SocketAddr,
    /// Directory of the SQLite database, created if missing (when `database` is unset).
    pub data_dir: PathBuf,
    /// `sqlite://PATH` or `postgres://…`; unset means SQLite in `data_dir/pref.sqlite3`.
    pub database: Option<String>,
    /// Directory of the static web client served at `/`.
    pub web_dir: PathBuf,
    /// Protective limits.
    pub limits: Limits,
    /// Several nodes on one PostgreSQL database (ignored on SQLite).
    pub cluster: Cluster,
    /// Who may open a socket (`docs/security.md`).
    pub security: Security,
    /// How long unused tables stay (`lifecycle.rs`).
    pub lifecycle: crate::table::lifecycle::Lifecycle,
    /// The cores' share of bots and analyses (`thinking.rs`).
    pub bots: crate::thinking::Thinking,
}

/// The WebSocket upgrade's Origin policy (`docs/security.md`). Browsers send `Origin` with
/// every upgrade; a request without one is not from a page and passes.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Security {
    /// Whether a page served by this host (its `Origin` names the `Host` asked for) may
    /// connect.
    pub same_origin: bool,
    /// Further origins allowed, exactly as browsers send them (`https://pref.example`);
    /// `"*"` allows any page.
    pub allowed_origins: Vec<String>,
    /// The proxies whose `X-Forwarded-For` is believed: addresses or blocks
    /// (`172.28.0.10`, `10.0.0.0/8`); none by default (`client.rs`).
    pub trusted_proxies: Vec<crate::edge::client::Proxy>,
}

impl Default for Security {
    fn default() -> Security {
        Security {
            same_origin: true,
            allowed_origins: Vec::new(),
            trusted_proxies: Vec::new(),
        }
    }
}

/// How a node shares PostgreSQL with others (`docs/scaling.md`).
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Cluster {
    /// The `host:port` other nodes forward this node's tables to; the bound address when
    /// unset (right on one host, wrong behind NAT or with `0.0.0.0`).
    pub node_addr: Option<String>,
    /// How long a table's lease lasts past its last renewal, in milliseconds: how long a
    /// dead node's tables wait before another node takes them.
    pub lease_ms: u64,
    /// The secret every node of the cluster shares: a forwarded request carries it, and a
    /// request claiming to be forwarded without it is refused (`docs/security.md`).
    pub secret: Option<String>,
    /// Database lookups per second for tables this node does not serve (burst: twice).
    pub lookups_per_second: u32,
    /// How long an id found not to exist answers `no_table` without a lookup, in seconds.
    pub miss_cache_secs: u64,
    /// How long the forwarding pump waits to hand one message on, in milliseconds.
    pub forward_send_timeout_ms: u64,
}

impl Default for Cluster {
    fn default() -> Cluster {
        Cluster {
            node_addr: None,
            lease_ms: 10_000,
            secret: None,
            lookups_per_second: 200,
            miss_cache_secs: 60,
            forward_send_timeout_ms: 10_000,
        }
    }
}

/// Limits that keep one client or one table from hurting the rest.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Largest WebSocket frame or message a client may send, in bytes.
    pub max_frame_bytes: usize,
    /// Largest HTTP request body, in bytes.
    pub max_body_bytes: usize,
    /// Sustained messages per second a connection may send.
    pub messages_per_second: u32,
    /// Messages a connection may send at once above the sustained rate.
    pub message_burst: u32,
    /// A socket silent this long is closed.
    pub idle_timeout_secs: u64,
    /// Interval of server pings.
    pub ping_secs: u64,
    /// Events kept per table for reconnecting clients.
    pub history: usize,
    /// Events queued per socket before it is resynchronised.
    pub queue: usize,
    /// Longest chat message in characters.
    pub chat_max_chars: usize,
    /// Chat lines a table keeps for the snapshot (a reload, a late viewer); in memory only.
    pub chat_history_lines: usize,
    /// Most live tables (lobby or playing) at once; finished games do not count.
    pub max_tables: usize,
    /// Most scorekeeping sheets the database holds.
    pub max_keepers: usize,
    /// Most deals on one scorekeeping sheet.
    pub keeper_max_deals: usize,
    /// Most changes (entries, corrections, deletions, stops) one sheet keeps.
    pub keeper_max_changes: usize,
    /// Largest game record a sheet is imported from, in bytes.
    pub max_record_bytes: usize,
    /// Most profiles saved by hosts (`/api/profiles`).
    pub max_profiles: usize,
    /// A sheet nobody read, changed or watched for this long leaves memory (it is read
    /// again from the database when asked for), in seconds.
    pub keeper_idle_secs: u64,
    /// Most sheets held in memory at once; beyond it the least recently used one nobody
    /// watches leaves first.
    pub keeper_max_open: usize,
    /// A sheet nobody read, changed or watched for this many days is deleted.
    pub keeper_expire_days: u64,
    /// Sheets one client address may open or import per minute, sustained.
    pub keeper_sheets_per_ip_per_minute: u32,
    /// Sheets one client address may open or import at once above that rate.
    pub keeper_sheet_burst_per_ip: u32,
    /// Requests on existing sheets (read, check, record, choices, a change, opening a
    /// stream) one client address may make per second, sustained.
    pub keeper_requests_per_ip_per_second: u32,
    /// Those requests at once above that rate.
    pub keeper_request_burst_per_ip: u32,
    /// Most sheet event streams open from one client address.
    pub max_streams_per_ip: usize,
    /// Most event streams open on one sheet.
    pub max_streams_per_sheet: usize,
    /// Most sheet event streams open on the node.
    pub max_streams: usize,
    /// Profiles one client address may save per minute, sustained.
    pub profiles_per_ip_per_minute: u32,
    /// Profiles one client address may save at once above that rate.
    pub profile_burst_per_ip: u32,
    /// A saved profile nobody read for this many days is deleted.
    pub profile_expire_days: u64,
    /// Shortest time a bot waits before it acts, in milliseconds.
    pub bot_delay_min_ms: u64,
    /// Longest time a bot waits before it acts, in milliseconds.
    pub bot_delay_max_ms: u64,
    /// Largest record uploaded for analysis (`POST /api/analysis`), in bytes.
    pub analysis_max_record_bytes: usize,
    /// Uploaded deals one client may have analysed at once above the sustained rate.
    pub analysis_burst: u32,
    /// One more uploaded deal of one client may be analysed every this many milliseconds.
    pub analysis_every_ms: u64,
    /// Table deals not analysed yet that one client may have analysed per minute.
    pub deal_analyses_per_minute: u32,
    /// Those at once above that rate.
    pub deal_analysis_burst: u32,
    /// Analyses computed at once, in their own lane beside the bots' thinking permits.
    pub analysis_running: usize,
    /// Analyses waiting for the lane at most; beyond it a request answers `503 busy`.
    pub analysis_queue: usize,
    /// Analysed table deals kept in memory at most.
    pub analysis_cache_deals: u64,
    /// How long an analysed table deal is kept, in seconds.
    pub analysis_cache_secs: u64,
    /// Most WebSockets open from one client address.
    pub max_conns_per_ip: usize,
    /// Most WebSockets open to one table.
    pub max_conns_per_table: usize,
    /// Most WebSockets open with one seat token.
    pub max_conns_per_token: usize,
    /// Tables one client address may open per minute, sustained.
    pub tables_per_ip_per_minute: u32,
    /// Tables one client address may open at once above that rate.
    pub table_burst_per_ip: u32,
    /// WebSockets one client address may open per second, sustained: each costs its
    /// table's task a snapshot, so a script opening and closing sockets in a loop slows the
    /// table for its players.
    pub sockets_per_ip_per_second: u32,
    /// WebSockets one client address may open at once above that rate.
    pub socket_burst_per_ip: u32,
    /// Chat lines, `resync`s and binary frames per second of one seat, all its sockets
    /// together.
    pub seat_heavy_per_second: u32,
    /// The burst of those above the rate.
    pub seat_heavy_burst: u32,
    /// Chat lines, `resync`s and binary frames per second of all spectators of one table
    /// together.
    pub spectators_heavy_per_second: u32,
    /// The burst of those above the rate.
    pub spectators_heavy_burst: u32,
    /// How long each step of a deal's contribution window (commitments, then values)
    /// waits for the seated players' clients, in milliseconds (`docs/fairness.md`).
    pub fair_window_ms: u64,
    /// A connection that has not sent a whole request head (request line and headers)
    /// this many milliseconds after it opened, or after its previous answer, is closed.
    pub header_read_timeout_ms: u64,
    /// A request's body must have arrived whole this many milliseconds after its head;
    /// later, the request answers `408` with the JSON error `timeout`.
    pub body_read_timeout_ms: u64,
    /// How many deals a snapshot's `fair.dealt` and `fair.revealed` each list at most (the
    /// last ones); the record (`GET /api/tables/{id}/record`) holds every deal's values.
    pub fair_snapshot_deals: u32,
    /// How many finished deals a snapshot's `score_log` holds at most (the last ones); the
    /// client asks for the earlier ones a page at a time (`score_page`).
    pub score_snapshot_deals: u32,
    /// How many finished deals one `score_page` answer holds at most.
    pub score_page_deals: u32,
    /// `score_page` requests per second of one seat (all its sockets together), and of all
    /// the spectators of one table together.
    pub score_pages_per_second: u32,
    /// The burst of those above the rate.
    pub score_page_burst: u32,
    /// Bytes queued on one socket for a client that does not read, before sends wait. A
    /// message larger than this closes the socket with 4002 instead of being dropped.
    pub socket_write_buffer_bytes: usize,
    /// A table tells its viewers the spectator count at most once in this many
    /// milliseconds (the latest count), however many sockets open and close.
    pub spectators_every_ms: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            data_dir: PathBuf::from("data"),
            database: None,
            web_dir: PathBuf::from("web"),
            limits: Limits::default(),
            cluster: Cluster::default(),
            security: Security::default(),
            lifecycle: crate::table::lifecycle::Lifecycle::default(),
            bots: crate::thinking::Thinking::default(),
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_frame_bytes: 4096,
            max_body_bytes: 16384,
            messages_per_second: 10,
            message_burst: 20,
            idle_timeout_secs: 60,
            ping_secs: 20,
            history: 512,
            queue: 256,
            chat_max_chars: 300,
            chat_history_lines: 100,
            max_tables: 10_000,
            max_keepers: 100_000,
            keeper_max_deals: 500,
            keeper_max_changes: 2000,
            max_record_bytes: 262_144,
            max_profiles: 100_000,
            keeper_idle_secs: 300,
            keeper_max_open: 1000,
            keeper_expire_days: 365,
            keeper_sheets_per_ip_per_minute: 10,
            keeper_sheet_burst_per_ip: 5,
            keeper_requests_per_ip_per_second: 10,
            keeper_request_burst_per_ip: 40,
            max_streams_per_ip: 16,
            max_streams_per_sheet: 512,
            max_streams: 4096,
            profiles_per_ip_per_minute: 10,
            profile_burst_per_ip: 5,
            profile_expire_days: 365,
            bot_delay_min_ms: 700,
            bot_delay_max_ms: 1600,
            analysis_max_record_bytes: 524_288,
            analysis_burst: 10,
            analysis_every_ms: 2000,
            deal_analyses_per_minute: 30,
            deal_analysis_burst: 10,
            analysis_running: 1,
            analysis_queue: 8,
            analysis_cache_deals: 256,
            analysis_cache_secs: 3600,
            max_conns_per_ip: 256,
            max_conns_per_table: 512,
            max_conns_per_token: 8,
            tables_per_ip_per_minute: 30,
            table_burst_per_ip: 10,
            sockets_per_ip_per_second: 10,
            socket_burst_per_ip: 60,
            seat_heavy_per_second: 2,
            seat_heavy_burst: 10,
            spectators_heavy_per_second: 5,
            spectators_heavy_burst: 20,
            fair_window_ms: 3000,
            header_read_timeout_ms: 10_000,
            body_read_timeout_ms: 30_000,
            fair_snapshot_deals: 8,
            score_snapshot_deals: 10,
            score_page_deals: 20,
            score_pages_per_second: 4,
            score_page_burst: 20,
            socket_write_buffer_bytes: 65_536,
            spectators_every_ms: 1000,
        }
    }
}

impl Config {
    /// The database to open: `database`, or SQLite in `data_dir`.
    ///
    /// # Errors
    /// [`StoreError::Url`] for a URL of another scheme.
    pub fn database(&self) -> Result<Database, StoreError> {
        match self.database.as_deref().filter(|u| !u.trim().is_empty()) {
            Some(url) => Database::parse(url),
            None => Ok(Database::in_dir(&self.data_dir)),
        }
    }

    /// The lease length (at least 100 ms).
    #[must_use]
    pub fn lease(&self) -> Duration {
        Duration::from_millis(self.cluster.lease_ms.max(100))
    }
}

impl Limits {
    /// The idle timeout as a duration.
    #[must_use]
    pub fn idle_timeout(&self) -> Duration {
        Duration::from_secs(self.idle_timeout_secs.max(1))
    }

    /// The ping interval as a duration.
    #[must_use]
    pub fn ping_interval(&self) -> Duration {
        Duration::from_secs(self.ping_secs.max(1))
    }

    /// The interval at which uploaded deals may be analysed (at least 1 ms).
    #[must_use]
    pub fn analysis_every(&self) -> Duration {
        Duration::from_millis(self.analysis_every_ms.max(1))
    }

    /// The header-read timeout (at least 1 ms: hyper would read 0 as "at once").
    #[must_use]
    pub fn header_read_timeout(&self) -> Duration {
        Duration::from_millis(self.header_read_timeout_ms.max(1))
    }

    /// How long an unused sheet stays in memory (at least 1 s).
    #[must_use]
    pub fn keeper_idle(&self) -> Duration {
        Duration::from_secs(self.keeper_idle_secs.max(1))
    }

    /// How long an unused sheet is kept in the database, in seconds (at least a day).
    #[must_use]
    pub fn keeper_expire_secs(&self) -> i64 {
        days_secs(self.keeper_expire_days)
    }

    /// How long an unread saved profile is kept, in seconds (at least a day).
    #[must_use]
    pub fn profile_expire_secs(&self) -> i64 {
        days_secs(self.profile_expire_days)
    }

    /// The time a request's body has to arrive (at least 1 ms).
    #[must_use]
    pub fn body_read_timeout(&self) -> Duration {
        Duration::from_millis(self.body_read_timeout_ms.max(1))
    }
}

/// `days` (at least one) in seconds.
fn days_secs(days: u64) -> i64 {
    i64::try_from(days.max(1).saturating_mul(86_400)).unwrap_or(i64::MAX)
}

/// Why the settings could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file exists but cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not valid settings TOML.
    #[error("{path}: {source}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// The TOML error, naming the key.
        source: toml::de::Error,
    },
    /// An environment variable holds a value of the wrong type.
    #[error("environment variable {name}={value:?} is not valid: {why}")]
    Env {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
        /// What was expected.
        why: &'static str,
    },
}

impl Config {
    /// Reads `path` if it exists (defaults otherwise), then applies `PREF_*` variables.
    ///
    /// # Errors
    /// [`ConfigError`] for an unreadable or invalid file or a malformed variable.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let mut config = match std::fs::read_to_string(path) {
            Ok(text) => toml::from_str(&text).map_err(|source| ConfigError::Parse {
                path: path.to_owned(),
                source,
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Config::default(),
            Err(source) => {
                return Err(ConfigError::Read {
                    path: path.to_owned(),
                    source,
                });
            }
        };
        config.apply_env(|name| std::env::var(name).ok())?;
        Ok(config)
    }

    /// Applies overrides from `get` (the environment, or a map in tests).
    ///
    /// # Errors
    /// [`ConfigError::Env`] for a value that does not parse.
    pub fn apply_env(
        &mut self,
        get: impl Fn(&'static str) -> Option<String>,
    ) -> Result<(), ConfigError> {
        fn parse<T: std::str::FromStr>(
            name: &'static str,
            value: String,
            why: &'static str,
        ) -> Result<T, ConfigError> {
            value
                .trim()
                .parse()
                .map_err(|_| ConfigError::Env { name, value, why })
        }
        if let Some(v) = get("PREF_BIND") {
            self.bind = parse("PREF_BIND", v, "an address such as 127.0.0.1:8080")?;
        }
        if let Some(v) = get("PREF_DATA_DIR") {
            self.data_dir = PathBuf::from(v);
        }
        if let Some(v) = get("PREF_WEB_DIR") {
            self.web_dir = PathBuf::from(v);
        }
        if let Some(v) = get("PREF_DATABASE_URL") {
            self.database = Some(v);
        }
        if let Some(v) = get("PREF_NODE_ADDR") {
            self.cluster.node_addr = Some(v);
        }
        if let Some(v) = get("PREF_LEASE_MS") {
            self.cluster.lease_ms = parse("PREF_LEASE_MS", v, "a number of milliseconds")?;
        }
        if let Some(v) = get("PREF_CLUSTER_SECRET") {
            self.cluster.secret = Some(v).filter(|v| !v.trim().is_empty());
        }
        if let Some(v) = get("PREF_LOOKUPS_PER_SECOND") {
            self.cluster.lookups_per_second = parse("PREF_LOOKUPS_PER_SECOND", v, "a number")?;
        }
        if let Some(v) = get("PREF_MISS_CACHE_SECS") {
            self.cluster.miss_cache_secs = parse("PREF_MISS_CACHE_SECS", v, "seconds")?;
        }
        if let Some(v) = get("PREF_FORWARD_SEND_TIMEOUT_MS") {
            self.cluster.forward_send_timeout_ms = parse(
                "PREF_FORWARD_SEND_TIMEOUT_MS",
                v,
                "a number of milliseconds",
            )?;
        }
        if let Some(v) = get("PREF_SAME_ORIGIN") {
            self.security.same_origin = parse("PREF_SAME_ORIGIN", v, "true or false")?;
        }
        if let Some(v) = get("PREF_ALLOWED_ORIGINS") {
            self.security.allowed_origins = v
                .split(',')
                .map(str::trim)
                .filter(|o| !o.is_empty())
                .map(str::to_owned)
                .collect();
        }
        if let Some(v) = get("PREF_TRUSTED_PROXIES") {
            self.security.trusted_proxies = v
                .split(',')
                .filter(|p| !p.trim().is_empty())
                .map(|p| {
                    p.parse().map_err(|_| ConfigError::Env {
                        name: "PREF_TRUSTED_PROXIES",
                        value: v.clone(),
                        why: "comma-separated addresses or blocks such as 10.0.0.0/8",
                    })
                })
                .collect::<Result<_, _>>()?;
        }
        if let Some(v) = get("PREF_LOBBY_IDLE_SECS") {
            self.lifecycle.lobby_idle_secs =
                parse("PREF_LOBBY_IDLE_SECS", v, "a number of seconds")?;
        }
        if let Some(v) = get("PREF_FINISHED_LINGER_SECS") {
            self.lifecycle.finished_linger_secs =
                parse("PREF_FINISHED_LINGER_SECS", v, "a number of seconds")?;
        }
        if let Some(v) = get("PREF_BOT_CORE_SHARE_PERCENT") {
            self.bots.core_share_percent =
                parse("PREF_BOT_CORE_SHARE_PERCENT", v, "a whole percent")?;
        }
        let l = &mut self.limits;
        let number = "a non-negative integer";
        for (name, slot) in [
            ("PREF_MAX_FRAME_BYTES", &mut l.max_frame_bytes),
            ("PREF_MAX_BODY_BYTES", &mut l.max_body_bytes),
            ("PREF_HISTORY", &mut l.history),
            ("PREF_QUEUE", &mut l.queue),
            ("PREF_CHAT_MAX_CHARS", &mut l.chat_max_chars),
            ("PREF_CHAT_HISTORY_LINES", &mut l.chat_history_lines),
            ("PREF_MAX_TABLES", &mut l.max_tables),
            ("PREF_MAX_KEEPERS", &mut l.max_keepers),
            ("PREF_KEEPER_MAX_DEALS", &mut l.keeper_max_deals),
            ("PREF_KEEPER_MAX_CHANGES", &mut l.keeper_max_changes),
            ("PREF_MAX_RECORD_BYTES", &mut l.max_record_bytes),
            ("PREF_MAX_PROFILES", &mut l.max_profiles),
            (
                "PREF_ANALYSIS_MAX_RECORD_BYTES",
                &mut l.analysis_max_record_bytes,
            ),
            ("PREF_MAX_CONNS_PER_IP", &mut l.max_conns_per_ip),
            ("PREF_MAX_CONNS_PER_TABLE", &mut l.max_conns_per_table),
            ("PREF_MAX_CONNS_PER_TOKEN", &mut l.max_conns_per_token),
            ("PREF_KEEPER_MAX_OPEN", &mut l.keeper_max_open),
            ("PREF_MAX_STREAMS_PER_IP", &mut l.max_streams_per_ip),
            ("PREF_MAX_STREAMS_PER_SHEET", &mut l.max_streams_per_sheet),
            ("PREF_MAX_STREAMS", &mut l.max_streams),
            (
                "PREF_SOCKET_WRITE_BUFFER_BYTES",
                &mut l.socket_write_buffer_bytes,
            ),
            ("PREF_ANALYSIS_RUNNING", &mut l.analysis_running),
            ("PREF_ANALYSIS_QUEUE", &mut l.analysis_queue),
        ] {
            if let Some(v) = get(name) {
                *slot = parse(name, v, number)?;
            }
        }
        for (name, slot) in [
            ("PREF_MESSAGES_PER_SECOND", &mut l.messages_per_second),
            ("PREF_MESSAGE_BURST", &mut l.message_burst),
            ("PREF_ANALYSIS_BURST", &mut l.analysis_burst),
            (
                "PREF_TABLES_PER_IP_PER_MINUTE",
                &mut l.tables_per_ip_per_minute,
            ),
            ("PREF_TABLE_BURST_PER_IP", &mut l.table_burst_per_ip),
            (
                "PREF_SOCKETS_PER_IP_PER_SECOND",
                &mut l.sockets_per_ip_per_second,
            ),
            ("PREF_SOCKET_BURST_PER_IP", &mut l.socket_burst_per_ip),
            ("PREF_SEAT_HEAVY_PER_SECOND", &mut l.seat_heavy_per_second),
            ("PREF_SEAT_HEAVY_BURST", &mut l.seat_heavy_burst),
            (
                "PREF_SPECTATORS_HEAVY_PER_SECOND",
                &mut l.spectators_heavy_per_second,
            ),
            ("PREF_SPECTATORS_HEAVY_BURST", &mut l.spectators_heavy_burst),
            ("PREF_FAIR_SNAPSHOT_DEALS", &mut l.fair_snapshot_deals),
            (
                "PREF_KEEPER_SHEETS_PER_IP_PER_MINUTE",
                &mut l.keeper_sheets_per_ip_per_minute,
            ),
            (
                "PREF_KEEPER_SHEET_BURST_PER_IP",
                &mut l.keeper_sheet_burst_per_ip,
            ),
            (
                "PREF_KEEPER_REQUESTS_PER_IP_PER_SECOND",
                &mut l.keeper_requests_per_ip_per_second,
            ),
            (
                "PREF_KEEPER_REQUEST_BURST_PER_IP",
                &mut l.keeper_request_burst_per_ip,
            ),
            (
                "PREF_PROFILES_PER_IP_PER_MINUTE",
                &mut l.profiles_per_ip_per_minute,
            ),
            ("PREF_PROFILE_BURST_PER_IP", &mut l.profile_burst_per_ip),
            ("PREF_SCORE_SNAPSHOT_DEALS", &mut l.score_snapshot_deals),
            ("PREF_SCORE_PAGE_DEALS", &mut l.score_page_deals),
            ("PREF_SCORE_PAGES_PER_SECOND", &mut l.score_pages_per_second),
            ("PREF_SCORE_PAGE_BURST", &mut l.score_page_burst),
            (
                "PREF_DEAL_ANALYSES_PER_MINUTE",
                &mut l.deal_analyses_per_minute,
            ),
            ("PREF_DEAL_ANALYSIS_BURST", &mut l.deal_analysis_burst),
        ] {
            if let Some(v) = get(name) {
                *slot = parse(name, v, number)?;
            }
        }
        for (name, slot) in [
            ("PREF_IDLE_TIMEOUT_SECS", &mut l.idle_timeout_secs),
            ("PREF_PING_SECS", &mut l.ping_secs),
            ("PREF_BOT_DELAY_MIN_MS", &mut l.bot_delay_min_ms),
            ("PREF_BOT_DELAY_MAX_MS", &mut l.bot_delay_max_ms),
            ("PREF_ANALYSIS_EVERY_MS", &mut l.analysis_every_ms),
            ("PREF_ANALYSIS_CACHE_DEALS", &mut l.analysis_cache_deals),
            ("PREF_ANALYSIS_CACHE_SECS", &mut l.analysis_cache_secs),
            ("PREF_FAIR_WINDOW_MS", &mut l.fair_window_ms),
            ("PREF_SPECTATORS_EVERY_MS", &mut l.spectators_every_ms),
            ("PREF_HEADER_READ_TIMEOUT_MS", &mut l.header_read_timeout_ms),
            ("PREF_BODY_READ_TIMEOUT_MS", &mut l.body_read_timeout_ms),
            ("PREF_KEEPER_IDLE_SECS", &mut l.keeper_idle_secs),
            ("PREF_KEEPER_EXPIRE_DAYS", &mut l.keeper_expire_days),
            ("PREF_PROFILE_EXPIRE_DAYS", &mut l.profile_expire_days),
        ] {
            if let Some(v) = get(name) {
                *slot = parse(name, v, number)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_file_matches_defaults_and_env_wins() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/server.toml");
        let text = std::fs::read_to_string(path).unwrap();
        let mut c: Config = toml::from_str(&text).unwrap();
        assert_eq!(c.bind, Config::default().bind);
        assert_eq!(c.limits.max_frame_bytes, Limits::default().max_frame_bytes);
        let (shipped, default) = (&c.limits, Limits::default());
        assert_eq!(
            (
                shipped.analysis_max_record_bytes,
                shipped.analysis_burst,
                shipped.analysis_every_ms
            ),
            (
                default.analysis_max_record_bytes,
                default.analysis_burst,
                default.analysis_every_ms
            )
        );
        c.apply_env(|n| match n {
            "PREF_BIND" => Some("127.0.0.1:0".into()),
            "PREF_QUEUE" => Some("7".into()),
            "PREF_ANALYSIS_MAX_RECORD_BYTES" => Some("1000".into()),
            "PREF_ANALYSIS_BURST" => Some("3".into()),
            "PREF_ANALYSIS_EVERY_MS" => Some("250".into()),
            _ => None,
        })
        .unwrap();
        assert_eq!(c.bind.port(), 0);
        assert_eq!(c.limits.queue, 7);
        assert_eq!(c.limits.analysis_max_record_bytes, 1000);
        assert_eq!(c.limits.analysis_burst, 3);
        assert_eq!(c.limits.analysis_every(), Duration::from_millis(250));
        assert!(c.security.same_origin && c.security.allowed_origins.is_empty());
        c.apply_env(|n| {
            (n == "PREF_ALLOWED_ORIGINS").then(|| " https://a.example, https://b.example ,".into())
        })
        .unwrap();
        assert_eq!(
            c.security.allowed_origins,
            ["https://a.example", "https://b.example"]
        );
        assert_eq!(
            c.database().unwrap(),
            Database::Sqlite(PathBuf::from("data/pref.sqlite3"))
        );
        c.apply_env(|n| (n == "PREF_DATABASE_URL").then(|| "postgres://u@h/db".into()))
            .unwrap();
        assert_eq!(
            c.database().unwrap(),
            Database::Postgres("postgres://u@h/db".into())
        );
        c.apply_env(|n| (n == "PREF_DATABASE_URL").then(|| "mysql://h/db".into()))
            .unwrap();
        assert!(matches!(c.database(), Err(StoreError::Url(_))));
        assert_eq!(
            (c.limits.header_read_timeout(), c.limits.body_read_timeout()),
            (Duration::from_secs(10), Duration::from_secs(30))
        );
        c.apply_env(|n| match n {
            "PREF_HEADER_READ_TIMEOUT_MS" => Some("250".into()),
            "PREF_BODY_READ_TIMEOUT_MS" => Some("0".into()),
            _ => None,
        })
        .unwrap();
        assert_eq!(c.limits.header_read_timeout(), Duration::from_millis(250));
        assert_eq!(c.limits.body_read_timeout(), Duration::from_millis(1));
        let err = c.apply_env(|n| (n == "PREF_HISTORY").then(|| "lots".into()));
        assert!(err.unwrap_err().to_string().contains("PREF_HISTORY"));
    }

    #[test]
    fn the_lifecycle_bots_and_cluster_guards_ship_at_their_defaults_and_env_wins() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/server.toml");
        let mut c: Config = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(c.lifecycle, crate::table::lifecycle::Lifecycle::default());
        assert_eq!(c.bots, crate::thinking::Thinking::default());
        let d = Cluster::default();
        assert_eq!(
            (c.cluster.secret.as_deref(), c.cluster.lookups_per_second),
            (None, d.lookups_per_second)
        );
        assert_eq!(c.cluster.miss_cache_secs, d.miss_cache_secs);
        assert_eq!(c.cluster.forward_send_timeout_ms, d.forward_send_timeout_ms);
        c.apply_env(|n| {
            let value = match n {
                "PREF_LOBBY_IDLE_SECS" => "60",
                "PREF_FINISHED_LINGER_SECS" => "5",
                "PREF_BOT_CORE_SHARE_PERCENT" => "25",
                "PREF_CLUSTER_SECRET" => "s",
                "PREF_LOOKUPS_PER_SECOND" => "7",
                "PREF_MISS_CACHE_SECS" => "8",
                "PREF_FORWARD_SEND_TIMEOUT_MS" => "9",
                _ => return None,
            };
            Some(value.to_owned())
        })
        .unwrap();
        assert_eq!(
            (
                c.lifecycle.lobby_idle_secs,
                c.lifecycle.finished_linger_secs
            ),
            (60, 5)
        );
        assert_eq!(c.bots.core_share_percent, 25);
        assert_eq!(c.cluster.secret.as_deref(), Some("s"));
        assert_eq!(
            (
                c.cluster.lookups_per_second,
                c.cluster.miss_cache_secs,
                c.cluster.forward_send_timeout_ms
            ),
            (7, 8, 9)
        );
        // An empty secret is no secret.
        c.apply_env(|n| (n == "PREF_CLUSTER_SECRET").then(String::new))
            .unwrap();
        assert_eq!(c.cluster.secret, None);
        let err = c.apply_env(|n| (n == "PREF_BOT_CORE_SHARE_PERCENT").then(|| "half".into()));
        assert!(
            err.unwrap_err()
                .to_string()
                .contains("PREF_BOT_CORE_SHARE_PERCENT")
        );
    }
}
