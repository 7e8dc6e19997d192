//! What one seat has seen of a deal, from its stream of [`ViewEvent`]s: the cards played,
//! the voids shown, the talon cards turned. The rest (hands, trick in progress, tricks
//! taken) is read from the seat's [`pref_core::DealView`] when a decision is asked for.

use pref_core::{Card, CardSet, Seat, Suit, ViewEvent};

/// The seat's memory of the current deal.
#[derive(Clone, Debug, Default)]
pub(crate) struct Seen {
    /// Every card played so far (raspasy talon cards not included).
    pub(crate) played: CardSet,
    /// The cards each seat has played.
    pub(crate) played_by: [CardSet; 4],
    /// Suits each seat has shown it lacks (bit = suit index).
    pub(crate) voids: [u8; 4],
    /// Raspasy talon cards turned so far (R7.2, R11.3).
    pub(crate) talon_turned: [Option<Card>; 2],
    /// Whether the deal is raspasy.
    pub(crate) raspasy: bool,
    /// The trump suit once the contract is named.
    pub(crate) trump: Option<Suit>,
    /// The suit to follow in the trick in progress.
    led: Option<Suit>,
}

impl Seen {
    /// Updates the memory with one event.
    pub(crate) fn observe(&mut self, event: &ViewEvent) {
        match event {
            ViewEvent::Dealt { .. } => *self = Seen::default(),
            ViewEvent::AllPassed => self.raspasy = true,
            ViewEvent::TalonCardTurned { trick, card } => {
                if let Some(slot) = self.talon_turned.get_mut(*trick as usize) {
                    *slot = Some(*card);
                }
                // Four players: the talon card leads (R11.3); three: its suit is followed (R7.2).
                self.led = Some(card.suit());
            }
            ViewEvent::Declared { contract, .. } => self.trump = contract.strain().trump(),
            ViewEvent::Played { seat, card } => self.played_card(*seat, *card),
            ViewEvent::TrickTaken { .. } => {
                self.led = None;
            }
            ViewEvent::Called { .. }
            | ViewEvent::Looked { .. }
            | ViewEvent::TalonSeen { .. }
            | ViewEvent::AuctionWon { .. }
            | ViewEvent::TalonTurned { .. }
            | ViewEvent::Discarded { .. }
            | ViewEvent::Whisted { .. }
            | ViewEvent::DefenceChosen { .. }
            | ViewEvent::HandOpened { .. }
            | ViewEvent::Surrendered { .. }
            | ViewEvent::Claimed { .. }
            | ViewEvent::Answered { .. }
            | ViewEvent::ClaimAccepted { .. }
            | ViewEvent::DealOver
            | ViewEvent::Revealed(_) => {}
        }
    }

    fn played_card(&mut self, seat: Seat, card: Card) {
        self.played = self.played.with(card);
        let s = seat.index().min(3);
        self.played_by[s] = self.played_by[s].with(card);
        match self.led {
            Some(led) if card.suit() != led => {
                self.voids[s] |= 1 << led as u8;
                if let Some(t) = self.trump
                    && card.suit() != t
                {
                    self.voids[s] |= 1 << t as u8;
                }
            }
            Some(_) => {}
            None => self.led = Some(card.suit()),
        }
    }

    /// The cards a seat may still hold, given its voids.
    pub(crate) fn possible(&self, seat: Seat) -> CardSet {
        let mut set = CardSet::FULL;
        for s in Suit::ALL {
            if self.voids[seat.index().min(3)] & (1 << s as u8) != 0 {
                set = set.minus(s.cards());
            }
        }
        set
    }
}
