//! The browser-test harness shared by the tests in `tests/`: Debian's
//! Chromium driven over WebDriver (chromedriver, through `fantoccini`), a server in the test
//! process, and the small waits, clicks and table steps the tests are written in.
//!
//! chromedriver runs in its own process group; the group and every Chromium started with a
//! test's profile directories are killed when the [`Driver`] is dropped, passed or failed.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

pub mod known_deck;
pub mod picture;
pub mod steps;

pub use steps::{create_table, fast_bots_server, language, play_own_deal, seat_bot, sit, watch};

/// Debian's Chromium (`scripts/install-browser`).
pub const CHROMIUM: &str = "/usr/bin/chromium";
/// Debian's chromedriver.
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Whether the browser is missing, saying why; under `CI=true` a missing browser fails.
///
/// # Panics
/// Under `CI=true`, when Chromium or chromedriver is missing.
#[must_use]
pub fn browser_missing() -> bool {
    let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER]
        .into_iter()
        .filter(|p| !Path::new(p).exists())
        .collect();
    if missing.is_empty() {
        return false;
    }
    let msg = format!(
        "browser tests skipped: {} missing (run scripts/install-browser)",
        missing.join(" and ")
    );
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{msg}");
    eprintln!("{msg}");
    true
}

/// A free loopback port.
///
/// # Panics
/// If no port can be bound.
#[must_use]
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// A fresh directory under the system's temp directory.
///
/// # Panics
/// If it cannot be created.
#[must_use]
pub fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "pref-web-{tag}-{}-{}",
        std::process::id(),
        free_port()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The command line a test's Chromium gets: headless, quiet, its own profile.
fn chromium_args(profile: &Path, phone: bool) -> Vec<String> {
    let mut args: Vec<String> = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--disable-renderer-backgrounding",
        "--disable-background-timer-throttling",
        "--disable-backgrounding-occluded-windows",
        "--lang=en-US",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    if !phone {
        args.push("--window-size=1360,960".to_owned());
    }
    args
}

/// A DevTools command sent through chromedriver (`POST /session/{id}/goog/cdp/execute`).
#[derive(Debug)]
struct Cdp {
    cmd: &'static str,
    params: serde_json::Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({ "cmd": self.cmd, "params": self.params });
        (http::Method::POST, Some(body.to_string()))
    }
}

/// Makes the page behave as the focused window's, as a player's page is: a headless
/// Chromium's window may not have the system's focus (`document.hasFocus()` false), and
/// then `:focus` matches nothing, so no focus ring is drawn, and a focus event may not
/// come.
///
/// # Panics
/// If chromedriver refuses the command.
async fn focused(c: &Client) {
    let cmd = Cdp {
        cmd: "Emulation.setFocusEmulationEnabled",
        params: json!({ "enabled": true }),
    };
    c.issue_cmd(cmd).await.expect("the page's focus emulated");
}

/// The last `n` of `lines`, joined.
fn last_lines<'a>(lines: impl Iterator<Item = &'a str>, n: usize) -> String {
    let lines: Vec<&str> = lines.collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Chromium started alone with `args`, printing an empty page's DOM (at most 30 s): its exit
/// status, the end of what it wrote to stderr, and the memory the machine had left — what a
/// refused session's log needs to say why the browser would not start.
async fn chromium_alone(args: Vec<String>) -> String {
    tokio::task::spawn_blocking(move || {
        let out = Command::new("timeout")
            .arg("30")
            .arg(CHROMIUM)
            .args(&args)
            .args(["--dump-dom", "about:blank"])
            .stdin(Stdio::null())
            .output();
        let available = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| {
                m.lines()
                    .find(|l| l.starts_with("MemAvailable"))
                    .map(str::to_owned)
            })
            .unwrap_or_default();
        match out {
            Ok(out) => {
                // Chromium's complaints about a missing D-Bus say nothing about a failed start.
                let err = String::from_utf8_lossy(&out.stderr);
                let tail = last_lines(err.lines().filter(|l| !l.contains(":ERROR:dbus/")), 40);
                format!(
                    "Chromium alone: {} ({available}); its stderr ends:\n{tail}",
                    out.status
                )
            }
            Err(e) => format!("Chromium alone did not start: {e} ({available})"),
        }
    })
    .await
    .unwrap_or_else(|e| format!("Chromium alone: {e}"))
}

/// `target/<name>` (or under `CARGO_TARGET_DIR`), created: where screenshots and PDFs go.
///
/// # Panics
/// If it cannot be created.
#[must_use]
pub fn out_dir(name: &str) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    let dir = target.join(name);
    std::fs::create_dir_all(&dir).expect("output dir");
    dir
}

/// chromedriver in its own process group, and the browsers' profile directories. Dropping
/// it (also while a failed assertion unwinds) kills the group and any Chromium left running
/// with one of these profiles, then removes the directories.
pub struct Driver {
    child: Child,
    port: u16,
    dirs: Vec<PathBuf>,
    log: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
        // A Chromium that left the group still names its profile on its command line.
        if let Ok(procs) = std::fs::read_dir("/proc") {
            for p in procs.flatten() {
                let pid = p.file_name().to_string_lossy().to_string();
                if !pid.bytes().all(|b| b.is_ascii_digit()) {
                    continue;
                }
                let cmdline = std::fs::read(p.path().join("cmdline")).unwrap_or_default();
                let cmdline = String::from_utf8_lossy(&cmdline);
                if self
                    .dirs
                    .iter()
                    .any(|d| cmdline.contains(&d.display().to_string()))
                {
                    let _ = Command::new("kill").args(["-KILL", &pid]).status();
                }
            }
        }
        for d in &self.dirs {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

impl Driver {
    /// Starts chromedriver on a free port, its log in `logs`.
    pub async fn start(logs: &Path) -> Driver {
        let port = free_port();
        let log = logs.join("chromedriver.log");
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .arg(format!("--log-path={}", log.display()))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("chromedriver starts");
        let driver = Driver {
            child,
            port,
            dirs: Vec::new(),
            log,
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        driver
    }

    /// A fresh browser: desktop size, or a 390×844 phone.
    ///
    /// A chromedriver that has only just started listening may reset the first connection,
    /// and on a loaded machine a Chromium now and then exits as it starts. A new session is
    /// asked for again, each time with a new profile and a longer pause (up to about half a
    /// minute in all); every refusal is followed by a report of the same Chromium started
    /// alone, so the log says why it would not start.
    ///
    /// # Panics
    /// When the sixth try fails too.
    pub async fn browser(&mut self, phone: bool) -> Client {
        let url = format!("http://127.0.0.1:{}", self.port);
        let mut tries = 0;
        loop {
            tries += 1;
            let profile = temp_dir("chromium");
            self.dirs.push(profile.clone());
            let mut args = chromium_args(&profile, phone);
            // chromedriver's advice: talking to Chromium over pipes is more reliable than a
            // debugging port found through a file the browser writes as it starts. (Not for
            // `chromium_alone`: without chromedriver's pipes Chromium refuses to start.)
            args.push("--remote-debugging-pipe".to_owned());
            let mut options = json!({ "binary": CHROMIUM, "args": args });
            if phone {
                options["mobileEmulation"] = json!({
                    "deviceMetrics": { "width": 390, "height": 844, "pixelRatio": 2, "touch": true }
                });
            }
            let mut caps = serde_json::Map::new();
            caps.insert("browserName".into(), json!("chrome"));
            caps.insert("goog:chromeOptions".into(), options);
            match ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                .capabilities(caps)
                .connect(&url)
                .await
            {
                Ok(client) => {
                    focused(&client).await;
                    return client;
                }
                Err(e) => {
                    eprintln!("a browser session, try {tries}: {e}");
                    if matches!(e, fantoccini::error::NewSessionError::SessionNotCreated(_)) {
                        let alone = temp_dir("chromium-alone");
                        self.dirs.push(alone.clone());
                        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
                        eprintln!("chromedriver's log ends:\n{}", last_lines(log.lines(), 20));
                        eprintln!("{}", chromium_alone(chromium_args(&alone, phone)).await);
                    }
                    assert!(tries < 6, "a browser session: {e:?}");
                    tokio::time::sleep(Duration::from_millis(500 << tries)).await;
                }
            }
        }
    }

    /// WebDriver "Print Page" (`POST /session/{id}/print`), which fantoccini 0.21 does not
    /// wrap: a plain HTTP request to chromedriver; returns the PDF's bytes.
    pub async fn print(&self, c: &Client) -> Vec<u8> {
        let session = c
            .session_id()
            .await
            .expect("session")
            .expect("a session id");
        let body = json!({ "background": true, "orientation": "portrait" }).to_string();
        let port = self.port;
        let answer = tokio::task::spawn_blocking(move || {
            let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("chromedriver");
            s.set_read_timeout(Some(Duration::from_secs(120))).expect("timeout");
            write!(
                s,
                "POST /session/{session}/print HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .expect("request");
            // chromedriver keeps the connection open: read the head, then Content-Length.
            let mut raw = Vec::new();
            let mut buf = [0u8; 64 * 1024];
            let mut need: Option<usize> = None;
            loop {
                if let Some(n) = need {
                    if raw.len() >= n {
                        break;
                    }
                } else if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
                    let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
                    let len = head
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:"))
                        .and_then(|v| v.trim().parse::<usize>().ok())
                        .expect("a Content-Length");
                    need = Some(end + 4 + len);
                    continue;
                }
                let n = s.read(&mut buf).expect("answer");
                assert!(n > 0, "chromedriver closed the print answer early");
                raw.extend_from_slice(&buf[..n]);
            }
            raw
        })
        .await
        .expect("print request");
        let text = String::from_utf8_lossy(&answer);
        let (head, rest) = text.split_once("\r\n\r\n").expect("an HTTP answer");
        assert!(head.starts_with("HTTP/1.1 200"), "print: {head}");
        let v: Value = serde_json::from_str(rest).expect("JSON");
        base64(v["value"].as_str().expect("base64 PDF"))
    }
}

/// Standard base64, as WebDriver returns PDFs and screenshots.
pub fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        match c {
            b'A'..=b'Z' => Some(u32::from(c - b'A')),
            b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
            b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for v in text.bytes().filter_map(value) {
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

/// The server in this process, serving `web/`, with `tweak` applied to its settings.
///
/// # Panics
/// If it cannot start.
pub async fn server_with(tweak: impl FnOnce(&mut pref_server::config::Config)) -> String {
    let mut config = pref_server::config::Config {
        bind: "127.0.0.1:0".parse().expect("address"),
        data_dir: temp_dir("data"),
        web_dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web"),
        ..Default::default()
    };
    tweak(&mut config);
    let running = pref_server::start(config).await.expect("server starts");
    format!("http://{}", running.addr)
}

/// Runs `script` in the page and returns its value.
///
/// # Panics
/// If the script fails.
pub async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.expect("script runs")
}

/// Saves a screenshot of the page as `dir/name.png`.
///
/// # Panics
/// If the screenshot cannot be taken or saved.
pub async fn shot(c: &Client, dir: &Path, name: &str) {
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(dir.join(format!("{name}.png")), png).expect("screenshot saved");
}

/// Waits until `script` returns something truthy, and returns it.
///
/// # Panics
/// After 45 s, naming `what`.
pub async fn until(c: &Client, what: &str, script: &str) -> Value {
    poll(c, what, script, |v| {
        !matches!(v, Value::Null | Value::Bool(false)) && *v != json!("") && *v != json!(0)
    })
    .await
}

/// Waits until `script` returns `true` itself; anything else it returns says why not.
///
/// # Panics
/// After 45 s, naming `what` and the last answer.
pub async fn until_true(c: &Client, what: &str, script: &str) {
    poll(c, what, script, |v| *v == json!(true)).await;
}

/// Runs `script` until its answer is `done`, and returns that answer.
async fn poll(c: &Client, what: &str, script: &str, done: impl Fn(&Value) -> bool) -> Value {
    // Generous: a loaded two-core machine runs four browsers slowly.
    let deadline = Instant::now() + Duration::from_secs(45);
    loop {
        let v = js(c, script).await;
        if done(&v) {
            return v;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what} (last: {v})"
        );
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
}

/// Waits until the page has applied an item after `version` (its `data-version` changed):
/// the result of the action it just sent has begun to arrive.
pub async fn past(c: &Client, version: &str) {
    until(
        c,
        "the action's result",
        &format!("return document.body.dataset.version !== {version:?}"),
    )
    .await;
}

/// Waits for `css` to be on the page, then clicks it (a WebDriver click: the element must be
/// visible and not covered, as for a person's click).
///
/// The page redraws whenever an event arrives, replacing its elements: one replaced between
/// the lookup and the click leaves a stale element, and the click is tried again on the new
/// one. chromedriver also now and then drops a kept-alive connection; one retry covers that.
///
/// # Panics
/// If the click fails otherwise, or the element keeps being replaced.
pub async fn click(c: &Client, css: &str) {
    until(c, css, &format!("return !!document.querySelector({css:?})")).await;
    let (mut redrawn, mut other) = (0, 0);
    loop {
        let done = match c.find(Locator::Css(css)).await {
            Ok(el) => el.click().await.map(|_| ()),
            Err(e) => Err(e),
        };
        match done {
            Ok(()) => return,
            Err(e)
                if (e.is_stale_element_reference() || e.is_no_such_element()) && redrawn < 20 =>
            {
                redrawn += 1;
                until(c, css, &format!("return !!document.querySelector({css:?})")).await;
            }
            Err(e) if other == 0 => {
                other += 1;
                eprintln!("click {css}: {e}; retrying");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => panic!("click {css}: {e}"),
        }
    }
}

/// Types `text` into the field `css` (cleared first), as a user would, and checks the field
/// holds it. The page redraws whenever an event arrives, replacing the field (a draft and
/// the focus are kept): a field replaced between the lookup and the typing leaves a stale
/// element, and the typing is tried again on the new field.
///
/// # Panics
/// If the field does not hold `text` after a few tries.
pub async fn type_into(c: &Client, css: &str, text: &str) {
    until(c, css, &format!("return !!document.querySelector({css:?})")).await;
    let check = format!(
        "return document.querySelector({css:?})?.value === {}",
        serde_json::to_string(text).expect("a string")
    );
    for attempt in 0..6 {
        let typed = match c.find(Locator::Css(css)).await {
            Ok(el) => match el.clear().await {
                Ok(()) => el.send_keys(text).await,
                Err(e) => Err(e),
            },
            Err(e) => Err(e),
        };
        match typed {
            Ok(()) if js(c, &check).await == json!(true) => return,
            Ok(()) => eprintln!("type into {css}: the field was redrawn; typing again"),
            Err(e) => eprintln!("type into {css}: {e}; typing again"),
        }
        assert!(attempt < 5, "could not type {text:?} into {css}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// One step of a player whose turn it is, chosen to visit every kind of decision: the first
/// caller bids the lowest bid and the others pass; the declarer discards his first two cards
/// and names the lowest game; the first defender whists, the second passes; the lone whister
/// plays open; cards are the first legal ones; a bot's claim is accepted.
///
/// # Panics
/// If the page has no control for the stage.
pub async fn step(c: &Client, stage: &str, bid_made: &mut bool, whists: &mut u32) {
    match stage {
        "auction" => {
            if *bid_made {
                click(c, "#bidbox button.pass").await;
            } else {
                *bid_made = true;
                click(c, "#bidbox .grid button[data-action=bid]:not([disabled])").await;
            }
        }
        // Each pick in one script (a redraw between a lookup and its click would leave a
        // stale element), waiting for the page to mark it.
        "discard" => {
            for n in 1..=2 {
                until(
                    c,
                    "a card picked for the discard",
                    &format!(
                        "const picked = document.querySelectorAll('.hand.own .card.selected').length;
                         if (picked >= {n}) return true;
                         document.querySelector('.hand.own .card.legal:not(.selected)')?.click();
                         return false;"
                    ),
                )
                .await;
            }
            click(c, "#discard-ok:not([disabled])").await;
        }
        "declare" => click(c, "#declare button").await,
        "whist" => {
            *whists += 1;
            let choice = if *whists == 1 { "whist" } else { "pass" };
            click(c, &format!("#whist button.whist-{choice}")).await;
        }
        "defence" => click(c, "#defence button.defence-open").await,
        // A bot's claim (R6.7) waits for this player's answer: accept it.
        "play"
            if js(c, "return !!document.querySelector('#claim-accept')").await == json!(true) =>
        {
            click(c, "#claim-accept").await;
        }
        // The last playable card: in an overlapped hand it lies on top.
        "play" => click(c, ".hand .card.legal:not(:has(~ .card.legal))").await,
        other => panic!("a turn at stage {other:?}"),
    }
}

/// Opens the start page and waits for every option to be listed (the house rules of
/// docs/options.md, the surrender among them).
///
/// # Panics
/// When the page does not get there within the wait.
pub async fn open_start_page(c: &Client, base: &str) {
    c.goto(base).await.expect("start page");
    until(
        c,
        "the options",
        "return document.querySelectorAll('.option').length >= 30 && !!document.querySelector('select#opt-surrender')",
    )
    .await;
}
