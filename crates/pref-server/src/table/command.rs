//! What a table's task is asked, and what a socket's subscription holds: the vocabulary
//! shared by the table's actor (`table`), the edges that ask it (`http`, `socket`) and the
//! bots' driver (`bots`), kept apart from all of them so that none imports another.

use std::sync::Arc;

use pref_core::{Action, Profile, Seat, Viewer};
use pref_protocol::{BotLevel, Snapshot, Summary};
use tokio::sync::{broadcast, oneshot, watch};

use crate::ids::Secret;
use crate::table::machine::{DealHidden, RecordError, RematchPlan, TableError};
use crate::table::wire::Stamped;

/// A seat's message about provably fair deals.
#[derive(Clone, Copy, Debug)]
pub enum FairRequest {
    /// The seat's client contributes to every deal from now on.
    Join,
    /// Its commitment for a deal.
    Commit {
        /// The deal.
        deal_no: u32,
        /// The commitment.
        commitment: pref_core::fair::Digest,
    },
    /// Its value for a deal.
    Reveal {
        /// The deal.
        deal_no: u32,
        /// The value.
        value: pref_core::fair::Contribution,
    },
}

/// What a connecting socket starts with.
#[derive(Debug)]
pub enum Start {
    /// A full picture.
    Snapshot(Box<Snapshot>),
    /// The items missed since the client's last version (possibly none).
    Missed(Vec<Arc<Stamped>>),
}

/// A viewer's subscription to a table.
#[derive(Debug)]
pub struct Session {
    /// Who is watching.
    pub viewer: Viewer,
    /// What to send first.
    pub start: Start,
    /// Items after the start, in order.
    pub rx: broadcast::Receiver<Arc<Stamped>>,
    /// Players at the table (for projecting deal events).
    pub players: u8,
    /// For a seat's session, the first deal its occupant holds the seat for: the events of
    /// earlier deals reach him as a spectator's (0 for a spectator).
    pub from_deal: u32,
    /// Whether spectators take part in the chat.
    pub spectator_chat: bool,
    /// The seat token the session was opened with: presence counts for that occupant only,
    /// and every later command of the socket is checked against the seat's occupant with it.
    pub token: Option<Secret>,
    /// For a seat's session, the version of the `seat_freed` item that ended this occupant's
    /// tenure once it ends (`None` while the occupant holds the seat). The table sets it
    /// before it broadcasts the item, so a socket never sends anything after it as that seat.
    pub tenure: Option<watch::Receiver<Option<u64>>>,
}

/// Who sends a socket's command: the viewer the session was opened as and the seat token it
/// was opened with. The table checks it against the seat's current occupant on every
/// command, so a socket whose seat has been freed (and perhaps taken by someone else) cannot
/// act, chat or resync as that seat.
#[derive(Clone, Copy, Debug)]
pub struct Caller {
    /// The session's viewer.
    pub viewer: Viewer,
    /// The seat token, for a seat's session.
    pub token: Option<Secret>,
}

impl Caller {
    /// A seat's caller.
    #[must_use]
    pub fn seat(seat: Seat, token: Secret) -> Caller {
        Caller {
            viewer: Viewer::Seat(seat),
            token: Some(token),
        }
    }
}

/// What the host may ask, as the edge has read it (the profile already validated).
#[derive(Debug)]
pub enum HostRequest {
    /// Start the game (all seats taken).
    Start,
    /// Change the profile (lobby only).
    Profile(Box<Profile>),
    /// Free a seat (lobby or between deals).
    Remove(u8),
    /// Put a bot of this level into a free seat.
    Bot {
        /// The seat.
        seat: u8,
        /// How strong it plays.
        level: BotLevel,
    },
    /// End the game by agreement (not during a deal).
    End,
    /// Keep a free seat for `name` (lobby only): a rematch's player (asked by the rematch
    /// itself, `rematch`), or a bot account the host invited.
    Reserve {
        /// The seat.
        seat: u8,
        /// The name.
        name: String,
        /// A rematch's kept seat: the lobby then starts itself once every seat is taken.
        rematch: bool,
    },
}

/// A request to a table's task; each carries the channel for its answer.
#[derive(Debug)]
pub enum Command {
    /// The public summary.
    Summary(oneshot::Sender<Summary>),
    /// What the lobby's live list shows of the table (`lobby/mod.rs`): the spectators as
    /// last told, and the preview (`None` before the game starts).
    Preview(oneshot::Sender<(u32, Option<pref_protocol::TablePreview>)>),
    /// The game record (`pref-record/1`) as far as everybody may see it.
    Record(oneshot::Sender<Result<String, RecordError>>),
    /// Every seat's figures in a game that is over, as its end counts them (a seat away on
    /// the clock's autopilot abandoned it): the repair of an end stored without them. None
    /// for a game not over.
    EndFigures(oneshot::Sender<Vec<crate::store::SeatFigures>>),
    /// The record for the analysis of finished deal `deal`, once its cards may be seen
    /// by every viewer.
    DealRecord {
        /// The deal, from 0.
        deal: usize,
        /// The record, or why its cards are still hidden.
        reply: oneshot::Sender<Result<Box<pref_core::Record>, DealHidden>>,
    },
    /// Take a seat (`host` is required once the game has started).
    Claim {
        /// The player's name.
        name: String,
        /// A particular seat, or the first free one.
        seat: Option<u8>,
        /// The host token, when the host seats a player.
        host: Option<Secret>,
        /// The invite key from the invite link.
        invite: Option<Secret>,
        /// The signed-in account taking the seat: at a rated table its one rated seat is
        /// claimed in the seat's write.
        account: Option<i64>,
        /// Seat number and seat token.
        reply: oneshot::Sender<Result<(u8, Secret), TableError>>,
    },
    /// Leave a seat (not during a deal).
    Leave {
        /// The seat token.
        token: Secret,
        /// Done.
        reply: oneshot::Sender<Result<(), TableError>>,
    },
    /// A host action.
    Host {
        /// The host token.
        token: Secret,
        /// What to do.
        op: HostRequest,
        /// The summary afterwards.
        reply: oneshot::Sender<Result<Summary, TableError>>,
    },
    /// Open a session for a socket.
    Connect {
        /// A seat token, or `None` for a spectator.
        token: Option<Secret>,
        /// The last version and epoch a reconnecting client saw.
        resume: Option<(u64, String)>,
        /// The session.
        reply: oneshot::Sender<Result<Session, TableError>>,
    },
    /// A fresh snapshot and subscription for a socket that fell behind or asked; refused
    /// when the caller's seat has been freed.
    Resync {
        /// The socket.
        caller: Caller,
        /// The session.
        reply: oneshot::Sender<Result<Session, TableError>>,
    },
    /// A page of the score log: the finished deals just before `before` (a snapshot holds
    /// only the last ones). Refused when the caller's seat has been freed.
    ScorePage {
        /// The socket.
        caller: Caller,
        /// The deal number the page ends before.
        before: u32,
        /// The page.
        reply: oneshot::Sender<Result<pref_protocol::ScorePage, TableError>>,
    },
    /// A seat's socket opened (`true`) or closed.
    Presence {
        /// The seat.
        seat: Seat,
        /// The socket's seat token; a socket of a player who has since been replaced counts
        /// for nobody.
        token: Secret,
        /// Opened or closed.
        connected: bool,
    },
    /// A spectator's socket opened (`true`) or closed.
    Watching {
        /// Opened or closed.
        connected: bool,
    },
    /// What a rematch of this finished table copies, for its host.
    RematchPlan {
        /// The host token.
        token: Secret,
        /// The plan, or why there is none.
        reply: oneshot::Sender<Result<RematchPlan, TableError>>,
    },
    /// Where a player of this finished table sits in its rematch (id, seat, name).
    RematchSeat {
        /// The player's seat token at this table.
        token: Secret,
        /// The rematch's id, the seat and the name, or why there is none.
        reply: oneshot::Sender<Result<(String, u8, String), TableError>>,
    },
    /// The key of this table's invite link, for its host (his page shows the link again).
    InviteKey {
        /// The host token.
        host: Secret,
        /// The key, or why the token gets none.
        reply: oneshot::Sender<Result<Secret, TableError>>,
    },
    /// Keep bot accounts out of this table, just opened (`docs/bot-api.md`): stored, then
    /// the summary.
    PeopleOnly {
        /// The summary after.
        reply: oneshot::Sender<Result<pref_protocol::Summary, TableError>>,
    },
    /// Make this table, just opened, rated in the family (`docs/ratings.md`): stored, then
    /// the summary.
    Rated {
        /// The family.
        family: pref_rating::Family,
        /// The summary after.
        reply: oneshot::Sender<Result<pref_protocol::Summary, TableError>>,
    },
    /// A bot account takes a seat (`docs/bot-api.md`): the edge checked its API token and
    /// whether a host invited it here.
    BotClaim {
        /// The account's user name.
        name: String,
        /// A particular seat, or the first free one (the first kept for it, invited).
        seat: Option<u8>,
        /// The invite key from the invite link.
        invite: Option<Secret>,
        /// A host invited the account to this table.
        invited: bool,
        /// The bot account: at a rated table its one rated seat is claimed in the seat's
        /// write.
        account: i64,
        /// Seat number and seat token.
        reply: oneshot::Sender<Result<(u8, Secret), TableError>>,
    },
    /// A player of the finished table this one is the rematch of takes the seat kept for
    /// him (the edge checked his seat token there).
    Rejoin {
        /// The kept seat.
        seat: u8,
        /// The name it is kept for.
        name: String,
        /// Seat number and seat token.
        reply: oneshot::Sender<Result<(u8, Secret), TableError>>,
    },
    /// The host opened table `table` as this table's rematch: tell every viewer.
    Rematched {
        /// The host token.
        token: Secret,
        /// The new table's id.
        table: String,
        /// Done.
        reply: oneshot::Sender<Result<(), TableError>>,
    },
    /// An action by a seated player.
    Act {
        /// The player.
        seat: Seat,
        /// The seat token, checked against the seat's occupant.
        token: Secret,
        /// The version the client chose at.
        version: u64,
        /// The action.
        action: Action,
        /// The version of the last item it produced, or why nothing changed.
        reply: oneshot::Sender<Result<u64, TableError>>,
    },
    /// Start the next deal.
    NextDeal {
        /// The player asking.
        seat: Seat,
        /// The seat token, checked against the seat's occupant.
        token: Secret,
        /// The version the client asked at.
        version: u64,
        /// The version of the last item it produced, or why nothing changed.
        reply: oneshot::Sender<Result<u64, TableError>>,
    },
    /// A chat line (already length-checked).
    Chat {
        /// Who writes.
        caller: Caller,
        /// The text.
        text: String,
        /// Refused for a spectator when the host does not allow it, and for a seat that has
        /// been freed.
        reply: oneshot::Sender<Result<(), TableError>>,
    },
    /// A seat's vote on stopping the game by agreement (R10.3): the seat is the one
    /// `token` holds.
    Stop {
        /// The seat token.
        token: Secret,
        /// The vote.
        vote: pref_protocol::StopVote,
        /// The summary after the vote; [`TableError::NotSeated`] for a token that holds no
        /// seat, or the machine's refusal.
        reply: oneshot::Sender<Result<pref_protocol::Summary, TableError>>,
    },
    /// An away seat's player is back (`back`): the autopilot stops moving for the seat.
    Back {
        /// Who says so: a seat and its token.
        caller: Caller,
        /// Refused for a spectator, a freed seat and at a table without a clock; `Ok` also
        /// when the seat was not away.
        reply: oneshot::Sender<Result<(), TableError>>,
    },
    /// A seat's hint request at a practice table: checked and counted by the table, worked
    /// out by the asker (`table/practice.rs`).
    Hint {
        /// Who asks: a seat and its token.
        caller: Caller,
        /// The version the client had.
        version: u64,
        /// The seat's view to work the hint out from, or why none is given.
        reply: oneshot::Sender<Result<crate::table::practice::HintJob, TableError>>,
    },
    /// A seat's part in provably fair deals (`table/fair.rs`).
    Fair {
        /// The seat.
        seat: Seat,
        /// Its token.
        token: Secret,
        /// What it sends.
        request: FairRequest,
        /// The version of the last item it produced, or why nothing changed
        /// ([`TableError::FairLate`] for a value recorded as late).
        reply: oneshot::Sender<Result<u64, TableError>>,
    },
    /// The autopilot's move for a seat whose time ran out, decided from that seat's view.
    Autopilot {
        /// The seat.
        seat: Seat,
        /// The table's version when the autopilot was started; a later change makes it stale.
        version: u64,
        /// The move.
        action: Action,
    },
    /// The host pauses or resumes the clock (between deals).
    Pause {
        /// Proves the host.
        host: Secret,
        /// Pause (`true`) or resume.
        paused: bool,
        /// The summary after it, or why not.
        reply: oneshot::Sender<Result<Summary, TableError>>,
    },
    /// Makes the task panic, to test that a panic stays inside its table.
    #[cfg(test)]
    Panic,
}
