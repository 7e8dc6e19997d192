//! Card play (R6) and raspasy play (R7, R11.3): legal cards, trick winners, the turned
//! talon cards, and the end of the deal after ten tricks.

use super::{Deal, Events, Kind, Rules};
use crate::bid::Seat;
use crate::card::{Card, CardSet, Suit};
use crate::error::{RuleError, Stage};
use crate::event::Event;

impl Deal {
    /// Starts the play of a trick contract or misère: first hand leads (R6.1). On a misère
    /// the defenders' hands open now unless the declarer leads (R6.5).
    pub(crate) fn start_play(&mut self, events: &mut Events) {
        self.stage = Stage::Play;
        self.leader = self.first_hand();
        self.turn = self.leader;
        if self.kind == Kind::Misere && !self.is_dark_misere() && self.declarer != self.first_hand()
        {
            self.open_defenders(events);
        }
    }

    /// All passed: raspasy (R7) begins, with the first talon card unless it is ignored (R7.5).
    pub(crate) fn start_raspasy(&mut self, events: &mut Events) {
        self.kind = Kind::Raspasy;
        self.stage = Stage::Play;
        events.push(Event::AllPassed);
        self.begin_trick(events);
    }

    /// Sets up trick `self.trick_no`: its leader and, on raspasy tricks 1–2, the talon card.
    fn begin_trick(&mut self, events: &mut Events) {
        let i = self.trick_no;
        self.trick_start = self.n_played;
        self.leader = self.leader_of(i);
        if self.talon_in_raspasy() && i < 2 {
            let card = self.talon[i as usize];
            self.talon_shown = i + 1;
            events.push(Event::TalonCardTurned { trick: i, card });
            if self.players == 4 {
                // R11.3: the dealer's talon card leads the trick like a played card.
                self.played[self.n_played as usize] = card;
                self.n_played += 1;
                self.turn = self.first_hand();
                return;
            }
        }
        self.turn = self.leader;
    }

    fn trump(&self) -> Option<Suit> {
        match self.kind {
            Kind::Game => self.contract.and_then(|c| c.strain().trump()),
            Kind::Misere | Kind::Raspasy | Kind::Undecided => None,
        }
    }

    /// On three-player raspasy tricks 1–2, the suit of the turned talon card (R7.2).
    fn talon_suit(&self) -> Option<Suit> {
        (self.talon_in_raspasy() && self.players == 3 && self.trick_no < 2)
            .then(|| self.talon[self.trick_no as usize].suit())
    }

    fn trick_cards(&self) -> &[Card] {
        &self.played[self.trick_start as usize..self.n_played as usize]
    }

    /// Index of the winning card among `cards` (R6.3, R7.2, R11.3).
    fn winning_index(&self, cards: &[Card]) -> usize {
        let set: CardSet = cards.iter().copied().collect();
        let suit = match (self.trump(), self.talon_suit()) {
            (Some(t), _) if !set.of_suit(t).is_empty() => t,
            (_, Some(x)) if !set.of_suit(x).is_empty() => x,
            _ => cards[0].suit(),
        };
        let best = set.of_suit(suit).last().unwrap_or(cards[0]);
        cards.iter().position(|&c| c == best).unwrap_or(0)
    }

    /// Whether `card` added to the trick would be winning it.
    fn would_win(&self, card: Card) -> bool {
        let mut cards = [card; 4];
        let trick = self.trick_cards();
        cards[..trick.len()].copy_from_slice(trick);
        self.winning_index(&cards[..=trick.len()]) == trick.len()
    }

    /// The cards `seat` may play now (R6.2, R7.2).
    pub(crate) fn legal_cards(&self, seat: Seat) -> CardSet {
        let hand = self.hands[seat.index()];
        let trick = self.trick_cards();
        let Some(&first) = trick.first() else {
            let led = self
                .talon_suit()
                .map_or(CardSet::EMPTY, |x| hand.of_suit(x));
            return if led.is_empty() { hand } else { led };
        };
        let led = self.talon_suit().unwrap_or(first.suit());
        let follow = hand.of_suit(led);
        let bound = if !follow.is_empty() {
            follow
        } else {
            match self.trump().map(|t| hand.of_suit(t)) {
                Some(trumps) if !trumps.is_empty() => trumps,
                _ => return hand,
            }
        };
        if self.rules.has(Rules::MUST_OVERTAKE) {
            let beaters: CardSet = bound.iter().filter(|&c| self.would_win(c)).collect();
            if !beaters.is_empty() {
                return beaters;
            }
        }
        bound
    }

    pub(crate) fn check_play(&self, seat: Seat, card: Card) -> Result<(), RuleError> {
        let hand = self.hands[seat.index()];
        if !hand.contains(card) {
            return Err(RuleError::NotHeld { seat, card });
        }
        if self.legal_cards(seat).contains(card) {
            return Ok(());
        }
        let Some(&first) = self.trick_cards().first() else {
            let suit = self.talon_suit().unwrap_or(card.suit());
            return Err(RuleError::MustLeadTalonSuit { seat, suit });
        };
        let led = self.talon_suit().unwrap_or(first.suit());
        if !hand.of_suit(led).is_empty() && card.suit() != led {
            return Err(RuleError::MustFollow { seat, suit: led });
        }
        if let Some(trump) = self.trump()
            && hand.of_suit(led).is_empty()
            && card.suit() != trump
        {
            return Err(RuleError::MustTrump { seat, led, trump });
        }
        Err(RuleError::MustOvertake { seat })
    }

    pub(crate) fn do_play(&mut self, card: Card, events: &mut Events) {
        let seat = self.turn;
        self.hands[seat.index()] = self.hands[seat.index()].without(card);
        self.played[self.n_played as usize] = card;
        self.n_played += 1;
        events.push(Event::Played { seat, card });
        if self.kind == Kind::Misere
            && !self.is_dark_misere()
            && self.n_played == 1
            && seat == self.declarer
        {
            // R6.5: the declarer led the first trick; now the defenders' hands open. (A claim
            // before that lead may have opened one hand already, R6.7.)
            self.open_defenders(events);
        }
        if self.n_played - self.trick_start < self.trick_len(self.trick_no) {
            self.turn = self.next_seat(seat);
            return;
        }
        let w = self.winning_index(self.trick_cards());
        let mut winner = self.leader;
        for _ in 0..w {
            winner = self.next_seat(winner);
        }
        self.tricks[winner.index()] += 1;
        self.winners |= u32::from(winner.0) << (2 * self.trick_no);
        events.push(Event::TrickTaken {
            trick: self.trick_no,
            seat: winner,
        });
        self.trick_no += 1;
        if self.trick_no == 10 {
            self.finish(events);
        } else {
            self.begin_trick(events);
        }
    }
}
