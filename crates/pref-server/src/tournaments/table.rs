//! An entrant's own table for one deal: the entrant in seat 0, bots of the tournament's
//! level in the others, the deal played through the core's [`Game`] (one deal, the first of
//! its game), so the bots see exactly what a person in their seat would (the core's
//! projections) and the record is the core's.
//!
//! The bots decide by a node budget, not a clock, from seeds fixed by the deal: the same
//! calls and cards by two entrants meet the same answers, and a restart that replays the
//! entrant's stored actions through [`DealTable::replay`] reaches the same table.

use pref_bot::{Bot, Budget, Level};
use pref_core::{Action, DealView, Game, GameError, Outcome, Profile, Seat, Viewer};
use pref_protocol::BotLevel;

use super::deals::{ENTRANT, FixedDeal};

/// Solver nodes a bot's decision may take, by level (no clock: decisions are repeatable).
fn budget(level: BotLevel) -> (Level, Budget) {
    match level {
        BotLevel::Easy => (Level::Easy, Budget::nodes(0)),
        BotLevel::Normal => (Level::Normal, Budget::nodes(200_000)),
        BotLevel::Strong => (Level::Strong, Budget::nodes(600_000)),
    }
}

/// Why an entrant's action is refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PlayError {
    /// It is not the entrant's turn (or the deal is over).
    #[error("it is not your turn")]
    NotYourTurn,
    /// The rules refuse the action.
    #[error("{0}")]
    Rule(String),
    /// A bot chose an action the rules refused, or the deal would not start (a bug).
    #[error("{0}")]
    Broken(String),
}

/// One deal at an entrant's table.
#[derive(Debug)]
pub(crate) struct DealTable {
    game: Game,
    bots: Vec<Bot>,
    level: BotLevel,
    /// The entrant's actions so far, in order (what the store keeps).
    pub(crate) actions: Vec<Action>,
}

impl DealTable {
    /// Deals `deal` under `profile`, and lets the bots act up to the entrant's turn.
    ///
    /// # Errors
    /// [`PlayError::Broken`] if the deck does not deal or a bot errs (bugs).
    pub(crate) fn new(
        profile: &Profile,
        level: BotLevel,
        deal: &FixedDeal,
    ) -> Result<DealTable, PlayError> {
        let broken = |e: GameError| PlayError::Broken(e.to_string());
        let mut game = Game::new(profile.clone(), deal.dealer).map_err(broken)?;
        let first = game.start_deal(&deal.deck).map_err(broken)?;
        let players = profile.players();
        let (lvl, _) = budget(level);
        let mut bots: Vec<Bot> = (0..players)
            .map(Seat)
            .filter(|&s| s != ENTRANT)
            .map(|s| Bot::new(s, lvl, profile, deal.bot_seed()))
            .collect();
        for b in &mut bots {
            b.observe(&first.project(Viewer::Seat(b.seat()), players));
        }
        let mut table = DealTable {
            game,
            bots,
            level,
            actions: Vec::new(),
        };
        table.advance()?;
        Ok(table)
    }

    /// The table after the entrant's `actions`, each answered by the bots as it was.
    ///
    /// # Errors
    /// As [`DealTable::new`] and [`DealTable::act`]: a stored action that no longer
    /// applies.
    pub(crate) fn replay(
        profile: &Profile,
        level: BotLevel,
        deal: &FixedDeal,
        actions: &[Action],
    ) -> Result<DealTable, PlayError> {
        let mut table = DealTable::new(profile, level, deal)?;
        for &a in actions {
            table.act(a)?;
        }
        Ok(table)
    }

    /// The seat to act, while the deal lasts.
    fn to_act(&self) -> Option<Seat> {
        self.game.deal().and_then(pref_core::Deal::to_act)
    }

    /// Lets the bots act while it is not the entrant's turn.
    fn advance(&mut self) -> Result<(), PlayError> {
        let (_, budget) = budget(self.level);
        while let Some(p) = self.to_act().filter(|&p| p != ENTRANT) {
            let deal = self.game.deal().ok_or(PlayError::NotYourTurn)?;
            let legal = deal.legal_actions_for(p);
            let view = deal.view(Viewer::Seat(p));
            let bot = self
                .bots
                .iter_mut()
                .find(|b| b.seat() == p)
                .ok_or_else(|| PlayError::Broken(format!("no bot in {p}")))?;
            let action = bot.decide(&view, &legal, budget);
            self.apply(p, action)
                .map_err(|e| PlayError::Broken(format!("a bot in {p}: {e}")))?;
        }
        Ok(())
    }

    fn apply(&mut self, p: Seat, action: Action) -> Result<(), GameError> {
        let players = self.game.profile().players();
        let events = self.game.act(p, action)?;
        for e in &events {
            for b in &mut self.bots {
                b.observe(&e.project(Viewer::Seat(b.seat()), players));
            }
        }
        Ok(())
    }

    /// The entrant's action, then the bots' replies up to the entrant's next turn or the
    /// deal's end. A refused action changes nothing.
    ///
    /// # Errors
    /// [`PlayError::NotYourTurn`], [`PlayError::Rule`]; [`PlayError::Broken`] if a bot errs.
    pub(crate) fn act(&mut self, action: Action) -> Result<(), PlayError> {
        if self.to_act() != Some(ENTRANT) {
            return Err(PlayError::NotYourTurn);
        }
        self.apply(ENTRANT, action)
            .map_err(|e| PlayError::Rule(e.to_string()))?;
        self.actions.push(action);
        self.advance()
    }

    /// The deal as the entrant's seat sees it, while it lasts.
    pub(crate) fn view(&self) -> Option<DealView> {
        self.game.deal().map(|d| d.view(Viewer::Seat(ENTRANT)))
    }

    /// The entrant's legal actions (empty unless the entrant is to act).
    pub(crate) fn legal(&self) -> Vec<Action> {
        match self.game.deal() {
            Some(d) if d.to_act() == Some(ENTRANT) => d.legal_actions_for(ENTRANT).iter().collect(),
            Some(_) | None => Vec::new(),
        }
    }

    /// The outcome, once the deal is over.
    pub(crate) fn outcome(&self) -> Option<Outcome> {
        self.game
            .history()
            .first()
            .and_then(|e| e.outcome().copied())
    }

    /// The game (one deal), for the outcome's wire form and the record.
    pub(crate) fn game(&self) -> &Game {
        &self.game
    }
}
