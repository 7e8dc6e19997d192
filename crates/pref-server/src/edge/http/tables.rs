//! Opening tables (a new one, a rematch and its seats) and reading one: its summary and
//! its `pref-record/1`.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use pref_core::Profile;
use pref_protocol::{CreateTable, Created, Invite, RematchSeated, Summary};
use serde_json::json;

use super::AppState;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::{bearer, body, table_id};
use crate::ids::Secret;
use crate::table::command::{Command, HostRequest};

pub(super) async fn create_table(
    State(s): State<AppState>,
    client: Client,
    bytes: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let req: CreateTable = body(&bytes)?;
    s.budgets.tables.spend(client)?;
    let request = req.profile.unwrap_or_else(|| json!("sochi"));
    let profile = Profile::from_json(&request)?;
    let clock = crate::table::machine::clock::parse(req.clock.as_ref())?;
    let rated = req
        .rated
        .then(|| {
            crate::accounts::rated::family_for(&request, &profile, clock.is_some(), req.practice)
        })
        .transpose()?;
    let host = req
        .name
        .as_deref()
        .map(crate::table::machine::check_name)
        .transpose()?;
    if req.public {
        s.lobby.may_publish(client.0).await?;
    }
    let (mut created, no) = open_with_no(
        &s,
        profile.clone(),
        clock.clone(),
        (req.spectator_chat, req.practice),
    )
    .await?;
    if req.people_only {
        let id = table_id(&created.id)?;
        created.table = s
            .tables
            .get(&id)?
            .ask(|reply| Command::PeopleOnly { reply })
            .await??;
    }
    if let Some(family) = rated {
        let id = table_id(&created.id)?;
        created.table = s
            .tables
            .get(&id)?
            .ask(|reply| Command::Rated { family, reply })
            .await??;
    }
    if req.public {
        let key = created.invite_key().unwrap_or_default();
        s.lobby
            .publish(
                (&created.id, no),
                key,
                (&profile, clock.as_ref()),
                host,
                client.0,
            )
            .await?;
    }
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// Opens a new table in the lobby with a fresh host token (`table/open.rs`).
pub(super) async fn open_table(
    s: &AppState,
    profile: Profile,
    clock: Option<pref_protocol::clock::TimeControl>,
    (spectator_chat, practice): (bool, bool),
) -> Result<Created, ApiError> {
    Ok(open_with_no(s, profile, clock, (spectator_chat, practice))
        .await?
        .0)
}

/// [`open_table`], with the table's row number.
async fn open_with_no(
    s: &AppState,
    profile: Profile,
    clock: Option<pref_protocol::clock::TimeControl>,
    (spectator_chat, practice): (bool, bool),
) -> Result<(Created, i64), ApiError> {
    let opener = crate::table::open::Opener {
        tables: &s.tables,
        store: &s.store,
        limits: &s.config.limits,
        base_url: &s.base_url,
    };
    opener.open(profile, clock, spectator_chat, practice).await
}

/// The host's invite link again (his page lost it, or he opens it on another device): the
/// bearer is the host token, from which the key is made.
pub(super) async fn invite(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Invite>, ApiError> {
    let id = table_id(&id)?;
    let handle = s.tables.open(&id).await?;
    let host = bearer(&headers)?;
    let key = handle
        .ask(|reply| Command::InviteKey { host, reply })
        .await??;
    let id = id.expose();
    Ok(Json(Invite {
        invite: format!("{}/t/{id}#invite={}", s.base_url, key.expose()),
    }))
}

/// A player of a finished table takes the seat its rematch keeps for him: the bearer is his
/// seat token here, which stands for the invite link he was never given; a signed-in player
/// without it (another device) is given his account's seat token there. A signed-in
/// player's new seat is tied to his account, as a seat he claims is. The answer is the new
/// table's id with the seat and its token there.
pub(super) async fn rematch_seat(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<RematchSeated>, ApiError> {
    let old_id = table_id(&id)?;
    let old = s.tables.open(&old_id).await?;
    let signed = crate::accounts::for_claim(&s.accounts, &headers).await?;
    let token = match &signed {
        Some(signed) if !headers.contains_key(axum::http::header::AUTHORIZATION) => {
            crate::accounts::held_seat(&s.accounts, signed, &old_id)
                .await?
                .1
        }
        Some(_) | None => bearer(&headers)?,
    };
    let (table, seat, name) = old
        .ask(|reply| Command::RematchSeat { token, reply })
        .await??;
    let new_id = table_id(&table)?;
    let new = s.tables.open(&new_id).await?;
    let (seat, token) = new
        .ask(|reply| Command::Rejoin { seat, name, reply })
        .await??;
    if let Some(signed) = &signed {
        crate::accounts::tie(&s.accounts, signed, &new_id, seat, &token).await?;
    }
    Ok(Json(RematchSeated {
        seat,
        table,
        token: token.expose(),
    }))
}

/// The host of a finished table opens its rematch: a new table with the same profile, the
/// chat rule and the bots in their seats, whose link every viewer of the old table is told.
/// The answer is the new table's, with its own host token.
pub(super) async fn rematch(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let old = s.tables.open(&table_id(&id)?).await?;
    let token = bearer(&headers)?;
    let plan = old
        .ask(|reply| Command::RematchPlan { token, reply })
        .await??;
    // The same time control, as the old table's summary shows it.
    // And a rematch of a practice table is a practice table too.
    let before = old.ask(Command::Summary).await?;
    let (clock, practice) = (before.clock.map(|c| c.control), before.practice);
    let mut created = open_table(&s, plan.profile, clock, (plan.spectator_chat, practice)).await?;
    let new_id = table_id(&created.id)?;
    let host = Secret::parse(&created.host_token)
        .ok_or_else(|| ApiError::Internal("a new host token does not read back".into()))?;
    let handle = s.tables.get(&new_id)?;
    let bots = plan
        .bots
        .into_iter()
        .map(|(seat, level)| HostRequest::Bot { seat, level });
    let people = plan
        .people
        .into_iter()
        .chain(plan.bot_accounts.iter().cloned())
        .map(|(seat, name)| HostRequest::Reserve {
            seat,
            name,
            rematch: true,
        });
    if plan.people_only {
        created.table = handle.ask(|reply| Command::PeopleOnly { reply }).await??;
    }
    for op in bots.chain(people) {
        created.table = handle
            .ask(|reply| Command::Host {
                token: host,
                op,
                reply,
            })
            .await??;
    }
    // The bot accounts find their kept seats among their invitations.
    for (seat, name) in &plan.bot_accounts {
        if let Ok(bot) = crate::accounts::bot_api::invitee(&s.accounts, name).await {
            crate::accounts::bot_api::note_invitation(&s.accounts, &bot, &new_id, *seat).await?;
        }
    }
    let table = created.id.clone();
    old.ask(|reply| Command::Rematched {
        token,
        table,
        reply,
    })
    .await??;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

pub(super) async fn summary(
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Summary>, ApiError> {
    let handle = s.tables.open(&table_id(&id)?).await?;
    let summary = handle.ask(Command::Summary).await?;
    Ok(Json(summary))
}

pub(super) async fn record(
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let handle = s.tables.open(&table_id(&id)?).await?;
    let text = handle.ask(Command::Record).await??;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}
