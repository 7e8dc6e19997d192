//! House profiles: the agreements a table plays under (`docs/options.md`).
//!
//! A [`Profile`] is valid by construction: its fields are private, and it is built only from
//! a preset or through validation of raw TOML/JSON ([`Profile::from_toml_str`],
//! [`Profile::from_json`], [`Profile::with`]). Every option is declared once, in the table
//! of this file — key, type, default, allowed values — and that table drives the getters,
//! reading, checking, writing and listing of the keys. The presets are the TOML files in
//! this crate's `profiles/` folder, compiled in and parsed once.

mod field;

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use self::field::{Field, Spec, wrong_type};

/// The names of the preset profiles, as game records and table settings write them.
pub const PRESETS: [&str; 4] = ["sochi", "leningrad", "rostov", "sochi4"];

/// The presets, parsed once, in the order of [`PRESETS`]; a file that does not read is
/// `None` (the tests read every one).
static PRESET_PROFILES: LazyLock<[Option<Profile>; 4]> = LazyLock::new(|| {
    [
        include_str!("../profiles/sochi.toml"),
        include_str!("../profiles/leningrad.toml"),
        include_str!("../profiles/rostov.toml"),
        include_str!("../profiles/sochi4.toml"),
    ]
    .map(|text| Profile::from_toml_str(text).ok())
});

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

/// What a raspasy zero earns (R8.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ZeroBonus {
    /// This many pool points.
    Points(u32),
    /// The deal's price per trick × `mountain_scale`, in pool points.
    Price,
}

/// What ends a raspasy series for `raspasy_price` and `raspasy_exit` (R8.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RaspasySeries {
    /// Any deal that is not raspasy.
    Any,
    /// Only a made deal; after a failed one the count stands.
    Made,
}

/// Whether the talon takes part in raspasy (R7.2, R7.5, R11.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RaspasyTalon {
    /// The talon cards set the suit of tricks 1–2 (with four players, the dealer's cards lead them).
    Lead,
    /// The talon takes no part; a four-player dealer is not scored in raspasy.
    Ignored,
}

/// Whose consolations a four-player dealer who took the defence over writes (R11.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DealerWhistConsolation {
    /// His own only (where R11.2 gives it).
    Own,
    /// Both defenders' too, in their place.
    All,
}

/// One option of the table: its key, allowed values, and how it is read and written.
struct Opt {
    key: &'static str,
    allowed: &'static str,
    read: fn(&mut Profile, &Value) -> Result<(), ProfileError>,
    write: fn(&Profile) -> Value,
}

/// Declares every option once: the private field, its getter (named like the key), its
/// default (the Sochi profile) and its entry in [`OPTIONS`].
macro_rules! options {
    ($(
        $(#[doc = $doc:literal])*
        $key:ident: $ty:ty => $ret:ty = $default:expr, $spec:expr;
    )*) => {
        /// A validated house profile: every key of `options.md`, read through getters named
        /// like the keys (`profile.players()`).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Profile {
            $($key: $ty,)*
        }

        impl Profile {
            $(
                $(#[doc = $doc])*
                #[must_use]
                pub fn $key(&self) -> $ret {
                    Field::get(&self.$key)
                }
            )*

            /// The Sochi house profile, the guide's defaults (the table of `options.md`).
            #[must_use]
            pub fn sochi() -> Profile {
                Profile {
                    $($key: $default,)*
                }
            }
        }

        /// Every option, in the order of `options.md`.
        const OPTIONS: &[Opt] = &[$(
            Opt {
                key: stringify!($key),
                allowed: $spec.allowed,
                read: |p, v| {
                    p.$key = Field::read(stringify!($key), v, &$spec)?;
                    Ok(())
                },
                write: |p| Field::write(&p.$key),
            },
        )*];
    };
}

/// An integer option allowed from `min` to `max`.
macro_rules! range {
    ($min:literal..=$max:literal, $allowed:literal) => {
        Spec {
            allowed: $allowed,
            ok: |n| ($min..=$max).contains(&n),
        }
    };
}

const BOOL: Spec = Spec::words("true or false");

options! {
    /// 3, or 4 with the dealer sitting out (R11).
    players: u8 => u8 = 3, range!(3..=4, "3 or 4");
    /// Pool each player must close (R9).
    pool_target: u32 => u32 = 20, range!(1..=1000, "from 1 to 1000");
    /// Overflow helps the highest unclosed pool (R9.2).
    pool_help: bool => bool = true, BOOL;
    /// Half-whist against 6 and 7 (R5.2, R8.6).
    half_whist: bool => bool = true, BOOL;
    /// Tens are whisted with quota 1 (R5.6).
    ten_whisted: bool => bool = true, BOOL;
    /// Both defenders must whist 6♠ (R5.7).
    stalingrad: bool => bool = false, BOOL;
    /// Size of the defence-shortfall entries (R8.4).
    whist_responsibility: Responsibility => Responsibility = Responsibility::Full,
        Spec::words("\"full\" or \"half\"");
    /// Who writes a lone whister's trick whists on a failed contract (R8.3).
    whist_split: WhistSplit => WhistSplit = WhistSplit::Greedy,
        Spec::words("\"greedy\" or \"gentleman\"");
    /// Multiplies every whist entry derived from a contract value.
    whist_scale: u32 => u32 = 1, range!(1..=100, "from 1 to 100");
    /// Multiplies every mountain entry.
    mountain_scale: u32 => u32 = 1, range!(1..=100, "from 1 to 100");
    /// If k > 0 there is no mountain: entries become k·m whists.
    mountain_as_whists: u32 => u32 = 0, range!(0..=100, "from 0 to 100");
    /// Worth of one pool point in whists (a multiple of 10).
    pool_point_whists: u32 => u32 = 10, Spec {
        allowed: "a multiple of 10 from 10 to 1000",
        ok: |n| (10..=1000).contains(&n) && n % 10 == 0,
    };
    /// Price per trick in the 1st, 2nd, … consecutive raspasy deal; the last repeats (R8.9).
    raspasy_price: Vec<u32> => &[u32] = vec![1],
        range!(1..=100, "a list of 1 to 16 integers from 1 to 100");
    /// Lowest bid level after 1, 2, … consecutive raspasy; the last repeats (R3.3).
    raspasy_exit: Vec<u8> => &[u8] = vec![6], range!(6..=10, "a list of 1 to 16 levels from 6 to 10");
    /// What taking no trick on raspasy earns (R8.9).
    raspasy_zero_bonus: ZeroBonus => ZeroBonus = ZeroBonus::Points(1),
        range!(0..=100, "from 0 to 100, or \"price\"");
    /// Subtract the lowest trick count before recording raspasy (R8.9).
    raspasy_amnesty: bool => bool = false, BOOL;
    /// Duty to beat the trick when following or trumping (R6.2).
    must_overtake: bool => bool = false, BOOL;
    /// Four players: the dealer may take over a refused defence (R11.4).
    dealer_whist: bool => bool = true, BOOL;
    /// After *whist, pass* against 6 and 7, the first defender may withdraw to a half-whist (R5.3).
    whist_pass_half: bool => bool = false, BOOL;
    /// An unwhisted ten that fails still earns consolation (R8.2).
    checked_ten_consolation: bool => bool = true, BOOL;
    /// Two whisters against 6: each one's shortfall counts at most the joint shortfall (R8.4).
    whist_shortfall_cap: bool => bool = false, BOOL;
    /// What ends a raspasy series (R8.9).
    raspasy_series: RaspasySeries => RaspasySeries = RaspasySeries::Any,
        Spec::words("\"any\" or \"made\"");
    /// Whether the talon takes part in raspasy (R7.5).
    raspasy_talon: RaspasyTalon => RaspasyTalon = RaspasyTalon::Lead,
        Spec::words("\"lead\" or \"ignored\"");
    /// Four players: the dealer writes consolation on a failed contract (R11.2).
    dealer_consolation: bool => bool = true, BOOL;
    /// Four players: whose consolations the dealer who took the defence over writes (R11.4).
    dealer_whist_consolation: DealerWhistConsolation => DealerWhistConsolation =
        DealerWhistConsolation::Own, Spec::words("\"own\" or \"all\"");
    /// Undertricks of a surrender, 0 when it is not allowed (R4.5).
    surrender: u8 => u8 = 0, Spec {
        allowed: "0, 2 or 3",
        ok: |n| matches!(n, 0 | 2 | 3),
    };
    /// The highest winning level at which a surrender is allowed (R4.5).
    surrender_max_level: u8 => u8 = 10, range!(6..=10, "from 6 to 10");
    /// Four players: the dealer writes whists on the declarer for the talon's aces (R11.6).
    talon_bonus: bool => bool = false, BOOL;
    /// Misère without talon and nine without talon above 9NT; nobody takes the talon
    /// (R3.10, R4.6, R8.12).
    misere_without_talon: bool => bool = false, BOOL;
    /// A player may make his first call before looking at his hand; the declarer's dark
    /// first call makes the deal dark, every entry ×2 (R2.3, R3.9, R4.7, R8.11).
    dark_games: bool => bool = false, BOOL;
    /// A player of the deal may claim the remaining tricks; the deal ends if all accept (R6.7).
    claims: bool => bool = true, BOOL;
    /// When a deal ends, every hand, the talon and the discard are shown to everybody.
    reveal_after_deal: bool => bool = true, BOOL;
}

/// One option as a listing shows it: the key and its allowed values in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    /// The key, as profiles and records write it.
    pub key: &'static str,
    /// The allowed values (`"3 or 4"`, `"true or false"`).
    pub allowed: &'static str,
}

impl Profile {
    /// Every option, in the order of `options.md`.
    pub fn options() -> impl Iterator<Item = OptionInfo> {
        OPTIONS.iter().map(|o| OptionInfo {
            key: o.key,
            allowed: o.allowed,
        })
    }

    /// The value of option `key` as profiles write it; `None` for an unknown key.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<Value> {
        OPTIONS
            .iter()
            .find(|o| o.key == key)
            .map(|o| (o.write)(self))
    }

    /// This profile with option `key` set from its raw value.
    ///
    /// # Errors
    /// [`ProfileError`] naming the key: unknown, of the wrong type, out of range.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Result<Profile, ProfileError> {
        self.set(key, &value.into())?;
        Ok(self)
    }

    /// The preset called `name` (one of [`PRESETS`]).
    #[must_use]
    pub fn preset(name: &str) -> Option<Profile> {
        let i = PRESETS.iter().position(|&p| p == name)?;
        PRESET_PROFILES[i].clone()
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
        OPTIONS
            .iter()
            .map(|o| (o.key, (o.write)(self), (o.write)(base)))
            .filter(|(_, mine, theirs)| mine != theirs)
            .map(|(k, mine, _)| (k.to_owned(), mine))
            .collect()
    }

    /// Every key with its value, as a JSON object: the resolved profile, which
    /// [`Profile::from_resolved`] (and `Deserialize`) reads back.
    #[must_use]
    pub fn to_json(&self) -> Value {
        Value::Object(
            OPTIONS
                .iter()
                .map(|o| (o.key.to_owned(), (o.write)(self)))
                .collect(),
        )
    }

    /// Reads a resolved profile as [`Profile::to_json`] writes it: every key, no preset. A key
    /// missing from it (one added after the profile was stored) takes its Sochi default, the
    /// behaviour from before the key existed.
    ///
    /// # Errors
    /// [`ProfileError`] naming the key: unknown, of the wrong type, out of range.
    pub fn from_resolved(v: &Value) -> Result<Profile, ProfileError> {
        let Value::Object(map) = v else {
            return Err(wrong_type("profile", "an object with every option"));
        };
        if map.contains_key("preset") {
            return Err(ProfileError::UnknownKey("preset".to_owned()));
        }
        let mut profile = Profile::sochi();
        for (key, value) in map {
            profile.set(key, value)?;
        }
        Ok(profile)
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
                if let Some(missing) = OPTIONS.iter().find(|o| !map.contains_key(o.key)) {
                    return Err(ProfileError::Conflict {
                        key: missing.key.to_owned(),
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
        let opt = OPTIONS
            .iter()
            .find(|o| o.key == key)
            .ok_or_else(|| ProfileError::UnknownKey(key.to_owned()))?;
        (opt.read)(self, v)
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

    /// Pool points a raspasy zero earns in a deal whose price per trick is `price` (R8.9).
    #[must_use]
    pub fn zero_bonus_at(&self, price: u32) -> u32 {
        match self.raspasy_zero_bonus {
            ZeroBonus::Points(n) => n,
            ZeroBonus::Price => price * self.mountain_scale,
        }
    }
}

impl Serialize for Profile {
    /// The resolved form: every key with its value.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(OPTIONS.iter().map(|o| (o.key, (o.write)(self))))
    }
}

impl<'de> Deserialize<'de> for Profile {
    /// The resolved form, checked as [`Profile::from_resolved`] checks it.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Profile, D::Error> {
        let v = Value::deserialize(d)?;
        Profile::from_resolved(&v).map_err(serde::de::Error::custom)
    }
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
