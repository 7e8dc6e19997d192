//! Duplicate tournaments (`docs/tournaments.md`, "Tournaments" in `docs/protocol.md`): the
//! list, a tournament's page with its standings, an entrant's table and each deal's
//! comparison. Exact numbers travel as text (`"35/3"`, `"75"`), never as floats.

use pref_core::{Action, DealView, Seat};
use serde::{Deserialize, Serialize};

use crate::bot::BotLevel;
use crate::score::OutcomeView;

/// Who opened a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TournamentKind {
    /// Anyone's set of deals, shared by its link.
    Challenge,
    /// Opened by the server itself, one a day.
    Daily,
}

impl TournamentKind {
    /// The stored and wire name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentKind::Challenge => "challenge",
            TournamentKind::Daily => "daily",
        }
    }

    /// Reads a stored name.
    #[must_use]
    pub fn parse(name: &str) -> Option<TournamentKind> {
        [TournamentKind::Challenge, TournamentKind::Daily]
            .into_iter()
            .find(|k| k.as_str() == name)
    }
}

/// `POST /api/tournaments`: a challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTournament {
    /// Its title (1 to 60 characters).
    pub name: String,
    /// A preset of `GET /api/presets`.
    pub preset: String,
    /// The bots' level in the other seats.
    pub level: BotLevel,
    /// Deals (1 to `tournaments.max_deals`).
    pub deals: u32,
    /// Hours it stays open from now (1 to `tournaments.max_hours`).
    pub hours: u32,
}

/// The answer to [`CreateTournament`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentCreated {
    /// The tournament's id.
    pub id: String,
    /// Its page, to send to friends.
    pub link: String,
    /// The creator's token: closes the challenge early (`POST …/close`).
    pub host_token: String,
}

/// A tournament in a list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentBrief {
    /// Its id.
    pub id: String,
    /// Its title.
    pub name: String,
    /// Challenge or daily.
    pub kind: TournamentKind,
    /// The preset.
    pub preset: String,
    /// The bots' level.
    pub level: BotLevel,
    /// Deals.
    pub deals: u32,
    /// Opens, seconds since 1970.
    pub starts: i64,
    /// Closes, seconds since 1970.
    pub ends: i64,
    /// Whether it is closed (its end passed, or its creator closed it).
    pub closed: bool,
    /// Entrants so far.
    pub entrants: u32,
}

/// `GET /api/tournaments`: the open tournaments and the latest past ones.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentList {
    /// Open now, the soonest to close first.
    pub open: Vec<TournamentBrief>,
    /// Closed, the latest first.
    pub past: Vec<TournamentBrief>,
}

/// One deal's commitments: published at creation; the seed once the tournament closes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealCommitment {
    /// The deal (0-based).
    pub deal: u32,
    /// The place's table tag (`pref-fair/2`; the deal is deal 0 of that table).
    pub table: String,
    /// The server seed's commitment.
    pub seed_commitment: String,
    /// The deck's commitment.
    pub deck_commitment: String,
    /// The server seed, once the tournament is closed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
}

/// One row of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandingRow {
    /// 1 for the best; equal standings share a rank.
    pub rank: u32,
    /// The entrant's number in the tournament.
    pub entrant: u32,
    /// The entrant's name (an account's user name, or a guest's).
    pub name: String,
    /// Whether the entrant is signed in as an account.
    pub account: bool,
    /// Deals the entrant has finished.
    pub finished: u32,
    /// Deals the standing counts: those the viewer may see results of.
    pub counted: u32,
    /// The average percentage over the counted deals, exact; absent when none is counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standing: Option<String>,
}

/// `GET /api/tournaments/{id}`: the tournament and its live standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentPage {
    /// The tournament.
    pub tournament: TournamentBrief,
    /// Every deal's commitments.
    pub commitments: Vec<DealCommitment>,
    /// The viewer's entrant number, when the request carries an entrant's token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub you: Option<u32>,
    /// The standings: while open, counting only the deals the viewer has finished.
    pub standings: Vec<StandingRow>,
}

/// `POST /api/tournaments/{id}/entrants`: enter (a guest names himself; a signed-in
/// player enters under his user name, and `name` must be absent).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnterTournament {
    /// A guest's name (1 to 30 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// The answer to [`EnterTournament`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entered {
    /// The entrant's number.
    pub entrant: u32,
    /// The entrant's token: the bearer of `…/play`.
    pub token: String,
}

/// `GET /api/tournaments/{id}/play` (bearer: entrant token): the entrant's own table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntrantTable {
    /// The deal being played (0-based); equal to `deals` once all are finished.
    pub deal: u32,
    /// Deals in the tournament.
    pub deals: u32,
    /// The entrant's seat (always 0).
    pub seat: Seat,
    /// The deal as the entrant's seat sees it; absent once every deal is finished, or
    /// when the tournament is closed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<DealView>,
    /// The entrant's legal actions; empty unless the entrant is to act.
    pub legal: Vec<Action>,
    /// The deal just finished: its outcome and the entrant's result (what the comparison
    /// of that deal starts with).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<DealPlayed>,
}

/// `POST /api/tournaments/{id}/play` (bearer: entrant token): one action on the deal
/// being played; the answer is the [`EntrantTable`] after the bots' replies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayAction {
    /// The deal the action is for (a stale page gets `409 conflict`).
    pub deal: u32,
    /// The action.
    pub action: Action,
}

/// One entrant's finished deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealPlayed {
    /// The deal (0-based).
    pub deal: u32,
    /// The deal in short: kind, declarer, contract, tricks.
    pub outcome: OutcomeView,
    /// The entrant's result in whists, exact.
    pub result: String,
}

/// One entrant on a deal's comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComparisonRow {
    /// The entrant's number.
    pub entrant: u32,
    /// The entrant's name.
    pub name: String,
    /// The deal as the entrant played it.
    pub outcome: OutcomeView,
    /// The result in whists, exact.
    pub result: String,
    /// 2 per entrant beaten, 1 per tie.
    pub matchpoints: u64,
    /// Of the top, exact.
    pub percentage: String,
}

/// The solver's par of a deal for the entrants' seat: with every hand open, the most
/// tricks the seat takes as declarer in each strain and the highest bid it makes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParView {
    /// The seat (the entrants').
    pub seat: Seat,
    /// Tricks as declarer per strain, in the order ♠ ♣ ♦ ♥ NT.
    pub tricks: [u8; 5],
    /// Whether a clean misère is there.
    pub misere: bool,
    /// The highest bid made (`"8S"`, `"misere"`); absent when none is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
}

/// `GET /api/tournaments/{id}/deals/{k}`: how every entrant played deal `k`, shown to an
/// entrant who has finished it, or to anyone once the tournament is closed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealComparisonView {
    /// The deal (0-based).
    pub deal: u32,
    /// The solver's par; absent where the solver does not model the profile's rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub par: Option<ParView>,
    /// Every entrant who finished the deal, best result first.
    pub entrants: Vec<ComparisonRow>,
}
