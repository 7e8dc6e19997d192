//! The `--json` output of `pref replay`, exactly as `docs/game-record.md` shows it:
//! keys in the spec's order, one deal per line, settlement entries as exact strings.

use std::fmt::Write as _;

use pref_core::{Outcome, OutcomeKind};
use serde_json::{Value, json};

use crate::replay::Replayed;

/// The whole JSON object, ending with a newline.
pub(crate) fn render(r: &Replayed) -> String {
    let deals: Vec<String> = r.steps.iter().map(|s| deal(&s.outcome)).collect();
    let mut out = String::from("{\n");
    if deals.is_empty() {
        out.push_str("  \"deals\": [],\n");
    } else {
        let _ = writeln!(out, "  \"deals\": [\n    {}\n  ],", deals.join(",\n    "));
    }
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
    let lines: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("  \"{k}\": {}", flat(v)))
        .collect();
    out.push_str(&lines.join(",\n"));
    out.push_str("\n}\n");
    out
}

/// One deal: a game `{kind, declarer, contract, tricks, made}` (no `tricks` when nothing was
/// played), a misère `{kind, declarer, tricks, made}`, raspasy `{kind, tricks}`, a surrender
/// `{kind, declarer, bid, made}` (R4.5).
fn deal(o: &Outcome) -> String {
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
    let parts: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("\"{k}\": {}", flat(v)))
        .collect();
    format!("{{{}}}", parts.join(", "))
}

/// A value on one line with a space after each `,` (and `:`), as the spec writes it.
fn flat(v: &Value) -> String {
    match v {
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(flat).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}: {}", Value::from(k.as_str()), flat(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        other => other.to_string(),
    }
}
