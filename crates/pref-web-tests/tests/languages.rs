//! The client's words: every language file has every key of the English one, none empty and
//! none extra, with the same placeholders, and every key the modules ask for with a literal
//! `t('…')` exists. The same holds for the rules guide's own words (`web/lang/guide/`), and
//! every paragraph, list item and question the guide's sections name exists. The sentences the
//! rules review corrected exist in every language with the engine's numbers as placeholders,
//! and no language uses a word it replaced (`tests/replaced-words.json`), in its menus or its
//! guide. Runs without a browser.

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
            // A plural form `{n|one:…;other:…}` holds the language's own words: only the
            // number it is chosen by must be the same.
            let holes = |s: &str| {
                let mut h: Vec<String> = s
                    .match_indices('{')
                    .filter_map(|(i, _)| s[i..].find('}').map(|j| &s[i + 1..i + j]))
                    .map(|hole| format!("{{{}}}", hole.split('|').next().unwrap_or(hole)))
                    .collect();
                h.sort();
                h.dedup();
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

/// The guide's sentences corrected or added against `docs/rules.md` (R5–R11), each with the
/// placeholders it must carry so that its numbers come from the engine (`GET /api/guide`).
const CORRECTED: [(&str, &[&str]); 27] = [
    ("g.lead", &["{target}"]),
    ("g.history.p1", &[]),
    ("g.history.p2", &[]),
    ("g.profile.li2", &[]),
    ("g.profile.li3", &["{q10}"]),
    ("g.profile.li5", &[]),
    ("g.play.p2", &[]),
    ("g.whist.p1", &[]),
    ("g.whist.p2", &["{half6}", "{half7}"]),
    ("g.scoring.p1", &[]),
    ("g.scoring.p2", &["{v8}"]),
    ("g.misere.p2", &[]),
    ("g.misere.p3", &["{misere}"]),
    ("g.raspasy.p1", &[]),
    ("g.raspasy.p2", &[]),
    ("g.raspasy.p3", &["{rbonus}", "{a_tricks}", "{a_written}"]),
    ("g.deal.p1", &[]),
    ("g.closing.p1", &["{target}", "{help}"]),
    ("g.four.p1", &[]),
    ("g.four.p2", &[]),
    ("g.four.p3", &["{lening}", "{rostov}"]),
    ("g.agreements.p1", &[]),
    ("g.agreements.li1", &[]),
    ("g.agreements.li2", &[]),
    ("g.mistakes.li3", &[]),
    ("g.checklist.p1", &[]),
    ("g.faq.a4", &[]),
];

/// R5.3, R7.2–R7.3, R8.4, R8.6, R8.7, R8.9, R9.2, R11.3–R11.5: every corrected sentence exists
/// in all five languages, is not left in English, and carries the engine's numbers.
#[test]
fn every_corrected_sentence_exists_in_every_language() {
    let en = words_in("lang/guide", "en");
    for code in LANGS {
        let w = words_in("lang/guide", code);
        for (key, holes) in CORRECTED {
            let text = w
                .get(key)
                .unwrap_or_else(|| panic!("{code}: {key} is missing"));
            assert!(!text.trim().is_empty(), "{code}: {key} is empty");
            if code != "en" {
                assert_ne!(text, &en[key], "{code}: {key} is still in English");
            }
            for hole in holes {
                assert!(text.contains(hole), "{code}: {key} lacks {hole}: {text}");
            }
        }
    }
    // The English wording of the corrections themselves (R7.3, R8.4, R8.7, R11.3).
    assert!(en["g.raspasy.p2"].contains("from the fourth trick on"));
    assert!(en["g.scoring.p2"].contains("against eight, nine and a whisted ten"));
    assert!(en["g.scoring.p1"].contains("the half-whister none"));
    assert!(en["g.four.p1"].contains("unlike with three players"));
    assert!(en["g.deal.p1"].contains("holds all four suits"));
}

/// One replaced word of `tests/replaced-words.json`.
struct Replaced {
    term: String,
    prefix: bool,
    instead: String,
}

/// The replaced words of each language.
fn replaced() -> BTreeMap<String, Vec<Replaced>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replaced-words.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: serde_json::Value = serde_json::from_str(&text).expect("replaced-words.json");
    let words = v["words"].as_object().expect("a words object");
    words
        .iter()
        .map(|(code, list)| {
            let list = list
                .as_array()
                .expect("a list")
                .iter()
                .map(|w| {
                    let term = w["term"].as_str().expect("a term");
                    Replaced {
                        term: term.trim_end_matches('*').to_lowercase(),
                        prefix: term.ends_with('*'),
                        instead: w["use"].as_str().expect("what to use").to_owned(),
                    }
                })
                .collect();
            (code.clone(), list)
        })
        .collect()
}

/// Whether `text` uses `word`: case-insensitively, where a word starts, and (unless `word`
/// is a prefix) where a word ends.
fn uses(text: &str, word: &Replaced) -> bool {
    let text = text.to_lowercase();
    text.match_indices(&word.term).any(|(i, m)| {
        let starts = text[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        let ends = word.prefix
            || text[i + m.len()..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric());
        starts && ends
    })
}

#[test]
fn the_replaced_word_matcher_finds_words_where_they_start() {
    let word = |term: &str| Replaced {
        term: term.trim_end_matches('*').to_lowercase(),
        prefix: term.ends_with('*'),
        instead: String::new(),
    };
    assert!(uses("Это ренонс.", &word("ренонс*")));
    assert!(uses("ренонса нет", &word("ренонс*")));
    assert!(!uses("это фальшренонс", &word("ренонс*")));
    assert!(uses("Il viste.", &word("viste")));
    assert!(!uses("le vistant", &word("viste")));
    assert!(!uses("à Leningrad", &word("Léningrad")));
    assert!(uses("Sotchi", &word("sotchi")));
    assert!(uses("«Ростов»", &word("Ростов")));
    assert!(!uses("ростовка", &word("Ростов")));
    assert!(uses("6 ST", &word("ST")));
    assert!(!uses("a lista", &word("ST")));
}

/// Each language uses its own seed's words, one word per thing: no menu string and no guide
/// string of a language uses a word from its list of replaced words.
#[test]
fn no_language_uses_a_word_it_replaced() {
    let lists = replaced();
    assert_eq!(
        lists.keys().map(String::as_str).collect::<Vec<_>>(),
        ["en", "fr", "it", "pt", "ru"],
        "a list for every language"
    );
    let mut found = Vec::new();
    for code in LANGS {
        for dir in ["lang", "lang/guide"] {
            for (key, text) in words_in(dir, code) {
                for word in &lists[code] {
                    if uses(&text, word) {
                        found.push(format!(
                            "{code} {dir} {key}: \"{}\" (use \"{}\"): {text}",
                            word.term, word.instead
                        ));
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "replaced words in use:\n{}",
        found.join("\n")
    );
}
