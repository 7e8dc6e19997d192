//! The auction (R3): the next step, *here*, misère, passes, and how the auction ends; with
//! `dark_games` the look and the dark call (R2.3, R3.9), with `misere_without_talon` the
//! misère and nine without talon (R3.10).

use super::{Deal, Events, Kind, Rules};
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

    /// Whether `seat` is the outbid misère caller at his one further turn (R3.10.1).
    fn at_mwt_turn(&self, seat: Seat) -> bool {
        self.mwt_turn() && self.misere_by == Some(seat)
    }

    /// R3.10.1: MWT, by the outbid misère caller at his one further turn.
    fn may_misere_no_talon(&self, seat: Seat) -> Result<(), RuleError> {
        if !self.rules.has(Rules::NO_TALON) {
            return Err(RuleError::NoTalonOff);
        }
        if self.at_mwt_turn(seat) && self.highest < Some(Bid::MISERE_NO_TALON) {
            Ok(())
        } else {
            Err(RuleError::MisereNoTalonBar)
        }
    }

    /// R3.10.2: 9WT, by another player than the misère caller, below 9WT (or held with *here*).
    fn may_nine_no_talon(&self, seat: Seat) -> Result<(), RuleError> {
        if !self.rules.has(Rules::NO_TALON) {
            return Err(RuleError::NoTalonOff);
        }
        let here = self.highest == Some(Bid::NINE_NO_TALON);
        match self.misere_by {
            Some(m) if m != seat && (self.highest < Some(Bid::NINE_NO_TALON) || here) => {
                if here && self.seniority(seat) >= self.seniority(self.holder) {
                    Err(RuleError::HereByJunior {
                        bid: Bid::NINE_NO_TALON,
                        holder: self.holder,
                    })
                } else {
                    Ok(())
                }
            }
            Some(_) | None => Err(RuleError::NineNoTalonBar),
        }
    }

    pub(crate) fn check_call(&self, seat: Seat, call: Call) -> Result<(), RuleError> {
        if self.at_mwt_turn(seat) {
            return match call {
                Call::Pass => Ok(()),
                Call::Bid(b) if b.is_misere_no_talon() => self.may_misere_no_talon(seat),
                Call::Bid(_) => Err(RuleError::MisereCallerTurn),
            };
        }
        let Call::Bid(bid) = call else { return Ok(()) };
        if bid.is_misere() {
            return self.may_misere(seat);
        }
        if bid.is_misere_no_talon() {
            return self.may_misere_no_talon(seat);
        }
        if bid.is_nine_no_talon() {
            return self.may_nine_no_talon(seat);
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

    /// R3.9: a dark call is a first call before looking, legal as the same call in the light.
    pub(crate) fn check_dark_call(&self, seat: Seat, call: Call) -> Result<(), RuleError> {
        if !self.rules.has(Rules::DARK_GAMES) {
            return Err(RuleError::DarkOff);
        }
        if self.has_looked(seat) || self.spoken & (1 << seat.0) != 0 {
            return Err(RuleError::DarkTooLate(seat));
        }
        self.check_call(seat, call)
    }

    /// R2.3: a look, by a seat of the auction that has neither looked nor called.
    pub(crate) fn check_look(&self, seat: Seat) -> Result<(), RuleError> {
        if !self.rules.has(Rules::DARK_GAMES) {
            return Err(RuleError::DarkOff);
        }
        if self.stage != Stage::Auction {
            return Err(RuleError::WrongStage {
                verb: crate::error::Verb::Look,
                stage: self.stage,
            });
        }
        if self.active_mask() & (1 << seat.0) == 0 {
            return Err(RuleError::NotInDeal(seat));
        }
        if self.has_looked(seat) {
            return Err(RuleError::AlreadyLooked(seat));
        }
        Ok(())
    }

    /// Whether `seat` has seen its hand (R2.3): always without `dark_games`.
    pub(crate) fn has_looked(&self, seat: Seat) -> bool {
        self.out & (0x10 << seat.0) != 0
    }

    /// Whether the outbid misère caller still has his one further turn (R3.10.1): his
    /// misère was outbid and he is still in, neither out nor holding his MWT.
    fn mwt_turn(&self) -> bool {
        self.misere_by
            .is_some_and(|m| self.out & (1 << m.0) == 0 && self.holder != m)
    }

    /// The highest nine `seat` bid in this auction (R4.6).
    pub(crate) fn own_nine(&self, seat: Seat) -> Option<crate::bid::Strain> {
        let s = self.nines / 6u8.pow(u32::from(self.seniority(seat))) % 6;
        crate::bid::Strain::ALL
            .get(usize::from(s).checked_sub(1)?)
            .copied()
    }

    /// Adds the look to `out` where R2.3 allows it.
    pub(crate) fn push_look(&self, seat: Seat, out: &mut ActionList) {
        if seat.0 < self.players && self.check_look(seat).is_ok() {
            out.push(Action::Look);
        }
    }

    pub(crate) fn do_look(&mut self, seat: Seat, events: &mut Events) {
        self.out |= 0x10 << seat.0;
        events.push(Event::Looked {
            seat,
            hand: self.hands[seat.index()],
        });
    }

    pub(crate) fn do_dark_call(&mut self, seat: Seat, call: Call, events: &mut Events) {
        self.spoken |= 0x10 << seat.0;
        self.out |= 0x10 << seat.0;
        self.do_call(seat, call, events);
    }

    pub(crate) fn legal_calls(&self, seat: Seat, out: &mut ActionList) {
        if self.at_mwt_turn(seat) {
            out.push(Action::Bid(Call::Pass));
            if self.may_misere_no_talon(seat).is_ok() {
                out.push(Action::Bid(Call::Bid(Bid::MISERE_NO_TALON)));
            }
            return;
        }
        let dark = self.check_dark_call(seat, Call::Pass).is_ok();
        self.push_look(seat, out);
        out.push(Action::Bid(Call::Pass));
        if let Some(h) = self.highest
            && !h.is_misere()
            && !h.is_no_talon()
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
        if self.may_nine_no_talon(seat).is_ok() {
            out.push(Action::Bid(Call::Bid(Bid::NINE_NO_TALON)));
        }
        if dark {
            // R3.9: every light call but a look, made dark (*here* is never a first call).
            let light: Vec<Call> = out
                .iter()
                .filter_map(|a| match a {
                    Action::Bid(c) => Some(c),
                    Action::Look
                    | Action::Dark(_)
                    | Action::Discard(_)
                    | Action::Declare(_)
                    | Action::Whist(_)
                    | Action::Defence(_)
                    | Action::Play(_)
                    | Action::Claim(_)
                    | Action::Answer(_)
                    | Action::Surrender => None,
                })
                .collect();
            for c in light {
                out.push(Action::Dark(c));
            }
        }
    }

    pub(crate) fn do_call(&mut self, seat: Seat, call: Call, events: &mut Events) {
        let dark = self.dark_calls() & (1 << seat.0) != 0 && self.spoken & (1 << seat.0) == 0;
        if !self.has_looked(seat) {
            // R2.3: a first call in the light implies a look just before it.
            self.do_look(seat, events);
        }
        self.spoken |= 1 << seat.0;
        self.last_call[seat.index()] = Some(call);
        let here = call.is_here(self.highest);
        events.push(Event::Called {
            seat,
            call,
            here,
            dark,
        });
        if dark {
            // R3.9: right after his dark call the player sees his hand.
            events.push(Event::Looked {
                seat,
                hand: self.hands[seat.index()],
            });
        }
        match call {
            Call::Pass => self.out |= 1 << seat.0,
            Call::Bid(bid) => {
                if bid.is_misere() {
                    self.misere_by = Some(seat);
                } else if let Some(m) = self.misere_by
                    && m != seat
                {
                    self.outbid_misere(m, bid);
                }
                if let Some(c) = bid.contract()
                    && c.level() == 9
                {
                    let place = 6u8.pow(u32::from(self.seniority(seat)));
                    let old = self.nines / place % 6;
                    self.nines = self.nines - old * place + (c.strain() as u8 + 1) * place;
                }
                self.highest = Some(bid);
                self.holder = seat;
            }
        }
        let in_seats = self.active_mask() & !self.out & 0xF;
        match (self.highest, in_seats.count_ones()) {
            (None, 0) => self.start_raspasy(events),
            (Some(bid), 1) => self.win_auction(bid, events),
            _ => {
                let silent = match self.misere_by {
                    Some(_) if self.mwt_turn() => 0,
                    Some(m) => 1 << m.0,
                    None => 0,
                };
                let mut next = self.next_seat(seat);
                while (self.out | silent) & (1 << next.0) != 0 {
                    next = self.next_seat(next);
                }
                self.turn = next;
            }
        }
    }

    /// A bid by another player over the misère caller `m`: standing on misère or his MWT, he
    /// is out as if he had passed (R3.6), unless R3.10.1 gives an outbid misère one further
    /// turn (a bid below MWT); a bid at or above MWT ends that turn before it comes.
    fn outbid_misere(&mut self, m: Seat, bid: Bid) {
        let holds = self.holder == m && self.highest.is_some_and(Bid::is_any_misere);
        let keeps_turn = self.highest == Some(Bid::MISERE)
            && self.rules.has(Rules::NO_TALON)
            && bid < Bid::MISERE_NO_TALON;
        if (holds && !keeps_turn) || (self.mwt_turn() && bid > Bid::MISERE_NO_TALON) {
            self.out |= 1 << m.0;
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
        self.kind = if bid.is_any_misere() {
            Kind::Misere
        } else {
            Kind::Game
        };
        events.push(Event::AuctionWon { declarer, bid });
        self.turn = declarer;
        if bid.is_misere_no_talon() {
            // R4.6: nobody takes or sees the talon; MWT is played at once with ten cards.
            self.start_play(events);
            return;
        }
        if bid.is_nine_no_talon() {
            // R4.6: no talon, no discard; the declarer names his nine.
            self.stage = Stage::Declare;
            return;
        }
        if self.is_dark_misere() {
            // R4.7.1: the talon of a dark misère is seen by the declarer alone.
            events.push(Event::TalonSeen {
                seat: declarer,
                cards: self.talon,
            });
        } else {
            // R4.1: the talon is shown to everybody, then taken.
            self.talon_shown = 2;
            events.push(Event::TalonTurned { cards: self.talon });
        }
        let h = &mut self.hands[declarer.index()];
        *h = h.with(self.talon[0]).with(self.talon[1]);
        self.stage = Stage::Discard;
        self.turn = declarer;
    }
}
