//! The `--json` output of `pref replay`, exactly as `docs/game-record.md` shows it:
//! keys in the spec's order, one deal per line, settlement entries as exact strings.

use pref_core::json::Out;
use pref_core::{Outcome, OutcomeForm};
use serde::Serialize;
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

/// One deal as the record's outcome form writes it (the core's [`OutcomeForm`]) cut to what
/// a replay's reader wants, and whether the declarer made it: a game `{kind, declarer,
/// contract, tricks, made}` (no `tricks` when nothing was played), a misère `{kind,
/// declarer, tricks, made}`, raspasy `{kind, tricks}`, a surrender `{kind, declarer, bid,
/// made}` (R4.5). The whist decisions, the defence and the talon's units stay in the record.
#[derive(Serialize)]
struct DealLine {
    #[serde(flatten)]
    form: OutcomeForm,
    #[serde(skip_serializing_if = "Option::is_none")]
    made: Option<bool>,
}

fn deal(o: &Outcome) -> Out {
    let form = OutcomeForm {
        whist: None,
        defence: None,
        talon_units: None,
        ..o.form()
    };
    line(Out::of(&DealLine {
        form,
        made: o.made(),
    }))
}
