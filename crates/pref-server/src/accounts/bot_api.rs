//! The bot API (`docs/bot-api.md`): a signed-in player turns his fresh account into a bot
//! account for good and makes API tokens for it; an outside program then sends
//! `Authorization: Bearer prefbot_…` on the browser's own requests and socket, and plays
//! its seat exactly as a person would, marked as a bot.
//!
//! A token is kept as a session is (`keys.rs`): the database holds a labelled hash to find
//! it and the account's key wrapped by it, so the token alone opens the bot's seats at
//! every table (`GET /api/tables/{id}/ws` with the bearer finds the seat by itself). A
//! revoked token is refused by the next request on any node; a socket opened with it
//! checks it again before each message it reads and is closed at once (4003) by a
//! revocation made on its own node. Every request made with a token spends that token's
//! budget (`accounts.bot_requests_per_token_per_minute`).

use std::sync::Arc;

use axum::extract::{FromRef, Path, State};
use axum::http::{HeaderMap, header};
use axum::routing::{get, post};
use axum::{Json, Router};
use pref_protocol::{
    Invitation, Invitations, Me, NewToken, Revoked, TOKEN_PREFIX, TokenInfo, TokenMade, Tokens,
};
use tokio::sync::broadcast;

use super::keys::{self, ApiToken, Key};
use super::session::{Acting, SignedIn};
use super::store::AccountRow;
use super::{Accounts, folded, now};
use crate::api::body;
use crate::api::error::ApiError;
use crate::ids::Secret;

/// The longest name of a token, in characters.
const TOKEN_NAME_CHARS: usize = 60;

/// Invitations one answer lists at most.
const INVITATIONS_PAGE: u32 = 50;

/// The bot API's account routes.
pub(crate) fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Accounts>: FromRef<S>,
{
    Router::new()
        .route("/api/me/bot", post(make_bot))
        .route("/api/me/tokens", get(list).post(create))
        .route("/api/me/tokens/{no}/revoke", post(revoke))
        .route("/api/bot", get(whoami))
        .route("/api/bot/invitations", get(invitations))
}

/// A request's bot account, signed in by an API token.
#[derive(Clone, Debug)]
pub(crate) struct BotSigned {
    /// The bot account.
    pub account: AccountRow,
    /// The account's key, unwrapped by the token.
    pub key: Key,
    /// The token's number.
    pub token_no: i64,
}

/// The API token of a request: `None` when its `Authorization` is no `Bearer prefbot_…`
/// (a seat or host token, or none).
fn api_token(headers: &HeaderMap) -> Option<Result<ApiToken, ApiError>> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let bearer = value.strip_prefix("Bearer ")?.trim();
    bearer
        .starts_with(TOKEN_PREFIX)
        .then(|| ApiToken::parse(bearer).ok_or(ApiError::BadToken))
}

/// The bot account signing a request in with an API token, after spending the token's
/// budget; `None` without a `Bearer prefbot_…`.
///
/// # Errors
/// [`ApiError::BadToken`] for a token no live bot account holds (unknown, malformed,
/// revoked); [`ApiError::RateLimited`] when its budget is spent; [`ApiError::Internal`]
/// if the database refuses.
pub(crate) async fn bot_of(
    accounts: &Accounts,
    headers: &HeaderMap,
) -> Result<Option<BotSigned>, ApiError> {
    let Some(token) = api_token(headers) else {
        return Ok(None);
    };
    let token = token?;
    let row = accounts
        .store
        .token(&token.stored(), now())
        .await?
        .ok_or(ApiError::BadToken)?;
    if accounts.per_token.len() > 4096 {
        accounts.per_token.retain_recent();
    }
    accounts.per_token.check_key(&row.no).map_err(|_| {
        ApiError::RateLimited("too many requests with this API token; try again in a minute".into())
    })?;
    let key = token.unwrap(&row.vault).ok_or(ApiError::BadToken)?;
    Ok(Some(BotSigned {
        account: row.account,
        key,
        token_no: row.no,
    }))
}

/// Extractor: the bot account of a request; `401 bad_token` without a live API token.
impl<S> axum::extract::FromRequestParts<S> for BotSigned
where
    Arc<Accounts>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<BotSigned, ApiError> {
        let accounts = Arc::<Accounts>::from_ref(state);
        bot_of(&accounts, &parts.headers)
            .await?
            .ok_or(ApiError::BadToken)
    }
}

/// Whether a host invited `bot` to `table` (it then takes the seat kept for its name).
///
/// # Errors
/// [`ApiError::Internal`] if the database refuses.
pub(crate) async fn invited(
    accounts: &Accounts,
    bot: &BotSigned,
    table: &Secret,
) -> Result<bool, ApiError> {
    Ok(accounts
        .store
        .invited(bot.account.no, &table.expose())
        .await?)
}

/// Ties the seat `bot` just took to its account, like a signed-in player's.
///
/// # Errors
/// [`ApiError::Internal`] if the database refuses.
pub(crate) async fn tie(
    accounts: &Accounts,
    bot: &BotSigned,
    table: &Secret,
    seat: u8,
    token: &Secret,
) -> Result<(), ApiError> {
    super::tie_with(accounts, (bot.account.no, &bot.key), table, seat, token).await
}

/// The seat token of the seat `bot` holds at `table`, if it holds one: opened with the
/// token's key, and only while the account still holds the seat.
///
/// # Errors
/// [`ApiError::Internal`] if the database refuses.
pub(crate) async fn seat_at(
    accounts: &Accounts,
    bot: &BotSigned,
    table: &Secret,
) -> Result<Option<Secret>, ApiError> {
    let Some(link) = accounts.store.seat_link(bot.account.no, table).await? else {
        return Ok(None);
    };
    if accounts.store.seat_held(table, &link.token_hash).await? != Some(link.seat) {
        return Ok(None);
    }
    Ok(link
        .sealed
        .as_deref()
        .and_then(|s| keys::open_seal(&bot.key, s, &link.token_hash)))
}

/// The bot account named `name`, for a host's invitation.
///
/// # Errors
/// [`ApiError::NoPlayer`] when no live bot account has the name.
pub(crate) async fn invitee(accounts: &Accounts, name: &str) -> Result<AccountRow, ApiError> {
    accounts
        .store
        .bot_named(&folded(name))
        .await?
        .ok_or(ApiError::NoPlayer)
}

/// Notes the host's invitation of `bot` to `seat` of `table`, which the table keeps for
/// its name already.
///
/// # Errors
/// [`ApiError::Internal`] if the database refuses.
pub(crate) async fn note_invitation(
    accounts: &Accounts,
    bot: &AccountRow,
    table: &Secret,
    seat: u8,
) -> Result<(), ApiError> {
    Ok(accounts
        .store
        .invite_bot(bot.no, &table.expose(), seat, now())
        .await?)
}

/// What a socket opened with an API token watches: the token, checked again before each
/// message the socket reads, and this node's revocations, which close it at once.
#[derive(Debug)]
pub(crate) struct BotSocket {
    accounts: Arc<Accounts>,
    token_no: i64,
    revoked: broadcast::Receiver<i64>,
}

impl BotSocket {
    /// The watch of a socket opened by `bot`.
    pub(crate) fn new(accounts: &Arc<Accounts>, bot: &BotSigned) -> BotSocket {
        BotSocket {
            accounts: Arc::clone(accounts),
            token_no: bot.token_no,
            revoked: accounts.revoked.subscribe(),
        }
    }

    /// Whether the token is live still (a database that does not answer counts as no).
    pub(crate) async fn live(&self) -> bool {
        self.accounts
            .store
            .token_live(self.token_no)
            .await
            .unwrap_or(false)
    }

    /// Completes once this node revokes the token (or, having missed some revocations,
    /// once the database says it is revoked).
    pub(crate) async fn revoked(&mut self) {
        loop {
            match self.revoked.recv().await {
                Ok(no) if no == self.token_no => return,
                Ok(_) => {}
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    if !self.live().await {
                        return;
                    }
                }
                Err(broadcast::error::RecvError::Closed) => {
                    return std::future::pending().await;
                }
            }
        }
    }
}

fn info(t: &super::bot_store::TokenListed) -> TokenInfo {
    TokenInfo {
        id: t.no,
        name: t.name.clone(),
        created: t.created,
        used: t.used,
    }
}

fn bot_only(account: &AccountRow) -> Result<(), ApiError> {
    if account.bot {
        Ok(())
    } else {
        Err(ApiError::Conflict(
            "API tokens are for bot accounts: POST /api/me/bot first".into(),
        ))
    }
}

/// `POST /api/me/bot`: the signed-in player's account becomes a bot account, for good,
/// if it never held a seat.
async fn make_bot(
    State(a): State<Arc<Accounts>>,
    Acting(signed): Acting,
) -> Result<Json<Me>, ApiError> {
    let mut account = signed.account;
    if !account.bot {
        if !a.store.make_bot(account.no).await? {
            return Err(ApiError::Conflict(
                "only an account that never held a seat becomes a bot account".into(),
            ));
        }
        account.bot = true;
    }
    Ok(Json(super::http::me_of(&account)))
}

/// `GET /api/me/tokens`: the bot account's live tokens, never the tokens themselves.
async fn list(State(a): State<Arc<Accounts>>, signed: SignedIn) -> Result<Json<Tokens>, ApiError> {
    bot_only(&signed.account)?;
    let tokens = a.store.tokens(signed.account.no).await?;
    Ok(Json(Tokens {
        tokens: tokens.iter().map(info).collect(),
    }))
}

/// `POST /api/me/tokens`: a new token, shown in this answer only.
async fn create(
    State(a): State<Arc<Accounts>>,
    Acting(signed): Acting,
    bytes: axum::body::Bytes,
) -> Result<Json<TokenMade>, ApiError> {
    bot_only(&signed.account)?;
    let req: NewToken = body(&bytes)?;
    let name = crate::table::machine::checked_name(&req.name, TOKEN_NAME_CHARS).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "a token's name is 1 to {TOKEN_NAME_CHARS} characters without control, bidi or zero-width characters"
        ))
    })?;
    let token = ApiToken::random();
    let at = now();
    let keep = a.settings.bot_tokens_per_account;
    let no = a
        .store
        .create_token(
            signed.account.no,
            (&token.stored(), &token.wrap(&signed.key)),
            &name,
            at,
            keep,
        )
        .await?
        .ok_or_else(|| {
            ApiError::Conflict(format!(
                "a bot account holds at most {keep} live tokens: revoke one first"
            ))
        })?;
    Ok(Json(TokenMade {
        info: TokenInfo {
            id: no,
            name,
            created: at,
            used: None,
        },
        token: token.expose(),
    }))
}

/// `POST /api/me/tokens/{id}/revoke`: refused from now on, on every node; this node's
/// sockets opened with it close at once.
async fn revoke(
    State(a): State<Arc<Accounts>>,
    Acting(signed): Acting,
    Path(no): Path<i64>,
) -> Result<Json<Revoked>, ApiError> {
    if !a.store.revoke_token(signed.account.no, no, now()).await? {
        return Err(ApiError::Conflict(
            "this account has no live token with this id".into(),
        ));
    }
    let _ = a.revoked.send(no);
    Ok(Json(Revoked { revoked: true }))
}

/// `GET /api/bot`: the bot account the token signs in.
async fn whoami(bot: BotSigned) -> Json<Me> {
    Json(super::http::me_of(&bot.account))
}

/// `GET /api/bot/invitations`: the seats hosts keep for the bot, still free.
async fn invitations(
    State(a): State<Arc<Accounts>>,
    bot: BotSigned,
) -> Result<Json<Invitations>, ApiError> {
    let rows = a
        .store
        .invitations(bot.account.no, INVITATIONS_PAGE)
        .await?;
    Ok(Json(Invitations {
        invitations: rows
            .into_iter()
            .map(|r| Invitation {
                table: r.table,
                seat: r.seat,
                at: r.at,
            })
            .collect(),
    }))
}
