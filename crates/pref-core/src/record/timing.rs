//! The clock's optional per-action fields of a played deal (`docs/game-record.md`): the
//! milliseconds the player used (`ms`) and the autopilot's mark (`auto`). They change no
//! score, so they live beside the deals rather than in the actions the rules replay; a record
//! keeps them so that reading and writing it gives them back.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{Location, Reason, Record, RecordDeal, RecordError};
use crate::json::Out;

/// One action's clock fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActionTime {
    /// The milliseconds the player used, if known.
    pub ms: Option<u64>,
    /// Whether the autopilot made the action for an absent or late player.
    pub auto: bool,
}

impl ActionTime {
    fn is_empty(self) -> bool {
        self.ms.is_none() && !self.auto
    }
}

/// Per deal index, the clock fields of each of its actions (deals with none are left out).
pub(super) type TimingByDeal = BTreeMap<usize, Vec<ActionTime>>;

impl Record {
    /// The clock fields of deal `deal`'s actions (0-based), one per action, if any action
    /// of it has one.
    #[must_use]
    pub fn timing(&self, deal: usize) -> Option<&[ActionTime]> {
        self.timing.get(&deal).map(Vec::as_slice)
    }

    /// Attaches the clock fields of deal `deal`'s actions, one per action, as the server does
    /// for a table with a clock. A list without any field leaves the deal without them.
    ///
    /// # Errors
    /// At [`Location::Deal`]: [`Reason::Timing`] when the deal is not a played deal of the
    /// record or the list does not give one entry per action. The record is unchanged.
    pub fn set_timing(&mut self, deal: usize, times: Vec<ActionTime>) -> Result<(), RecordError> {
        let actions = match self.deals.get(deal) {
            Some(RecordDeal::Played { actions, .. }) => Some(actions.len()),
            Some(RecordDeal::Scored(_)) | None => None,
        };
        if actions != Some(times.len()) {
            return Err(RecordError::at(
                Location::Deal(deal),
                Reason::Timing(times.len()),
            ));
        }
        if times.iter().all(|t| t.is_empty()) {
            self.timing.remove(&deal);
        } else {
            self.timing.insert(deal, times);
        }
        Ok(())
    }
}

/// The clock fields of a played deal's raw actions (already checked by the action reader),
/// if any action has one.
pub(super) fn read_timing(raw: &Value) -> Option<Vec<ActionTime>> {
    let actions = raw.get("actions")?.as_array()?;
    let times: Vec<ActionTime> = actions
        .iter()
        .map(|a| ActionTime {
            ms: a.get("ms").and_then(Value::as_u64),
            auto: a.get("auto") == Some(&Value::Bool(true)),
        })
        .collect();
    (!times.iter().all(|t| t.is_empty())).then_some(times)
}

/// The deal as written, with each action's clock fields after its verb.
pub(super) fn with_timing_out(deal: Out, times: Option<&[ActionTime]>) -> Out {
    match (deal, times) {
        (Out::Object(mut fields), Some(times)) => {
            for (key, value) in &mut fields {
                if let ("actions", Out::List(actions)) = (key.as_str(), value) {
                    for (action, time) in actions.iter_mut().zip(times) {
                        if let Out::Object(parts) = action {
                            parts.extend(time_out(*time));
                        }
                    }
                }
            }
            Out::Object(fields)
        }
        (deal, _) => deal,
    }
}

/// An action's clock fields as written: `ms` then `auto`, each only when it says something.
fn time_out(time: ActionTime) -> Vec<(String, Out)> {
    let ms = time
        .ms
        .map(|ms| ("ms".to_owned(), Out::Raw(ms.to_string())));
    let auto = time
        .auto
        .then(|| ("auto".to_owned(), Out::Raw("true".to_owned())));
    ms.into_iter().chain(auto).collect()
}
