//! The one error type of the HTTP API. Users get a plain code and message; internal details
//! go to the log (without secrets) and the answer says only "internal error".

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use pref_protocol::ApiErrorBody;

use crate::metrics::METRICS;
use crate::store::StoreError;
use pref_core::ProfileError;

/// Everything an HTTP request can be refused for.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// No table has this id (or it is over and gone).
    #[error("no such table")]
    NoTable,
    /// No tournament has this id.
    #[error("no such tournament")]
    NoTournament,
    /// No saved profile has this id.
    #[error("no such saved profile")]
    NoProfile,
    /// No étude has this id.
    #[error("no such étude")]
    NoEtude,
    /// The request body or a parameter is wrong.
    #[error("{0}")]
    BadRequest(String),
    /// The profile request names an unknown preset, key or value.
    #[error("{0}")]
    Profile(#[from] ProfileError),
    /// A token is missing or wrong; the reason says which.
    #[error("{0}")]
    Forbidden(&'static str),
    /// A seat claimed in the lobby without the invite key (from the watch link).
    #[error("taking a seat needs the invite link; the watch link only watches")]
    InviteRequired,
    /// A scorekeeper's deal the rules refuse: the record's words, naming the deal, what
    /// to fix and the rule.
    #[error("{0}")]
    BadDeal(String),
    /// The table is not in a state that allows this.
    #[error("{0}")]
    Conflict(String),
    /// The request body is larger than the route takes.
    #[error("{0}")]
    TooLarge(String),
    /// Too many requests of this kind; the message says when to try again.
    #[error("{0}")]
    RateLimited(String),
    /// The server is at its table limit.
    #[error("the server is full; try again later")]
    Full,
    /// A bounded queue of work is full (the analyses'): the message says which.
    #[error("{0}")]
    Busy(String),
    /// The table's task stopped (it is being restored).
    #[error("the table is restarting; try again")]
    Unavailable,
    /// Something broke inside; details are logged.
    #[error("internal error")]
    Internal(String),
    // Accounts (`src/accounts/`).
    /// The request needs a signed-in player and has no live session.
    #[error("sign in first")]
    NotSignedIn,
    /// A sign-in or password check refused: the same whether the name exists or not.
    #[error("the user name or the password is wrong")]
    SignInRefused,
    /// A live account has this user name (compared without case).
    #[error("this user name is taken")]
    NameTaken,
    /// No live account has this user name.
    #[error("no player has this name")]
    NoPlayer,
    /// The player hid his page.
    #[error("this player's page is hidden")]
    PageHidden,
    // The bot API (`src/accounts/bot_api.rs`).
    /// An API token no live bot account has: unknown, malformed or revoked.
    #[error("the API token is unknown or revoked")]
    BadToken,
    /// A bot account at a table for people only.
    #[error("this table is for people only: bot accounts may not sit here")]
    PeopleOnly,
    // Ratings (`src/ratings/`, `docs/ratings.md`).
    /// A rated table asked for without a standard preset unchanged or without a clock.
    #[error("{0}")]
    NotRatable(String),
    /// A rated table's rule refused the claim or the host's change.
    #[error("{0}")]
    Rated(String),
    /// A guest at a rated table: only signed-in accounts sit there.
    #[error("only signed-in players sit at a rated table: sign in first")]
    RatedGuest,
    /// The account sits at another rated table whose game is not over.
    #[error("you sit at another rated table already: one rated game at a time")]
    RatedElsewhere,
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::RatedElsewhere => ApiError::RatedElsewhere,
            e => ApiError::Internal(e.to_string()),
        }
    }
}

/// The table's refusals as HTTP answers: the edge alone decides what a domain error is
/// over HTTP.
impl ApiError {
    /// The status code and the short code clients switch on.
    #[must_use]
    pub fn code(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::NoTable => (StatusCode::NOT_FOUND, "no_table"),
            ApiError::NoProfile => (StatusCode::NOT_FOUND, "no_profile"),
            ApiError::NoEtude => (StatusCode::NOT_FOUND, "no_etude"),
            ApiError::NoTournament => (StatusCode::NOT_FOUND, "no_tournament"),
            ApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            ApiError::Profile(_) => (StatusCode::UNPROCESSABLE_ENTITY, "bad_profile"),
            ApiError::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            ApiError::InviteRequired => (StatusCode::FORBIDDEN, "invite_required"),
            ApiError::BadDeal(_) => (StatusCode::UNPROCESSABLE_ENTITY, "bad_deal"),
            ApiError::Conflict(_) => (StatusCode::CONFLICT, "conflict"),
            ApiError::TooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
            ApiError::RateLimited(_) => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            ApiError::Full => (StatusCode::SERVICE_UNAVAILABLE, "full"),
            ApiError::Busy(_) => (StatusCode::SERVICE_UNAVAILABLE, "busy"),
            ApiError::Unavailable => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
            ApiError::NotSignedIn => (StatusCode::UNAUTHORIZED, "not_signed_in"),
            ApiError::SignInRefused => (StatusCode::UNAUTHORIZED, "sign_in_refused"),
            ApiError::NameTaken => (StatusCode::CONFLICT, "name_taken"),
            ApiError::NoPlayer => (StatusCode::NOT_FOUND, "no_player"),
            ApiError::PageHidden => (StatusCode::FORBIDDEN, "hidden"),
            ApiError::BadToken => (StatusCode::UNAUTHORIZED, "bad_token"),
            ApiError::PeopleOnly => (StatusCode::FORBIDDEN, "people_only"),
            ApiError::NotRatable(_) => (StatusCode::UNPROCESSABLE_ENTITY, "not_ratable"),
            ApiError::Rated(_) => (StatusCode::FORBIDDEN, "rated_rules"),
            ApiError::RatedGuest => (StatusCode::FORBIDDEN, "rated_guest"),
            ApiError::RatedElsewhere => (StatusCode::CONFLICT, "rated_elsewhere"),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        METRICS.error();
        if let ApiError::Internal(detail) = &self {
            tracing::error!(%detail, "internal error");
        }
        let (status, code) = self.code();
        (
            status,
            Json(ApiErrorBody {
                error: code.to_owned(),
                message: self.to_string(),
            }),
        )
            .into_response()
    }
}
