//! The server under test as a child process: started from its binary with a fresh data
//! directory and port 0, its address read from the line it prints, its resident memory read
//! from `/proc/PID/status`, and the lobby follower's counters read from its `/metrics`.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// A running server process, killed when dropped.
#[derive(Debug)]
pub struct ServerProcess {
    /// The process.
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its data directory, removed when dropped.
    dir: PathBuf,
}

impl ServerProcess {
    /// Starts `binary` on `127.0.0.1:0` with a fresh data directory under `parent` (the
    /// system's temp directory by default) and the extra environment `env` (`PREF_*`
    /// settings).
    ///
    /// # Errors
    /// A message if it cannot start or does not print its address.
    pub fn start(
        binary: &Path,
        parent: Option<&Path>,
        env: &[(String, String)],
    ) -> Result<ServerProcess, String> {
        let parent = parent.map_or_else(std::env::temp_dir, Path::to_path_buf);
        let dir = parent.join(format!("pref-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut cmd = Command::new(binary);
        cmd.env("PREF_CONFIG", dir.join("none.toml"))
            .env("PREF_BIND", "127.0.0.1:0")
            .env("PREF_DATA_DIR", dir.join("data"))
            .env("PREF_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let mut lines = BufReader::new(stdout).lines();
        let addr = loop {
            let Some(Ok(line)) = lines.next() else {
                let _ = child.kill();
                return Err("the server exited before printing its address".into());
            };
            if let Some(rest) = line.split("http://").nth(1) {
                let addr = rest.trim_end_matches('/');
                break addr
                    .parse()
                    .map_err(|e| format!("bad address {addr:?}: {e}"))?;
            }
        };
        // Keep draining its stdout so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Ok(ServerProcess { child, addr, dir })
    }

    /// The process id.
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A field of `/proc/PID/status` in KiB (`VmRSS`, `VmHWM`).
#[must_use]
pub fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// The lobby follower's counters of the server at `addr` (`pref_lobby_<name>_total` in its
/// `/metrics`, by `<name>`); `None` when it does not answer.
#[must_use]
pub fn lobby_counters(addr: SocketAddr) -> Option<BTreeMap<String, u64>> {
    let mut stream = std::net::TcpStream::connect(addr).ok()?;
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .ok()?;
    stream
        .write_all(format!("GET /metrics HTTP/1.0\r\nHost: {addr}\r\n\r\n").as_bytes())
        .ok()?;
    let mut text = String::new();
    stream.read_to_string(&mut text).ok()?;
    Some(
        text.lines()
            .filter_map(|l| {
                let (name, value) = l.strip_prefix("pref_lobby_")?.split_once(' ')?;
                Some((name.strip_suffix("_total")?.to_owned(), value.parse().ok()?))
            })
            .collect(),
    )
}
