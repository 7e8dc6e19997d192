//! `pref-load tournament`: many entrants playing one duplicate tournament at once over the
//! HTTP API (`docs/tournaments.md`). A challenge of `deals` deals is made, `entrants`
//! guests enter, and `at_once` of them play at a time, each taking a random legal action
//! (seeded) until he has finished every deal, and reading the tournament's page after each
//! deal, as the web page does. Reported: entrants finished per minute, the latency of the
//! action that ends a deal (the standings are updated inside it), of an ordinary action
//! (the bots' replies) and of a page read, and the server's CPU per deal played when its
//! process id is known.

use std::sync::Arc;
use std::time::Instant;

use hyper::Method;
use pref_protocol::{Entered, EntrantTable, PlayAction, TournamentCreated, TournamentPage};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use serde_json::json;
use tokio::sync::{Mutex, Semaphore};

use crate::histogram::Histogram;
use crate::http::Api;

/// What the run does.
#[derive(Clone, Debug)]
pub struct TournamentPlan {
    /// Entrants.
    pub entrants: usize,
    /// Deals of the tournament.
    pub deals: u32,
    /// The bots' level (`easy`, `normal`, `strong`).
    pub level: String,
    /// Entrants playing at the same time.
    pub at_once: usize,
    /// Seed of the entrants' choices.
    pub seed: u64,
}

/// The figures.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentReport {
    /// Entrants who finished every deal.
    pub finished: usize,
    /// Deals played in all.
    pub deals_played: u64,
    /// Seconds from the first entry to the last finished deal.
    pub secs: f64,
    /// Entrants finished per minute.
    pub finished_per_minute: f64,
    /// The action that ends a deal (bots' replies, the result written, the standings
    /// updated), in µs.
    pub ending: Histogram,
    /// Any other action (the bots' replies up to the entrant's next turn), in µs.
    pub action: Histogram,
    /// A read of the tournament's page with its standings, in µs.
    pub page: Histogram,
    /// The server's CPU seconds (user + system) per deal played, when known.
    pub cpu_per_deal_ms: Option<f64>,
    /// Requests refused or failed.
    pub errors: u64,
}

#[derive(Default)]
struct Figures {
    ending: Histogram,
    action: Histogram,
    page: Histogram,
    deals: u64,
    finished: usize,
    errors: u64,
}

fn micros(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_micros()).unwrap_or(u64::MAX)
}

/// One entrant, from entering to his last deal.
async fn entrant(
    api: Api,
    id: String,
    n: usize,
    seed: u64,
    figures: Arc<Mutex<Figures>>,
) -> Result<(), String> {
    let path = format!("/api/tournaments/{id}/entrants");
    let body = json!({"name": format!("Entrant {n}")});
    let e: Entered = api
        .expect(201, Method::POST, &path, Some(&body), None)
        .await?;
    let play = format!("/api/tournaments/{id}/play");
    let page = format!("/api/tournaments/{id}");
    let mut rng = StdRng::seed_from_u64(seed ^ n as u64);
    let mut t: EntrantTable = api
        .expect(200, Method::GET, &play, None::<&()>, Some(&e.token))
        .await?;
    while t.deal < t.deals {
        let deal = t.deal;
        let Some(&action) = t.legal.get(rng.gen_range(0..t.legal.len().max(1))) else {
            return Err(format!("deal {deal}: no legal action and no end"));
        };
        let started = Instant::now();
        t = api
            .expect(
                200,
                Method::POST,
                &play,
                Some(&PlayAction { deal, action }),
                Some(&e.token),
            )
            .await?;
        let took = micros(started);
        if t.deal == deal {
            figures.lock().await.action.record(took);
            continue;
        }
        let started = Instant::now();
        let _: TournamentPage = api
            .expect(200, Method::GET, &page, None::<&()>, Some(&e.token))
            .await?;
        let read = micros(started);
        {
            let mut f = figures.lock().await;
            f.ending.record(took);
            f.page.record(read);
            f.deals += 1;
        }
        if t.deal < t.deals {
            t = api
                .expect(200, Method::GET, &play, None::<&()>, Some(&e.token))
                .await?;
        }
    }
    figures.lock().await.finished += 1;
    Ok(())
}

/// The server's CPU seconds so far (user + system, `/proc/PID/stat`, 100 ticks a second).
#[must_use]
pub fn cpu_secs(pid: u32) -> Option<f64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = text.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// Runs `plan` against the server at `addr` (`pid` its process, for the CPU).
///
/// # Errors
/// A message if the tournament cannot be made.
pub async fn run_tournament(
    addr: &str,
    plan: &TournamentPlan,
    pid: Option<u32>,
) -> Result<TournamentReport, String> {
    let api = Api::new(addr);
    let body = json!({
        "name": "Load", "preset": "sochi", "level": plan.level,
        "deals": plan.deals, "hours": 24,
    });
    let made: TournamentCreated = api
        .expect(201, Method::POST, "/api/tournaments", Some(&body), None)
        .await?;
    let figures = Arc::new(Mutex::new(Figures::default()));
    let gate = Arc::new(Semaphore::new(plan.at_once.max(1)));
    let cpu_before = pid.and_then(cpu_secs);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for n in 0..plan.entrants {
        let (api, id, figures, gate) = (
            api.clone(),
            made.id.clone(),
            Arc::clone(&figures),
            Arc::clone(&gate),
        );
        let seed = plan.seed;
        tasks.push(tokio::spawn(async move {
            let Ok(_one) = gate.acquire().await else {
                return;
            };
            if let Err(e) = entrant(api, id, n, seed, Arc::clone(&figures)).await {
                eprintln!("entrant {n}: {e}");
                figures.lock().await.errors += 1;
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let secs = started.elapsed().as_secs_f64();
    let cpu = cpu_before.zip(pid.and_then(cpu_secs)).map(|(a, b)| b - a);
    let f = Arc::try_unwrap(figures)
        .map_err(|_| "figures still shared")?
        .into_inner();
    Ok(TournamentReport {
        finished: f.finished,
        deals_played: f.deals,
        secs,
        finished_per_minute: f.finished as f64 * 60.0 / secs.max(1e-9),
        cpu_per_deal_ms: cpu.map(|c| c * 1000.0 / (f.deals.max(1) as f64)),
        ending: f.ending,
        action: f.action,
        page: f.page,
        errors: f.errors,
    })
}

impl std::fmt::Display for TournamentReport {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let q = |h: &Histogram, p: f64| h.quantile(p) as f64 / 1000.0;
        writeln!(
            out,
            "entrants finished: {} in {:.1} s ({:.1} a minute); deals played: {}; errors: {}",
            self.finished, self.secs, self.finished_per_minute, self.deals_played, self.errors
        )?;
        for (name, h) in [
            ("deal-ending action (standings updated)", &self.ending),
            ("other action (bots' replies)", &self.action),
            ("page with standings", &self.page),
        ] {
            writeln!(
                out,
                "{name}: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} samples)",
                q(h, 0.5),
                q(h, 0.99),
                h.max() as f64 / 1000.0,
                h.len()
            )?;
        }
        match self.cpu_per_deal_ms {
            Some(c) => writeln!(out, "server CPU per deal played: {c:.1} ms"),
            None => writeln!(out, "server CPU per deal played: unknown (no process id)"),
        }
    }
}
