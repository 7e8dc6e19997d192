//! `pref replay` for people: what each deal was, the sheet after it (pool, mountain, whists
//! each player wrote on each other), and the settlement in whists.

use std::fmt::Write as _;

use num_rational::Ratio;
use pref_core::{Outcome, OutcomeKind, Profile, Seat, Sheet, WhistCall};

use crate::replay::Replayed;

/// The whole report.
pub(crate) fn render(r: &Replayed) -> String {
    let names = r.record.players();
    let n = names.len();
    let mut out = String::new();
    let dealer = &names[r.record.first_dealer().index()];
    let _ = writeln!(
        out,
        "{} play {}; {dealer} deals first.",
        join_names(names),
        profile_words(r.record.preset(), r.record.profile()),
    );
    for (i, step) in r.steps.iter().enumerate() {
        let o = &step.outcome;
        let claim = step.claim.map_or_else(String::new, |a| {
            let counts: Vec<String> = a.claim.entries().iter().map(ToString::to_string).collect();
            format!(
                " {} claimed the last {} tricks as {}; all accepted.",
                names[a.seat.index()],
                a.claim.total(),
                counts.join("–")
            )
        });
        let _ = writeln!(
            out,
            "\nDeal {}, {} deals: {}{claim}",
            i + 1,
            names[o.dealer.index()],
            describe(o, names)
        );
        sheet_table(&step.sheet, names, &mut out);
    }
    out.push('\n');
    match &r.settlement {
        None if r.steps.is_empty() => out.push_str("No deal yet: no settlement.\n"),
        None => out.push_str("The game goes on: not every pool is closed, no settlement yet.\n"),
        Some(settlement) => {
            if r.record.agreed_stop() && !r.sheet.all_closed(r.record.profile()) {
                out.push_str(
                    "The players agreed to stop: missing pool points go on the mountain (R10.3).\n",
                );
            } else {
                out.push_str("Every pool is closed: the game is over.\n");
            }
            out.push_str("Settlement, in whists:\n");
            let width = name_width(names);
            for (seat, amount) in settlement.iter().enumerate().take(n) {
                let _ = writeln!(out, "  {:<width$}  {}", names[seat], money(amount));
            }
        }
    }
    out
}

fn join_names(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `sochi`, or `sochi with pool_target 6, whist_scale 2`.
fn profile_words(preset: &str, profile: &Profile) -> String {
    let base = Profile::preset(preset).unwrap_or_else(Profile::sochi);
    let overrides = profile.overrides_from(&base);
    if overrides.is_empty() {
        return preset.to_owned();
    }
    let parts: Vec<String> = overrides.iter().map(|(k, v)| format!("{k} {v}")).collect();
    format!("{preset} with {}", parts.join(", "))
}

/// One sentence about a deal; a dark deal (R3.9.1) and a deal without talon (R4.6) say so.
pub(crate) fn describe(o: &Outcome, names: &[String]) -> String {
    let mut text = sentence(o, names);
    if o.no_talon {
        text.push_str(" Without talon (R4.6).");
    }
    if o.dark {
        text.push_str(" Dark deal: every entry ×2 (R8.11).");
    }
    text
}

fn sentence(o: &Outcome, names: &[String]) -> String {
    let tricks = o.tricks.map(|t| {
        let counts: Vec<String> = t[..usize::from(o.players)]
            .iter()
            .map(ToString::to_string)
            .collect();
        counts.join("–")
    });
    match o.kind {
        OutcomeKind::Game {
            declarer,
            contract,
            whist,
            ..
        } => {
            let who = &names[declarer.index()];
            let calls: Vec<String> = whist
                .iter()
                .enumerate()
                .take(names.len())
                .filter_map(|(s, w)| w.map(|w| format!("{} {}", names[s], call_word(w))))
                .collect();
            let defence = if calls.is_empty() {
                String::new()
            } else {
                format!(" ({})", calls.join(", "))
            };
            match tricks {
                Some(t) => {
                    let taken = o.tricks.map_or(0, |t| t[declarer.index()]);
                    let result = if taken >= contract.level() {
                        "made".to_owned()
                    } else {
                        format!("down {}", contract.level() - taken)
                    };
                    format!(
                        "{who} plays {}{defence}: {result}, tricks {t}.",
                        contract.pretty()
                    )
                }
                None if whist.contains(&Some(WhistCall::Half)) => format!(
                    "{who} plays {}{defence}: the half-whist stands, no play.",
                    contract.pretty()
                ),
                None => format!(
                    "{who} plays {}{defence}: conceded without play.",
                    contract.pretty()
                ),
            }
        }
        OutcomeKind::Misere { declarer } => {
            let taken = o.tricks.map_or(0, |t| t[declarer.index()]);
            let result = match taken {
                0 => "made".to_owned(),
                1 => "failed with 1 trick".to_owned(),
                t => format!("failed with {t} tricks"),
            };
            format!(
                "{} plays misère: {result}, tricks {}.",
                names[declarer.index()],
                tricks.unwrap_or_default()
            )
        }
        OutcomeKind::Surrender { declarer, bid } => format!(
            "{} surrenders at {}: down without whists, no play (R4.5).",
            names[declarer.index()],
            bid.pretty()
        ),
        OutcomeKind::Raspasy => format!("raspasy, tricks {}.", tricks.unwrap_or_default()),
    }
}

fn call_word(w: WhistCall) -> &'static str {
    match w {
        WhistCall::Whist => "whists",
        WhistCall::Pass => "passes",
        WhistCall::Half => "half-whists",
    }
}

pub(crate) fn name_width(names: &[String]) -> usize {
    names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(6)
}

/// The sheet: a row per player with pool, mountain and the whists he wrote on each other.
fn sheet_table(sheet: &Sheet, names: &[String], out: &mut String) {
    let width = name_width(names);
    let cols: Vec<usize> = names.iter().map(|n| n.chars().count().max(5)).collect();
    let _ = write!(
        out,
        "  {:<width$}  {:>5}  {:>8}  whists on",
        "", "pool", "mountain"
    );
    for (name, w) in names.iter().zip(&cols) {
        let _ = write!(out, "  {name:>w$}");
    }
    out.push('\n');
    let pool = sheet.pool();
    let mountain = sheet.mountain();
    for (a, name) in names.iter().enumerate() {
        let _ = write!(
            out,
            "  {name:<width$}  {:>5}  {:>8}  {:9}",
            pool.get(a).copied().unwrap_or(0),
            mountain.get(a).copied().unwrap_or(0),
            ""
        );
        for (b, w) in cols.iter().enumerate() {
            if a == b {
                let _ = write!(out, "  {:>w$}", "·");
            } else {
                let _ = write!(out, "  {:>w$}", sheet.whists(Seat(a as u8), Seat(b as u8)));
            }
        }
        out.push('\n');
    }
}

/// An exact amount with its sign, and a decimal next to a fraction: `+116/3 (+38.67)`.
fn money(r: &Ratio<i64>) -> String {
    let sign = if *r.numer() > 0 { "+" } else { "" };
    if *r.denom() == 1 {
        format!("{sign}{r}")
    } else {
        let approx = *r.numer() as f64 / *r.denom() as f64;
        format!("{sign}{r} ({sign}{approx:.2})")
    }
}
