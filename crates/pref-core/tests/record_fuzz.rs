//! Mutated records never crash the reader: random character edits, dropped and repeated
//! lines (so dropped and repeated keys), and swapped cards. Every mutant is either read —
//! and then written and read back to the same record — or refused with a located error.
#![allow(missing_docs)]

use pref_core::{Location, Record};
use proptest::prelude::*;

const SEEDS: [&str; 6] = [
    include_str!("../../../tests/records/worked-deal.json"),
    include_str!("../../../tests/records/spec-replay.json"),
    include_str!("../../../tests/records/half-whist-returned.json"),
    include_str!("../../../tests/records/four-players-dealer-whist.json"),
    include_str!("../../../tests/records/fair-deals.json"),
    include_str!("../../../tests/records/claims.json"),
];

/// Characters an edit may insert: JSON punctuation, digits, card letters, and a few that
/// are multi-byte in UTF-8.
const ALPHABET: &[char] = &[
    '{', '}', '[', ']', '"', ',', ':', ' ', '\n', '0', '1', '2', '9', '-', '.', 'e', 'A', 'K', 'Q',
    'J', 'T', 'S', 'C', 'D', 'H', 'n', 'u', 'l', '\\', '♥', 'é', '\u{0}',
];

#[derive(Clone, Debug)]
enum Edit {
    Replace(usize, char),
    Insert(usize, char),
    Delete(usize),
    DropLine(usize),
    RepeatLine(usize),
    SwapCards(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let ch = proptest::sample::select(ALPHABET);
    prop_oneof![
        (any::<usize>(), ch.clone()).prop_map(|(i, c)| Edit::Replace(i, c)),
        (any::<usize>(), ch).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::DropLine),
        any::<usize>().prop_map(Edit::RepeatLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapCards(a, b)),
    ]
}

/// The byte offsets of the card strings (`"AH"`) of a text.
fn card_spans(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    (0..b.len().saturating_sub(3))
        .filter(|&i| {
            b[i] == b'"'
                && b[i + 3] == b'"'
                && b"789TJQKA".contains(&b[i + 1])
                && b"SCDH".contains(&b[i + 2])
        })
        .map(|i| (i + 1, i + 3))
        .collect()
}

fn apply(text: &str, e: &Edit) -> String {
    let chars: Vec<char> = text.chars().collect();
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out: Vec<char> = chars.clone();
    match *e {
        Edit::Replace(i, c) if !chars.is_empty() => out[i % chars.len()] = c,
        Edit::Insert(i, c) => out.insert(i % (chars.len() + 1), c),
        Edit::Delete(i) if !chars.is_empty() => {
            out.remove(i % chars.len());
        }
        Edit::DropLine(i) => {
            let mut ls = lines.clone();
            ls.remove(i % lines.len());
            return ls.join("\n");
        }
        Edit::RepeatLine(i) => {
            let mut ls = lines.clone();
            let k = i % lines.len();
            ls.insert(k, lines[k]);
            return ls.join("\n");
        }
        Edit::SwapCards(a, b) => {
            let spans = card_spans(text);
            if spans.len() < 2 {
                return text.to_owned();
            }
            let (x, y) = (spans[a % spans.len()], spans[b % spans.len()]);
            let mut s = text.as_bytes().to_vec();
            let (cx, cy) = (text[x.0..x.1].to_owned(), text[y.0..y.1].to_owned());
            s[x.0..x.1].copy_from_slice(cy.as_bytes());
            s[y.0..y.1].copy_from_slice(cx.as_bytes());
            return String::from_utf8(s).unwrap_or_default();
        }
        _ => {}
    }
    out.into_iter().collect()
}

fn check(text: &str) {
    match Record::from_json_str(text) {
        Ok(r) => {
            let written = r.to_json_string();
            assert_eq!(
                Record::from_json_str(&written).as_ref(),
                Ok(&r),
                "{written}"
            );
        }
        Err(e) => {
            let line = e.to_string();
            assert!(!line.contains('\n'), "{line}");
            let prefix = match e.location {
                Location::Record => "record: ".to_owned(),
                Location::Deal(d) => format!("deal {d}: "),
                Location::Action { deal, action } => format!("deal {deal}, action {action}: "),
            };
            assert!(line.starts_with(&prefix), "{line}");
        }
    }
}

proptest! {
    // PROPTEST_CASES=100000 for a long run; 2000 keep the test suite quick.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(2000)
    ))]

    #[test]
    fn mutated_records_are_read_or_refused(seed in 0..SEEDS.len(), edits in proptest::collection::vec(edit(), 1..6)) {
        let mut text = SEEDS[seed].to_owned();
        for e in &edits {
            text = apply(&text, e);
        }
        check(&text);
    }

    #[test]
    fn arbitrary_text_is_refused_without_a_crash(text in ".{0,200}") {
        check(&text);
    }
}

#[test]
fn the_seeds_are_valid() {
    for s in SEEDS {
        Record::from_json_str(s).unwrap();
    }
}
