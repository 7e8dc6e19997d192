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
    /// Steps of the lobby's follower (`lobby/mod.rs`).
    lobby_steps: Counter,
    /// Of them, the steps that read the public tables again.
    lobby_full_reads: Counter,
    /// Microseconds the follower's steps spent in each part, by [`LobbyPart`].
    lobby_micros: [Counter; LobbyPart::ALL.len()],
    /// Lobby items written to every socket that was following the lobby when they were
    /// published (`lobby/socket.rs`).
    lobby_fanouts: Counter,
    /// Of them, the microseconds from publishing each until the last of those sockets wrote
    /// it.
    lobby_fanout_micros: Counter,
    /// Every metric above under its name; counters get their `_total` from the encoder.
    registry: Registry,
}

/// A part of a step of the lobby's follower, timed on its own (`docs/performance.md`, "The
/// lobby at full scale").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LobbyPart {
    /// Marking this node's seeks alive and dropping stale ones (once a tick).
    Touch,
    /// Reading the waiting seeks.
    Seeks,
    /// Taking the seekers of the choices whose line fills a table.
    Pair,
    /// Reading the seats given to this node's seekers and handing them over.
    HandOver,
    /// Reading the public tables and their seats.
    Public,
    /// Comparing with the lobby as last read, serialising and broadcasting the items.
    Publish,
}

impl LobbyPart {
    /// Every part, in the order of a step.
    pub(crate) const ALL: [LobbyPart; 6] = [
        LobbyPart::Touch,
        LobbyPart::Seeks,
        LobbyPart::Pair,
        LobbyPart::HandOver,
        LobbyPart::Public,
        LobbyPart::Publish,
    ];

    /// The part's name in `pref_lobby_<name>_micros`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            LobbyPart::Touch => "touch",
            LobbyPart::Seeks => "seeks",
            LobbyPart::Pair => "pair",
            LobbyPart::HandOver => "hand_over",
            LobbyPart::Public => "public",
            LobbyPart::Publish => "publish",
        }
    }
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
            lobby_steps: counter(
                &mut registry,
                "pref_lobby_steps",
                "Steps of the lobby's follower",
            ),
            lobby_full_reads: counter(
                &mut registry,
                "pref_lobby_full_reads",
                "Steps of the lobby's follower that read the public tables",
            ),
            lobby_micros: LobbyPart::ALL.map(|part| {
                counter(
                    &mut registry,
                    &format!("pref_lobby_{}_micros", part.name()),
                    &format!(
                        "Microseconds the lobby's follower spent in its part {}",
                        part.name()
                    ),
                )
            }),
            lobby_fanouts: counter(
                &mut registry,
                "pref_lobby_fanouts",
                "Lobby items written to every socket that followed the lobby when they were published",
            ),
            lobby_fanout_micros: counter(
                &mut registry,
                "pref_lobby_fanout_micros",
                "Microseconds from publishing a lobby item until the last socket wrote it",
            ),
            registry,
        }
    }

    /// The lobby's follower made a step; `full` when it read the public tables.
    pub(crate) fn lobby_step(&self, full: bool) {
        self.lobby_steps.inc();
        if full {
            self.lobby_full_reads.inc();
        }
    }
    /// The lobby's follower spent `spent` in `part`.
    pub(crate) fn lobby_part(&self, part: LobbyPart, spent: std::time::Duration) {
        let micros = u64::try_from(spent.as_micros()).unwrap_or(u64::MAX);
        self.lobby_micros[LobbyPart::ALL.iter().position(|p| *p == part).unwrap_or(0)]
            .inc_by(micros);
    }

    /// A lobby item was written to every socket it was published to, `spent` after.
    pub(crate) fn lobby_fanout(&self, spent: std::time::Duration) {
        self.lobby_fanouts.inc();
        self.lobby_fanout_micros
            .inc_by(u64::try_from(spent.as_micros()).unwrap_or(u64::MAX));
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
        m.lobby_step(true);
        m.lobby_step(false);
        m.lobby_part(LobbyPart::Public, std::time::Duration::from_micros(1500));
        m.lobby_part(LobbyPart::HandOver, std::time::Duration::from_micros(7));
        m.lobby_fanout(std::time::Duration::from_micros(40_000));
        m.lobby_fanout(std::time::Duration::from_micros(2_500));
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
            "pref_lobby_steps_total 2",
            "pref_lobby_full_reads_total 1",
            "pref_lobby_public_micros_total 1500",
            "pref_lobby_hand_over_micros_total 7",
            "pref_lobby_pair_micros_total 0",
            "pref_lobby_fanouts_total 2",
            "pref_lobby_fanout_micros_total 42500",
            "# HELP pref_connections Open WebSocket connections.",
            "# EOF",
        ] {
            assert!(text.lines().any(|l| l == line), "{line:?} in\n{text}");
        }
    }
}
