//! A finished deal's hands position by position, for stepping through it once its cards may
//! be seen by everybody (`GET /api/tables/{id}/deals/{n}/hands`), or of a record the viewer
//! opened from a file (`POST /api/analysis/hands?deal=N`, whose cards are the viewer's own
//! already): every hand as it stood
//! before each trick was led, the talon, the discard and what was left unplayed at the end
//! (after a claim or a surrender). The deal's actions are replayed through the rules here,
//! so a client steps through positions without knowing who takes the talon or what a
//! discard removes. The same rule as the analysis decides when it is served
//! ([`crate::table::machine::Machine::deal_record`]): at the deal's end where
//! `reveal_after_deal` shows the hands, otherwise once the game is over; a seat is told no
//! more than a spectator.

use axum::Json;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, RawQuery, State};
use pref_core::{Action, Card, CardSet, Deal, DealEntry, Record, Seat};
use serde::Serialize;

use crate::analysis::http::{AnalysisState, shown_deal, uploaded};
use crate::analysis::read_upload;
use crate::api::client::Client;
use crate::api::error::ApiError;

/// A finished deal's cards at each position of its play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct DealHands {
    /// The deal's index in the record, from 0.
    pub deal: usize,
    /// The hands as dealt, index = seat (empty for a four-player dealer).
    pub dealt: Vec<CardSet>,
    /// The two talon cards.
    pub talon: [Card; 2],
    /// The declarer's discard (empty when there was none).
    pub discard: CardSet,
    /// Before each trick, in order: the cards each seat held when it was led, index = seat.
    pub tricks: Vec<Vec<CardSet>>,
    /// The cards each seat still held when the deal ended (all empty for a deal played out).
    pub left: Vec<CardSet>,
}

/// Why a deal's hands cannot be given, its cards aside (the table decides those).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum HandsError {
    /// The deal was scored from its outcome alone: it has no cards.
    #[error("deal {0} was scored from its outcome: it has no cards to step through")]
    Scored(usize),
    /// The record has no such deal.
    #[error("the record has no deal {0}")]
    NoDeal(usize),
    /// The record's actions did not replay (a record read or exported always does).
    #[error("deal {deal} does not replay: {why}")]
    Replay {
        /// The deal.
        deal: usize,
        /// What the rules said.
        why: String,
    },
}

impl From<HandsError> for ApiError {
    fn from(e: HandsError) -> ApiError {
        match e {
            HandsError::Scored(_) | HandsError::NoDeal(_) => ApiError::Conflict(e.to_string()),
            HandsError::Replay { .. } => ApiError::Internal(e.to_string()),
        }
    }
}

impl DealHands {
    /// The hands of deal `deal` of `record`, replayed from the deals before it (which give
    /// its dealer and the raspasy streak that sets its lowest bid, R3.3).
    ///
    /// # Errors
    /// [`HandsError`]: no such deal, a deal scored from its outcome, or one that does not
    /// replay.
    pub(crate) fn of(record: &Record, deal: usize) -> Result<DealHands, HandsError> {
        let mut found = None;
        let mut streak = 0;
        let replayed = record.replay(|i, game| {
            if i == deal {
                found = Some((game.history()[i].clone(), streak));
            }
            streak = game.raspasy_streak();
        });
        let replay = |why: String| HandsError::Replay { deal, why };
        replayed.map_err(|e| replay(e.to_string()))?;
        let (entry, streak) = found.ok_or(HandsError::NoDeal(deal))?;
        let DealEntry::Played {
            dealer,
            hands,
            talon,
            actions,
            ..
        } = entry
        else {
            return Err(HandsError::Scored(deal));
        };
        let players = usize::from(record.profile().players());
        let dealt: Vec<CardSet> = hands[..players].to_vec();
        let lists: Vec<Vec<Card>> = dealt.iter().map(|h| h.iter().collect()).collect();
        let mut play = Deal::from_hands(record.profile(), dealer, &lists, &talon, streak)
            .map_err(|e| replay(e.to_string()))?;
        let held =
            |d: &Deal| -> Vec<CardSet> { (0..players).map(|s| d.hand(Seat(s as u8))).collect() };
        let mut tricks = Vec::new();
        for &(seat, action) in &actions {
            // A trick's position is taken before its first card from a hand (on four-player
            // raspasy the dealer's talon card is on the table already).
            if matches!(action, Action::Play(_)) && play.completed_tricks().len() == tricks.len() {
                tricks.push(held(&play));
            }
            play.apply(seat, action)
                .map_err(|e| replay(e.to_string()))?;
        }
        Ok(DealHands {
            deal,
            dealt,
            talon,
            discard: play.discard(),
            tricks,
            left: held(&play),
        })
    }
}

/// The hands of a table's finished deal, once its cards may be seen by every viewer (the
/// same answer for a seat and a spectator, so no token is asked for).
pub(crate) async fn deal_hands(
    State(s): State<AnalysisState>,
    Path((id, deal)): Path<(String, String)>,
) -> Result<Json<DealHands>, ApiError> {
    let (_, deal, record) = shown_deal(&s, &id, &deal).await?;
    Ok(Json(DealHands::of(&record, deal)?))
}

/// The hands of a deal of an uploaded `pref-record/1` (the analysis page's file): the same
/// answer as a table's, for a record whose every card its sender holds already. A replay
/// costs no solver time, but reading the record is an upload like the analysis's, spent from
/// the same budget.
///
/// # Errors
/// A body or query [`uploaded`] refuses, a spent budget, a record that does not read, a
/// deal it does not have (400) or one scored from its outcome (409).
pub(crate) async fn record_hands(
    State(s): State<AnalysisState>,
    RawQuery(query): RawQuery,
    client: Client,
    bytes: Result<axum::body::Bytes, BytesRejection>,
) -> Result<Json<DealHands>, ApiError> {
    let (text, deal) = uploaded(&s, query.as_deref(), bytes)?;
    s.budgets.uploads.spend(client)?;
    let record = read_upload(&text, deal)?;
    Ok(Json(DealHands::of(&record, deal)?))
}

#[cfg(test)]
mod tests;
