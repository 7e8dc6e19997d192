//! One worker's run: set up its tables (HTTP), connect every socket (WebSocket), wait for
//! the go, start the games, play for the set time, drain, close and count.

use std::future::Future;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use hyper::Method;
use pref_protocol::{Claim, Claimed, CreateTable, Created, Summary};
use serde_json::json;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::client::{self, Client, Dialer, Link, Probe, Stage};
use crate::http::Api;
use crate::lobby::{self, LobbyStats};
use crate::plan::Plan;
use crate::report::{Report, Stats};

/// A playing table, set up and connected, not yet started.
struct Ready {
    /// The table id.
    id: String,
    /// The host token, to start the game.
    host: String,
    /// Its sockets' tasks, each past its first snapshot and reading.
    tasks: Vec<JoinHandle<()>>,
    /// Shared by its sockets.
    probe: Arc<Probe>,
}

/// The pool target of every table: high enough that no game ends during a run, so every
/// table keeps playing deals.
const POOL_TARGET: u32 = 1000;

/// How long starting every table may take.
pub const START_TIMEOUT: Duration = Duration::from_secs(120);

/// The least drain of the worker opening the lobby's probes: time for its last probe to
/// reach every lobby socket (the target is a tenth of it).
const LOBBY_DRAIN: Duration = Duration::from_secs(1);

/// Creates, fills and connects playing table number `i`.
async fn setup_table(
    i: usize,
    plan: &Plan,
    api: &Api,
    dialer: &Dialer,
    stats: &Arc<Stats>,
    stage: &watch::Receiver<Stage>,
) -> Result<Ready, String> {
    let players = plan.players.at(i);
    let preset = if players == 4 { "sochi4" } else { "sochi" };
    let create = CreateTable {
        profile: Some(json!({ "preset": preset, "pool_target": POOL_TARGET })),
        spectator_chat: false,
        clock: plan.clock.clone(),
        public: i < plan.lobby.public_tables,
        ..CreateTable::default()
    };
    let created: Created = api
        .expect(201, Method::POST, "/api/tables", Some(&create), None)
        .await?;
    let invite = created.invite_key().map(str::to_owned);
    let Created {
        id,
        host_token: host,
        ..
    } = created;
    let mut tokens = Vec::new();
    for s in 0..players {
        let claim = Claim {
            name: format!("load {s}"),
            seat: Some(s),
            invite: invite.clone(),
        };
        let seat: Claimed = api
            .expect(
                200,
                Method::POST,
                &format!("/api/tables/{id}/seats"),
                Some(&claim),
                None,
            )
            .await?;
        tokens.push(seat.token);
    }
    let viewers = usize::from(players) + plan.spectators_at(i);
    let probe = Arc::new(Probe::new(viewers as u32));
    let think = plan.think();
    let mut tasks = Vec::with_capacity(viewers);
    for v in 0..viewers {
        let token = tokens.get(v);
        let seat = token.map(|_| v as u8);
        let mut ws = dialer
            .connect(&format!("/api/tables/{id}/ws"), token.map(String::as_str))
            .await?;
        let version = client::first_snapshot(&mut ws).await?;
        let seed = plan.seed ^ (((i as u64) << 8) | v as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let link = Link {
            probe: Arc::clone(&probe),
            stats: Arc::clone(stats),
            stage: stage.clone(),
            think,
            follow: plan.follow,
        };
        let absent = seat.is_some_and(|s| plan.absent(i, s));
        stats.absent.fetch_add(u64::from(absent), Ordering::Relaxed);
        let client = Client::new(ws, seat, link, seed, version).absent(absent);
        tasks.push(tokio::spawn(client.run()));
    }
    Ok(Ready {
        id,
        host,
        tasks,
        probe,
    })
}

/// Creates lobby table number `i` and opens `n` idle spectator sockets on it.
async fn setup_idle(
    n: usize,
    api: &Api,
    dialer: &Dialer,
    stats: &Arc<Stats>,
    stage: &watch::Receiver<Stage>,
) -> Result<Vec<JoinHandle<()>>, String> {
    let created: Created = api
        .expect(
            201,
            Method::POST,
            "/api/tables",
            Some(&CreateTable::default()),
            None,
        )
        .await?;
    let id = created.id;
    let mut tasks = Vec::with_capacity(n);
    for _ in 0..n {
        let mut ws = dialer
            .connect(&format!("/api/tables/{id}/ws"), None)
            .await?;
        client::first_snapshot(&mut ws).await?;
        tasks.push(tokio::spawn(client::idle(
            ws,
            stage.clone(),
            Arc::clone(stats),
        )));
    }
    Ok(tasks)
}

/// The loopback source addresses `127.0.0.2` onward.
fn sources(n: u8) -> Vec<Ipv4Addr> {
    (0..n).map(|k| Ipv4Addr::new(127, 0, 0, 2 + k)).collect()
}

/// Figures from the setup, handed to the caller before play.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    /// Seconds it took.
    pub secs: f64,
    /// Sockets open.
    pub sockets: usize,
}

/// Runs `plan` against the server at `server`: sets everything up, calls `ready`, awaits
/// the future it returns (the go), plays, drains, calls `drained` and awaits its future
/// (every worker drained: the lobby sockets stay open until the last probe had time to
/// reach those of every worker), closes, and reports. The lobby's change to every socket
/// and its unreached probes are left to the caller, who merges every worker's report and
/// then calls [`crate::report::LobbyReport::settle`].
///
/// # Errors
/// A message if a table or socket could not be set up; errors during play are counted in
/// the report instead.
pub async fn run<F, Fut, G, Gut>(
    server: SocketAddr,
    plan: &Plan,
    ready: F,
    drained: G,
) -> Result<Report, String>
where
    F: FnOnce(Setup) -> Fut,
    Fut: Future<Output = ()>,
    G: FnOnce() -> Gut,
    Gut: Future<Output = ()>,
{
    let api = Api::new(&server.to_string());
    let dialer = Dialer {
        server,
        sources: sources(plan.source_ips),
        next: Arc::new(AtomicU64::new(0)),
    };
    let stats = Arc::new(Stats::default());
    let (stage_tx, stage) = watch::channel(Stage::Setup);
    let began = Instant::now();

    let gate = Arc::new(Semaphore::new(plan.setup_concurrency.max(1)));
    let mut idle_tasks = Vec::new();
    let idle_tables = plan.idle_sockets.div_ceil(plan.idle_per_table.max(1));
    {
        let mut jobs = FuturesUnordered::new();
        for t in 0..idle_tables {
            let n = plan
                .idle_per_table
                .max(1)
                .min(plan.idle_sockets - t * plan.idle_per_table.max(1));
            let (api, dialer, stats, stage, gate) = (&api, &dialer, &stats, &stage, &gate);
            jobs.push(async move {
                let _permit = gate.acquire().await.map_err(|e| e.to_string())?;
                setup_idle(n, api, dialer, stats, stage).await
            });
        }
        while let Some(r) = jobs.next().await {
            idle_tasks.extend(r?);
        }
    }
    let mut tables = Vec::with_capacity(plan.tables);
    {
        let mut jobs = FuturesUnordered::new();
        for i in 0..plan.tables {
            let (api, dialer, stats, stage, gate) = (&api, &dialer, &stats, &stage, &gate);
            jobs.push(async move {
                let _permit = gate.acquire().await.map_err(|e| e.to_string())?;
                setup_table(i, plan, api, dialer, stats, stage).await
            });
        }
        while let Some(r) = jobs.next().await {
            tables.push(r?);
        }
    }
    let lobby_stats = Arc::new(LobbyStats {
        watchers: u32::try_from(plan.lobby.watchers).unwrap_or(u32::MAX),
        ..LobbyStats::default()
    });
    let mut watchers = Vec::with_capacity(plan.lobby.watchers);
    {
        let mut jobs = FuturesUnordered::new();
        for _ in 0..plan.lobby.watchers {
            let (dialer, gate) = (&dialer, &gate);
            jobs.push(async move {
                let _permit = gate.acquire().await.map_err(|e| e.to_string())?;
                lobby::open(dialer).await
            });
        }
        while let Some(r) = jobs.next().await {
            watchers.push(tokio::spawn(lobby::watch(
                r?,
                stage.clone(),
                (Arc::clone(&stats), Arc::clone(&lobby_stats)),
            )));
        }
    }
    let setup_secs = began.elapsed().as_secs_f64();
    let players = plan.player_sockets() as u64;
    ready(Setup {
        secs: setup_secs,
        sockets: plan.sockets(),
    })
    .await;

    let play = Instant::now();
    let _ = stage_tx.send(Stage::Play);
    let mut probes = Vec::with_capacity(tables.len());
    let mut tasks = Vec::with_capacity(plan.sockets());
    let mut starts = Vec::with_capacity(tables.len());
    for t in tables {
        probes.push(t.probe);
        tasks.extend(t.tasks);
        starts.push((t.id, t.host));
    }
    {
        let mut jobs = FuturesUnordered::new();
        for (id, host) in &starts {
            let (api, gate) = (&api, &gate);
            jobs.push(async move {
                let _permit = gate.acquire().await.map_err(|e| e.to_string())?;
                api.expect::<Summary, ()>(
                    200,
                    Method::POST,
                    &format!("/api/tables/{id}/start"),
                    None,
                    Some(host),
                )
                .await
                .map(|_| ())
            });
        }
        // Bounded: starts that have not answered by the deadline count as errors.
        let deadline = tokio::time::sleep(START_TIMEOUT);
        tokio::pin!(deadline);
        loop {
            tokio::select! {
                r = jobs.next() => match r {
                    Some(Ok(())) => {}
                    Some(Err(e)) => stats.error(format!("start: {e}")),
                    None => break,
                },
                () = &mut deadline => {
                    stats.error(format!("{} tables not started within {START_TIMEOUT:?}", jobs.len()));
                    break;
                }
            }
        }
    }
    // The steady state is measured from the moment every table has started.
    let start_secs = play.elapsed().as_secs_f64();
    let steady = Instant::now();
    let acked_before = stats.acked.load(Ordering::Relaxed);
    if let Ok(mut h) = stats.latency.lock() {
        *h = Default::default();
    }
    lobby::reset(&lobby_stats);
    let seekers = drive_lobby(
        plan,
        steady + plan.duration,
        &api,
        &dialer,
        &stats,
        &lobby_stats,
    )
    .await;
    let play_secs = steady.elapsed().as_secs_f64();
    let acked_steady = stats.acked.load(Ordering::Relaxed) - acked_before;
    let _ = stage_tx.send(Stage::Drain);
    // Bounded: a table whose answer never comes counts as unanswered after the drain. The
    // worker opening the probes drains a second at least: its last probes may not have
    // reached another worker's lobby sockets yet (they stay open until it has drained).
    let drain_begun = Instant::now();
    let drain_end = drain_begun + plan.drain;
    let lobby_drain = if plan.lobby.probes_per_sec > 0.0 {
        LOBBY_DRAIN.min(plan.drain)
    } else {
        Duration::ZERO
    };
    while Instant::now() < drain_end
        && (probes.iter().any(|p| p.unanswered())
            || lobby_stats.unreached() > 0
            || drain_begun.elapsed() < lobby_drain
            || seekers.iter().any(|s| !s.is_finished()))
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drained().await;
    // Every socket notes its version before any closes (bounded, like the drain).
    let _ = stage_tx.send(Stage::Record);
    let record_end = Instant::now() + Duration::from_secs(2);
    while Instant::now() < record_end && !probes.iter().all(|p| p.recorded()) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let _ = stage_tx.send(Stage::Close);
    // A seeker still waiting for two more is left waiting: its line did not fill.
    for s in &seekers {
        s.abort();
    }
    for t in tasks.into_iter().chain(idle_tasks).chain(watchers) {
        if t.await.is_err() {
            stats.error("a socket task panicked");
        }
    }

    let unanswered = probes.iter().filter(|p| p.unanswered()).count() as u64;
    let diverged = probes
        .iter()
        .filter(|p| {
            p.finals
                .lock()
                .map(|f| f.iter().any(|&v| v != f[0]))
                .unwrap_or(true)
        })
        .count() as u64;
    let s = &stats;
    let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
    Ok(Report {
        tables: plan.tables as u64,
        idle_tables: idle_tables as u64,
        players,
        spectators: plan.spectators as u64,
        idle_sockets: plan.idle_sockets as u64,
        setup_secs,
        start_secs,
        play_secs,
        acked_steady,
        sent: get(&s.sent),
        acked: get(&s.acked),
        received: get(&s.received),
        latency: s.latency.lock().map(|h| h.clone()).unwrap_or_default(),
        unanswered,
        lost: get(&s.lost),
        out_of_order: get(&s.out_of_order),
        diverged,
        resyncs: get(&s.resyncs),
        resync_causes: s.causes.get(),
        errors: get(&s.errors),
        closed_early: get(&s.closed_early),
        deals: get(&s.deals),
        games_over: get(&s.games_over),
        absent: get(&s.absent),
        autopilot: get(&s.autopilot),
        error_samples: s.samples.lock().map(|v| v.clone()).unwrap_or_default(),
        server: None,
        nodes: Vec::new(),
        lobby: crate::report::LobbyReport {
            public_tables: plan.lobby.public_tables.min(plan.tables) as u64,
            watchers: plan.lobby.watchers as u64,
            each: lobby_stats
                .each
                .lock()
                .map(|h| h.clone())
                .unwrap_or_default(),
            // Worked out by the parent from every worker's sightings (`LobbyReport::settle`).
            all: crate::histogram::Histogram::default(),
            unreached: 0,
            sightings: lobby_stats
                .sightings()
                .into_iter()
                .map(|(k, s)| (k, s.watchers, s.last_micros))
                .collect(),
            posted: lobby_stats
                .posted
                .lock()
                .map(|p| p.clone())
                .unwrap_or_default(),
            created: lobby_stats
                .created
                .lock()
                .map(|h| h.clone())
                .unwrap_or_default(),
            items: get(&lobby_stats.items),
            lost: get(&lobby_stats.lost),
            resyncs: get(&lobby_stats.resyncs),
            seeks: get(&lobby_stats.seeks),
            seated: get(&lobby_stats.seated),
            paired: lobby_stats
                .paired
                .lock()
                .map(|h| h.clone())
                .unwrap_or_default(),
            // Read by the parent from the server, not by a worker.
            follower: crate::report::Follower::default(),
        },
    })
}

/// Until `end`, makes the plan's seeks and opens its probes at their rates; returns the
/// seekers' tasks. Without either it only waits.
async fn drive_lobby(
    plan: &Plan,
    end: Instant,
    api: &Api,
    dialer: &Dialer,
    stats: &Arc<Stats>,
    lobby: &Arc<LobbyStats>,
) -> Vec<JoinHandle<()>> {
    let every = |rate: f64| (rate > 0.0).then(|| Duration::from_secs_f64(1.0 / rate));
    let (seek_every, probe_every) = (
        every(plan.lobby.seeks_per_sec),
        every(plan.lobby.probes_per_sec),
    );
    let far = end + Duration::from_secs(3600);
    let mut next_seek = seek_every.map_or(far, |d| Instant::now() + d.mul_f64(0.5));
    let mut next_probe = probe_every.map_or(far, |d| Instant::now() + d);
    let (mut seeks, mut probes) = (0u64, 0u64);
    let mut seekers = Vec::new();
    let mut probing = Vec::new();
    loop {
        let next = next_seek.min(next_probe).min(end);
        tokio::time::sleep_until(next).await;
        if next >= end {
            break;
        }
        if next == next_seek {
            seeks += 1;
            let k = (plan.seed << 20) ^ seeks;
            let (clock, dialer, stats, lobby) = (
                plan.lobby.seek_clock.clone(),
                dialer.clone(),
                Arc::clone(stats),
                Arc::clone(lobby),
            );
            seekers.push(tokio::spawn(async move {
                lobby::seek(k, &clock, &dialer, &stats, &lobby).await;
            }));
            next_seek += seek_every.unwrap_or(Duration::from_secs(3600));
        } else {
            probes += 1;
            let (api, stats, lobby) = (api.clone(), Arc::clone(stats), Arc::clone(lobby));
            probing.push(tokio::spawn(async move {
                lobby::probe(probes, &api, &stats, &lobby).await;
            }));
            next_probe += probe_every.unwrap_or(Duration::from_secs(3600));
        }
    }
    for p in probing {
        let _ = p.await;
    }
    seekers
}
