//! The analysis routes: a finished deal of a table, and a deal of an uploaded record.

use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use std::sync::Arc;

use pref_core::Record;

use crate::analysis::Analyses;
use crate::api::budgets::Budgets;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::table_id;
use crate::ids::Secret;
use crate::table::command::Command;
use crate::table::registry::Registry;

/// What the analysis routes need of the server's state (taken from it by `FromRef`, so
/// that this module does not depend on the router's).
#[derive(Clone, Debug)]
pub(crate) struct AnalysisState {
    /// The open tables, whose finished deals are analysed.
    pub tables: Arc<Registry>,
    /// The analyses' lane and cache.
    pub analyses: Arc<Analyses>,
    /// The budgets of each client.
    pub budgets: Arc<Budgets>,
    /// `limits.analysis_max_record_bytes`.
    pub max_record_bytes: usize,
}

/// The analysis of a finished deal, once its cards may be seen by every viewer (the same
/// for a seat and a spectator, so no token is asked for).
pub(crate) async fn deal_analysis(
    State(s): State<AnalysisState>,
    Path((id, deal)): Path<(String, String)>,
    client: Client,
) -> Result<Response, ApiError> {
    let (id, deal, record) = shown_deal(&s, &id, &deal).await?;
    // A deal analysed lately costs nothing; a new one is the client's to spend.
    let text = match s.analyses.cached(id, deal).await {
        Some(text) => text,
        None => {
            s.budgets.deal_analyses.spend(client)?;
            s.analyses.table_deal(id, deal, *record).await?
        }
    };
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        text.to_string(),
    )
        .into_response())
}

/// Table `id`'s record for finished deal `deal` (both as the path writes them), once every
/// card of the deal may be seen by every viewer; with the id and the deal's number read.
///
/// # Errors
/// A bad id or number, an unknown table, or the deal not finished or still hidden.
pub(crate) async fn shown_deal(
    s: &AnalysisState,
    id: &str,
    deal: &str,
) -> Result<(Secret, usize, Box<Record>), ApiError> {
    let id = table_id(id)?;
    let deal = deal_number(Some(deal))?;
    let handle = s.tables.open(&id).await?;
    let record = handle
        .ask(|reply| Command::DealRecord { deal, reply })
        .await??;
    Ok((id, deal, record))
}

/// A deal's number from the path or the query, from 0 (the first when absent).
fn deal_number(text: Option<&str>) -> Result<usize, ApiError> {
    text.map_or(Ok(0), |t| {
        t.parse()
            .map_err(|_| ApiError::BadRequest(format!("the deal number {t:?} is not a number")))
    })
}

/// The analysis of one deal of an uploaded `pref-record/1`.
pub(crate) async fn record_analysis(
    State(s): State<AnalysisState>,
    RawQuery(query): RawQuery,
    client: Client,
    bytes: Result<axum::body::Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (text, deal) = uploaded(&s, query.as_deref(), bytes)?;
    s.budgets.uploads.spend(client)?;
    let doc = s.analyses.upload(text, deal).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], doc).into_response())
}

/// An uploaded record's text and the deal its query names (`deal=N`, the first without it).
///
/// # Errors
/// A body over `limits.analysis_max_record_bytes` or not UTF-8, or a query with another
/// parameter or a deal that is not a number.
pub(crate) fn uploaded(
    s: &AnalysisState,
    query: Option<&str>,
    bytes: Result<axum::body::Bytes, BytesRejection>,
) -> Result<(String, usize), ApiError> {
    let bytes = bytes.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::TooLarge(format!(
            "a record is read up to {} KiB",
            s.max_record_bytes / 1024
        )),
        _ => ApiError::BadRequest(e.body_text()),
    })?;
    let mut deal = None;
    for pair in query.unwrap_or_default().split('&') {
        match pair.split_once('=') {
            Some(("deal", n)) => deal = Some(n),
            _ if pair.is_empty() => {}
            _ => {
                return Err(ApiError::BadRequest(format!(
                    "unknown query parameter {pair:?}; only deal=N is read"
                )));
            }
        }
    }
    let deal = deal_number(deal)?;
    let text = String::from_utf8(bytes.to_vec())
        .map_err(|_| ApiError::BadRequest("the record is not UTF-8 text".into()))?;
    Ok((text, deal))
}
