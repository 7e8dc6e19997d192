//! House profiles as a table receives them: a preset name plus option overrides, checked
//! key by key (`shared/rules/options.md`).
//!
//! This is the server's own reading of the options table until the core grows
//! `Profile::preset` / `Profile::from_json`; the JSON shape is the same, so the switch is a
//! change of import.

use pref_core::Profile;
use pref_core::profile::{Responsibility, WhistSplit};
use serde_json::{Map, Value};

/// The presets a table may start from.
pub const PRESETS: [&str; 4] = ["sochi", "leningrad", "rostov", "sochi4"];

/// Why a profile request was refused; the message names the key.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProfileError {
    /// No preset of that name.
    #[error("unknown preset {0:?}; presets are sochi, leningrad, rostov, sochi4")]
    UnknownPreset(String),
    /// A key that is not an option.
    #[error("unknown option {0:?}")]
    UnknownKey(String),
    /// A value of the wrong type or out of range.
    #[error("option {key:?} must be {expected}")]
    Invalid {
        /// The option.
        key: String,
        /// What it must be.
        expected: &'static str,
    },
    /// The request is neither a preset name nor an object.
    #[error("a profile is a preset name or an object {{\"preset\": name, option: value, …}}")]
    Shape,
}

/// The preset `name`.
#[must_use]
pub fn preset(name: &str) -> Option<Profile> {
    let mut p = Profile::sochi();
    match name {
        "sochi" => {}
        "leningrad" => {
            p.whist_scale = 2;
            p.mountain_scale = 2;
            p.whist_responsibility = Responsibility::Half;
            p.whist_split = WhistSplit::Gentleman;
            p.raspasy_price = vec![1, 2, 3];
            p.raspasy_exit = vec![6, 7, 8];
            p.pool_help = false;
            p.pool_point_whists = 20;
        }
        "rostov" => {
            p.whist_responsibility = Responsibility::Half;
            p.mountain_as_whists = 5;
        }
        "sochi4" => p.players = 4,
        _ => return None,
    }
    Some(p)
}

/// A profile from `"sochi"` or `{"preset": "sochi", "pool_target": 10, …}` (preset defaults
/// to sochi).
///
/// # Errors
/// [`ProfileError`] naming the unknown preset, the unknown key or the bad value.
pub fn from_json(v: &Value) -> Result<Profile, ProfileError> {
    match v {
        Value::String(name) => {
            preset(name).ok_or_else(|| ProfileError::UnknownPreset(name.clone()))
        }
        Value::Object(map) => {
            let name = match map.get("preset") {
                None => "sochi",
                Some(Value::String(s)) => s,
                Some(_) => {
                    return Err(ProfileError::Invalid {
                        key: "preset".into(),
                        expected: "a preset name",
                    });
                }
            };
            let mut p = preset(name).ok_or_else(|| ProfileError::UnknownPreset(name.into()))?;
            for (key, value) in map.iter().filter(|(k, _)| *k != "preset") {
                set(&mut p, key, value)?;
            }
            Ok(p)
        }
        _ => Err(ProfileError::Shape),
    }
}

/// The options of `p` that differ from `base`.
#[must_use]
pub fn overrides_from(p: &Profile, base: &Profile) -> Map<String, Value> {
    let (Value::Object(a), Value::Object(b)) = (to_json(p), to_json(base)) else {
        return Map::new();
    };
    a.into_iter().filter(|(k, v)| b.get(k) != Some(v)).collect()
}

/// Every option of `p` as JSON.
#[must_use]
pub fn to_json(p: &Profile) -> Value {
    serde_json::to_value(p).unwrap_or(Value::Null)
}

fn set(p: &mut Profile, key: &str, v: &Value) -> Result<(), ProfileError> {
    let bad = |expected| ProfileError::Invalid {
        key: key.to_owned(),
        expected,
    };
    let int = |min: u64, max: u64, expected| {
        v.as_u64()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| bad(expected))
    };
    let boolean = || v.as_bool().ok_or_else(|| bad("true or false"));
    let list = |min: u64, max: u64, expected| -> Result<Vec<u64>, ProfileError> {
        let items = v
            .as_array()
            .filter(|a| !a.is_empty())
            .ok_or_else(|| bad(expected))?;
        items
            .iter()
            .map(|x| {
                x.as_u64()
                    .filter(|n| (min..=max).contains(n))
                    .ok_or_else(|| bad(expected))
            })
            .collect()
    };
    const BIG: u64 = 1_000_000;
    match key {
        "players" => p.players = int(3, 4, "3 or 4")? as u8,
        "pool_target" => p.pool_target = int(1, BIG, "an integer ≥ 1")? as u32,
        "pool_help" => p.pool_help = boolean()?,
        "half_whist" => p.half_whist = boolean()?,
        "ten_whisted" => p.ten_whisted = boolean()?,
        "stalingrad" => p.stalingrad = boolean()?,
        "whist_responsibility" => {
            p.whist_responsibility = match v.as_str() {
                Some("full") => Responsibility::Full,
                Some("half") => Responsibility::Half,
                _ => return Err(bad("\"full\" or \"half\"")),
            }
        }
        "whist_split" => {
            p.whist_split = match v.as_str() {
                Some("greedy") => WhistSplit::Greedy,
                Some("gentleman") => WhistSplit::Gentleman,
                _ => return Err(bad("\"greedy\" or \"gentleman\"")),
            }
        }
        "whist_scale" => p.whist_scale = int(1, BIG, "an integer ≥ 1")? as u32,
        "mountain_scale" => p.mountain_scale = int(1, BIG, "an integer ≥ 1")? as u32,
        "mountain_as_whists" => p.mountain_as_whists = int(0, BIG, "an integer ≥ 0")? as u32,
        "pool_point_whists" => {
            let n = int(10, BIG, "a positive multiple of 10")?;
            if n % 10 != 0 {
                return Err(bad("a positive multiple of 10"));
            }
            p.pool_point_whists = n as u32;
        }
        "raspasy_price" => {
            p.raspasy_price = list(1, BIG, "a non-empty list of integers ≥ 1")?
                .into_iter()
                .map(|n| n as u32)
                .collect();
        }
        "raspasy_exit" => {
            p.raspasy_exit = list(6, 10, "a non-empty list of levels 6 to 10")?
                .into_iter()
                .map(|n| n as u8)
                .collect();
        }
        "raspasy_zero_bonus" => p.raspasy_zero_bonus = int(0, BIG, "an integer ≥ 0")? as u32,
        "raspasy_amnesty" => p.raspasy_amnesty = boolean()?,
        "must_overtake" => p.must_overtake = boolean()?,
        "dealer_whist" => p.dealer_whist = boolean()?,
        "reveal_after_deal" => p.reveal_after_deal = boolean()?,
        other => return Err(ProfileError::UnknownKey(other.to_owned())),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn presets_and_overrides() {
        for name in PRESETS {
            assert!(preset(name).is_some(), "{name}");
        }
        let p = from_json(&json!({"preset": "sochi4", "pool_target": 5})).unwrap();
        assert_eq!((p.players, p.pool_target), (4, 5));
        let o = overrides_from(&p, &Profile::sochi());
        assert_eq!(o.len(), 2);
        let e = from_json(&json!({"pool_size": 5})).unwrap_err();
        assert_eq!(e.to_string(), "unknown option \"pool_size\"");
        assert!(from_json(&json!({"players": 5})).is_err());
        assert!(from_json(&json!({"pool_point_whists": 15})).is_err());
        assert!(from_json(&json!("moscow")).is_err());
        assert!(from_json(&json!(3)).is_err());
    }
}
