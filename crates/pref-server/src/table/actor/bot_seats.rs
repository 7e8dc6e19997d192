//! The table's bots, as its actor runs them: each bot seat's task, what it is told, and
//! when it is prompted to act.

use pref_core::{Seat, Viewer};
use pref_protocol::BotLevel;

use super::Table;
use crate::ids::Secret;
use crate::table::bots::{self, Pace, Prompt};
use crate::table::machine::Stage;

impl Table {
    /// How long bots wait before they act.
    pub(super) fn pace(&self) -> Pace {
        Pace {
            min: self.limits.bot_delay_min_ms.duration(),
            max: self.limits.bot_delay_max_ms.duration(),
        }
    }

    /// Starts the bot for `seat`, catching it up on a deal in progress.
    pub(super) fn start_bot(&mut self, seat: Seat, level: BotLevel, token: Secret) {
        let Some(me) = self.me.clone() else {
            return;
        };
        let bot = bots::spawn(
            self.no,
            seat,
            token,
            level,
            self.machine.profile(),
            me,
            self.pace(),
        );
        if let Stage::Playing { game, deal_no, .. } = self.machine.stage() {
            let players = self.machine.players();
            // As any newcomer: a deal dealt before the bot sat is not its seat's to see.
            let viewer = self.machine.deal_viewer(Viewer::Seat(seat), *deal_no);
            bot.tell(Prompt::Events(
                game.deal_events()
                    .iter()
                    .map(|e| e.project(viewer, players))
                    .collect(),
            ));
            bot.tell(Prompt::RaspasyBefore(game.raspasy_streak()));
        }
        self.bots[seat.index()] = Some(bot);
        self.prompted = None;
    }

    /// Passes a deal event to the bots as their seats see it.
    /// A new deal also tells them the game's raspasy count, which a bot seated mid-pulka,
    /// or at a table whose failed deals keep the count (`raspasy_series`), cannot work out.
    pub(super) fn tell_bots(&self, event: pref_core::Event) {
        let players = self.machine.players();
        let streak = matches!(event, pref_core::Event::Dealt { .. })
            .then(|| self.machine.game().map(pref_core::Game::raspasy_streak))
            .flatten();
        for (s, bot) in self.bots.iter().enumerate() {
            if let Some(bot) = bot {
                bot.tell(Prompt::Events(vec![
                    event.project(Viewer::Seat(Seat(s as u8)), players),
                ]));
                if let Some(n) = streak {
                    bot.tell(Prompt::RaspasyBefore(n));
                }
            }
        }
    }

    /// Tells the bot to act when it is a bot's turn, and starts the next deal when only
    /// bots sit at the table; once per change of the game. A table of bots only that
    /// nobody watches is paused: its bots are not prompted until a socket subscribes
    /// (a connect is a command, after which the bots are woken again), so bot tables
    /// cannot burn the cores, or play a pool of 1,000 for ever, for nobody.
    pub(super) fn wake_bots(&mut self) {
        let at = self.machine.state_version();
        if self.prompted == Some(at) || self.bots.iter().all(Option::is_none) {
            return;
        }
        if self.tx.receiver_count() == 0
            && self.bots[..usize::from(self.machine.players())]
                .iter()
                .all(Option::is_some)
        {
            self.prompted = None;
            return;
        }
        self.prompted = Some(at);
        let version = self.machine.version();
        match self.machine.stage() {
            Stage::Playing { game, .. } => {
                let Some(deal) = game.deal() else { return };
                let Some(player) = deal.to_act() else { return };
                if let Some(bot) = self.bots.get(player.index()).and_then(Option::as_ref) {
                    bot.tell(Prompt::Turn {
                        version,
                        view: Box::new(deal.view(Viewer::Seat(player))),
                        legal: deal.legal_actions_for(player),
                    });
                }
            }
            Stage::BetweenDeals { .. } => {
                let seated = &self.bots[..usize::from(self.machine.players())];
                if seated.iter().all(Option::is_some)
                    && let Some(bot) = seated.iter().flatten().next()
                {
                    bot.tell(Prompt::NextDeal { version });
                }
            }
            Stage::Lobby | Stage::Over { .. } => {}
        }
    }
}
