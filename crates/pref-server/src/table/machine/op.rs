//! The table machine's vocabulary: the ops it takes, the errors it refuses them with, and
//! the changes it reports (what to store, what to broadcast).

use pref_core::{Action, Card, Deal, Game, Profile, Seat, Viewer};
use pref_protocol::{BotLevel, Reason, Settlement};

use crate::ids::{Secret, TokenHash};
use crate::table::wire::{News, Turn};

/// An occupied seat.
#[derive(Clone, Debug)]
pub(crate) struct Occupant {
    /// Shown to everybody.
    pub name: String,
    /// Proves the seat: the hash of the seat token.
    pub token: TokenHash,
    /// Open sockets; the seat is connected while this is positive.
    pub sockets: u32,
    /// The level of the bot holding the seat, if a bot does.
    pub bot: Option<BotLevel>,
    /// A bot account holds the seat: an outside program playing through the API
    /// (`bot_account.rs`), a person to the rules, marked as a bot to everybody.
    pub bot_account: bool,
    /// The host claimed the seat with the host token: his own seat, whose say his
    /// `end` carries (a proposal to stop needs no answer from it, `stop.rs`).
    pub host: bool,
    /// The first deal this occupant holds the seat for: a deal dealt before he sat is shown
    /// to him as to a spectator ([`super::Machine::deal_viewer`]), never as his seat saw it.
    pub from_deal: u32,
    /// The version of the `seat_taken` item that seated him (0 for a seat restored from the
    /// database, whose history starts again): a resume from before it would replay what the
    /// seat's earlier occupant saw.
    pub since: u64,
}

/// Where the table stands; each phase carries exactly what it has.
#[derive(Clone, Debug)]
pub(crate) enum Stage {
    /// Seats are being filled.
    Lobby,
    /// A deal is in progress.
    Playing {
        /// The game, with its deal in progress.
        game: Box<Game>,
        /// The deal's number.
        deal_no: u32,
        /// Actions accepted in this deal.
        seq: u32,
    },
    /// Between deals.
    BetweenDeals {
        /// The game.
        game: Box<Game>,
        /// The last finished deal, shown until the next one starts (`None` right after the
        /// start, before the first deal).
        last: Option<Box<Deal>>,
        /// Deals dealt so far.
        deals: u32,
    },
    /// The game is over.
    Over {
        /// The game, unless it was ended in the lobby.
        game: Option<Box<Game>>,
        /// The last finished deal.
        last: Option<Box<Deal>>,
        /// Deals dealt.
        deals: u32,
        /// How it was settled.
        settlement: Settlement,
    },
}

/// What may be asked of a table.
#[derive(Clone, Debug)]
pub(crate) enum Op {
    /// Take a seat; `token` is the new seat token.
    Claim {
        /// The name.
        name: String,
        /// A particular seat or the first free one.
        seat: Option<u8>,
        /// The host token, required once the game has started.
        host: Option<Secret>,
        /// The invite key from the invite link, required in the lobby unless the host
        /// claims.
        invite: Option<Secret>,
        /// The new seat's token.
        token: Secret,
    },
    /// A player of the finished table takes the seat its rematch (this table) keeps for
    /// him; the edge checked his seat token at the finished table, which stands for the
    /// invite link he was never given.
    Rejoin {
        /// The kept seat.
        seat: u8,
        /// The name it is kept for.
        name: String,
        /// The new seat's token.
        token: Secret,
    },
    /// A bot account takes a seat (`bot_account.rs`): a seat kept for its name when a host
    /// invited it (`invited`), else as a claim with the invite key.
    BotClaim {
        /// The account's user name.
        name: String,
        /// A particular seat or the first free one.
        seat: Option<u8>,
        /// The invite key from the invite link.
        invite: Option<Secret>,
        /// The edge found the host's invitation for this account at this table.
        invited: bool,
        /// The new seat's token.
        token: Secret,
    },
    /// Leave a seat.
    Leave {
        /// The seat token.
        token: Secret,
    },
    /// A host's request.
    Host {
        /// The host token.
        host: Secret,
        /// What.
        op: HostOp,
    },
    /// An action in the deal.
    Act {
        /// The seat.
        seat: Seat,
        /// Its token.
        token: Secret,
        /// The version the player chose at.
        version: u64,
        /// The action.
        action: Action,
    },
    /// The table's own move for a person's seat whose time ran out (the autopilot,
    /// `table/clock.rs`): it comes from the actor, which holds no token of the seat.
    Autopilot {
        /// The seat.
        seat: Seat,
        /// The version the autopilot decided at.
        version: u64,
        /// The action.
        action: Action,
    },
    /// Start the next deal with `deck`: the tests' way past the fair-deal opening
    /// (`Opening::NextDeal`), which the table itself always takes.
    #[cfg(test)]
    NextDeal {
        /// The seat asking.
        seat: Seat,
        /// Its token.
        token: Secret,
        /// The version it asked at.
        version: u64,
        /// The shuffled deck.
        deck: [Card; 32],
    },
    /// A chat line (already length-checked).
    Chat {
        /// The viewer writing.
        viewer: Viewer,
        /// The seat token, for a seat.
        token: Option<Secret>,
        /// The text.
        text: String,
    },
    /// A step of a deal's contribution window (`fair.rs`).
    Fair(super::FairOp),
    /// A seat's socket opened or closed.
    Presence {
        /// The seat.
        seat: Seat,
        /// The socket's token.
        token: Secret,
        /// Opened or closed.
        connected: bool,
    },
    /// A spectator's socket opened or closed: the count changes, nobody is told yet.
    Watching {
        /// Opened or closed.
        connected: bool,
    },
    /// Tell every viewer the spectator count, if it changed since they were last told (the
    /// table sends this at most once a second, so that sockets opened and closed in a flood
    /// cost one item a second, not one each).
    TellSpectators,
    /// The host opened table `table` as this finished table's rematch.
    Rematch {
        /// The host token.
        host: Secret,
        /// The new table's id.
        table: String,
    },
    /// The actor paused or resumed the table's clock for its host (`table/clock.rs`, which
    /// checks the host and the stage): every viewer is told.
    ClockPaused {
        /// Paused or running again.
        paused: bool,
    },
    /// The actor took an away seat off the autopilot at its player's word
    /// (`table/actor/clock.rs`, which checks the seat and the clock): every viewer is told.
    ClockBack {
        /// The seat.
        seat: Seat,
    },
    /// The actor's clock has `seat` away (its autopilot plays for it) while a stop proposal
    /// stands: the seat accepts, as a bot does (`stop.rs`); nothing without a proposal.
    AwayAccepts {
        /// The seat.
        seat: Seat,
    },
    /// A seat's vote on stopping the game by agreement (R10.3, `stop.rs`).
    Stop {
        /// The seat.
        seat: Seat,
        /// Its token.
        token: Secret,
        /// The vote.
        vote: pref_protocol::StopVote,
    },
}

/// What the host may do.
#[derive(Clone, Debug)]
pub(crate) enum HostOp {
    /// Start the game and deal the first deal.
    Start {
        /// The first deal's deck.
        deck: [Card; 32],
    },
    /// Change the profile (lobby only) to this validated one.
    Profile(Profile),
    /// Free a seat.
    Remove(u8),
    /// Seat a bot; `token` is its seat token.
    Bot {
        /// The seat.
        seat: u8,
        /// Its level.
        level: BotLevel,
        /// Its token.
        token: Secret,
    },
    /// End the game by agreement (R10.3).
    End,
    /// Keep free seat `seat` for `name` in the lobby: a rematch's player (`rematch`) or an
    /// invited bot account.
    Reserve {
        /// The seat.
        seat: u8,
        /// The name that may take it.
        name: String,
        /// A rematch's kept seat: the lobby starts itself once every seat is taken
        /// ([`super::Machine::rematch_ready`]); an invitation leaves the start to the host.
        rematch: bool,
    },
}

/// Why the table refused an op; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// A name is empty, too long or has control, bidi or zero-width characters.
    #[error("a name is 1 to 32 characters without control, bidi or zero-width characters")]
    BadName,
    /// There is no such seat at this table.
    #[error("there is no seat {0}")]
    NoSuchSeat(u8),
    /// The seat is taken.
    #[error("seat {0} is taken")]
    SeatTaken(u8),
    /// The seat is free.
    #[error("seat {0} is free")]
    SeatFree(u8),
    /// Every seat is taken.
    #[error("every seat is taken")]
    Full,
    /// The host token is wrong.
    #[error("the host token is not valid at this table")]
    NotHost,
    /// A seat is claimed without the invite key: the watch link only watches.
    #[error("taking a seat needs the invite link; the watch link only watches")]
    InviteRequired,
    /// Only the host seats a player once the game has started.
    #[error("the game has started: only the host can seat a player")]
    HostSeats,
    /// The seat token is not the current occupant's.
    #[error("the seat token is not valid at this table")]
    NotSeated,
    /// The seat the caller held has been freed.
    #[error("your seat was freed")]
    SeatLost,
    /// Not in the lobby any more.
    #[error("the game has already started")]
    Started,
    /// The profile is frozen once the game has started.
    #[error("the profile is frozen once the game has started")]
    ProfileFrozen,
    /// A seat beyond a new, smaller number of players is taken.
    #[error("a seat beyond the new number of players is taken")]
    SeatBeyond,
    /// Not every seat is taken.
    #[error("not every seat is taken")]
    SeatsFree,
    /// A deal is in progress; seats and the end wait for its end.
    #[error("a deal is in progress: this waits until it ends")]
    DealInProgress,
    /// No deal is in progress.
    #[error("no deal is in progress")]
    NoDeal,
    /// The game has not started.
    #[error("the game has not started")]
    NotStarted,
    /// The table has no clock to pause or resume.
    #[error("the table has no clock")]
    NoClock,
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// The action was chosen before the game last changed.
    #[error("the game changed at version {at} after your version {yours}; a snapshot follows")]
    Stale {
        /// The version of the last change.
        at: u64,
        /// The version the action was made at.
        yours: u64,
    },
    /// The action names a version the table has not reached: the client skipped the
    /// staleness check.
    #[error("the table is at version {at}; your version {yours} was never sent")]
    FutureVersion {
        /// The version of the last item.
        at: u64,
        /// The version the action claims.
        yours: u64,
    },
    /// Another player is to act.
    #[error("{0}")]
    NotYourTurn(String),
    /// The rules refuse the action.
    #[error("{message}")]
    Rule {
        /// In the player's terms.
        message: String,
        /// The rule's id.
        rule: Option<&'static str>,
    },
    /// Spectators may not chat at this table.
    #[error("spectators may not chat at this table")]
    ChatForbidden,
    /// A rematch waits for the game's end.
    #[error("the game is not over: a rematch is opened after it")]
    NotOver,
    /// The host already opened this table's rematch.
    #[error("a rematch of this table is already open")]
    Rematched,
    /// The host has not opened a rematch of this table.
    #[error("no rematch of this table is open")]
    NoRematch,
    /// A proposal to stop the game stands already: its seats are answering it (R10.3).
    #[error("a proposal to stop the game stands: accept or decline it")]
    StopPending,
    /// No proposal to stop the game stands: there is nothing to accept or decline.
    #[error("nobody proposed to stop the game")]
    NoStop,
    /// The seat accepted the proposal to stop already.
    #[error("this seat accepted the proposal to stop already")]
    StopAnswered,
    /// The seat is kept for the player who sat there before the rematch: he takes it from
    /// the finished table's page, with his seat token there.
    #[error("seat {0} is kept for {1}, who takes it from the finished table")]
    SeatReserved(u8, String),
    /// No seat of this rematch is kept for the finished table's player asking.
    #[error("seat {0} is not kept for you")]
    NotKept(u8),
    /// A bot account at a table for people only.
    #[error("this table is for people only: bot accounts may not sit here")]
    PeopleOnly,
    /// At a rated table the seats are all people's or all bot accounts'.
    #[error("a rated table seats people only or bot accounts only, never both")]
    RatedKind,
    /// The account holds a seat at another rated table whose game goes on.
    #[error("you hold a seat at another rated table: one rated table at a time")]
    RatedElsewhere,
    /// At a rated table the host may not seat a house bot nor change the preset.
    #[error("a rated table keeps its standard preset and seats no house bot")]
    RatedRules,
    /// The core refused something the machine had checked: a bug, reported, not panicked.
    #[error("internal error: {0}")]
    Internal(String),
    /// The deal's contribution window does not take this (`docs/fairness.md`).
    #[error("{0}")]
    Fair(String),
    /// A contribution after the deadline: a value is recorded as late and left out of the
    /// deck, a commitment is refused.
    #[error("your contribution came after the deadline: it is not in the deck")]
    FairLate,
    /// A hint at a table that is not a practice table.
    #[error("hints are given at practice tables only")]
    NotPractice,
    /// A hint beyond the seat's hints for this deal (the number allowed).
    #[error("you have asked for the {0} hints a deal allows")]
    HintsSpent(u32),
    /// A hint where there is nothing to weigh: outside card play, or one legal card.
    #[error("there is nothing to hint at: hints are for playing a card, with a choice")]
    NoHint,
}

impl TableError {
    /// The rule's id, for a rule refusal that has one.
    #[must_use]
    pub fn rule(&self) -> Option<&'static str> {
        if let TableError::Rule { rule, .. } = self {
            *rule
        } else {
            None
        }
    }

    /// The protocol's reason for a refused action or `next_deal`.
    #[must_use]
    pub fn reason(&self) -> Reason {
        match self {
            TableError::Stale { .. } => Reason::StaleVersion,
            TableError::FutureVersion { .. } => Reason::FutureVersion,
            TableError::NotYourTurn(_) => Reason::NotYourTurn,
            TableError::Rule { .. } => Reason::Rule,
            TableError::Over => Reason::GameOver,
            TableError::SeatsFree => Reason::SeatsFree,
            TableError::NotSeated | TableError::SeatLost => Reason::NotSeated,
            TableError::NoDeal | TableError::NotStarted | TableError::DealInProgress => {
                Reason::NoDeal
            }
            TableError::BadName
            | TableError::NoSuchSeat(_)
            | TableError::SeatTaken(_)
            | TableError::SeatFree(_)
            | TableError::Full
            | TableError::NotHost
            | TableError::HostSeats
            | TableError::InviteRequired
            | TableError::Started
            | TableError::ProfileFrozen
            | TableError::SeatBeyond
            | TableError::NoClock
            | TableError::ChatForbidden
            | TableError::NotOver
            | TableError::Rematched
            | TableError::NoRematch
            | TableError::StopPending
            | TableError::NoStop
            | TableError::StopAnswered
            | TableError::SeatReserved(..)
            | TableError::NotKept(_)
            | TableError::PeopleOnly
            | TableError::RatedKind
            | TableError::RatedRules
            | TableError::RatedElsewhere
            | TableError::Internal(_) => Reason::Internal,
            TableError::Fair(_) => Reason::Fair,
            TableError::FairLate => Reason::Late,
            TableError::NotPractice => Reason::NotPractice,
            TableError::HintsSpent(_) => Reason::HintsSpent,
            TableError::NoHint => Reason::NoHint,
        }
    }
}

/// What the actor must make durable before it tells anybody, in order.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Write {
    /// A seat taken.
    Seat {
        /// The seat.
        seat: u8,
        /// The name.
        name: String,
        /// The token's hash.
        token: TokenHash,
        /// The bot's level.
        bot: Option<BotLevel>,
        /// The first deal the occupant holds the seat for ([`Occupant::from_deal`]).
        from_deal: u32,
        /// The host claimed it ([`Occupant::host`]).
        host: bool,
    },
    /// A seat freed.
    Free(u8),
    /// The resolved profile ([`Profile::to_json`]): a preset file edited later changes no
    /// table that stored it.
    Profile(serde_json::Value),
    /// The game started.
    Playing,
    /// The game is over. The replay at the next start finds a game over by itself, so the
    /// actor only logs a failure of this write after an action.
    Over,
    /// A deal's deck.
    Deal {
        /// The deal's number.
        deal_no: u32,
        /// The deck.
        deck: [Card; 32],
    },
    /// An accepted action.
    Action {
        /// The deal's number.
        deal_no: u32,
        /// Its place in the deal.
        seq: u32,
        /// Who.
        seat: Seat,
        /// What.
        action: Action,
    },
    /// A fairness row (`fair.rs`).
    Fair(super::FairWrite),
}

/// What an accepted op changed.
#[derive(Debug, Default)]
pub(crate) struct Change {
    /// Durable first.
    pub writes: Vec<Write>,
    /// Then broadcast, numbered from `first`.
    pub news: Vec<News>,
    /// The version of the first item.
    pub first: u64,
    /// The turn after the last item, for ops that change the game.
    pub turn: Option<Turn>,
    /// The seat whose occupant this op removed, and the version of its `seat_freed` item.
    pub freed: Option<(u8, u64)>,
    /// A bot to start in this seat.
    pub bot: Option<(Seat, BotLevel, Secret)>,
}

/// Whether `c` may not appear in a name or a chat line: control characters, and the
/// invisible ones that let a text pass for another (bidi overrides and isolates turn
/// `Anna\u{202e}` text around; zero-width characters make two equal-looking names differ).
#[must_use]
pub(crate) fn disallowed_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'              // soft hyphen
            | '\u{061C}'            // Arabic letter mark
            | '\u{180E}'            // Mongolian vowel separator
            | '\u{200B}'..='\u{200F}' // zero-width space, non-joiner, joiner; LRM, RLM
            | '\u{202A}'..='\u{202E}' // bidi embeddings and overrides
            | '\u{2060}'..='\u{206F}' // word joiner, invisible operators, bidi isolates
            | '\u{FEFF}'            // zero-width no-break space
            | '\u{FFF9}'..='\u{FFFB}' // interlinear annotation
        )
}

/// A name as every name is checked (a player's, a saved profile's): trimmed, 1 to `max`
/// characters, none of them [`disallowed_char`]; `None` when it is not.
#[must_use]
pub(crate) fn checked_name(name: &str, max: usize) -> Option<String> {
    let name = name.trim();
    let n = name.chars().count();
    (n > 0 && n <= max && !name.chars().any(disallowed_char)).then(|| name.to_owned())
}

/// Checks a player's name: 1 to 32 characters after trimming, none of them
/// [`disallowed_char`].
///
/// # Errors
/// [`TableError::BadName`].
pub(crate) fn check_name(name: &str) -> Result<String, TableError> {
    checked_name(name, 32).ok_or(TableError::BadName)
}

/// A stored deal, for a restore: its deck and its accepted actions in order.
pub(crate) type StoredDeal = ([Card; 32], Vec<(Seat, Action)>);

/// A stored seat, for a restore.
#[derive(Clone, Debug)]
pub(crate) struct StoredSeat {
    /// The seat.
    pub seat: u8,
    /// The name.
    pub name: String,
    /// The token's hash.
    pub token: TokenHash,
    /// The bot's level.
    pub bot: Option<BotLevel>,
    /// A bot account holds it ([`Occupant::bot_account`]).
    pub bot_account: bool,
    /// The first deal the occupant holds the seat for ([`Occupant::from_deal`]).
    pub from_deal: u32,
    /// The host claimed it ([`Occupant::host`]).
    pub host: bool,
}

/// Why the record cannot be given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The game has not started.
    #[error("the game has not started")]
    NotStarted,
    /// Hands stay hidden until the end at this table.
    #[error(
        "this table keeps hands hidden (reveal_after_deal = false): the record is available once the game is over"
    )]
    Hidden,
    /// The core could not write it.
    #[error("{0}")]
    Internal(String),
}

/// Why a finished deal cannot be analysed for a viewer yet: the answer names no card.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealHidden {
    /// The game has not started.
    #[error("the game has not started")]
    NotStarted,
    /// The deal is in progress or not dealt yet.
    #[error("deal {deal} is not finished ({finished} deals are)")]
    NotFinished {
        /// The deal asked for, from 0.
        deal: usize,
        /// How many deals are finished.
        finished: usize,
    },
    /// Hands stay hidden until the end at this table.
    #[error(
        "this table keeps hands hidden (reveal_after_deal = false): deals can be analysed once the game is over"
    )]
    Hidden,
    /// The core could not write the record.
    #[error("{0}")]
    Internal(String),
}
