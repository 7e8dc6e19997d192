//! The analysis as JSON (`pref-analysis/1`, documented in `docs/analysis.md`): what
//! `pref analyze --json` prints and what a server sends. Cards, contracts and bids are in
//! the record's notation (`KS`, `7H`, `misere`).

use pref_core::{Card, CardSet, OutcomeKind};
use serde_json::{Value, json};

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

/// One analysed deal.
#[must_use]
pub fn deal(a: &DealAnalysis) -> Value {
    let o = &a.outcome;
    let mut v = json!({
        "deal": a.index,
        "analysable": true,
        "dealer": o.dealer.0,
        "tricks": o.tricks.map(|t| t[..usize::from(o.players)].to_vec()),
        "par": a.par.map(|p| par(p, usize::from(o.players))),
        "mistakes": a.cards.iter().filter(|c| c.cost > 0).count(),
        "cards": a.cards.iter().map(card).collect::<Vec<_>>(),
        "auction": a.auction.iter().map(seat_best).collect::<Vec<_>>(),
    });
    let fields = v.as_object_mut().expect("an object");
    if let Some(c) = &a.claim {
        fields.insert("claim".into(), claim(c));
    }
    match o.kind {
        OutcomeKind::Game {
            declarer,
            contract,
            whist,
            defence,
            ..
        } => {
            fields.insert("kind".into(), json!("game"));
            fields.insert("declarer".into(), json!(declarer.0));
            fields.insert("contract".into(), json!(contract.to_string()));
            let whist = &whist[..usize::from(o.players)];
            let name = |x: Option<String>| x.map_or(Value::Null, Value::String);
            let calls = whist.iter().map(|w| name(w.map(|w| w.to_string())));
            fields.insert("whist".into(), calls.collect());
            fields.insert("defence".into(), name(defence.map(|d| d.to_string())));
        }
        OutcomeKind::Misere { declarer } => {
            fields.insert("kind".into(), json!("misere"));
            fields.insert("declarer".into(), json!(declarer.0));
        }
        OutcomeKind::Surrender { declarer, bid } => {
            fields.insert("kind".into(), json!("surrender"));
            fields.insert("declarer".into(), json!(declarer.0));
            fields.insert("bid".into(), json!(bid.to_string()));
        }
        OutcomeKind::Raspasy => {
            fields.insert("kind".into(), json!("raspasy"));
        }
    }
    v
}

/// An accepted claim against open-hand play (present only for a deal that ended by one).
fn claim(c: &ClaimAnalysis) -> Value {
    json!({
        "seat": c.seat.0,
        "claim": c.claim.entries(),
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
    })
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
        "best": s.best.map(|(b, x)| json!({ "bid": b.to_string(), "discard": cards(x) })),
    })
}
