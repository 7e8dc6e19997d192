//! The claim phase of a deal (R6.7): a claim checked and made at a trick boundary, the
//! answers one by one, and the deal ended by an accepted claim; with what a seat may claim
//! now and the claim as everybody sees it.

use super::{Deal, Events, Kind};
use crate::action::Action;
use crate::bid::Seat;
use crate::claim::{Answer, Claim, ClaimRoom, ClaimState, ClaimView};
use crate::error::{RuleError, Stage};
use crate::event::Event;
use crate::legal::ActionList;

impl Deal {
    /// The players of the deal as a seat mask (R6.7): the seats that choose cards, each
    /// active seat's controller (the declarer, each defender playing his own hand, or the
    /// one who plays both defender hands in open play).
    fn deal_players(&self) -> u8 {
        (0..self.players)
            .map(Seat)
            .filter(|&s| self.is_active(s))
            .fold(0, |m, s| m | 1 << self.controller[s.index()].0)
    }

    /// The next player of the deal clockwise after `seat`, over every seat of the table:
    /// a four-player dealer who took the defence over answers in his place.
    fn next_player(&self, seat: Seat) -> Seat {
        let players = self.deal_players();
        let mut s = seat.next(self.players);
        while players & (1 << s.0) == 0 && s != seat {
            s = s.next(self.players);
        }
        s
    }

    fn claim_pending(&self) -> bool {
        self.claim.has(ClaimState::PENDING)
    }

    /// Checks a claim by the player at `seat`, in the order of R6.7's clauses.
    pub(crate) fn check_claim(&self, seat: Seat, claim: Claim) -> Result<(), RuleError> {
        if !self.claim.has(ClaimState::ON) {
            return Err(RuleError::ClaimsOff);
        }
        if self.stage != Stage::Play {
            return Err(RuleError::WrongStage {
                verb: crate::error::Verb::Claim,
                stage: self.stage,
            });
        }
        if self.kind == Kind::Raspasy {
            return Err(RuleError::ClaimInRaspasy);
        }
        if self.deal_players() & (1 << seat.0) == 0 {
            return Err(RuleError::ClaimNotPlayer(seat));
        }
        if self.claim_pending() {
            return Err(RuleError::ClaimPending);
        }
        if self.n_played != self.trick_start {
            return Err(RuleError::ClaimMidTrick);
        }
        if self.claim.claimed_at(self.trick_no) & (1 << seat.0) != 0 {
            return Err(RuleError::ClaimRepeated(seat));
        }
        let room = self.room();
        if claim.seats != room.seats {
            return Err(RuleError::ClaimSeats {
                given: claim.seats,
                seats: room.seats,
            });
        }
        if let Some(dealer) = room.dealer
            && claim.of(dealer) != 0
        {
            return Err(RuleError::ClaimDealerEntry(dealer));
        }
        if claim.total() != u32::from(room.tricks_left) {
            return Err(RuleError::ClaimTotal {
                given: claim.total(),
                left: room.tricks_left,
            });
        }
        Ok(())
    }

    fn room(&self) -> ClaimRoom {
        ClaimRoom {
            tricks_left: 10 - self.trick_no,
            seats: self.players,
            dealer: (self.players == 4).then_some(self.dealer),
        }
    }

    /// Checks an answer by the player at `seat`: a claim must be pending and `seat` the
    /// next to answer.
    pub(crate) fn check_answer(&self, seat: Seat) -> Result<(), RuleError> {
        if self.stage != Stage::Play {
            return Err(RuleError::WrongStage {
                verb: crate::error::Verb::Answer,
                stage: self.stage,
            });
        }
        if !self.claim_pending() {
            return Err(RuleError::NoClaim);
        }
        if seat != self.claim.next() {
            return Err(RuleError::AnswerOutOfTurn {
                seat,
                expected: self.claim.next(),
            });
        }
        Ok(())
    }

    /// The claim rules' part of [`Deal::check`]: the verdict on a claim or an answer, and
    /// the refusal of a card while a claim is pending; `None` for anything else.
    pub(crate) fn check_claim_rules(
        &self,
        seat: Seat,
        action: Action,
    ) -> Option<Result<(), RuleError>> {
        match action {
            Action::Claim(claim) => Some(self.check_claim(seat, claim)),
            Action::Answer(_) => Some(self.check_answer(seat)),
            Action::Play(_) if self.claim_pending() => Some(Err(RuleError::ClaimPending)),
            Action::Bid(_)
            | Action::Discard(_)
            | Action::Declare(_)
            | Action::Whist(_)
            | Action::Defence(_)
            | Action::Surrender
            | Action::Dark(_)
            | Action::Look
            | Action::Play(_) => None,
        }
    }

    /// Whether [`Deal::act`] hands `action` to [`Deal::apply`] with the player's own seat:
    /// claims and answers are made by players in their own name, and while a claim is
    /// pending nothing else is accepted (apply says why).
    pub(crate) fn acts_in_own_name(&self, action: Action) -> bool {
        matches!(action, Action::Claim(_) | Action::Answer(_) | Action::Look)
            || self.claim_pending()
    }

    pub(crate) fn do_claim(&mut self, seat: Seat, claim: Claim, events: &mut Events) {
        let entries = claim
            .entries()
            .iter()
            .enumerate()
            .fold(0u16, |e, (i, &n)| e | u16::from(n) << (4 * i));
        let next = self.next_player(seat);
        self.claim = ClaimState {
            entries,
            flags: ClaimState::ON | ClaimState::PENDING | seat.0 | next.0 << 2,
            claimed: self.trick_no << 4 | self.claim.claimed_at(self.trick_no) | 1 << seat.0,
        };
        events.push(Event::Claimed { seat, claim });
        let hand = self.hands[seat.index()];
        // The claimer's hand is face up from now on; an open-play whister's already is, and
        // a four-player dealer who took the defence over holds no cards of his own.
        if self.open & (1 << seat.0) == 0 && !hand.is_empty() {
            self.open |= 1 << seat.0;
            events.push(Event::HandOpened { seat, hand });
        }
    }

    pub(crate) fn do_answer(&mut self, seat: Seat, answer: Answer, events: &mut Events) {
        events.push(Event::Answered { seat, answer });
        match answer {
            Answer::Reject => self.claim.flags &= !ClaimState::PENDING,
            Answer::Accept => {
                let next = self.next_player(seat);
                if next != self.claim.claimer() {
                    self.claim.set_next(next);
                    return;
                }
                let claim = self.claim.claim(self.players);
                for s in 0..self.players {
                    self.tricks[usize::from(s)] += claim.of(Seat(s));
                }
                self.claim.flags = (self.claim.flags & !ClaimState::PENDING) | ClaimState::ACCEPTED;
                events.push(Event::ClaimAccepted {
                    tricks: self.tricks,
                });
                self.finish(events);
            }
        }
    }

    /// Whether the deal ended by an accepted claim: its tricks are final though fewer than
    /// ten were played.
    pub(crate) fn claim_accepted(&self) -> bool {
        self.claim.has(ClaimState::ACCEPTED)
    }

    /// The legal-action list while a claim is pending: the two answers for the player who
    /// answers next, nothing for anybody else. `None` when no claim is pending.
    pub(crate) fn answers(&self, seat: Seat) -> Option<ActionList> {
        if !self.claim_pending() {
            return None;
        }
        let mut out = ActionList::empty();
        if seat == self.claim.next() {
            out.push(Action::Answer(Answer::Accept));
            out.push(Action::Answer(Answer::Reject));
        }
        Some(out)
    }

    /// What the player at `seat` may claim now, or `None` if he may not claim (R6.7).
    #[must_use]
    pub fn claim_room(&self, seat: Seat) -> Option<ClaimRoom> {
        let room = self.room();
        // Any split the room allows passes every other check, or none does.
        let probe = Claim {
            tricks: [room.tricks_left, 0, 0, 0],
            seats: room.seats,
        };
        let probe = match room.dealer {
            Some(Seat(0)) => Claim {
                tricks: [0, room.tricks_left, 0, 0],
                ..probe
            },
            Some(_) | None => probe,
        };
        (seat.0 < self.players && self.check_claim(seat, probe).is_ok()).then_some(room)
    }

    /// The claim waiting for answers: the claimer, his claim, and the player to answer next.
    #[must_use]
    pub fn pending_claim(&self) -> Option<ClaimView> {
        self.claim_pending().then(|| self.claim_summary())
    }

    /// The claim that ended the deal, once all accepted it.
    #[must_use]
    pub fn accepted_claim(&self) -> Option<ClaimView> {
        self.claim_accepted().then(|| self.claim_summary())
    }

    fn claim_summary(&self) -> ClaimView {
        let claimer = self.claim.claimer();
        let done = self.claim_accepted();
        let mut accepted = Vec::new();
        let mut s = self.next_player(claimer);
        while s != claimer && (done || s != self.claim.next()) {
            accepted.push(s);
            s = self.next_player(s);
        }
        ClaimView {
            seat: claimer,
            claim: self.claim.claim(self.players),
            accepted,
            to_answer: (!done).then(|| self.claim.next()),
        }
    }

    /// The player to act while a claim is pending (the next to answer), else `None`.
    pub(crate) fn answerer(&self) -> Option<Seat> {
        self.claim_pending().then(|| self.claim.next())
    }
}
