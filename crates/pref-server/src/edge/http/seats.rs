//! Taking a seat and leaving it.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, header};
use pref_protocol::{Claim, Claimed, Left};

use super::AppState;
use crate::api::error::ApiError;
use crate::api::{bearer, body, table_id};
use crate::ids::Secret;
use crate::table::command::Command;

pub(super) async fn claim_seat(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<Claimed>, ApiError> {
    let handle = s.tables.open(&table_id(&id)?).await?;
    let req: Claim = body(&bytes)?;
    // A rated table seats signed-in accounts only, each at one rated table at a time: the
    // seat's write claims the account's one rated seat (`store/rated.rs`).
    let rated = handle.ask(Command::Summary).await?.rated.is_some();
    // A bot account signed in by its API token (`docs/bot-api.md`).
    if let Some(bot) = crate::accounts::bot_api::bot_of(&s.accounts, &headers).await? {
        let table = table_id(&id)?;
        let invited = crate::accounts::bot_api::invited(&s.accounts, &bot, &table).await?;
        let invite = req
            .invite
            .map(|k| Secret::parse(&k).ok_or(ApiError::InviteRequired))
            .transpose()?;
        let name = bot.account.name.clone();
        let (seat, token) = handle
            .ask(|reply| Command::BotClaim {
                name,
                seat: req.seat,
                invite,
                invited,
                account: bot.account.no,
                reply,
            })
            .await??;
        crate::accounts::bot_api::tie(&s.accounts, &bot, &table, seat, &token).await?;
        return Ok(Json(Claimed {
            seat,
            token: token.expose(),
        }));
    }
    let host = headers
        .contains_key(header::AUTHORIZATION)
        .then(|| bearer(&headers))
        .transpose()?;
    // At a public table in the lobby anybody may sit: the server holds its invite key.
    let public = s.lobby.public_key(&id).await?;
    let invite = req
        .invite
        .or_else(|| public.clone())
        .map(|k| Secret::parse(&k).ok_or(ApiError::InviteRequired))
        .transpose()?;
    // A signed-in player sits under his user name, and the seat is tied to his account.
    let signed = crate::accounts::for_claim(&s.accounts, &headers).await?;
    if signed.as_ref().is_some_and(|a| a.account.bot) {
        return Err(ApiError::Conflict(
            "a bot account takes seats with its API token (docs/bot-api.md)".into(),
        ));
    }
    let account = signed.as_ref().map(|a| a.account.no);
    if rated {
        crate::accounts::rated::may_sit(account)?;
    }
    let name = signed.as_ref().map_or(req.name, |a| a.account.name.clone());
    let (seat, token) = handle
        .ask(|reply| Command::Claim {
            name,
            seat: req.seat,
            host,
            invite,
            account,
            reply,
        })
        .await??;
    if let Some(signed) = &signed {
        crate::accounts::tie(&s.accounts, signed, &table_id(&id)?, seat, &token).await?;
    }
    if public.is_some() {
        s.lobby.changed().await;
    }
    Ok(Json(Claimed {
        seat,
        token: token.expose(),
    }))
}

pub(super) async fn leave(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Left>, ApiError> {
    let handle = s.tables.open(&table_id(&id)?).await?;
    let token = bearer(&headers)?;
    handle
        .ask(|reply| Command::Leave { token, reply })
        .await??;
    Ok(Json(Left { left: true }))
}
