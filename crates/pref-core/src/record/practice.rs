//! A practice table's marks in a record (`docs/game-record.md`): the top-level
//! `"practice": true` and, per played deal, `"hints"`: how many hints each seat asked for in
//! that deal. They change no score (a practice game is never rated), so like the clock's
//! fields they live beside the deals, and a record keeps them so that reading and writing it
//! gives them back.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::field::wrong;
use super::{Location, Reason, Record, RecordDeal, RecordError};
use crate::json::Out;

/// Per deal index, the hints each seat asked for (deals without any are left out).
pub(super) type HintsByDeal = BTreeMap<usize, Vec<u32>>;

impl Record {
    /// Whether the game was played at a practice table (hints allowed, never rated).
    #[must_use]
    pub fn practice(&self) -> bool {
        self.practice
    }

    /// Marks the record as a practice table's.
    #[must_use]
    pub fn with_practice(mut self, practice: bool) -> Record {
        self.practice = practice;
        self
    }

    /// The hints each seat asked for in deal `deal` (0-based), if any seat asked one.
    #[must_use]
    pub fn hints(&self, deal: usize) -> Option<&[u32]> {
        self.hints.get(&deal).map(Vec::as_slice)
    }

    /// Attaches the hints each seat asked for in deal `deal`, one count per seat. A list of
    /// zeros leaves the deal without them.
    ///
    /// # Errors
    /// At [`Location::Deal`]: [`Reason::Hints`] when the record is not a practice record,
    /// the deal is not a played deal of the record or the list does not give one count per
    /// seat. The record is unchanged.
    pub fn set_hints(&mut self, deal: usize, hints: Vec<u32>) -> Result<(), RecordError> {
        let played = matches!(self.deals.get(deal), Some(RecordDeal::Played { .. }));
        if !self.practice || !played || hints.len() != usize::from(self.profile.players()) {
            return Err(RecordError::at(Location::Deal(deal), Reason::Hints));
        }
        if hints.iter().all(|&n| n == 0) {
            self.hints.remove(&deal);
        } else {
            self.hints.insert(deal, hints);
        }
        Ok(())
    }
}

/// The top-level `practice` key: absent or `true`.
pub(super) fn read_practice(doc: &Map<String, Value>) -> Result<bool, Reason> {
    match doc.get("practice") {
        None => Ok(false),
        Some(Value::Bool(true)) => Ok(true),
        Some(_) => Err(wrong("practice", "true (or no key)")),
    }
}

/// A played deal's `hints`: one whole number per seat, at a practice table only, and not
/// all zero.
pub(super) fn read_hints(
    raw: &Value,
    practice: bool,
    players: u8,
) -> Result<Option<Vec<u32>>, Reason> {
    let Some(v) = raw.get("hints") else {
        return Ok(None);
    };
    let counts: Option<Vec<u32>> = v.as_array().and_then(|items| {
        items
            .iter()
            .map(|n| n.as_u64().and_then(|n| u32::try_from(n).ok()))
            .collect()
    });
    match counts {
        Some(c) if practice && c.len() == usize::from(players) && c.iter().any(|&n| n > 0) => {
            Ok(Some(c))
        }
        _ => Err(Reason::Hints),
    }
}

/// The deal as written, with its `hints` last when it has any.
pub(super) fn with_hints_out(deal: Out, hints: Option<&[u32]>) -> Out {
    match (deal, hints) {
        (Out::Object(mut fields), Some(hints)) => {
            fields.push((
                "hints".to_owned(),
                Out::List(hints.iter().map(|n| Out::Raw(n.to_string())).collect()),
            ));
            Out::Object(fields)
        }
        (deal, _) => deal,
    }
}

#[cfg(test)]
mod tests {
    use crate::record::{Location, Reason, Record};

    const WORKED: &str = include_str!("../../../../tests/records/worked-deal.json");

    /// A practice record keeps its mark and each deal's hints through writing and reading.
    #[test]
    fn practice_marks_and_hints_read_back() {
        let record = Record::from_json_str(WORKED).expect("the worked deal");
        assert!(!record.practice());
        let mut practice = record.clone().with_practice(true);
        practice.set_hints(0, vec![0, 2, 1]).expect("three seats");
        let text = practice.to_json_string();
        assert!(text.contains("\"practice\": true"), "{text}");
        assert!(text.contains("\"hints\": [0, 2, 1]"), "{text}");
        let back = Record::from_json_str(&text).expect("reads back");
        assert!(back.practice());
        assert_eq!(back.hints(0), Some(&[0, 2, 1][..]));
        assert_eq!(back, practice);
        // Without the marks the record is written as before.
        assert!(!record.to_json_string().contains("practice"));
    }

    /// Hints only at a practice table, one count per seat, never all zero; the record is
    /// unchanged by a refused list.
    #[test]
    fn hints_are_checked() {
        let record = Record::from_json_str(WORKED).expect("the worked deal");
        let mut rated = record.clone();
        let err = rated.set_hints(0, vec![1, 0, 0]).expect_err("not practice");
        assert_eq!(err.location, Location::Deal(0));
        assert_eq!(err.reason, Reason::Hints);
        let mut practice = record.with_practice(true);
        assert!(practice.set_hints(0, vec![1, 0]).is_err());
        assert!(practice.set_hints(1, vec![1, 0, 0]).is_err());
        assert_eq!(practice.hints(0), None);
        let text = practice.to_json_string();
        let bad = |from: &str, to: &str| {
            let t = text.replacen(from, to, 1);
            assert_ne!(t, text, "{from}");
            Record::from_json_str(&t).expect_err(to).reason
        };
        assert_eq!(
            bad("\"practice\": true", "\"practice\": false"),
            Reason::WrongType {
                key: "practice",
                expected: "true (or no key)"
            }
        );
        let with_hints =
            |h: &str| text.replacen("\"talon\":", &format!("\"hints\": {h}, \"talon\":"), 1);
        for h in ["[0, 0, 0]", "[1, 2]", "[-1, 0, 0]", "\"1\""] {
            let err = Record::from_json_str(&with_hints(h)).expect_err(h);
            assert_eq!(err.reason, Reason::Hints, "{h}");
        }
        assert!(Record::from_json_str(&with_hints("[0, 3, 0]")).is_ok());
        let rated = with_hints("[0, 3, 0]").replacen(",\n  \"practice\": true", "", 1);
        assert!(!rated.contains("practice"), "{rated}");
        assert_eq!(
            Record::from_json_str(&rated).expect_err("rated").reason,
            Reason::Hints
        );
    }
}
