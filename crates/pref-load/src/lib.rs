//! Load generator for the Preferans table server: opens many tables over real HTTP and
//! WebSocket on loopback, fills them with random-legal players and spectators, plays
//! complete deals for a set time and reports throughput, action-to-broadcast latency,
//! errors, lost or reordered events and the server's memory.
//!
//! - [`plan`]: what a run (or one worker's share of it) does.
//! - `http`: a pooled JSON client for the HTTP API; `client`: one socket, player or
//!   spectator, checking that its versions are gap-free.
//! - [`run`]: one worker's run: set up, wait for the go, play, drain, count.
//! - [`report`]: the figures, mergeable across worker processes; [`histogram`]: latencies;
//!   [`resync`]: which client the sockets imitate and why they got snapshots.
//! - `lobby`: lobby watchers, seekers and the probes that time a lobby change.
//! - [`tournament`]: `pref-load tournament`, many entrants playing one duplicate tournament.
//! - [`server`]: starting the server as a child process and reading its resident memory.
//!
//! The binary (`src/main.rs`) splits a large run over worker processes, because one process
//! may hold only as many sockets as its open-file limit allows, and over several server
//! nodes (each worker on one node), because one server process is bound the same way.

pub mod histogram;
pub mod plan;
pub mod report;
pub mod resync;
pub mod run;
pub mod server;
pub mod tournament;

mod client;
mod http;
mod lobby;

pub use histogram::Histogram;
pub use plan::{LobbyPlan, Plan, Players};
pub use report::{LobbyReport, NodeMemory, Report, ServerMemory};
pub use resync::{Follow, Resyncs};
pub use run::{Setup, run};
