//! A stand-in for the pulka (`Game`) while it is built on their own
//! branch: deals are replayed through [`Deal`] with the dealer's rotation, without a sheet.
//! It goes away when the real `game.rs` arrives.
#![allow(missing_docs, unreachable_pub)]

use crate::{
    Action, Card, CardSet, Deal, DealError, Events, Outcome, OutcomeKind, Profile, RuleError, Seat,
};

#[derive(Clone, Debug)]
pub enum DealEntry {
    Played {
        dealer: Seat,
        hands: [CardSet; 4],
        talon: [Card; 2],
        actions: Vec<(Seat, Action)>,
        outcome: Option<Outcome>,
    },
    Scored {
        dealer: Seat,
        outcome: Outcome,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("{0}")]
    Rule(RuleError),
    #[error("{0}")]
    Deal(DealError),
    #[error("{0}")]
    Outcome(String),
    #[error("the game is over")]
    GameOver,
    #[error("a deal is in progress")]
    DealInProgress,
    #[error("no deal is in progress")]
    NoDeal,
}

#[derive(Clone, Debug)]
pub struct Game {
    profile: Profile,
    dealer: Seat,
    streak: u32,
    deal: Option<Deal>,
    history: Vec<DealEntry>,
}

impl Game {
    pub fn new(profile: Profile, first_dealer: Seat) -> Result<Game, GameError> {
        if first_dealer.0 >= profile.players {
            return Err(GameError::Deal(DealError::Dealer(first_dealer.0)));
        }
        Ok(Game {
            profile,
            dealer: first_dealer,
            streak: 0,
            deal: None,
            history: Vec::new(),
        })
    }
    pub fn profile(&self) -> &Profile {
        &self.profile
    }
    pub fn dealer(&self) -> Seat {
        self.dealer
    }
    pub fn deal(&self) -> Option<&Deal> {
        self.deal.as_ref()
    }
    pub fn history(&self) -> &[DealEntry] {
        &self.history
    }
    pub fn is_over(&self) -> bool {
        false
    }
    pub fn start_deal_from_hands(
        &mut self,
        hands: &[Vec<Card>],
        talon: &[Card],
    ) -> Result<(), GameError> {
        let d = Deal::from_hands(&self.profile, self.dealer, hands, talon, self.streak)
            .map_err(GameError::Deal)?;
        let mut hs = [CardSet::EMPTY; 4];
        for (h, cards) in hs.iter_mut().zip(hands) {
            *h = cards.iter().copied().collect();
        }
        self.history.push(DealEntry::Played {
            dealer: self.dealer,
            hands: hs,
            talon: [talon[0], talon[1]],
            actions: Vec::new(),
            outcome: None,
        });
        self.deal = Some(d);
        Ok(())
    }
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Events, GameError> {
        let deal = self.deal.as_mut().ok_or(GameError::NoDeal)?;
        let ev = deal.apply(seat, action).map_err(GameError::Rule)?;
        if let Some(DealEntry::Played { actions, .. }) = self.history.last_mut() {
            actions.push((seat, action));
        }
        if let Some(o) = deal.outcome() {
            if let Some(DealEntry::Played { outcome, .. }) = self.history.last_mut() {
                *outcome = Some(o);
            }
            self.deal = None;
            self.end(o);
        }
        Ok(ev)
    }
    pub fn record_outcome(&mut self, outcome: Outcome) -> Result<(), GameError> {
        self.history.push(DealEntry::Scored {
            dealer: self.dealer,
            outcome,
        });
        self.end(outcome);
        Ok(())
    }
    fn end(&mut self, o: Outcome) {
        self.streak = if o.kind == OutcomeKind::Raspasy {
            self.streak + 1
        } else {
            0
        };
        self.dealer = self.dealer.next(self.profile.players);
    }
}
