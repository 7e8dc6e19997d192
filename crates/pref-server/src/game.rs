//! The pulka as the table needs it: deals in sequence, the dealer's rotation and the count
//! of consecutive raspasy deals.
//!
//! This mirrors the shape of the core's `Game` (deals owned by the game, actions in player
//! semantics, the dealer rotating when a deal ends) so that the table can switch to it by
//! changing one import. Each finished deal is written on the core's [`Sheet`], which the
//! snapshots carry to the players.

use pref_core::{
    Action, Card, Deal, DealError, Event, Events, OutcomeKind, Profile, RuleError, Seat, Sheet,
};

/// Why the game refused something.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The rules refuse the action; the message is the rule's.
    #[error("{0}")]
    Rule(#[from] RuleError),
    /// The deck or the dealer is wrong.
    #[error("{0}")]
    Deal(#[from] DealError),
    /// An action while no deal is in progress.
    #[error("no deal is in progress")]
    NoDeal,
    /// A new deal while one is in progress.
    #[error("a deal is in progress")]
    DealInProgress,
}

/// A game: the profile, the deal in progress and who deals next.
#[derive(Clone, Debug)]
pub struct Game {
    /// The agreements, frozen for the whole game.
    profile: Profile,
    /// Dealer of the deal in progress, or of the next deal.
    dealer: Seat,
    /// Consecutive raspasy deals just before the next one (R3.3, R8.9).
    raspasy_streak: u32,
    /// The deal in progress.
    deal: Option<Deal>,
    /// Deals finished so far.
    finished: u32,
    /// The score sheet: every finished deal recorded (R8, R9).
    sheet: Sheet,
}

impl Game {
    /// A game under `profile` whose first deal is dealt by `first_dealer`.
    ///
    /// # Errors
    /// [`GameError::Deal`] if the dealer is not at the table.
    pub fn new(profile: Profile, first_dealer: Seat) -> Result<Game, GameError> {
        if first_dealer.0 >= profile.players {
            return Err(GameError::Deal(DealError::Dealer(first_dealer.0)));
        }
        let sheet = Sheet::new(profile.players);
        Ok(Game {
            profile,
            dealer: first_dealer,
            raspasy_streak: 0,
            deal: None,
            finished: 0,
            sheet,
        })
    }

    /// The agreements.
    #[must_use]
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// Dealer of the deal in progress, or of the next deal.
    #[must_use]
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The deal in progress.
    #[must_use]
    pub fn deal(&self) -> Option<&Deal> {
        self.deal.as_ref()
    }

    /// The score sheet after the deals finished so far.
    #[must_use]
    pub fn sheet(&self) -> &Sheet {
        &self.sheet
    }

    /// Deals finished so far.
    #[must_use]
    pub fn deals_finished(&self) -> u32 {
        self.finished
    }

    /// Starts the next deal from a shuffled deck.
    ///
    /// # Errors
    /// [`GameError::DealInProgress`], or [`GameError::Deal`] for a bad deck.
    pub fn start_deal(&mut self, deck: &[Card; 32]) -> Result<Event, GameError> {
        if self.deal.is_some() {
            return Err(GameError::DealInProgress);
        }
        let deal = Deal::new(&self.profile, self.dealer, deck, self.raspasy_streak)?;
        let event = deal.deal_event();
        self.deal = Some(deal);
        Ok(event)
    }

    /// The player at `player` acts (player semantics, [`Deal::act`]); when the deal ends the
    /// dealer moves on clockwise.
    ///
    /// # Errors
    /// [`GameError::NoDeal`] between deals, [`GameError::Rule`] when the rules refuse.
    pub fn act(&mut self, player: Seat, action: Action) -> Result<Events, GameError> {
        let deal = self.deal.as_mut().ok_or(GameError::NoDeal)?;
        let events = deal.act(player, action)?;
        if let Some(outcome) = deal.outcome() {
            self.sheet
                .record(&self.profile, &outcome, self.raspasy_streak);
            self.raspasy_streak = match outcome.kind {
                OutcomeKind::Raspasy => self.raspasy_streak + 1,
                OutcomeKind::Game { .. } | OutcomeKind::Misere { .. } => 0,
            };
            self.dealer = Seat((self.dealer.0 + 1) % self.profile.players);
            self.finished += 1;
            self.deal = None;
        }
        Ok(events)
    }
}
