//! The quick load: about 50 tables, three- and four-handed, with spectators and a few idle
//! sockets, against a server started in this process on port 0 with its own data directory.
//! Fails on any error, lost or reordered event, resync or unanswered action.

use std::path::Path;
use std::time::Duration;

use pref_load::{Plan, Players};
use pref_server::config::Config;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_tables_play_without_loss() {
    let dir = std::env::temp_dir().join(format!("pref-load-quick-{}", std::process::id()));
    let config = Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.clone(),
        web_dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web"),
        ..Config::default()
    };
    let server = pref_server::start(config).await.unwrap();

    let plan = Plan {
        tables: 50,
        players: Players::Mixed,
        spectators: 50,
        idle_sockets: 40,
        idle_per_table: 20,
        duration: Duration::from_secs(4),
        // 50 tables at 400 actions/s: each player waits about 125 ms, well inside the
        // server's 10 messages per second per connection.
        rate: 400.0,
        ..Plan::default()
    };
    let report = pref_load::run(server.addr, &plan, |_| async {})
        .await
        .unwrap();
    eprint!("{report}");
    server.task.abort();
    let _ = std::fs::remove_dir_all(&dir);

    assert!(report.clean(), "the quick load was not clean:\n{report}");
    assert_eq!(report.sockets(), 50 * 3 + 50 / 4 + 50 + 40);
    assert!(report.acked > 200, "too few actions:\n{report}");
    assert!(report.latency.len() > 200, "too few latencies:\n{report}");
    assert!(report.deals > 0, "no deal finished:\n{report}");
}
