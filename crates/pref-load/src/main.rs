//! `pref-load`: runs a load against a Preferans server and prints the figures.
//!
//! The parent process starts the server (or takes `--addr` and `--server-pid`), splits the
//! tables over worker processes (each is this binary with `worker`), lets every worker set
//! up its tables, reads the server's memory, says go, samples the memory during play and
//! merges the workers' reports. Workers talk to the parent in lines on stdin and stdout.
//!
//! Several running servers (nodes of one cluster) may be given: `--addr` repeated or
//! comma-separated, with as many `--server-pid`s in the same order. Worker `i` talks only
//! to node `i % n` and creates its own tables there, so every table's sockets are on the
//! node that holds the table and nothing is forwarded; memory is read and reported per node
//! and summed.

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use pref_load::server::{ServerProcess, status_kib};
use pref_load::{Follow, NodeMemory, Plan, Players, Report, ServerMemory};

/// Sockets one worker opens at most by default: the open-file limit here is 20,000 per
/// process, and each worker also needs descriptors for its HTTP pool and runtime.
const SOCKETS_PER_WORKER: usize = 12_000;
/// Lobby sockets per worker of their own: the lobby's watchers are kept apart from the
/// tables' sockets, as the browsers of people in the lobby are not those at the tables. In
/// a worker that also plays tables, every lobby item (two thousand frames to read and
/// parse on its one thread) held up the tables' events and added to their measured
/// latency (`docs/performance.md`).
const LOBBY_SOCKETS_PER_WORKER: usize = 1_000;

#[derive(Debug, Parser)]
#[command(about = "Opens many Preferans tables on a server and plays them at a set rate")]
struct Cli {
    #[command(subcommand)]
    worker: Option<Sub>,
    /// A running server (`host:port`); without it the server binary is started. Repeated
    /// or comma-separated for several nodes: worker `i` uses node `i % n`.
    #[arg(long, value_delimiter = ',')]
    addr: Vec<SocketAddr>,
    /// The running servers' process ids, to read their memory: none, or one per `--addr`
    /// in the same order.
    #[arg(long, value_delimiter = ',')]
    server_pid: Vec<u32>,
    /// The server binary to start (default: `pref-server` beside this program).
    #[arg(long)]
    server_bin: Option<PathBuf>,
    /// Where a started server keeps its database (a fresh folder inside; default: the
    /// system's temp directory). A tmpfs such as `/dev/shm` takes the disk out of the run.
    #[arg(long)]
    data_parent: Option<PathBuf>,
    /// Extra settings for a started server, `NAME=VALUE` (e.g. `PREF_QUEUE=64`).
    #[arg(long = "server-env")]
    server_env: Vec<String>,
    /// Tables that play.
    #[arg(long, default_value_t = 50)]
    tables: usize,
    /// Seats per table.
    #[arg(long, value_enum, default_value_t = Players::Mixed)]
    players: Players,
    /// Spectators over all playing tables, spread evenly.
    #[arg(long, default_value_t = 50)]
    spectators: usize,
    /// Extra idle sockets, on lobby tables.
    #[arg(long, default_value_t = 0)]
    idle: usize,
    /// Idle sockets per lobby table.
    #[arg(long, default_value_t = 100)]
    idle_per_table: usize,
    /// Seconds of play.
    #[arg(long, default_value_t = 10.0)]
    duration: f64,
    /// Accepted actions per second aimed at, over all tables (0: as fast as possible).
    #[arg(long, default_value_t = 300.0)]
    rate: f64,
    /// Worker processes for the tables (default: one per 12,000 sockets, at least one per
    /// node); the lobby sockets get workers of their own.
    #[arg(long)]
    workers: Option<usize>,
    /// Loopback source addresses per worker (127.0.0.2 onward) to spread sockets over.
    #[arg(long, default_value_t = 4)]
    source_ips: u8,
    /// Seed of the players' choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print the merged report as JSON too.
    #[arg(long)]
    json: bool,
    /// Imitate the browser before it followed events: every socket asks for a snapshot
    /// after each item carrying a turn, and players act on the snapshot's turn.
    #[arg(long)]
    resync_every_turn: bool,
    /// Open every table with this clock: a preset (`relaxed`, `normal`, `blitz`) or a JSON
    /// object of custom values (`{"move": 5, "bank": 0}`).
    #[arg(long)]
    clock: Option<String>,
    /// The percentage of players (seat 0 left out) whose socket stays open but who never act:
    /// with `--clock` the server's autopilot plays them.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=100))]
    absent: u8,
    /// Of the playing tables, this many are opened public (listed, then live).
    #[arg(long, default_value_t = 0)]
    public: usize,
    /// Sockets following the lobby (`/api/lobby/ws`) as the start page does, in workers of
    /// their own (a thousand each), the first of which opens the probes that time a lobby
    /// change.
    #[arg(long, default_value_t = 0)]
    lobby_watchers: usize,
    /// Seeks per second over all workers, as the start page's "Play" makes them.
    #[arg(long, default_value_t = 0.0)]
    seeks_per_sec: f64,
    /// The seeks' clock (`off`, `relaxed`, `normal`, `blitz`); the house rules are Sochi.
    #[arg(long, default_value = "normal")]
    seek_clock: String,
    /// Probes per second: public tables whose listing is timed to every lobby socket, each
    /// ended by its host 5 s after it opened.
    #[arg(long, default_value_t = 2.0)]
    probes_per_sec: f64,
}

/// The per-address bounds a started server gets unless `--server-env` sets them: every
/// table, socket and seek of the run comes from a few loopback addresses.
const LOAD_ENV: [(&str, &str); 10] = [
    ("PREF_TABLES_PER_IP_PER_MINUTE", "1000000"),
    ("PREF_TABLE_BURST_PER_IP", "1000000"),
    ("PREF_MAX_CONNS_PER_IP", "1000000"),
    ("PREF_SOCKETS_PER_IP_PER_SECOND", "1000000"),
    ("PREF_SOCKET_BURST_PER_IP", "1000000"),
    ("PREF_LOBBY_SOCKETS_PER_IP", "1000000"),
    ("PREF_SEEKS_PER_IP", "1000000"),
    ("PREF_SEEKS_PER_IP_PER_MINUTE", "1000000"),
    ("PREF_SEEK_BURST_PER_IP", "1000000"),
    ("PREF_PUBLIC_TABLES_PER_IP", "1000000"),
];

#[derive(Debug, Subcommand)]
enum Sub {
    /// Many entrants playing one duplicate tournament against the bots (`docs/tournaments.md`);
    /// takes `--addr`/`--server-pid`, or starts the server, and `--seed`.
    Tournament {
        /// Entrants.
        #[arg(long, default_value_t = 1000)]
        entrants: usize,
        /// Deals of the tournament.
        #[arg(long, default_value_t = 12)]
        deals: u32,
        /// The bots' level.
        #[arg(long, default_value = "normal")]
        level: String,
        /// Entrants playing at the same time.
        #[arg(long, default_value_t = 100)]
        at_once: usize,
    },
    /// Internal: one worker process, driven by the parent over stdin and stdout.
    #[command(hide = true)]
    Worker {
        /// The server.
        #[arg(long)]
        addr: SocketAddr,
        /// The plan, as JSON.
        #[arg(long)]
        plan: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(Sub::Worker { addr, plan }) = &cli.worker {
        return worker(*addr, plan);
    }
    if let Some(Sub::Tournament {
        entrants,
        deals,
        level,
        at_once,
    }) = &cli.worker
    {
        let plan = pref_load::tournament::TournamentPlan {
            entrants: *entrants,
            deals: *deals,
            level: level.clone(),
            at_once: *at_once,
            seed: cli.seed,
        };
        return tournament(&cli, &plan);
    }
    match parent(&cli) {
        Ok(report) => {
            print!("{report}");
            if cli.json {
                println!("{}", serde_json::to_string(&report).unwrap_or_default());
            }
            if report.clean() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            }
        }
        Err(e) => {
            eprintln!("pref-load: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A worker: sets up, prints `ready`, waits for `go` on stdin, plays, prints `report`.
fn worker(addr: SocketAddr, plan: &str) -> ExitCode {
    let plan: Plan = match serde_json::from_str(plan) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("pref-load worker: bad plan: {e}");
            return ExitCode::FAILURE;
        }
    };
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("pref-load worker: {e}");
            return ExitCode::FAILURE;
        }
    };
    // A line from the parent: the go, then the close once every worker has drained.
    let heard = || async {
        let _ = tokio::task::spawn_blocking(|| {
            let mut line = String::new();
            let _ = std::io::stdin().read_line(&mut line);
        })
        .await;
    };
    let result = rt.block_on(pref_load::run(
        addr,
        &plan,
        |setup| async move {
            println!("ready {} {}", setup.secs, setup.sockets);
            let _ = std::io::stdout().flush();
            heard().await;
        },
        || async {
            println!("drained");
            let _ = std::io::stdout().flush();
            heard().await;
        },
    ));
    match result {
        Ok(report) => {
            println!(
                "report {}",
                serde_json::to_string(&report).unwrap_or_default()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("failed {e}");
            ExitCode::FAILURE
        }
    }
}

/// `pref-load tournament`: against `--addr` (with `--server-pid` for the CPU), or a server
/// started here.
fn tournament(cli: &Cli, plan: &pref_load::tournament::TournamentPlan) -> ExitCode {
    // Kept to the end: dropping it stops the server.
    let mut _started = None;
    let (addr, pid) = match cli.addr.first() {
        Some(a) => (*a, cli.server_pid.first().copied()),
        None => {
            let bin = cli.server_bin.clone().unwrap_or_else(|| {
                std::env::current_exe()
                    .unwrap_or_default()
                    .with_file_name("pref-server")
            });
            let env: Vec<(String, String)> = cli
                .server_env
                .iter()
                .filter_map(|kv| kv.split_once('='))
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect();
            match ServerProcess::start(&bin, cli.data_parent.as_deref(), &env) {
                Ok(s) => {
                    let node = (s.addr, Some(s.pid()));
                    _started = Some(s);
                    node
                }
                Err(e) => {
                    eprintln!("pref-load: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    };
    let rt = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("pref-load: {e}");
            return ExitCode::FAILURE;
        }
    };
    match rt.block_on(pref_load::tournament::run_tournament(
        &addr.to_string(),
        plan,
        pid,
    )) {
        Ok(report) => {
            print!("{report}");
            if cli.json {
                println!("{}", serde_json::to_string(&report).unwrap_or_default());
            }
            if report.errors == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            }
        }
        Err(e) => {
            eprintln!("pref-load: {e}");
            ExitCode::FAILURE
        }
    }
}

/// What a worker said.
enum Said {
    Ready(usize),
    /// Worker `i` has drained and waits to be told to close.
    Drained(usize),
    Report(Box<Report>),
    Failed(usize, String),
}

/// Splits `n` into `parts` nearly equal shares.
fn share(n: usize, parts: usize, i: usize) -> usize {
    n / parts + usize::from(i < n % parts)
}

fn parent(cli: &Cli) -> Result<Report, String> {
    let mut env = Vec::new();
    for kv in &cli.server_env {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("--server-env {kv:?} is not NAME=VALUE"))?;
        env.push((k.to_owned(), v.to_owned()));
    }
    for (k, v) in LOAD_ENV {
        if !env.iter().any(|(name, _)| name == k) {
            env.push((k.to_owned(), v.to_owned()));
        }
    }
    let mut started = None;
    // The nodes: (address, process id if known).
    let nodes: Vec<(SocketAddr, Option<u32>)> = if cli.addr.is_empty() {
        if !cli.server_pid.is_empty() {
            return Err("--server-pid needs --addr".into());
        }
        let bin = match &cli.server_bin {
            Some(b) => b.clone(),
            None => std::env::current_exe()
                .map_err(|e| e.to_string())?
                .with_file_name("pref-server"),
        };
        let s = ServerProcess::start(&bin, cli.data_parent.as_deref(), &env)?;
        let node = (s.addr, Some(s.pid()));
        started = Some(s);
        vec![node]
    } else if cli.server_pid.is_empty() {
        cli.addr.iter().map(|&a| (a, None)).collect()
    } else if cli.server_pid.len() == cli.addr.len() {
        cli.addr
            .iter()
            .zip(&cli.server_pid)
            .map(|(&a, &p)| (a, Some(p)))
            .collect()
    } else {
        return Err(format!(
            "{} --addr but {} --server-pid: give one process id per address, or none",
            cli.addr.len(),
            cli.server_pid.len()
        ));
    };
    let known = nodes.iter().all(|(_, p)| p.is_some());
    // Each node's resident memory (0 when unknown), in node order.
    let rss = |field: &str| -> Vec<u64> {
        nodes
            .iter()
            .map(|(_, p)| p.and_then(|p| status_kib(p, field)).unwrap_or(0))
            .collect()
    };
    let baseline = rss("VmRSS");
    let whole = Plan {
        tables: cli.tables,
        players: cli.players,
        spectators: cli.spectators,
        idle_sockets: cli.idle,
        idle_per_table: cli.idle_per_table,
        duration: Duration::from_secs_f64(cli.duration),
        rate: cli.rate,
        source_ips: cli.source_ips,
        seed: cli.seed,
        follow: if cli.resync_every_turn {
            Follow::SnapshotEveryTurn
        } else {
            Follow::Events
        },
        clock: cli
            .clock
            .as_deref()
            .map(|c| serde_json::from_str(c).unwrap_or_else(|_| serde_json::json!(c))),
        absent_percent: cli.absent,
        lobby: pref_load::LobbyPlan {
            public_tables: cli.public,
            watchers: cli.lobby_watchers,
            seeks_per_sec: cli.seeks_per_sec,
            seek_clock: cli.seek_clock.clone(),
            probes_per_sec: if cli.lobby_watchers > 0 {
                cli.probes_per_sec
            } else {
                0.0
            },
        },
        ..Plan::default()
    };
    let table_workers = match cli.workers {
        Some(w) if w < nodes.len() => {
            return Err(format!(
                "--workers {w} is fewer than the {} nodes: each node needs a worker",
                nodes.len()
            ));
        }
        Some(w) => w,
        None => (whole.sockets() - whole.lobby.watchers)
            .div_ceil(SOCKETS_PER_WORKER)
            .max(nodes.len())
            .max(1),
    };
    let lobby_workers = whole.lobby.watchers.div_ceil(LOBBY_SOCKETS_PER_WORKER);
    let workers = table_workers + lobby_workers;
    let names: Vec<String> = nodes.iter().map(|(a, _)| a.to_string()).collect();
    eprintln!(
        "pref-load: server {}, {} tables, {} sockets, {table_workers} worker(s) for the tables \
         and {lobby_workers} for the lobby",
        names.join(", "),
        whole.tables + whole.idle_sockets.div_ceil(whole.idle_per_table.max(1)),
        whole.sockets()
    );
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let (tx, rx) = mpsc::channel();
    let mut children: Vec<(Child, ChildStdin)> = Vec::new();
    for i in 0..workers {
        let seed = whole.seed.wrapping_add(i as u64 * 1_000_003);
        let plan = if i < table_workers {
            let tables = share(whole.tables, table_workers, i);
            Plan {
                tables,
                spectators: share(whole.spectators, table_workers, i),
                idle_sockets: share(whole.idle_sockets, table_workers, i),
                rate: if whole.tables == 0 {
                    0.0
                } else {
                    whole.rate * tables as f64 / whole.tables as f64
                },
                seed,
                lobby: pref_load::LobbyPlan {
                    public_tables: share(whole.lobby.public_tables, table_workers, i),
                    watchers: 0,
                    probes_per_sec: 0.0,
                    seeks_per_sec: whole.lobby.seeks_per_sec / table_workers as f64,
                    seek_clock: whole.lobby.seek_clock.clone(),
                },
                ..whole.clone()
            }
        } else {
            // The lobby's watchers, in workers of their own; the first opens the probes.
            let j = i - table_workers;
            Plan {
                tables: 0,
                spectators: 0,
                idle_sockets: 0,
                rate: 0.0,
                seed,
                lobby: pref_load::LobbyPlan {
                    watchers: share(whole.lobby.watchers, lobby_workers, j),
                    probes_per_sec: if j == 0 {
                        whole.lobby.probes_per_sec
                    } else {
                        0.0
                    },
                    ..pref_load::LobbyPlan::default()
                },
                ..whole.clone()
            }
        };
        let mut child = Command::new(&exe)
            .arg("worker")
            .arg("--addr")
            .arg(nodes[i % nodes.len()].0.to_string())
            .arg("--plan")
            .arg(serde_json::to_string(&plan).map_err(|e| e.to_string())?)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start a worker: {e}"))?;
        let stdin = child.stdin.take().ok_or("no worker stdin")?;
        let stdout = child.stdout.take().ok_or("no worker stdout")?;
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let said = if let Some(r) = line.strip_prefix("ready ") {
                    let sockets = r.split(' ').nth(1).and_then(|n| n.parse().ok());
                    Said::Ready(sockets.unwrap_or(0))
                } else if line == "drained" {
                    Said::Drained(i)
                } else if let Some(r) = line.strip_prefix("report ") {
                    match serde_json::from_str(r) {
                        Ok(rep) => Said::Report(Box::new(rep)),
                        Err(e) => Said::Failed(i, format!("unreadable report: {e}")),
                    }
                } else if let Some(e) = line.strip_prefix("failed ") {
                    Said::Failed(i, e.to_owned())
                } else {
                    continue;
                };
                if tx.send(said).is_err() {
                    break;
                }
            }
            let _ = tx.send(Said::Failed(i, "worker exited".into()));
        });
        children.push((child, stdin));
    }
    drop(tx);

    let kill = |children: &mut Vec<(Child, ChildStdin)>| {
        for (c, _) in children.iter_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
    };
    // Setup is bounded by a generous deadline: 20 ms per socket plus a minute.
    let setup_deadline = Instant::now()
        + Duration::from_secs(60)
        + Duration::from_millis(20 * whole.sockets() as u64);
    let mut ready = 0;
    let mut sockets = 0;
    while ready < workers {
        let left = setup_deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(Said::Ready(n)) => {
                ready += 1;
                sockets += n;
            }
            Ok(Said::Failed(i, e)) => {
                kill(&mut children);
                return Err(format!("worker {i} failed during setup: {e}"));
            }
            Ok(Said::Report(_) | Said::Drained(_)) => {}
            Err(_) => {
                kill(&mut children);
                return Err("setup did not finish in time".into());
            }
        }
    }
    let ready_kib = rss("VmRSS");
    let ready_sum: u64 = ready_kib.iter().sum();
    eprintln!(
        "pref-load: {sockets} sockets open; server RSS {:.1} MiB; playing for {} s",
        ready_sum as f64 / 1024.0,
        cli.duration
    );
    let counters = || -> Vec<_> {
        nodes
            .iter()
            .map(|(a, _)| pref_load::server::lobby_counters(*a).unwrap_or_default())
            .collect()
    };
    let at_go = counters();
    for (_, stdin) in &mut children {
        let _ = stdin.write_all(b"go\n");
        let _ = stdin.flush();
    }
    let mut peak = ready_kib.clone();
    let mut peak_sum = ready_sum;
    let mut merged = Report::default();
    let mut reports = 0;
    // Workers drained (or gone); at the last, every worker is told to close.
    let mut drained = vec![false; workers];
    let mut told_to_close = false;
    let close = |children: &mut Vec<(Child, ChildStdin)>| {
        for (_, stdin) in children.iter_mut() {
            let _ = stdin.write_all(b"close\n");
            let _ = stdin.flush();
        }
    };
    let end = Instant::now()
        + Duration::from_secs_f64(cli.duration)
        + pref_load::run::START_TIMEOUT
        + Duration::from_secs(120);
    while reports < workers && Instant::now() < end {
        match rx.recv_timeout(Duration::from_millis(500)) {
            Ok(Said::Report(r)) => {
                merged.merge(&r);
                reports += 1;
            }
            Ok(Said::Drained(i)) => drained[i] = true,
            Ok(Said::Failed(i, e)) if e != "worker exited" => {
                kill(&mut children);
                return Err(format!("worker {i} failed: {e}"));
            }
            Ok(Said::Failed(i, _)) => drained[i] = true,
            Ok(Said::Ready(_)) | Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if !told_to_close && drained.iter().all(|&d| d) {
            told_to_close = true;
            close(&mut children);
        }
        let now = rss("VmRSS");
        for (p, n) in peak.iter_mut().zip(&now) {
            *p = (*p).max(*n);
        }
        peak_sum = peak_sum.max(now.iter().sum());
    }
    if !told_to_close {
        close(&mut children);
    }
    for (c, _) in &mut children {
        let _ = c.wait();
    }
    if reports < workers {
        return Err(format!("only {reports} of {workers} workers reported"));
    }
    merged.lobby.settle();
    for (before, after) in at_go.iter().zip(counters()) {
        // Counted from the go to the last report: the play and its drain.
        let follower = pref_load::report::Follower::between(before, &after);
        merged.lobby.follower.add(&follower);
    }
    if known {
        let hwm = rss("VmHWM");
        let per_node: Vec<ServerMemory> = (0..nodes.len())
            .map(|k| ServerMemory {
                baseline_kib: baseline[k],
                ready_kib: ready_kib[k],
                peak_kib: peak[k],
                hwm_kib: hwm[k],
            })
            .collect();
        merged.server = Some(ServerMemory {
            baseline_kib: baseline.iter().sum(),
            ready_kib: ready_sum,
            peak_kib: peak_sum,
            hwm_kib: hwm.iter().sum(),
        });
        if nodes.len() > 1 {
            merged.nodes = nodes
                .iter()
                .zip(per_node)
                .map(|(&(addr, pid), memory)| NodeMemory {
                    addr: addr.to_string(),
                    pid: pid.unwrap_or(0),
                    memory,
                })
                .collect();
        }
    }
    drop(started);
    Ok(merged)
}
