//! `pref analyze`: the solver's verdict on every card of a record's played deals, the par,
//! and each seat's best contract (`pref-analysis`); for people, or as `pref-analysis/1`
//! JSON with `--json` (`docs/analysis.md`).

use std::fmt::Write as _;
use std::path::Path;

use pref_analysis::{Analyser, CardAnalysis, DealAnalysis, NotAnalysable, Par, Parts, json};
use pref_core::{Bid, CardSet, Record, Strain};

/// Runs the command: the text for stdout, or the one line for stderr.
pub(crate) fn run(path: &Path, as_json: bool, deal: Option<usize>) -> Result<String, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("record: cannot read {}: {e}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|_| "record: not valid UTF-8".to_owned())?;
    let record = Record::from_json_str(&text).map_err(|e| e.to_string())?;
    let deals = Analyser::new()
        .record(&record, deal, Parts::ALL)
        .map_err(|e| e.to_string())?;
    // One deal asked for and it has no analysis: that is the command's failure.
    if let (Some(_), [Err(e)]) = (deal, deals.as_slice()) {
        return Err(e.to_string());
    }
    Ok(if as_json {
        let mut out = serde_json::to_string_pretty(&json::document(record.players(), &deals))
            .expect("JSON values serialise");
        out.push('\n');
        out
    } else {
        render(record.players(), &deals)
    })
}

/// The report for people.
fn render(names: &[String], deals: &[Result<DealAnalysis, NotAnalysable>]) -> String {
    let mut out = String::new();
    for (k, d) in deals.iter().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        match d {
            Ok(a) => deal(a, names, &mut out),
            Err(e) => {
                let _ = writeln!(out, "Deal {}: {}.", e.deal() + 1, e.reason());
            }
        }
    }
    out
}

fn deal(a: &DealAnalysis, names: &[String], out: &mut String) {
    let o = &a.outcome;
    let _ = writeln!(
        out,
        "Deal {}, {} deals: {}",
        a.index + 1,
        names[o.dealer.index()],
        crate::table::describe(o, names)
    );
    if !a.auction.is_empty() {
        out.push_str("With the cards as they lay (open hands, talon taken, best discard):\n");
        let width = crate::table::name_width(names);
        for s in &a.auction {
            let strains: Vec<String> = s
                .strains
                .iter()
                .zip(Strain::ALL)
                .map(|(&(t, _), strain)| format!("{} {t}", strain_name(strain)))
                .collect();
            let best = match s.best {
                Some((bid, x)) => format!("could have made {} {}", bid_name(bid), discard(x)),
                None => "no contract made".to_owned(),
            };
            let _ = writeln!(
                out,
                "  {:<width$}  {best}; tricks {}",
                names[s.seat.index()],
                strains.join(", ")
            );
            if let Some(n) = s.no_talon {
                let tricks: Vec<String> = n
                    .strains
                    .iter()
                    .zip(Strain::ALL)
                    .map(|(&t, strain)| format!("{} {t}", strain_name(strain)))
                    .collect();
                let misere = if n.misere { "clean" } else { "not clean" };
                let _ = writeln!(
                    out,
                    "  {:<width$}  without the talon: misère {misere}; tricks {}",
                    "",
                    tricks.join(", ")
                );
            }
        }
    }
    match a.par {
        Some(Par::Contract {
            declarer,
            tricks,
            defence,
        }) => {
            let _ = writeln!(
                out,
                "Par: {} takes {tricks} against best defence; the defence holds {defence}.",
                names[declarer.index()]
            );
        }
        Some(Par::Misere { declarer, tricks }) => {
            let _ = writeln!(
                out,
                "Par: the defence can force {tricks} trick{} on {}.",
                if tricks == 1 { "" } else { "s" },
                names[declarer.index()]
            );
        }
        Some(Par::Raspasy { tricks }) => {
            let each: Vec<String> = tricks
                .iter()
                .enumerate()
                .filter_map(|(s, t)| t.map(|t| format!("{} {t}", names[s])))
                .collect();
            let _ = writeln!(
                out,
                "Par (each player's own tricks, the other two against him): {}.",
                each.join(", ")
            );
        }
        None => {}
    }
    if a.cards.is_empty() {
        out.push_str("No card was played.\n");
        return;
    }
    let raspasy = matches!(a.par, Some(Par::Raspasy { .. }));
    out.push_str(if raspasy {
        "Cards (the player's own tricks for the deal, before → after the card):\n"
    } else {
        "Cards (the declarer's tricks for the deal, before → after the card):\n"
    });
    let mut lost = 0u32;
    for c in &a.cards {
        card(c, names, out);
        lost += u32::from(c.cost);
    }
    let mistakes = a.cards.iter().filter(|c| c.cost > 0).count();
    let _ = writeln!(
        out,
        "{mistakes} card{} cost tricks ({lost} in all).",
        if mistakes == 1 { "" } else { "s" }
    );
}

fn card(c: &CardAnalysis, names: &[String], out: &mut String) {
    let who = &names[c.seat.index()];
    let by = if c.by == c.seat {
        String::new()
    } else {
        format!(" (played by {})", names[c.by.index()])
    };
    let _ = write!(
        out,
        "  trick {:>2}: {who}{by} {} {} → {}",
        c.trick + 1,
        c.card.pretty(),
        c.before,
        c.after
    );
    if c.cost > 0 {
        let best: Vec<String> = c.best.iter().map(|b| b.pretty().to_string()).collect();
        let _ = write!(
            out,
            "   cost {} trick{}; best {}",
            c.cost,
            if c.cost == 1 { "" } else { "s" },
            best.join(" ")
        );
    }
    out.push('\n');
}

fn strain_name(s: Strain) -> String {
    s.trump()
        .map_or_else(|| "NT".to_owned(), |t| t.symbol().to_string())
}

fn bid_name(b: Bid) -> String {
    b.pretty().to_string()
}

fn discard(x: CardSet) -> String {
    if x.is_empty() {
        return "(the ten cards dealt, no talon taken)".to_owned();
    }
    let cards: Vec<String> = x.iter().map(|c| c.pretty().to_string()).collect();
    format!("(discarding {})", cards.join(" "))
}
