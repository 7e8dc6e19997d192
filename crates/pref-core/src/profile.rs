//! House profiles: the agreements a table plays under (`../shared/rules/options.md`).
//!
//! A [`Profile`] is always valid: it is built from a preset or through validation of raw
//! TOML/JSON, never field by field from untrusted input. The presets are the TOML files of
//! `config/profiles/`, compiled in so that a binary needs no configuration folder.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The names of the preset profiles, as game records and table settings write them.
pub const PRESETS: [&str; 4] = ["sochi", "leningrad", "rostov", "sochi4"];

/// The text of each preset file, in the order of [`PRESETS`].
const PRESET_FILES: [&str; 4] = [
    include_str!("../../../config/profiles/sochi.toml"),
    include_str!("../../../config/profiles/leningrad.toml"),
    include_str!("../../../config/profiles/rostov.toml"),
    include_str!("../../../config/profiles/sochi4.toml"),
];

/// Every option key of `options.md`, in its order.
const KEYS: [&str; 20] = [
    "players",
    "pool_target",
    "pool_help",
    "half_whist",
    "ten_whisted",
    "stalingrad",
    "whist_responsibility",
    "whist_split",
    "whist_scale",
    "mountain_scale",
    "mountain_as_whists",
    "pool_point_whists",
    "raspasy_price",
    "raspasy_exit",
    "raspasy_zero_bonus",
    "raspasy_amnesty",
    "must_overtake",
    "dealer_whist",
    "claims",
    "reveal_after_deal",
];

/// Why raw TOML or JSON is not a profile. Every message names the offending key.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProfileError {
    /// A preset name that is not one of [`PRESETS`].
    #[error("unknown preset {0:?}: the presets are sochi, leningrad, rostov and sochi4")]
    UnknownPreset(String),
    /// A key that is not an option of `options.md`.
    #[error("unknown option {0:?}")]
    UnknownKey(String),
    /// A value of the wrong type (`pool_target = "20"`).
    #[error("option {key:?} must be {expected}")]
    WrongType {
        /// The option.
        key: String,
        /// What it must be.
        expected: &'static str,
    },
    /// A value of the right type outside the allowed range (`players = 5`).
    #[error("option {key:?} is {value}, but it must be {allowed}")]
    OutOfRange {
        /// The option.
        key: String,
        /// The value given, as written.
        value: String,
        /// What is allowed.
        allowed: &'static str,
    },
    /// A key that is missing or does not fit with the rest of the profile.
    #[error("option {key:?}: {why}")]
    Conflict {
        /// The option.
        key: String,
        /// Why it does not fit.
        why: String,
    },
    /// The text is not TOML (or the value is not a profile at all).
    #[error("the profile cannot be read: {0}")]
    Syntax(String),
}

/// Size of the defence-shortfall entries (R8.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Responsibility {
    /// Full responsibility.
    Full,
    /// Entries at half size.
    Half,
}

/// Who writes a lone whister's trick whists on a failed contract (R8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WhistSplit {
    /// The whister writes them all.
    Greedy,
    /// The two defenders split them equally.
    Gentleman,
}

/// A validated house profile: every key of `options.md`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Profile {
    /// 3, or 4 with the dealer sitting out (R11).
    pub players: u8,
    /// Pool each player must close (R9).
    pub pool_target: u32,
    /// Overflow helps the highest unclosed pool (R9.2).
    pub pool_help: bool,
    /// Half-whist against 6 and 7 (R5.2, R8.6).
    pub half_whist: bool,
    /// Tens are whisted with quota 1 (R5.6).
    pub ten_whisted: bool,
    /// Both defenders must whist 6♠ (R5.7).
    pub stalingrad: bool,
    /// Size of the defence-shortfall entries (R8.4).
    pub whist_responsibility: Responsibility,
    /// Who writes a lone whister's trick whists on a failed contract (R8.3).
    pub whist_split: WhistSplit,
    /// Multiplies every whist entry derived from a contract value.
    pub whist_scale: u32,
    /// Multiplies every mountain entry.
    pub mountain_scale: u32,
    /// If k > 0 there is no mountain: entries become k·m whists.
    pub mountain_as_whists: u32,
    /// Worth of one pool point in whists (a multiple of 10).
    pub pool_point_whists: u32,
    /// Price per trick in the 1st, 2nd, … consecutive raspasy deal; the last repeats (R8.9).
    pub raspasy_price: Vec<u32>,
    /// Lowest bid level after 1, 2, … consecutive raspasy; the last repeats (R3.3).
    pub raspasy_exit: Vec<u8>,
    /// Pool points for taking no trick on raspasy (R8.9).
    pub raspasy_zero_bonus: u32,
    /// Subtract the lowest trick count before recording raspasy (R8.9).
    pub raspasy_amnesty: bool,
    /// Duty to beat the trick when following or trumping (R6.2).
    pub must_overtake: bool,
    /// Four players: the dealer may take over a refused defence (R11.4).
    pub dealer_whist: bool,
    /// A player of the deal may claim the remaining tricks; the deal ends if all accept (R6.7).
    pub claims: bool,
    /// When a deal ends, every hand, the talon and the discard are shown to everybody.
    pub reveal_after_deal: bool,
}

impl Profile {
    /// The Sochi house profile, the guide's defaults.
    #[must_use]
    pub fn sochi() -> Profile {
        Profile {
            players: 3,
            pool_target: 20,
            pool_help: true,
            half_whist: true,
            ten_whisted: true,
            stalingrad: false,
            whist_responsibility: Responsibility::Full,
            whist_split: WhistSplit::Greedy,
            whist_scale: 1,
            mountain_scale: 1,
            mountain_as_whists: 0,
            pool_point_whists: 10,
            raspasy_price: vec![1],
            raspasy_exit: vec![6],
            raspasy_zero_bonus: 1,
            raspasy_amnesty: false,
            must_overtake: false,
            dealer_whist: true,
            claims: true,
            reveal_after_deal: true,
        }
    }

    /// The preset called `name` (one of [`PRESETS`]).
    #[must_use]
    pub fn preset(name: &str) -> Option<Profile> {
        let i = PRESETS.iter().position(|&p| p == name)?;
        // The preset files are checked by the tests; a broken one reads as absent.
        Profile::from_toml_str(PRESET_FILES[i]).ok()
    }

    /// Reads a profile from TOML: either a full profile file (every key of `options.md`) or
    /// `preset = "NAME"` followed by the keys that differ from that preset.
    ///
    /// # Errors
    /// [`ProfileError`] naming the key: unknown, missing, of the wrong type, out of range; or
    /// [`ProfileError::Syntax`] if the text is not TOML.
    pub fn from_toml_str(s: &str) -> Result<Profile, ProfileError> {
        let table: toml::Table = s
            .parse()
            .map_err(|e: toml::de::Error| ProfileError::Syntax(e.message().to_owned()))?;
        match serde_json::to_value(table) {
            Ok(Value::Object(map)) => Profile::from_map(&map, false),
            Ok(_) => Err(ProfileError::Syntax("not a table".to_owned())),
            Err(e) => Err(ProfileError::Syntax(e.to_string())),
        }
    }

    /// Reads a profile as game records write it: a preset name (`"sochi"`) or an object
    /// `{"preset": "sochi", "pool_target": 10, ...}` overriding keys of that preset.
    ///
    /// # Errors
    /// [`ProfileError`] naming the key; the object form must name its `preset`.
    pub fn from_json(v: &Value) -> Result<Profile, ProfileError> {
        match v {
            Value::String(name) => {
                Profile::preset(name).ok_or_else(|| ProfileError::UnknownPreset(name.clone()))
            }
            Value::Object(map) => Profile::from_map(map, true),
            _ => Err(ProfileError::WrongType {
                key: "profile".to_owned(),
                expected: "a preset name or an object with a \"preset\"",
            }),
        }
    }

    /// The keys whose values differ from `base`, with this profile's values: what the object
    /// form `{"preset": ..., ...}` needs on top of `base`.
    #[must_use]
    pub fn overrides_from(&self, base: &Profile) -> Map<String, Value> {
        let (mine, theirs) = (self.to_map(), base.to_map());
        mine.into_iter()
            .filter(|(k, v)| theirs.get(k) != Some(v))
            .collect()
    }

    /// Every key with its value, as a JSON object.
    #[must_use]
    pub fn to_json(&self) -> Value {
        Value::Object(self.to_map())
    }

    fn to_map(&self) -> Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(map)) => map,
            // A struct of plain fields always serialises to an object.
            _ => Map::new(),
        }
    }

    /// Validates `map`: with a `preset` key, overrides of that preset; without one, a full
    /// profile (refused if `preset_required`).
    fn from_map(map: &Map<String, Value>, preset_required: bool) -> Result<Profile, ProfileError> {
        let mut profile = match map.get("preset") {
            Some(Value::String(name)) => {
                Profile::preset(name).ok_or_else(|| ProfileError::UnknownPreset(name.clone()))?
            }
            Some(_) => return Err(wrong_type("preset", "a preset name (a string)")),
            None if preset_required => {
                return Err(ProfileError::Conflict {
                    key: "preset".to_owned(),
                    why: "the object form of a profile must name its preset".to_owned(),
                });
            }
            None => {
                if let Some(missing) = KEYS.iter().find(|k| !map.contains_key(**k)) {
                    return Err(ProfileError::Conflict {
                        key: (*missing).to_owned(),
                        why: "missing: a profile without a preset gives every option".to_owned(),
                    });
                }
                Profile::sochi()
            }
        };
        for (key, value) in map {
            if key != "preset" {
                profile.set(key, value)?;
            }
        }
        Ok(profile)
    }

    /// Sets one option from its raw value.
    fn set(&mut self, key: &str, v: &Value) -> Result<(), ProfileError> {
        match key {
            "players" => self.players = int(key, v, 3, 4, "3 or 4")? as u8,
            "pool_target" => self.pool_target = int(key, v, 1, 1000, "from 1 to 1000")? as u32,
            "pool_help" => self.pool_help = boolean(key, v)?,
            "half_whist" => self.half_whist = boolean(key, v)?,
            "ten_whisted" => self.ten_whisted = boolean(key, v)?,
            "stalingrad" => self.stalingrad = boolean(key, v)?,
            "whist_responsibility" => {
                let full = choice(key, v, ["full", "half"], "\"full\" or \"half\"")? == 0;
                self.whist_responsibility = if full {
                    Responsibility::Full
                } else {
                    Responsibility::Half
                };
            }
            "whist_split" => {
                let greedy = choice(
                    key,
                    v,
                    ["greedy", "gentleman"],
                    "\"greedy\" or \"gentleman\"",
                )?;
                self.whist_split = if greedy == 0 {
                    WhistSplit::Greedy
                } else {
                    WhistSplit::Gentleman
                };
            }
            "whist_scale" => self.whist_scale = int(key, v, 1, 100, "from 1 to 100")? as u32,
            "mountain_scale" => self.mountain_scale = int(key, v, 1, 100, "from 1 to 100")? as u32,
            "mountain_as_whists" => {
                self.mountain_as_whists = int(key, v, 0, 100, "from 0 to 100")? as u32;
            }
            "pool_point_whists" => {
                let allowed = "a multiple of 10 from 10 to 1000";
                let n = int(key, v, 10, 1000, allowed)?;
                if n % 10 != 0 {
                    return Err(out_of_range(key, v, allowed));
                }
                self.pool_point_whists = n as u32;
            }
            "raspasy_price" => {
                self.raspasy_price =
                    list(key, v, 1, 100, "a list of 1 to 16 integers from 1 to 100")?
                        .into_iter()
                        .map(|n| n as u32)
                        .collect();
            }
            "raspasy_exit" => {
                self.raspasy_exit = list(key, v, 6, 10, "a list of 1 to 16 levels from 6 to 10")?
                    .into_iter()
                    .map(|n| n as u8)
                    .collect();
            }
            "raspasy_zero_bonus" => {
                self.raspasy_zero_bonus = int(key, v, 0, 100, "from 0 to 100")? as u32;
            }
            "raspasy_amnesty" => self.raspasy_amnesty = boolean(key, v)?,
            "must_overtake" => self.must_overtake = boolean(key, v)?,
            "dealer_whist" => self.dealer_whist = boolean(key, v)?,
            "claims" => self.claims = boolean(key, v)?,
            "reveal_after_deal" => self.reveal_after_deal = boolean(key, v)?,
            _ => return Err(ProfileError::UnknownKey(key.to_owned())),
        }
        Ok(())
    }

    /// The lowest bid level allowed after `raspasy_before` consecutive raspasy deals (R3.3).
    #[must_use]
    pub fn min_level(&self, raspasy_before: u32) -> u8 {
        pick(&self.raspasy_exit, raspasy_before).unwrap_or(6)
    }

    /// The price per trick of a raspasy deal that is the `nth` consecutive one (1-based, R8.9).
    #[must_use]
    pub fn raspasy_price_for(&self, nth: u32) -> u32 {
        pick(&self.raspasy_price, nth).unwrap_or(1)
    }
}

fn wrong_type(key: &str, expected: &'static str) -> ProfileError {
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

/// An integer in `min..=max`; a negative number is out of range, a fraction the wrong type.
fn int(
    key: &str,
    v: &Value,
    min: u64,
    max: u64,
    allowed: &'static str,
) -> Result<u64, ProfileError> {
    let n = match v {
        Value::Number(n) if n.is_u64() => n.as_u64().unwrap_or(0),
        Value::Number(n) if n.is_i64() => return Err(out_of_range(key, v, allowed)),
        _ => return Err(wrong_type(key, "an integer")),
    };
    if (min..=max).contains(&n) {
        Ok(n)
    } else {
        Err(out_of_range(key, v, allowed))
    }
}

fn boolean(key: &str, v: &Value) -> Result<bool, ProfileError> {
    v.as_bool().ok_or_else(|| wrong_type(key, "true or false"))
}

/// The index of the word `v` is among `words`.
fn choice(
    key: &str,
    v: &Value,
    words: [&str; 2],
    allowed: &'static str,
) -> Result<usize, ProfileError> {
    let s = v.as_str().ok_or_else(|| wrong_type(key, allowed))?;
    words
        .iter()
        .position(|w| *w == s)
        .ok_or_else(|| out_of_range(key, v, allowed))
}

/// A non-empty list of at most 16 integers in `min..=max`.
fn list(
    key: &str,
    v: &Value,
    min: u64,
    max: u64,
    allowed: &'static str,
) -> Result<Vec<u64>, ProfileError> {
    let items = v
        .as_array()
        .ok_or_else(|| wrong_type(key, "a list of integers"))?;
    if items.is_empty() || items.len() > 16 {
        return Err(out_of_range(key, v, allowed));
    }
    items
        .iter()
        .map(|item| match int(key, item, min, max, allowed) {
            Err(ProfileError::OutOfRange { .. }) => Err(out_of_range(key, v, allowed)),
            Err(_) => Err(wrong_type(key, "a list of integers")),
            ok => ok,
        })
        .collect()
}

/// The entry for the `nth` (1-based) in a list whose last entry repeats; `nth = 0` means
/// "none yet", which takes the default.
fn pick<T: Copy>(list: &[T], nth: u32) -> Option<T> {
    if nth == 0 {
        return None;
    }
    let i = (nth as usize - 1).min(list.len().saturating_sub(1));
    list.get(i).copied()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn err(toml: &str) -> String {
        let text = format!("preset = \"sochi\"\n{toml}");
        Profile::from_toml_str(&text).unwrap_err().to_string()
    }

    #[test]
    fn sochi_preset_is_the_options_table() {
        assert_eq!(Profile::preset("sochi"), Some(Profile::sochi()));
        assert_eq!(Profile::preset("moscow"), None);
    }

    #[test]
    fn leningrad_preset() {
        let p = Profile::preset("leningrad").unwrap();
        let expected = Profile {
            whist_scale: 2,
            mountain_scale: 2,
            whist_responsibility: Responsibility::Half,
            whist_split: WhistSplit::Gentleman,
            raspasy_price: vec![1, 2, 3],
            raspasy_exit: vec![6, 7, 8],
            pool_help: false,
            pool_point_whists: 20,
            ..Profile::sochi()
        };
        assert_eq!(p, expected);
    }

    #[test]
    fn rostov_preset() {
        let p = Profile::preset("rostov").unwrap();
        let expected = Profile {
            whist_responsibility: Responsibility::Half,
            mountain_as_whists: 5,
            ..Profile::sochi()
        };
        assert_eq!(p, expected);
    }

    #[test]
    fn sochi4_preset() {
        let p = Profile::preset("sochi4").unwrap();
        assert_eq!(
            p,
            Profile {
                players: 4,
                ..Profile::sochi()
            }
        );
    }

    #[test]
    fn every_preset_reads_and_round_trips_through_json() {
        for name in PRESETS {
            let p = Profile::preset(name).unwrap();
            let mut obj = p.overrides_from(&Profile::sochi());
            obj.insert("preset".to_owned(), json!("sochi"));
            assert_eq!(
                Profile::from_json(&Value::Object(obj)).unwrap(),
                p,
                "{name}"
            );
            assert_eq!(Profile::from_json(&json!(name)).unwrap(), p);
        }
    }

    #[test]
    fn to_json_has_every_key() {
        let v = Profile::sochi().to_json();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        let mut expected = KEYS.to_vec();
        expected.sort_unstable();
        let mut got = keys.clone();
        got.sort_unstable();
        assert_eq!(got, expected);
        assert_eq!(v["whist_responsibility"], json!("full"));
        assert_eq!(v["raspasy_exit"], json!([6]));
    }

    #[test]
    fn overrides_from_names_only_the_differences() {
        let p = Profile::preset("rostov").unwrap();
        let o = p.overrides_from(&Profile::sochi());
        assert_eq!(
            Value::Object(o),
            json!({"whist_responsibility": "half", "mountain_as_whists": 5})
        );
        assert!(p.overrides_from(&p).is_empty());
    }

    #[test]
    fn object_form_overrides_a_preset() {
        let p = Profile::from_json(&json!({"preset": "sochi", "pool_target": 10})).unwrap();
        assert_eq!(p.pool_target, 10);
        assert_eq!(p.players, 3);
        let p = Profile::from_toml_str("preset = \"sochi4\"\nmust_overtake = true").unwrap();
        assert_eq!((p.players, p.must_overtake), (4, true));
    }

    #[test]
    fn unknown_key() {
        assert_eq!(err("pool_size = 10"), "unknown option \"pool_size\"");
        assert_eq!(
            Profile::from_json(&json!({"preset": "sochi", "pool_size": 10})),
            Err(ProfileError::UnknownKey("pool_size".to_owned()))
        );
    }

    #[test]
    fn unknown_preset() {
        assert_eq!(
            Profile::from_json(&json!("moscow")),
            Err(ProfileError::UnknownPreset("moscow".to_owned()))
        );
        assert!(
            Profile::from_toml_str("preset = \"moscow\"")
                .unwrap_err()
                .to_string()
                .contains("\"moscow\"")
        );
    }

    #[test]
    fn wrong_types() {
        assert_eq!(
            err("pool_target = \"20\""),
            "option \"pool_target\" must be an integer"
        );
        assert_eq!(
            err("pool_target = 20.0"),
            "option \"pool_target\" must be an integer"
        );
        assert_eq!(
            err("pool_help = 1"),
            "option \"pool_help\" must be true or false"
        );
        assert!(err("whist_split = 1").starts_with("option \"whist_split\" must be"));
        assert!(err("raspasy_price = 1").starts_with("option \"raspasy_price\" must be"));
        assert_eq!(
            err("raspasy_exit = [\"6\"]"),
            "option \"raspasy_exit\" must be a list of integers"
        );
        assert!(matches!(
            Profile::from_json(&json!({"preset": 4})),
            Err(ProfileError::WrongType { key, .. }) if key == "preset"
        ));
        assert!(Profile::from_json(&json!(4)).is_err());
    }

    #[test]
    fn out_of_range() {
        for (toml, key) in [
            ("players = 5", "players"),
            ("players = 2", "players"),
            ("pool_target = 0", "pool_target"),
            ("pool_target = -3", "pool_target"),
            ("whist_scale = 0", "whist_scale"),
            ("mountain_scale = 0", "mountain_scale"),
            ("mountain_as_whists = -1", "mountain_as_whists"),
            ("pool_point_whists = 15", "pool_point_whists"),
            ("pool_point_whists = 0", "pool_point_whists"),
            ("raspasy_price = []", "raspasy_price"),
            ("raspasy_price = [1, 0]", "raspasy_price"),
            ("raspasy_exit = [5]", "raspasy_exit"),
            ("raspasy_exit = [6, 11]", "raspasy_exit"),
            ("whist_responsibility = \"double\"", "whist_responsibility"),
            ("whist_split = \"fair\"", "whist_split"),
        ] {
            let e = Profile::from_toml_str(&format!("preset = \"sochi\"\n{toml}")).unwrap_err();
            assert!(
                matches!(&e, ProfileError::OutOfRange { key: k, .. } if k == key),
                "{toml}: {e:?}"
            );
            assert!(
                e.to_string().starts_with(&format!("option \"{key}\" is ")),
                "{e}"
            );
        }
        assert_eq!(
            err("players = 5"),
            "option \"players\" is 5, but it must be 3 or 4"
        );
    }

    #[test]
    fn missing_keys_and_preset() {
        assert_eq!(
            Profile::from_json(&json!({"pool_target": 10})),
            Err(ProfileError::Conflict {
                key: "preset".to_owned(),
                why: "the object form of a profile must name its preset".to_owned()
            })
        );
        // A file without a preset must be complete.
        let full = PRESET_FILES[0];
        let cut: String = full
            .lines()
            .filter(|l| !l.starts_with("stalingrad"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(matches!(
            Profile::from_toml_str(&cut),
            Err(ProfileError::Conflict { key, .. }) if key == "stalingrad"
        ));
    }

    #[test]
    fn syntax_error() {
        assert!(matches!(
            Profile::from_toml_str("players = = 3"),
            Err(ProfileError::Syntax(_))
        ));
    }
}
