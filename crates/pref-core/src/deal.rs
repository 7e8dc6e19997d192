//! One deal as a state machine: the state, its construction, and the checking and applying
//! of an action.
//!
//! The deal's phases live in this folder, each an `impl Deal` block: `auction.rs` (R3),
//! `talon.rs` (the discard, the contract and the surrender, R4), `whist.rs` (R5), `play.rs`
//! (R6, R7) and `claim.rs` (R6.7); `query.rs` answers the questions asked of a deal (whose
//! turn, the hands, the tricks, the outcome). This file holds what they share. The whole
//! state is a plain `Copy` value of under 128 bytes: a bot can clone it per search node, and
//! `apply` can check an action completely before it changes a single field.

use smallvec::SmallVec;

use crate::action::{Action, Defence, WhistCall};
use crate::bid::{Bid, Call, Contract, Seat};
use crate::card::{Card, CardSet};
use crate::claim::ClaimState;
use crate::error::{DealError, RuleError, Stage, Verb};
use crate::event::Event;
use crate::legal::ActionList;
use crate::profile::{Profile, RaspasyTalon};

mod auction;
mod claim;
mod play;
mod query;
mod talon;
mod whist;

/// The events of one action; nearly always few enough to stay off the heap.
pub type Events = SmallVec<[Event; 4]>;

/// Rule switches a deal needs while it runs, packed from the [`Profile`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Rules {
    bits: u16,
    /// The surrender (R4.5) in one byte, to keep the deal within 128 bytes: the low nibble
    /// its undertricks (0 when it is not allowed), the high nibble the highest winning level
    /// it is allowed at.
    surrender: u8,
    /// Multiplies the whists of a contract's value: the talon bonus shown in a view (R11.6).
    /// A byte, as the profile keeps it within 1..=100, so that the deal stays within 128 bytes.
    pub(crate) whist_scale: u8,
}

impl Rules {
    pub(crate) const HALF_WHIST: u16 = 1;
    pub(crate) const TEN_WHISTED: u16 = 2;
    pub(crate) const STALINGRAD: u16 = 4;
    pub(crate) const MUST_OVERTAKE: u16 = 8;
    pub(crate) const DEALER_WHIST: u16 = 16;
    pub(crate) const REVEAL: u16 = 32;
    pub(crate) const WHIST_PASS_HALF: u16 = 64;
    /// `raspasy_talon = "ignored"` (R7.5).
    pub(crate) const TALON_IGNORED: u16 = 128;
    /// `talon_bonus` with four players (R11.6).
    pub(crate) const TALON_BONUS: u16 = 256;
    /// `dark_games`: closed hands, the look and the dark call (R2.3, R3.9).
    pub(crate) const DARK_GAMES: u16 = 512;
    /// `misere_without_talon`: the MWT and 9WT calls (R3.10).
    pub(crate) const NO_TALON: u16 = 1024;

    fn from_profile(p: &Profile) -> Rules {
        let four = p.players() == 4;
        let mut bits = 0;
        for (on, bit) in [
            (p.half_whist(), Rules::HALF_WHIST),
            (p.ten_whisted(), Rules::TEN_WHISTED),
            (p.stalingrad(), Rules::STALINGRAD),
            (p.must_overtake(), Rules::MUST_OVERTAKE),
            (p.dealer_whist() && four, Rules::DEALER_WHIST),
            (p.reveal_after_deal(), Rules::REVEAL),
            (p.whist_pass_half(), Rules::WHIST_PASS_HALF),
            (
                p.raspasy_talon() == RaspasyTalon::Ignored,
                Rules::TALON_IGNORED,
            ),
            (p.talon_bonus() && four, Rules::TALON_BONUS),
            (p.dark_games(), Rules::DARK_GAMES),
            (p.misere_without_talon(), Rules::NO_TALON),
        ] {
            if on {
                bits |= bit;
            }
        }
        Rules {
            bits,
            surrender: p.surrender() | p.surrender_max_level() << 4,
            whist_scale: u8::try_from(p.whist_scale()).unwrap_or(u8::MAX),
        }
    }

    pub(crate) fn has(self, bit: u16) -> bool {
        self.bits & bit != 0
    }

    /// Undertricks of a surrender; 0 when it is not allowed (R4.5).
    pub(crate) fn surrender(self) -> u8 {
        self.surrender & 0xF
    }

    /// The highest winning level a surrender is allowed at (R4.5).
    pub(crate) fn surrender_max_level(self) -> u8 {
        self.surrender >> 4
    }
}

/// What kind of deal this has become.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    /// Still bidding.
    Undecided,
    /// A trick contract (the contract is known once declared).
    Game,
    /// Misère.
    Misere,
    /// All passed.
    Raspasy,
}

/// The full state of one deal. It holds every hidden card, so it is never sent anywhere:
/// clients get a [`crate::DealView`] built for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    pub(crate) players: u8,
    pub(crate) dealer: Seat,
    pub(crate) rules: Rules,
    /// Lowest opening bid (R3.3, `raspasy_exit`).
    pub(crate) min_bid: Bid,
    pub(crate) stage: Stage,
    pub(crate) kind: Kind,
    /// The seat whose action (or card) is next.
    pub(crate) turn: Seat,
    /// Hands as dealt, for the end-of-deal reveal and the record.
    pub(crate) dealt: [CardSet; 4],
    /// Cards each seat holds now.
    pub(crate) hands: [CardSet; 4],
    pub(crate) talon: [Card; 2],
    /// How many talon cards everybody has seen (R4.1, R7.2).
    pub(crate) talon_shown: u8,
    pub(crate) discard: CardSet,

    // Auction (R3).
    pub(crate) highest: Option<Bid>,
    pub(crate) holder: Seat,
    /// Bits 0–3: seats out of the auction: passed, or a misère bidder overcalled (R3.5,
    /// R3.6); bits 4–7: seats that have seen their hands (R2.3; all without `dark_games`).
    pub(crate) out: u8,
    /// Bits 0–3: seats that have made at least one call (misère must be a first call);
    /// bits 4–7: seats whose first call was dark (R3.9).
    pub(crate) spoken: u8,
    pub(crate) misere_by: Option<Seat>,
    pub(crate) last_call: [Option<Call>; 4],
    /// The highest nine each seat of the auction bid (R4.6), one byte to keep the deal within
    /// 128 bytes: a base-6 digit per seat by seniority (first hand lowest), its strain + 1,
    /// 0 for none.
    pub(crate) nines: u8,

    // Contract and defence (R4, R5).
    pub(crate) declarer: Seat,
    pub(crate) contract: Option<Contract>,
    /// The declarer surrendered (R4.5).
    pub(crate) surrendered: bool,
    pub(crate) whist: [Option<WhistCall>; 4],
    pub(crate) defence: Option<Defence>,
    /// Seats whose hands are face up for everybody (R5.5, R6.5).
    pub(crate) open: u8,
    /// The seat that plays each seat's cards (the lone whister in open play, R5.5).
    pub(crate) controller: [Seat; 4],

    // Play (R6, R7).
    /// Every card played, in order; on four-player raspasy the dealer's talon cards too.
    pub(crate) played: [Card; 32],
    pub(crate) n_played: u8,
    /// Index in `played` where the current trick starts.
    pub(crate) trick_start: u8,
    /// Completed tricks.
    pub(crate) trick_no: u8,
    pub(crate) leader: Seat,
    pub(crate) tricks: [u8; 4],
    /// Winner of trick `i` in bits `2i..2i+2`.
    pub(crate) winners: u32,

    // Claims (R6.7).
    pub(crate) claim: ClaimState,
}

impl Deal {
    /// A deal from a shuffled deck: cards 0–9 go to first hand, 10–19 to second, 20–29 to
    /// third, 30–31 to the talon. `raspasy_before` is the number of consecutive raspasy deals
    /// just before this one (it sets the lowest bid, R3.3).
    ///
    /// # Errors
    /// [`DealError`] if the deck is not the 32 distinct cards or the dealer is not a seat.
    pub fn new(
        profile: &Profile,
        dealer: Seat,
        deck: &[Card; 32],
        raspasy_before: u32,
    ) -> Result<Deal, DealError> {
        let mut seen = CardSet::EMPTY;
        for &c in deck {
            if seen.contains(c) {
                return Err(DealError::DeckRepeats(c));
            }
            seen = seen.with(c);
        }
        if dealer.0 >= profile.players() {
            return Err(DealError::Dealer(dealer.0));
        }
        let mut dealt = [CardSet::EMPTY; 4];
        let mut seat = first_hand(profile.players(), dealer);
        for chunk in deck[..30].chunks(10) {
            dealt[seat.index()] = chunk.iter().copied().collect();
            seat = next_active(profile.players(), dealer, seat);
        }
        Ok(Deal::from_sets(
            profile,
            dealer,
            dealt,
            [deck[30], deck[31]],
            raspasy_before,
        ))
    }

    /// A deal from explicit hands (index = seat; an empty hand for a four-player dealer)
    /// and talon, as a game record or a test gives them.
    ///
    /// # Errors
    /// [`DealError`] naming what is wrong: a hand that is not 10 cards, a talon that is not
    /// 2, a card given twice.
    pub fn from_hands(
        profile: &Profile,
        dealer: Seat,
        hands: &[Vec<Card>],
        talon: &[Card],
        raspasy_before: u32,
    ) -> Result<Deal, DealError> {
        let players = profile.players();
        if dealer.0 >= players {
            return Err(DealError::Dealer(dealer.0));
        }
        if hands.len() != players as usize {
            return Err(DealError::HandCount {
                given: hands.len(),
                players,
            });
        }
        let mut dealt = [CardSet::EMPTY; 4];
        let mut owner = [u8::MAX; 32];
        for (s, hand) in hands.iter().enumerate() {
            let expected = if players == 4 && s == dealer.index() {
                0
            } else {
                10
            };
            if hand.len() != expected {
                return Err(DealError::HandSize {
                    seat: s as u8,
                    count: hand.len(),
                    expected,
                });
            }
            for &c in hand {
                if dealt[s].contains(c) {
                    return Err(DealError::HandRepeats {
                        seat: s as u8,
                        card: c,
                    });
                }
                let o = owner[c.index() as usize];
                if o != u8::MAX {
                    return Err(DealError::DealtTwice {
                        card: c,
                        first: o,
                        second: s as u8,
                    });
                }
                owner[c.index() as usize] = s as u8;
                dealt[s] = dealt[s].with(c);
            }
        }
        if talon.len() != 2 {
            return Err(DealError::TalonSize(talon.len()));
        }
        let all = dealt.iter().fold(CardSet::EMPTY, |a, &h| a.or(h));
        if all.contains(talon[0]) {
            return Err(DealError::TalonRepeats(talon[0]));
        }
        if all.contains(talon[1]) || talon[0] == talon[1] {
            return Err(DealError::TalonRepeats(talon[1]));
        }
        Ok(Deal::from_sets(
            profile,
            dealer,
            dealt,
            [talon[0], talon[1]],
            raspasy_before,
        ))
    }

    /// A deal from checked hands and talon.
    fn from_sets(
        profile: &Profile,
        dealer: Seat,
        dealt: [CardSet; 4],
        talon: [Card; 2],
        raspasy_before: u32,
    ) -> Deal {
        let players = profile.players();
        let first = first_hand(players, dealer);
        let level = profile.min_level(raspasy_before);
        Deal {
            players,
            dealer,
            rules: Rules::from_profile(profile),
            min_bid: Bid::lowest_of_level(level),
            stage: Stage::Auction,
            kind: Kind::Undecided,
            turn: first,
            dealt,
            hands: dealt,
            talon,
            talon_shown: 0,
            discard: CardSet::EMPTY,
            highest: None,
            holder: first,
            out: (if players == 4 { 1 << dealer.0 } else { 0 })
                | if profile.dark_games() { 0 } else { 0xF0 },
            spoken: 0,
            misere_by: None,
            last_call: [None; 4],
            nines: 0,
            declarer: first,
            contract: None,
            surrendered: false,
            whist: [None; 4],
            defence: None,
            open: 0,
            controller: [Seat(0), Seat(1), Seat(2), Seat(3)],
            played: [Card::from_index(0); 32],
            n_played: 0,
            trick_start: 0,
            trick_no: 0,
            leader: first,
            tricks: [0; 4],
            winners: 0,
            claim: ClaimState::new(profile.claims()),
        }
    }

    /// Applies `action` made in the name of `seat` — for a card, the seat whose card it is,
    /// as game records write it. Returns what happened; on error nothing changes.
    ///
    /// # Errors
    /// A [`RuleError`] saying which rule refuses the action.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Events, RuleError> {
        self.check(seat, action)?;
        let mut events = Events::new();
        match action {
            Action::Bid(call) => self.do_call(seat, call, &mut events),
            Action::Discard(cards) => self.do_discard(cards, &mut events),
            Action::Declare(contract) => self.do_declare(contract, &mut events),
            Action::Whist(call) => self.do_whist(seat, call, &mut events),
            Action::Defence(d) => self.do_defence(d, &mut events),
            Action::Play(card) => self.do_play(card, &mut events),
            Action::Claim(claim) => self.do_claim(seat, claim, &mut events),
            Action::Answer(answer) => self.do_answer(seat, answer, &mut events),
            Action::Surrender => self.do_surrender(&mut events),
            Action::Dark(call) => self.do_dark_call(seat, call, &mut events),
            Action::Look => self.do_look(seat, &mut events),
        }
        Ok(events)
    }

    /// Applies `action` by the player at `player`, who must be the one to act
    /// ([`Deal::to_act`]): in open play the whister's cards and his partner's are both his
    /// to play. This is what a server calls for a connected player.
    ///
    /// # Errors
    /// As [`Deal::apply`]; [`RuleError::NotYourTurn`] if `player` is not to act.
    pub fn act(&mut self, player: Seat, action: Action) -> Result<Events, RuleError> {
        if self.acts_in_own_name(action) {
            return self.apply(player, action);
        }
        match self.to_act() {
            None => Err(RuleError::DealOver),
            Some(p) if p != player && player == self.turn && self.stage == Stage::Play => {
                Err(RuleError::PlayedByPartner {
                    seat: player,
                    controller: p,
                })
            }
            Some(p) if p != player => Err(RuleError::NotYourTurn {
                seat: player,
                expected: p,
            }),
            Some(_) => self.apply(self.turn, action),
        }
    }

    /// Checks `action` for `seat` without applying it.
    ///
    /// # Errors
    /// The [`RuleError`] that [`Deal::apply`] would return.
    pub fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        if self.stage == Stage::Finished {
            return Err(RuleError::DealOver);
        }
        if seat.0 >= self.players {
            return Err(RuleError::NotInDeal(seat));
        }
        if let Some(verdict) = self.check_claim_rules(seat, action) {
            return verdict;
        }
        if action == Action::Look {
            // R2.3: at any moment of the auction, at the seat's turn or not.
            return self.check_look(seat);
        }
        let verb = verb_of(action);
        let stage_verb = match self.stage {
            Stage::Auction => Verb::Bid,
            Stage::Discard => Verb::Discard,
            Stage::Declare => Verb::Declare,
            Stage::Whist => Verb::Whist,
            Stage::Defence => Verb::Defence,
            Stage::Play => Verb::Play,
            Stage::Finished => return Err(RuleError::DealOver),
        };
        // R4.5: a surrender comes after the talon and before the contract is named.
        let surrender_now =
            verb == Verb::Surrender && matches!(self.stage, Stage::Discard | Stage::Declare);
        if verb != stage_verb && !surrender_now {
            return Err(RuleError::WrongStage {
                verb,
                stage: self.stage,
            });
        }
        if seat != self.turn {
            if self.players == 4 && seat == self.dealer && self.stage != Stage::Whist {
                return Err(RuleError::NotInDeal(seat));
            }
            return Err(RuleError::NotYourTurn {
                seat,
                expected: self.actor_of(self.turn),
            });
        }
        match action {
            // Decided by `check_claim_rules` above.
            Action::Claim(_) | Action::Answer(_) => Ok(()),
            Action::Bid(call) => self.check_call(seat, call),
            Action::Discard(cards) => self.check_discard(cards),
            Action::Declare(contract) => self.check_declare(contract),
            Action::Whist(call) => self.check_whist(seat, call),
            Action::Defence(_) => Ok(()),
            Action::Play(card) => self.check_play(seat, card),
            Action::Surrender => self.check_surrender(),
            Action::Dark(call) => self.check_dark_call(seat, call),
            Action::Look => self.check_look(seat),
        }
    }

    /// Every action [`Deal::apply`] accepts from `seat` now (for cards, `seat` is the seat
    /// whose card it is; for a claim or an answer, the player's own seat). Claims are not
    /// listed one by one: [`ActionList::claim`] says which are allowed.
    #[must_use]
    pub fn legal_actions(&self, seat: Seat) -> ActionList {
        self.answers(seat)
            .unwrap_or_else(|| self.legal_moves(seat))
            .with_claim(self.claim_room(seat))
    }

    /// The legal actions of the stage, claims and answers aside.
    fn legal_moves(&self, seat: Seat) -> ActionList {
        let mut out = ActionList::empty();
        if self.stage == Stage::Finished || seat != self.turn {
            self.push_look(seat, &mut out);
            return out;
        }
        match self.stage {
            Stage::Auction => self.legal_calls(seat, &mut out),
            Stage::Discard => {
                return ActionList::discards(self.hands[seat.index()])
                    .with_surrender(self.check_surrender().is_ok());
            }
            Stage::Declare => {
                let (from, to) = self.declare_range();
                return ActionList::declarations(from, to)
                    .with_surrender(self.check_surrender().is_ok());
            }
            Stage::Whist => self.legal_whists(seat, &mut out),
            Stage::Defence => {
                out.push(Action::Defence(Defence::Open));
                out.push(Action::Defence(Defence::Closed));
            }
            Stage::Play => return ActionList::cards(self.legal_cards(seat)),
            Stage::Finished => {}
        }
        out
    }

    /// Every action [`Deal::act`] accepts from the player at `player`.
    #[must_use]
    pub fn legal_actions_for(&self, player: Seat) -> ActionList {
        let moves = if self.to_act() == Some(player) {
            self.legal_moves(self.turn)
        } else {
            let mut out = ActionList::empty();
            self.push_look(player, &mut out);
            out
        };
        self.answers(player)
            .unwrap_or(moves)
            .with_claim(self.claim_room(player))
    }

    /// The player who acts next: in open play the whister (or the four-player dealer who
    /// whisted) acts for the defenders' seats; while a claim is pending, the player who
    /// answers next. `None` once the deal is over.
    #[must_use]
    pub fn to_act(&self) -> Option<Seat> {
        (self.stage != Stage::Finished).then(|| self.answerer().unwrap_or(self.actor_of(self.turn)))
    }

    fn actor_of(&self, seat: Seat) -> Seat {
        if self.stage == Stage::Play {
            self.controller[seat.index()]
        } else {
            seat
        }
    }

    /// Ends the deal; with `reveal_after_deal` everything is shown.
    pub(crate) fn finish(&mut self, events: &mut Events) {
        self.stage = Stage::Finished;
        events.push(Event::DealOver);
        if self.rules.has(Rules::REVEAL) {
            events.push(Event::Revealed {
                hands: self.dealt,
                talon: self.talon,
                discard: self.discard,
            });
        }
    }
}

pub(crate) fn first_hand(players: u8, dealer: Seat) -> Seat {
    dealer.next(players)
}

pub(crate) fn next_active(players: u8, dealer: Seat, seat: Seat) -> Seat {
    let n = seat.next(players);
    if players == 4 && n == dealer {
        n.next(players)
    } else {
        n
    }
}

fn verb_of(action: Action) -> Verb {
    match action {
        Action::Bid(_) => Verb::Bid,
        Action::Discard(_) => Verb::Discard,
        Action::Declare(_) => Verb::Declare,
        Action::Whist(_) => Verb::Whist,
        Action::Defence(_) => Verb::Defence,
        Action::Play(_) => Verb::Play,
        Action::Claim(_) => Verb::Claim,
        Action::Answer(_) => Verb::Answer,
        Action::Surrender => Verb::Surrender,
        Action::Dark(_) => Verb::Bid,
        Action::Look => Verb::Look,
    }
}
