//! The worked example of `docs/ratings.md`, recomputed from the document itself: each game's
//! table (marked `<!-- worked example: ... -->` with its idle days and the same accounts'
//! earlier games that day) is read for the balances, and every place, rating before and
//! after (to 2 decimals) and shown figure in it must be what the crate computes, the ratings
//! carried from one game to the next (a table marked "instead of the game before" replays
//! the game before from the same ratings). Editing a figure in the document, or the method,
//! without the other fails here.
#![allow(missing_docs)]

use num_rational::Ratio;
use pref_rating::{Finish, Params, Rating, places, rate, same_trio_weight};

const DOC: &str = include_str!("../../../docs/ratings.md");

/// One row of a game's table.
struct Row {
    player: String,
    balance: Ratio<i64>,
    place: usize,
    before: String,
    after: String,
    shown: String,
}

/// One game of the example.
struct Example {
    instead: bool,
    idle_days: u32,
    earlier_today: u32,
    rows: Vec<Row>,
}

/// `+40`, `−8 1/3`, `-31 2/3`, `0`.
fn balance(text: &str) -> Ratio<i64> {
    let t = text.trim().replace('−', "-");
    let (negative, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest.to_owned()),
        None => (false, t.trim_start_matches('+').to_owned()),
    };
    let mut parts = t.split_whitespace();
    let whole: i64 = parts
        .next()
        .expect("a number")
        .parse()
        .expect("whole whists");
    let fraction = parts.next().map_or(Ratio::from_integer(0), |f| {
        let (n, d) = f.split_once('/').expect("a fraction n/d");
        Ratio::new(
            n.parse().expect("numerator"),
            d.parse().expect("denominator"),
        )
    });
    let value = Ratio::from_integer(whole) + fraction;
    if negative { -value } else { value }
}

/// `key N` inside the marker's text.
fn number_after(marker: &str, key: &str) -> u32 {
    let at = marker
        .find(key)
        .unwrap_or_else(|| panic!("{key} in {marker}"));
    marker[at + key.len()..]
        .split_whitespace()
        .next()
        .and_then(|n| n.trim_end_matches(';').parse().ok())
        .unwrap_or_else(|| panic!("a number after {key} in {marker}"))
}

fn examples() -> Vec<Example> {
    let mut out = Vec::new();
    let mut lines = DOC.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(marker) = line.strip_prefix("<!-- worked example:") else {
            continue;
        };
        let mut rows = Vec::new();
        while let Some(row) = lines.next_if(|l| l.starts_with('|') || l.trim().is_empty()) {
            let cells: Vec<&str> = row
                .trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect();
            if cells.len() < 6 || cells[0] == "player" || cells[0].starts_with("---") {
                continue;
            }
            rows.push(Row {
                player: cells[0].to_owned(),
                balance: balance(cells[1]),
                place: cells[2].parse().expect("a place"),
                before: cells[3].to_owned(),
                after: cells[4].to_owned(),
                shown: cells[5].to_owned(),
            });
        }
        out.push(Example {
            instead: marker.contains("instead of the game before"),
            idle_days: number_after(marker, "idle days"),
            earlier_today: number_after(marker, "earlier games today"),
            rows,
        });
    }
    out
}

fn two_decimals(r: &Rating) -> String {
    format!("{:.2} ± {:.2}", r.mu, r.sigma)
}

#[test]
fn the_worked_example_of_the_document_is_what_the_crate_computes() {
    let p = Params::STANDARD;
    let games = examples();
    assert_eq!(games.len(), 3, "the document's example has three tables");
    let new: Vec<(String, Rating)> = games[0]
        .rows
        .iter()
        .map(|r| (r.player.clone(), Rating::new(&p)))
        .collect();
    // The ratings after the last game that counted, and before it.
    let (mut ratings, mut previous) = (new.clone(), new);
    for (n, game) in games.iter().enumerate() {
        if game.instead {
            ratings.clone_from(&previous);
        }
        let before: Vec<Rating> = game
            .rows
            .iter()
            .map(|row| {
                let (_, r) = ratings
                    .iter()
                    .find(|(name, _)| *name == row.player)
                    .expect("a player of the first game");
                r.after_idle(game.idle_days, &p)
            })
            .collect();
        let finishes: Vec<Finish> = game
            .rows
            .iter()
            .map(|r| Finish::Balance(r.balance))
            .collect();
        let after = rate(&before, &finishes, same_trio_weight(game.earlier_today), &p);
        let doc_places: Vec<usize> = game.rows.iter().map(|r| r.place).collect();
        assert_eq!(places(&finishes), doc_places, "game {}", n + 1);
        previous.clone_from(&ratings);
        for ((row, b), a) in game.rows.iter().zip(&before).zip(&after) {
            let at = format!("table {} {}", n + 1, row.player);
            assert_eq!(row.before, two_decimals(b), "{at} before");
            assert_eq!(row.after, two_decimals(a), "{at} after");
            let change = a.shown() - b.shown();
            let shown = format!("{} ± {}, {change:+}", a.shown(), a.shown_deviation());
            assert_eq!(row.shown, shown.replace('-', "−"), "{at} shown");
            if let Some(slot) = ratings.iter_mut().find(|(name, _)| *name == row.player) {
                slot.1 = *a;
            }
        }
    }
}

#[test]
fn mixed_numbers_are_read_as_the_document_writes_them() {
    assert_eq!(balance("+40"), Ratio::from_integer(40));
    assert_eq!(balance("−8 1/3"), Ratio::new(-25, 3));
    assert_eq!(balance("-31 2/3"), Ratio::new(-95, 3));
}
