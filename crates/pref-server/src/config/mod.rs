//! Server settings: `config/server.toml`, then environment variables on top.
//!
//! The file is optional (the defaults are the shipped file's values), so the binary also runs
//! from a directory without `config/`. Environment variables win so that tests and
//! deployments can move the port and the data directory without editing files.
//!
//! The settings' types live here, one file per section: [`Limits`] (`limits.rs`), the
//! cluster's [`Cluster`] (`cluster.rs`), the Origin policy and trusted proxies
//! ([`Security`], `security.rs`), the tables' [`Lifecycle`] (`lifecycle.rs`), the
//! [`Accounts`] and their sessions (`accounts.rs`), the duplicate [`Tournaments`]
//! (`tournaments.rs`), the public [`Lobby`] (`lobby.rs`). Spans of time are typed by the unit
//! their key names ([`Millis`], [`Secs`], [`Days`] in `span.rs`), so a `…_ms` value is never
//! read as seconds. `env.rs` holds the one list of settings and reads the `PREF_*`
//! variables. Nothing here imports the server's other modules but the store's database URL
//! and the cores' share (`thinking`), so every layer may read settings.

mod accounts;
mod cluster;
pub mod env;
mod lifecycle;
mod limits;
mod lobby;
mod security;
mod span;
#[cfg(test)]
mod tests;
mod tournaments;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::store::{Database, StoreError};

pub use accounts::Accounts;
pub use cluster::Cluster;
pub use lifecycle::Lifecycle;
pub use limits::Limits;
pub use lobby::Lobby;
pub use security::{BadProxy, Proxy, Security};
pub use span::{Days, Millis, Secs};
pub use tournaments::Tournaments;

/// Everything the server needs to start.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Address to listen on (`127.0.0.1:0` picks a free port, as tests do).
    pub bind: SocketAddr,
    /// Directory of the SQLite database, created if missing (when `database` is unset).
    pub data_dir: PathBuf,
    /// `sqlite://PATH` or `postgres://…`; unset means SQLite in `data_dir/pref.sqlite3`.
    pub database: Option<String>,
    /// Directory of the static web client served at `/`.
    pub web_dir: PathBuf,
    /// Protective limits.
    pub limits: Limits,
    /// Several nodes on one PostgreSQL database (ignored on SQLite).
    pub cluster: Cluster,
    /// Who may open a socket (`docs/security.md`).
    pub security: Security,
    /// How long unused tables stay (`lifecycle.rs`).
    pub lifecycle: Lifecycle,
    /// The cores' share of bots and analyses (`thinking.rs`).
    pub bots: crate::thinking::Thinking,
    /// Accounts, sessions and their limits (`accounts.rs`).
    pub accounts: Accounts,
    /// Duplicate tournaments: the daily one and the limits (`tournaments.rs`).
    pub tournaments: Tournaments,
    /// The public lobby and quick pairing (`lobby.rs`).
    pub lobby: Lobby,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            data_dir: PathBuf::from("data"),
            database: None,
            web_dir: PathBuf::from("web"),
            limits: Limits::default(),
            cluster: Cluster::default(),
            security: Security::default(),
            lifecycle: Lifecycle::default(),
            bots: crate::thinking::Thinking::default(),
            accounts: Accounts::default(),
            tournaments: Tournaments::default(),
            lobby: Lobby::default(),
        }
    }
}

impl Config {
    /// The database to open: `database`, or SQLite in `data_dir`.
    ///
    /// # Errors
    /// [`StoreError::Url`] for a URL of another scheme.
    pub fn database(&self) -> Result<Database, StoreError> {
        match self.database.as_deref().filter(|u| !u.trim().is_empty()) {
            Some(url) => Database::parse(url),
            None => Ok(Database::in_dir(&self.data_dir)),
        }
    }

    /// The lease length (at least 100 ms).
    #[must_use]
    pub fn lease(&self) -> Duration {
        self.cluster.lease_ms.at_least(Duration::from_millis(100))
    }
}

/// Why the settings could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file exists but cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not valid settings TOML.
    #[error("{path}: {source}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// The TOML error, naming the key.
        source: toml::de::Error,
    },
    /// An environment variable holds a value of the wrong type.
    #[error("environment variable {name}={value:?} is not valid: {why}")]
    Env {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
        /// What was expected.
        why: &'static str,
    },
}

impl Config {
    /// Reads `path` if it exists (defaults otherwise), then applies `PREF_*` variables.
    ///
    /// # Errors
    /// [`ConfigError`] for an unreadable or invalid file or a malformed variable.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let mut config = match std::fs::read_to_string(path) {
            Ok(text) => toml::from_str(&text).map_err(|source| ConfigError::Parse {
                path: path.to_owned(),
                source,
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Config::default(),
            Err(source) => {
                return Err(ConfigError::Read {
                    path: path.to_owned(),
                    source,
                });
            }
        };
        config.apply_env(|name| std::env::var(name).ok())?;
        Ok(config)
    }
}
