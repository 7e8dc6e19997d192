//! The accounts' routes (`docs/protocol.md`, "Accounts and players"): signing up, in and
//! out, `/api/me` and its changes, guest seats attached, a seat's token for another device,
//! and the player pages (`players.rs`).
//!
//! A refused sign-in answers the same `401 sign_in_refused` whether the name is unknown or
//! the password wrong, after the same Argon2id work (an unknown name is hashed against a
//! fixed salt). Every password check spends the client's budget and the name's, before the
//! hash.

use std::sync::Arc;

use axum::extract::{FromRef, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use pref_protocol::{
    AttachSeats, Attached, ChangePassword, Credentials, DeleteAccount, Me, SeatToken, SetHidden,
};

use super::keys::{self, SessionToken};
use super::session::{self, Acting, SignedIn};
use super::store::AccountRow;
use super::{Accounts, check_name, folded, now};
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::{body, table_id};
use crate::ids::{Secret, TokenHash};

/// The accounts' and players' routes.
pub(crate) fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Accounts>: FromRef<S>,
{
    Router::new()
        .route("/api/accounts", post(sign_up))
        .route("/api/session", post(sign_in))
        .route("/api/session/end", post(sign_out))
        .route("/api/me", get(me))
        .route("/api/me/password", post(change_password))
        .route("/api/me/hidden", post(set_hidden))
        .route("/api/me/delete", post(delete))
        .route("/api/me/seats", post(attach))
        .route("/api/me/seats/{table}", get(seat_token))
        .merge(super::players::routes())
        .merge(super::ratings::routes())
}

pub(super) fn me_of(a: &AccountRow) -> Me {
    Me {
        name: a.name.clone(),
        created: a.created,
        hidden: a.hidden,
        bot: a.bot,
    }
}

/// A password as the settings allow it at sign-up or change.
fn check_password(a: &Accounts, password: &str) -> Result<(), ApiError> {
    let (min, max) = (a.settings.min_password_chars, a.settings.max_password_bytes);
    if password.chars().count() < min || password.len() > max {
        return Err(ApiError::BadRequest(format!(
            "a password is at least {min} characters and at most {max} bytes"
        )));
    }
    Ok(())
}

/// A password given for a check (sign-in, change, deletion) may not be longer than any
/// password can be: the hash's input is bounded.
fn bounded(a: &Accounts, password: &str) -> Result<(), ApiError> {
    if password.len() > a.settings.max_password_bytes {
        return Err(ApiError::SignInRefused);
    }
    Ok(())
}

/// Opens a session of `account` (its key at hand) and answers `status` with the cookie.
async fn open_session(
    a: &Accounts,
    account: &AccountRow,
    key: &keys::Key,
    status: StatusCode,
) -> Result<Response, ApiError> {
    let token = SessionToken::random();
    let at = now();
    a.store
        .create_session(
            account.no,
            &token.stored(),
            &token.wrap(key),
            at,
            at.saturating_add(a.settings.session_secs()),
            a.settings.max_sessions_per_account,
        )
        .await?;
    Ok((
        status,
        [(header::SET_COOKIE, session::set_cookie(a, &token))],
        Json(me_of(account)),
    )
        .into_response())
}

async fn sign_up(
    State(a): State<Arc<Accounts>>,
    client: Client,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Response, ApiError> {
    session::not_foreign(&a, &headers)?;
    let req: Credentials = body(&bytes)?;
    let name = check_name(&req.name)?;
    check_password(&a, &req.password)?;
    a.signups.spend(client)?;
    if a.store.account_count().await? >= i64::try_from(a.settings.max_accounts).unwrap_or(i64::MAX)
    {
        return Err(ApiError::Full);
    }
    let cost = a.cost();
    let password = req.password;
    let (locked, key) = a.hash(move || keys::new_account(&password, cost)).await?;
    let at = now();
    let no = a
        .store
        .create_account(&name, &folded(&name), &locked, at)
        .await?
        .ok_or(ApiError::NameTaken)?;
    let account = AccountRow {
        no,
        name,
        locked,
        created: at,
        hidden: false,
        bot: false,
    };
    open_session(&a, &account, &key, StatusCode::CREATED).await
}

/// Checks `password` against the account named `name` after spending the budgets: the key
/// when it is right, [`ApiError::SignInRefused`] otherwise (the same for an unknown name,
/// after the same work).
async fn check(
    a: &Accounts,
    client: Client,
    name: &str,
    password: String,
) -> Result<(AccountRow, keys::Key), ApiError> {
    bounded(a, &password)?;
    a.signins.spend(client)?;
    let key = folded(name);
    a.spend_name(&key)?;
    let cost = a.cost();
    match a.store.account_named(&key).await? {
        Some(account) => {
            let locked = account.locked.clone();
            let opened = a.hash(move || keys::unlock(&locked, &password)).await?;
            opened
                .map(|key| (account, key))
                .ok_or(ApiError::SignInRefused)
        }
        None => {
            a.hash(move || keys::unlock_nobody(&password, cost)).await?;
            Err(ApiError::SignInRefused)
        }
    }
}

async fn sign_in(
    State(a): State<Arc<Accounts>>,
    client: Client,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Response, ApiError> {
    session::not_foreign(&a, &headers)?;
    let req: Credentials = body(&bytes)?;
    let (account, key) = check(&a, client, &req.name, req.password).await?;
    open_session(&a, &account, &key, StatusCode::OK).await
}

async fn sign_out(
    State(a): State<Arc<Accounts>>,
    Acting(signed): Acting,
) -> Result<Response, ApiError> {
    a.store.end_session(&signed.token.stored()).await?;
    Ok((
        [(header::SET_COOKIE, session::clear_cookie(&a))],
        Json(serde_json::json!({"signed_out": true})),
    )
        .into_response())
}

async fn me(signed: SignedIn) -> Json<Me> {
    Json(me_of(&signed.account))
}

async fn change_password(
    State(a): State<Arc<Accounts>>,
    client: Client,
    Acting(signed): Acting,
    bytes: axum::body::Bytes,
) -> Result<Json<Me>, ApiError> {
    let req: ChangePassword = body(&bytes)?;
    check_password(&a, &req.new_password)?;
    let (account, key) = check(&a, client, &signed.account.name, req.password).await?;
    let cost = a.cost();
    let new = req.new_password;
    let locked = a.hash(move || keys::relock(&new, cost, &key)).await?;
    a.store
        .set_password(account.no, &locked, &signed.token.stored())
        .await?;
    Ok(Json(me_of(&account)))
}

async fn set_hidden(
    State(a): State<Arc<Accounts>>,
    Acting(signed): Acting,
    bytes: axum::body::Bytes,
) -> Result<Json<Me>, ApiError> {
    let req: SetHidden = body(&bytes)?;
    a.store.set_hidden(signed.account.no, req.hidden).await?;
    let mut account = signed.account;
    account.hidden = req.hidden;
    Ok(Json(me_of(&account)))
}

async fn delete(
    State(a): State<Arc<Accounts>>,
    client: Client,
    Acting(signed): Acting,
    bytes: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let req: DeleteAccount = body(&bytes)?;
    let (account, _) = check(&a, client, &signed.account.name, req.password).await?;
    a.store.delete_account(account.no, now()).await?;
    Ok((
        [(header::SET_COOKIE, session::clear_cookie(&a))],
        Json(serde_json::json!({"deleted": true})),
    )
        .into_response())
}

/// Ties the guest seats a browser holds to the account: each token is checked against the
/// seat's current occupant in the database, and one that holds no seat changes nothing.
async fn attach(
    State(a): State<Arc<Accounts>>,
    Acting(signed): Acting,
    bytes: axum::body::Bytes,
) -> Result<Json<Attached>, ApiError> {
    let req: AttachSeats = body(&bytes)?;
    let max = a.settings.attach_max_seats;
    if req.seats.len() > max {
        return Err(ApiError::BadRequest(format!(
            "at most {max} seats are attached at once"
        )));
    }
    let (mut attached, mut refused) = (Vec::new(), Vec::new());
    for held in req.seats {
        let (Some(table), Some(token)) = (Secret::parse(&held.table), Secret::parse(&held.token))
        else {
            refused.push(held.table);
            continue;
        };
        match a.store.seat_held(&table, &TokenHash::of(&token)).await? {
            Some(seat) => {
                super::tie(&a, &signed, &table, seat, &token).await?;
                attached.push(table.expose());
            }
            None => refused.push(table.expose()),
        }
    }
    Ok(Json(Attached { attached, refused }))
}

/// The account's seat token at a table, for another device: opened with the session's key
/// and given only while the account still holds the seat.
async fn seat_token(
    State(a): State<Arc<Accounts>>,
    signed: SignedIn,
    Path(table): Path<String>,
) -> Result<Json<SeatToken>, ApiError> {
    let id = table_id(&table)?;
    let (seat, token) = super::held_seat(&a, &signed, &id).await?;
    Ok(Json(SeatToken {
        table: id.expose(),
        seat,
        token: token.expose(),
    }))
}
