//! House profiles (`docs/options.md`): the presets, the option table, the object form of
//! records, the resolved form a table stores, and an error naming the key for every wrong
//! value — the eleven house-rule options of R4.5, R5.3, R7.5, R8.2, R8.4, R8.9 and R11
//! included.
#![allow(missing_docs)]

use pref_core::{
    DealerWhistConsolation, PRESETS, Profile, ProfileError, RaspasySeries, RaspasyTalon,
    Responsibility, WhistSplit, ZeroBonus,
};
use serde_json::{Value, json};

fn err(toml: &str) -> String {
    let text = format!("preset = \"sochi\"\n{toml}");
    Profile::from_toml_str(&text).unwrap_err().to_string()
}

fn sochi_with(pairs: &[(&str, Value)]) -> Profile {
    pairs
        .iter()
        .fold(Profile::sochi(), |p, (k, v)| p.with(k, v.clone()).unwrap())
}

#[test]
fn sochi_preset_is_the_options_table() {
    assert_eq!(Profile::preset("sochi"), Some(Profile::sochi()));
    assert_eq!(Profile::preset("moscow"), None);
    let p = Profile::sochi();
    assert_eq!((p.players(), p.pool_target(), p.pool_help()), (3, 20, true));
    assert_eq!(p.whist_responsibility(), Responsibility::Full);
    assert_eq!(p.whist_split(), WhistSplit::Greedy);
    assert_eq!(p.raspasy_price(), &[1]);
    assert_eq!(p.raspasy_exit(), &[6]);
    assert_eq!(p.raspasy_zero_bonus(), ZeroBonus::Points(1));
    // The eleven house-rule options, all at the behaviour of the guide's profile.
    assert!(!p.whist_pass_half());
    assert!(p.checked_ten_consolation());
    assert!(!p.whist_shortfall_cap());
    assert_eq!(p.raspasy_series(), RaspasySeries::Any);
    assert_eq!(p.raspasy_talon(), RaspasyTalon::Lead);
    assert!(p.dealer_consolation());
    assert_eq!(p.dealer_whist_consolation(), DealerWhistConsolation::Own);
    assert_eq!((p.surrender(), p.surrender_max_level()), (0, 10));
    assert!(!p.talon_bonus());
}

#[test]
fn leningrad_preset() {
    let expected = sochi_with(&[
        ("whist_scale", json!(2)),
        ("mountain_scale", json!(2)),
        ("whist_responsibility", json!("half")),
        ("whist_split", json!("gentleman")),
        ("raspasy_price", json!([1, 2, 3])),
        ("raspasy_exit", json!([6, 7, 8])),
        ("pool_help", json!(false)),
        ("pool_point_whists", json!(20)),
    ]);
    assert_eq!(Profile::preset("leningrad").unwrap(), expected);
}

#[test]
fn rostov_preset() {
    let expected = sochi_with(&[
        ("whist_responsibility", json!("half")),
        ("mountain_as_whists", json!(5)),
    ]);
    assert_eq!(Profile::preset("rostov").unwrap(), expected);
}

#[test]
fn sochi4_preset() {
    assert_eq!(
        Profile::preset("sochi4").unwrap(),
        sochi_with(&[("players", json!(4))])
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

/// The resolved form a table stores: every key; it reads back to the same profile, and a
/// preset read again later cannot change it.
#[test]
fn resolved_profile_round_trips_through_serde() {
    let p = Profile::preset("leningrad")
        .unwrap()
        .with("raspasy_zero_bonus", "price")
        .unwrap()
        .with("surrender", 3)
        .unwrap()
        .with("surrender_max_level", 7)
        .unwrap();
    let text = serde_json::to_string(&p).unwrap();
    let back: Profile = serde_json::from_str(&text).unwrap();
    assert_eq!(back, p);
    assert_eq!(Profile::from_resolved(&p.to_json()).unwrap(), p);
    // Refused: a preset key, an unknown key, a wrong value.
    assert!(serde_json::from_str::<Profile>(r#"{"preset": "sochi"}"#).is_err());
    assert!(serde_json::from_str::<Profile>(r#"{"pool_size": 3}"#).is_err());
    assert!(serde_json::from_str::<Profile>(r#"{"players": 5}"#).is_err());
    // A key stored before it existed takes its default.
    let mut older = p.to_json();
    older.as_object_mut().unwrap().remove("talon_bonus");
    assert_eq!(Profile::from_resolved(&older).unwrap(), p);
}

#[test]
fn to_json_has_every_key_in_the_table_order() {
    let v = Profile::sochi().to_json();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let mut listed: Vec<&str> = Profile::options().map(|o| o.key).collect();
    assert_eq!(listed.len(), 32);
    assert_eq!(listed[0], "players");
    assert_eq!(listed[28], "misere_without_talon");
    assert_eq!(listed[29], "dark_games");
    assert_eq!(listed[30], "claims");
    assert_eq!(listed[31], "reveal_after_deal");
    listed.sort_unstable();
    let mut got = keys.clone();
    got.sort_unstable();
    assert_eq!(got, listed);
    assert_eq!(v["whist_responsibility"], json!("full"));
    assert_eq!(v["raspasy_exit"], json!([6]));
    assert_eq!(v["raspasy_series"], json!("any"));
    assert_eq!(Profile::sochi().get("surrender_max_level"), Some(json!(10)));
    assert_eq!(Profile::sochi().get("pool_size"), None);
    let surrender = Profile::options().find(|o| o.key == "surrender").unwrap();
    assert_eq!(surrender.allowed, "0, 2 or 3");
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
    assert_eq!(p.pool_target(), 10);
    assert_eq!(p.players(), 3);
    let p = Profile::from_toml_str("preset = \"sochi4\"\nmust_overtake = true").unwrap();
    assert_eq!((p.players(), p.must_overtake()), (4, true));
}

/// The Leningrad club's rules (gchet's) as the new keys write them.
#[test]
fn every_new_option_reads_its_values() {
    let p = Profile::from_json(&json!({
        "preset": "leningrad",
        "whist_pass_half": true,
        "checked_ten_consolation": false,
        "whist_shortfall_cap": true,
        "raspasy_zero_bonus": "price",
        "raspasy_series": "made",
        "raspasy_talon": "ignored",
        "dealer_consolation": false,
        "dealer_whist_consolation": "all",
        "surrender": 3,
        "surrender_max_level": 7,
        "talon_bonus": true
    }))
    .unwrap();
    assert!(p.whist_pass_half() && !p.checked_ten_consolation() && p.whist_shortfall_cap());
    assert_eq!(p.raspasy_zero_bonus(), ZeroBonus::Price);
    assert_eq!(p.raspasy_series(), RaspasySeries::Made);
    assert_eq!(p.raspasy_talon(), RaspasyTalon::Ignored);
    assert!(!p.dealer_consolation());
    assert_eq!(p.dealer_whist_consolation(), DealerWhistConsolation::All);
    assert_eq!((p.surrender(), p.surrender_max_level()), (3, 7));
    assert!(p.talon_bonus());
    // R8.9: "price" is the deal's price per trick × mountain_scale (2 in Leningrad).
    assert_eq!(p.zero_bonus_at(3), 6);
    assert_eq!(Profile::sochi().zero_bonus_at(3), 1);
    let p = Profile::sochi().with("raspasy_zero_bonus", 0).unwrap();
    assert_eq!(p.raspasy_zero_bonus(), ZeroBonus::Points(0));
    let p = Profile::sochi().with("surrender", 2).unwrap();
    assert_eq!(p.surrender(), 2);
}

#[test]
fn unknown_key() {
    assert_eq!(err("pool_size = 10"), "unknown option \"pool_size\"");
    assert_eq!(
        Profile::from_json(&json!({"preset": "sochi", "pool_size": 10})),
        Err(ProfileError::UnknownKey("pool_size".to_owned()))
    );
    assert_eq!(
        Profile::sochi().with("claims_maybe", true),
        Err(ProfileError::UnknownKey("claims_maybe".to_owned()))
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
    for (toml, key) in [
        ("whist_pass_half = \"yes\"", "whist_pass_half"),
        ("checked_ten_consolation = 0", "checked_ten_consolation"),
        ("whist_shortfall_cap = 1", "whist_shortfall_cap"),
        ("raspasy_zero_bonus = true", "raspasy_zero_bonus"),
        ("raspasy_zero_bonus = 1.5", "raspasy_zero_bonus"),
        ("raspasy_series = 1", "raspasy_series"),
        ("raspasy_talon = false", "raspasy_talon"),
        ("dealer_consolation = \"on\"", "dealer_consolation"),
        (
            "dealer_whist_consolation = true",
            "dealer_whist_consolation",
        ),
        ("surrender = \"three\"", "surrender"),
        ("surrender_max_level = \"7\"", "surrender_max_level"),
        ("talon_bonus = 1", "talon_bonus"),
    ] {
        let e = Profile::from_toml_str(&format!("preset = \"sochi\"\n{toml}")).unwrap_err();
        assert!(
            matches!(&e, ProfileError::WrongType { key: k, .. } if k == key),
            "{toml}: {e:?}"
        );
    }
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
        ("raspasy_zero_bonus = 101", "raspasy_zero_bonus"),
        ("raspasy_zero_bonus = -1", "raspasy_zero_bonus"),
        ("raspasy_zero_bonus = \"double\"", "raspasy_zero_bonus"),
        ("raspasy_series = \"failed\"", "raspasy_series"),
        ("raspasy_talon = \"turned\"", "raspasy_talon"),
        (
            "dealer_whist_consolation = \"none\"",
            "dealer_whist_consolation",
        ),
        ("surrender = 1", "surrender"),
        ("surrender = 4", "surrender"),
        ("surrender_max_level = 5", "surrender_max_level"),
        ("surrender_max_level = 11", "surrender_max_level"),
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
    assert_eq!(
        err("surrender = 1"),
        "option \"surrender\" is 1, but it must be 0, 2 or 3"
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
    let full: String = Profile::sochi()
        .to_json()
        .as_object()
        .unwrap()
        .iter()
        .filter(|(k, _)| *k != "stalingrad")
        .map(|(k, v)| format!("{k} = {v}\n"))
        .collect();
    assert!(matches!(
        Profile::from_toml_str(&full),
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
