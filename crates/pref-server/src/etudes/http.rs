//! The études routes: the list with the day's étude, one étude, and an attempt's next step.

use std::sync::Arc;

use axum::extract::{FromRef, Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use pref_analysis::{AttemptError, Outcome, Step, attempt};
use pref_bot::Solver;
use pref_core::CardSet;
use pref_protocol::{
    EtudeAttempt, EtudeList, EtudeMoves, EtudeSource, EtudeStatus, EtudeStep, EtudeView,
};

use crate::analysis::Analyses;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::etudes::{Etudes, Listed, store, view};
use crate::store::Store;
use crate::tournaments::daily::date;

/// What the études routes need of the server's state.
#[derive(Clone, Debug)]
pub(crate) struct EtudeState {
    /// The catalogue and the attempts' budget.
    pub etudes: Arc<Etudes>,
    /// The lane the solver's work runs in.
    pub analyses: Arc<Analyses>,
    /// Where the études found in games are kept.
    pub store: Store,
}

/// `GET /api/etudes`, `GET /api/etudes/{id}`, `POST /api/etudes/{id}/attempt`.
pub(crate) fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    EtudeState: FromRef<S>,
{
    Router::new()
        .route("/api/etudes", get(list))
        .route("/api/etudes/{id}", get(one))
        .route("/api/etudes/{id}/attempt", post(step))
}

/// Days since 1970-01-01 in UTC now.
fn today() -> i64 {
    crate::store::now().div_euclid(86_400)
}

async fn list(State(s): State<EtudeState>) -> Result<Json<EtudeList>, ApiError> {
    let day = today();
    let found = store::listed(&s.store).await?;
    Ok(Json(EtudeList {
        daily: s
            .etudes
            .daily(u64::try_from(day).unwrap_or(0))
            .map(|l| l.etude.id.clone())
            .unwrap_or_default(),
        date: date(day),
        etudes: s
            .etudes
            .collection()
            .iter()
            .map(view)
            .chain(found.into_iter().map(|(etude, nodes)| {
                view(&Listed {
                    etude,
                    source: EtudeSource::Game,
                    nodes,
                })
            }))
            .collect(),
    }))
}

/// Étude `id`: of the collection, or found in a game.
async fn find(s: &EtudeState, id: &str) -> Result<Listed, ApiError> {
    if let Some(l) = s.etudes.collection().iter().find(|l| l.etude.id == id) {
        return Ok(l.clone());
    }
    let (etude, nodes) = store::one(&s.store, id).await?.ok_or(ApiError::NoEtude)?;
    Ok(Listed {
        etude,
        source: EtudeSource::Game,
        nodes,
    })
}

async fn one(
    State(s): State<EtudeState>,
    Path(id): Path<String>,
) -> Result<Json<EtudeView>, ApiError> {
    Ok(Json(view(&find(&s, &id).await?)))
}

/// Replays the player's cards against the solver's replies, in the analyses' lane.
async fn step(
    State(s): State<EtudeState>,
    Path(id): Path<String>,
    client: Client,
    bytes: axum::body::Bytes,
) -> Result<Json<EtudeAttempt>, ApiError> {
    let etude = find(&s, &id).await?.etude;
    let moves: EtudeMoves = crate::api::body(&bytes)?;
    // Five tricks of one card each per player at most: a longer list is not an attempt.
    if moves.cards.len() > 20 {
        return Err(ApiError::BadRequest(format!(
            "{} cards sent; an attempt has at most 20",
            moves.cards.len()
        )));
    }
    s.etudes.budget.spend(client)?;
    let nodes = s.etudes.nodes;
    let done = s
        .analyses
        .solve(move || {
            let mut solver = Solver::new();
            solver.set_node_limit(nodes);
            attempt(&etude, &mut solver, &moves.cards)
        })
        .await?;
    match done {
        Ok(a) => {
            let (status, to_play, legal, refutation) = match a.outcome {
                Outcome::Playing { player, legal } => {
                    (EtudeStatus::Playing, Some(player), legal, Vec::new())
                }
                Outcome::Solved => (EtudeStatus::Solved, None, CardSet::EMPTY, Vec::new()),
                Outcome::Lost { line, .. } => (
                    EtudeStatus::Lost,
                    None,
                    CardSet::EMPTY,
                    line.iter().map(wire).collect(),
                ),
            };
            Ok(Json(EtudeAttempt {
                steps: a.steps.iter().map(wire).collect(),
                declarer_tricks: a.declarer_tricks,
                status,
                to_play,
                legal,
                refutation,
            }))
        }
        Err(e @ (AttemptError::NotLegal { .. } | AttemptError::TooMany { .. })) => {
            Err(ApiError::BadRequest(e.to_string()))
        }
        Err(AttemptError::Budget) => Err(ApiError::Busy(
            "the solver's budget for one move ran out; try again later".into(),
        )),
    }
}

fn wire(s: &Step) -> EtudeStep {
    EtudeStep {
        player: s.player,
        card: s.card,
        mine: s.by_player,
    }
}
