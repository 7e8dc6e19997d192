//! The auction (R3): the next step, *here*, misère, passes, and how the auction ends.

use super::{Deal, Events, Kind};
use crate::action::Action;
use crate::bid::{Bid, Call, Seat};
use crate::error::{RuleError, Stage};
use crate::event::Event;
use crate::legal::ActionList;

impl Deal {
    /// Seniority of a seat: 0 for first hand, 1 for second, 2 for third (R1.4).
    fn seniority(&self, seat: Seat) -> u8 {
        let mut s = self.first_hand();
        let mut i = 0;
        while s != seat {
            s = self.next_seat(s);
            i += 1;
        }
        i
    }

    /// The one ordinary bid allowed now: the next step, or the lowest step to open (R3.3).
    fn next_bid(&self) -> Option<Bid> {
        match self.highest {
            None => Some(self.min_bid),
            Some(b) => b.next_step(),
        }
    }

    fn may_misere(&self, seat: Seat) -> Result<(), RuleError> {
        if self.spoken & (1 << seat.0) != 0 {
            return Err(RuleError::MisereNotFirstCall);
        }
        if self.min_bid > Bid::MISERE {
            return Err(RuleError::MisereBelowExit {
                min_level: self.min_bid.contract().map_or(9, |c| c.level()),
            });
        }
        if let Some(h) = self.highest
            && (h >= Bid::MISERE || self.misere_by.is_some())
        {
            return Err(RuleError::MisereTooLate { standing: h });
        }
        Ok(())
    }

    pub(crate) fn check_call(&self, seat: Seat, call: Call) -> Result<(), RuleError> {
        let Call::Bid(bid) = call else { return Ok(()) };
        if bid.is_misere() {
            return self.may_misere(seat);
        }
        if let Some(h) = self.highest
            && bid == h
        {
            if h.is_misere() {
                return Err(RuleError::MisereTooLate { standing: h });
            }
            return if self.seniority(seat) < self.seniority(self.holder) {
                Ok(())
            } else {
                Err(RuleError::HereByJunior {
                    bid,
                    holder: self.holder,
                })
            };
        }
        match self.next_bid() {
            Some(next) if next == bid => Ok(()),
            Some(next) => Err(RuleError::NotNextStep { bid, next }),
            None => Err(RuleError::NothingHigher),
        }
    }

    pub(crate) fn legal_calls(&self, seat: Seat, out: &mut ActionList) {
        out.push(Action::Bid(Call::Pass));
        if let Some(h) = self.highest
            && !h.is_misere()
            && self.seniority(seat) < self.seniority(self.holder)
        {
            out.push(Action::Bid(Call::Bid(h)));
        }
        if let Some(next) = self.next_bid() {
            out.push(Action::Bid(Call::Bid(next)));
        }
        if self.may_misere(seat).is_ok() {
            out.push(Action::Bid(Call::Bid(Bid::MISERE)));
        }
    }

    pub(crate) fn do_call(&mut self, seat: Seat, call: Call, events: &mut Events) {
        self.spoken |= 1 << seat.0;
        self.last_call[seat.index()] = Some(call);
        let here = call.is_here(self.highest);
        events.push(Event::Called { seat, call, here });
        match call {
            Call::Pass => self.out |= 1 << seat.0,
            Call::Bid(bid) => {
                if bid.is_misere() {
                    self.misere_by = Some(seat);
                } else if let Some(m) = self.misere_by
                    && self.highest == Some(Bid::MISERE)
                {
                    // Overcalled, the misère bidder is out as if he had passed (R3.6).
                    self.out |= 1 << m.0;
                }
                self.highest = Some(bid);
                self.holder = seat;
            }
        }
        let in_seats = self.active_mask() & !self.out;
        match (self.highest, in_seats.count_ones()) {
            (None, 0) => self.start_raspasy(events),
            (Some(bid), 1) => self.win_auction(bid, events),
            _ => {
                let silent = self.misere_by.map_or(0, |m| 1 << m.0);
                let mut next = self.next_seat(seat);
                while (self.out | silent) & (1 << next.0) != 0 {
                    next = self.next_seat(next);
                }
                self.turn = next;
            }
        }
    }

    pub(crate) fn active_mask(&self) -> u8 {
        let all = (1u8 << self.players) - 1;
        if self.players == 4 {
            all & !(1 << self.dealer.0)
        } else {
            all
        }
    }

    fn win_auction(&mut self, bid: Bid, events: &mut Events) {
        let declarer = self.holder;
        self.declarer = declarer;
        self.kind = if bid.is_misere() {
            Kind::Misere
        } else {
            Kind::Game
        };
        events.push(Event::AuctionWon { declarer, bid });
        // R4.1: the talon is shown to everybody, then taken.
        self.talon_shown = 2;
        events.push(Event::TalonTurned { cards: self.talon });
        let h = &mut self.hands[declarer.index()];
        *h = h.with(self.talon[0]).with(self.talon[1]);
        self.stage = Stage::Discard;
        self.turn = declarer;
    }
}
