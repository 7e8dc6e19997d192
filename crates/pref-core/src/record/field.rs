//! The checks of one field of a record, each failing with the [`Reason`] the spec words:
//! a key that must be there, keys that may not, a seat, a card, a list of cards.

use serde_json::{Map, Value};

use super::Reason;
use super::error::Result;
use crate::bid::Seat;
use crate::card::Card;

pub(super) fn wrong(key: &'static str, expected: &'static str) -> Reason {
    Reason::WrongType { key, expected }
}

pub(super) fn need<'a>(
    obj: &'a Map<String, Value>,
    key: &'static str,
) -> Result<&'a Value, Reason> {
    obj.get(key).ok_or(Reason::Missing(key))
}

pub(super) fn known_keys(obj: &Map<String, Value>, known: &[&str]) -> Result<(), Reason> {
    match obj.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => Err(Reason::UnknownKey(k.clone())),
        None => Ok(()),
    }
}

pub(super) fn read_seat(v: &Value, key: &'static str, players: u8) -> Result<Seat, Reason> {
    let n = v.as_u64().ok_or(wrong(key, "a seat number"))?;
    if n >= u64::from(players) {
        return Err(Reason::Seat(n));
    }
    Ok(Seat(n as u8))
}

/// Reads a card in the record form: rank `7 8 9 T J Q K A` (or `10`) then suit `S C D H`.
pub(super) fn read_card(v: &Value) -> Result<Card, Reason> {
    let Value::String(s) = v else {
        return Err(Reason::UnknownCard(v.to_string()));
    };
    match s.parse::<Card>() {
        Ok(c) if c.to_string() == *s || format!("10{}", c.suit().letter()) == *s => Ok(c),
        _ => Err(Reason::UnknownCard(s.clone())),
    }
}

pub(super) fn read_cards(
    v: &Value,
    key: &'static str,
    expected: &'static str,
) -> Result<Vec<Card>, Reason> {
    let Value::Array(items) = v else {
        return Err(wrong(key, expected));
    };
    items.iter().map(read_card).collect()
}
