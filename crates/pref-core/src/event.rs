//! What happened in a deal, in full. Events hold hidden cards (the deal, the discard), so
//! they are never sent as they are: [`crate::view`] projects each one for each viewer.

use crate::action::{Defence, WhistCall};
use crate::bid::{Bid, Call, Contract, Seat};
use crate::card::{Card, CardSet};
use crate::claim::{Answer, Claim};

/// One thing that happened in a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// The cards are dealt (each seat's hand is its own secret).
    Dealt {
        /// The dealer.
        dealer: Seat,
        /// Hands as dealt, index = seat.
        hands: [CardSet; 4],
        /// Dealt face down (`dark_games`, R2.3): no owner sees his hand before he looks.
        closed: bool,
    },
    /// A seat looks at its closed hand (R2.3): by the action *look*, just before its first
    /// call in the light, or right after its dark call (R3.9). Only the owner sees the cards.
    Looked {
        /// Who looked.
        seat: Seat,
        /// The hand.
        hand: CardSet,
    },
    /// The talon of a dark misère, seen and taken by the declarer alone (R4.7.1).
    TalonSeen {
        /// The declarer.
        seat: Seat,
        /// The two talon cards.
        cards: [Card; 2],
    },
    /// A call in the auction.
    Called {
        /// Who called.
        seat: Seat,
        /// The call.
        call: Call,
        /// Whether the call is *here*: the standing bid said again by a senior hand (R3.4).
        here: bool,
        /// Whether the call is dark: the seat's first call, before looking (R3.9).
        dark: bool,
    },
    /// The auction has a declarer (R3.7).
    AuctionWon {
        /// The declarer.
        declarer: Seat,
        /// The winning bid.
        bid: Bid,
    },
    /// Everybody passed: raspasy (R7).
    AllPassed,
    /// The talon is turned face up for everybody and taken by the declarer (R4.1).
    TalonTurned {
        /// The two talon cards.
        cards: [Card; 2],
    },
    /// The declarer discarded two cards face down (R4.2).
    Discarded {
        /// The declarer.
        seat: Seat,
        /// The discard, seen by the declarer alone.
        cards: CardSet,
    },
    /// The contract is named (R4.3).
    Declared {
        /// The declarer.
        seat: Seat,
        /// The contract.
        contract: Contract,
    },
    /// The declarer surrendered (R4.5): the deal ends without whist or play.
    Surrendered {
        /// The declarer.
        seat: Seat,
        /// The winning bid that prices it.
        bid: Contract,
    },
    /// A whist decision (R5, R11.4).
    Whisted {
        /// Who decided.
        seat: Seat,
        /// The decision.
        call: WhistCall,
    },
    /// The lone whister chose open or closed (R5.4).
    DefenceChosen {
        /// The whister.
        seat: Seat,
        /// The choice.
        defence: Defence,
    },
    /// A hand is turned face up for everybody (open play R5.5, misère R6.5).
    HandOpened {
        /// Whose hand.
        seat: Seat,
        /// The cards it holds now.
        hand: CardSet,
    },
    /// A raspasy talon card is turned (R7.2) or, with four players, leads (R11.3).
    TalonCardTurned {
        /// The trick it belongs to (0 or 1).
        trick: u8,
        /// The card.
        card: Card,
    },
    /// A card is played.
    Played {
        /// The seat whose card it is.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// A trick is complete.
    TrickTaken {
        /// The trick's index, 0..10.
        trick: u8,
        /// Who took it.
        seat: Seat,
    },
    /// A player of the deal claims the remaining tricks (R6.7); his hand opens next.
    Claimed {
        /// The claimer's own seat.
        seat: Seat,
        /// The claimed tricks per seat.
        claim: Claim,
    },
    /// A player answers the pending claim (R6.7); a reject ends the claim.
    Answered {
        /// The answering player's own seat.
        seat: Seat,
        /// The answer.
        answer: Answer,
    },
    /// Everybody accepted the claim: the deal ends with these tricks (R6.7).
    ClaimAccepted {
        /// Tricks per seat: those taken plus the claim's.
        tricks: [u8; 4],
    },
    /// The deal is over; its outcome is ready.
    DealOver,
    /// Everything is shown after the deal (`reveal_after_deal`).
    Revealed {
        /// Hands as dealt.
        hands: [CardSet; 4],
        /// The talon.
        talon: [Card; 2],
        /// The declarer's discard (empty if there was none).
        discard: CardSet,
    },
}
