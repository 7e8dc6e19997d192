//! The WebSocket protocol's messages (`docs/protocol.md`).
//!
//! Outgoing messages are built for one viewer. The only card-carrying parts are
//! [`DealView`] and [`ViewEvent`], which come from the core's projection; the table's own
//! news ([`Public`]) never holds a card. [`News`] is what the table broadcasts internally: it
//! may hold a full [`Event`] and is deliberately not `Serialize`; [`News::visible`] is the one
//! way out.

use pref_core::{Action, DealView, Event, Seat, Sheet, ViewEvent, Viewer};

use crate::bots::BotLevel;
use serde::{Deserialize, Serialize};

/// Where a table stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Seats are being filled; the host may change the profile.
    Lobby,
    /// A deal is being played.
    Playing,
    /// A deal is over and the next one has not started; the host may change players.
    BetweenDeals,
    /// The game is over.
    Over,
}

/// One seat as everybody sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatInfo {
    /// The seat number.
    pub seat: u8,
    /// The player's name, `None` while free.
    pub name: Option<String>,
    /// Whether the player has a socket open (a bot always is).
    pub connected: bool,
    /// The bot's level when a bot holds the seat, `null` for a person or a free seat.
    pub bot: Option<BotLevel>,
}

/// A table's public summary (HTTP and snapshots).
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Where the table stands.
    pub phase: Phase,
    /// 3 or 4.
    pub players: u8,
    /// Every option of the house profile.
    pub profile: serde_json::Value,
    /// The seats.
    pub seats: Vec<SeatInfo>,
    /// Deals finished so far.
    pub deals_finished: u32,
    /// Whether spectators take part in the chat.
    pub spectator_chat: bool,
    /// The current event version.
    pub version: u64,
    /// The score sheet, once the game has started.
    pub sheet: Option<SheetView>,
    /// The settlement (R10), once the game is over.
    pub settlement: Option<Settlement>,
}

/// The score sheet: public to everybody at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SheetView {
    /// Pool per seat.
    pub pool: Vec<i64>,
    /// Mountain per seat.
    pub mountain: Vec<i64>,
    /// Whists, `[writer][on]`.
    pub whists: Vec<Vec<i64>>,
}

impl SheetView {
    /// The sheet as sent.
    #[must_use]
    pub fn of(sheet: &Sheet) -> SheetView {
        SheetView {
            pool: sheet.pool().to_vec(),
            mountain: sheet.mountain().to_vec(),
            whists: sheet.whist_matrix(),
        }
    }
}

/// How the game was settled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Settlement {
    /// Ended by agreement (R10.3) rather than by closing every pool.
    pub agreed: bool,
    /// Each seat's balance in whists, exact (`"35/3"` where it is not whole); sums to zero.
    pub balance: Vec<String>,
}

/// Whose turn it is, and for the player to act the legal actions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TurnView {
    /// The player to act (in open play the whister for both defenders).
    pub to_act: Option<Seat>,
    /// The viewer's legal actions; empty unless the viewer is to act.
    pub legal: Vec<Action>,
}

/// The full picture for one viewer: sent first, after a gap, and on request.
#[derive(Clone, Debug, Serialize)]
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
}

/// Who wrote a chat line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Speaker {
    /// A seated player.
    Seat(Seat),
    /// A spectator.
    Spectator,
}

/// Table news that carries no card: the same for every viewer allowed to see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Public {
    /// A seat was taken.
    SeatTaken {
        /// The seat.
        seat: u8,
        /// The player's name.
        name: String,
        /// The bot's level when the host seated a bot, `null` for a person.
        bot: Option<BotLevel>,
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
    },
    /// The game is over.
    GameOver(Settlement),
}

/// One versioned item as a viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Visible {
    /// A deal event, projected for the viewer.
    Deal {
        /// Always `"deal"`.
        kind: &'static str,
        /// The deal's number.
        deal_no: u32,
        /// The event.
        event: ViewEvent,
    },
    /// Table news.
    Public(Public),
}

/// What the table broadcasts internally. Holds full deal events: never serialized.
#[derive(Clone, Debug)]
pub enum News {
    /// A deal event in full.
    Deal {
        /// The deal's number.
        deal_no: u32,
        /// The event, with every hidden card.
        event: Event,
    },
    /// News without cards.
    Public(Public),
}

impl News {
    /// The news as `viewer` may see it; `None` means the viewer gets a stub (the version
    /// number alone). Spectators see the chat only where the host lets them take part.
    #[must_use]
    pub fn visible(&self, viewer: Viewer, players: u8, spectator_chat: bool) -> Option<Visible> {
        match self {
            News::Deal { deal_no, event } => Some(Visible::Deal {
                kind: "deal",
                deal_no: *deal_no,
                event: event.project(viewer, players),
            }),
            News::Public(Public::Chat { .. }) if viewer == Viewer::Spectator && !spectator_chat => {
                None
            }
            News::Public(p) => Some(Visible::Public(p.clone())),
        }
    }
}

/// The turn after an action, for every viewer: who acts and that player's legal actions.
#[derive(Clone, Debug, Default)]
pub struct Turn {
    /// The player to act.
    pub to_act: Option<Seat>,
    /// That player's legal actions.
    pub legal: Vec<Action>,
}

impl Turn {
    /// The turn as `viewer` may see it: legal actions only for the player to act.
    #[must_use]
    pub fn view(&self, viewer: Viewer) -> TurnView {
        TurnView {
            to_act: self.to_act,
            legal: match self.to_act {
                Some(s) if viewer == Viewer::Seat(s) => self.legal.clone(),
                Some(_) | None => Vec::new(),
            },
        }
    }
}

/// A broadcast item: its version, the news, and for the last item of an action the turn.
#[derive(Clone, Debug)]
pub struct Stamped {
    /// The version number.
    pub version: u64,
    /// What happened.
    pub news: News,
    /// The turn after this item, on the last item of a batch.
    pub turn: Option<Turn>,
}

/// Why an action was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The rules refuse it; `message` and `rule` say why.
    Rule,
    /// Another player is to act.
    NotYourTurn,
    /// The action was made at a version older than the game's state; a snapshot follows.
    StaleVersion,
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
}

/// Errors not tied to an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
    /// Spectators may not chat at this table.
    ChatForbidden,
    /// The socket fell behind; a snapshot follows.
    Lagged,
    /// The table stopped; reconnect.
    TableClosed,
}

/// A message from the server to one viewer.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Outgoing {
    /// The full picture.
    Snapshot(Box<Snapshot>),
    /// A numbered item; `event: null` is a stub for an item the viewer may not see.
    Event {
        /// The version.
        version: u64,
        /// The item, or `None` for a stub.
        event: Option<Visible>,
        /// The turn after it, on the last item of an action.
        #[serde(skip_serializing_if = "Option::is_none")]
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
        #[serde(skip_serializing_if = "Option::is_none")]
        rule: Option<&'static str>,
    },
    /// A problem with a message that is not an action.
    Error {
        /// What kind.
        code: ErrorCode,
        /// In plain words.
        message: String,
    },
}

/// A message from a client.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Incoming {
    /// An action in the deal.
    Action {
        /// The client's id for the answer.
        id: String,
        /// The version the client had when it chose.
        version: u64,
        /// The action.
        action: Action,
    },
    /// Start the next deal (any seated player, between deals).
    NextDeal {
        /// The client's id for the answer.
        id: String,
        /// The version the client had.
        version: u64,
    },
    /// A chat line.
    Chat {
        /// The text.
        text: String,
    },
    /// Ask for a fresh snapshot.
    Resync,
}
