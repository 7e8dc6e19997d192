//! Hidden information, decided here and nowhere else.
//!
//! A client never receives the [`Deal`] or an [`Event`]: it receives a [`DealView`] or a
//! [`ViewEvent`], each built field by field for one [`Viewer`] from what that viewer may see
//! at that moment — own hand (with `dark_games`, only once its owner has looked, R2.3); the
//! talon once turned (a dark misère's to its declarer alone, R4.7.1); the discard for the
//! declarer; hands
//! opened for everybody (open defence R5.5, misère R6.5, a claimer's from his claim on R6.7);
//! cards played; and, with
//! `reveal_after_deal`, everything once the deal is over. Every match here is exhaustive, so
//! a new event or stage cannot slip through unprojected.
#![deny(clippy::wildcard_enum_match_arm)]

use serde::{Deserialize, Serialize};

use crate::action::{Defence, WhistCall};
use crate::bid::{Bid, Call, Contract, Seat};
use crate::card::{Card, CardSet};
use crate::claim::{Answer, Claim, ClaimView};
use crate::deal::{Deal, Kind, Rules};
use crate::error::Stage;
use crate::event::Event;
use crate::outcome::{PlayedTrick, talon_units};

/// Who is looking: a seat's player or a spectator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// The player at this seat.
    Seat(Seat),
    /// Anyone watching without a seat.
    Spectator,
}

impl Viewer {
    fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        }
    }
}

/// What kind of deal this is, as far as everyone knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DealKind {
    /// Still bidding.
    Auction,
    /// A trick contract.
    Game,
    /// Misère.
    Misere,
    /// All passed.
    Raspasy,
}

/// The standing bid and who holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StandingBid {
    /// The bid.
    pub bid: Bid,
    /// Its holder.
    pub seat: Seat,
}

/// A card on the table with the seat it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatCard {
    /// Whose card (on four-player raspasy tricks 1–2 the dealer's talon card).
    pub seat: Seat,
    /// The card.
    pub card: Card,
}

/// A completed trick as everybody saw it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TrickView {
    /// Cards in play order.
    pub cards: Vec<SeatCard>,
    /// Who took it.
    pub winner: Seat,
}

impl From<&PlayedTrick> for TrickView {
    fn from(t: &PlayedTrick) -> TrickView {
        TrickView {
            cards: t
                .cards()
                .iter()
                .map(|&(seat, card)| SeatCard { seat, card })
                .collect(),
            winner: t.winner,
        }
    }
}

/// Everything shown after the deal (`reveal_after_deal`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Reveal {
    /// Hands as dealt, index = seat.
    pub hands: Vec<CardSet>,
    /// The talon.
    pub talon: [Card; 2],
    /// The declarer's discard (empty when there was none).
    pub discard: CardSet,
}

/// One viewer's picture of a deal. Built from the state for that viewer alone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealView {
    /// Who this view is for.
    pub viewer: Viewer,
    /// Players at the table.
    pub players: u8,
    /// The dealer.
    pub dealer: Seat,
    /// First hand.
    pub first_hand: Seat,
    /// Where the deal stands.
    pub stage: Stage,
    /// What kind of deal it is.
    pub kind: DealKind,
    /// The player to act (the whister for both defenders in open play).
    pub to_act: Option<Seat>,
    /// The seat whose action or card is next.
    pub turn: Option<Seat>,
    /// The viewer's own hand; `None` for a spectator.
    pub hand: Option<CardSet>,
    /// Cards each seat holds, index = seat.
    pub hand_sizes: Vec<u8>,
    /// Hands face up for everybody, index = seat.
    pub open_hands: Vec<Option<CardSet>>,
    /// The talon cards that are face up.
    pub talon: [Option<Card>; 2],
    /// The discard, for the declarer (and for everybody after the deal with reveal).
    pub discard: Option<CardSet>,
    /// Each seat's last call.
    pub calls: Vec<Option<Call>>,
    /// The standing bid.
    pub highest: Option<StandingBid>,
    /// The declarer of a game or misère.
    pub declarer: Option<Seat>,
    /// The named contract.
    pub contract: Option<Contract>,
    /// Whether the declarer surrendered (R4.5).
    pub surrendered: bool,
    /// Whist decisions, index = seat.
    pub whist: Vec<Option<WhistCall>>,
    /// Open or closed defence.
    pub defence: Option<Defence>,
    /// Who plays each seat's cards.
    pub controllers: Vec<Seat>,
    /// The trick in progress.
    pub trick: Vec<SeatCard>,
    /// The last completed trick.
    pub last_trick: Option<TrickView>,
    /// Tricks taken per seat.
    pub tricks_taken: Vec<u8>,
    /// Everything, once the deal is over with `reveal_after_deal`.
    pub revealed: Option<Reveal>,
    /// The claim waiting for answers, or the one all accepted (R6.7); the claimer's hand is
    /// in `open_hands`.
    pub claim: Option<ClaimView>,
    /// What the four-handed dealer writes for the talon (R11.6), from the moment the talon of
    /// a trick contract is turned at a table with `talon_bonus`; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub talon_bonus: Option<TalonBonus>,
    /// With `dark_games` (R2.3, R3.9): who has seen his hand and whose first call was dark;
    /// absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dark: Option<DarkView>,
    /// The auction was won with MWT or 9WT: nobody takes the talon (R4.6); absent when not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_talon: bool,
}

/// The closed hands and dark calls of a deal at a table with `dark_games`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DarkView {
    /// Per seat, whether its owner has seen his hand (R2.3).
    pub looked: Vec<bool>,
    /// Per seat, whether its first call was dark (R3.9).
    pub calls: Vec<bool>,
    /// Whether the deal is dark, scored ×2: its declarer's first call was dark (R3.9.1, R8.11).
    pub deal: bool,
}

/// The four-handed dealer's talon bonus as the talon shows it (R11.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TalonBonus {
    /// The talon's units `U`: 3 for two aces, 2 for the ace and king of one suit, 1 for one
    /// ace otherwise or a marriage, 0 otherwise.
    pub units: u8,
    /// The whists the dealer writes on the declarer, `U · v · whist_scale`, once the
    /// contract is named.
    pub whists: Option<u32>,
}

impl DealView {
    /// Every card this view shows, whatever field holds it: what a check of hidden
    /// information compares with what the viewer may see. The destructuring names every
    /// field, so a new field that can carry cards cannot be left out.
    #[must_use]
    pub fn cards(&self) -> CardSet {
        let DealView {
            viewer: _,
            players: _,
            dealer: _,
            first_hand: _,
            stage: _,
            kind: _,
            to_act: _,
            turn: _,
            hand,
            hand_sizes: _,
            open_hands,
            talon,
            discard,
            calls: _,
            highest: _,
            declarer: _,
            contract: _,
            surrendered: _,
            whist: _,
            defence: _,
            controllers: _,
            trick,
            last_trick,
            tricks_taken: _,
            revealed,
            claim: _,
            talon_bonus: _,
            dark: _,
            no_talon: _,
        } = self;
        let mut cs = hand.unwrap_or_default().or(discard.unwrap_or_default());
        for h in open_hands.iter().flatten() {
            cs = cs.or(*h);
        }
        for c in talon.iter().flatten() {
            cs = cs.with(*c);
        }
        let last = last_trick.iter().flat_map(|t| t.cards.iter());
        for sc in trick.iter().chain(last) {
            cs = cs.with(sc.card);
        }
        if let Some(r) = revealed {
            for h in &r.hands {
                cs = cs.or(*h);
            }
            cs = cs.with(r.talon[0]).with(r.talon[1]).or(r.discard);
        }
        cs
    }
}

impl ViewEvent {
    /// Every card this event shows: what a check of hidden information compares with what
    /// the viewer may see.
    #[must_use]
    pub fn cards(&self) -> CardSet {
        match self {
            ViewEvent::Dealt { hand, .. } | ViewEvent::Looked { hand, .. } => {
                hand.unwrap_or_default()
            }
            ViewEvent::TalonSeen { cards, .. } => cards.iter().flatten().copied().collect(),
            ViewEvent::TalonTurned { cards } => cards.iter().copied().collect(),
            ViewEvent::Discarded { cards, .. } => cards.unwrap_or_default(),
            ViewEvent::HandOpened { hand, .. } => *hand,
            ViewEvent::TalonCardTurned { card, .. } | ViewEvent::Played { card, .. } => card.bit(),
            ViewEvent::Revealed(r) => r
                .hands
                .iter()
                .fold(r.discard, |a, h| a.or(*h))
                .with(r.talon[0])
                .with(r.talon[1]),
            ViewEvent::Called { .. }
            | ViewEvent::Claimed { .. }
            | ViewEvent::Answered { .. }
            | ViewEvent::ClaimAccepted { .. }
            | ViewEvent::AuctionWon { .. }
            | ViewEvent::AllPassed
            | ViewEvent::Declared { .. }
            | ViewEvent::Surrendered { .. }
            | ViewEvent::Whisted { .. }
            | ViewEvent::DefenceChosen { .. }
            | ViewEvent::TrickTaken { .. }
            | ViewEvent::DealOver => CardSet::EMPTY,
        }
    }
}

impl Deal {
    fn kind_view(&self) -> DealKind {
        match self.kind {
            Kind::Undecided => DealKind::Auction,
            Kind::Game => DealKind::Game,
            Kind::Misere => DealKind::Misere,
            Kind::Raspasy => DealKind::Raspasy,
        }
    }

    /// R4.7.1: the talon of a dark misère, taken unseen by the defenders, is the declarer's
    /// to see.
    fn talon_seen_by(&self, viewer: Viewer) -> bool {
        self.is_dark_misere() && !self.is_no_talon() && viewer.seat() == Some(self.declarer)
    }

    fn dark_view(&self) -> Option<DarkView> {
        let n = self.players;
        self.rules.has(Rules::DARK_GAMES).then(|| DarkView {
            looked: (0..n).map(|s| self.has_looked(Seat(s))).collect(),
            calls: (0..n).map(|s| self.dark_calls() & (1 << s) != 0).collect(),
            deal: self.is_dark(),
        })
    }

    fn revealed_now(&self) -> bool {
        self.stage == Stage::Finished && self.reveals_after_deal()
    }

    fn discard_visible_to(&self, viewer: Viewer) -> bool {
        let declarer_discarded = match self.kind {
            Kind::Game | Kind::Misere => {
                !self.discard.is_empty() && viewer.seat() == Some(self.declarer)
            }
            Kind::Raspasy | Kind::Undecided => false,
        };
        declarer_discarded || self.revealed_now()
    }

    /// What `viewer` may see of this deal now.
    #[must_use]
    pub fn view(&self, viewer: Viewer) -> DealView {
        let n = self.players as usize;
        let own = match viewer {
            // R2.3: a closed hand is not shown to its owner before he looks.
            Viewer::Seat(s) if s.0 < self.players && self.has_looked(s) => {
                Some(self.hands[s.index()])
            }
            Viewer::Seat(_) | Viewer::Spectator => None,
        };
        let open_hands = (0..n)
            .map(|s| (self.open & (1 << s) != 0).then_some(self.hands[s]))
            .collect();
        let shown = if self.revealed_now() || self.talon_seen_by(viewer) {
            2
        } else {
            self.talon_shown
        };
        let talon = [
            (shown >= 1).then_some(self.talon[0]),
            (shown >= 2).then_some(self.talon[1]),
        ];
        let tricks = self.completed_tricks();
        DealView {
            viewer,
            players: self.players,
            dealer: self.dealer,
            first_hand: self.first_hand(),
            stage: self.stage,
            kind: self.kind_view(),
            to_act: self.to_act(),
            turn: self.turn(),
            hand: own,
            hand_sizes: (0..n).map(|s| self.hands[s].len() as u8).collect(),
            open_hands,
            talon,
            discard: self.discard_visible_to(viewer).then_some(self.discard),
            calls: self.last_call[..n].to_vec(),
            highest: self.highest.map(|bid| StandingBid {
                bid,
                seat: self.holder,
            }),
            declarer: self.declarer(),
            contract: self.contract,
            surrendered: self.surrendered,
            whist: self.whist[..n].to_vec(),
            defence: self.defence,
            controllers: self.controller[..n].to_vec(),
            trick: self
                .current_trick()
                .iter()
                .map(|&(seat, card)| SeatCard { seat, card })
                .collect(),
            last_trick: tricks.last().map(TrickView::from),
            tricks_taken: self.tricks[..n].to_vec(),
            revealed: self.revealed_now().then(|| Reveal {
                hands: self.dealt[..n].to_vec(),
                talon: self.talon,
                discard: self.discard,
            }),
            claim: self.pending_claim().or_else(|| self.accepted_claim()),
            talon_bonus: self.talon_bonus(),
            dark: self.dark_view(),
            no_talon: self.is_no_talon(),
        }
    }

    /// R11.6: the talon's units once the talon of a trick contract is turned at a table with
    /// the talon bonus, and the whists they make once the contract is named. None on a
    /// surrender, which the bonus never follows.
    fn talon_bonus(&self) -> Option<TalonBonus> {
        let shown = self.kind == Kind::Game && self.talon_shown >= 2 && !self.surrendered;
        if !(shown && self.rules.has(Rules::TALON_BONUS)) {
            return None;
        }
        let units = talon_units(self.talon);
        Some(TalonBonus {
            units,
            whists: self
                .contract
                .map(|c| u32::from(units) * c.value() * u32::from(self.rules.whist_scale)),
        })
    }
}

/// An event as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ViewEvent {
    /// A new deal: the viewer's own hand (none for a spectator or a four-player dealer, and
    /// none for anybody when the hands are dealt closed, R2.3).
    Dealt {
        /// The dealer.
        dealer: Seat,
        /// The viewer's hand.
        hand: Option<CardSet>,
        /// The hands are dealt closed (`dark_games`): each owner sees his at his look.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        closed: bool,
    },
    /// A seat saw its closed hand (R2.3, R3.9); the cards for its owner alone.
    Looked {
        /// Who looked.
        seat: Seat,
        /// The hand, `None` for everybody but its owner.
        hand: Option<CardSet>,
    },
    /// The talon of a dark misère, taken by its declarer unseen by the others (R4.7.1).
    TalonSeen {
        /// The declarer.
        seat: Seat,
        /// The cards, `None` for everybody but the declarer.
        cards: Option<[Card; 2]>,
    },
    /// A call in the auction.
    Called {
        /// Who called.
        seat: Seat,
        /// The call.
        call: Call,
        /// Whether the call is *here*: the standing bid said again (R3.4); absent when not.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        here: bool,
        /// Whether the call is dark (R3.9); absent when not.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        dark: bool,
    },
    /// The auction has a declarer.
    AuctionWon {
        /// The declarer.
        declarer: Seat,
        /// The winning bid.
        bid: Bid,
    },
    /// All passed: raspasy.
    AllPassed,
    /// The talon, face up for everybody.
    TalonTurned {
        /// The two cards.
        cards: [Card; 2],
    },
    /// The declarer discarded; the cards only for the declarer.
    Discarded {
        /// The declarer.
        seat: Seat,
        /// The discard, `None` for everybody else.
        cards: Option<CardSet>,
    },
    /// The contract is named.
    Declared {
        /// The declarer.
        seat: Seat,
        /// The contract.
        contract: Contract,
    },
    /// The declarer surrendered (R4.5).
    Surrendered {
        /// The declarer.
        seat: Seat,
        /// The winning bid that prices it.
        bid: Contract,
    },
    /// A whist decision.
    Whisted {
        /// Who decided.
        seat: Seat,
        /// The decision.
        call: WhistCall,
    },
    /// Open or closed defence.
    DefenceChosen {
        /// The whister.
        seat: Seat,
        /// The choice.
        defence: Defence,
    },
    /// A hand face up for everybody.
    HandOpened {
        /// Whose hand.
        seat: Seat,
        /// Its cards.
        hand: CardSet,
    },
    /// A raspasy talon card turned.
    TalonCardTurned {
        /// Trick 0 or 1.
        trick: u8,
        /// The card.
        card: Card,
    },
    /// A card played.
    Played {
        /// Whose card.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// A trick taken.
    TrickTaken {
        /// Trick index.
        trick: u8,
        /// Who took it.
        seat: Seat,
    },
    /// A claim of the remaining tricks (R6.7).
    Claimed {
        /// The claimer's own seat.
        seat: Seat,
        /// The claimed tricks per seat.
        claim: Claim,
    },
    /// An answer to the pending claim (R6.7).
    Answered {
        /// The answering player's own seat.
        seat: Seat,
        /// The answer.
        answer: Answer,
    },
    /// All accepted the claim: the deal ends with these tricks per seat (R6.7).
    ClaimAccepted {
        /// Tricks per seat, those taken plus the claim's.
        tricks: Vec<u8>,
    },
    /// The deal is over.
    DealOver,
    /// Everything shown after the deal.
    Revealed(Reveal),
}

impl Event {
    /// This event as `viewer` may see it. `players` trims per-seat arrays to the table.
    #[must_use]
    pub fn project(&self, viewer: Viewer, players: u8) -> ViewEvent {
        let n = players as usize;
        match *self {
            Event::Dealt {
                dealer,
                hands,
                closed,
            } => ViewEvent::Dealt {
                dealer,
                hand: match viewer {
                    Viewer::Seat(s) if s.0 < players && !closed => Some(hands[s.index()]),
                    Viewer::Seat(_) | Viewer::Spectator => None,
                },
                closed,
            },
            Event::Looked { seat, hand } => ViewEvent::Looked {
                seat,
                hand: (viewer.seat() == Some(seat)).then_some(hand),
            },
            Event::TalonSeen { seat, cards } => ViewEvent::TalonSeen {
                seat,
                cards: (viewer.seat() == Some(seat)).then_some(cards),
            },
            Event::Called {
                seat,
                call,
                here,
                dark,
            } => ViewEvent::Called {
                seat,
                call,
                here,
                dark,
            },
            Event::AuctionWon { declarer, bid } => ViewEvent::AuctionWon { declarer, bid },
            Event::AllPassed => ViewEvent::AllPassed,
            Event::TalonTurned { cards } => ViewEvent::TalonTurned { cards },
            Event::Discarded { seat, cards } => ViewEvent::Discarded {
                seat,
                cards: (viewer.seat() == Some(seat)).then_some(cards),
            },
            Event::Declared { seat, contract } => ViewEvent::Declared { seat, contract },
            Event::Surrendered { seat, bid } => ViewEvent::Surrendered { seat, bid },
            Event::Whisted { seat, call } => ViewEvent::Whisted { seat, call },
            Event::DefenceChosen { seat, defence } => ViewEvent::DefenceChosen { seat, defence },
            Event::HandOpened { seat, hand } => ViewEvent::HandOpened { seat, hand },
            Event::TalonCardTurned { trick, card } => ViewEvent::TalonCardTurned { trick, card },
            Event::Played { seat, card } => ViewEvent::Played { seat, card },
            Event::TrickTaken { trick, seat } => ViewEvent::TrickTaken { trick, seat },
            Event::Claimed { seat, claim } => ViewEvent::Claimed { seat, claim },
            Event::Answered { seat, answer } => ViewEvent::Answered { seat, answer },
            Event::ClaimAccepted { tricks } => ViewEvent::ClaimAccepted {
                tricks: tricks[..n].to_vec(),
            },
            Event::DealOver => ViewEvent::DealOver,
            Event::Revealed {
                hands,
                talon,
                discard,
            } => ViewEvent::Revealed(Reveal {
                hands: hands[..n].to_vec(),
                talon,
                discard,
            }),
        }
    }
}
