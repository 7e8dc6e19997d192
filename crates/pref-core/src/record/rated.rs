//! A rated game's mark in a record (`docs/game-record.md`, `docs/ratings.md`): the
//! top-level `"rated"` naming the rating family the game counted in. Like the practice mark
//! it changes no score; it is optional, so records written before it (and every unrated
//! game's) read as unrated.

use serde_json::{Map, Value};

use super::Reason;
use super::Record;
use super::field::wrong;

/// The rating families a record may name.
pub(super) const FAMILIES: [&str; 4] = ["sochi", "leningrad", "rostov", "four"];

impl Record {
    /// The rating family the game was rated in; `None` for an unrated game.
    #[must_use]
    pub fn rated(&self) -> Option<&str> {
        self.rated.as_deref()
    }

    /// Marks the record as a rated game's, in `family` (one of [`FAMILIES`]; `None`:
    /// unrated).
    #[must_use]
    pub fn with_rated(mut self, family: Option<&str>) -> Record {
        self.rated = family.map(str::to_owned);
        self
    }
}

/// The top-level `rated` key: absent or a family's name.
pub(super) fn read_rated(doc: &Map<String, Value>) -> Result<Option<String>, Reason> {
    match doc.get("rated") {
        None => Ok(None),
        Some(Value::String(s)) if FAMILIES.contains(&s.as_str()) => Ok(Some(s.clone())),
        Some(_) => Err(wrong(
            "rated",
            "a rating family: \"sochi\", \"leningrad\", \"rostov\" or \"four\" (or no key)",
        )),
    }
}

#[cfg(test)]
mod tests {
    use crate::record::Record;

    const WORKED: &str = include_str!("../../../../tests/records/worked-deal.json");

    /// A rated record keeps its family through writing and reading; an unrated one writes
    /// no key, and an unknown family is refused.
    #[test]
    fn a_rated_mark_reads_back_and_an_unrated_record_has_none() {
        let record = Record::from_json_str(WORKED).expect("the worked deal");
        assert_eq!(record.rated(), None);
        assert!(!record.to_json_string().contains("\"rated\""));
        let rated = record.clone().with_rated(Some("sochi"));
        let text = rated.to_json_string();
        assert!(text.contains("\"rated\": \"sochi\""), "{text}");
        let back = Record::from_json_str(&text).expect("reads back");
        assert_eq!(back.rated(), Some("sochi"));
        assert_eq!(back, rated);
        let bad = text.replace("\"rated\": \"sochi\"", "\"rated\": \"blitz\"");
        assert!(Record::from_json_str(&bad).is_err());
    }
}
