//! Whist decisions after a trick contract is named (R5, R11.4): whist, pass, half-whist,
//! the returned whist, the first defender's withdrawal to a half-whist after *whist, pass*
//! (R5.3), open or closed defence, and the four-player dealer's whist.

use super::{Deal, Events, Rules};
use crate::action::{Action, Defence, WhistCall};
use crate::bid::Seat;
use crate::error::{HalfWhistBar, RuleError, Stage};
use crate::event::Event;
use crate::legal::ActionList;

impl Deal {
    fn defenders(&self) -> (Seat, Seat) {
        let f = self.next_seat(self.declarer);
        (f, self.next_seat(f))
    }

    fn is_four_player_dealer(&self, seat: Seat) -> bool {
        self.players == 4 && seat == self.dealer
    }

    pub(crate) fn check_whist(&self, seat: Seat, call: WhistCall) -> Result<(), RuleError> {
        let (first, _) = self.defenders();
        if self.is_four_player_dealer(seat) {
            return match call {
                WhistCall::Half => Err(RuleError::DealerHalfWhist),
                WhistCall::Whist | WhistCall::Pass => Ok(()),
            };
        }
        if self.withdrawal_decision(seat) {
            // R5.3: he stays or withdraws; he has already refused to pass.
            return match call {
                WhistCall::Whist | WhistCall::Half => Ok(()),
                WhistCall::Pass => Err(RuleError::StayOrWithdraw),
            };
        }
        let returning = seat == first && self.whist[first.index()].is_some();
        match call {
            WhistCall::Whist => Ok(()),
            WhistCall::Pass if self.stalingrad_binds() => Err(RuleError::Stalingrad),
            WhistCall::Pass => Ok(()),
            WhistCall::Half => {
                let level = self.contract.map_or(0, |c| c.level());
                if !self.rules.has(Rules::HALF_WHIST) {
                    Err(RuleError::HalfWhist(HalfWhistBar::Disabled))
                } else if level > 7 {
                    Err(RuleError::HalfWhist(HalfWhistBar::Level(level)))
                } else if seat == first
                    || returning
                    || self.whist[first.index()] != Some(WhistCall::Pass)
                {
                    Err(RuleError::HalfWhist(HalfWhistBar::NotAfterPass))
                } else if self.stalingrad_binds() {
                    Err(RuleError::Stalingrad)
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Whether `seat` is the first defender speaking again after his whist and the second
    /// defender's pass (R5.3).
    fn withdrawal_decision(&self, seat: Seat) -> bool {
        let (first, second) = self.defenders();
        seat == first
            && self.whist[first.index()] == Some(WhistCall::Whist)
            && self.whist[second.index()] == Some(WhistCall::Pass)
    }

    /// Whether the first defender may withdraw after *whist, pass*: `whist_pass_half`, with
    /// half-whist played, against 6 and 7 (R5.3).
    fn may_withdraw(&self) -> bool {
        self.rules.has(Rules::WHIST_PASS_HALF)
            && self.rules.has(Rules::HALF_WHIST)
            && self.contract.is_some_and(|c| c.level() <= 7)
    }

    pub(crate) fn legal_whists(&self, seat: Seat, out: &mut ActionList) {
        for call in [WhistCall::Whist, WhistCall::Pass, WhistCall::Half] {
            if self.check_whist(seat, call).is_ok() {
                out.push(Action::Whist(call));
            }
        }
    }

    pub(crate) fn do_whist(&mut self, seat: Seat, call: WhistCall, events: &mut Events) {
        events.push(Event::Whisted { seat, call });
        let (first, second) = self.defenders();
        if self.is_four_player_dealer(seat) {
            if call == WhistCall::Whist {
                self.whist[seat.index()] = Some(WhistCall::Whist);
                self.defence = Some(Defence::Open);
                self.controller[first.index()] = seat;
                self.controller[second.index()] = seat;
                self.open_defenders(events);
                self.start_play(events);
            } else {
                self.finish(events);
            }
            return;
        }
        if self.withdrawal_decision(seat) {
            if call == WhistCall::Whist {
                // R5.3: he stays the lone whister and chooses open or closed.
                self.stage = Stage::Defence;
            } else {
                // R5.3: he withdraws; a half-whist stands with him as the half-whister.
                self.whist[first.index()] = Some(WhistCall::Half);
                self.refused(events);
            }
            return;
        }
        let returning = seat == first && self.whist[first.index()].is_some();
        self.whist[seat.index()] = Some(call);
        if returning {
            if call == WhistCall::Whist {
                // R5.2: the returner becomes the lone whister.
                self.stage = Stage::Defence;
                self.turn = first;
            } else {
                self.whist[first.index()] = Some(WhistCall::Pass);
                self.refused(events);
            }
            return;
        }
        if seat == first {
            self.turn = second;
            return;
        }
        match (self.whist[first.index()], call) {
            (Some(WhistCall::Whist), WhistCall::Whist) => {
                self.defence = Some(Defence::Closed);
                self.start_play(events);
            }
            (Some(WhistCall::Whist), _) => {
                // R5.3: with `whist_pass_half` he speaks once more in the whist stage.
                if !self.may_withdraw() {
                    self.stage = Stage::Defence;
                }
                self.turn = first;
            }
            (_, WhistCall::Whist) => {
                self.stage = Stage::Defence;
                self.turn = second;
            }
            (_, WhistCall::Half) => self.turn = first,
            (_, WhistCall::Pass) => self.refused(events),
        }
    }

    /// Two passes or a standing half-whist: the four-player dealer may take the defence
    /// (R11.4); otherwise the deal ends without play (R8.5, R8.6).
    fn refused(&mut self, events: &mut Events) {
        if self.rules.has(Rules::DEALER_WHIST) {
            self.turn = self.dealer;
        } else {
            self.finish(events);
        }
    }

    pub(crate) fn do_defence(&mut self, defence: Defence, events: &mut Events) {
        let whister = self.turn;
        self.defence = Some(defence);
        events.push(Event::DefenceChosen {
            seat: whister,
            defence,
        });
        if defence == Defence::Open {
            let (first, second) = self.defenders();
            self.controller[first.index()] = whister;
            self.controller[second.index()] = whister;
            self.open_defenders(events);
        }
        self.start_play(events);
    }

    /// Turns both defenders' hands face up for everybody (R5.5, R6.5, R11.4).
    pub(crate) fn open_defenders(&mut self, events: &mut Events) {
        let (first, second) = self.defenders();
        for s in [first, second] {
            self.open |= 1 << s.0;
            events.push(Event::HandOpened {
                seat: s,
                hand: self.hands[s.index()],
            });
        }
    }
}
