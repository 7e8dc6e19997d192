//! Reading what a client sends, strictly. serde's derived structs and internally tagged
//! enums also accept a JSON array and read it by position (`["leningrad", true]` would be a
//! `CreateTable`, `["resync"]` a `ClientMessage`); the protocol describes objects only, so a
//! request or message is read here, refusing anything but an object at the top. Every
//! request body and socket message of the protocol is an object whose fields are strings,
//! numbers, booleans or values the core reads itself (actions, profiles), so the top is
//! where a positional reading could start. A key given twice in one object, at any depth,
//! is refused too: serde would keep the last, and two readers of one message (a proxy that
//! keeps the first, the server the last) would then read different things.

use pref_core::json::Strict;
use serde::de::DeserializeOwned;

/// Why a request or message was not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Not JSON at all.
    #[error("not JSON: {0}")]
    Json(serde_json::Error),
    /// JSON, but not an object.
    #[error("a JSON object is expected, not {0}")]
    NotObject(&'static str),
    /// An object that is not this request or message (an unknown or missing field).
    #[error("{0}")]
    Shape(serde_json::Error),
}

/// Reads `bytes` as a `T`, accepting only a JSON object.
///
/// # Errors
/// [`ReadError`] when `bytes` is not JSON, not an object, or not a `T`.
pub fn read<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ReadError> {
    // The core's strict reading: a key given twice in one object is refused at any depth.
    let Strict(value) = serde_json::from_slice(bytes).map_err(ReadError::Json)?;
    let kind = match &value {
        serde_json::Value::Object(_) => None,
        serde_json::Value::Array(_) => Some("an array"),
        serde_json::Value::String(_) => Some("a string"),
        serde_json::Value::Number(_) => Some("a number"),
        serde_json::Value::Bool(_) => Some("a boolean"),
        serde_json::Value::Null => Some("null"),
    };
    if let Some(kind) = kind {
        return Err(ReadError::NotObject(kind));
    }
    serde_json::from_value(value).map_err(ReadError::Shape)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Claim, ClientMessage, CreateTable, SeatBot};
    use serde_json::Value;

    #[test]
    fn positional_arrays_are_refused_where_serde_alone_would_read_them() {
        // serde alone reads these by position: the reason this module exists.
        assert!(serde_json::from_str::<CreateTable>(r#"["leningrad", true]"#).is_ok());
        assert!(serde_json::from_str::<ClientMessage>(r#"["resync"]"#).is_ok());
        for (text, what) in [
            (r#"["leningrad", true]"#, "create"),
            (r#"["Anna", 1]"#, "claim"),
            (r#"["easy"]"#, "bot"),
            (r#"["resync"]"#, "message"),
        ] {
            let err = match what {
                "create" => read::<CreateTable>(text.as_bytes()).map(drop),
                "claim" => read::<Claim>(text.as_bytes()).map(drop),
                "bot" => read::<SeatBot>(text.as_bytes()).map(drop),
                _ => read::<ClientMessage>(text.as_bytes()).map(drop),
            }
            .unwrap_err();
            assert!(
                matches!(err, ReadError::NotObject("an array")),
                "{text}: {err}"
            );
        }
    }

    #[test]
    fn every_client_message_with_an_unknown_field_is_refused() {
        for text in [
            r#"{"type": "action", "id": "a", "version": 1, "action": "surrender", "zzz": 1}"#,
            r#"{"type": "next_deal", "id": "n", "version": 1, "zzz": 1}"#,
            r#"{"type": "chat", "text": "hi", "zzz": 1}"#,
            r#"{"type": "resync", "zzz": 1}"#,
            r#"{"type": "score_page", "before": 10, "zzz": 1}"#,
            r#"{"type": "fair_join", "zzz": 1}"#,
            r#"{"type": "fair_commit", "id": "c", "deal_no": 0, "commitment": "00", "zzz": 1}"#,
            r#"{"type": "fair_reveal", "id": "r", "deal_no": 0, "value": "00", "zzz": 1}"#,
        ] {
            let err = read::<ClientMessage>(text.as_bytes()).unwrap_err();
            assert!(matches!(err, ReadError::Shape(_)), "{text}: {err}");
            // Without the unknown field each one reads.
            let honest = text.replace(r#", "zzz": 1"#, "");
            assert!(read::<ClientMessage>(honest.as_bytes()).is_ok(), "{honest}");
        }
        let fair_join: ClientMessage = read(br#"{"type": "fair_join"}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&fair_join).unwrap(),
            r#"{"type":"fair_join"}"#
        );
    }

    #[test]
    fn objects_read_and_other_values_are_named() {
        let m: ClientMessage = read(br#"{"type": "resync"}"#).unwrap();
        assert_eq!(m, ClientMessage::Resync {});
        let c: Claim = read(br#"{"name": "Anna", "seat": 1}"#).unwrap();
        assert_eq!(c.seat, Some(1));
        assert!(matches!(
            read::<Claim>(b"null"),
            Err(ReadError::NotObject("null"))
        ));
        assert!(matches!(
            read::<Claim>(b"\"x\""),
            Err(ReadError::NotObject("a string"))
        ));
        assert!(matches!(read::<Claim>(b"{"), Err(ReadError::Json(_))));
        assert!(matches!(
            read::<Claim>(br#"{"name": "Anna", "extra": 1}"#),
            Err(ReadError::Shape(_))
        ));
    }

    #[test]
    fn a_key_given_twice_is_refused_at_any_depth() {
        // A JSON value (what `read` goes through) keeps the last of two keys.
        let last: Value = serde_json::from_str(r#"{"name": "Anna", "name": "Boris"}"#).unwrap();
        assert_eq!(last["name"], "Boris");
        assert!(read::<Claim>(br#"{"name": "Anna", "name": "Boris"}"#).is_err());
        for text in [
            r#"{"name": "Anna", "name": "Boris"}"#,
            r#"{"type": "resync", "type": "resync"}"#,
            r#"{"type": "action", "version": 1, "action": {"bid": 1, "bid": 2}}"#,
            r#"{"profile": {"pool": [{"a": 1, "a": 1}]}}"#,
        ] {
            let err = read::<Value>(text.as_bytes()).unwrap_err();
            assert!(
                matches!(&err, ReadError::Json(e) if e.to_string().contains(r#"given twice"#)),
                "{text}: {err}"
            );
        }
        // The same key in two objects is no duplicate; numbers keep their kind.
        let v: Value = read(br#"{"a": {"k": 1}, "b": {"k": -2.5}, "c": [null, true]}"#).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"a": {"k": 1}, "b": {"k": -2.5}, "c": [null, true]})
        );
    }
}
