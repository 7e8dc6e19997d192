//! The `[limits]` settings: every cap and rate that keeps one client or one table from
//! hurting the rest (`docs/security.md`'s limits table), and their durations.

use std::time::Duration;

use super::span::{Days, Millis, Secs};
use serde::Deserialize;

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
    pub idle_timeout_secs: Secs,
    /// Interval of server pings.
    pub ping_secs: Secs,
    /// Events kept per table for reconnecting clients.
    pub history: usize,
    /// Events queued per socket before it is resynchronised.
    pub queue: usize,
    /// Longest chat message in characters.
    pub chat_max_chars: usize,
    /// Chat lines a table keeps for the snapshot (a reload, a late viewer, a restart).
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
    pub keeper_idle_secs: Secs,
    /// Most sheets held in memory at once; beyond it the least recently used one nobody
    /// watches leaves first.
    pub keeper_max_open: usize,
    /// A sheet nobody read, changed or watched for this many days is deleted.
    pub keeper_expire_days: Days,
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
    pub profile_expire_days: Days,
    /// Shortest time a bot waits before it acts, in milliseconds.
    pub bot_delay_min_ms: Millis,
    /// Longest time a bot waits before it acts, in milliseconds.
    pub bot_delay_max_ms: Millis,
    /// Largest record uploaded for analysis (`POST /api/analysis`), in bytes.
    pub analysis_max_record_bytes: usize,
    /// Uploaded deals one client may have analysed at once above the sustained rate.
    pub analysis_burst: u32,
    /// One more uploaded deal of one client may be analysed every this many milliseconds.
    pub analysis_every_ms: Millis,
    /// Table deals not analysed yet that one client may have analysed per minute.
    pub deal_analyses_per_minute: u32,
    /// Those at once above that rate.
    pub deal_analysis_burst: u32,
    /// Analyses computed at once, in their own lane beside the bots' thinking permits.
    pub analysis_running: usize,
    /// Analyses waiting for the lane at most; beyond it a request answers `503 busy`.
    pub analysis_queue: usize,
    /// Hints a seat at a practice table may ask for per deal (each solved in the analyses'
    /// lane).
    pub hints_per_deal: u32,
    /// Solver nodes one hint may search (about 0.2 s of one core, optimised).
    pub hint_nodes: u64,
    /// Étude moves (`POST /api/etudes/{id}/attempt`) one client address may ask for per
    /// minute, sustained; each is solved in the analyses' lane.
    pub etude_requests_per_ip_per_minute: u32,
    /// Those at once above that rate.
    pub etude_request_burst_per_ip: u32,
    /// How often the scan reads finished games for études (a few tables each time, in the
    /// analyses' lane), in seconds.
    pub etude_scan_secs: Secs,
    /// Analysed table deals kept in memory at most.
    pub analysis_cache_deals: u64,
    /// How long an analysed table deal is kept, in seconds.
    pub analysis_cache_secs: Secs,
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
    pub fair_window_ms: Millis,
    /// A connection that has not sent a whole request head (request line and headers)
    /// this many milliseconds after it opened, or after its previous answer, is closed.
    pub header_read_timeout_ms: Millis,
    /// A request's body must have arrived whole this many milliseconds after its head;
    /// later, the request answers `408` with the JSON error `timeout`.
    pub body_read_timeout_ms: Millis,
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
    pub spectators_every_ms: Millis,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_frame_bytes: 4096,
            max_body_bytes: 16384,
            messages_per_second: 10,
            message_burst: 20,
            idle_timeout_secs: Secs(60),
            ping_secs: Secs(20),
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
            keeper_idle_secs: Secs(300),
            keeper_max_open: 1000,
            keeper_expire_days: Days(365),
            keeper_sheets_per_ip_per_minute: 10,
            keeper_sheet_burst_per_ip: 5,
            keeper_requests_per_ip_per_second: 10,
            keeper_request_burst_per_ip: 40,
            max_streams_per_ip: 16,
            max_streams_per_sheet: 512,
            max_streams: 4096,
            profiles_per_ip_per_minute: 10,
            profile_burst_per_ip: 5,
            profile_expire_days: Days(365),
            bot_delay_min_ms: Millis(700),
            bot_delay_max_ms: Millis(1600),
            analysis_max_record_bytes: 524_288,
            analysis_burst: 10,
            analysis_every_ms: Millis(2000),
            deal_analyses_per_minute: 30,
            deal_analysis_burst: 10,
            analysis_running: 1,
            analysis_queue: 8,
            hints_per_deal: 5,
            hint_nodes: 3_000_000,
            etude_requests_per_ip_per_minute: 120,
            etude_request_burst_per_ip: 30,
            etude_scan_secs: Secs(600),
            analysis_cache_deals: 256,
            analysis_cache_secs: Secs(3600),
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
            fair_window_ms: Millis(3000),
            header_read_timeout_ms: Millis(10_000),
            body_read_timeout_ms: Millis(30_000),
            fair_snapshot_deals: 8,
            score_snapshot_deals: 10,
            score_page_deals: 20,
            score_pages_per_second: 4,
            score_page_burst: 20,
            socket_write_buffer_bytes: 65_536,
            spectators_every_ms: Millis(1000),
        }
    }
}

impl Limits {
    /// The idle timeout as a duration.
    #[must_use]
    pub fn idle_timeout(&self) -> Duration {
        self.idle_timeout_secs.at_least(Duration::from_secs(1))
    }

    /// The ping interval as a duration.
    #[must_use]
    pub fn ping_interval(&self) -> Duration {
        self.ping_secs.at_least(Duration::from_secs(1))
    }

    /// The interval at which uploaded deals may be analysed (at least 1 ms).
    #[must_use]
    pub fn analysis_every(&self) -> Duration {
        self.analysis_every_ms.at_least(Duration::from_millis(1))
    }

    /// The header-read timeout (at least 1 ms: hyper would read 0 as "at once").
    #[must_use]
    pub fn header_read_timeout(&self) -> Duration {
        self.header_read_timeout_ms
            .at_least(Duration::from_millis(1))
    }

    /// How long an unused sheet stays in memory (at least 1 s).
    #[must_use]
    pub fn keeper_idle(&self) -> Duration {
        self.keeper_idle_secs.at_least(Duration::from_secs(1))
    }

    /// How long an unused sheet is kept in the database, in seconds (at least a day).
    #[must_use]
    pub fn keeper_expire_secs(&self) -> i64 {
        self.keeper_expire_days.max(Days(1)).as_secs_i64()
    }

    /// How long an unread saved profile is kept, in seconds (at least a day).
    #[must_use]
    pub fn profile_expire_secs(&self) -> i64 {
        self.profile_expire_days.max(Days(1)).as_secs_i64()
    }

    /// The time a request's body has to arrive (at least 1 ms).
    #[must_use]
    pub fn body_read_timeout(&self) -> Duration {
        self.body_read_timeout_ms.at_least(Duration::from_millis(1))
    }
}
