//! The table server's protocol (`docs/protocol.md`) as types, both ways: every message the
//! server sends and every message a client sends is `Serialize` and `Deserialize`, so the
//! server, the bots' driver, the load generator and the tests read and write the same types
//! instead of decoding JSON by hand.
//!
//! - [`accounts`]: accounts, sessions and players' pages ([`Me`], [`PlayerStats`], …).
//! - [`bot`]: a bot's level, [`BotLevel`].
//! - [`bot_api`]: bot accounts' API tokens and invitations ([`TokenMade`], [`Invitations`]).
//! - [`table`]: what everybody may see of a table: [`Phase`], [`Summary`], [`SheetView`]
//!   and its lines ([`LineView`]), [`Settlement`].
//! - [`server`]: [`ServerMessage`] and its parts: [`Snapshot`], [`Item`], [`Public`],
//!   [`TurnView`] with its [`DealStatus`], [`Reason`], [`ErrorCode`].
//! - [`auction`]: the auction's history, [`AuctionCall`]: every call, *here* named.
//! - [`score`]: the score log, [`ScoreEntry`]: what each deal wrote and why, with the deal
//!   in short ([`OutcomeView`], built on the core's [`pref_core::OutcomeForm`]), and a
//!   [`ScorePage`] of it.
//! - [`client`]: the client's [`ClientMessage`].
//! - [`clock`]: the table's time control and the clock every turn carries.
//! - [`http`]: the bodies of the HTTP requests and answers.
//! - [`keeper`]: the scorekeeper's requests and answers (a sheet for a game played with real
//!   cards).
//! - [`tournament`]: duplicate tournaments: the list, a tournament's page and standings,
//!   an entrant's table and each deal's comparison.
//! - [`lobby`]: the public lobby: its tables, games to watch, seekers, its socket's messages.
//! - [`preview`]: the lobby's preview of a game in progress, as a spectator sees it.
//! - [`strict`]: reading a request or message as an object only ([`read`]).
//! - [`subprotocol`]: the WebSocket's seat token, offered as a subprotocol, not in the URL.
//!
//! Imports go one way: `bot` imports no other module; `clock` imports `bot`; `table` imports
//! `bot` and `clock`; `score` imports `table`; the messages (`server`, `http`, `keeper`, `tournament`)
//! import those below them. `scripts/import-cycles crates/pref-protocol` finds no circle.
//!
//! Cards reach these types only through the core's projections ([`pref_core::DealView`],
//! [`pref_core::ViewEvent`]); nothing here holds a whole deal.

pub mod accounts;
pub mod auction;
pub mod bot;
pub mod bot_api;
pub mod client;
pub mod clock;
pub mod etude;
pub mod fair;
pub mod http;
pub mod keeper;
pub mod lobby;
pub mod practice;
pub mod preview;
pub mod ratings;
pub mod score;
pub mod server;
pub mod stop;
pub mod strict;
pub mod subprotocol;
pub mod table;
pub mod tournament;

pub use accounts::{
    AccuracyFigures, AttachSeats, Attached, BalancePoint, ChangePassword, Credentials,
    DeleteAccount, GameEntry, GameLinks, GamePlayer, GamesPage, HeldSeat, LevelFigures, Me,
    MisereFigures, PlayerProfile, PlayerStats, RaspasyFigures, SeatToken, SetHidden, TablePlayers,
    WhistFigures,
};
pub use auction::AuctionCall;
pub use bot::BotLevel;
pub use bot_api::{
    Invitation, Invitations, InviteBot, NewToken, Revoked, TOKEN_PREFIX, TokenInfo, TokenMade,
    Tokens,
};
pub use client::ClientMessage;
pub use etude::{
    EtudeAttempt, EtudeGoal, EtudeList, EtudeMoves, EtudeSource, EtudeStatus, EtudeStep, EtudeView,
};
pub use fair::{FairCommitment, FairDealt, FairRevealed, FairView, FairWindow};
pub use http::{
    ApiErrorBody, Claim, Claimed, CreateTable, Created, Health, Invite, Left, Presets,
    RematchSeated, SaveProfile, SavedProfile, SeatBot,
};
pub use keeper::{
    CreateKeeper, KeeperChange, KeeperCheck, KeeperChecked, KeeperCreated, KeeperDeal,
    KeeperDealBody, KeeperLine, KeeperNext, KeeperOp, KeeperStop, KeeperView,
};
pub use lobby::{LiveTable, LobbyMessage, LobbyRequest, LobbyView, PublicTable, SeekCount};
pub use practice::{HintCard, HintReason, HintView};
pub use preview::{PreviewContract, TablePreview};
pub use ratings::{
    FamilyRating, LeaderRow, Leaderboard, PlayerRatings, RatingPoint, RatingShown, SeatRating,
    TableRatings,
};
pub use score::{OutcomeView, ScoreEntry, ScorePage};
pub use server::{
    ChatLine, DealSoFar, DealStatus, ErrorCode, Item, Public, Reason, ServerMessage, Snapshot,
    Speaker, TurnView,
};
pub use stop::{StopProposal, StopRequest, StopVote};
pub use strict::{ReadError, read};
pub use table::{LineView, Phase, SeatInfo, Settlement, SheetView, Summary};
pub use tournament::{
    ComparisonRow, CreateTournament, DealCommitment, DealComparisonView, DealPlayed,
    EnterTournament, Entered, EntrantTable, ParView, PlayAction, StandingRow, TournamentBrief,
    TournamentCreated, TournamentKind, TournamentList, TournamentPage,
};
