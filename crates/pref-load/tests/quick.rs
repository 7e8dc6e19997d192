//! The quick load: about 50 tables, three- and four-handed, with spectators and a few idle
//! sockets, against a server started in this process on port 0 with its own data directory.
//! Fails on any error, lost or reordered event, unasked snapshot or unanswered action; the
//! sockets follow the items as the browser does, and a second run imitates the browser
//! before it did, asking for a snapshot after every turn.

use std::path::Path;
use std::time::Duration;

use pref_load::{Follow, Plan, Players};
use pref_server::config::{Config, Limits};

/// Runs the quick load with `follow` and returns its report.
async fn quick(follow: Follow) -> pref_load::Report {
    quick_plan(
        &format!("{follow:?}"),
        Plan {
            tables: 50,
            players: Players::Mixed,
            spectators: 50,
            idle_sockets: 40,
            idle_per_table: 20,
            duration: Duration::from_secs(4),
            // 50 tables at 400 actions/s: each player waits about 125 ms, well inside the
            // server's 10 messages per second per connection.
            rate: 400.0,
            follow,
            ..Plan::default()
        },
    )
    .await
}

/// A server's configuration on port 0 with its data in `dir`: one address opens every
/// table and socket of a run, so the per-address caps are lifted.
fn config(dir: &Path) -> Config {
    Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.to_path_buf(),
        web_dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web"),
        limits: Limits {
            tables_per_ip_per_minute: 10_000,
            table_burst_per_ip: 10_000,
            max_conns_per_ip: 100_000,
            sockets_per_ip_per_second: 100_000,
            socket_burst_per_ip: 100_000,
            ..Limits::default()
        },
        ..Config::default()
    }
}

/// Runs `plan` against a server of its own (`tag` names its data directory).
async fn quick_plan(tag: &str, plan: Plan) -> pref_load::Report {
    let dir = std::env::temp_dir().join(format!("pref-load-quick-{}-{tag}", std::process::id()));
    let mut config = config(&dir);
    // The old browser's snapshot after every turn is a resync per seat at the run's pace
    // (about 3 a second), above a seat's budget for people.
    config.limits.seat_heavy_per_second = 1000;
    config.limits.seat_heavy_burst = 1000;
    let server = pref_server::start(config).await.unwrap();

    let report = pref_load::run(server.addr, &plan, |_| async {}, || async {})
        .await
        .unwrap();
    eprint!("{report}");
    server.task.abort();
    let _ = std::fs::remove_dir_all(&dir);
    report
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_tables_play_without_loss() {
    let report = quick(Follow::Events).await;
    assert!(report.clean(), "the quick load was not clean:\n{report}");
    assert_eq!(report.sockets(), 50 * 3 + 50 / 4 + 50 + 40);
    assert!(report.acked > 200, "too few actions:\n{report}");
    assert!(report.latency.len() > 200, "too few latencies:\n{report}");
    assert!(report.deals > 0, "no deal finished:\n{report}");
    assert_eq!(
        report.resyncs, 0,
        "a socket that follows the items needs no snapshot after its first:\n{report}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_old_browser_asks_for_a_snapshot_after_every_turn() {
    let report = quick(Follow::SnapshotEveryTurn).await;
    assert!(
        report.clean(),
        "the old-browser load was not clean:\n{report}"
    );
    assert!(report.deals > 0, "no deal finished:\n{report}");
    let r = report.resync_causes;
    assert!(
        r.turn > report.acked,
        "every socket asks after each action's turn:\n{report}"
    );
    assert_eq!(report.resyncs, r.turn + r.lagged + r.gap, "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_who_never_act_are_played_by_the_autopilot_under_a_clock() {
    let report = quick_plan(
        "absent",
        Plan {
            tables: 20,
            players: Players::Mixed,
            spectators: 20,
            duration: Duration::from_secs(12),
            rate: 400.0,
            clock: Some(serde_json::json!({"move": 3, "bank": 0, "refill": 0, "grace": 5})),
            absent_percent: 20,
            ..Plan::default()
        },
    )
    .await;
    assert!(
        report.clean(),
        "the load with absent players was not clean:\n{report}"
    );
    // 15 three-handed and 5 four-handed tables: 45 seats after seat 0, 20 % of them absent.
    assert_eq!(report.absent, 9, "{report}");
    assert!(report.autopilot >= 9, "too few autopilot moves:\n{report}");
    assert!(report.deals > 0, "no deal finished:\n{report}");
}

/// The lobby's load in small: public tables, lobby sockets, seekers and probes. Every probe
/// reaches every socket, the seekers are seated, nothing is lost, the server counts its
/// fan-outs, and each probe's host ends it, so none is left in the lobby after the run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_s_load_reaches_every_socket_and_its_probes_leave_the_lobby() {
    let dir = std::env::temp_dir().join(format!("pref-load-quick-{}-lobby", std::process::id()));
    let mut config = config(&dir);
    config.lobby.public_tables_per_ip = 1_000;
    config.lobby.seeks_per_ip = 1_000;
    config.lobby.lobby_sockets_per_ip = 1_000;
    config.lobby.seeks_per_ip_per_minute = 10_000;
    config.lobby.seek_burst_per_ip = 10_000;
    let server = pref_server::start(config).await.unwrap();
    let plan = Plan {
        tables: 12,
        players: pref_load::Players::Three,
        spectators: 0,
        duration: Duration::from_secs(4),
        rate: 60.0,
        lobby: pref_load::LobbyPlan {
            public_tables: 4,
            watchers: 30,
            seeks_per_sec: 3.0,
            seek_clock: "normal".to_owned(),
            probes_per_sec: 2.0,
        },
        ..Plan::default()
    };
    let addr = server.addr;
    let fanouts = || async move {
        tokio::task::spawn_blocking(move || pref_load::server::lobby_counters(addr))
            .await
            .unwrap()
            .and_then(|c| c.get("fanouts").copied())
            .unwrap_or(0)
    };
    let before = fanouts().await;
    let mut report = pref_load::run(server.addr, &plan, |_| async {}, || async {})
        .await
        .unwrap();
    report.lobby.settle();
    eprint!("{report}");
    assert!(report.clean(), "the lobby load was not clean:\n{report}");
    let lobby = &report.lobby;
    assert!(lobby.all.len() >= 6, "too few probes:\n{report}");
    assert_eq!(lobby.unreached, 0, "{report}");
    assert_eq!(lobby.lost, 0, "{report}");
    // Seekers are seated in threes: at most the last two may still wait when the run ends.
    assert!(
        lobby.seeks >= 9 && lobby.seated + 2 >= lobby.seeks,
        "{report}"
    );
    assert_eq!(lobby.seated % 3, 0, "{report}");
    assert!(fanouts().await > before, "no fan-out counted:\n{report}");
    let listed = get_body(server.addr, "/api/lobby").await;
    assert!(
        !listed.contains("probe "),
        "a probe is still listed: {listed}"
    );
    server.task.abort();
    let _ = std::fs::remove_dir_all(&dir);
}

/// `GET path` of the server at `addr`: the answer's body.
async fn get_body(addr: std::net::SocketAddr, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).await.unwrap();
    text.split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default()
}
