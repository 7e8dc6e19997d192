//! `pref verify`: the check anyone can run on a record that its decks were fair
//! (`docs/fairness.md`). Reading the record already recomputes every deal's deck from its
//! fairness data and checks the commitments, the hands, the talon and the play; this command
//! adds that every deal must have that data, and says for each deal what its deck came from.

use std::fmt::Write as _;
use std::path::Path;

use pref_core::fair::Fairness;
use pref_core::{Record, Seat};

/// Runs the command: one line per deal for stdout, or the first failure's line for stderr.
pub(crate) fn run(path: &Path) -> Result<String, String> {
    let text = crate::replay::read_text(path)?;
    let record = Record::from_json_str(&text).map_err(|e| e.to_string())?;
    let mut out = String::new();
    for i in 0..record.deals().len() {
        let fairness = record
            .fairness(i)
            .ok_or_else(|| format!("deal {i}: no fairness data: its deck cannot be checked"))?;
        let _ = writeln!(out, "deal {i}: verified {}", origin(fairness));
    }
    Ok(out)
}

/// The deck commitment, what the deck was shuffled from, and the contributions left out.
fn origin(f: &Fairness) -> String {
    let mut line = format!("{}: server seed ", f.deck_commitment());
    if f.in_deck().next().is_none() {
        line.push_str("alone");
    } else {
        let _ = write!(line, "+ {}", seats(f.in_deck()));
    }
    if f.late().next().is_some() {
        let _ = write!(line, "; {} late, not in the deck", seats(f.late()));
    }
    line
}

/// `seat 2` or `seats 0, 1`.
fn seats(seats: impl Iterator<Item = Seat>) -> String {
    let numbers: Vec<String> = seats.map(|s| s.0.to_string()).collect();
    let noun = if numbers.len() == 1 { "seat" } else { "seats" };
    format!("{noun} {}", numbers.join(", "))
}
