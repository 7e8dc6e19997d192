//! What the server sends on a table's WebSocket: [`ServerMessage`] and its parts.

use pref_core::view::{DealKind, StandingBid};
use pref_core::{
    Action, ClaimRoom, ClaimView, Contract, DarkView, DealView, Defence, Seat, Stage, ViewEvent,
    Viewer, WhistCall,
};
use serde::{Deserialize, Serialize};

use crate::auction::AuctionCall;
use crate::bot::BotLevel;
use crate::score::{ScoreEntry, ScorePage};
use crate::table::{Settlement, SheetView, Summary};

/// Whose turn it is, and for the player to act the legal actions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnView {
    /// The player to act (in open play the whister for both defenders).
    pub to_act: Option<Seat>,
    /// The viewer's legal actions; empty unless the viewer is to act.
    pub legal: Vec<Action>,
    /// The claims the viewer may make now (R6.7), whether or not he is to act; absent when
    /// he may make none. A claim is any split of `tricks_left` over `seats` entries (a
    /// four-player `dealer`'s entry 0), so the splits are described, not listed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<ClaimRoom>,
    /// The shown deal's public state after the action, on an event's turn (never in a
    /// snapshot, whose `deal` holds it): what the rules decided that the events do not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<DealStatus>,
    /// Whose clock runs now and until when, at a table with a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Box<crate::clock::ClockView>>,
    /// The seat whose move the autopilot made, when the events this turn closes were made by
    /// the autopilot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub autopilot: Option<Seat>,
}

/// The public part of a deal's picture that follows from the rules rather than from the
/// events alone: the stage, whose turn, the whist decisions as they stand, who plays which
/// hand, how many cards each seat holds. It holds no card, so it is the same for every
/// viewer; a client that applies the events' cards and then this has the deal's picture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealStatus {
    /// Where the deal stands.
    pub stage: Stage,
    /// What kind of deal it is.
    pub kind: DealKind,
    /// First hand.
    pub first_hand: Seat,
    /// The seat whose action or card is next.
    pub turn: Option<Seat>,
    /// Cards each seat holds, index = seat.
    pub hand_sizes: Vec<u8>,
    /// The standing bid.
    pub highest: Option<StandingBid>,
    /// The declarer of a game or misère.
    pub declarer: Option<Seat>,
    /// The named contract.
    pub contract: Option<Contract>,
    /// Whether the declarer surrendered (R4.5).
    pub surrendered: bool,
    /// Whist decisions as they stand, index = seat.
    pub whist: Vec<Option<WhistCall>>,
    /// Open or closed defence.
    pub defence: Option<Defence>,
    /// Who plays each seat's cards.
    pub controllers: Vec<Seat>,
    /// The pending claim, or the one all accepted (R6.7).
    pub claim: Option<ClaimView>,
    /// With `dark_games`: who has seen his hand, whose first call was dark, whether the deal
    /// is dark (R2.3, R3.9, R3.9.1); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dark: Option<Box<DarkView>>,
    /// The auction was won with misère or nine without talon (R4.6); absent when not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_talon: bool,
}

impl DealStatus {
    /// The public part of `view` (any viewer's: these fields are the same for all).
    #[must_use]
    pub fn of(view: &DealView) -> DealStatus {
        DealStatus {
            stage: view.stage,
            kind: view.kind,
            first_hand: view.first_hand,
            turn: view.turn,
            hand_sizes: view.hand_sizes.clone(),
            highest: view.highest,
            declarer: view.declarer,
            contract: view.contract,
            surrendered: view.surrendered,
            whist: view.whist.clone(),
            defence: view.defence,
            controllers: view.controllers.clone(),
            claim: view.claim.clone(),
            dark: view.dark.clone().map(Box::new),
            no_talon: view.no_talon,
        }
    }
}

/// The full picture for one viewer: sent first, after a gap, and on request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    /// The version this picture is current at.
    pub version: u64,
    /// Changes when the table's task restarts; a client with another epoch must take this
    /// snapshot rather than resume.
    pub epoch: String,
    /// Who the picture is for.
    pub you: Viewer,
    /// The table.
    pub table: Summary,
    /// Number of the deal shown (0-based): the one in progress, or the last one finished.
    pub deal_no: Option<u32>,
    /// The deal as the viewer may see it.
    pub deal: Option<DealView>,
    /// The turn.
    pub turn: TurnView,
    /// The last finished deals (at most `limits.score_snapshot_deals`, first to last): what
    /// each wrote and the running totals (the same for every viewer). The earlier ones come
    /// on request, a page at a time (`score_page`), so a long game's snapshot stays small.
    #[serde(default)]
    pub score_log: Vec<ScoreEntry>,
    /// Finished deals in the whole score log; `score_log` holds the last of them.
    #[serde(default)]
    pub score_total: u32,
    /// The shown deal's auction, every call in order (absent before the first call); the
    /// events' `called` items extend it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub auction: Vec<AuctionCall>,
    /// Provably fair deals: the open contribution window, the published commitments and
    /// the revealed values (`docs/fairness.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fair: Option<crate::fair::FairView>,
    /// The table's last chat lines, first to last (at most `limits.chat_history_lines`), so a
    /// reload or a late viewer reads what was said; none for a spectator at a table whose
    /// chat spectators may not read. Absent when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chat: Vec<ChatLine>,
    /// The shown deal so far, for a player to look back at during play: its completed
    /// tricks in order, and the talon cards everybody was shown. Absent when empty.
    #[serde(default, skip_serializing_if = "DealSoFar::is_empty")]
    pub so_far: DealSoFar,
}

/// The shown deal's public past: every completed trick, and the talon once it was shown.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealSoFar {
    /// The completed tricks, first to last.
    #[serde(default)]
    pub tricks: Vec<pref_core::view::TrickView>,
    /// The talon cards turned face up for everybody (R4.1; on raspasy one per trick, R7.3).
    #[serde(default)]
    pub talon: Vec<pref_core::Card>,
}

impl DealSoFar {
    /// Nothing to show yet.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.tricks.is_empty() && self.talon.is_empty()
    }
}

/// One chat line kept by the table, as the `chat` news said it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatLine {
    /// Who wrote it.
    pub from: Speaker,
    /// The text.
    pub text: String,
}

/// Who wrote a chat line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Speaker {
    /// A seated player.
    Seat(Seat),
    /// A spectator.
    Spectator,
}

/// Table news that carries no card: the same for every viewer allowed to see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Public {
    /// A seat was taken.
    SeatTaken {
        /// The seat.
        seat: u8,
        /// The player's name.
        name: String,
        /// The bot's level when the host seated a bot, `null` for a person.
        bot: Option<BotLevel>,
        /// A bot account took it (an outside program, `docs/bot-api.md`); absent otherwise.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        bot_account: bool,
    },
    /// A seat was freed (left or removed by the host).
    SeatFreed {
        /// The seat.
        seat: u8,
    },
    /// A seated player connected or disconnected.
    Presence {
        /// The seat.
        seat: u8,
        /// Whether any socket of that seat is open.
        connected: bool,
    },
    /// A chat line.
    Chat {
        /// Who wrote it.
        from: Speaker,
        /// The text.
        text: String,
    },
    /// The host changed the profile in the lobby.
    ProfileChanged {
        /// Every option.
        profile: serde_json::Value,
    },
    /// The host started the game.
    Started {
        /// Dealer of the first deal.
        first_dealer: Seat,
    },
    /// A deal ended and was scored; unless the game is over, the next one waits for
    /// `next_deal`.
    DealFinished {
        /// The deal's number.
        deal_no: u32,
        /// The sheet after it.
        sheet: SheetView,
        /// Whether this deal closed the last pool.
        game_over: bool,
        /// The deal's entry in the score log: what it wrote, line by line, and why.
        score: Box<ScoreEntry>,
    },
    /// The game is over.
    GameOver(Settlement),
    /// The number of spectators watching changed (every viewer is told, seats and
    /// spectators alike).
    Spectators {
        /// Open spectator sockets.
        count: u32,
    },
    /// The host opened a new table for a rematch with the same people and profile.
    Rematch {
        /// The new table's id; its invite link is `/t/{table}`.
        table: String,
    },
    /// The host paused or resumed the table's clock (between deals): the summary's
    /// `clock.paused` changes.
    ClockPaused {
        /// Paused (`true`) or running again.
        paused: bool,
    },
    /// A seat's vote on stopping the game by agreement (R10.3, [`crate::StopVote`]): once
    /// every seat accepted, `game_over` follows with `agreed`; a decline ends the proposal.
    StopVote {
        /// The seat that voted; absent for the host's proposal when he holds no seat
        /// (`POST /api/tables/{id}/end`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<u8>,
        /// Its vote.
        vote: crate::StopVote,
        /// The seats that accepted so far (empty once declined).
        accepted: Vec<u8>,
    },
    /// An away seat's player said "I'm back" (`back`): the seat leaves the clock's `away`
    /// list and the autopilot no longer moves for it.
    ClockBack {
        /// The seat.
        seat: u8,
    },
    /// A deal opens: the server's seed commitment, before anything else of the deal; the
    /// seats named are asked for a contribution (`fair_commit`).
    FairSeed {
        /// The deal's number.
        deal_no: u32,
        /// SHA-256 of `pref-fair/2 seed <seed>\n`, then the deal's place (`table <tag>\n`,
        /// `deal <n>\n`).
        seed_commitment: String,
        /// The seated people asked to contribute.
        seats: Vec<u8>,
        /// How long each step of the window waits, in milliseconds.
        window_ms: u64,
    },
    /// Commitments are closed: each seat reveals the value it committed to (`fair_reveal`).
    FairCommitments {
        /// The deal's number.
        deal_no: u32,
        /// Every commitment received in time, by seat.
        commitments: Vec<crate::fair::FairCommitment>,
    },
    /// The deck is fixed: its commitment, before the first card.
    FairDeck {
        /// The deal's number.
        deal_no: u32,
        /// SHA-256 of the deck and the seed (`docs/fairness.md`).
        deck_commitment: String,
        /// The seats whose contributions are in the deck.
        seats: Vec<u8>,
    },
    /// The deal's cards may be seen: its seed, contributions and deck.
    FairRevealed(crate::fair::FairRevealed),
}

/// The `kind` of a deal item: always `"deal"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DealTag {
    /// `"deal"`.
    Deal,
}

/// One versioned item as a viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Item {
    /// A deal event, projected for the viewer.
    Deal {
        /// Always `"deal"`.
        kind: DealTag,
        /// The deal's number.
        deal_no: u32,
        /// The event.
        event: ViewEvent,
    },
    /// Table news.
    Public(Public),
}

/// Why an action was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The rules refuse it; `message` and `rule` say why.
    Rule,
    /// Another player is to act.
    NotYourTurn,
    /// The action was made at a version older than the game's state; a snapshot follows.
    StaleVersion,
    /// The action names a version the table has not reached; nothing changed.
    FutureVersion,
    /// Spectators do not act.
    NotSeated,
    /// No deal is in progress (or one is, for `next_deal`).
    NoDeal,
    /// The game is over.
    GameOver,
    /// The seats are not all taken.
    SeatsFree,
    /// The server could not store the action; nothing changed.
    Internal,
    /// A contribution that came after the deadline: recorded as late, not in the deck.
    Late,
    /// A contribution the deal's window does not take (no window, a value that does not
    /// match its commitment, a second commitment); nothing changed.
    Fair,
    /// A `hint` at a table that is not a practice table.
    NotPractice,
    /// A `hint` beyond the seat's hints for this deal (`limits.hints_per_deal`).
    HintsSpent,
    /// A `hint` where the bot has nothing to weigh: outside card play, or one legal card.
    NoHint,
    /// The solver's lane is full (`limits.analysis_queue`); try again shortly.
    Busy,
}

/// Errors not tied to an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The message is not JSON of a known shape.
    Malformed,
    /// The message is larger than the frame limit; the connection closes.
    TooLarge,
    /// Too many messages; this one was dropped.
    RateLimited,
    /// The chat line is empty or too long.
    ChatLength,
    /// The chat line has control, bidi or zero-width characters.
    ChatText,
    /// Spectators may not chat at this table.
    ChatForbidden,
    /// A spectator's `fair_join` or `back`: only a seat contributes to the deals or comes
    /// back (a message with an `id` is answered `rejected` with reason `not_seated` instead).
    NotSeated,
    /// A `back` at a table without a clock: no seat is ever away there.
    NoClock,
    /// The socket fell behind; a snapshot follows.
    Lagged,
    /// The table stopped; reconnect.
    TableClosed,
}

/// A message from the server to one viewer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServerMessage {
    /// The full picture.
    Snapshot(Box<Snapshot>),
    /// A numbered item; `event: null` is a stub for an item the viewer may not see.
    Event {
        /// The version.
        version: u64,
        /// The item, or `None` for a stub.
        event: Option<Item>,
        /// The turn after it, on the last item of an action.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn: Option<TurnView>,
    },
    /// An action or `next_deal` was accepted.
    Ack {
        /// The client's id.
        id: String,
        /// The version of the last item it produced.
        version: u64,
    },
    /// An action or `next_deal` was refused.
    Rejected {
        /// The client's id.
        id: String,
        /// Why.
        reason: Reason,
        /// In the player's terms.
        message: String,
        /// The rule's id (`"R6.2"`), for rule refusals that have one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule: Option<String>,
    },
    /// A page of the score log, the answer to the client's `score_page`.
    ScorePage(ScorePage),
    /// The answer to a `hint`, for the asking socket only.
    Hint {
        /// The client's id.
        id: String,
        /// The hint.
        hint: crate::practice::HintView,
    },
    /// A problem with a message that is not an action.
    Error {
        /// What kind.
        code: ErrorCode,
        /// In plain words.
        message: String,
    },
}
