//! Counters for Prometheus `/metrics`, kept and written out by `prometheus-client` (the
//! OpenMetrics text exposition): each is an atomic bumped where the event happens.

use std::sync::LazyLock;

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

/// The server's counters and gauges, and the registry that names them.
#[derive(Debug)]
pub(crate) struct Metrics {
    /// Tables whose task is running.
    tables: Gauge,
    /// Tables created since start.
    tables_created: Counter,
    /// Open WebSocket connections.
    connections: Gauge,
    /// Actions accepted.
    actions: Counter,
    /// Actions refused (rules, turn, stale version).
    rejections: Counter,
    /// Errors answered to clients (HTTP and WebSocket).
    errors: Counter,
    /// Table tasks that panicked.
    panics: Counter,
    /// Every metric above under its name; counters get their `_total` from the encoder.
    registry: Registry,
}

/// The process-wide metrics.
pub(crate) static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

impl Metrics {
    fn new() -> Metrics {
        let mut registry = Registry::default();
        let gauge = |registry: &mut Registry, name: &str, help: &str| {
            let g = Gauge::default();
            registry.register(name, help, g.clone());
            g
        };
        let counter = |registry: &mut Registry, name: &str, help: &str| {
            let c = Counter::default();
            registry.register(name, help, c.clone());
            c
        };
        Metrics {
            tables: gauge(&mut registry, "pref_tables", "Tables whose task is running"),
            tables_created: counter(&mut registry, "pref_tables_created", "Tables created"),
            connections: gauge(
                &mut registry,
                "pref_connections",
                "Open WebSocket connections",
            ),
            actions: counter(&mut registry, "pref_actions", "Actions accepted"),
            rejections: counter(&mut registry, "pref_rejections", "Actions refused"),
            errors: counter(&mut registry, "pref_errors", "Errors answered to clients"),
            panics: counter(
                &mut registry,
                "pref_table_panics",
                "Table tasks that panicked",
            ),
            registry,
        }
    }

    /// A table task started (`+1`) or ended (`-1`).
    pub(crate) fn tables(&self, delta: i64) {
        self.tables.inc_by(delta);
    }
    /// A table was created.
    pub(crate) fn table_created(&self) {
        self.tables_created.inc();
    }
    /// A socket opened (`+1`) or closed (`-1`).
    pub(crate) fn connections(&self, delta: i64) {
        self.connections.inc_by(delta);
    }
    /// An action was accepted.
    pub(crate) fn action(&self) {
        self.actions.inc();
    }
    /// An action was refused.
    pub(crate) fn rejection(&self) {
        self.rejections.inc();
    }
    /// An error was answered.
    pub(crate) fn error(&self) {
        self.errors.inc();
    }
    /// A table task panicked.
    pub(crate) fn panic(&self) {
        self.panics.inc();
    }

    /// The OpenMetrics text exposition (served as [`CONTENT_TYPE`]).
    #[must_use]
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = encode(&mut out, &self.registry);
        out
    }
}

/// The content type of [`Metrics::render`]'s text.
pub(crate) const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_keeps_its_name_type_and_value() {
        let m = Metrics::new();
        m.tables(2);
        m.tables(-1);
        m.table_created();
        m.connections(3);
        m.action();
        m.action();
        m.rejection();
        m.error();
        m.panic();
        let text = m.render();
        for line in [
            "# TYPE pref_tables gauge",
            "pref_tables 1",
            "# TYPE pref_tables_created counter",
            "pref_tables_created_total 1",
            "pref_connections 3",
            "pref_actions_total 2",
            "pref_rejections_total 1",
            "pref_errors_total 1",
            "pref_table_panics_total 1",
            "# HELP pref_connections Open WebSocket connections.",
            "# EOF",
        ] {
            assert!(text.lines().any(|l| l == line), "{line:?} in\n{text}");
        }
    }
}
