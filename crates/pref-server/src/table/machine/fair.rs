//! Provably fair deals at the table (`docs/fairness.md`, scheme `pref-fair/2`): the
//! contribution window that opens each deal, and the publishing of its commitments and,
//! once the deal's cards may be seen, of its seed, contributions and deck.
//!
//! A deal opens on a seed the table drew ([`FairOp::Open`]): the seed is written, then its
//! commitment published. Each seated person (bots do not contribute: their value would be
//! the server's own randomness again) sends a commitment; once all have (or the table's
//! deadline passes, [`FairOp::Deadline`]) the list is published and each reveals its value;
//! once all have (or the deadline passes again) the deck is shuffled, its commitment
//! published, and only then is the deal dealt. A table with nobody to ask deals at once.
//! A value revealed after the deck was fixed is recorded as late and left out. Every deal
//! opens under `pref-fair/2` at its place (the table's tag, given by the table, and the
//! deal's number); a deal stored under `pref-fair/1` before is restored under it.

use std::collections::{BTreeMap, BTreeSet};

use pref_core::fair::{
    Arrival, Contribution, Digest, Fairness, Place, Scheme, Seed, Shuffle, TableTag,
};
use pref_core::{Card, Record, Seat, Viewer};
use pref_protocol::{FairCommitment, FairDealt, FairRevealed, FairView, FairWindow, Public};

use super::fair_ops::{FairOp, FairWrite, Opening, StoredFair};
use super::{HostOp, Machine, Stage, TableError, Write};
use crate::table::wire::News;

mod publish;

/// The deal being opened.
#[derive(Clone, Debug)]
struct Window {
    deal_no: u32,
    scheme: Scheme,
    seed: Seed,
    /// The seated people asked to contribute.
    seats: Vec<u8>,
    commitments: BTreeMap<u8, Digest>,
    values: BTreeMap<u8, Contribution>,
    /// The commitments are published; values are being revealed.
    revealing: bool,
}

/// A dealt deal's fairness data and whether it was published.
#[derive(Clone, Debug)]
struct Dealt {
    fairness: Fairness,
    commitments: BTreeMap<u8, Digest>,
    published: bool,
}

/// The machine's fairness state.
#[derive(Clone, Debug, Default)]
pub(super) struct Fair {
    /// The table's tag, which every deal's place names (set by the table before it runs).
    table: Option<TableTag>,
    /// The seats whose clients contribute (`fair_join`); the others are not waited for.
    joined: BTreeSet<u8>,
    window: Option<Window>,
    dealt: BTreeMap<u32, Dealt>,
}

fn fair_refused(why: &str) -> TableError {
    TableError::Fair(why.to_owned())
}

impl Machine {
    /// Names the table every deal is dealt at (`pref-fair/2`): the tag of its id.
    pub(crate) fn set_fair_table(&mut self, table: TableTag) {
        self.fair.table = Some(table);
    }

    /// The scheme of deal `deal_no` at this table: `pref-fair/2` at its place, or
    /// `pref-fair/1` for a deal stored before.
    ///
    /// # Errors
    /// [`TableError::Internal`] if the table was never named.
    fn scheme(&self, deal_no: u32, placed: bool) -> Result<Scheme, TableError> {
        match (placed, self.fair.table) {
            (false, _) => Ok(Scheme::V1),
            (true, Some(table)) => Ok(Scheme::V2(Place {
                table,
                deal: deal_no,
            })),
            (true, None) => Err(super::internal("the table has no fair-deal tag")),
        }
    }

    /// The open window's deal and step (`true` once values are being revealed), for the
    /// table's deadline.
    #[must_use]
    pub(crate) fn fair_step(&self) -> Option<(u32, bool)> {
        self.fair.window.as_ref().map(|w| (w.deal_no, w.revealing))
    }

    /// Whether `seat`'s value for deal `deal_no` was recorded as late.
    #[must_use]
    pub(crate) fn fair_late(&self, deal_no: u32, seat: Seat) -> bool {
        self.fair.dealt.get(&deal_no).is_some_and(|d| {
            d.fairness
                .contributions()
                .iter()
                .any(|c| c.seat == seat && c.arrival == Arrival::Late)
        })
    }

    /// The deck of dealt deal `deal_no`, for the machine's own tests.
    #[cfg(test)]
    pub(super) fn fair_deck(&self, deal_no: u32) -> Option<[Card; 32]> {
        self.fair.dealt.get(&deal_no).map(|d| *d.fairness.deck())
    }

    /// Refuses what would change the seats or the profile under an open window.
    pub(super) fn fair_guard(&self, op: &super::Op) -> Result<(), TableError> {
        if self.fair.window.is_none() {
            return Ok(());
        }
        match op {
            super::Op::Leave { .. }
            | super::Op::Host {
                op: HostOp::Profile { .. } | HostOp::Remove(_) | HostOp::Bot { .. },
                ..
            } => Err(TableError::DealInProgress),
            super::Op::Host { .. }
            | super::Op::Claim { .. }
            | super::Op::Rejoin { .. }
            | super::Op::BotClaim { .. }
            | super::Op::Act { .. }
            | super::Op::Autopilot { .. }
            | super::Op::Watching { .. }
            | super::Op::TellSpectators
            | super::Op::Rematch { .. }
            | super::Op::ClockPaused { .. }
            | super::Op::ClockBack { .. }
            | super::Op::Stop { .. }
            | super::Op::AwayAccepts { .. }
            | super::Op::Chat { .. }
            | super::Op::Presence { .. }
            | super::Op::Fair(_) => Ok(()),
            #[cfg(test)]
            super::Op::NextDeal { .. } => Ok(()),
        }
    }

    pub(super) fn fair_op(
        &mut self,
        change: &mut super::Change,
        op: FairOp,
    ) -> Result<(), TableError> {
        match op {
            FairOp::Open {
                opening,
                seed,
                window_ms,
            } => self.open(change, opening, seed, window_ms),
            FairOp::Join { seat, token } => {
                if !self.holds(Viewer::Seat(seat), Some(&token)) {
                    return Err(TableError::SeatLost);
                }
                self.fair.joined.insert(seat.0);
                Ok(())
            }
            FairOp::Commit {
                seat,
                token,
                deal_no,
                commitment,
            } => {
                if !self.holds(Viewer::Seat(seat), Some(&token)) {
                    return Err(TableError::SeatLost);
                }
                let w = self
                    .fair
                    .window
                    .as_mut()
                    .filter(|w| w.deal_no == deal_no)
                    .ok_or_else(|| fair_refused("this deal takes no commitment now"))?;
                if w.revealing {
                    return Err(TableError::FairLate);
                }
                if !w.seats.contains(&seat.0) {
                    return Err(fair_refused("this seat is not asked to contribute"));
                }
                if w.commitments.insert(seat.0, commitment).is_some() {
                    return Err(fair_refused("this seat has committed already"));
                }
                change.writes.push(Write::Fair(FairWrite::Commit {
                    deal_no,
                    seat: seat.0,
                    commitment,
                }));
                self.advance(change)
            }
            FairOp::Reveal {
                seat,
                token,
                deal_no,
                value,
            } => {
                if !self.holds(Viewer::Seat(seat), Some(&token)) {
                    return Err(TableError::SeatLost);
                }
                self.reveal(change, seat, deal_no, value)
            }
            FairOp::Deadline { deal_no } => {
                match &self.fair.window {
                    Some(w) if w.deal_no == deal_no && !w.revealing => self.close_commits(change),
                    Some(w) if w.deal_no == deal_no => return self.close(change),
                    Some(_) | None => return Err(fair_refused("no such window")),
                }
                self.advance(change)
            }
        }
    }

    /// Checks that the deal may open, writes the seed and publishes its commitment.
    fn open(
        &mut self,
        change: &mut super::Change,
        opening: Opening,
        seed: Seed,
        window_ms: u64,
    ) -> Result<(), TableError> {
        if self.fair.window.is_some() {
            return Err(TableError::DealInProgress);
        }
        let deal_no = match (&opening, &self.stage) {
            (Opening::Start { host }, _) if !self.host.verifies(host) => {
                return Err(TableError::NotHost);
            }
            (Opening::Start { .. }, Stage::Lobby) => 0,
            (Opening::Start { .. }, Stage::Over { .. }) => return Err(TableError::Over),
            (Opening::Start { .. }, Stage::Playing { .. } | Stage::BetweenDeals { .. }) => {
                return Err(TableError::Started);
            }
            (Opening::Rematch, Stage::Lobby) if self.rematch_lobby => 0,
            (Opening::Rematch, Stage::Lobby) => return Err(TableError::NotHost),
            (Opening::Rematch, Stage::Over { .. }) => return Err(TableError::Over),
            (Opening::Rematch, Stage::Playing { .. } | Stage::BetweenDeals { .. }) => {
                return Err(TableError::Started);
            }
            (Opening::NextDeal { seat, token, .. }, _)
                if !self.holds(Viewer::Seat(*seat), Some(token)) =>
            {
                return Err(TableError::SeatLost);
            }
            (Opening::NextDeal { .. }, Stage::BetweenDeals { .. }) if self.stop.is_some() => {
                return Err(TableError::StopPending);
            }
            (Opening::NextDeal { version, .. }, Stage::BetweenDeals { deals, .. }) => {
                self.check_version(*version)?;
                *deals
            }
            (Opening::NextDeal { .. }, Stage::Over { .. }) => return Err(TableError::Over),
            (Opening::NextDeal { .. }, Stage::Lobby) => return Err(TableError::NotStarted),
            (Opening::NextDeal { .. }, Stage::Playing { .. }) => {
                return Err(TableError::DealInProgress);
            }
        };
        if (0..self.players()).any(|s| self.occupant(s).is_none()) {
            return Err(TableError::SeatsFree);
        }
        let seats: Vec<u8> = (0..self.players())
            .filter(|&s| self.fair.joined.contains(&s))
            .collect();
        let scheme = self.scheme(deal_no, true)?;
        change.writes.push(Write::Fair(FairWrite::Seed {
            deal_no,
            seed,
            scheme,
        }));
        let news = Public::FairSeed {
            deal_no,
            seed_commitment: seed.commitment(&scheme).to_string(),
            seats: seats.clone(),
            window_ms,
        };
        self.publish(change, News::Public(news));
        self.fair.window = Some(Window {
            deal_no,
            scheme,
            seed,
            seats,
            commitments: BTreeMap::new(),
            values: BTreeMap::new(),
            revealing: false,
        });
        self.advance(change)
    }

    /// Moves the window on as far as what it holds allows: nobody to ask deals at once;
    /// every commitment in publishes the list; every value in deals.
    fn advance(&mut self, change: &mut super::Change) -> Result<(), TableError> {
        let Some(w) = &self.fair.window else {
            return Ok(());
        };
        if w.seats.is_empty() {
            return self.close(change);
        }
        if !w.revealing && w.commitments.len() == w.seats.len() {
            self.close_commits(change);
        }
        match &self.fair.window {
            Some(w) if w.revealing && w.values.len() == w.commitments.len() => self.close(change),
            Some(_) | None => Ok(()),
        }
    }

    /// Publishes the commitments received: values may be revealed from now on.
    fn close_commits(&mut self, change: &mut super::Change) {
        let Some(w) = &mut self.fair.window else {
            return;
        };
        w.revealing = true;
        let deal_no = w.deal_no;
        let commitments = w
            .commitments
            .iter()
            .map(|(&seat, c)| FairCommitment {
                seat,
                commitment: c.to_string(),
            })
            .collect();
        change
            .writes
            .push(Write::Fair(FairWrite::CommitsClosed { deal_no }));
        let news = Public::FairCommitments {
            deal_no,
            commitments,
        };
        self.publish(change, News::Public(news));
    }

    /// Fixes the deck from the seed and the values in, publishes its commitment, and deals.
    fn close(&mut self, change: &mut super::Change) -> Result<(), TableError> {
        let w = self
            .fair
            .window
            .take()
            .ok_or_else(|| fair_refused("no window"))?;
        let mut shuffle = Shuffle::new(w.scheme, w.seed);
        for (&seat, &value) in &w.values {
            shuffle
                .contribute(Seat(seat), value, Arrival::InTime)
                .map_err(super::internal)?;
        }
        let fairness = shuffle.finish();
        let deck: [Card; 32] = *fairness.deck();
        let news = Public::FairDeck {
            deal_no: w.deal_no,
            deck_commitment: fairness.deck_commitment().to_string(),
            seats: fairness.in_deck().map(|s| s.0).collect(),
        };
        self.publish(change, News::Public(news));
        if matches!(self.stage, Stage::Lobby) {
            self.host_op(change, HostOp::Start { deck })?;
        } else {
            self.next_deal(change, self.version, &deck)?;
        }
        let dealt = Dealt {
            fairness,
            commitments: w.commitments,
            published: false,
        };
        self.fair.dealt.insert(w.deal_no, dealt);
        Ok(())
    }

    /// A seat's value: in the window once the commitments are published, or late once the
    /// deck is fixed and before the deal's values are published.
    fn reveal(
        &mut self,
        change: &mut super::Change,
        seat: Seat,
        deal_no: u32,
        value: Contribution,
    ) -> Result<(), TableError> {
        let matches = |c: Option<&Digest>| match c {
            None => Err(fair_refused("this seat has no commitment for this deal")),
            Some(c) if *c != value.commitment(seat) => Err(fair_refused(
                "the value does not match the seat's commitment",
            )),
            Some(_) => Ok(()),
        };
        if let Some(w) = self.fair.window.as_mut().filter(|w| w.deal_no == deal_no) {
            if !w.revealing {
                return Err(fair_refused(
                    "values are revealed once every commitment is in",
                ));
            }
            matches(w.commitments.get(&seat.0))?;
            if w.values.insert(seat.0, value).is_some() {
                return Err(fair_refused("this seat has revealed already"));
            }
            change.writes.push(Write::Fair(FairWrite::Value {
                deal_no,
                seat: seat.0,
                value,
                late: false,
            }));
            return self.advance(change);
        }
        let d = self
            .fair
            .dealt
            .get_mut(&deal_no)
            .filter(|d| !d.published)
            .ok_or_else(|| fair_refused("this deal takes no value now"))?;
        matches(d.commitments.get(&seat.0))?;
        d.fairness = d
            .fairness
            .with_late(seat, value)
            .map_err(|_| fair_refused("this seat has revealed already"))?;
        change.writes.push(Write::Fair(FairWrite::Value {
            deal_no,
            seat: seat.0,
            value,
            late: true,
        }));
        Ok(())
    }
}
