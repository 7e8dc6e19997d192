//! Bots in seats: the host puts a bot into an empty seat, and a small task plays it.
//!
//! A bot sees exactly what a person in its seat would: the table task projects each deal
//! event for the bot's seat (the same [`pref_core::Event::project`] a socket uses) and, when
//! the bot is to act, hands it the seat's [`DealView`] and legal actions. The bot's task
//! waits a human-like delay, thinks on the blocking pool (within the cores' share set by
//! `bots.core_share_percent`, `thinking.rs`, so bots never starve the tables of people) and sends its action through the
//! table's inbox like any player. The table's task never waits for a bot.

use std::time::Duration;

use pref_bot::{Bot, Budget, Level};
use pref_core::{Action, ActionList, DealView, Profile, Seat, ViewEvent};
use rand::Rng;
use tokio::sync::{Semaphore, mpsc, oneshot};

use crate::ids::Secret;
use crate::table::command::Command;
use crate::table::machine::TableError;
use pref_protocol::BotLevel;

/// The bots' own level for a level of the protocol.
fn bot_level(level: BotLevel) -> Level {
    match level {
        BotLevel::Easy => Level::Easy,
        BotLevel::Normal => Level::Normal,
        BotLevel::Strong => Level::Strong,
    }
}

/// What the table tells a bot, in order.
#[derive(Debug)]
pub(crate) enum Prompt {
    /// Deal events as the bot's seat sees them.
    Events(Vec<ViewEvent>),
    /// The bot is to act at `version`.
    Turn {
        /// The table's version when the turn was handed out; a later change makes it stale.
        version: u64,
        /// The seat's view of the deal.
        view: Box<DealView>,
        /// The actions the rules allow.
        legal: ActionList,
    },
    /// Consecutive raspasy deals just before the deal in progress (or the next one): the
    /// game's own count (R8.9, R3.3, `raspasy_series`), told after the deal's first event.
    RaspasyBefore(u32),
    /// A deal has finished and only bots sit at the table: start the next one.
    NextDeal {
        /// The table's version.
        version: u64,
    },
}

/// How long a bot waits before it acts, so that people can follow the play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pace {
    /// Shortest wait.
    pub min: Duration,
    /// Longest wait.
    pub max: Duration,
}

impl Pace {
    fn wait(self) -> Duration {
        if self.max <= self.min {
            return self.min;
        }
        rand::thread_rng().gen_range(self.min..=self.max)
    }
}

/// The table's end of a bot: dropping it ends the bot's task.
#[derive(Debug)]
pub(crate) struct BotHandle {
    tx: mpsc::UnboundedSender<Prompt>,
}

impl BotHandle {
    /// Queues a prompt; a bot whose task has ended is ignored.
    pub(crate) fn tell(&self, prompt: Prompt) {
        let _ = self.tx.send(prompt);
    }
}

/// Bots thinking at once, across all tables: the cores' share of `thinking.rs`. The
/// analyses of finished deals (`analysis.rs`) take the same permits, so solver work of both
/// kinds stays within it.
pub(crate) fn thinkers() -> &'static Semaphore {
    crate::thinking::thinkers()
}

/// Starts a bot of `level` for `seat` at a table playing `profile` (the bot prices every
/// outcome by it), acting through `table`'s inbox with the seat's `token` like any player:
/// once the seat is freed its commands are refused.
#[must_use]
pub(crate) fn spawn(
    table_no: i64,
    seat: Seat,
    token: Secret,
    level: BotLevel,
    profile: &Profile,
    table: mpsc::WeakSender<Command>,
    pace: Pace,
) -> BotHandle {
    let (tx, rx) = mpsc::unbounded_channel();
    let bot = Driver::fresh_bot(seat, level, profile);
    tokio::spawn(run(
        Driver {
            table_no,
            seat,
            token,
            level,
            profile: profile.clone(),
            table,
            pace,
        },
        bot,
        rx,
    ));
    BotHandle { tx }
}

/// Starts the autopilot for `seat` of table `table_no`: a fresh bot of `level` is told the
/// deal's `events` as the seat saw them, decides on the seat's `view` among `legal` on the
/// blocking pool (holding a thinking permit like any bot), and sends its move back as
/// [`Command::Autopilot`] at `version`. A pending claim is answered with a rejection
/// without thinking: nobody concedes tricks for an absent player.
pub(crate) fn autopilot(
    table_no: i64,
    seat: Seat,
    level: BotLevel,
    profile: &Profile,
    turn: (u64, Box<DealView>, ActionList),
    events: Vec<ViewEvent>,
    table: mpsc::WeakSender<Command>,
) {
    let (version, view, legal) = turn;
    let profile = profile.clone();
    tokio::spawn(async move {
        let action = if let Some(answer) = forced(legal.iter()) {
            answer
        } else {
            let budget = Budget::for_level(bot_level(level));
            let fallback = legal.get(0);
            let permit = thinkers().acquire().await;
            let decided = tokio::task::spawn_blocking(move || {
                let mut bot = Bot::new(seat, bot_level(level), &profile, rand::random());
                for e in &events {
                    bot.observe(e);
                }
                bot.decide(&view, &legal, budget)
            })
            .await;
            drop(permit);
            match (decided, fallback) {
                (Ok(action), _) => action,
                (Err(e), Some(first)) => {
                    tracing::error!(table = table_no, seat = seat.0, error = %e, "autopilot failed");
                    first
                }
                (Err(e), None) => {
                    tracing::error!(table = table_no, seat = seat.0, error = %e, "autopilot failed");
                    return;
                }
            }
        };
        if let Some(table) = table.upgrade() {
            let _ = table
                .send(Command::Autopilot {
                    seat,
                    version,
                    action,
                })
                .await;
        }
    });
}

/// The autopilot's move that needs no thought: a pending claim's answer is a rejection
/// (#17: a timed-out answer rejects), whatever the claim.
fn forced(legal: impl IntoIterator<Item = Action>) -> Option<Action> {
    let reject = Action::Answer(pref_core::Answer::Reject);
    legal.into_iter().any(|a| a == reject).then_some(reject)
}

/// A bot's fixed surroundings.
struct Driver {
    table_no: i64,
    seat: Seat,
    token: Secret,
    level: BotLevel,
    profile: Profile,
    table: mpsc::WeakSender<Command>,
    pace: Pace,
}

/// What the bot has been asked to do last.
enum Task {
    Act {
        version: u64,
        view: Box<DealView>,
        legal: ActionList,
    },
    NextDeal {
        version: u64,
    },
}

/// Feeds events to the bot and keeps only the newest request: an older one is stale.
fn take(bot: &mut Bot, prompt: Prompt, task: &mut Option<Task>) {
    match prompt {
        Prompt::Events(events) => {
            for e in &events {
                bot.observe(e);
            }
        }
        Prompt::RaspasyBefore(deals) => bot.set_raspasy_before(deals),
        Prompt::Turn {
            version,
            view,
            legal,
        } => {
            *task = Some(Task::Act {
                version,
                view,
                legal,
            });
        }
        Prompt::NextDeal { version } => *task = Some(Task::NextDeal { version }),
    }
}

async fn run(d: Driver, mut bot: Bot, mut rx: mpsc::UnboundedReceiver<Prompt>) {
    let mut task = None;
    while let Some(prompt) = rx.recv().await {
        take(&mut bot, prompt, &mut task);
        while let Ok(p) = rx.try_recv() {
            take(&mut bot, p, &mut task);
        }
        if task.is_none() {
            continue;
        }
        // People should see the bot think; news that comes meanwhile replaces the request.
        let wait = d.pace.wait();
        if !wait.is_zero() {
            tokio::time::sleep(wait).await;
            while let Ok(p) = rx.try_recv() {
                take(&mut bot, p, &mut task);
            }
        }
        let Some(current) = task.take() else {
            continue;
        };
        let request = match current {
            Task::Act {
                version,
                view,
                legal,
            } => {
                let action;
                (bot, action) = d.think(bot, view, legal).await;
                Request::Act { version, action }
            }
            Task::NextDeal { version } => Request::NextDeal { version },
        };
        if !d.send(request).await {
            return;
        }
    }
}

/// What a bot sends to its table.
enum Request {
    Act { version: u64, action: Action },
    NextDeal { version: u64 },
}

impl Driver {
    /// A new bot for `seat`: it claims where the table allows claims (R6.7, `claims`), and
    /// answers claims in any case, from its seat's view like every decision.
    fn fresh_bot(seat: Seat, level: BotLevel, profile: &Profile) -> Bot {
        Bot::new(seat, bot_level(level), profile, rand::random()).claiming(profile.claims())
    }

    /// Decides on the blocking pool; a bot that panics is replaced by a fresh one that
    /// plays the first legal action, so the table goes on.
    async fn think(&self, bot: Bot, view: Box<DealView>, legal: ActionList) -> (Bot, Action) {
        let fallback = legal.get(0);
        let budget = Budget::for_level(bot_level(self.level));
        let permit = thinkers().acquire().await;
        let decided = tokio::task::spawn_blocking(move || {
            let mut bot = bot;
            let action = bot.decide(&view, &legal, budget);
            (bot, action)
        })
        .await;
        drop(permit);
        match (decided, fallback) {
            (Ok(done), _) => done,
            (Err(e), Some(first)) => {
                tracing::error!(table = self.table_no, seat = self.seat.0, error = %e, "bot failed");
                (
                    Driver::fresh_bot(self.seat, self.level, &self.profile),
                    first,
                )
            }
            (Err(e), None) => {
                tracing::error!(table = self.table_no, seat = self.seat.0, error = %e, "bot failed");
                (
                    Driver::fresh_bot(self.seat, self.level, &self.profile),
                    Action::Bid(pref_core::Call::Pass),
                )
            }
        }
    }

    /// Sends the command and reads the answer; `false` once the table has gone.
    async fn send(&self, request: Request) -> bool {
        let Some(table) = self.table.upgrade() else {
            return false;
        };
        let (reply, answer) = oneshot::channel();
        let seat = self.seat;
        let command = match request {
            Request::Act { version, action } => Command::Act {
                seat,
                token: self.token,
                version,
                action,
                reply,
            },
            Request::NextDeal { version } => Command::NextDeal {
                seat,
                token: self.token,
                version,
                reply,
            },
        };
        if table.send(command).await.is_err() {
            return false;
        }
        drop(table);
        match answer.await {
            // The seat was freed: this bot is done.
            Ok(Err(TableError::SeatLost)) => false,
            Ok(Err(refusal)) => {
                // A stale turn is normal (the table moved on while the bot waited); anything
                // else is a bug worth seeing in the log.
                tracing::warn!(
                    table = self.table_no,
                    seat = self.seat.0,
                    reason = %refusal,
                    "bot action refused"
                );
                true
            }
            Ok(Ok(_)) => true,
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use pref_core::{Answer, Call};

    use super::*;

    #[test]
    fn a_timed_out_claim_answer_is_a_rejection_and_nothing_else_is_forced() {
        let answers = [
            Action::Answer(Answer::Accept),
            Action::Answer(Answer::Reject),
        ];
        assert_eq!(forced(answers), Some(Action::Answer(Answer::Reject)));
        let card = "7S".parse().expect("a card");
        assert_eq!(forced([Action::Play(card)]), None);
        assert_eq!(forced([Action::Bid(Call::Pass)]), None);
        assert_eq!(forced([]), None);
    }
}
