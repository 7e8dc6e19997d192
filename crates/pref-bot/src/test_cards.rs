//! Cards written as text for the unit tests ("AS KD 7H"), one helper for the modules'
//! tests instead of a copy in each.

use pref_core::{Card, CardSet};

/// The cards of `s`, space-separated in the core's notation.
pub(crate) fn set(s: &str) -> CardSet {
    s.split_whitespace()
        .map(|c| c.parse::<Card>().expect("card"))
        .collect()
}
