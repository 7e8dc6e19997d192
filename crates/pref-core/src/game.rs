//! The game (*pulka*): deal after deal under one profile until every pool is closed.
//!
//! [`Game`] owns what lives between deals: the dealer's rotation (R1.3), the count of
//! consecutive raspasy deals (it sets the next deal's lowest bid, R3.3, and the raspasy price,
//! R8.9), the history, and the [`Sheet`]. A deal is either played card by card through
//! [`Deal`] or, for scorekeeping with real cards, entered as its [`Outcome`], which is checked
//! for consistency first. Either way it is scored the moment it ends.

use num_rational::Ratio;

use crate::action::Action;
use crate::bid::Seat;
use crate::card::{Card, CardSet};
use crate::deal::{Deal, Events};
use crate::error::{DealError, RuleError};
use crate::event::Event;
use crate::line::Line;
use crate::outcome::{AcceptedClaim, Outcome, OutcomeKind};
use crate::profile::{Profile, RaspasySeries};
use crate::sheet::Sheet;

/// One deal of the game, as the history keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealEntry {
    /// A deal played card by card (actions in record semantics, as [`Deal::apply`] takes them).
    Played {
        /// The dealer.
        dealer: Seat,
        /// Hands as dealt (index = seat; empty for a four-player dealer).
        hands: [CardSet; 4],
        /// The talon.
        talon: [Card; 2],
        /// Every action so far, with the seat it was made for.
        actions: Vec<(Seat, Action)>,
        /// The outcome; `None` while the deal is in progress.
        outcome: Option<Outcome>,
    },
    /// A deal scored from its outcome only (the record's outcome form).
    Scored {
        /// The dealer.
        dealer: Seat,
        /// The outcome as entered.
        outcome: Outcome,
    },
}

impl DealEntry {
    /// The dealer of this deal.
    #[must_use]
    pub fn dealer(&self) -> Seat {
        match self {
            DealEntry::Played { dealer, .. } | DealEntry::Scored { dealer, .. } => *dealer,
        }
    }

    /// The outcome, once the deal is over.
    #[must_use]
    pub fn outcome(&self) -> Option<&Outcome> {
        match self {
            DealEntry::Played { outcome, .. } => outcome.as_ref(),
            DealEntry::Scored { outcome, .. } => Some(outcome),
        }
    }

    /// The claim every player accepted that ended this deal (R6.7), once it is over;
    /// `None` for a deal in progress, one that ended otherwise and one scored from its
    /// outcome alone.
    #[must_use]
    pub fn accepted_claim(&self) -> Option<AcceptedClaim> {
        match self {
            DealEntry::Played {
                actions,
                outcome: Some(_),
                ..
            } => AcceptedClaim::of(actions),
            DealEntry::Played { outcome: None, .. } | DealEntry::Scored { .. } => None,
        }
    }
}

/// What one finished deal wrote, as [`Game::scores`] keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealScore {
    /// The lines in the order written ([`Sheet::record_explained`]).
    pub lines: Vec<Line>,
    /// The sheet after the deal.
    pub sheet: Sheet,
}

/// Why the game refuses a step.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The deal in progress refuses the action.
    #[error("{0}")]
    Rule(RuleError),
    /// The cards given cannot make a deal.
    #[error("{0}")]
    Deal(DealError),
    /// An outcome entered by hand does not fit the rules or the table.
    #[error("{0}")]
    Outcome(String),
    /// Every pool is closed: the game is over (R9.4).
    #[error("the game is over: every pool is closed (R9.4)")]
    GameOver,
    /// A new deal, or an outcome, while a deal is being played.
    #[error("a deal is in progress")]
    DealInProgress,
    /// An action with no deal in progress.
    #[error("no deal is in progress")]
    NoDeal,
}

impl From<RuleError> for GameError {
    fn from(e: RuleError) -> GameError {
        GameError::Rule(e)
    }
}

impl From<DealError> for GameError {
    fn from(e: DealError) -> GameError {
        GameError::Deal(e)
    }
}

/// A pulka: the profile, the sheet, the dealer, the deal in progress and the history.
///
/// ```
/// use num_rational::Ratio;
/// use pref_core::{Game, Outcome, OutcomeKind, Profile, Seat};
///
/// let mut game = Game::new(Profile::sochi(), Seat(2)).unwrap();
/// // Raspasy 0–5–5 (R8.9): seat 0 earns the zero bonus, the others 5 mountain each.
/// let raspasy = Outcome {
///     players: 3,
///     dealer: game.dealer(),
///     kind: OutcomeKind::Raspasy,
///     tricks: Some([0, 5, 5, 0]),
///     dark: false,
///     no_talon: false,
/// };
/// game.record_outcome(raspasy).unwrap();
/// assert_eq!(game.sheet().pool(), [1, 0, 0]);
/// assert_eq!(game.sheet().mountain(), [0, 5, 5]);
/// assert_eq!(game.dealer(), Seat(0)); // R1.3
/// assert_eq!(game.settlement(), None); // the pools are open
/// // An agreed stop (R10.3): the missing pool goes on the mountains, 19, 25, 25 (mean 23).
/// let stop: Vec<Ratio<i64>> = [40, -20, -20].map(Ratio::from_integer).into();
/// assert_eq!(game.agreed_settlement(), stop);
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    profile: Profile,
    sheet: Sheet,
    /// Dealer of the deal in progress, or of the next one.
    dealer: Seat,
    /// Consecutive raspasy deals just before the deal in progress (or the next one).
    raspasy_streak: u32,
    deal: Option<Deal>,
    history: Vec<DealEntry>,
    /// One entry per finished deal of `history`, in its order.
    scores: Vec<DealScore>,
}

impl Game {
    /// A new game; `first_dealer` deals first (R1.3).
    ///
    /// # Errors
    /// [`GameError::Deal`] if `first_dealer` is not a seat of the table.
    pub fn new(profile: Profile, first_dealer: Seat) -> Result<Game, GameError> {
        if first_dealer.0 >= profile.players() {
            return Err(DealError::Dealer(first_dealer.0).into());
        }
        Ok(Game {
            sheet: Sheet::new(profile.players()),
            profile,
            dealer: first_dealer,
            raspasy_streak: 0,
            deal: None,
            history: Vec::new(),
            scores: Vec::new(),
        })
    }

    /// The profile, frozen for the whole game.
    #[must_use]
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// The score sheet after the last finished deal.
    #[must_use]
    pub fn sheet(&self) -> &Sheet {
        &self.sheet
    }

    /// The dealer of the deal in progress, or of the next deal.
    #[must_use]
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// Consecutive raspasy deals just before the deal in progress (or the next one).
    #[must_use]
    pub fn raspasy_streak(&self) -> u32 {
        self.raspasy_streak
    }

    /// The deal in progress (`None` between deals).
    #[must_use]
    pub fn deal(&self) -> Option<&Deal> {
        self.deal.as_ref()
    }

    /// Every deal so far; a deal in progress is last, with no outcome yet.
    #[must_use]
    pub fn history(&self) -> &[DealEntry] {
        &self.history
    }

    /// Starts the next deal from a shuffled deck (see [`Deal::new`] for the order).
    ///
    /// # Errors
    /// [`GameError::GameOver`], [`GameError::DealInProgress`], or [`GameError::Deal`] for a
    /// bad deck.
    pub fn start_deal(&mut self, deck: &[Card; 32]) -> Result<Event, GameError> {
        self.ready_for_deal()?;
        let deal = Deal::new(&self.profile, self.dealer, deck, self.raspasy_streak)?;
        Ok(self.begin(deal))
    }

    /// Starts the next deal from explicit hands (index = seat, empty for a four-player
    /// dealer) and talon, as a game record gives them.
    ///
    /// # Errors
    /// As [`Game::start_deal`]; [`GameError::Deal`] names what is wrong with the cards.
    pub fn start_deal_from_hands(
        &mut self,
        hands: &[Vec<Card>],
        talon: &[Card],
    ) -> Result<Event, GameError> {
        self.ready_for_deal()?;
        let deal = Deal::from_hands(
            &self.profile,
            self.dealer,
            hands,
            talon,
            self.raspasy_streak,
        )?;
        Ok(self.begin(deal))
    }

    fn ready_for_deal(&self) -> Result<(), GameError> {
        if self.deal.is_some() {
            Err(GameError::DealInProgress)
        } else if self.is_over() {
            Err(GameError::GameOver)
        } else {
            Ok(())
        }
    }

    fn begin(&mut self, deal: Deal) -> Event {
        self.history.push(DealEntry::Played {
            dealer: deal.dealer(),
            hands: deal.dealt_hands(),
            talon: deal.talon(),
            actions: Vec::new(),
            outcome: None,
        });
        let event = deal.deal_event();
        self.deal = Some(deal);
        event
    }

    /// Every event of the deal in progress so far, in order and unprojected, the deal event
    /// first: replayed from the deal's history entry, for a viewer (a bot) that joins in the
    /// middle of a deal. Empty between deals.
    #[must_use]
    pub fn deal_events(&self) -> Vec<Event> {
        let (
            Some(_),
            Some(DealEntry::Played {
                dealer,
                hands,
                talon,
                actions,
                ..
            }),
        ) = (&self.deal, self.history.last())
        else {
            return Vec::new();
        };
        let hands: Vec<Vec<Card>> = hands[..usize::from(self.profile.players())]
            .iter()
            .map(|h| h.iter().collect())
            .collect();
        // The entry was made from a deal that was valid, with this same streak.
        let Ok(mut deal) =
            Deal::from_hands(&self.profile, *dealer, &hands, talon, self.raspasy_streak)
        else {
            return Vec::new();
        };
        let mut events = vec![deal.deal_event()];
        for &(seat, action) in actions {
            match deal.apply(seat, action) {
                Ok(more) => events.extend(more),
                Err(_) => break,
            }
        }
        events
    }

    /// Applies an action in record semantics (for a card, the seat whose card it is; see
    /// [`Deal::apply`]). When the deal ends it is scored and the dealer moves on.
    ///
    /// # Errors
    /// [`GameError::Rule`] if the rules refuse it (nothing changes), [`GameError::NoDeal`]
    /// between deals, [`GameError::GameOver`] after the last one.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Events, GameError> {
        let deal = self.deal_mut()?;
        let events = deal.apply(seat, action)?;
        self.after_action(seat, action);
        Ok(events)
    }

    /// Applies an action by the player at `player`, who must be the one to act
    /// ([`Deal::act`]: in open play the whister plays his partner's cards too).
    ///
    /// # Errors
    /// As [`Game::apply`]; [`RuleError::NotYourTurn`] if `player` is not to act.
    pub fn act(&mut self, player: Seat, action: Action) -> Result<Events, GameError> {
        let deal = self.deal_mut()?;
        // The history keeps record semantics: the seat the action is made for, and a
        // player's own seat for a claim or an answer (R6.7).
        let seat = if deal.acts_in_own_name(action) {
            player
        } else {
            deal.turn().unwrap_or(player)
        };
        let events = deal.act(player, action)?;
        self.after_action(seat, action);
        Ok(events)
    }

    fn deal_mut(&mut self) -> Result<&mut Deal, GameError> {
        if self.deal.is_none() && self.is_over() {
            return Err(GameError::GameOver);
        }
        self.deal.as_mut().ok_or(GameError::NoDeal)
    }

    fn after_action(&mut self, seat: Seat, action: Action) {
        let finished = self.deal.as_ref().and_then(Deal::outcome);
        if let Some(DealEntry::Played {
            actions, outcome, ..
        }) = self.history.last_mut()
        {
            actions.push((seat, action));
            *outcome = finished;
        }
        if let Some(o) = finished {
            self.deal = None;
            self.score(&o);
        }
    }

    /// Scores a deal entered as its outcome (the record's outcome form), after checking it
    /// against the rules and the table.
    ///
    /// # Errors
    /// [`GameError::Outcome`] saying what does not fit (nothing changes);
    /// [`GameError::DealInProgress`]; [`GameError::GameOver`] after the last deal.
    pub fn record_outcome(&mut self, outcome: Outcome) -> Result<(), GameError> {
        self.ready_for_deal()?;
        if outcome.no_talon && self.profile.min_level(self.raspasy_streak) > 8 {
            return Err(GameError::Outcome(
                "misère and nine without talon need misère allowed, and the lowest level of this deal is above 8 (R3.10, R3.6)"
                    .to_owned(),
            ));
        }
        crate::check::check_outcome(&self.profile, self.dealer, &outcome)
            .map_err(GameError::Outcome)?;
        self.history.push(DealEntry::Scored {
            dealer: self.dealer,
            outcome,
        });
        self.score(&outcome);
        Ok(())
    }

    /// Writes a finished deal on the sheet and moves on to the next dealer (R1.3).
    fn score(&mut self, outcome: &Outcome) {
        let lines = self
            .sheet
            .record_explained(&self.profile, outcome, self.raspasy_streak);
        self.scores.push(DealScore {
            lines,
            sheet: self.sheet.clone(),
        });
        self.raspasy_streak = match outcome.kind {
            OutcomeKind::Raspasy => self.raspasy_streak.saturating_add(1),
            // R8.9, `raspasy_series = "made"`: after a failed deal the count stands.
            OutcomeKind::Game { .. }
            | OutcomeKind::Misere { .. }
            | OutcomeKind::Surrender { .. }
                if self.profile.raspasy_series() == RaspasySeries::Made
                    && outcome.made() == Some(false) =>
            {
                self.raspasy_streak
            }
            OutcomeKind::Game { .. }
            | OutcomeKind::Misere { .. }
            | OutcomeKind::Surrender { .. } => 0,
        };
        self.dealer = self.dealer.next(self.profile.players());
    }

    /// What each finished deal wrote and the sheet after it, in the order of
    /// [`Game::history`] (whose last entry may be a deal in progress, with no score yet).
    #[must_use]
    pub fn scores(&self) -> &[DealScore] {
        &self.scores
    }

    /// Whether every pool is closed (R9.4).
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.sheet.all_closed(&self.profile)
    }

    /// The settlement (R10), once the game is over.
    #[must_use]
    pub fn settlement(&self) -> Option<Vec<Ratio<i64>>> {
        self.is_over()
            .then(|| self.sheet.settlement(&self.profile, false))
    }

    /// The settlement of an agreed early stop (R10.3); the sheet is not changed.
    #[must_use]
    pub fn agreed_settlement(&self) -> Vec<Ratio<i64>> {
        self.sheet.settlement(&self.profile, true)
    }
}
