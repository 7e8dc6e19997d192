//! Counters for Prometheus `/metrics`: plain atomics, rendered as text on request.

use std::fmt::Write;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

/// The server's counters and gauges.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Tables whose task is running.
    tables: AtomicI64,
    /// Tables created since start.
    tables_created: AtomicU64,
    /// Open WebSocket connections.
    connections: AtomicI64,
    /// Actions accepted.
    actions: AtomicU64,
    /// Actions refused (rules, turn, stale version).
    rejections: AtomicU64,
    /// Errors answered to clients (HTTP and WebSocket).
    errors: AtomicU64,
    /// Table tasks that panicked.
    panics: AtomicU64,
}

/// The process-wide metrics.
pub static METRICS: Metrics = Metrics {
    tables: AtomicI64::new(0),
    tables_created: AtomicU64::new(0),
    connections: AtomicI64::new(0),
    actions: AtomicU64::new(0),
    rejections: AtomicU64::new(0),
    errors: AtomicU64::new(0),
    panics: AtomicU64::new(0),
};

impl Metrics {
    /// A table task started (`+1`) or ended (`-1`).
    pub fn tables(&self, delta: i64) {
        self.tables.fetch_add(delta, Ordering::Relaxed);
    }
    /// A table was created.
    pub fn table_created(&self) {
        self.tables_created.fetch_add(1, Ordering::Relaxed);
    }
    /// A socket opened (`+1`) or closed (`-1`).
    pub fn connections(&self, delta: i64) {
        self.connections.fetch_add(delta, Ordering::Relaxed);
    }
    /// An action was accepted.
    pub fn action(&self) {
        self.actions.fetch_add(1, Ordering::Relaxed);
    }
    /// An action was refused.
    pub fn rejection(&self) {
        self.rejections.fetch_add(1, Ordering::Relaxed);
    }
    /// An error was answered.
    pub fn error(&self) {
        self.errors.fetch_add(1, Ordering::Relaxed);
    }
    /// A table task panicked.
    pub fn panic(&self) {
        self.panics.fetch_add(1, Ordering::Relaxed);
    }

    /// The Prometheus text exposition.
    #[must_use]
    pub fn render(&self) -> String {
        let mut out = String::new();
        let rows: [(&str, &str, &str, i64); 7] = [
            (
                "pref_tables",
                "gauge",
                "Tables whose task is running.",
                self.tables.load(Ordering::Relaxed),
            ),
            (
                "pref_tables_created_total",
                "counter",
                "Tables created.",
                self.tables_created.load(Ordering::Relaxed) as i64,
            ),
            (
                "pref_connections",
                "gauge",
                "Open WebSocket connections.",
                self.connections.load(Ordering::Relaxed),
            ),
            (
                "pref_actions_total",
                "counter",
                "Actions accepted.",
                self.actions.load(Ordering::Relaxed) as i64,
            ),
            (
                "pref_rejections_total",
                "counter",
                "Actions refused.",
                self.rejections.load(Ordering::Relaxed) as i64,
            ),
            (
                "pref_errors_total",
                "counter",
                "Errors answered to clients.",
                self.errors.load(Ordering::Relaxed) as i64,
            ),
            (
                "pref_table_panics_total",
                "counter",
                "Table tasks that panicked.",
                self.panics.load(Ordering::Relaxed) as i64,
            ),
        ];
        for (name, kind, help, value) in rows {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
            );
        }
        out
    }
}
