//! One table: a task that owns the game and takes commands from an inbox, one at a time.
//!
//! Everything that changes a table goes through [`Command`]s on its `mpsc` inbox, so actions
//! are ordered without locks. The task writes to the [`Store`] and waits before it
//! broadcasts, so nothing a client sees can be lost by a crash. Results go out as
//! [`Stamped`] items on a bounded `broadcast` channel; each socket projects them for its own
//! viewer. A bounded history lets a reconnecting client catch up without a snapshot.

use std::collections::VecDeque;
use std::sync::Arc;

use pref_core::{
    Action, Card, Deal, Event, Game, GameError, Profile, Record, RuleError, Seat, Viewer,
};
use rand::rngs::OsRng;
use rand::seq::SliceRandom;
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use crate::bots::{self, BotHandle, BotLevel, Pace, Prompt};
use crate::config::Limits;
use crate::error::ApiError;
use crate::ids::Secret;
use crate::metrics::METRICS;
use crate::store::{Store, Stored, TableRow};
use crate::wire::{
    News, Outgoing, Phase, Public, Reason, SeatInfo, Settlement, SheetView, Snapshot, Speaker,
    Stamped, Summary, Turn,
};

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

/// Who sends a socket's or a bot's command: the viewer the session was opened as and the seat
/// token it was opened with. The table checks it against the seat's current occupant on every
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

/// The answer to a command whose caller no longer holds the seat it was opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatLost;

/// The answer to a chat line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChatAnswer {
    /// Broadcast.
    Sent,
    /// Spectators may not chat at this table.
    Forbidden,
    /// The caller's seat has been freed.
    SeatLost,
}

/// A request to a table's task; each carries the channel for its answer.
#[derive(Debug)]
pub enum Command {
    /// The public summary.
    Summary(oneshot::Sender<Summary>),
    /// The game record (`pref-record/1`) as far as everybody may see it.
    Record(oneshot::Sender<Result<String, ApiError>>),
    /// Take a seat (`host` is required once the game has started).
    Claim {
        /// The player's name.
        name: String,
        /// A particular seat, or the first free one.
        seat: Option<u8>,
        /// The host token, when the host seats a player.
        host: Option<Secret>,
        /// Seat number and seat token.
        reply: oneshot::Sender<Result<(u8, Secret), ApiError>>,
    },
    /// Leave a seat (not during a deal).
    Leave {
        /// The seat token.
        token: Secret,
        /// Done.
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    /// A host action.
    Host {
        /// The host token.
        token: Secret,
        /// What to do.
        op: HostOp,
        /// The summary afterwards.
        reply: oneshot::Sender<Result<Summary, ApiError>>,
    },
    /// Open a session for a socket.
    Connect {
        /// A seat token, or `None` for a spectator.
        token: Option<Secret>,
        /// The last version and epoch a reconnecting client saw.
        resume: Option<(u64, String)>,
        /// The session.
        reply: oneshot::Sender<Result<Session, ApiError>>,
    },
    /// A fresh snapshot and subscription for a socket that fell behind or asked; refused
    /// when the caller's seat has been freed.
    Resync {
        /// The socket.
        caller: Caller,
        /// The session.
        reply: oneshot::Sender<Result<Session, SeatLost>>,
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
    /// An action by a seated player.
    Act {
        /// The player: seat and seat token.
        seat: Seat,
        /// The seat token, checked against the seat's occupant.
        token: Secret,
        /// The client's id.
        id: String,
        /// The version the client chose at.
        version: u64,
        /// The action.
        action: Action,
        /// Ack or rejection.
        reply: oneshot::Sender<Result<Outgoing, SeatLost>>,
    },
    /// Start the next deal.
    NextDeal {
        /// The player asking.
        seat: Seat,
        /// The seat token, checked against the seat's occupant.
        token: Secret,
        /// The client's id.
        id: String,
        /// The version the client asked at.
        version: u64,
        /// Ack or rejection.
        reply: oneshot::Sender<Result<Outgoing, SeatLost>>,
    },
    /// Makes the task panic, to test that a panic stays inside its table.
    #[cfg(test)]
    Panic,
    /// A chat line (already length-checked).
    Chat {
        /// Who writes.
        caller: Caller,
        /// The text.
        text: String,
        /// Refused for a spectator when the host does not allow it, and for a seat that has
        /// been freed.
        reply: oneshot::Sender<ChatAnswer>,
    },
}

/// What the host may do.
#[derive(Debug)]
pub enum HostOp {
    /// Start the game (all seats taken).
    Start,
    /// Change the profile (lobby only).
    Profile(serde_json::Value),
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
}

/// An occupied seat.
#[derive(Debug)]
struct Occupant {
    /// Shown to everybody.
    name: String,
    /// Proves the seat.
    token: Secret,
    /// Open sockets; the seat is connected while this is positive.
    sockets: u32,
    /// The level of the bot holding the seat, if a bot does.
    bot: Option<BotLevel>,
    /// Tells this occupant's sockets the version at which the seat was freed.
    tenure: watch::Sender<Option<u64>>,
}

impl Occupant {
    fn new(name: String, token: Secret, bot: Option<BotLevel>) -> Occupant {
        Occupant {
            name,
            token,
            sockets: 0,
            bot,
            tenure: watch::Sender::new(None),
        }
    }
}

/// The state one table's task owns.
pub struct Table {
    /// Row number: the label in logs (the id is a secret).
    no: i64,
    /// Proves the host.
    host: Secret,
    /// Where every accepted step is written first.
    store: Store,
    /// History length and queue sizes.
    limits: Limits,
    /// The agreements.
    profile: Profile,
    /// The profile as requested (preset + options), stored and restored from.
    profile_request: serde_json::Value,
    /// Whether spectators take part in the chat.
    spectator_chat: bool,
    /// Dealer of the first deal, drawn when the table is created.
    first_dealer: Seat,
    /// Where the table stands.
    phase: Phase,
    /// Seats 0..4 (only the first `players` are used).
    seats: [Option<Occupant>; 4],
    /// The game once started.
    game: Option<Game>,
    /// Deals started so far.
    deals_started: u32,
    /// Accepted actions in the current deal.
    seq: u32,
    /// The last finished deal, shown between deals.
    last_deal: Option<Deal>,
    /// The settlement once the game is over.
    settlement: Option<Settlement>,
    /// The last version handed out.
    version: u64,
    /// The version of the last change to the game; actions made before it are stale.
    state_version: u64,
    /// Random per task start: versions restart with it.
    epoch: String,
    /// Recent items for reconnecting clients.
    history: VecDeque<Arc<Stamped>>,
    /// The broadcast to every socket.
    tx: broadcast::Sender<Arc<Stamped>>,
    /// The task's own inbox, for the bots it starts (weak: bots do not keep a table open).
    me: Option<mpsc::WeakSender<Command>>,
    /// The bots playing seats 0..4.
    bots: [Option<BotHandle>; 4],
    /// The state version the bots were last prompted at; `None` forces a prompt.
    prompted: Option<u64>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("no", &self.no)
            .field("phase", &self.phase)
            .finish()
    }
}

/// The parts of a new table the caller chooses.
#[derive(Debug)]
pub struct NewTable {
    /// Row number.
    pub no: i64,
    /// Host token.
    pub host: Secret,
    /// Validated profile.
    pub profile: Profile,
    /// As requested.
    pub profile_request: serde_json::Value,
    /// Spectators in the chat.
    pub spectator_chat: bool,
    /// First dealer.
    pub first_dealer: Seat,
}

/// Checks a player's name: 1 to 32 characters after trimming, no control characters.
///
/// # Errors
/// [`ApiError::BadRequest`] saying what is wrong.
pub fn check_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    let n = name.chars().count();
    if n == 0 || n > 32 || name.chars().any(char::is_control) {
        return Err(ApiError::BadRequest(
            "a name is 1 to 32 characters without control characters".into(),
        ));
    }
    Ok(name.to_owned())
}

fn profile_json(profile: &Profile) -> serde_json::Value {
    profile.to_json()
}

impl Table {
    /// A table in the lobby.
    #[must_use]
    pub fn new(t: NewTable, store: Store, limits: Limits) -> Table {
        let (tx, _) = broadcast::channel(limits.queue.max(1));
        Table {
            no: t.no,
            host: t.host,
            store,
            limits,
            profile: t.profile,
            profile_request: t.profile_request,
            spectator_chat: t.spectator_chat,
            first_dealer: t.first_dealer,
            phase: Phase::Lobby,
            seats: [None, None, None, None],
            game: None,
            deals_started: 0,
            seq: 0,
            last_deal: None,
            settlement: None,
            version: 0,
            state_version: 0,
            epoch: Secret::random().expose()[..16].to_owned(),
            history: VecDeque::new(),
            tx,
            me: None,
            bots: [None, None, None, None],
            prompted: None,
        }
    }

    /// Rebuilds a stored table by replaying its decks and actions through the core.
    ///
    /// # Errors
    /// A message if the stored profile or a stored action no longer replays.
    pub fn restore(row: TableRow, store: Store, limits: Limits) -> Result<Table, String> {
        let profile = Profile::from_json(&row.profile).map_err(|e| e.to_string())?;
        let mut table = Table::new(
            NewTable {
                no: row.no,
                host: row.host,
                profile,
                profile_request: row.profile,
                spectator_chat: row.spectator_chat,
                first_dealer: Seat(row.first_dealer),
            },
            store,
            limits,
        );
        for s in row.seats {
            let bot = match s.bot.as_deref() {
                None => None,
                Some(name) => Some(
                    BotLevel::parse(name)
                        .ok_or_else(|| format!("seat {}: unknown bot level {name:?}", s.seat))?,
                ),
            };
            if let Some(slot) = table.seats.get_mut(s.seat as usize) {
                *slot = Some(Occupant::new(s.name, s.token, bot));
            }
        }
        let ended_in_lobby = row.state == Stored::Over && row.deals.is_empty();
        if ended_in_lobby {
            table.phase = Phase::Over;
            table.settlement = Some(Settlement {
                agreed: true,
                balance: Vec::new(),
            });
        } else if matches!(row.state, Stored::Playing | Stored::Over) {
            let mut game =
                Game::new(table.profile.clone(), table.first_dealer).map_err(|e| e.to_string())?;
            for (i, d) in row.deals.iter().enumerate() {
                game.start_deal(&d.deck)
                    .map_err(|e| format!("deal {i}: {e}"))?;
                let mut shadow = *game.deal().ok_or("no deal after start")?;
                for (k, &(player, action)) in d.actions.iter().enumerate() {
                    game.act(player, action)
                        .map_err(|e| format!("deal {i} action {k}: {e}"))?;
                    let _ = shadow.act(player, action);
                }
                if game.deal().is_none() {
                    table.last_deal = Some(shadow);
                }
                table.seq = d.actions.len() as u32;
            }
            table.deals_started = row.deals.len() as u32;
            table.phase = if game.deal().is_some() {
                Phase::Playing
            } else {
                Phase::BetweenDeals
            };
            // A crash between the last action and the state change leaves a finished game
            // stored as playing; the replay knows better.
            if let Some(balance) = game.settlement() {
                table.phase = Phase::Over;
                table.settlement = Some(Settlement {
                    agreed: false,
                    balance: balance.iter().map(ToString::to_string).collect(),
                });
            } else if row.state == Stored::Over {
                // Over without a closed pool: the host ended it by agreement (R10.3).
                table.phase = Phase::Over;
                table.settlement = Some(Settlement {
                    agreed: true,
                    balance: game
                        .agreed_settlement()
                        .iter()
                        .map(ToString::to_string)
                        .collect(),
                });
            }
            table.game = Some(game);
        }
        Ok(table)
    }

    /// Serves commands until every sender is gone; `me` is the inbox's own sender, for
    /// the bots the table starts.
    pub async fn run(mut self, mut inbox: mpsc::Receiver<Command>, me: mpsc::WeakSender<Command>) {
        self.me = Some(me);
        for s in 0..self.players() {
            if let Some(level) = self.seats[s as usize].as_ref().and_then(|o| o.bot) {
                self.start_bot(Seat(s), level);
            }
        }
        self.wake_bots();
        while let Some(cmd) = inbox.recv().await {
            self.handle(cmd).await;
            self.wake_bots();
        }
    }

    /// How long bots wait before they act.
    fn pace(&self) -> Pace {
        Pace {
            min: std::time::Duration::from_millis(self.limits.bot_delay_min_ms),
            max: std::time::Duration::from_millis(self.limits.bot_delay_max_ms),
        }
    }

    /// Starts the bot for `seat`, catching it up on a deal in progress.
    fn start_bot(&mut self, seat: Seat, level: BotLevel) {
        let Some(me) = self.me.clone() else {
            return;
        };
        let Some(token) = self.seats[seat.index()].as_ref().map(|o| o.token) else {
            return;
        };
        let bot = bots::spawn(self.no, seat, token, level, me, self.pace());
        if let Some(game) = self.game.as_ref().filter(|g| g.deal().is_some()) {
            let players = self.players();
            bot.tell(Prompt::Events(
                game.deal_events()
                    .iter()
                    .map(|e| e.project(Viewer::Seat(seat), players))
                    .collect(),
            ));
        }
        self.bots[seat.index()] = Some(bot);
        self.prompted = None;
    }

    /// Tells the bot to act when it is a bot's turn, and starts the next deal when only
    /// bots sit at the table; once per change of the game.
    fn wake_bots(&mut self) {
        if self.prompted == Some(self.state_version) || self.bots.iter().all(Option::is_none) {
            return;
        }
        self.prompted = Some(self.state_version);
        let players = self.players() as usize;
        match self.phase {
            Phase::Playing => {
                let Some(deal) = self.game.as_ref().and_then(Game::deal) else {
                    return;
                };
                let Some(player) = deal.to_act() else {
                    return;
                };
                if let Some(bot) = self.bots.get(player.index()).and_then(Option::as_ref) {
                    bot.tell(Prompt::Turn {
                        version: self.version,
                        view: Box::new(deal.view(Viewer::Seat(player))),
                        legal: deal.legal_actions_for(player),
                    });
                }
            }
            Phase::BetweenDeals => {
                let seated = &self.bots[..players];
                if seated.iter().all(Option::is_some)
                    && let Some(bot) = seated.iter().flatten().next()
                {
                    bot.tell(Prompt::NextDeal {
                        version: self.version,
                    });
                }
            }
            Phase::Lobby | Phase::Over => {}
        }
    }

    fn players(&self) -> u8 {
        self.profile.players
    }

    async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Summary(reply) => {
                let _ = reply.send(self.summary());
            }
            Command::Record(reply) => {
                let _ = reply.send(self.record());
            }
            Command::Claim {
                name,
                seat,
                host,
                reply,
            } => {
                let _ = reply.send(self.claim(name, seat, host).await);
            }
            Command::Leave { token, reply } => {
                let _ = reply.send(self.leave(&token).await);
            }
            Command::Host { token, op, reply } => {
                let r = if self.host.matches(&token) {
                    self.host_op(op).await.map(|()| self.summary())
                } else {
                    Err(ApiError::Forbidden(
                        "the host token is not valid at this table",
                    ))
                };
                let _ = reply.send(r);
            }
            Command::Connect {
                token,
                resume,
                reply,
            } => {
                let _ = reply.send(self.connect(token, resume));
            }
            Command::Resync { caller, reply } => {
                let session = if self.holds(&caller) {
                    let mut session = self.session(caller.viewer, None);
                    session.token = caller.token;
                    Ok(session)
                } else {
                    Err(SeatLost)
                };
                let _ = reply.send(session);
            }
            Command::Presence {
                seat,
                token,
                connected,
            } => self.presence(seat, &token, connected),
            Command::Act {
                seat,
                token,
                id,
                version,
                action,
                reply,
            } => {
                let out = if self.holds(&Caller::seat(seat, token)) {
                    let out = self.act(seat, id, version, action).await;
                    if matches!(out, Outgoing::Rejected { .. }) {
                        METRICS.rejection();
                    }
                    Ok(out)
                } else {
                    Err(SeatLost)
                };
                let _ = reply.send(out);
            }
            Command::NextDeal {
                seat,
                token,
                id,
                version,
                reply,
            } => {
                let out = if self.holds(&Caller::seat(seat, token)) {
                    Ok(self.next_deal(seat, id, version).await)
                } else {
                    Err(SeatLost)
                };
                let _ = reply.send(out);
            }
            #[cfg(test)]
            Command::Panic => panic!("a table task panics on request"),
            Command::Chat {
                caller,
                text,
                reply,
            } => {
                let from = match caller.viewer {
                    _ if !self.holds(&caller) => {
                        let _ = reply.send(ChatAnswer::SeatLost);
                        return;
                    }
                    Viewer::Seat(s) => Speaker::Seat(s),
                    Viewer::Spectator if self.spectator_chat => Speaker::Spectator,
                    Viewer::Spectator => {
                        let _ = reply.send(ChatAnswer::Forbidden);
                        return;
                    }
                };
                self.publish(vec![News::Public(Public::Chat { from, text })], None);
                let _ = reply.send(ChatAnswer::Sent);
            }
        }
    }

    /// The public summary.
    fn summary(&self) -> Summary {
        Summary {
            phase: self.phase,
            players: self.players(),
            profile: profile_json(&self.profile),
            seats: (0..self.players())
                .map(|s| {
                    let o = self.seats[s as usize].as_ref();
                    SeatInfo {
                        seat: s,
                        name: o.map(|o| o.name.clone()),
                        connected: o.is_some_and(|o| o.sockets > 0 || o.bot.is_some()),
                        bot: o.and_then(|o| o.bot),
                    }
                })
                .collect(),
            deals_finished: self.finished_deals(),
            spectator_chat: self.spectator_chat,
            version: self.version,
            sheet: self.game.as_ref().map(|g| SheetView::of(g.sheet())),
            settlement: self.settlement.clone(),
        }
    }

    /// The record of the finished deals: all of them once the game is over; during the
    /// game only where `reveal_after_deal` shows finished deals to everybody anyway.
    fn record(&self) -> Result<String, ApiError> {
        let game = self
            .game
            .as_ref()
            .ok_or_else(|| ApiError::Conflict("the game has not started".into()))?;
        if self.phase != Phase::Over && !self.profile.reveal_after_deal {
            return Err(ApiError::Conflict(
                "this table keeps hands hidden (reveal_after_deal = false): \
                 the record is available once the game is over"
                    .into(),
            ));
        }
        let names: Vec<String> = (0..self.players())
            .map(|s| match &self.seats[s as usize] {
                Some(o) => o.name.clone(),
                None => format!("seat {s}"),
            })
            .collect();
        let agreed = self.settlement.as_ref().is_some_and(|s| s.agreed);
        let record = Record::from_game(game, &names)
            .map_err(|e| ApiError::Internal(e.to_string()))?
            .with_agreed_stop(agreed);
        Ok(record.to_json_string())
    }

    fn finished_deals(&self) -> u32 {
        let in_progress = self.game.as_ref().is_some_and(|g| g.deal().is_some());
        self.deals_started - u32::from(in_progress)
    }

    /// Sends items to every socket and keeps them for reconnects; the last carries `turn`.
    fn publish(&mut self, news: Vec<News>, turn: Option<Turn>) {
        let n = news.len();
        for (i, news) in news.into_iter().enumerate() {
            self.version += 1;
            let item = Arc::new(Stamped {
                version: self.version,
                news,
                turn: if i + 1 == n { turn.clone() } else { None },
            });
            if self.history.len() >= self.limits.history.max(1) {
                self.history.pop_front();
            }
            self.history.push_back(item.clone());
            if let News::Deal { event, .. } = &item.news {
                self.tell_bots(*event);
            }
            // No receivers is fine: nobody is watching.
            let _ = self.tx.send(item);
        }
    }

    /// Passes a deal event to the bots as their seats see it.
    fn tell_bots(&self, event: Event) {
        let players = self.players();
        for (s, bot) in self.bots.iter().enumerate() {
            if let Some(bot) = bot {
                bot.tell(Prompt::Events(vec![
                    event.project(Viewer::Seat(Seat(s as u8)), players),
                ]));
            }
        }
    }

    fn turn(&self) -> Turn {
        match self.game.as_ref().and_then(Game::deal) {
            Some(deal) => {
                let to_act = deal.to_act();
                Turn {
                    to_act,
                    legal: to_act
                        .map(|p| deal.legal_actions_for(p).into_iter().collect())
                        .unwrap_or_default(),
                }
            }
            None => Turn::default(),
        }
    }

    fn snapshot(&self, viewer: Viewer) -> Snapshot {
        let (deal_no, deal) = match self.game.as_ref().and_then(Game::deal) {
            Some(d) => (Some(self.deals_started - 1), Some(d.view(viewer))),
            None => match &self.last_deal {
                Some(d) => (Some(self.deals_started - 1), Some(d.view(viewer))),
                None => (None, None),
            },
        };
        Snapshot {
            version: self.version,
            epoch: self.epoch.clone(),
            you: viewer,
            table: self.summary(),
            deal_no,
            deal,
            turn: self.turn().view(viewer),
        }
    }

    fn session(&self, viewer: Viewer, resume: Option<(u64, String)>) -> Session {
        let missed = resume.and_then(|(since, epoch)| {
            if epoch != self.epoch || since > self.version {
                return None;
            }
            let oldest = self.history.front().map_or(self.version + 1, |s| s.version);
            (since + 1 >= oldest).then(|| {
                self.history
                    .iter()
                    .filter(|s| s.version > since)
                    .cloned()
                    .collect::<Vec<_>>()
            })
        });
        Session {
            viewer,
            start: match missed {
                Some(m) => Start::Missed(m),
                None => Start::Snapshot(Box::new(self.snapshot(viewer))),
            },
            rx: self.tx.subscribe(),
            players: self.players(),
            spectator_chat: self.spectator_chat,
            token: None,
            tenure: None,
        }
    }

    /// The seat whose token this is; every seat is compared, without an early exit.
    fn seat_of(&self, token: &Secret) -> Option<u8> {
        let mut found = None;
        for (i, o) in self.seats.iter().enumerate() {
            if let Some(o) = o
                && o.token.matches(token)
            {
                found = Some(i as u8);
            }
        }
        found
    }

    /// Whether `caller` may speak for its viewer: a spectator always may; a seat only while
    /// the token it was opened with is the current occupant's.
    fn holds(&self, caller: &Caller) -> bool {
        match (caller.viewer, caller.token) {
            (Viewer::Spectator, _) => true,
            (Viewer::Seat(seat), Some(token)) => self
                .seats
                .get(seat.index())
                .and_then(Option::as_ref)
                .is_some_and(|o| o.token.matches(&token)),
            (Viewer::Seat(_), None) => false,
        }
    }

    fn connect(
        &mut self,
        token: Option<Secret>,
        resume: Option<(u64, String)>,
    ) -> Result<Session, ApiError> {
        let viewer = match token {
            None => Viewer::Spectator,
            Some(t) => Viewer::Seat(Seat(self.seat_of(&t).ok_or(ApiError::Forbidden(
                "the seat token is not valid at this table (the seat may have been freed)",
            ))?)),
        };
        let mut session = self.session(viewer, resume);
        session.token = token;
        if let Viewer::Seat(seat) = viewer {
            session.tenure = self.seats[seat.index()]
                .as_ref()
                .map(|o| o.tenure.subscribe());
        }
        Ok(session)
    }

    fn presence(&mut self, seat: Seat, token: &Secret, connected: bool) {
        let Some(o) = self.seats.get_mut(seat.index()).and_then(Option::as_mut) else {
            return;
        };
        if !o.token.matches(token) {
            return;
        }
        let before = o.sockets > 0;
        if connected {
            o.sockets += 1;
        } else {
            o.sockets = o.sockets.saturating_sub(1);
        }
        let after = o.sockets > 0;
        if before != after {
            self.publish(
                vec![News::Public(Public::Presence {
                    seat: seat.0,
                    connected: after,
                })],
                None,
            );
        }
    }

    async fn claim(
        &mut self,
        name: String,
        seat: Option<u8>,
        host: Option<Secret>,
    ) -> Result<(u8, Secret), ApiError> {
        let name = check_name(&name)?;
        match self.phase {
            Phase::Lobby => {}
            Phase::BetweenDeals | Phase::Playing => {
                if !host.is_some_and(|h| self.host.matches(&h)) {
                    return Err(ApiError::Forbidden(
                        "the game has started: only the host can seat a player",
                    ));
                }
            }
            Phase::Over => return Err(ApiError::Conflict("the game is over".into())),
        }
        let free = |s: u8| self.seats[s as usize].is_none();
        let seat = match seat {
            Some(s) if s >= self.players() => {
                return Err(ApiError::BadRequest(format!("there is no seat {s}")));
            }
            Some(s) if !free(s) => return Err(ApiError::Conflict(format!("seat {s} is taken"))),
            Some(s) => s,
            None => (0..self.players())
                .find(|&s| free(s))
                .ok_or_else(|| ApiError::Conflict("every seat is taken".into()))?,
        };
        let token = Secret::random();
        self.store
            .put_seat(self.no, seat, &name, &token, None)
            .await?;
        self.seats[seat as usize] = Some(Occupant::new(name.clone(), token, None));
        tracing::info!(table = self.no, seat, "seat taken");
        self.publish(
            vec![News::Public(Public::SeatTaken {
                seat,
                name,
                bot: None,
            })],
            None,
        );
        Ok((seat, token))
    }

    /// Puts a bot of `level` into free seat `seat` (the host's call, at any time before
    /// the game is over).
    async fn seat_bot(&mut self, seat: u8, level: BotLevel) -> Result<(), ApiError> {
        if seat >= self.players() {
            return Err(ApiError::BadRequest(format!("there is no seat {seat}")));
        }
        if self.seats[seat as usize].is_some() {
            return Err(ApiError::Conflict(format!("seat {seat} is taken")));
        }
        let name = format!("Bot {}", seat + 1);
        let token = Secret::random();
        self.store
            .put_seat(self.no, seat, &name, &token, Some(level.as_str()))
            .await?;
        self.seats[seat as usize] = Some(Occupant::new(name.clone(), token, Some(level)));
        tracing::info!(table = self.no, seat, level = level.as_str(), "bot seated");
        self.publish(
            vec![News::Public(Public::SeatTaken {
                seat,
                name,
                bot: Some(level),
            })],
            None,
        );
        self.start_bot(Seat(seat), level);
        Ok(())
    }

    fn deal_in_progress(&self) -> bool {
        self.game.as_ref().is_some_and(|g| g.deal().is_some())
    }

    async fn free(&mut self, seat: u8) -> Result<(), ApiError> {
        if self.deal_in_progress() {
            return Err(ApiError::Conflict(
                "a deal is in progress: seats change between deals".into(),
            ));
        }
        if self.seats.get(seat as usize).is_none_or(Option::is_none) {
            return Err(ApiError::Conflict(format!("seat {seat} is free")));
        }
        self.store.free_seat(self.no, seat).await?;
        // The sockets of this occupant learn the end of the tenure before the item that
        // announces it is broadcast: whatever order they read in, nothing after it reaches
        // them as this seat, even if they miss the item itself.
        if let Some(gone) = self.seats[seat as usize].take() {
            gone.tenure.send_replace(Some(self.version + 1));
        }
        // Dropping the handle ends the bot's task.
        self.bots[seat as usize] = None;
        self.prompted = None;
        tracing::info!(table = self.no, seat, "seat freed");
        self.publish(vec![News::Public(Public::SeatFreed { seat })], None);
        Ok(())
    }

    async fn leave(&mut self, token: &Secret) -> Result<(), ApiError> {
        let seat = self.seat_of(token).ok_or(ApiError::Forbidden(
            "the seat token is not valid at this table",
        ))?;
        self.free(seat).await
    }

    async fn host_op(&mut self, op: HostOp) -> Result<(), ApiError> {
        if self.phase == Phase::Over {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        match op {
            HostOp::Start => {
                if self.phase != Phase::Lobby {
                    return Err(ApiError::Conflict("the game has already started".into()));
                }
                if (0..self.players()).any(|s| self.seats[s as usize].is_none()) {
                    return Err(ApiError::Conflict("not every seat is taken".into()));
                }
                let game = Game::new(self.profile.clone(), self.first_dealer)
                    .map_err(|e| ApiError::Internal(e.to_string()))?;
                self.store.set_state(self.no, Stored::Playing).await?;
                self.game = Some(game);
                self.phase = Phase::BetweenDeals;
                tracing::info!(table = self.no, "game started");
                self.publish(
                    vec![News::Public(Public::Started {
                        first_dealer: self.first_dealer,
                    })],
                    None,
                );
                self.start_deal().await
            }
            HostOp::Profile(request) => {
                if self.phase != Phase::Lobby {
                    return Err(ApiError::Conflict(
                        "the profile is frozen once the game has started".into(),
                    ));
                }
                let profile = Profile::from_json(&request)?;
                if (profile.players..4).any(|s| self.seats[s as usize].is_some()) {
                    return Err(ApiError::Conflict(
                        "a seat beyond the new number of players is taken".into(),
                    ));
                }
                self.store.set_profile(self.no, &request).await?;
                if self.first_dealer.0 >= profile.players {
                    self.first_dealer = Seat(0);
                }
                self.profile = profile;
                self.profile_request = request;
                self.publish(
                    vec![News::Public(Public::ProfileChanged {
                        profile: profile_json(&self.profile),
                    })],
                    None,
                );
                Ok(())
            }
            HostOp::Remove(seat) => self.free(seat).await,
            HostOp::Bot { seat, level } => self.seat_bot(seat, level).await,
            HostOp::End => {
                if self.deal_in_progress() {
                    return Err(ApiError::Conflict(
                        "a deal is in progress: end the game between deals".into(),
                    ));
                }
                self.store.set_state(self.no, Stored::Over).await?;
                let balance = self
                    .game
                    .as_ref()
                    .map(|g| {
                        g.agreed_settlement()
                            .iter()
                            .map(ToString::to_string)
                            .collect()
                    })
                    .unwrap_or_default();
                let settlement = Settlement {
                    agreed: true,
                    balance,
                };
                self.phase = Phase::Over;
                self.settlement = Some(settlement.clone());
                self.state_version = self.version + 1;
                tracing::info!(table = self.no, "game ended by agreement");
                self.publish(vec![News::Public(Public::GameOver(settlement))], None);
                Ok(())
            }
        }
    }

    /// Shuffles with the OS's CSPRNG, stores the deck, then deals.
    async fn start_deal(&mut self) -> Result<(), ApiError> {
        let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
        deck.shuffle(&mut OsRng);
        let deck: [Card; 32] = deck
            .try_into()
            .map_err(|_| ApiError::Internal("deck size".into()))?;
        let deal_no = self.deals_started;
        self.store.put_deal(self.no, deal_no, &deck).await?;
        let game = self
            .game
            .as_mut()
            .ok_or_else(|| ApiError::Internal("no game".into()))?;
        let event = game
            .start_deal(&deck)
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        self.deals_started += 1;
        self.seq = 0;
        self.phase = Phase::Playing;
        self.state_version = self.version + 1;
        let turn = self.turn();
        self.publish(vec![News::Deal { deal_no, event }], Some(turn));
        Ok(())
    }

    async fn act(&mut self, seat: Seat, id: String, version: u64, action: Action) -> Outgoing {
        let reject = |reason, message: String, rule| Outgoing::Rejected {
            id: id.clone(),
            reason,
            message,
            rule,
        };
        if self.phase == Phase::Over {
            return reject(Reason::GameOver, "the game is over".into(), None);
        }
        let Some(game) = self.game.as_ref() else {
            return reject(Reason::NoDeal, "the game has not started".into(), None);
        };
        let Some(&deal) = game.deal() else {
            return reject(Reason::NoDeal, "no deal is in progress".into(), None);
        };
        if version < self.state_version {
            return reject(
                Reason::StaleVersion,
                format!(
                    "the game changed at version {} after your version {version}; a snapshot follows",
                    self.state_version
                ),
                None,
            );
        }
        let mut next = game.clone();
        let events = match next.act(seat, action) {
            Ok(events) => events,
            Err(GameError::Rule(e @ RuleError::NotYourTurn { .. })) => {
                return reject(Reason::NotYourTurn, e.to_string(), None);
            }
            Err(GameError::Rule(e)) => return reject(Reason::Rule, e.to_string(), e.rule()),
            Err(e @ GameError::GameOver) => return reject(Reason::GameOver, e.to_string(), None),
            Err(e) => return reject(Reason::NoDeal, e.to_string(), None),
        };
        let deal_no = self.deals_started - 1;
        if let Err(e) = self
            .store
            .put_action(self.no, deal_no, self.seq, seat, &action)
            .await
        {
            tracing::error!(table = self.no, error = %e, "action not stored");
            return reject(
                Reason::Internal,
                "the action could not be stored".into(),
                None,
            );
        }
        METRICS.action();
        self.seq += 1;
        self.game = Some(next);
        let mut news: Vec<News> = events
            .into_iter()
            .map(|event| News::Deal { deal_no, event })
            .collect();
        if !self.deal_in_progress() {
            let mut finished = deal;
            let _ = finished.act(seat, action);
            self.last_deal = Some(finished);
            self.phase = Phase::BetweenDeals;
            let (sheet, over) = match &self.game {
                Some(g) => (SheetView::of(g.sheet()), g.settlement()),
                None => return reject(Reason::Internal, "no game".into(), None),
            };
            news.push(News::Public(Public::DealFinished {
                deal_no,
                sheet,
                game_over: over.is_some(),
            }));
            if let Some(balance) = over {
                let settlement = Settlement {
                    agreed: false,
                    balance: balance.iter().map(ToString::to_string).collect(),
                };
                if let Err(e) = self.store.set_state(self.no, Stored::Over).await {
                    // The replay at the next start finds the game over by itself.
                    tracing::error!(table = self.no, error = %e, "game over not stored");
                }
                self.phase = Phase::Over;
                self.settlement = Some(settlement.clone());
                tracing::info!(table = self.no, "game over");
                news.push(News::Public(Public::GameOver(settlement)));
            }
        }
        self.state_version = self.version + 1;
        let turn = self.turn();
        self.publish(news, Some(turn));
        Outgoing::Ack {
            id,
            version: self.version,
        }
    }

    async fn next_deal(&mut self, seat: Seat, id: String, version: u64) -> Outgoing {
        let reject = |reason, message: &str| Outgoing::Rejected {
            id: id.clone(),
            reason,
            message: message.to_owned(),
            rule: None,
        };
        let _ = seat;
        match self.phase {
            Phase::Over => return reject(Reason::GameOver, "the game is over"),
            Phase::Lobby => return reject(Reason::NoDeal, "the game has not started"),
            Phase::Playing => return reject(Reason::NoDeal, "a deal is in progress"),
            Phase::BetweenDeals => {}
        }
        if version < self.state_version {
            return reject(Reason::StaleVersion, "the game changed since your version");
        }
        if (0..self.players()).any(|s| self.seats[s as usize].is_none()) {
            return reject(
                Reason::SeatsFree,
                "a seat is free: the host must seat a player",
            );
        }
        match self.start_deal().await {
            Ok(()) => Outgoing::Ack {
                id,
                version: self.version,
            },
            Err(e) => {
                tracing::error!(table = self.no, error = %e, "deal not started");
                reject(Reason::Internal, "the deal could not be started")
            }
        }
    }
}

/// A sochi table in the lobby, stored in `store`, for the crate's own tests: its id, row
/// number, host token and the table.
#[cfg(test)]
pub(crate) async fn test_table(store: &Store, limits: &Limits) -> (Secret, i64, Secret, Table) {
    let (id, host) = (Secret::random(), Secret::random());
    let request = serde_json::json!("sochi");
    let no = store
        .create_table(&id, &host, &request, false, 0)
        .await
        .expect("a test table is stored");
    let table = Table::new(
        NewTable {
            no,
            host,
            profile: Profile::sochi(),
            profile_request: request,
            spectator_chat: false,
            first_dealer: Seat(0),
        },
        store.clone(),
        limits.clone(),
    );
    (id, no, host, table)
}
