//! The questions asked of a deal: whose turn it is, where it stands, the seats, the hands,
//! the talon and the discard, the tricks played and in progress, the calls, and the outcome
//! once it is over.

use smallvec::SmallVec;

use super::{Deal, Kind, Rules, first_hand, next_active};
use crate::action::{Defence, WhistCall};
use crate::bid::{Bid, Call, Contract, Seat};
use crate::card::{Card, CardSet};
use crate::error::Stage;
use crate::event::Event;
use crate::outcome::{Outcome, OutcomeKind, PlayedTrick, talon_units};

impl Deal {
    /// The seat whose action or card is next (differs from [`Deal::to_act`] in open play);
    /// while a claim is pending, the player who answers next.
    #[must_use]
    pub fn turn(&self) -> Option<Seat> {
        (self.stage != Stage::Finished).then(|| self.answerer().unwrap_or(self.turn))
    }

    /// Where the deal stands.
    #[must_use]
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// Whether the deal is over.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.stage == Stage::Finished
    }

    /// Players at the table (3 or 4).
    #[must_use]
    pub fn players(&self) -> u8 {
        self.players
    }

    /// The dealer.
    #[must_use]
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// First hand: the first active seat clockwise from the dealer (R1.4, R11.1).
    #[must_use]
    pub fn first_hand(&self) -> Seat {
        first_hand(self.players, self.dealer)
    }

    /// The next active seat clockwise (a four-player dealer is skipped, R11.1).
    #[must_use]
    pub fn next_seat(&self, seat: Seat) -> Seat {
        next_active(self.players, self.dealer, seat)
    }

    /// The declarer, once the auction has one.
    #[must_use]
    pub fn declarer(&self) -> Option<Seat> {
        matches!(self.kind, Kind::Game | Kind::Misere).then_some(self.declarer)
    }

    /// The contract, once named.
    #[must_use]
    pub fn contract(&self) -> Option<Contract> {
        self.contract
    }

    /// The cards `seat` holds now. This is hidden information: only the projection decides
    /// who may see it.
    #[must_use]
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat.index()]
    }

    /// The hands as dealt (hidden information).
    #[must_use]
    pub fn dealt_hands(&self) -> [CardSet; 4] {
        self.dealt
    }

    /// The talon (hidden until turned).
    #[must_use]
    pub fn talon(&self) -> [Card; 2] {
        self.talon
    }

    /// The declarer's discard (hidden from all but the declarer until the deal ends).
    #[must_use]
    pub fn discard(&self) -> CardSet {
        self.discard
    }

    /// Tricks taken so far per seat.
    #[must_use]
    pub fn tricks_taken(&self) -> [u8; 4] {
        self.tricks
    }

    /// The opening event of the deal: each seat is dealt its hand.
    #[must_use]
    pub fn deal_event(&self) -> Event {
        Event::Dealt {
            dealer: self.dealer,
            hands: self.dealt,
            closed: self.rules.has(Rules::DARK_GAMES),
        }
    }

    /// The outcome, once the deal is over.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if self.stage != Stage::Finished {
            return None;
        }
        let played = self.trick_no == 10 || self.claim_accepted();
        let kind = match self.kind {
            Kind::Game if self.surrendered => OutcomeKind::Surrender {
                declarer: self.declarer,
                bid: self.won_bid().contract()?,
            },
            Kind::Game => OutcomeKind::Game {
                declarer: self.declarer,
                contract: self.contract?,
                whist: self.whist,
                defence: self.defence,
                // R11.6: never after 9WT, whose declarer took no talon.
                talon_units: (self.rules.has(Rules::TALON_BONUS) && !self.is_no_talon())
                    .then(|| talon_units(self.talon)),
            },
            Kind::Misere => OutcomeKind::Misere {
                declarer: self.declarer,
            },
            Kind::Raspasy => OutcomeKind::Raspasy,
            Kind::Undecided => return None,
        };
        Some(Outcome {
            players: self.players,
            dealer: self.dealer,
            kind,
            tricks: played.then_some(self.tricks),
            dark: self.is_dark(),
            no_talon: self.is_no_talon(),
        })
    }

    /// The completed tricks in order.
    #[must_use]
    pub fn completed_tricks(&self) -> Vec<PlayedTrick> {
        let mut out = Vec::with_capacity(self.trick_no as usize);
        let mut start = 0usize;
        for i in 0..self.trick_no {
            let leader = self.leader_of(i);
            let len = self.trick_len(i) as usize;
            let mut cards = [(Seat(0), Card::from_index(0)); 4];
            let mut seat = leader;
            for (j, slot) in cards.iter_mut().enumerate().take(len) {
                *slot = (seat, self.played[start + j]);
                seat = self.next_seat(seat);
            }
            out.push(PlayedTrick::new(&cards[..len], self.winner_of(i)));
            start += len;
        }
        out
    }

    /// The cards of the trick in progress, each with its seat.
    #[must_use]
    pub fn current_trick(&self) -> SmallVec<[(Seat, Card); 4]> {
        let mut out = SmallVec::new();
        let mut seat = self.leader;
        for i in self.trick_start..self.n_played {
            out.push((seat, self.played[i as usize]));
            seat = self.next_seat(seat);
        }
        out
    }

    pub(crate) fn winner_of(&self, trick: u8) -> Seat {
        Seat(((self.winners >> (2 * trick)) & 3) as u8)
    }

    /// Who led trick `i` (0-based): first hand on tricks 1–3 of raspasy and trick 1 of any
    /// deal, the dealer's talon card on four-player raspasy tricks 1–2, else the last winner.
    pub(crate) fn leader_of(&self, i: u8) -> Seat {
        if self.talon_in_raspasy() {
            if self.players == 4 && i < 2 {
                return self.dealer;
            }
            if i < 3 {
                return self.first_hand();
            }
        }
        if i == 0 {
            self.first_hand()
        } else {
            self.winner_of(i - 1)
        }
    }

    /// Cards in trick `i`: four on four-player raspasy tricks 1–2 (the talon card leads).
    pub(crate) fn trick_len(&self, i: u8) -> u8 {
        if self.talon_in_raspasy() && self.players == 4 && i < 2 {
            4
        } else {
            3
        }
    }

    /// Whether this is raspasy played with the talon (R7.2, R11.3), not ignored (R7.5).
    pub(crate) fn talon_in_raspasy(&self) -> bool {
        self.kind == Kind::Raspasy && !self.rules.has(Rules::TALON_IGNORED)
    }

    /// Whether the declarer surrendered (R4.5).
    #[must_use]
    pub fn surrendered(&self) -> bool {
        self.surrendered
    }

    /// Seats whose hands are face up for everyone.
    #[must_use]
    pub fn open_seats(&self) -> u8 {
        self.open
    }

    /// The seat that plays `seat`'s cards.
    #[must_use]
    pub fn controller(&self, seat: Seat) -> Seat {
        self.controller[seat.index()]
    }

    /// Whether a seat takes part in this deal (a four-player dealer does not, R11.1).
    #[must_use]
    pub fn is_active(&self, seat: Seat) -> bool {
        seat.0 < self.players && !(self.players == 4 && seat == self.dealer)
    }

    /// The whist decisions so far (index = seat).
    #[must_use]
    pub fn whist_calls(&self) -> [Option<WhistCall>; 4] {
        self.whist
    }

    /// The lone whister's open / closed choice.
    #[must_use]
    pub fn defence(&self) -> Option<Defence> {
        self.defence
    }

    /// The standing bid and its holder.
    #[must_use]
    pub fn highest_bid(&self) -> Option<(Bid, Seat)> {
        self.highest.map(|b| (b, self.holder))
    }

    /// Each seat's last call in the auction.
    #[must_use]
    pub fn last_calls(&self) -> [Option<Call>; 4] {
        self.last_call
    }

    /// Whether this deal is raspasy (all passed).
    #[must_use]
    pub fn is_raspasy(&self) -> bool {
        self.kind == Kind::Raspasy
    }

    /// Whether the deal is dark: it has a declarer whose first call was dark (R3.9.1).
    #[must_use]
    pub fn is_dark(&self) -> bool {
        matches!(self.kind, Kind::Game | Kind::Misere)
            && self.dark_calls() & (1 << self.declarer.0) != 0
    }

    /// Whether the deal is a dark misère, its talon seen by the declarer alone and the
    /// defenders closed (R4.7.1).
    #[must_use]
    pub fn is_dark_misere(&self) -> bool {
        self.kind == Kind::Misere && self.is_dark()
    }

    /// Whether the auction was won with MWT or 9WT: nobody takes the talon (R4.6).
    #[must_use]
    pub fn is_no_talon(&self) -> bool {
        matches!(self.kind, Kind::Game | Kind::Misere) && self.won_bid().is_no_talon()
    }

    /// Whether `seat` has seen its hand (R2.3); always true without `dark_games`.
    #[must_use]
    pub fn looked(&self, seat: Seat) -> bool {
        self.has_looked(seat)
    }

    /// The seats whose first call was dark, as a bit mask (R3.9).
    #[must_use]
    pub fn dark_calls(&self) -> u8 {
        self.spoken >> 4
    }

    /// Whether the profile has `dark_games` (R2.3).
    #[must_use]
    pub fn dark_games(&self) -> bool {
        self.rules.has(Rules::DARK_GAMES)
    }

    /// Whether this deal is a misère.
    #[must_use]
    pub fn is_misere(&self) -> bool {
        self.kind == Kind::Misere
    }

    /// How many talon cards have been turned face up for everybody.
    #[must_use]
    pub fn talon_shown(&self) -> u8 {
        self.talon_shown
    }

    /// Whether the profile shows everything when the deal ends.
    #[must_use]
    pub fn reveals_after_deal(&self) -> bool {
        self.rules.has(Rules::REVEAL)
    }
}
