//! The scorekeeper tests' shared pieces (`keeper*.rs`): the records of `tests/records/` as
//! outcomes, their replay by the core, and the sheet's requests.
#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};

use super::common::{http, strict};
use pref_core::{Game, Location, Record, RecordDeal, RecordError};
use pref_protocol::{KeeperCreated, KeeperView, SheetView};
use pref_server::config::Config;
use serde_json::{Value, json};

pub fn records_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/records")
}

/// Every record of `tests/records/` (not the expected outputs), with its text.
pub fn records() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(records_dir())
        .unwrap()
        .filter_map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name()?.to_str()?.to_owned();
            (name.ends_with(".json") && !name.contains(".out.")).then(|| {
                let text = std::fs::read_to_string(&path).unwrap();
                (name, text)
            })
        })
        .collect();
    out.sort();
    out
}

/// A record as a scorekeeper would enter it: its header, and each deal's outcome in the
/// record's outcome form.
pub struct Outcomes {
    pub doc: Value,
    pub outcomes: Vec<Value>,
    pub agreed: bool,
}

pub fn outcomes(text: &str) -> Outcomes {
    let (record, game) = Record::read(text).unwrap();
    let outcomes = game
        .history()
        .iter()
        .map(|entry| {
            let deal = RecordDeal::Scored(*entry.outcome().unwrap());
            serde_json::from_str::<Value>(&deal.to_json_string()).unwrap()["outcome"].clone()
        })
        .collect();
    Outcomes {
        doc: serde_json::from_str(text).unwrap(),
        outcomes,
        agreed: record.agreed_stop(),
    }
}

/// The outcome record of `o` with `deals`, replayed by the core: what `pref replay` prints.
pub fn replayed(
    o: &Outcomes,
    deals: &[Value],
    agreed: bool,
) -> Result<(Vec<SheetView>, Game), String> {
    let mut doc = json!({
        "format": "pref-record/1",
        "profile": o.doc["profile"],
        "players": o.doc["players"],
        "first_dealer": o.doc["first_dealer"],
        "deals": deals.iter().map(|d| json!({"outcome": d})).collect::<Vec<_>>(),
    });
    if agreed {
        doc["stop"] = json!("agreed");
    }
    let (record, game) = Record::read(&doc.to_string()).map_err(|e| sheet_words(&e))?;
    let mut sheets = Vec::new();
    record
        .replay(|_, g| sheets.push(SheetView::of(g.sheet())))
        .unwrap();
    Ok((sheets, game))
}

/// The settlement `pref replay --json` prints: exact strings, `None` while not finished.
pub fn settlement(game: &Game, agreed: bool) -> Option<Vec<String>> {
    let balance = if game.is_over() {
        game.settlement()?
    } else if agreed {
        game.agreed_settlement()
    } else {
        return None;
    };
    Some(balance.iter().map(ToString::to_string).collect())
}

pub fn assert_scored(
    view: &KeeperView,
    sheets: &[SheetView],
    game: &Game,
    agreed: bool,
    what: &str,
) {
    assert_eq!(view.deals.len(), sheets.len(), "{what}: deals");
    for (i, (d, s)) in view.deals.iter().zip(sheets).enumerate() {
        assert_eq!(&d.sheet, s, "{what}: the sheet after deal {i}");
        let expected_made = game.history()[i]
            .outcome()
            .and_then(pref_core::Outcome::made);
        assert_eq!(d.made, expected_made, "{what}: deal {i} made");
        assert_eq!(
            d.dealer,
            game.history()[i].dealer().0,
            "{what}: deal {i} dealer"
        );
        // The sentence per sheet entry: the core's lines for the deal, each with its rule.
        let lines: Vec<pref_core::Line> = d.lines.iter().map(|l| l.line).collect();
        assert_eq!(lines, game.scores()[i].lines, "{what}: deal {i} lines");
        assert!(
            d.lines.iter().all(|l| l.rule == l.line.rule()),
            "{what}: rule ids"
        );
    }
    assert_eq!(view.sheet, SheetView::of(game.sheet()), "{what}: the sheet");
    assert_eq!(
        view.settlement.as_ref().map(|s| s.balance.clone()),
        settlement(game, agreed),
        "{what}: the settlement"
    );
}

/// Budgets room enough for a test that opens hundreds of sheets from one address (the
/// budgets themselves are tried in `budgets_refuse_each_address_over_its_own`).
pub fn roomy(c: &mut Config) {
    c.limits.keeper_sheets_per_ip_per_minute = 100_000;
    c.limits.keeper_sheet_burst_per_ip = 100_000;
    c.limits.keeper_requests_per_ip_per_second = 100_000;
    c.limits.keeper_request_burst_per_ip = 100_000;
}

/// A record's refusal as the sheet words it: the deal counted from 1, as its form shows it.
pub fn sheet_words(e: &RecordError) -> String {
    match e.location {
        Location::Record => e.reason.to_string(),
        Location::Deal(d) | Location::Action { deal: d, .. } => {
            format!("deal {}: {}", d + 1, e.reason)
        }
    }
}

pub async fn create(addr: &str, o: &Outcomes) -> KeeperCreated {
    let body = json!({
        "profile": o.doc["profile"],
        "players": o.doc["players"],
        "first_dealer": o.doc["first_dealer"],
    });
    let (status, v) = http(addr, "POST", "/api/keeper", Some(&body), None).await;
    assert_eq!(status, 201, "{v}");
    strict(&v)
}

pub async fn import(addr: &str, o: &Outcomes, deals: &[Value]) -> KeeperCreated {
    let mut doc = o.doc.clone();
    doc["deals"] = deals.iter().map(|d| json!({"outcome": d})).collect();
    let (status, v) = http(addr, "POST", "/api/keeper/import", Some(&doc), None).await;
    assert_eq!(status, 201, "{v}");
    strict(&v)
}

pub async fn view(addr: &str, id: &str) -> KeeperView {
    let (status, v) = http(addr, "GET", &format!("/api/keeper/{id}"), None, None).await;
    assert_eq!(status, 200, "{v}");
    strict(&v)
}

pub async fn add(addr: &str, k: &KeeperCreated, outcome: &Value) -> (u16, Value) {
    let path = format!("/api/keeper/{}/deals", k.id);
    let body = json!({ "outcome": outcome });
    http(addr, "POST", &path, Some(&body), Some(&k.keeper_token)).await
}
