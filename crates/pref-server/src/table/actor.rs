//! One table's actor: a task that owns the table's [`Machine`] and takes [`Command`]s from
//! an inbox, one at a time.
//!
//! The rules of the table live in the machine, which knows no tokio, database or socket.
//! This actor does the rest: it draws decks and tokens, writes every change the machine
//! accepted to the [`Store`] and waits before it tells anybody (so nothing a client sees can
//! be lost by a crash), broadcasts the items as [`Stamped`] on a bounded `broadcast` channel,
//! keeps a bounded history for reconnecting clients, tells a freed seat's sockets directly,
//! and runs the bots. At a table with a clock it keeps one timer, armed at the nearest
//! deadline of the [`Clock`] (see `clock.rs` beside this file), and starts the autopilot
//! when a turn's time runs out.

mod audience;
mod bot_seats;
mod fair;
mod life;
mod played;
mod practice;
mod restore;
mod stop;
mod views;

use std::collections::VecDeque;
use std::sync::Arc;

use pref_core::Seat;
use pref_protocol::BotLevel;
use tokio::sync::{broadcast, mpsc, watch};

use crate::config::Lifecycle;
use crate::config::Limits;
use crate::ids::Secret;
use crate::metrics::METRICS;
use crate::store::{Stamp, Store, Stored};
use crate::table::bots::BotHandle;
use crate::table::command::{Command, HostRequest};
use crate::table::lifecycle::Life;
use crate::table::machine::clock::Clock;
use crate::table::machine::{Change, HostOp, Machine, NewTable, Op, Opening, TableError, Write};
use crate::table::wire::{News, Stamped};

mod clock;
use clock::unix_ms;

/// The state one table's task owns.
pub struct Table {
    /// Row number: the label in logs (the id is a secret).
    no: i64,
    /// Where every accepted step is written first.
    store: Store,
    /// History length and queue sizes.
    limits: Limits,
    /// The table's rules and state.
    machine: Machine,
    /// Random per task start: versions restart with it.
    epoch: String,
    /// Recent items for reconnecting clients.
    history: VecDeque<Arc<Stamped>>,
    /// The last chat lines (at most `limits.chat_history_lines`), for the snapshot.
    chat: VecDeque<pref_protocol::ChatLine>,
    /// The number the next chat line is stored under.
    chat_no: i64,
    /// The broadcast to every socket.
    tx: broadcast::Sender<Arc<Stamped>>,
    /// The task's own inbox, for the bots it starts (weak: bots do not keep a table open).
    me: Option<mpsc::WeakSender<Command>>,
    /// The bots playing seats 0..4.
    bots: [Option<BotHandle>; 4],
    /// The state version the bots were last prompted at; `None` forces a prompt.
    prompted: Option<u64>,
    /// Per seat, tells the current occupant's sockets the version at which the seat was
    /// freed; made on the first connect, replaced when the seat is freed.
    tenures: [Option<watch::Sender<Option<u64>>>; 4],
    /// When an unused table expires or leaves memory, and its slot among live tables.
    life: Life,
    /// The tokens of bots restored from the database, for their drivers: only the hashes
    /// are stored, so each restored bot is given a fresh token.
    bot_keys: [Option<Secret>; 4],
    /// When the contribution window's step runs out (`table/fair.rs`).
    fair_deadline: fair::Deadline,
    /// The clock, at a table with a time control.
    clock: Option<Clock>,
    /// The state version the autopilot is deciding at, so the timer does not start it twice.
    piloting: Option<u64>,
    /// At a table with a clock, per deal the time used and the autopilot's mark of each
    /// action, for the record.
    times: Vec<Vec<pref_core::ActionTime>>,
    /// A turn moved at the restore after an outage, to store once the table runs.
    outage: Option<crate::store::Outage>,
    /// A moment of the runtime's clock and the Unix milliseconds it stands for: the clock's
    /// times follow the runtime (which the tests pause and advance) from there.
    origin: (tokio::time::Instant, u64),
    /// When the spectator count was last told and is to be told next (`table/audience.rs`).
    told: audience::Told,
    /// The account of the claim being applied at a rated table: its seat's write claims
    /// the account's one rated seat.
    claimant: Option<i64>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("no", &self.no)
            .field("phase", &self.machine.phase())
            .finish()
    }
}

impl Table {
    /// A table in the lobby; `no` is its row.
    #[must_use]
    pub fn new(no: i64, t: NewTable, store: Store, limits: Limits) -> Table {
        Table::with(no, Machine::new(t), store, limits)
    }

    fn with(no: i64, machine: Machine, store: Store, limits: Limits) -> Table {
        let (tx, _) = broadcast::channel(limits.queue.max(1));
        Table {
            no,
            store,
            limits,
            machine,
            epoch: Secret::random().expose()[..16].to_owned(),
            history: VecDeque::new(),
            chat: VecDeque::new(),
            chat_no: 0,
            tx,
            me: None,
            bots: [None, None, None, None],
            prompted: None,
            tenures: [None, None, None, None],
            clock: None,
            piloting: None,
            times: Vec::new(),
            outage: None,
            origin: (tokio::time::Instant::now(), unix_ms()),
            fair_deadline: None,
            bot_keys: [None, None, None, None],
            life: Life::new(Lifecycle::default(), None),
            told: audience::Told::default(),
            claimant: None,
        }
    }

    /// Gives the table the clock of `control` (none for `None`), before it runs.
    #[must_use]
    pub fn with_clock(mut self, control: Option<pref_protocol::clock::TimeControl>) -> Table {
        self.clock = control.map(Clock::new);
        self
    }

    /// Applies a claim of a seat that `token` will prove, and answers the seat taken; at a
    /// rated table the seat's write claims `account`'s one rated seat (refused, nothing
    /// changes).
    async fn claim(
        &mut self,
        op: Op,
        token: Secret,
        account: Option<i64>,
        reply: tokio::sync::oneshot::Sender<Result<(u8, Secret), TableError>>,
    ) {
        self.claimant = account.filter(|_| self.machine.rated().is_some());
        let claimed = self.apply(op).await.and_then(|c| match c.news.first() {
            Some(News::Public(pref_protocol::Public::SeatTaken { seat, .. })) => Ok((*seat, token)),
            _ => Err(TableError::Internal("a claim took no seat".into())),
        });
        self.claimant = None;
        let _ = reply.send(claimed);
    }

    /// The public summary, with the clock.
    fn summary(&self) -> pref_protocol::Summary {
        pref_protocol::Summary {
            clock: self.clock.as_ref().map(Clock::info),
            ..self.machine.summary()
        }
    }

    /// Serves commands until every sender is gone; `me` is the inbox's own sender, for
    /// the bots the table starts.
    pub async fn run(mut self, mut inbox: mpsc::Receiver<Command>, me: mpsc::WeakSender<Command>) {
        self.me = Some(me);
        if let Some(outage) = self.outage.take()
            && let Err(e) = self.store.put_outage(self.no, outage).await
        {
            tracing::warn!(table = self.no, error = %e, "an outage's credit is not stored");
        }
        for s in 0..self.machine.players() {
            if let Some(o) = self.machine.occupant(s)
                && let Some(level) = o.bot
                && let Some(token) = self.bot_keys[usize::from(s)].take()
            {
                self.start_bot(Seat(s), level, token);
            }
        }
        self.wake_bots();
        loop {
            let life_at = self.life.deadline(self.phase());
            let fair_at = self.fair_deadline.map(|(_, _, at)| at);
            // The clock's nearest deadline (a turn's, or a disconnected seat's end of grace).
            let clock_at = self.wake_at().map(|at| self.instant(at));
            let told_at = self.spectators_at();
            let cmd = if [life_at, fair_at, clock_at, told_at]
                .iter()
                .all(Option::is_none)
            {
                inbox.recv().await
            } else {
                // The timers: each armed at its nearest deadline, dropped when a command
                // comes first (and armed again after it).
                tokio::select! {
                    cmd = inbox.recv() => cmd,
                    () = sleep_until(clock_at) => {
                        self.on_time();
                        continue;
                    }
                    () = sleep_until(fair_at) => {
                        self.fair_expired().await;
                        self.arm_fair();
                        self.wake_bots();
                        continue;
                    }
                    () = sleep_until(told_at) => {
                        self.tell_spectators().await;
                        continue;
                    }
                    () = sleep_until(life_at) => {
                        // A command already waiting is a use: it is served, not dropped.
                        if inbox.is_empty() && self.time_up().await {
                            return;
                        }
                        continue;
                    }
                }
            };
            let Some(cmd) = cmd else { return };
            if self.uses(&cmd) {
                self.life.touch();
            }
            self.handle(cmd).await;
            self.start_rematch().await;
            self.arm_fair();
            self.life.settle(self.phase());
            self.wake_bots();
        }
    }

    /// Applies `op` to a copy of the machine, stores what it changed, and only then takes
    /// the copy and tells everybody: a refused op or a failed write changes nothing.
    async fn apply(&mut self, op: Op) -> Result<Change, TableError> {
        self.apply_as(op, false).await
    }

    /// [`Table::apply`], for an action the autopilot made when `auto`; then every seat away
    /// on the clock's autopilot accepts a stop proposal that stands (R10.3, `stop.rs`).
    async fn apply_as(&mut self, op: Op, auto: bool) -> Result<Change, TableError> {
        let change = self.apply_once(op, auto).await?;
        while let Some(seat) = self.away_to_accept() {
            self.apply_once(Op::AwayAccepts { seat }, true).await?;
        }
        Ok(change)
    }

    /// A seat away on the clock's autopilot that has not answered the standing proposal.
    fn away_to_accept(&self) -> Option<Seat> {
        let clock = self.clock.as_ref()?;
        let stop = self.machine.stop_view()?;
        (0..self.machine.players())
            .map(Seat)
            .find(|&s| clock.away(s) && !stop.accepted.contains(&s.0))
    }

    /// One op, as [`Table::apply_as`] says.
    async fn apply_once(&mut self, op: Op, auto: bool) -> Result<Change, TableError> {
        let now = self.now_ms();
        let mut next = self.machine.clone();
        let mut change = next.apply(op)?;
        let stamp = Stamp {
            at_ms: Some(now),
            auto,
        };
        // The game's end counts its figures for the accounts at the table, in its write.
        let over = change.writes.contains(&Write::Over);
        let figures = if over {
            self.end_figures(&next)
        } else {
            Vec::new()
        };
        self.write(&change.writes, stamp, &figures).await?;
        self.machine = next;
        self.clocked(&mut change, now, auto);
        self.tell(&change);
        Ok(change)
    }

    /// Every seat's figures at the end of `machine`'s game: a player away at the end (the
    /// clock's autopilot plays for him) abandoned it. The same after a restart, whose clock
    /// is replayed from the stored actions' autopilot marks and "I'm back"s, for the repair
    /// of an end stored without its figures ([`Command::EndFigures`]).
    fn end_figures(&self, machine: &Machine) -> Vec<crate::store::SeatFigures> {
        let mut figures = machine.final_figures();
        if let Some(clock) = &self.clock {
            for f in &mut figures {
                f.abandoned = clock.away(Seat(f.seat));
            }
        }
        figures
    }

    /// Makes `writes` durable, in order; deals and actions carry `stamp`, and the game's end
    /// counts `figures` for the accounts at the table.
    async fn write(
        &self,
        writes: &[Write],
        stamp: Stamp,
        figures: &[crate::store::SeatFigures],
    ) -> Result<(), TableError> {
        for (i, w) in writes.iter().enumerate() {
            let no = self.no;
            let done = match w {
                Write::Seat {
                    seat,
                    name,
                    token,
                    bot,
                    from_deal,
                    host,
                } => {
                    if let Some(account) = self.claimant {
                        let holder = (name.as_str(), token);
                        self.store
                            .put_rated_seat((no, *seat), holder, *from_deal, *host, account)
                            .await
                    } else {
                        let bot = bot.map(BotLevel::as_str);
                        self.store
                            .put_seat((no, *seat), name, token, bot, *from_deal, *host)
                            .await
                    }
                }
                Write::Free(seat) => self.store.free_seat(no, *seat).await,
                Write::Profile(request) => self.store.set_profile(no, request).await,
                Write::Playing => self.store.set_state(no, Stored::Playing).await,
                Write::Over => self.store.set_over(no, figures).await,
                Write::Deal { deal_no, deck } => {
                    self.store.put_deal_at(no, *deal_no, deck, stamp).await
                }
                Write::Action {
                    deal_no,
                    seq,
                    seat,
                    action,
                } => {
                    self.store
                        .put_action_at(no, *deal_no, *seq, *seat, action, stamp)
                        .await
                }
                Write::Fair(w) => self.write_fair(w).await,
            };
            match done {
                Ok(()) => {}
                // After a stored action the replay at the next start finds the game over by
                // itself: the action stands.
                Err(e) if i > 0 && *w == Write::Over => {
                    tracing::error!(table = no, error = %e, "game over not stored");
                }
                Err(crate::store::StoreError::RatedElsewhere) => {
                    return Err(TableError::RatedElsewhere);
                }
                Err(e) => {
                    tracing::error!(table = no, error = %e, "change not stored");
                    return Err(TableError::Internal(e.to_string()));
                }
            }
        }
        Ok(())
    }

    /// Tells everybody what `change` did: a freed seat's sockets first, then the items (the
    /// last with the turn), the bots, and a bot the host seated.
    fn tell(&mut self, change: &Change) {
        if let Some((seat, at)) = change.freed {
            if let Some(tenure) = self.tenures[usize::from(seat)].take() {
                tenure.send_replace(Some(at));
            }
            // Dropping the handle ends the bot's task.
            self.bots[usize::from(seat)] = None;
            self.prompted = None;
            tracing::info!(table = self.no, seat, "seat freed");
        }
        let n = change.news.len();
        for (i, news) in change.news.iter().enumerate() {
            let item = Arc::new(Stamped {
                version: change.first + i as u64,
                news: news.clone(),
                turn: if i + 1 == n {
                    change.turn.clone()
                } else {
                    None
                },
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
        if let Some((seat, level, token)) = change.bot {
            tracing::info!(
                table = self.no,
                seat = seat.0,
                level = level.as_str(),
                "bot seated"
            );
            self.start_bot(seat, level, token);
        }
    }

    async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Summary(reply) => {
                let _ = reply.send(self.summary());
            }
            Command::Preview(reply) => {
                let _ = reply.send((self.machine.summary_spectators(), self.machine.preview()));
            }
            Command::Record(reply) => {
                let _ = reply.send(self.machine.record(&self.times));
            }
            Command::EndFigures(reply) => {
                let over = self.phase() == crate::table::lifecycle::Phase::Over;
                let _ = reply.send(if over {
                    self.end_figures(&self.machine)
                } else {
                    Vec::new()
                });
            }
            Command::DealRecord { deal, reply } => {
                let _ = reply.send(self.machine.deal_record(deal).map(Box::new));
            }
            Command::Claim {
                name,
                seat,
                host,
                invite,
                account,
                reply,
            } => {
                let token = Secret::random();
                let op = Op::Claim {
                    name,
                    seat,
                    host,
                    invite,
                    token,
                };
                self.claim(op, token, account, reply).await;
            }
            Command::PeopleOnly { reply } => {
                let stored = self.store.set_people_only(self.no).await;
                let answer = match stored {
                    Ok(()) => {
                        self.machine.set_people_only(true);
                        Ok(self.summary())
                    }
                    Err(e) => Err(TableError::Internal(e.to_string())),
                };
                let _ = reply.send(answer);
            }
            Command::Rated { family, reply } => {
                let answer = match self.store.set_rated(self.no, family.as_str()).await {
                    Ok(()) => {
                        self.machine.set_rated(family);
                        Ok(self.summary())
                    }
                    Err(e) => Err(TableError::Internal(e.to_string())),
                };
                let _ = reply.send(answer);
            }
            Command::BotClaim {
                name,
                seat,
                invite,
                invited,
                account,
                reply,
            } => {
                let token = Secret::random();
                let op = Op::BotClaim {
                    name,
                    seat,
                    invite,
                    invited,
                    token,
                };
                self.claim(op, token, Some(account), reply).await;
            }
            Command::Leave { token, reply } => {
                let _ = reply.send(self.apply(Op::Leave { token }).await.map(|_| ()));
            }
            Command::Fair {
                seat,
                token,
                request,
                reply,
            } => {
                let _ = reply.send(self.fair_request(seat, token, request).await);
            }
            Command::Host { token, op, reply } => {
                let op = match op {
                    HostRequest::Start => {
                        // The first deal opens its contribution window (`table/fair.rs`).
                        let done = self.open_deal(Opening::Start { host: token }).await;
                        let _ = reply.send(done.map(|_| self.summary()));
                        return;
                    }
                    HostRequest::Profile(profile) => HostOp::Profile(*profile),
                    HostRequest::Remove(seat) => HostOp::Remove(seat),
                    HostRequest::Bot { seat, level } => HostOp::Bot {
                        seat,
                        level,
                        token: Secret::random(),
                    },
                    HostRequest::End => HostOp::End,
                    HostRequest::Reserve {
                        seat,
                        name,
                        rematch,
                    } => HostOp::Reserve {
                        seat,
                        name,
                        rematch,
                    },
                };
                let done = self.apply(Op::Host { host: token, op }).await;
                let _ = reply.send(done.map(|_| self.summary()));
            }
            Command::Connect {
                token,
                resume,
                reply,
            } => {
                let _ = reply.send(self.connect(token, resume));
            }
            Command::Resync { caller, reply } => {
                let session = if self.machine.holds(caller.viewer, caller.token.as_ref()) {
                    let mut session = self.session(caller.viewer, None);
                    session.token = caller.token;
                    Ok(session)
                } else {
                    Err(TableError::SeatLost)
                };
                let _ = reply.send(session);
            }
            Command::ScorePage {
                caller,
                before,
                reply,
            } => {
                let page = if self.machine.holds(caller.viewer, caller.token.as_ref()) {
                    Ok(self.score_page(before))
                } else {
                    Err(TableError::SeatLost)
                };
                let _ = reply.send(page);
            }
            Command::Presence {
                seat,
                token,
                connected,
            } => {
                let _ = self
                    .apply(Op::Presence {
                        seat,
                        token,
                        connected,
                    })
                    .await;
            }
            Command::Watching { connected } => self.watching(connected).await,
            Command::RematchPlan { token, reply } => {
                let _ = reply.send(self.machine.rematch_plan(&token));
            }
            Command::RematchSeat { token, reply } => {
                let _ = reply.send(self.machine.rematch_seat(&token));
            }
            Command::InviteKey { host, reply } => {
                let _ = reply.send(self.machine.invite_key(&host));
            }
            Command::Rejoin { seat, name, reply } => {
                let token = Secret::random();
                let op = Op::Rejoin { seat, name, token };
                let _ = reply.send(self.apply(op).await.map(|_| (seat, token)));
            }
            Command::Rematched {
                token,
                table,
                reply,
            } => {
                let op = Op::Rematch { host: token, table };
                let _ = reply.send(self.apply(op).await.map(|_| ()));
            }
            Command::Act {
                seat,
                token,
                version,
                action,
                reply,
            } => {
                let op = Op::Act {
                    seat,
                    token,
                    version,
                    action,
                };
                let done = self.apply(op).await.map(|_| self.machine.version());
                match &done {
                    Ok(_) => METRICS.action(),
                    Err(_) => METRICS.rejection(),
                }
                let _ = reply.send(done);
            }
            Command::NextDeal {
                seat,
                token,
                version,
                reply,
            } => {
                let opening = Opening::NextDeal {
                    seat,
                    token,
                    version,
                };
                let _ = reply.send(self.open_deal(opening).await);
            }
            Command::Chat {
                caller,
                text,
                reply,
            } => {
                let _ = reply.send(self.chat(caller.viewer, caller.token, text).await);
            }
            Command::Stop { token, vote, reply } => {
                let _ = reply.send(self.stop_vote(token, vote).await);
            }
            Command::Hint {
                caller,
                version,
                reply,
            } => {
                let _ = reply.send(self.hint(caller.viewer, caller.token, version).await);
            }
            Command::Back { caller, reply } => {
                let _ = reply.send(self.back(caller.viewer, caller.token).await);
            }
            Command::Autopilot {
                seat,
                version,
                action,
            } => {
                self.piloting = None;
                // The person came back while the autopilot was deciding: his turn is his.
                if !self.autopilot_due(seat) {
                    tracing::debug!(table = self.no, seat = seat.0, "autopilot move dropped");
                    return;
                }
                let op = Op::Autopilot {
                    seat,
                    version,
                    action,
                };
                match self.apply_as(op, true).await {
                    Ok(_) => METRICS.action(),
                    // The person acted first, or the table moved on: nothing to do.
                    Err(e) => {
                        tracing::debug!(table = self.no, reason = %e, "autopilot move refused")
                    }
                }
            }
            Command::Pause {
                host,
                paused,
                reply,
            } => {
                let _ = reply.send(self.pause(&host, paused).await);
            }
            #[cfg(test)]
            Command::Panic => panic!("a table task panics on request"),
        }
    }
}

/// Sleeps until `at`, or for ever without one: a branch of the table loop's `select!` that
/// has nothing to wait for.
async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
/// A sochi table in the lobby, stored in `store`, for the crate's own tests: its id, row
/// number, host token and the table.
pub(crate) async fn test_table(store: &Store, limits: &Limits) -> (Secret, i64, Secret, Table) {
    let (id, host) = (Secret::random(), Secret::random());
    let no = store
        .create_table(
            &id,
            (
                &crate::ids::TokenHash::of(&host),
                &crate::ids::TokenHash::of(&host.invite_key()),
            ),
            &pref_core::Profile::sochi().to_json(),
            false,
            0,
        )
        .await
        .expect("a test table is stored");
    let table = Table::new(
        no,
        NewTable {
            host: crate::ids::TokenHash::of(&host),
            invite: crate::ids::TokenHash::of(&host.invite_key()),
            profile: pref_core::Profile::sochi(),
            spectator_chat: false,
            first_dealer: Seat(0),
        },
        store.clone(),
        limits.clone(),
    );
    (id, no, host, table)
}

#[cfg(test)]
mod clock_tests;
