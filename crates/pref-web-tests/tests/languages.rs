//! The client's words: every language file has every key of the English one, none empty and
//! none extra, and every key the modules ask for with a literal `t('…')` exists. Runs without
//! a browser.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const LANGS: [&str; 5] = ["en", "ru", "fr", "pt", "it"];

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web")
}

fn words(code: &str) -> BTreeMap<String, String> {
    let path = web().join("lang").join(format!("{code}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_language_has_every_key() {
    let en = words("en");
    for code in LANGS {
        let w = words(code);
        let missing: Vec<&String> = en.keys().filter(|k| !w.contains_key(*k)).collect();
        let extra: Vec<&String> = w.keys().filter(|k| !en.contains_key(*k)).collect();
        let empty: Vec<&String> = w
            .iter()
            .filter(|(_, v)| v.trim().is_empty())
            .map(|(k, _)| k)
            .collect();
        assert!(missing.is_empty(), "{code}: missing keys {missing:?}");
        assert!(extra.is_empty(), "{code}: keys not in en.json {extra:?}");
        assert!(empty.is_empty(), "{code}: empty keys {empty:?}");
        for (k, v) in &en {
            let holes = |s: &str| {
                let mut h: Vec<String> = s
                    .match_indices('{')
                    .filter_map(|(i, _)| s[i..].find('}').map(|j| s[i..i + j + 1].to_owned()))
                    .collect();
                h.sort();
                h
            };
            assert_eq!(holes(v), holes(&w[k]), "{code}: placeholders of {k}");
        }
    }
}

/// Literal keys (`t('a.b')`) in the modules, and `opt.KEY`/`opt.KEY.help` for every option.
#[test]
fn every_key_asked_for_exists() {
    let en = words("en");
    let mut asked = Vec::new();
    for entry in std::fs::read_dir(web().join("js")).expect("web/js") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("module");
        for (i, _) in text.match_indices("t('") {
            let rest = &text[i + 3..];
            if i > 0 && text.as_bytes()[i - 1].is_ascii_alphanumeric() {
                continue;
            }
            if let Some(end) = rest.find('\'') {
                asked.push((path.clone(), rest[..end].to_owned()));
            }
        }
        if path.ends_with("options.js") {
            for line in text.lines().filter(|l| l.trim_start().starts_with("['")) {
                let key = line.trim_start()[2..]
                    .split('\'')
                    .next()
                    .unwrap_or_default()
                    .to_owned();
                asked.push((path.clone(), format!("opt.{key}")));
                asked.push((path.clone(), format!("opt.{key}.help")));
            }
        }
    }
    assert!(asked.len() > 50, "found the keys: {}", asked.len());
    let missing: Vec<_> = asked.iter().filter(|(_, k)| !en.contains_key(k)).collect();
    assert!(
        missing.is_empty(),
        "keys the modules use but en.json lacks: {missing:?}"
    );
}
