//! How each option's value is read from raw JSON (TOML is turned into JSON first), checked
//! and written back: one [`Field`] implementation per Rust type an option can have, so the
//! option table in `profile.rs` names a key, its type and its allowed values once.

use serde_json::Value;

use super::{DealerWhistConsolation, ProfileError, RaspasySeries, RaspasyTalon, ZeroBonus};
use super::{Responsibility, WhistSplit};

/// What an option allows, as messages say it, and the check for its integers.
pub(super) struct Spec {
    /// The allowed values in words (`"3 or 4"`).
    pub(super) allowed: &'static str,
    /// Whether an integer (or each integer of a list) is allowed.
    pub(super) ok: fn(u64) -> bool,
}

impl Spec {
    /// A spec for a type whose values are all named by `allowed` (booleans, words).
    pub(super) const fn words(allowed: &'static str) -> Spec {
        Spec {
            allowed,
            ok: |_| true,
        }
    }
}

/// A type an option's value can have.
pub(super) trait Field: Sized {
    /// What the getter returns.
    type Out<'a>
    where
        Self: 'a;
    /// The value as the getter returns it.
    fn get(&self) -> Self::Out<'_>;
    /// Reads and checks a raw value for option `key`.
    fn read(key: &str, v: &Value, spec: &Spec) -> Result<Self, ProfileError>;
    /// The value as profiles and records write it.
    fn write(&self) -> Value;
}

pub(super) fn wrong_type(key: &str, expected: &'static str) -> ProfileError {
    ProfileError::WrongType {
        key: key.to_owned(),
        expected,
    }
}

fn out_of_range(key: &str, v: &Value, allowed: &'static str) -> ProfileError {
    ProfileError::OutOfRange {
        key: key.to_owned(),
        value: v.to_string(),
        allowed,
    }
}

/// An integer the spec allows; a negative number is out of range, a fraction the wrong type.
fn int(key: &str, v: &Value, spec: &Spec) -> Result<u64, ProfileError> {
    let n = match v {
        Value::Number(n) if n.is_u64() => n.as_u64().unwrap_or(0),
        Value::Number(n) if n.is_i64() => return Err(out_of_range(key, v, spec.allowed)),
        _ => return Err(wrong_type(key, "an integer")),
    };
    if (spec.ok)(n) {
        Ok(n)
    } else {
        Err(out_of_range(key, v, spec.allowed))
    }
}

/// A non-empty list of at most 16 integers the spec allows.
fn list(key: &str, v: &Value, spec: &Spec) -> Result<Vec<u64>, ProfileError> {
    let items = v
        .as_array()
        .ok_or_else(|| wrong_type(key, "a list of integers"))?;
    if items.is_empty() || items.len() > 16 {
        return Err(out_of_range(key, v, spec.allowed));
    }
    items
        .iter()
        .map(|item| match int(key, item, spec) {
            Err(ProfileError::OutOfRange { .. }) => Err(out_of_range(key, v, spec.allowed)),
            Err(_) => Err(wrong_type(key, "a list of integers")),
            ok => ok,
        })
        .collect()
}

impl Field for bool {
    type Out<'a> = bool;
    fn get(&self) -> bool {
        *self
    }
    fn read(key: &str, v: &Value, _: &Spec) -> Result<bool, ProfileError> {
        v.as_bool().ok_or_else(|| wrong_type(key, "true or false"))
    }
    fn write(&self) -> Value {
        Value::Bool(*self)
    }
}

/// Integer options; the spec keeps every value within the type.
macro_rules! int_field {
    ($($t:ty),*) => {$(
        impl Field for $t {
            type Out<'a> = $t;
            fn get(&self) -> $t {
                *self
            }
            fn read(key: &str, v: &Value, spec: &Spec) -> Result<$t, ProfileError> {
                let n = int(key, v, spec)?;
                <$t>::try_from(n).map_err(|_| out_of_range(key, v, spec.allowed))
            }
            fn write(&self) -> Value {
                Value::from(*self)
            }
        }

        impl Field for Vec<$t> {
            type Out<'a> = &'a [$t];
            fn get(&self) -> &[$t] {
                self
            }
            fn read(key: &str, v: &Value, spec: &Spec) -> Result<Vec<$t>, ProfileError> {
                list(key, v, spec)?
                    .into_iter()
                    .map(|n| <$t>::try_from(n).map_err(|_| out_of_range(key, v, spec.allowed)))
                    .collect()
            }
            fn write(&self) -> Value {
                Value::from(self.clone())
            }
        }
    )*};
}

int_field!(u8, u32);

/// Options whose value is one of a few words, each an enum variant.
macro_rules! word_field {
    ($($t:ident { $($word:literal => $variant:ident),* })*) => {$(
        impl Field for $t {
            type Out<'a> = $t;
            fn get(&self) -> $t {
                *self
            }
            fn read(key: &str, v: &Value, spec: &Spec) -> Result<$t, ProfileError> {
                match v.as_str() {
                    $(Some($word) => Ok($t::$variant),)*
                    Some(_) => Err(out_of_range(key, v, spec.allowed)),
                    None => Err(wrong_type(key, spec.allowed)),
                }
            }
            fn write(&self) -> Value {
                Value::from(match self {
                    $($t::$variant => $word,)*
                })
            }
        }
    )*};
}

word_field! {
    Responsibility { "full" => Full, "half" => Half }
    WhistSplit { "greedy" => Greedy, "gentleman" => Gentleman }
    RaspasySeries { "any" => Any, "made" => Made }
    RaspasyTalon { "lead" => Lead, "ignored" => Ignored }
    DealerWhistConsolation { "own" => Own, "all" => All }
}

impl Field for ZeroBonus {
    type Out<'a> = ZeroBonus;
    fn get(&self) -> ZeroBonus {
        *self
    }
    fn read(key: &str, v: &Value, spec: &Spec) -> Result<ZeroBonus, ProfileError> {
        match v {
            Value::String(s) if s == "price" => Ok(ZeroBonus::Price),
            Value::String(_) => Err(out_of_range(key, v, spec.allowed)),
            Value::Number(_) => u32::read(key, v, spec).map(ZeroBonus::Points),
            _ => Err(wrong_type(key, "an integer or \"price\"")),
        }
    }
    fn write(&self) -> Value {
        match self {
            ZeroBonus::Points(n) => Value::from(*n),
            ZeroBonus::Price => Value::from("price"),
        }
    }
}
