//! A player's page, readable by anyone unless the player hid it: `GET /api/players/{name}`
//! (the head and the games in progress), `…/games?before=N` (every game, newest first, a
//! page at a time) and `…/stats` (the figures of his finished games).
//!
//! The figures are the rules core's (`pref_core::stats::of_record` on the game's record),
//! counted by the write that ends the game (`store::Store::set_over`): the game's figures
//! and settlement are stored and added to the player's running sum in that transaction, so
//! a request reads the sum and the settlements, never a record. A game whose end was stored
//! without them (that write failed after the game's last action stood) is counted here, at
//! most `accounts.stats_games_per_request` a request.

use std::sync::Arc;

use axum::extract::{FromRef, Path, Query, State};
use axum::http::HeaderMap;
use axum::routing::get;
use axum::{Json, Router};
use pref_core::Profile;
use pref_core::stats::{self, SeatStats, ratio_from_text, ratio_to_text};
use pref_protocol::{
    AccuracyFigures, BalancePoint, GameEntry, GameLinks, GamePlayer, GamesPage, LevelFigures,
    MisereFigures, PlayerProfile, PlayerStats, RaspasyFigures, TablePlayers, WhistFigures,
};
use serde::Deserialize;

use super::store::{AccountRow, GameRow, SeatRow};
use super::{Accounts, folded, now, session};
use crate::api::error::ApiError;
use crate::api::table_id;
use crate::ids::Secret;
use crate::store::SeatFigures;
use crate::table::command::Command;

pub(super) fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Accounts>: FromRef<S>,
{
    Router::new()
        .route("/api/players/{name}", get(profile))
        .route("/api/players/{name}/games", get(games))
        .route("/api/players/{name}/stats", get(player_stats))
        .route("/api/tables/{id}/players", get(table_players))
}

/// The live account named `name`, if its page may be read by this request's viewer (the
/// player himself always may).
pub(super) async fn page_of(
    a: &Accounts,
    name: &str,
    headers: &HeaderMap,
) -> Result<AccountRow, ApiError> {
    let account = a
        .store
        .account_named(&folded(name))
        .await?
        .ok_or(ApiError::NoPlayer)?;
    if account.hidden {
        let viewer = session::signed_in(a, headers).await?;
        if viewer.is_none_or(|v| v.account.no != account.no) {
            return Err(ApiError::PageHidden);
        }
    }
    Ok(account)
}

/// Counts the player's finished games whose end did not count them (at most a request's
/// share).
async fn refresh(a: &Accounts, account: i64) -> Result<(), ApiError> {
    let pending = a
        .store
        .uncounted(account, a.settings.stats_games_per_request)
        .await?;
    for (table, seat) in pending {
        let Some(id) = Secret::parse(&table) else {
            continue;
        };
        // A table that cannot be opened now (being rebuilt, moving) is counted on a later
        // request. The table's figures are its end's own: a seat away on the clock's
        // autopilot at the end (the clock replayed from the stored actions) abandoned it.
        let game = match a.tables.open(&id).await {
            Ok(handle) => handle.ask(Command::EndFigures).await,
            Err(e) => Err(e),
        };
        // A finished game without a record (no deal was played) or whose record does not
        // replay (a bug, logged) has no figures: counted as empty (and not rated), so that
        // it does not hold the others back.
        let game = match game {
            Ok(game) => game,
            Err(e) => {
                tracing::warn!(error = %e, "a finished game is not counted yet");
                continue;
            }
        };
        let figures = game
            .iter()
            .find(|f| f.seat == seat)
            .cloned()
            .unwrap_or_else(|| empty(seat));
        a.store
            .count_game(account, &table, now(), (&figures, &game))
            .await?;
    }
    Ok(())
}

/// A game counted with no figures.
fn empty(seat: u8) -> SeatFigures {
    SeatFigures {
        seat,
        result: None,
        stats: SeatStats::default(),
        abandoned: false,
    }
}

/// The preset a stored profile is closest to.
fn preset_of(profile: &str) -> String {
    serde_json::from_str(profile)
        .ok()
        .and_then(|v| Profile::from_resolved(&v).ok())
        .and_then(|p| crate::table::machine::nearest_preset(&p))
        .unwrap_or_default()
}

/// Who sits at `table`, as a listed game shows it.
fn players_at(table: &str, seats: &[SeatRow]) -> Vec<GamePlayer> {
    seats
        .iter()
        .filter(|s| s.table == table)
        .map(|s| {
            let deleted = s.account.as_ref().is_some_and(|(_, d)| *d);
            GamePlayer {
                seat: s.seat,
                name: (!deleted).then(|| s.name.clone()),
                account: s
                    .account
                    .as_ref()
                    .filter(|(_, d)| !d)
                    .map(|(n, _)| n.clone()),
                deleted,
                bot: s.bot.clone(),
                bot_account: s.bot_account,
            }
        })
        .collect()
}

fn entry(row: &GameRow, seats: &[SeatRow]) -> GameEntry {
    let players = players_at(&row.table, seats);
    GameEntry {
        table: row.table.clone(),
        seat: row.seat,
        date: row.at,
        phase: row.state.clone(),
        profile: preset_of(&row.profile),
        players,
        result: row.result.clone(),
        links: GameLinks {
            table: format!("/t/{}", row.table),
            record: format!("/api/tables/{}/record", row.table),
            analysis: format!("/t/{}/analysis/0", row.table),
        },
    }
}

/// The entries of `rows`, with who sits at each table.
async fn entries(a: &Accounts, rows: &[GameRow]) -> Result<Vec<GameEntry>, ApiError> {
    let tables: Vec<String> = rows.iter().map(|r| r.table.clone()).collect();
    let seats = a.store.seats_of(&tables).await?;
    Ok(rows.iter().map(|r| entry(r, &seats)).collect())
}

/// Who sits at a table, with the accounts of signed-in players' seats (`404 no_table` for an
/// id no table has, as the table's summary answers).
async fn table_players(
    State(a): State<Arc<Accounts>>,
    Path(id): Path<String>,
) -> Result<Json<TablePlayers>, ApiError> {
    let id = table_id(&id)?.expose();
    let seats = a.store.seats_of(std::slice::from_ref(&id)).await?;
    if seats.is_empty() && !a.store.table_exists(&id).await? {
        return Err(ApiError::NoTable);
    }
    Ok(Json(TablePlayers {
        players: players_at(&id, &seats),
    }))
}

async fn profile(
    State(a): State<Arc<Accounts>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Result<Json<PlayerProfile>, ApiError> {
    let account = page_of(&a, &name, &headers).await?;
    let rows = a
        .store
        .games(account.no, i64::MAX, a.settings.games_page, Some(false))
        .await?;
    Ok(Json(PlayerProfile {
        name: account.name,
        created: account.created,
        games: u64::try_from(a.store.game_count(account.no).await?).unwrap_or(0),
        in_progress: entries(&a, &rows).await?,
        bot: account.bot,
    }))
}

/// `?before=N`: the page below the link numbered `N`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Before {
    before: Option<i64>,
}

async fn games(
    State(a): State<Arc<Accounts>>,
    Path(name): Path<String>,
    Query(q): Query<Before>,
    headers: HeaderMap,
) -> Result<Json<GamesPage>, ApiError> {
    let account = page_of(&a, &name, &headers).await?;
    refresh(&a, account.no).await?;
    let page = a.settings.games_page.max(1);
    let rows = a
        .store
        .games(account.no, q.before.unwrap_or(i64::MAX), page, None)
        .await?;
    let next = (rows.len() == page as usize)
        .then(|| rows.last().map(|r| r.no))
        .flatten();
    Ok(Json(GamesPage {
        games: entries(&a, &rows).await?,
        next,
    }))
}

/// An exact share as text (`ratio_to_text`'s form), `None` where there is none.
fn text(r: Option<impl std::fmt::Display>) -> Option<String> {
    r.map(|r| r.to_string())
}

/// The page's figures from the running sum and the games' settlements, oldest first, with
/// at most `points` points of the balance over time.
pub(super) fn figures(
    name: String,
    t: &SeatStats,
    results: Vec<super::store::ResultRow>,
    points: usize,
) -> PlayerStats {
    let f = t.figures();
    let levels = t
        .levels
        .iter()
        .zip(f.made_share)
        .zip(stats::LOWEST_LEVEL..)
        .map(|((l, share), level)| LevelFigures {
            level,
            played: l.played,
            made: l.made,
            made_share: text(share),
        })
        .collect();
    let settled: Vec<_> = results
        .into_iter()
        .filter_map(|r| Some((r.counted, ratio_from_text(r.result.as_deref()?)?)))
        .collect();
    let running = stats::running_balance(settled.iter().map(|&(_, b)| b));
    let n = running.len();
    let step = n.div_ceil(points.max(1)).max(1);
    let over_time = running
        .iter()
        .zip(&settled)
        .enumerate()
        .filter(|(i, _)| (i + 1) % step == 0 || i + 1 == n)
        .map(|(i, (balance, (date, _)))| BalancePoint {
            games: u64::try_from(i + 1).unwrap_or(u64::MAX),
            date: *date,
            balance: ratio_to_text(balance),
        })
        .collect();
    PlayerStats {
        name,
        games: t.games,
        deals: t.deals,
        declared: t.declared,
        declared_share: text(f.declared_share),
        levels,
        misere: MisereFigures {
            played: t.misere_played,
            caught: t.misere_caught,
        },
        whists: WhistFigures {
            made: t.whists,
            kept: t.whists_kept,
            success: text(f.whist_success),
            written: t.whist_points,
            per_deal: text(f.whists_per_deal),
            per_game: text(f.whists_per_game),
        },
        raspasy: RaspasyFigures {
            played: t.raspasy,
            share: text(f.raspasy_share),
            tricks: t.raspasy_tricks,
            average_tricks: text(f.raspasy_average_tricks),
        },
        accuracy: AccuracyFigures {
            deals: t.analysed_deals,
            tricks_lost: t.tricks_lost,
            per_deal: text(f.tricks_lost_per_deal),
        },
        balance: ratio_to_text(&t.balance),
        over_time,
    }
}

async fn player_stats(
    State(a): State<Arc<Accounts>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Result<Json<PlayerStats>, ApiError> {
    let account = page_of(&a, &name, &headers).await?;
    refresh(&a, account.no).await?;
    let totals = a.store.totals(account.no).await?;
    let results = a.store.results(account.no).await?;
    Ok(Json(figures(
        account.name,
        &totals,
        results,
        a.settings.balance_points,
    )))
}
