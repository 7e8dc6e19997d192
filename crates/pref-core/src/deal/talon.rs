//! After the auction: the declarer's discard, the contract he names, or his surrender (R4).

use super::{Deal, Events, Kind, Rules};
use crate::bid::{Bid, Contract, Strain};
use crate::card::CardSet;
use crate::error::{RuleError, Stage, SurrenderBar};
use crate::event::Event;

impl Deal {
    pub(crate) fn check_discard(&self, cards: CardSet) -> Result<(), RuleError> {
        if cards.len() != 2 {
            return Err(RuleError::DiscardSize(cards.len()));
        }
        match cards.minus(self.hands[self.declarer.index()]).first() {
            Some(c) => Err(RuleError::DiscardNotHeld(c)),
            None => Ok(()),
        }
    }

    pub(crate) fn do_discard(&mut self, cards: CardSet, events: &mut Events) {
        let d = self.declarer;
        self.hands[d.index()] = self.hands[d.index()].minus(cards);
        self.discard = cards;
        events.push(Event::Discarded { seat: d, cards });
        if self.kind == Kind::Misere {
            self.start_play(events);
        } else {
            self.stage = Stage::Declare;
        }
    }

    pub(crate) fn won_bid(&self) -> Bid {
        self.highest.unwrap_or(Bid::LOWEST)
    }

    /// The contracts the declarer may name (R4.3): from the winning bid up; after 9WT a nine
    /// not below his own highest nine of the auction, any nine if he bid none (R4.6).
    pub(crate) fn declare_range(&self) -> (Bid, Bid) {
        let bid = self.won_bid();
        if !bid.is_nine_no_talon() {
            return (bid, Bid::HIGHEST);
        }
        let from = self
            .own_nine(self.declarer)
            .and_then(|s| Contract::new(9, s))
            .map_or(Bid::lowest_of_level(9), Contract::bid);
        let nine_nt = Contract::new(9, Strain::NoTrump).map_or(Bid::HIGHEST, Contract::bid);
        (from, nine_nt)
    }

    pub(crate) fn check_declare(&self, contract: Contract) -> Result<(), RuleError> {
        let bid = self.won_bid();
        if bid.is_nine_no_talon() {
            let (from, to) = self.declare_range();
            return if (from..=to).contains(&contract.bid()) {
                Ok(())
            } else {
                let lowest = from.contract().unwrap_or(contract);
                Err(RuleError::NineNoTalonContract { contract, lowest })
            };
        }
        if contract.bid() < bid {
            Err(RuleError::ContractBelowBid { contract, bid })
        } else {
            Ok(())
        }
    }

    pub(crate) fn do_declare(&mut self, contract: Contract, events: &mut Events) {
        self.contract = Some(contract);
        events.push(Event::Declared {
            seat: self.declarer,
            contract,
        });
        if contract.level() == 10 && !self.rules.has(Rules::TEN_WHISTED) {
            // R5.6: an unwhisted ten is played at once, each defender with his own hand.
            self.start_play(events);
        } else {
            self.stage = Stage::Whist;
            self.turn = self.next_seat(self.declarer);
        }
    }

    /// Whether Stalingrad binds this contract (R5.7).
    pub(crate) fn stalingrad_binds(&self) -> bool {
        self.rules.has(Rules::STALINGRAD)
            && self
                .contract
                .is_some_and(|c| c.level() == 6 && c.strain() == Strain::Spades)
    }

    /// Whether the declarer may surrender now (R4.5); the stage and turn are checked before.
    pub(crate) fn check_surrender(&self) -> Result<(), RuleError> {
        let max = self.rules.surrender_max_level();
        let level = self.won_bid().contract().map_or(0, |c| c.level());
        if self.rules.surrender() == 0 {
            Err(RuleError::Surrender(SurrenderBar::Disabled))
        } else if self.kind == Kind::Misere {
            Err(RuleError::Surrender(SurrenderBar::Misere))
        } else if self.won_bid().is_no_talon() {
            Err(RuleError::Surrender(SurrenderBar::NoTalon))
        } else if level > max {
            Err(RuleError::Surrender(SurrenderBar::Level { level, max }))
        } else {
            Ok(())
        }
    }

    /// R4.5: the deal ends at once, with no whist decision and no play.
    pub(crate) fn do_surrender(&mut self, events: &mut Events) {
        self.surrendered = true;
        if let Some(bid) = self.won_bid().contract() {
            events.push(Event::Surrendered {
                seat: self.declarer,
                bid,
            });
        }
        self.finish(events);
    }
}
