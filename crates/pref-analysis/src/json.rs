//! The analysis as JSON (`pref-analysis/1`, documented in `docs/analysis.md`): what
//! `pref analyze --json` prints and what a server sends. Cards, contracts and bids are in
//! the record's notation (`KS`, `7H`, `misere`).

use pref_core::{AcceptedClaim, Card, CardSet, Outcome, OutcomeKind};
use serde_json::{Map, Value, json};

use crate::auction::SeatBest;
use crate::claim::{ClaimAnalysis, Side};
use crate::deal::{CardAnalysis, DealAnalysis, NotAnalysable, Par};

/// The value of the document's `format` key.
pub const FORMAT: &str = "pref-analysis/1";

/// The whole document for a record's deals.
#[must_use]
pub fn document(players: &[String], deals: &[Result<DealAnalysis, NotAnalysable>]) -> Value {
    json!({
        "format": FORMAT,
        "players": players,
        "deals": deals.iter().map(|d| match d {
            Ok(a) => deal(a),
            Err(e) => not_analysable(e),
        }).collect::<Vec<_>>(),
    })
}

/// A deal that has no analysis: its index and the reason, as one line.
#[must_use]
pub fn not_analysable(e: &NotAnalysable) -> Value {
    json!({ "deal": e.deal(), "analysable": false, "reason": e.reason() })
}

/// One analysed deal: its outcome (see [`outcome`]) and the analysis beside it.
#[must_use]
pub fn deal(a: &DealAnalysis) -> Value {
    let o = &a.outcome;
    let mut fields = outcome(o);
    let analysis = json!({
        "deal": a.index,
        "analysable": true,
        "dealer": o.dealer.0,
        "par": a.par.map(|p| par(p, usize::from(o.players))),
        "mistakes": a.cards.iter().filter(|c| c.cost > 0).count(),
        "cards": a.cards.iter().map(card).collect::<Vec<_>>(),
        "auction": a.auction.iter().map(seat_best).collect::<Vec<_>>(),
    });
    if let Value::Object(m) = analysis {
        fields.extend(m);
    }
    if let Some(c) = &a.claim {
        fields.insert("claim".into(), claim(c));
    }
    Value::Object(fields)
}

/// The deal's outcome in its one form (the core's [`pref_core::OutcomeForm`], as a record
/// writes it), with the keys `pref-analysis/1` always has (`docs/analysis.md`) `null` where
/// the form leaves them out: `tricks`, and on a game each seat's `whist` and the `defence`.
fn outcome(o: &Outcome) -> Map<String, Value> {
    let mut fields = match json!(o.form()) {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    fields.entry("tricks").or_insert(Value::Null);
    if let OutcomeKind::Game { .. } = o.kind {
        let nobody = vec![Value::Null; usize::from(o.players)];
        fields.entry("whist").or_insert(Value::Array(nobody));
        fields.entry("defence").or_insert(Value::Null);
    }
    fields
}

/// An accepted claim in its form (the core's [`AcceptedClaim`]) and against open-hand play
/// (present only for a deal that ended by one).
fn claim(c: &ClaimAnalysis) -> Value {
    let accepted = AcceptedClaim {
        seat: c.seat,
        claim: c.claim,
    };
    let mut v = json!({
        "trick": c.trick,
        "declarer": c.declarer.0,
        "claimed": c.claimed,
        "open_hand": c.open_hand,
        "fewer": c.fewer.map(|(side, tricks)| json!({
            "side": match side {
                Side::Declarer => "declarer",
                Side::Defence => "defence",
            },
            "tricks": tricks,
        })),
    });
    if let (Value::Object(m), Value::Object(form)) = (&mut v, json!(accepted)) {
        m.extend(form);
    }
    v
}

fn cards(set: CardSet) -> Vec<String> {
    set.iter().map(|c: Card| c.to_string()).collect()
}

fn par(p: Par, players: usize) -> Value {
    match p {
        Par::Contract {
            declarer,
            tricks,
            defence,
        } => json!({ "declarer": declarer.0, "tricks": tricks, "defence": defence }),
        Par::Misere { declarer, tricks } => json!({ "declarer": declarer.0, "tricks": tricks }),
        Par::Raspasy { tricks } => json!({ "tricks": tricks[..players].to_vec() }),
    }
}

fn card(c: &CardAnalysis) -> Value {
    json!({
        "trick": c.trick,
        "seat": c.seat.0,
        "by": c.by.0,
        "card": c.card.to_string(),
        "counted": c.counted.0,
        "before": c.before,
        "after": c.after,
        "cost": c.cost,
        "best": cards(c.best),
        "values": c.values.iter().map(|&(card, value)| json!({
            "card": card.to_string(), "value": value
        })).collect::<Vec<_>>(),
    })
}

const STRAINS: [&str; 5] = ["S", "C", "D", "H", "NT"];

fn seat_best(s: &SeatBest) -> Value {
    let mut tricks = serde_json::Map::new();
    for (name, &(t, x)) in STRAINS.iter().zip(&s.strains) {
        tricks.insert((*name).into(), json!({ "tricks": t, "discard": cards(x) }));
    }
    json!({
        "seat": s.seat.0,
        "strains": tricks,
        "misere": s.misere.map(|x| json!({ "discard": cards(x) })),
        "no_talon": s.no_talon.map(|n| {
            let tricks: serde_json::Map<String, Value> = STRAINS
                .iter()
                .zip(n.strains)
                .map(|(name, t)| ((*name).to_owned(), json!(t)))
                .collect();
            json!({ "strains": tricks, "misere": n.misere })
        }),
        "best": s.best.map(|(b, x)| json!({ "bid": b.to_string(), "discard": cards(x) })),
    })
}
