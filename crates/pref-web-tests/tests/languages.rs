//! The client's words: every language file has every key of the English one, none empty and
//! none extra, with the same placeholders, and every key the modules ask for with a literal
//! `t('…')` exists. The same holds for the rules guide's own words (`web/lang/guide/`), and
//! every paragraph, list item and question the guide's sections name exists. Runs without a
//! browser.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const LANGS: [&str; 5] = ["en", "ru", "fr", "pt", "it"];

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web")
}

fn words(code: &str) -> BTreeMap<String, String> {
    words_in("lang", code)
}

/// The words of one language in `web/DIR/CODE.json`.
fn words_in(dir: &str, code: &str) -> BTreeMap<String, String> {
    let path = web().join(dir).join(format!("{code}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_language_has_every_key() {
    same_keys_everywhere("lang");
}

#[test]
fn every_language_has_every_key_of_the_guide() {
    same_keys_everywhere("lang/guide");
    let en = words_in("lang/guide", "en");
    assert!(en.len() > 150, "the guide's words: {}", en.len());
    // The guide's words never shadow the client's.
    let common = words("en");
    let shared: Vec<&String> = en.keys().filter(|k| common.contains_key(*k)).collect();
    assert!(shared.is_empty(), "keys in both files: {shared:?}");
}

/// Every language in `web/DIR/` has exactly the keys of `en.json`, none empty, with the same
/// placeholders.
fn same_keys_everywhere(dir: &str) {
    let en = words_in(dir, "en");
    for code in LANGS {
        let w = words_in(dir, code);
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

/// Literal keys (`t('a.b')`) in the modules, and `opt.KEY`/`opt.KEY.help` for every option;
/// a module may ask for the guide's words too (the header links to the guide).
#[test]
fn every_key_asked_for_exists() {
    let mut en = words("en");
    en.extend(words_in("lang/guide", "en"));
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

/// The guide's sections (`web/js/guide-text.js`) name their paragraphs by count: `g.ID.p1` …,
/// `g.ID.li1` …, `g.ID.q1`/`g.ID.a1` …; each of them exists, and none is left unused.
#[test]
fn every_section_of_the_guide_has_its_words() {
    let en = words_in("lang/guide", "en");
    let text = std::fs::read_to_string(web().join("js/guide-text.js")).expect("guide-text.js");
    let mut named = Vec::new();
    for line in text
        .lines()
        .filter(|l| l.trim_start().starts_with("{ id: '"))
    {
        let id = line.split('\'').nth(1).expect("an id");
        let count = |field: &str| -> usize {
            line.split(&format!("{field}: "))
                .nth(1)
                .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(0)
        };
        named.push(format!("g.{id}.title"));
        let paras = count("paras") + count("after");
        named.extend((1..=paras).map(|i| format!("g.{id}.p{i}")));
        named.extend((1..=count("items")).map(|i| format!("g.{id}.li{i}")));
        for i in 1..=count("faq") {
            named.push(format!("g.{id}.q{i}"));
            named.push(format!("g.{id}.a{i}"));
        }
    }
    assert!(named.len() > 60, "the sections name {} texts", named.len());
    let missing: Vec<&String> = named.iter().filter(|k| !en.contains_key(*k)).collect();
    assert!(
        missing.is_empty(),
        "texts the sections name but lang/guide/en.json lacks: {missing:?}"
    );
    let unused: Vec<&String> = en
        .keys()
        .filter(|k| {
            let section = k.split('.').nth(1).unwrap_or_default();
            text.contains(&format!("{{ id: '{section}'")) && !named.contains(k)
        })
        .collect();
    assert!(
        unused.is_empty(),
        "section texts no section shows: {unused:?}"
    );
}
