//! `pref`, the project's command line.
//!
//! - `pref replay FILE`: reads a game record (`pref-record/1`), checks every deal against the
//!   rules and prints the score sheet after each deal, then the settlement.
//! - `pref replay --json FILE`: the same as one JSON object (the spec's replay summary).
//! - `pref verify FILE`: recomputes every deal's deck from the record's fairness data
//!   (`docs/fairness.md`) and prints one line per verified deal.
//! - `pref analyze FILE [--json] [--deal N]`: every card of the played deals valued by the
//!   exact solver, the par and each seat's best contract (`docs/analysis.md`).
//!
//! A record that cannot be read, breaks a rule, or (for `verify`) has a deal that cannot be
//! verified prints one line on stderr saying where and why, nothing on stdout, and exits with
//! status 2. The commands live in their own files; this one only parses the arguments and
//! turns results into exit codes.

mod analyze;
mod replay;
mod summary;
mod table;
mod verify;

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Preferans tools.
#[derive(Parser)]
#[command(name = "pref", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay a game record: check every deal and print the score sheet after each.
    Replay {
        /// Print one JSON object (deals, pool, mountain, whists, finished, settlement).
        #[arg(long)]
        json: bool,
        /// The record file (`pref-record/1` JSON).
        file: PathBuf,
    },
    /// Verify a game record's deals: recompute each deck from the server seed and the
    /// players' contributions, and check the commitments, hands, talon and play.
    Verify {
        /// The record file (`pref-record/1` JSON).
        file: PathBuf,
    },
    /// Analyse a record's played deals: what each card cost, the par, each seat's best
    /// contract (exact open-hand solver).
    Analyze {
        /// Print one `pref-analysis/1` JSON object.
        #[arg(long)]
        json: bool,
        /// Only this deal (0-based, as in the record's error messages).
        #[arg(long)]
        deal: Option<usize>,
        /// The record file (`pref-record/1` JSON).
        file: PathBuf,
    },
}

/// Exit status for a record that cannot be replayed or verified (and for bad arguments, as clap does).
const INVALID: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Replay { json, file } => replay::run(&file).map(|r| {
            if json {
                summary::render(&r)
            } else {
                table::render(&r)
            }
        }),
        Command::Verify { file } => verify::run(&file),
        Command::Analyze { json, deal, file } => analyze::run(&file, json, deal),
    };
    match result {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            // A closed pipe (`pref replay x | head`) is not worth a panic or a message.
            match stdout
                .write_all(out.as_bytes())
                .and_then(|()| stdout.flush())
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            }
        }
        Err(line) => {
            let _ = writeln!(std::io::stderr(), "{line}");
            ExitCode::from(INVALID)
        }
    }
}
