//! A practice table in the machine: its mark (never rated; its summary and record say so)
//! and the hints each seat asked for per deal, and the checks of a hint request. What the
//! request gets is the seat's own view of the deal, its legal actions and the deal's
//! events projected for the seat: exactly what the seat's bot would be given, never the
//! deal itself, so a hint cannot read a card the seat does not see.

use std::collections::BTreeMap;

use pref_core::{ActionList, DealView, Record, Seat, Stage as DealStage, ViewEvent, Viewer};

use super::{Machine, Stage, TableError};
use crate::ids::Secret;

/// Per deal number, the hints each seat asked for (index = seat).
pub(crate) type Hints = BTreeMap<u32, [u32; 4]>;

/// What a hint is worked out from: the seat's view and nothing else.
#[derive(Clone, Debug)]
pub struct HintTurn {
    /// The seat asking, to act now.
    pub seat: Seat,
    /// The deal.
    pub deal_no: u32,
    /// The seat's view of the deal.
    pub view: DealView,
    /// The seat's legal actions.
    pub legal: ActionList,
    /// The deal's events as the seat saw them.
    pub events: Vec<ViewEvent>,
    /// Consecutive raspasy deals before this one (the game's count).
    pub raspasy_before: u32,
    /// Hints the seat has asked for in this deal before this one.
    pub used: u32,
}

impl Machine {
    /// Makes the table a practice table with the hints counted so far.
    pub(crate) fn set_practice(&mut self, hints: Hints) {
        self.practice = Some(hints);
    }

    /// Whether this is a practice table.
    #[must_use]
    pub(crate) fn practice(&self) -> bool {
        self.practice.is_some()
    }

    /// Counts one more hint for `seat` in deal `deal_no` (after it is stored).
    pub(crate) fn count_hint(&mut self, deal_no: u32, seat: Seat) {
        if let Some(hints) = &mut self.practice {
            hints.entry(deal_no).or_insert([0; 4])[seat.index().min(3)] += 1;
        }
    }

    /// The seat's turn to hint at, as `viewer` holding `token` at `version` asks for it.
    ///
    /// # Errors
    /// [`TableError::SeatLost`] for a token that no longer holds the seat,
    /// [`TableError::NotSeated`] for a spectator, [`TableError::NotPractice`] at another
    /// table, [`TableError::NoDeal`] (and [`TableError::Over`], [`TableError::NotStarted`])
    /// without a deal in progress, a stale or future version, [`TableError::NotYourTurn`]
    /// when another seat is to act, [`TableError::NoHint`] outside card play or with one
    /// legal card, [`TableError::HintsSpent`] once the seat has asked `per_deal` hints in
    /// this deal.
    pub(crate) fn hint_turn(
        &self,
        viewer: Viewer,
        token: Option<&Secret>,
        version: u64,
        per_deal: u32,
    ) -> Result<HintTurn, TableError> {
        let Viewer::Seat(seat) = viewer else {
            return Err(TableError::NotSeated);
        };
        if !self.holds(viewer, token) {
            return Err(TableError::SeatLost);
        }
        let Some(hints) = &self.practice else {
            return Err(TableError::NotPractice);
        };
        let (game, deal_no) = match &self.stage {
            Stage::Playing { game, deal_no, .. } => (game, *deal_no),
            Stage::Over { .. } => return Err(TableError::Over),
            Stage::Lobby => return Err(TableError::NotStarted),
            Stage::BetweenDeals { .. } => return Err(TableError::NoDeal),
        };
        let deal = game.deal().ok_or(TableError::NoDeal)?;
        self.check_version(version)?;
        if deal.to_act() != Some(seat) {
            return Err(TableError::NotYourTurn(format!(
                "a hint is for the player to act; seat {} is not",
                seat.0
            )));
        }
        let view = deal.view(Viewer::Seat(seat));
        let legal = deal.legal_actions_for(seat);
        let cards = legal
            .iter()
            .filter(|a| matches!(a, pref_core::Action::Play(_)))
            .count();
        if view.stage != DealStage::Play || cards < 2 {
            return Err(TableError::NoHint);
        }
        let used = hints.get(&deal_no).map_or(0, |h| h[seat.index().min(3)]);
        if used >= per_deal {
            return Err(TableError::HintsSpent(per_deal));
        }
        let seen = self.deal_viewer(viewer, deal_no);
        let players = self.players();
        Ok(HintTurn {
            seat,
            deal_no,
            events: game
                .deal_events()
                .iter()
                .map(|e| e.project(seen, players))
                .collect(),
            view,
            legal,
            raspasy_before: game.raspasy_streak(),
            used,
        })
    }

    /// `record` with the practice mark and each finished deal's hint counts, at a practice
    /// table; unchanged at any other.
    ///
    /// # Errors
    /// A message if the record refuses a count (a bug).
    pub(super) fn with_hints(&self, record: Record) -> Result<Record, String> {
        let Some(hints) = &self.practice else {
            return Ok(record);
        };
        let mut record = record.with_practice(true);
        let players = usize::from(self.players());
        let finished = record.deals().len();
        for (&deal, counts) in hints {
            let deal = deal as usize;
            if deal < finished {
                record
                    .set_hints(deal, counts[..players].to_vec())
                    .map_err(|e| e.to_string())?;
            }
        }
        Ok(record)
    }
}
