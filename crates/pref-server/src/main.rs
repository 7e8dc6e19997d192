//! `pref-server`: reads `config/server.toml` (or `PREF_CONFIG`), starts the table server and
//! prints the URL to open; on SIGTERM or SIGINT it shuts down gracefully and exits 0.

use std::path::PathBuf;

use pref_server::config::Config;
use tokio::signal::unix::{SignalKind, signal};

#[tokio::main]
async fn main() -> std::process::ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("PREF_LOG")
                .unwrap_or_else(|_| "info".into()),
        )
        .init();
    let path = std::env::var_os("PREF_CONFIG")
        .map_or_else(|| PathBuf::from("config/server.toml"), PathBuf::from);
    let config = match Config::load(&path) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pref-server: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let data = config.data_dir.display().to_string();
    let mut running = match pref_server::start(config).await {
        Ok(r) => r,
        Err(e) => {
            eprintln!("pref-server: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    tracing::info!(restored = running.restored, data = %data, "tables restored");
    println!("Preferans server running: open http://{}/", running.addr);
    let mut term = match signal(SignalKind::terminate()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("pref-server: cannot watch SIGTERM: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    tokio::select! {
        // The server stopped on its own (its error is logged).
        _ = &mut running.task => return std::process::ExitCode::FAILURE,
        _ = term.recv() => {}
        _ = tokio::signal::ctrl_c() => {}
    }
    tracing::info!("shutting down");
    running.shutdown().await;
    tracing::info!("stopped");
    std::process::ExitCode::SUCCESS
}
