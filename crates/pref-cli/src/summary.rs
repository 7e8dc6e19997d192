//! The `--json` output of `pref replay`, exactly as `docs/game-record.md` shows it:
//! keys in the spec's order, one deal per line, settlement entries as exact strings.

use pref_core::json::Out;
use pref_core::{Outcome, OutcomeKind};
use serde_json::{Value, json};

use crate::replay::Replayed;

/// The whole JSON object, ending with a newline: a field per line, and a deal per line.
pub(crate) fn render(r: &Replayed) -> String {
    let deals = r.steps.iter().map(|s| deal(&s.outcome)).collect();
    let settlement = match &r.settlement {
        Some(s) => Value::from(s.iter().map(ToString::to_string).collect::<Vec<_>>()),
        None => Value::Null,
    };
    let fields = [
        ("pool", json!(r.sheet.pool())),
        ("mountain", json!(r.sheet.mountain())),
        ("whists", json!(r.sheet.whist_matrix())),
        ("finished", json!(r.finished)),
        ("settlement", settlement),
    ];
    let mut object = vec![("deals".to_owned(), lines(Out::List(deals)))];
    object.extend(
        fields
            .iter()
            .map(|(k, v)| ((*k).to_owned(), line(Out::value(v)))),
    );
    let mut out = String::new();
    lines(Out::Object(object)).write(0, &mut out);
    out.push('\n');
    out
}

fn lines(v: Out) -> Out {
    Out::Lines(Box::new(v))
}

fn line(v: Out) -> Out {
    Out::Line(Box::new(v))
}

/// One deal: a game `{kind, declarer, contract, tricks, made}` (no `tricks` when nothing was
/// played), a misère `{kind, declarer, tricks, made}`, raspasy `{kind, tricks}`, a surrender
/// `{kind, declarer, bid, made}` (R4.5).
fn deal(o: &Outcome) -> Out {
    let seats = usize::from(o.players);
    let mut fields: Vec<(&str, Value)> = Vec::new();
    match o.kind {
        OutcomeKind::Game {
            declarer, contract, ..
        } => {
            fields.push(("kind", json!("game")));
            fields.push(("declarer", json!(declarer.0)));
            fields.push(("contract", json!(contract.to_string())));
        }
        OutcomeKind::Misere { declarer } => {
            fields.push(("kind", json!("misere")));
            fields.push(("declarer", json!(declarer.0)));
        }
        OutcomeKind::Surrender { declarer, bid } => {
            fields.push(("kind", json!("surrender")));
            fields.push(("declarer", json!(declarer.0)));
            fields.push(("bid", json!(bid.to_string())));
        }
        OutcomeKind::Raspasy => fields.push(("kind", json!("raspasy"))),
    }
    if let Some(t) = o.tricks {
        fields.push(("tricks", json!(t[..seats])));
    }
    if let Some(made) = o.made() {
        fields.push(("made", json!(made)));
    }
    line(Out::Object(
        fields
            .iter()
            .map(|(k, v)| ((*k).to_owned(), Out::value(v)))
            .collect(),
    ))
}
