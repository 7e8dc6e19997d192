//! What a run found: counts, the latency histogram and the server's memory, mergeable
//! across workers and printed as a table of figures.

use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use crate::histogram::Histogram;
use crate::resync::{Counters, Resyncs};

/// Error messages kept as examples.
const SAMPLES: usize = 10;

/// Counters shared by every socket of a worker while it runs.
#[derive(Debug, Default)]
pub(crate) struct Stats {
    /// Actions and `next_deal`s sent.
    pub(crate) sent: AtomicU64,
    /// Acks received.
    pub(crate) acked: AtomicU64,
    /// Messages received.
    pub(crate) received: AtomicU64,
    /// Versions skipped.
    pub(crate) lost: AtomicU64,
    /// Versions received at or below one already seen.
    pub(crate) out_of_order: AtomicU64,
    /// Snapshots after the first (the server resynchronised a socket).
    pub(crate) resyncs: AtomicU64,
    /// The same by cause.
    pub(crate) causes: Counters,
    /// Rejections, error messages and broken sockets.
    pub(crate) errors: AtomicU64,
    /// Sockets the server closed before the run ended.
    pub(crate) closed_early: AtomicU64,
    /// Deals played to the end.
    pub(crate) deals: AtomicU64,
    /// Games that ended.
    pub(crate) games_over: AtomicU64,
    /// Players that never act.
    pub(crate) absent: AtomicU64,
    /// Moves the autopilot made.
    pub(crate) autopilot: AtomicU64,
    /// Action-to-broadcast latencies.
    pub(crate) latency: Mutex<Histogram>,
    /// The first few error messages.
    pub(crate) samples: Mutex<Vec<String>>,
}

impl Stats {
    /// Counts an error and keeps its message if few are kept so far.
    pub(crate) fn error(&self, what: impl Into<String>) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut s) = self.samples.lock()
            && s.len() < SAMPLES
        {
            s.push(what.into());
        }
    }

    /// Records one latency.
    pub(crate) fn latency(&self, micros: u64) {
        if let Ok(mut h) = self.latency.lock() {
            h.record(micros);
        }
    }
}

/// The figures of one worker, or of all merged.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Report {
    /// Tables that played.
    pub tables: u64,
    /// Lobby tables that held idle sockets.
    pub idle_tables: u64,
    /// Player sockets opened.
    pub players: u64,
    /// Spectator sockets at playing tables.
    pub spectators: u64,
    /// Idle sockets opened.
    pub idle_sockets: u64,
    /// Seconds to create, fill and connect every table (longest worker).
    pub setup_secs: f64,
    /// Seconds to start every table's game (longest worker).
    pub start_secs: f64,
    /// Seconds of steady play, from the moment every table had started (longest worker).
    pub play_secs: f64,
    /// Acks received during the steady play.
    pub acked_steady: u64,
    /// Actions and `next_deal`s sent.
    pub sent: u64,
    /// Acks received.
    pub acked: u64,
    /// Messages received by all sockets.
    pub received: u64,
    /// Action-to-broadcast latencies in microseconds, during the steady play.
    pub latency: Histogram,
    /// Sent actions that not every viewer of the table saw answered by the end.
    pub unanswered: u64,
    /// Versions skipped by some socket.
    pub lost: u64,
    /// Versions received out of order.
    pub out_of_order: u64,
    /// Tables whose viewers ended at different versions.
    pub diverged: u64,
    /// Snapshots after the first.
    pub resyncs: u64,
    /// The same by cause.
    #[serde(default)]
    pub resync_causes: Resyncs,
    /// Rejections, error messages, failed requests and broken sockets.
    pub errors: u64,
    /// Sockets the server closed before the end.
    pub closed_early: u64,
    /// Deals played to the end.
    pub deals: u64,
    /// Games that ended.
    pub games_over: u64,
    /// Players that never acted (`--absent`).
    #[serde(default)]
    pub absent: u64,
    /// Moves the server's autopilot made for players out of time.
    #[serde(default)]
    pub autopilot: u64,
    /// A few error messages.
    pub error_samples: Vec<String>,
    /// Server memory, when the server's process is known; with several nodes, the sum
    /// over the nodes (the peak is the largest sampled sum).
    pub server: Option<ServerMemory>,
    /// Each node's memory, when the run used several nodes (empty with one server).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<NodeMemory>,
    /// The lobby's figures, when the run had lobby sockets or seeks.
    #[serde(default)]
    pub lobby: LobbyReport,
}

/// The lobby's figures (`lobby.rs`); latencies in microseconds, during the steady play.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct LobbyReport {
    /// Public tables among the playing ones.
    pub public_tables: u64,
    /// Lobby sockets following the lobby.
    pub watchers: u64,
    /// From a probe's `POST` to each watcher having it.
    pub each: Histogram,
    /// From a probe's `POST` to the last watcher having it: a change reaching every socket
    /// (worked out from every worker's sightings by [`LobbyReport::settle`]).
    pub all: Histogram,
    /// Probes some watcher never saw (by [`LobbyReport::settle`]).
    pub unreached: u64,
    /// Per probe a worker's watchers saw: its number, how many of them have it, and the
    /// latest of their times from its `POST` in microseconds. Emptied by `settle`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sightings: Vec<(u64, u32, u64)>,
    /// The probes opened. Emptied by `settle`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub posted: Vec<u64>,
    /// A probe's `POST` to its answer: the part of a change's latency before the lobby
    /// hears of it.
    #[serde(default)]
    pub created: Histogram,
    /// Numbered items the watchers received.
    pub items: u64,
    /// Items the watchers found missing (each gap reopened the socket for a snapshot).
    pub lost: u64,
    /// Snapshots after the first.
    pub resyncs: u64,
    /// Seeks made.
    pub seeks: u64,
    /// Seeks that got their seat and opened the table's socket with it.
    pub seated: u64,
    /// From a seek to its seat.
    pub paired: Histogram,
    /// The server's lobby follower during the play (summed over the nodes).
    #[serde(default)]
    pub follower: Follower,
}

/// What the servers' lobby followers did during the play: their `/metrics` counters
/// (`pref_lobby_*`) at the end less those at the go, summed over the nodes.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Follower {
    /// Steps.
    pub steps: u64,
    /// Steps that read the public tables.
    pub full_reads: u64,
    /// Microseconds spent in each part of a step (`touch`, `seeks`, `pair`, `hand_over`,
    /// `public`, `publish`).
    pub micros: Vec<(String, u64)>,
    /// Items written to every socket that followed the lobby when they were published.
    #[serde(default)]
    pub fanouts: u64,
    /// Their microseconds from publishing to the last socket's write, summed.
    #[serde(default)]
    pub fanout_micros: u64,
}

impl Follower {
    /// The counters `after` less `before` (each by name, as `server::lobby_counters` reads
    /// them).
    #[must_use]
    pub fn between(
        before: &std::collections::BTreeMap<String, u64>,
        after: &std::collections::BTreeMap<String, u64>,
    ) -> Follower {
        let delta = |name: &str| {
            after
                .get(name)
                .copied()
                .unwrap_or(0)
                .saturating_sub(before.get(name).copied().unwrap_or(0))
        };
        Follower {
            steps: delta("steps"),
            full_reads: delta("full_reads"),
            micros: after
                .keys()
                .filter_map(|k| k.strip_suffix("_micros"))
                .filter(|part| *part != "fanout")
                .map(|part| (part.to_owned(), delta(&format!("{part}_micros"))))
                .collect(),
            fanouts: delta("fanouts"),
            fanout_micros: delta("fanout_micros"),
        }
    }

    /// Adds another node's (or worker's) figures.
    pub fn add(&mut self, o: &Follower) {
        self.steps += o.steps;
        self.full_reads += o.full_reads;
        self.fanouts += o.fanouts;
        self.fanout_micros += o.fanout_micros;
        for (part, us) in &o.micros {
            match self.micros.iter_mut().find(|(p, _)| p == part) {
                Some((_, mine)) => *mine += us,
                None => self.micros.push((part.clone(), *us)),
            }
        }
    }
}

impl LobbyReport {
    /// Once every worker's report is merged: each probe opened that every watcher saw adds
    /// its last watcher's time to `all`; one that some watcher did not see is unreached.
    pub fn settle(&mut self) {
        let sightings = std::mem::take(&mut self.sightings);
        for k in std::mem::take(&mut self.posted) {
            match sightings.iter().find(|s| s.0 == k) {
                Some(&(_, watchers, last)) if u64::from(watchers) >= self.watchers => {
                    self.all.record(last);
                }
                Some(_) | None => self.unreached += 1,
            }
        }
    }

    fn merge(&mut self, o: &LobbyReport) {
        self.public_tables += o.public_tables;
        self.watchers += o.watchers;
        self.each.merge(&o.each);
        self.all.merge(&o.all);
        self.unreached += o.unreached;
        for &(k, watchers, last) in &o.sightings {
            match self.sightings.iter_mut().find(|s| s.0 == k) {
                Some(mine) => {
                    mine.1 += watchers;
                    mine.2 = mine.2.max(last);
                }
                None => self.sightings.push((k, watchers, last)),
            }
        }
        self.posted.extend_from_slice(&o.posted);
        self.created.merge(&o.created);
        self.items += o.items;
        self.lost += o.lost;
        self.resyncs += o.resyncs;
        self.seeks += o.seeks;
        self.seated += o.seated;
        self.paired.merge(&o.paired);
        self.follower.add(&o.follower);
    }
}

/// One node's memory in a run over several nodes.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct NodeMemory {
    /// The node's address, as given.
    pub addr: String,
    /// Its process id.
    pub pid: u32,
    /// Its resident memory at points of the run.
    pub memory: ServerMemory,
}

/// The server's resident memory at points of the run, in KiB.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct ServerMemory {
    /// Before any table was created.
    pub baseline_kib: u64,
    /// Once every table was set up and every socket connected, before play.
    pub ready_kib: u64,
    /// The largest resident size sampled during play.
    pub peak_kib: u64,
    /// The kernel's high-water mark (`VmHWM`) at the end.
    pub hwm_kib: u64,
}

impl Report {
    /// Adds another worker's figures.
    pub fn merge(&mut self, o: &Report) {
        self.tables += o.tables;
        self.idle_tables += o.idle_tables;
        self.players += o.players;
        self.spectators += o.spectators;
        self.idle_sockets += o.idle_sockets;
        self.setup_secs = self.setup_secs.max(o.setup_secs);
        self.start_secs = self.start_secs.max(o.start_secs);
        self.play_secs = self.play_secs.max(o.play_secs);
        self.acked_steady += o.acked_steady;
        self.sent += o.sent;
        self.acked += o.acked;
        self.received += o.received;
        self.latency.merge(&o.latency);
        self.unanswered += o.unanswered;
        self.lost += o.lost;
        self.out_of_order += o.out_of_order;
        self.diverged += o.diverged;
        self.resyncs += o.resyncs;
        self.resync_causes.merge(&o.resync_causes);
        self.errors += o.errors;
        self.closed_early += o.closed_early;
        self.deals += o.deals;
        self.games_over += o.games_over;
        self.absent += o.absent;
        self.autopilot += o.autopilot;
        self.lobby.merge(&o.lobby);
        for s in &o.error_samples {
            if self.error_samples.len() < SAMPLES {
                self.error_samples.push(s.clone());
            }
        }
    }

    /// Every socket opened.
    #[must_use]
    pub fn sockets(&self) -> u64 {
        self.players + self.spectators + self.idle_sockets + self.lobby.watchers
    }

    /// Accepted actions per second of steady play.
    #[must_use]
    pub fn actions_per_sec(&self) -> f64 {
        if self.play_secs > 0.0 {
            self.acked_steady as f64 / self.play_secs
        } else {
            0.0
        }
    }

    /// Whether the run saw no error, no lost or reordered event, nothing unanswered, and no
    /// snapshot after the first but those its client asks for (after every turn in
    /// [`crate::Follow::SnapshotEveryTurn`]).
    #[must_use]
    pub fn clean(&self) -> bool {
        self.errors == 0
            && self.lost == 0
            && self.out_of_order == 0
            && self.diverged == 0
            && self.resync_causes.unasked == 0
            && self.closed_early == 0
            && self.unanswered == 0
            && self.lobby.unreached == 0
    }
}

fn ms(micros: u64) -> String {
    format!("{:.2} ms", micros as f64 / 1000.0)
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = &self.latency;
        writeln!(
            f,
            "tables            {} playing + {} idle (lobby)",
            self.tables, self.idle_tables
        )?;
        writeln!(
            f,
            "sockets           {} ({} players, {} spectators, {} idle)",
            self.sockets(),
            self.players,
            self.spectators,
            self.idle_sockets
        )?;
        writeln!(
            f,
            "setup             {:.1} s; starting the games {:.1} s; steady play {:.1} s",
            self.setup_secs, self.start_secs, self.play_secs
        )?;
        writeln!(
            f,
            "actions           {} sent, {} accepted, {} in steady play: {:.0} per second; {} deals finished",
            self.sent,
            self.acked,
            self.acked_steady,
            self.actions_per_sec(),
            self.deals
        )?;
        writeln!(f, "messages received {}", self.received)?;
        if self.absent > 0 || self.autopilot > 0 {
            writeln!(
                f,
                "autopilot         {} moves, for {} players who never act",
                self.autopilot, self.absent
            )?;
        }
        writeln!(
            f,
            "latency           p50 {}  p95 {}  p99 {}  max {}  ({} actions measured)",
            ms(l.quantile(0.50)),
            ms(l.quantile(0.95)),
            ms(l.quantile(0.99)),
            ms(l.max()),
            l.len()
        )?;
        writeln!(
            f,
            "errors            {} (closed early {}, unanswered {})",
            self.errors, self.closed_early, self.unanswered
        )?;
        let r = &self.resync_causes;
        writeln!(
            f,
            "resyncs           {} (asked after a turn {}, lagged {}, gap {}, unasked {})",
            self.resyncs, r.turn, r.lagged, r.gap, r.unasked
        )?;
        writeln!(
            f,
            "events            {} lost, {} out of order, {} tables diverged",
            self.lost, self.out_of_order, self.diverged
        )?;
        let lo = &self.lobby;
        if lo.watchers > 0 || lo.seeks > 0 {
            writeln!(
                f,
                "lobby             {} sockets, {} public tables; {} items, {} lost, {} resyncs",
                lo.watchers, lo.public_tables, lo.items, lo.lost, lo.resyncs
            )?;
            for (what, h) in [("to every socket", &lo.all), ("to each socket ", &lo.each)] {
                writeln!(
                    f,
                    "lobby change      {what} p50 {}  p99 {}  max {}  ({} measured)",
                    ms(h.quantile(0.50)),
                    ms(h.quantile(0.99)),
                    ms(h.max()),
                    h.len()
                )?;
            }
            let c = &lo.created;
            writeln!(
                f,
                "lobby probes      {} not seen by every socket; POST answered p50 {}  p99 {}",
                lo.unreached,
                ms(c.quantile(0.50)),
                ms(c.quantile(0.99))
            )?;
            let p = &lo.paired;
            writeln!(
                f,
                "seeks             {} made, {} seated; seek to seat p50 {}  p99 {}  max {}",
                lo.seeks,
                lo.seated,
                ms(p.quantile(0.50)),
                ms(p.quantile(0.99)),
                ms(p.max())
            )?;
        }
        let fo = &lo.follower;
        if fo.steps > 0 {
            let per_sec = |n: u64| n as f64 / self.play_secs.max(f64::MIN_POSITIVE);
            writeln!(
                f,
                "lobby follower    {} steps ({:.1}/s), {} reading the public tables ({:.1}/s)",
                fo.steps,
                per_sec(fo.steps),
                fo.full_reads,
                per_sec(fo.full_reads)
            )?;
            let parts: Vec<String> = fo
                .micros
                .iter()
                .map(|(part, us)| {
                    // The public tables' read is timed only in the steps that make it.
                    let of = if part == "public" {
                        fo.full_reads
                    } else {
                        fo.steps
                    };
                    format!(
                        "{part} {:.2} ms ({:.0}% busy)",
                        *us as f64 / 1000.0 / of.max(1) as f64,
                        per_sec(*us) / 10_000.0
                    )
                })
                .collect();
            writeln!(f, "  per step        {}", parts.join(", "))?;
        }
        if fo.fanouts > 0 {
            writeln!(
                f,
                "lobby fan-out     {} items, each from publishing to the last socket's write {:.2} ms (mean)",
                fo.fanouts,
                fo.fanout_micros as f64 / 1000.0 / fo.fanouts as f64
            )?;
        }
        for n in &self.nodes {
            let m = n.memory;
            writeln!(
                f,
                "node {} (pid {}) RSS baseline {}, ready {}, peak {} (VmHWM {})",
                n.addr,
                n.pid,
                mib(m.baseline_kib),
                mib(m.ready_kib),
                mib(m.peak_kib),
                mib(m.hwm_kib)
            )?;
        }
        if let Some(m) = self.server {
            let per = |kib: u64| {
                let t = (self.tables + self.idle_tables).max(1);
                format!(
                    "{:.0} KiB",
                    kib.saturating_sub(m.baseline_kib) as f64 / t as f64
                )
            };
            let label = if self.nodes.len() > 1 {
                format!("server RSS, sum of {} nodes:", self.nodes.len())
            } else {
                "server RSS       ".to_owned()
            };
            writeln!(
                f,
                "{label} baseline {}, ready {}, peak {} (VmHWM {})",
                mib(m.baseline_kib),
                mib(m.ready_kib),
                mib(m.peak_kib),
                mib(m.hwm_kib)
            )?;
            writeln!(
                f,
                "RSS per table     {} ready, {} peak (above baseline, sockets included)",
                per(m.ready_kib),
                per(m.peak_kib)
            )?;
        }
        for s in &self.error_samples {
            writeln!(f, "  error: {s}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_reaches_every_socket_when_every_worker_s_watchers_have_it() {
        // Worker 0 opened probes 1, 2 and 3 and holds 2 watchers; worker 1 holds 3.
        let first = LobbyReport {
            watchers: 2,
            sightings: vec![(1, 2, 40_000), (2, 2, 10_000), (3, 1, 5_000)],
            posted: vec![1, 2, 3],
            ..LobbyReport::default()
        };
        let second = LobbyReport {
            watchers: 3,
            sightings: vec![(1, 3, 70_000), (2, 3, 9_000), (3, 3, 8_000)],
            ..LobbyReport::default()
        };
        let mut merged = LobbyReport::default();
        merged.merge(&first);
        merged.merge(&second);
        merged.settle();
        // Probe 3 is missing at one of worker 0's watchers; 1 and 2 reached all five, at
        // the later of the two workers' last times.
        assert_eq!(merged.unreached, 1);
        assert_eq!(merged.all.len(), 2);
        assert_eq!(merged.all.max(), 70_000);
        assert!((9_990..=10_010).contains(&merged.all.quantile(0.0)));
        assert!(merged.sightings.is_empty() && merged.posted.is_empty());
        // A probe no watcher saw is unreached too.
        let mut none = LobbyReport {
            watchers: 1,
            posted: vec![9],
            ..LobbyReport::default()
        };
        none.settle();
        assert_eq!((none.unreached, none.all.len()), (1, 0));
    }

    #[test]
    fn the_fan_out_counters_are_kept_apart_from_the_step_s_parts() {
        let read = |pairs: &[(&str, u64)]| -> std::collections::BTreeMap<String, u64> {
            pairs.iter().map(|&(k, v)| (k.to_owned(), v)).collect()
        };
        let before = read(&[("steps", 10), ("public_micros", 500), ("fanouts", 4)]);
        let after = read(&[
            ("steps", 30),
            ("public_micros", 2_500),
            ("fanouts", 9),
            ("fanout_micros", 250_000),
        ]);
        let mut f = Follower::between(&before, &after);
        assert_eq!(f.steps, 20);
        assert_eq!(f.micros, vec![("public".to_owned(), 2_000)]);
        assert_eq!((f.fanouts, f.fanout_micros), (5, 250_000));
        f.add(&f.clone());
        assert_eq!((f.fanouts, f.fanout_micros), (10, 500_000));
    }
}
