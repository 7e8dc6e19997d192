//! `pref-bot`: the server's own bot (`pref-bot`) playing as an outside program through the
//! bot API (`docs/bot-api.md`), with nothing but a bot account's API token: it waits for a
//! host's invitation (or takes a seat by an invite link's key), opens the table's socket
//! with `Authorization: Bearer`, and plays its seat from the view the server sends it,
//! exactly as a browser's player would. That it plays as well as the bots inside the
//! server shows that the API carries everything a strong bot needs.
//!
//! ```text
//! pref-bot --server http://127.0.0.1:8080 --token prefbot_… [--table ID --invite KEY]
//! ```

mod http;
mod play;

use std::time::Duration;

use clap::Parser;
use pref_bot::Level;
use pref_protocol::{Claim, Claimed, Invitations, Me};

use crate::http::Api;

/// The arguments.
#[derive(Debug, Parser)]
#[command(
    name = "pref-bot",
    about = "Plays a seat through the bot API (docs/bot-api.md)"
)]
struct Args {
    /// The server, `http://host:port`.
    #[arg(long)]
    server: String,
    /// The bot account's API token, `prefbot_…`.
    #[arg(long)]
    token: String,
    /// A table's id; without it, wait for a host's invitation.
    #[arg(long)]
    table: Option<String>,
    /// The invite key of the table's invite link (with `--table`).
    #[arg(long)]
    invite: Option<String>,
    /// Stop after this many deals (0: play the game to its end).
    #[arg(long, default_value_t = 0)]
    deals: u32,
    /// `easy`, `normal` or `strong`.
    #[arg(long, default_value = "strong")]
    level: String,
    /// Seconds between checks for an invitation.
    #[arg(long, default_value_t = 2)]
    poll: u64,
}

fn level(name: &str) -> Result<Level, String> {
    match name {
        "easy" => Ok(Level::Easy),
        "normal" => Ok(Level::Normal),
        "strong" => Ok(Level::Strong),
        other => Err(format!("no level {other:?}: easy, normal or strong")),
    }
}

/// Takes a seat: the one a host keeps for the bot, or one by the invite key.
async fn seat(api: &Api, args: &Args) -> Result<(String, u8), String> {
    let (table, kept) = match &args.table {
        Some(t) => (t.clone(), None),
        None => loop {
            let found: Invitations = api.call("GET", "/api/bot/invitations", None::<&()>).await?;
            if let Some(i) = found.invitations.first() {
                break (i.table.clone(), Some(i.seat));
            }
            tokio::time::sleep(Duration::from_secs(args.poll.max(1))).await;
        },
    };
    let claim = Claim {
        name: "bot".into(),
        seat: kept,
        invite: args.invite.clone(),
    };
    let claimed: Claimed = api
        .call("POST", &format!("/api/tables/{table}/seats"), Some(&claim))
        .await?;
    Ok((table, claimed.seat))
}

async fn run(args: Args) -> Result<(), String> {
    let level = level(&args.level)?;
    let api = Api::new(&args.server, &args.token)?;
    let me: Me = api.call("GET", "/api/bot", None::<&()>).await?;
    let (table, seat) = seat(&api, &args).await?;
    println!("{} sits in seat {seat} at {table}", me.name);
    let played = play::play(&api, &table, level, args.deals).await?;
    println!(
        "played {} deals, {} actions{}",
        played.deals,
        played.actions,
        if played.over {
            "; the game is over"
        } else {
            ""
        }
    );
    Ok(())
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    match run(Args::parse()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pref-bot: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
