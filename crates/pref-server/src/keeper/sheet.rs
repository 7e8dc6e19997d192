//! One scorekeeping sheet as a value: its header (profile, names, first dealer), the deals
//! in outcome form and the agreed stop, and the [`KeeperView`] they score to.
//!
//! The sheet is always scored as a whole `pref-record/1` record by the rules core
//! ([`Record::read`]): a correction or a deletion of an early deal re-scores every deal
//! after it exactly as `pref replay` would, and a change the rules refuse is refused with
//! the record's own words and the rule, the deal counted from 1 as the form shows it
//! (`deal 4: half-whist is only against 6 and 7, not 8 (R5.2)`).
//! Each deal carries the lines the core wrote for it (`Game::scores`): the sentence per
//! sheet entry. Nothing here does I/O; `keeper/mod.rs` stores each change before it is applied here
//! for good.

use pref_core::{Contract, Game, Location, Profile, Record, RecordDeal, RecordError, Seat, Strain};
use pref_protocol::{
    KeeperChange, KeeperDeal, KeeperLine, KeeperNext, KeeperOp, KeeperView, LineView, Settlement,
    SheetView,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// What a sheet is opened with and never changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Header {
    /// The profile as requested (a preset name or `{"preset": …, …}`).
    pub(crate) profile: Value,
    /// The players' names, index = seat.
    pub(crate) names: Vec<String>,
    /// The dealer of the first deal.
    pub(crate) first_dealer: u8,
}

/// Why a change is refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SheetError {
    /// The rules refuse the sheet the change would make (the record's message).
    #[error("{0}")]
    Rule(String),
    /// There is no such deal (its index; the message counts from 1, as the form does).
    #[error("there is no deal {} on the sheet", .0 + 1)]
    NoDeal(usize),
    /// The players agreed to stop: no deal can be entered until the stop is taken back.
    #[error("the players agreed to stop; take the stop back to enter a deal")]
    Stopped,
    /// An agreed stop once every pool is closed.
    #[error("the game is over: every pool is closed (R9.4)")]
    Over,
    /// A limit of the server's settings.
    #[error("{0}")]
    Limit(String),
}

/// The deals and the stop, as the changes so far leave them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Deals {
    /// Each deal's outcome, as the record writes it.
    pub(crate) outcomes: Vec<Value>,
    /// Stopped by agreement (R10.3).
    pub(crate) agreed: bool,
}

impl Deals {
    /// The deals after `op`, or why `op` cannot be applied. `was` fields of a correction or
    /// deletion are not checked: they are filled in by [`Deals::complete`].
    pub(crate) fn after(&self, op: &KeeperOp) -> Result<Deals, SheetError> {
        let mut next = self.clone();
        match op {
            KeeperOp::Import { deals, agreed } => {
                next.outcomes.clone_from(deals);
                next.agreed = *agreed;
            }
            KeeperOp::Add { outcome } => {
                if self.agreed {
                    return Err(SheetError::Stopped);
                }
                next.outcomes.push(outcome.clone());
            }
            KeeperOp::Correct { index, outcome, .. } => {
                *next
                    .outcomes
                    .get_mut(*index)
                    .ok_or(SheetError::NoDeal(*index))? = outcome.clone();
            }
            KeeperOp::Delete { index, .. } => {
                if *index >= next.outcomes.len() {
                    return Err(SheetError::NoDeal(*index));
                }
                next.outcomes.remove(*index);
            }
            KeeperOp::Stop { agreed } => next.agreed = *agreed,
        }
        Ok(next)
    }

    /// `op` with the outcome a correction or a deletion replaces written into `was`.
    pub(crate) fn complete(&self, op: KeeperOp) -> KeeperOp {
        let was = |i: usize| self.outcomes.get(i).cloned().unwrap_or(Value::Null);
        match op {
            KeeperOp::Correct { index, outcome, .. } => KeeperOp::Correct {
                index,
                was: was(index),
                outcome,
            },
            KeeperOp::Delete { index, .. } => KeeperOp::Delete {
                index,
                was: was(index),
            },
            other @ (KeeperOp::Import { .. } | KeeperOp::Add { .. } | KeeperOp::Stop { .. }) => {
                other
            }
        }
    }
}

/// A sheet scored by the rules core.
#[derive(Debug)]
pub(crate) struct Scored {
    /// The record of the sheet.
    pub(crate) record: Record,
    /// The game it replays to.
    pub(crate) game: Game,
    /// Each deal as the view shows it.
    pub(crate) deals: Vec<KeeperDeal>,
}

/// The record text of `header` with `deals`.
pub(crate) fn record_text(header: &Header, deals: &Deals) -> String {
    let mut doc = json!({
        "format": pref_core::record::FORMAT,
        "profile": header.profile,
        "players": header.names,
        "first_dealer": header.first_dealer,
        "deals": deals.outcomes.iter().map(|o| json!({"outcome": o})).collect::<Vec<_>>(),
    });
    if deals.agreed {
        doc["stop"] = json!("agreed");
    }
    doc.to_string()
}

/// The words of a record's refusal as the sheet says them: the deal counted from 1, as the
/// sheet and its form number deals (`deal 4: the tricks add up to 9, not 10 (R6.1)`; the
/// record format's own messages count from 0), then the reason with its rule.
pub(crate) fn refusal(e: &RecordError) -> String {
    match e.location {
        Location::Record => e.reason.to_string(),
        Location::Deal(deal) | Location::Action { deal, .. } => {
            format!("deal {}: {}", deal + 1, e.reason)
        }
    }
}

/// Scores `deals` under `header` as the record they make.
///
/// # Errors
/// [`SheetError::Rule`] with the record's message when the rules refuse a deal;
/// [`SheetError::Over`] for an agreed stop after the last pool closed.
pub(crate) fn score(header: &Header, deals: &Deals) -> Result<Scored, SheetError> {
    let (record, game) =
        Record::read(&record_text(header, deals)).map_err(|e| SheetError::Rule(refusal(&e)))?;
    if deals.agreed && game.is_over() {
        return Err(SheetError::Over);
    }
    let view_deals = record
        .deals()
        .iter()
        .zip(game.history())
        .zip(game.scores())
        .map(|((deal, entry), score)| KeeperDeal {
            dealer: entry.dealer().0,
            outcome: outcome_value(deal),
            made: entry.outcome().and_then(pref_core::Outcome::made),
            sheet: SheetView::of(&score.sheet),
            lines: (score.lines.iter())
                .map(|&line| KeeperLine {
                    line,
                    rule: line.rule().to_owned(),
                })
                .collect(),
        })
        .collect();
    Ok(Scored {
        record,
        game,
        deals: view_deals,
    })
}

/// A deal's outcome as the record writes it (`Null` for a played deal, which a sheet never
/// holds: its deals are entered or imported in outcome form).
fn outcome_value(deal: &RecordDeal) -> Value {
    serde_json::from_str::<Value>(&deal.to_json_string())
        .ok()
        .and_then(|v| v.get("outcome").cloned())
        .unwrap_or(Value::Null)
}

/// The whole view of a scored sheet.
pub(crate) fn view(
    header: &Header,
    deals: &Deals,
    scored: Scored,
    history: &[KeeperChange],
) -> KeeperView {
    let game = &scored.game;
    let profile = game.profile();
    let settlement = if game.is_over() {
        game.settlement().map(|b| settlement(false, &b, Vec::new()))
    } else if deals.agreed {
        let stop = LineView::all(&game.sheet().agreed_stop_lines(profile));
        Some(settlement(true, &game.agreed_settlement(), stop))
    } else {
        None
    };
    KeeperView {
        version: history.last().map_or(0, |c| c.version),
        players: profile.players(),
        names: header.names.clone(),
        profile: profile.to_json(),
        first_dealer: header.first_dealer,
        sheet: SheetView::of(game.sheet()),
        next: (settlement.is_none()).then(|| next(profile, game.dealer())),
        settlement,
        deals: scored.deals,
        history: history.to_vec(),
    }
}

/// The settlement as the online tables send it; `stop` holds an agreed stop's R10.3 charges.
fn settlement<T: ToString>(agreed: bool, balance: &[T], stop: Vec<LineView>) -> Settlement {
    Settlement {
        agreed,
        balance: balance.iter().map(ToString::to_string).collect(),
        stop,
    }
}

/// The choices the house profile allows for the next deal, dealt by `dealer`.
pub(crate) fn next(profile: &Profile, dealer: Seat) -> KeeperNext {
    let players = profile.players();
    let four = players == 4;
    let contracts = (6..=10)
        .flat_map(|level| {
            Strain::ALL
                .iter()
                .filter_map(move |&s| Contract::new(level, s))
        })
        .map(|c| c.to_string())
        .collect();
    KeeperNext {
        dealer: dealer.0,
        active: (0..players).filter(|&s| !(four && s == dealer.0)).collect(),
        contracts,
        half_whist_levels: if profile.half_whist() {
            vec![6, 7]
        } else {
            Vec::new()
        },
        ten_whisted: profile.ten_whisted(),
        stalingrad: profile.stalingrad(),
        dealer_whist: four && profile.dealer_whist(),
        talon_units: four && profile.talon_bonus(),
        surrender_max_level: (profile.surrender() > 0).then(|| profile.surrender_max_level()),
        dark: profile.dark_games(),
        no_talon: profile.misere_without_talon(),
        tricks_total: 10,
    }
}

#[cfg(test)]
mod counted_from_one {
    use super::SheetError;

    #[test]
    fn a_missing_deal_is_named_as_the_form_numbers_it() {
        // Index 3 is the form's "Deal 4".
        assert_eq!(
            SheetError::NoDeal(3).to_string(),
            "there is no deal 4 on the sheet"
        );
    }
}
