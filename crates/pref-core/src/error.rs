//! Why an action was refused, in the player's terms, with the rule it breaks.

use std::fmt;

use crate::bid::{Bid, Contract, Seat};
use crate::card::{Card, Suit};

/// The stage of a deal, as players name it in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Bidding (R3).
    Auction,
    /// The declarer discards two cards (R4.2).
    Discard,
    /// The declarer names the contract (R4.3).
    Declare,
    /// Whist decisions (R5).
    Whist,
    /// The lone whister chooses open or closed (R5.4).
    Defence,
    /// Card play (R6, R7).
    Play,
    /// The deal is over.
    Finished,
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stage::Auction => "the auction",
            Stage::Discard => "the discard",
            Stage::Declare => "the declaration of the contract",
            Stage::Whist => "the whist decisions",
            Stage::Defence => "the choice of open or closed defence",
            Stage::Play => "the play",
            Stage::Finished => "the end of the deal",
        })
    }
}

/// The kind of action, for "wrong stage" messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verb {
    /// `bid`.
    Bid,
    /// `discard`.
    Discard,
    /// `declare`.
    Declare,
    /// `whist`.
    Whist,
    /// `defence`.
    Defence,
    /// `play`.
    Play,
    /// `claim` (R6.7).
    Claim,
    /// `answer` (R6.7).
    Answer,
    /// `surrender`.
    Surrender,
    /// `look` (R2.3).
    Look,
}

impl fmt::Display for Verb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verb::Bid => "a call",
            Verb::Discard => "a discard",
            Verb::Declare => "naming a contract",
            Verb::Whist => "a whist decision",
            Verb::Defence => "choosing open or closed",
            Verb::Play => "playing a card",
            Verb::Claim => "a claim",
            Verb::Answer => "answering a claim",
            Verb::Surrender => "a surrender",
            Verb::Look => "looking at one's hand",
        })
    }
}

/// Why a half-whist is refused (R5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HalfWhistBar {
    /// The profile has `half_whist = false`.
    Disabled,
    /// Only against 6 and 7.
    Level(u8),
    /// Only by the second defender after the first passed.
    NotAfterPass,
}

/// Why a surrender is refused (R4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SurrenderBar {
    /// The profile has `surrender = 0`.
    Disabled,
    /// A misère cannot be surrendered.
    Misere,
    /// After MWT or 9WT no talon was taken (R4.6).
    NoTalon,
    /// The winning bid is above `surrender_max_level`.
    Level {
        /// The winning bid's level.
        level: u8,
        /// The highest level allowed.
        max: u8,
    },
}

/// An action the rules refuse. The deal is unchanged when one is returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum RuleError {
    /// Any action after the deal ended.
    #[error("the deal is over")]
    DealOver,
    /// The action belongs to another seat.
    #[error("it is not {seat}'s turn: {expected} is to act")]
    NotYourTurn {
        /// Who tried.
        seat: Seat,
        /// Who is to act.
        expected: Seat,
    },
    /// A seat number outside the table, or a four-player dealer acting outside R11.4.
    #[error("{0} takes no part in this deal (R11.1)")]
    NotInDeal(Seat),
    /// The right verb at the wrong stage.
    #[error("{verb} is not possible during {stage}")]
    WrongStage {
        /// What was tried.
        verb: Verb,
        /// Where the deal stands.
        stage: Stage,
    },
    /// A bid that is not the next step (R3.3).
    #[error("{} is not the next step: bid {} or pass (R3.3)", bid.pretty(), next.pretty())]
    NotNextStep {
        /// The bid tried.
        bid: Bid,
        /// The one bid allowed above the standing bid.
        next: Bid,
    },
    /// A dark call or a look at a table without `dark_games` (R2.3, R3.9).
    #[error("dark games are not played at this table (R2.3, R3.9)")]
    DarkOff,
    /// A dark call by a player who has looked or already called (R3.9).
    #[error(
        "{0} has looked at his hand or already called: only a first call before looking may be dark (R3.9)"
    )]
    DarkTooLate(Seat),
    /// A look by a player who has looked or called already, or after the auction (R2.3).
    #[error("{0} has already seen his hand (R2.3)")]
    AlreadyLooked(Seat),
    /// MWT or 9WT at a table without `misere_without_talon` (R3.10).
    #[error("misère and nine without talon are not played at this table (R3.10)")]
    NoTalonOff,
    /// MWT by anybody but the misère caller at his one further turn (R3.10.1).
    #[error(
        "only the misère caller, at his one further turn after his misère was outbid, may call misère without talon (R3.10.1)"
    )]
    MisereNoTalonBar,
    /// Any call but MWT or pass at the misère caller's one further turn (R3.10.1).
    #[error(
        "after his misère was outbid, the misère caller may only call misère without talon or pass (R3.10.1)"
    )]
    MisereCallerTurn,
    /// 9WT without a misère of another player, or over a bid at or above it (R3.10.2).
    #[error(
        "nine without talon needs a misère called by another player and a standing bid below it (R3.10.2)"
    )]
    NineNoTalonBar,
    /// After a 9WT auction, a contract that is not a nine or is below the declarer's own nine (R4.6).
    #[error("after nine without talon name a nine not below {} (R4.6)", lowest.pretty())]
    NineNoTalonContract {
        /// The contract tried.
        contract: Contract,
        /// The lowest nine allowed.
        lowest: Contract,
    },
    /// A bid when 10NT already stands.
    #[error("nothing is higher than 10NT: pass (R3.3)")]
    NothingHigher,
    /// *Here* by a player who is not senior to the holder (R3.4).
    #[error("only a senior hand may hold {} with here; {holder} is senior, so go higher or pass (R3.4)", bid.pretty())]
    HereByJunior {
        /// The standing bid.
        bid: Bid,
        /// Its holder.
        holder: Seat,
    },
    /// Misère as a second call (R3.6).
    #[error("misère can only be a player's first call (R3.6)")]
    MisereNotFirstCall,
    /// Misère over a bid at or above it, or a second misère (R3.6).
    #[error("misère is no longer possible: {} already stands (R3.6)", standing.pretty())]
    MisereTooLate {
        /// The standing bid.
        standing: Bid,
    },
    /// Misère when the raspasy exit starts above it (R3.6).
    #[error("misère is not allowed when the lowest level is {min_level} (R3.6)")]
    MisereBelowExit {
        /// The lowest level allowed in this deal.
        min_level: u8,
    },
    /// A discard of other than two cards (R4.2).
    #[error("discard exactly two cards, not {0} (R4.2)")]
    DiscardSize(u32),
    /// A discard of a card the declarer does not hold (R4.2).
    #[error("you cannot discard {}: you do not hold it (R4.2)", .0.pretty())]
    DiscardNotHeld(Card),
    /// A contract below the winning bid (R4.3).
    #[error("{} is below your winning bid {}: name {} or higher (R4.3)", contract.pretty(), bid.pretty(), bid.pretty())]
    ContractBelowBid {
        /// The contract tried.
        contract: Contract,
        /// The winning bid.
        bid: Bid,
    },
    /// A half-whist the rules do not allow (R5.2).
    #[error("{}", half_whist_message(*.0))]
    HalfWhist(HalfWhistBar),
    /// A pass by the first defender speaking again after *whist, pass*: he stays (whist) or
    /// withdraws to a half-whist (half) (R5.3).
    #[error("after whist and pass, the first defender says whist (stay) or half (withdraw) (R5.3)")]
    StayOrWithdraw,
    /// A surrender the rules do not allow (R4.5).
    #[error("{}", surrender_message(*.0))]
    Surrender(SurrenderBar),
    /// A pass against 6♠ under Stalingrad (R5.7).
    #[error("against 6♠ both defenders must whist: Stalingrad is agreed (R5.7)")]
    Stalingrad,
    /// A pass or half-whist by a four-player dealer, who only says whist or pass (R11.4).
    #[error("the dealer can only say whist or pass (R11.4)")]
    DealerHalfWhist,
    /// A card the seat does not hold.
    #[error("{seat} does not hold {} (R6.6)", card.pretty())]
    NotHeld {
        /// The seat whose card it would be.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// A revoke: the seat holds the led suit (R6.2, R7.2).
    #[error("{seat} must follow {suit} (R6.2)")]
    MustFollow {
        /// Who tried.
        seat: Seat,
        /// The suit to follow.
        suit: Suit,
    },
    /// The seat holds no card of the led suit but holds a trump (R6.2).
    #[error("{seat} has no {led} and must play a trump {trump} (R6.2)")]
    MustTrump {
        /// Who tried.
        seat: Seat,
        /// The led suit.
        led: Suit,
        /// The trump suit.
        trump: Suit,
    },
    /// On raspasy tricks 1 and 2 first hand must lead the talon card's suit if he can (R7.2).
    #[error("{seat} must lead {suit}, the suit of the turned talon card (R7.2)")]
    MustLeadTalonSuit {
        /// Who tried.
        seat: Seat,
        /// The talon card's suit.
        suit: Suit,
    },
    /// `must_overtake`: a card that does not beat the trick while one that does is held (R6.2).
    #[error("{seat} must beat the trick: the house plays must-overtake (R6.2)")]
    MustOvertake {
        /// Who tried.
        seat: Seat,
    },
    /// In open play the whister (or a four-player dealer) plays the defenders' cards (R5.5, R11.4).
    #[error("{seat}'s cards are played by {controller} in open defence (R5.5)")]
    PlayedByPartner {
        /// The seat whose card it is.
        seat: Seat,
        /// The seat that plays it.
        controller: Seat,
    },
    /// A claim at a table that plays without them (`claims` off, R6.7).
    #[error("claims are not played at this table (R6.7)")]
    ClaimsOff,
    /// A claim in raspasy (R6.7).
    #[error("there are no claims in raspasy (R6.7)")]
    ClaimInRaspasy,
    /// A claim by a seat that chooses no cards in this deal (R6.7).
    #[error("{0} is not a player of this deal and cannot claim (R6.7)")]
    ClaimNotPlayer(Seat),
    /// A card or a claim while a claim waits for answers (R6.7).
    #[error("a claim is waiting for answers: nobody plays or claims until it is settled (R6.7)")]
    ClaimPending,
    /// A claim after a card of the current trick was played (R6.7).
    #[error("a claim is only possible before the first card of a trick (R6.7)")]
    ClaimMidTrick,
    /// A second claim by the same player at the same trick boundary (R6.7).
    #[error("{0} has already claimed before this trick (R6.7)")]
    ClaimRepeated(Seat),
    /// A claim without exactly one entry per seat of the table (R6.7).
    #[error("a claim names {seats} entries, one per seat, not {given} (R6.7)")]
    ClaimSeats {
        /// Entries given.
        given: u8,
        /// Seats at the table.
        seats: u8,
    },
    /// A claim giving tricks to a four-player dealer (R6.7).
    #[error("the dealer {0} plays no cards: his entry in a claim is 0 (R6.7)")]
    ClaimDealerEntry(Seat),
    /// A claim whose entries do not add up to the tricks left (R6.7).
    #[error("the claim gives {given} tricks, but {left} are left (R6.7)")]
    ClaimTotal {
        /// The sum of the entries.
        given: u32,
        /// Tricks not yet played.
        left: u8,
    },
    /// An answer when no claim is pending (R6.7).
    #[error("there is no claim to answer (R6.7)")]
    NoClaim,
    /// An answer by a player who is not the next to answer (R6.7).
    #[error("{seat} cannot answer the claim now: {expected} answers next (R6.7)")]
    AnswerOutOfTurn {
        /// Who tried.
        seat: Seat,
        /// The player who answers next.
        expected: Seat,
    },
}

fn half_whist_message(bar: HalfWhistBar) -> String {
    match bar {
        HalfWhistBar::Disabled => "half-whist is not played at this table (R5.2)".to_owned(),
        HalfWhistBar::Level(l) => format!("half-whist is only against 6 and 7, not {l} (R5.2)"),
        HalfWhistBar::NotAfterPass => {
            "only the second defender may half-whist, after the first passed (R5.2)".to_owned()
        }
    }
}

fn surrender_message(bar: SurrenderBar) -> String {
    match bar {
        SurrenderBar::Disabled => "surrender is not played at this table (R4.5)".to_owned(),
        SurrenderBar::Misere => "a misère cannot be surrendered (R4.5)".to_owned(),
        SurrenderBar::NoTalon => {
            "no surrender after misère or nine without talon: no talon was taken (R4.5, R4.6)"
                .to_owned()
        }
        SurrenderBar::Level { level, max } => {
            format!("surrender is allowed up to level {max}, and the bid is {level} (R4.5)")
        }
    }
}

impl RuleError {
    /// The id of the rule that refuses the action (`"R6.2"`), `None` for turn and stage errors.
    #[must_use]
    pub fn rule(&self) -> Option<&'static str> {
        Some(match self {
            RuleError::DealOver | RuleError::NotYourTurn { .. } | RuleError::WrongStage { .. } => {
                return None;
            }
            RuleError::NotInDeal(_) => "R11.1",
            RuleError::NotNextStep { .. } | RuleError::NothingHigher => "R3.3",
            RuleError::HereByJunior { .. } => "R3.4",
            RuleError::MisereNotFirstCall
            | RuleError::MisereTooLate { .. }
            | RuleError::MisereBelowExit { .. } => "R3.6",
            RuleError::DiscardSize(_) | RuleError::DiscardNotHeld(_) => "R4.2",
            RuleError::DarkOff | RuleError::DarkTooLate(_) => "R3.9",
            RuleError::AlreadyLooked(_) => "R2.3",
            RuleError::NoTalonOff => "R3.10",
            RuleError::MisereNoTalonBar | RuleError::MisereCallerTurn => "R3.10.1",
            RuleError::NineNoTalonBar => "R3.10.2",
            RuleError::NineNoTalonContract { .. } => "R4.6",
            RuleError::ContractBelowBid { .. } => "R4.3",
            RuleError::HalfWhist(_) => "R5.2",
            RuleError::StayOrWithdraw => "R5.3",
            RuleError::Surrender(_) => "R4.5",
            RuleError::Stalingrad => "R5.7",
            RuleError::DealerHalfWhist => "R11.4",
            RuleError::NotHeld { .. } => "R6.6",
            RuleError::MustFollow { .. }
            | RuleError::MustTrump { .. }
            | RuleError::MustOvertake { .. } => "R6.2",
            RuleError::MustLeadTalonSuit { .. } => "R7.2",
            RuleError::PlayedByPartner { .. } => "R5.5",
            RuleError::ClaimsOff
            | RuleError::ClaimInRaspasy
            | RuleError::ClaimNotPlayer(_)
            | RuleError::ClaimPending
            | RuleError::ClaimMidTrick
            | RuleError::ClaimRepeated(_)
            | RuleError::ClaimSeats { .. }
            | RuleError::ClaimDealerEntry(_)
            | RuleError::ClaimTotal { .. }
            | RuleError::NoClaim
            | RuleError::AnswerOutOfTurn { .. } => "R6.7",
        })
    }
}

/// A deal that cannot be set up: wrong card counts, repeated cards.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    /// The deck is not 32 distinct cards.
    #[error("the deck repeats {0}")]
    DeckRepeats(Card),
    /// A hand has the wrong number of cards.
    #[error("seat {seat} has {count} cards, not {expected}")]
    HandSize {
        /// The seat.
        seat: u8,
        /// Cards given.
        count: usize,
        /// Cards required (10, or 0 for a four-player dealer).
        expected: usize,
    },
    /// The talon is not two cards.
    #[error("the talon has {0} cards, not 2")]
    TalonSize(usize),
    /// A card appears twice in a hand.
    #[error("seat {seat}'s hand repeats {card}")]
    HandRepeats {
        /// The seat.
        seat: u8,
        /// The card.
        card: Card,
    },
    /// A card appears twice in the talon or in the talon and a hand.
    #[error("talon repeats {0}")]
    TalonRepeats(Card),
    /// A card is dealt to two seats.
    #[error("{card} is dealt to seat {first} and seat {second}")]
    DealtTwice {
        /// The card.
        card: Card,
        /// One seat.
        first: u8,
        /// The other.
        second: u8,
    },
    /// The number of hands does not match the table.
    #[error("{given} hands for a table of {players}")]
    HandCount {
        /// Hands given.
        given: usize,
        /// Players at the table.
        players: u8,
    },
    /// A dealer seat outside the table.
    #[error("dealer seat {0} is not at the table")]
    Dealer(u8),
}
