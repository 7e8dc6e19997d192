//! The ratings' reads and routes (`docs/ratings.md`, `docs/protocol.md` "Ratings"): a rated
//! table's seats with their ratings and, once the game is rated, its changes
//! (`GET /api/tables/{id}/ratings`); a family's leaderboard of people or of bots, never
//! mixed, of the accounts active in the last 30 days (`GET /api/ratings/{family}`); and a
//! player's ratings with their history (`GET /api/players/{name}/ratings`). The rows are
//! written by the game's end (`store/rated.rs`); these are indexed reads, a page at a time.

use std::sync::Arc;

use axum::extract::{FromRef, Path, Query, State};
use axum::http::HeaderMap;
use axum::routing::get;
use axum::{Json, Router};
use pref_protocol::{
    FamilyRating, LeaderRow, Leaderboard, PlayerRatings, RatingPoint, RatingShown, SeatRating,
    TableRatings,
};
use pref_rating::{Family, Params, Rating};
use serde::Deserialize;

use super::{Accounts, now};
use crate::api::error::ApiError;
use crate::api::table_id;
use crate::store::{Pool, with_pool};

/// How long a player stays on the boards after his last rated game.
const ACTIVE_SECS: i64 = 30 * 86_400;

pub(super) fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Accounts>: FromRef<S>,
{
    Router::new()
        .route("/api/ratings/{family}", get(leaderboard))
        .route("/api/players/{name}/ratings", get(player_ratings))
        .route("/api/tables/{id}/ratings", get(table_ratings))
}

fn db(e: sqlx::Error) -> ApiError {
    ApiError::Internal(e.to_string())
}

/// A rating as shown.
fn shown(r: &Rating) -> RatingShown {
    RatingShown {
        rating: r.shown(),
        deviation: r.shown_deviation(),
        games: r.games,
        provisional: r.provisional(),
    }
}

fn rating(mu: f64, sigma: f64, games: i64) -> Rating {
    Rating {
        mu,
        sigma,
        games: u32::try_from(games).unwrap_or(u32::MAX),
    }
}

/// A stored rating row's shown form (`None`s: no row yet, a new player's rating).
pub(crate) fn stored(mu: Option<f64>, sigma: Option<f64>, games: Option<i64>) -> RatingShown {
    match (mu, sigma, games) {
        (Some(mu), Some(sigma), Some(games)) => shown(&rating(mu, sigma, games)),
        _ => shown(&Rating::new(&Params::STANDARD)),
    }
}

fn family(name: &str) -> Result<Family, ApiError> {
    Family::parse(name).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "no rating family {name:?}: sochi, leningrad, rostov or four"
        ))
    })
}

/// A seat's row: seat, name, the rating now (mu, sigma, games) and the game's history row
/// (mu before, mu after, sigma after, games after).
type SeatRow = (
    i64,
    String,
    Option<f64>,
    Option<f64>,
    Option<i64>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<i64>,
);

async fn table_ratings(
    State(a): State<Arc<Accounts>>,
    Path(id): Path<String>,
) -> Result<Json<TableRatings>, ApiError> {
    let id = table_id(&id)?.expose();
    let fam: Option<String> = with_pool!(a.store.pool(), pool => {
        sqlx::query_scalar(
            "SELECT r.family FROM rated_tables r JOIN tables t ON t.no = r.table_no WHERE t.id = $1",
        )
        .bind(&id)
        .fetch_optional(pool)
        .await
        .map_err(db)?
    });
    let fam = fam.ok_or_else(|| ApiError::Conflict("this table is not rated".into()))?;
    let sql = "SELECT a.seat, ac.name, r.mu, r.sigma, r.games,
                      c.mu_before, c.mu_after, c.sigma_after, c.games
               FROM account_seats a
               JOIN tables t ON t.id = a.table_id
               JOIN seats s ON s.table_no = t.no AND s.seat = a.seat AND s.token = a.token_hash
               JOIN accounts ac ON ac.no = a.account_no
               LEFT JOIN ratings r ON r.account_no = a.account_no AND r.family = $2
               LEFT JOIN rating_changes c ON c.account_no = a.account_no AND c.table_id = a.table_id
               WHERE a.table_id = $1 ORDER BY a.seat";
    let rows: Vec<SeatRow> = with_pool!(a.store.pool(), pool => {
        sqlx::query_as(sql).bind(&id).bind(&fam).fetch_all(pool).await.map_err(db)?
    });
    let params = Params::STANDARD;
    let seats = rows
        .into_iter()
        .map(
            |(seat, name, mu, sigma, games, before, after, sigma_after, games_after)| {
                let (now, change) = match (before, after, sigma_after, games_after) {
                    (Some(before), Some(after), Some(sigma), Some(games)) => {
                        let old = rating(before, sigma, games).shown();
                        let new = rating(after, sigma, games);
                        (new, Some(new.shown() - old))
                    }
                    _ => match (mu, sigma, games) {
                        (Some(mu), Some(sigma), Some(games)) => (rating(mu, sigma, games), None),
                        _ => (Rating::new(&params), None),
                    },
                };
                SeatRating {
                    seat: u8::try_from(seat).unwrap_or(u8::MAX),
                    name,
                    rating: shown(&now),
                    change,
                }
            },
        )
        .collect();
    Ok(Json(TableRatings { family: fam, seats }))
}

/// `?kind=people|bots&offset=N`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardQuery {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    offset: Option<u32>,
}

async fn leaderboard(
    State(a): State<Arc<Accounts>>,
    Path(name): Path<String>,
    Query(q): Query<BoardQuery>,
) -> Result<Json<Leaderboard>, ApiError> {
    let fam = family(&name)?;
    let kind = q.kind.unwrap_or_else(|| "people".into());
    let bot: i64 = match kind.as_str() {
        "people" => 0,
        "bots" => 1,
        other => {
            return Err(ApiError::BadRequest(format!(
                "no board {other:?}: people or bots"
            )));
        }
    };
    let page = a.settings.leaderboard_page.max(1);
    let offset = q.offset.unwrap_or(0);
    let sql = "SELECT ac.name, r.mu, r.sigma, r.games, r.last_played FROM ratings r
               JOIN accounts ac ON ac.no = r.account_no
               WHERE r.family = $1 AND ac.bot = $2 AND r.last_played >= $3
                 AND ac.deleted IS NULL AND ac.hidden = 0
               ORDER BY r.mu DESC, ac.no LIMIT $4 OFFSET $5";
    let rows: Vec<(String, f64, f64, i64, i64)> = with_pool!(a.store.pool(), pool => {
        sqlx::query_as(sql)
            .bind(fam.as_str())
            .bind(bot)
            .bind(now() - ACTIVE_SECS)
            .bind(i64::from(page) + 1)
            .bind(i64::from(offset))
            .fetch_all(pool)
            .await
            .map_err(db)?
    });
    let more = rows.len() > page as usize;
    let players = rows
        .into_iter()
        .take(page as usize)
        .zip(offset.saturating_add(1)..)
        .map(|((name, mu, sigma, games, last_played), place)| LeaderRow {
            place,
            name,
            rating: shown(&rating(mu, sigma, games)),
            last_played,
        })
        .collect();
    Ok(Json(Leaderboard {
        family: fam.as_str().to_owned(),
        kind,
        players,
        next: more.then(|| offset.saturating_add(page)),
    }))
}

async fn player_ratings(
    State(a): State<Arc<Accounts>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Result<Json<PlayerRatings>, ApiError> {
    let account = super::players::page_of(&a, &name, &headers).await?;
    let rows: Vec<(String, f64, f64, i64)> = with_pool!(a.store.pool(), pool => {
        sqlx::query_as("SELECT family, mu, sigma, games FROM ratings WHERE account_no = $1")
            .bind(account.no)
            .fetch_all(pool)
            .await
            .map_err(db)?
    });
    let mut families = Vec::with_capacity(rows.len());
    for f in Family::ALL {
        let Some((_, mu, sigma, games)) = rows.iter().find(|r| r.0 == f.as_str()) else {
            continue;
        };
        let sql = "SELECT table_id, at, mu_before, sigma_before, mu_after, sigma_after, games
                   FROM rating_changes WHERE account_no = $1 AND family = $2
                   ORDER BY at DESC, table_id DESC LIMIT $3";
        let points: Vec<(String, i64, f64, f64, f64, f64, i64)> = with_pool!(a.store.pool(), pool => {
            sqlx::query_as(sql)
                .bind(account.no)
                .bind(f.as_str())
                .bind(i64::from(a.settings.rating_points.max(1)))
                .fetch_all(pool)
                .await
                .map_err(db)?
        });
        let history = points
            .into_iter()
            .rev()
            .map(|(table, at, mu0, sigma0, mu1, sigma1, games)| {
                let before = rating(mu0, sigma0, games - 1);
                let after = rating(mu1, sigma1, games);
                RatingPoint {
                    table,
                    at,
                    rating: after.shown(),
                    deviation: after.shown_deviation(),
                    change: after.shown() - before.shown(),
                }
            })
            .collect();
        families.push(FamilyRating {
            family: f.as_str().to_owned(),
            rating: shown(&rating(*mu, *sigma, *games)),
            history,
        });
    }
    Ok(Json(PlayerRatings {
        bot: account.bot,
        families,
    }))
}
