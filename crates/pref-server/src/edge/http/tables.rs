//! Opening tables (a new one, a rematch and its seats) and reading one: its summary and
//! its `pref-record/1`.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use pref_core::{Profile, Seat};
use pref_protocol::{CreateTable, Created, Invite, RematchSeated, Summary};
use rand::Rng;
use rand::rngs::OsRng;
use serde_json::json;

use super::AppState;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::{bearer, body, table_id};
use crate::ids::{Secret, TokenHash};
use crate::metrics::METRICS;
use crate::table::Table;
use crate::table::command::{Command, HostRequest};
use crate::table::machine::NewTable;

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
    let mut created = open_table(&s, profile, clock, req.spectator_chat).await?;
    if req.people_only {
        let id = table_id(&created.id)?;
        created.table = s
            .tables
            .get(&id)?
            .ask(|reply| Command::PeopleOnly { reply })
            .await??;
    }
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// Opens a new table in the lobby with a fresh host token; the store keeps the resolved
/// profile.
pub(super) async fn open_table(
    s: &AppState,
    profile: Profile,
    clock: Option<pref_protocol::clock::TimeControl>,
    spectator_chat: bool,
) -> Result<Created, ApiError> {
    if s.tables.live() >= s.config.limits.max_tables {
        return Err(ApiError::Full);
    }
    let id = Secret::table_id();
    let host = Secret::random();
    let first_dealer = Seat(OsRng.gen_range(0..profile.players()));
    let no = s
        .store
        .create_table(
            &id,
            (&TokenHash::of(&host), &TokenHash::of(&host.invite_key())),
            &profile.to_json(),
            spectator_chat,
            first_dealer.0,
        )
        .await?;
    if let Some(control) = &clock {
        let info = pref_protocol::clock::ClockInfo {
            control: control.clone(),
            paused: false,
            away: Vec::new(),
        };
        s.store.set_clock(no, &info).await?;
    }
    let table = Table::new(
        no,
        NewTable {
            host: TokenHash::of(&host),
            invite: TokenHash::of(&host.invite_key()),
            profile,
            spectator_chat,
            first_dealer,
        },
        s.store.clone(),
        s.config.limits.clone(),
    )
    .with_clock(clock);
    s.tables.spawn(id, no, table);
    METRICS.table_created();
    tracing::info!(table = no, "table created");
    let handle = s.tables.get(&id)?;
    let summary = handle.ask(Command::Summary).await?;
    let id_hex = id.expose();
    let invite = host.invite_key().expose();
    Ok(Created {
        invite: format!("{}/t/{id_hex}#invite={invite}", s.base_url),
        watch: format!("{}/t/{id_hex}?watch", s.base_url),
        id: id_hex,
        host_token: host.expose(),
        table: summary,
    })
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
/// seat token here, which stands for the invite link he was never given. The answer is the
/// new table's id with the seat and its token there.
pub(super) async fn rematch_seat(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<RematchSeated>, ApiError> {
    let old = s.tables.open(&table_id(&id)?).await?;
    let token = bearer(&headers)?;
    let (table, seat, name) = old
        .ask(|reply| Command::RematchSeat { token, reply })
        .await??;
    let new = s.tables.open(&table_id(&table)?).await?;
    let (seat, token) = new
        .ask(|reply| Command::Rejoin { seat, name, reply })
        .await??;
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
    let clock = old.ask(Command::Summary).await?.clock.map(|c| c.control);
    let mut created = open_table(&s, plan.profile, clock, plan.spectator_chat).await?;
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
        .map(|(seat, name)| HostRequest::Reserve { seat, name });
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
