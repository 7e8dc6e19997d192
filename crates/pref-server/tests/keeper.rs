//! The scorekeeper over HTTP (`docs/protocol.md`, "Scorekeeping"): a sheet entered deal by
//! deal reaches exactly the sheet and settlement `pref replay` gives for the same outcome
//! record, for every record in `tests/records/` (played records are entered as the outcomes
//! their deals had: every preset, three and four players); corrections and deletions
//! re-score every later deal as the changed record does; the sheet survives a restart; bad
//! input is refused with a typed error and changes nothing; watchers see each change.

mod common;

use std::path::{Path, PathBuf};

use common::{http, http_text, server, spawn_binary, strict, temp_dir};
use pref_core::{Game, Location, Record, RecordDeal, RecordError};
use pref_protocol::{KeeperCreated, KeeperOp, KeeperView, SheetView};
use pref_server::config::Config;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn records_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/records")
}

/// Every record of `tests/records/` (not the expected outputs), with its text.
fn records() -> Vec<(String, String)> {
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
struct Outcomes {
    doc: Value,
    outcomes: Vec<Value>,
    agreed: bool,
}

fn outcomes(text: &str) -> Outcomes {
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
fn replayed(o: &Outcomes, deals: &[Value], agreed: bool) -> Result<(Vec<SheetView>, Game), String> {
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
fn settlement(game: &Game, agreed: bool) -> Option<Vec<String>> {
    let balance = if game.is_over() {
        game.settlement()?
    } else if agreed {
        game.agreed_settlement()
    } else {
        return None;
    };
    Some(balance.iter().map(ToString::to_string).collect())
}

fn assert_scored(view: &KeeperView, sheets: &[SheetView], game: &Game, agreed: bool, what: &str) {
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
fn roomy(c: &mut Config) {
    c.limits.keeper_sheets_per_ip_per_minute = 100_000;
    c.limits.keeper_sheet_burst_per_ip = 100_000;
    c.limits.keeper_requests_per_ip_per_second = 100_000;
    c.limits.keeper_request_burst_per_ip = 100_000;
}

/// A record's refusal as the sheet words it: the deal counted from 1, as its form shows it.
fn sheet_words(e: &RecordError) -> String {
    match e.location {
        Location::Record => e.reason.to_string(),
        Location::Deal(d) | Location::Action { deal: d, .. } => {
            format!("deal {}: {}", d + 1, e.reason)
        }
    }
}

async fn create(addr: &str, o: &Outcomes) -> KeeperCreated {
    let body = json!({
        "profile": o.doc["profile"],
        "players": o.doc["players"],
        "first_dealer": o.doc["first_dealer"],
    });
    let (status, v) = http(addr, "POST", "/api/keeper", Some(&body), None).await;
    assert_eq!(status, 201, "{v}");
    strict(&v)
}

async fn import(addr: &str, o: &Outcomes, deals: &[Value]) -> KeeperCreated {
    let mut doc = o.doc.clone();
    doc["deals"] = deals.iter().map(|d| json!({"outcome": d})).collect();
    let (status, v) = http(addr, "POST", "/api/keeper/import", Some(&doc), None).await;
    assert_eq!(status, 201, "{v}");
    strict(&v)
}

async fn view(addr: &str, id: &str) -> KeeperView {
    let (status, v) = http(addr, "GET", &format!("/api/keeper/{id}"), None, None).await;
    assert_eq!(status, 200, "{v}");
    strict(&v)
}

async fn add(addr: &str, k: &KeeperCreated, outcome: &Value) -> (u16, Value) {
    let path = format!("/api/keeper/{}/deals", k.id);
    let body = json!({ "outcome": outcome });
    http(addr, "POST", &path, Some(&body), Some(&k.keeper_token)).await
}

/// R1.3, R8, R9, R10: every record, entered deal by deal over HTTP, scores after every deal
/// exactly as the core replays its outcome record, and the export reads back to the same.
#[tokio::test]
async fn every_record_entered_deal_by_deal_scores_as_replay() {
    let (addr, _dir) = server("keeper-replay", roomy).await;
    let all = records();
    assert!(all.len() >= 14, "the records are found");
    let mut four = 0;
    for (name, text) in &all {
        let o = outcomes(text);
        let k = create(&addr, &o).await;
        let mut last = k.sheet.clone();
        for (i, outcome) in o.outcomes.iter().enumerate() {
            let (status, v) = add(&addr, &k, outcome).await;
            assert_eq!(status, 200, "{name} deal {i}: {v}");
            last = strict(&v);
            let (sheets, game) = replayed(&o, &o.outcomes[..=i], false).unwrap();
            assert_scored(
                &last,
                &sheets,
                &game,
                false,
                &format!("{name} after deal {i}"),
            );
        }
        if o.agreed {
            let path = format!("/api/keeper/{}/stop", k.id);
            let (status, v) = http(
                &addr,
                "POST",
                &path,
                Some(&json!({"agreed": true})),
                Some(&k.keeper_token),
            )
            .await;
            assert_eq!(status, 200, "{v}");
            last = strict(&v);
        }
        let (sheets, game) = replayed(&o, &o.outcomes, o.agreed).unwrap();
        assert_scored(&last, &sheets, &game, o.agreed, name);
        if last.players == 4 {
            four += 1;
        }
        // The export is the outcome record: it reads back to the same game, and imported it
        // makes the same sheet.
        let (status, exported) = http_text(
            &addr,
            "GET",
            &format!("/api/keeper/{}/record", k.id),
            None,
            None,
        )
        .await;
        assert_eq!(status, 200);
        let (_, again) = Record::read(&exported).unwrap();
        assert_eq!(again.sheet(), game.sheet(), "{name}: the export");
        let exported: Value = serde_json::from_str(&exported).unwrap();
        let deals: Vec<Value> = exported["deals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["outcome"].clone())
            .collect();
        assert_eq!(deals, o.outcomes, "{name}: the exported deals");
        let (status, v) = http(&addr, "POST", "/api/keeper/import", Some(&exported), None).await;
        assert_eq!(status, 201, "{v}");
        let imported: KeeperCreated = strict(&v);
        assert_eq!(imported.sheet.deals, last.deals, "{name}: imported");
        assert_eq!(
            imported.sheet.settlement, last.settlement,
            "{name}: imported"
        );
    }
    assert!(four >= 2, "four-player records are among them");
}

/// The spec's own example (`docs/game-record.md`): the sheet and settlement `pref replay
/// --json` prints, checked against its expected output file.
#[tokio::test]
async fn the_spec_example_gives_the_replay_output() {
    let (addr, _dir) = server("keeper-spec", roomy).await;
    let text = std::fs::read_to_string(records_dir().join("spec-replay.json")).unwrap();
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(records_dir().join("spec-replay.out.json")).unwrap(),
    )
    .unwrap();
    let o = outcomes(&text);
    let k = create(&addr, &o).await;
    for d in &o.outcomes {
        assert_eq!(add(&addr, &k, d).await.0, 200);
    }
    let v = view(&addr, &k.id).await;
    assert_eq!(json!(v.sheet.pool), expected["pool"]);
    assert_eq!(json!(v.sheet.mountain), expected["mountain"]);
    assert_eq!(json!(v.sheet.whists), expected["whists"]);
    assert_eq!(json!(v.settlement.unwrap().balance), expected["settlement"]);
    let made: Vec<Value> = v.deals.iter().map(|d| json!(d.made)).collect();
    let expected_made: Vec<Value> = expected["deals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.get("made").cloned().unwrap_or(Value::Null))
        .collect();
    assert_eq!(made, expected_made);
    assert!(v.next.is_none(), "the game is over: no next deal");
}

/// Deleting or correcting any deal re-scores the sheet as the record without it (or with the
/// change) replays; a change that makes a later deal break a rule is refused and changes
/// nothing; the history keeps what each change replaced.
#[tokio::test]
async fn corrections_and_deletions_rescore_every_later_deal() {
    let (addr, _dir) = server("keeper-fix", roomy).await;
    for name in ["spec-replay.json", "four-players.json", "house-rules.json"] {
        let text = std::fs::read_to_string(records_dir().join(name)).unwrap();
        let o = outcomes(&text);
        let n = o.outcomes.len();
        for i in 0..n {
            // Delete deal i.
            let k = import(&addr, &o, &o.outcomes).await;
            let mut without = o.outcomes.clone();
            let gone = without.remove(i);
            let path = format!("/api/keeper/{}/deals/{i}", k.id);
            let (status, v) = http(&addr, "DELETE", &path, None, Some(&k.keeper_token)).await;
            match replayed(&o, &without, false) {
                Ok((sheets, game)) => {
                    assert_eq!(status, 200, "{name}: delete {i}: {v}");
                    let after: KeeperView = strict(&v);
                    assert_scored(
                        &after,
                        &sheets,
                        &game,
                        false,
                        &format!("{name} without {i}"),
                    );
                    assert_eq!(
                        after.history.last().unwrap().op,
                        KeeperOp::Delete {
                            index: i,
                            was: gone.clone()
                        }
                    );
                    assert_eq!(view(&addr, &k.id).await, after);
                }
                Err(why) => {
                    assert_eq!(status, 422, "{name}: delete {i}: {v}");
                    assert_eq!(v["error"], "bad_deal");
                    assert_eq!(v["message"], why.as_str());
                    assert_eq!(view(&addr, &k.id).await, k.sheet, "{name}: nothing changed");
                }
            }
            // Correct deal i to each other deal's outcome in turn.
            for j in (0..n).filter(|&j| o.outcomes[j] != o.outcomes[i]).take(3) {
                let mut changed = o.outcomes.clone();
                changed[i] = o.outcomes[j].clone();
                let body = json!({"outcome": o.outcomes[j]});
                let k2 = import(&addr, &o, &o.outcomes).await;
                let path2 = format!("/api/keeper/{}/deals/{i}", k2.id);
                let (status2, v2) =
                    http(&addr, "PUT", &path2, Some(&body), Some(&k2.keeper_token)).await;
                match replayed(&o, &changed, false) {
                    Ok((sheets, game)) => {
                        assert_eq!(status2, 200, "{name}: correct {i} to {j}: {v2}");
                        let after: KeeperView = strict(&v2);
                        assert_scored(&after, &sheets, &game, false, &format!("{name} {i}:={j}"));
                        assert_eq!(
                            after.history.last().unwrap().op,
                            KeeperOp::Correct {
                                index: i,
                                was: o.outcomes[i].clone(),
                                outcome: o.outcomes[j].clone()
                            }
                        );
                    }
                    Err(why) => {
                        assert_eq!(status2, 422, "{name}: correct {i} to {j}: {v2}");
                        assert_eq!(v2["message"], why.as_str());
                        assert_eq!(view(&addr, &k2.id).await, k2.sheet);
                    }
                }
            }
        }
    }
}

/// Durability: every change is on disk before it is shown; a restarted server shows the
/// same sheet with the same history.
#[tokio::test]
async fn a_restarted_server_shows_the_same_sheet() {
    let dir = temp_dir("keeper-restart");
    let (mut child, addr) = spawn_binary(&dir, &[]);
    let text = std::fs::read_to_string(records_dir().join("spec-replay.json")).unwrap();
    let o = outcomes(&text);
    let k = create(&addr, &o).await;
    for d in &o.outcomes[..4] {
        assert_eq!(add(&addr, &k, d).await.0, 200);
    }
    let path = format!("/api/keeper/{}/deals/1", k.id);
    let (status, _) = http(&addr, "DELETE", &path, None, Some(&k.keeper_token)).await;
    assert_eq!(status, 200);
    let before = view(&addr, &k.id).await;
    child.kill().unwrap();
    child.wait().unwrap();
    let (mut child, addr) = spawn_binary(&dir, &[]);
    let after = view(&addr, &k.id).await;
    assert_eq!(after, before);
    assert_eq!(after.history.len(), 5);
    // The keeper goes on where he stopped.
    let (status, v) = add(&addr, &k, &o.outcomes[4]).await;
    assert_eq!(status, 200, "{v}");
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Bad input gets a typed error naming what to fix, and the sheet stays as it was; limits
/// on sheets, deals and changes are settings.
#[tokio::test]
async fn bad_input_is_refused_and_changes_nothing() {
    let (addr, _dir) = server("keeper-bad", |c| {
        roomy(c);
        c.limits.max_keepers = 2;
        c.limits.keeper_max_deals = 2;
    })
    .await;
    let bad_create = [
        (
            json!({"players": ["A", "B"]}),
            400,
            "2 players named for a table of 3",
        ),
        (json!({"players": ["A", "B", ""]}), 400, ""),
        (
            json!({"players": ["A", "B", "C"], "first_dealer": 3}),
            400,
            "seat 3 is not at the table (R1.2)",
        ),
        (
            json!({"players": ["A", "B", "C"], "profile": "nowhere"}),
            422,
            "",
        ),
        (json!({"players": ["A", "B", "C"], "colour": 1}), 400, ""),
    ];
    for (body, status, message) in bad_create {
        let (s, v) = http(&addr, "POST", "/api/keeper", Some(&body), None).await;
        assert_eq!(s, status, "{body}: {v}");
        assert!(v["message"].as_str().unwrap().contains(message), "{v}");
    }
    let (s, v) = http(
        &addr,
        "POST",
        "/api/keeper",
        Some(&json!({"players": ["Anna", "Boris", "Vera"]})),
        None,
    )
    .await;
    assert_eq!(s, 201, "{v}");
    let k: KeeperCreated = strict(&v);
    let deals = format!("/api/keeper/{}/deals", k.id);
    let raspasy = json!({"outcome": {"kind": "raspasy", "tricks": [4, 3, 3]}});
    let refused = [
        // No token, a wrong token.
        (None, raspasy.clone(), 403, "Bearer"),
        (Some("0".repeat(32)), raspasy.clone(), 403, "keeper token"),
        // R5.2: half-whist only against 6 and 7.
        (
            Some(k.keeper_token.clone()),
            json!({"outcome": {"kind": "game", "declarer": 1, "contract": "8S", "whist": ["half", null, "pass"]}}),
            422,
            "deal 1: half-whist is only against 6 and 7, not 8 (R5.2)",
        ),
        (
            Some(k.keeper_token.clone()),
            json!({"outcome": {"kind": "raspasy", "tricks": [4, 3, 4]}}),
            422,
            "deal 1: the tricks add up to 11, not 10 (R6.1)",
        ),
        (
            Some(k.keeper_token.clone()),
            json!({"outcome": {"kind": "raspasy", "tricks": [4, 3, 3], "when": 1}}),
            422,
            "deal 1: unknown key \"when\"",
        ),
        (
            Some(k.keeper_token.clone()),
            json!({"outcome": {"kind": "misere", "declarer": 5, "tricks": [0, 5, 5]}}),
            422,
            "deal 1: seat 5 is not at the table (R1.2)",
        ),
        (
            Some(k.keeper_token.clone()),
            json!({"deal": 1}),
            400,
            "bad JSON body",
        ),
    ];
    for (token, body, status, message) in refused {
        let (s, v) = http(&addr, "POST", &deals, Some(&body), token.as_deref()).await;
        assert_eq!(s, status, "{body}: {v}");
        assert!(
            v["message"].as_str().unwrap().contains(message),
            "{message} in {v}"
        );
        assert!(v["error"].is_string());
        assert_eq!(view(&addr, &k.id).await, k.sheet, "nothing changed");
    }
    // Correcting or deleting a deal that is not there; an unknown sheet.
    let (s, _) = http(
        &addr,
        "DELETE",
        &format!("{deals}/0"),
        None,
        Some(&k.keeper_token),
    )
    .await;
    assert_eq!(s, 400);
    let (s, v) = http(
        &addr,
        "GET",
        &format!("/api/keeper/{}", "1".repeat(32)),
        None,
        None,
    )
    .await;
    assert_eq!((s, v["error"].as_str()), (404, Some("no_table")));
    let (s, _) = http(&addr, "GET", "/api/keeper/zz", None, None).await;
    assert_eq!(s, 404);
    // The check endpoint answers the same without changing anything.
    let check = format!("/api/keeper/{}/check", k.id);
    let (s, v) = http(
        &addr,
        "POST",
        &check,
        Some(&json!({"outcome": {"kind": "raspasy", "tricks": [4, 3, 4]}})),
        None,
    )
    .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (422, Some("deal 1: the tricks add up to 11, not 10 (R6.1)"))
    );
    let (s, v) = http(&addr, "POST", &check, Some(&raspasy), None).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["deal"]["sheet"]["mountain"], json!([4, 3, 3]));
    assert_eq!(view(&addr, &k.id).await, k.sheet);
    // An agreed stop bars new deals until it is taken back.
    let stop = format!("/api/keeper/{}/stop", k.id);
    assert_eq!(
        http(
            &addr,
            "POST",
            &stop,
            Some(&json!({"agreed": true})),
            Some(&k.keeper_token)
        )
        .await
        .0,
        200
    );
    let stopped = view(&addr, &k.id).await;
    assert_eq!(stopped.settlement.as_ref().map(|s| s.agreed), Some(true));
    assert_eq!(
        http(&addr, "POST", &deals, Some(&raspasy), Some(&k.keeper_token))
            .await
            .0,
        409
    );
    assert_eq!(view(&addr, &k.id).await, stopped);
    assert_eq!(
        http(
            &addr,
            "POST",
            &stop,
            Some(&json!({"agreed": false})),
            Some(&k.keeper_token)
        )
        .await
        .0,
        200
    );
    // The deal limit.
    for _ in 0..2 {
        assert_eq!(
            http(&addr, "POST", &deals, Some(&raspasy), Some(&k.keeper_token))
                .await
                .0,
            200
        );
    }
    let full = view(&addr, &k.id).await;
    let (s, v) = http(&addr, "POST", &deals, Some(&raspasy), Some(&k.keeper_token)).await;
    assert_eq!(s, 400, "{v}");
    assert!(v["message"].as_str().unwrap().contains("at most 2 deals"));
    assert_eq!(view(&addr, &k.id).await, full);
    // The sheet limit.
    let body = json!({"players": ["Anna", "Boris", "Vera"]});
    assert_eq!(
        http(&addr, "POST", "/api/keeper", Some(&body), None)
            .await
            .0,
        201
    );
    let (s, v) = http(&addr, "POST", "/api/keeper", Some(&body), None).await;
    assert_eq!((s, v["error"].as_str()), (503, Some("full")));
    // An import of a played record is refused: a sheet holds outcomes.
    let played: Value =
        serde_json::from_str(&std::fs::read_to_string(records_dir().join("misere.json")).unwrap())
            .unwrap();
    let (s, v) = http(&addr, "POST", "/api/keeper/import", Some(&played), None).await;
    assert_eq!(s, 400, "{v}");
}

/// Watchers with the link get the sheet at once and again after every change.
#[tokio::test]
async fn watchers_see_every_change_live() {
    let (addr, _dir) = server("keeper-watch", roomy).await;
    let (_, v) = http(
        &addr,
        "POST",
        "/api/keeper",
        Some(&json!({"players": ["Anna", "Boris", "Vera"]})),
        None,
    )
    .await;
    let k: KeeperCreated = strict(&v);
    let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let req = format!(
        "GET /api/keeper/{}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n",
        k.id
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut seen = String::new();
    let mut buf = [0u8; 65536];
    let mut read_until = async |count: usize, seen: &mut String| {
        while seen.matches("event: sheet").count() < count {
            let n = tokio::time::timeout(std::time::Duration::from_secs(10), s.read(&mut buf))
                .await
                .expect("an event in time")
                .unwrap();
            assert!(n > 0, "the stream stays open");
            seen.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    };
    read_until(1, &mut seen).await;
    let (status, _) = add(&addr, &k, &json!({"kind": "raspasy", "tricks": [4, 3, 3]})).await;
    assert_eq!(status, 200);
    read_until(2, &mut seen).await;
    let last = seen.rsplit("event: sheet").next().unwrap();
    assert!(last.contains("\"mountain\":[4,3,3]"), "{last}");
}

/// R1.2, R5, R6.1, R6.5, R7.1, R9.4: every refusal of an impossible deal names the deal as the
/// sheet and its form count it (from 1) and the rule it breaks, word for word; a misère
/// entered with whists is told that misère has no whists, not that a key is unknown.
#[tokio::test]
async fn every_refusal_of_an_impossible_deal_names_its_rule_and_the_deal_as_the_form_counts() {
    let (addr, _dir) = server("keeper-words", roomy).await;
    let body = json!({"players": ["A", "B", "C"], "first_dealer": 3});
    let (s, v) = http(&addr, "POST", "/api/keeper", Some(&body), None).await;
    assert_eq!(
        (s, v),
        (
            400,
            json!({"error": "bad_request", "message": "seat 3 is not at the table (R1.2)"})
        )
    );
    let body =
        json!({"profile": {"preset": "sochi", "pool_target": 2}, "players": ["A", "B", "C"]});
    let (_, v) = http(&addr, "POST", "/api/keeper", Some(&body), None).await;
    let k: KeeperCreated = strict(&v);
    for _ in 0..3 {
        let (s, v) = add(&addr, &k, &json!({"kind": "raspasy", "tricks": [4, 3, 3]})).await;
        assert_eq!(s, 200, "{v}");
    }
    // The form shows the next deal as deal 4.
    let refused = [
        (
            json!({"kind": "raspasy", "tricks": [4, 3, 2]}),
            "deal 4: the tricks add up to 9, not 10 (R6.1)",
        ),
        (
            json!({"kind": "misere", "declarer": 3, "tricks": [0, 5, 5]}),
            "deal 4: seat 3 is not at the table (R1.2)",
        ),
        (
            json!({"kind": "misere", "declarer": 1, "whist": [null, null, "whist"], "tricks": [5, 0, 5]}),
            "deal 4: a misère has no whist decisions: whist is for trick contracts only (R5)",
        ),
        (
            json!({"kind": "misere", "declarer": 1}),
            "deal 4: the tricks are missing: a misère is always played (R6.5)",
        ),
        (
            json!({"kind": "raspasy"}),
            "deal 4: the tricks are missing: raspasy is always played (R7.1)",
        ),
        (
            json!({"kind": "game", "declarer": 1, "contract": "7H", "tricks": [3, 7, 0]}),
            "deal 4: the whist decisions are missing (R5.1)",
        ),
        (
            json!({"kind": "game", "declarer": 1, "contract": "7H", "whist": ["whist", "pass", "pass"], "tricks": [3, 7, 0]}),
            "deal 4: the declarer (seat 1) makes no whist decision: his entry must be null (R5.1)",
        ),
    ];
    let check = format!("/api/keeper/{}/check", k.id);
    for (outcome, message) in refused {
        let expected = json!({"error": "bad_deal", "message": message});
        let (s, v) = add(&addr, &k, &outcome).await;
        assert_eq!((s, &v), (422, &expected), "{outcome}");
        let (s, v) = http(
            &addr,
            "POST",
            &check,
            Some(&json!({"outcome": outcome})),
            None,
        )
        .await;
        assert_eq!((s, &v), (422, &expected), "check {outcome}");
    }
    // A correction of the second deal names deal 2.
    let (s, v) = http(
        &addr,
        "PUT",
        &format!("/api/keeper/{}/deals/1", k.id),
        Some(&json!({"outcome": {"kind": "raspasy", "tricks": [4, 4, 4]}})),
        Some(&k.keeper_token),
    )
    .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (422, Some("deal 2: the tricks add up to 12, not 10 (R6.1)"))
    );
    // A record imported with a deal after the last pool closed (R9.4).
    let closed =
        json!({"kind": "game", "declarer": 0, "contract": "6S", "whist": [null, "pass", "pass"]});
    let doc = json!({
        "format": "pref-record/1",
        "profile": {"preset": "sochi", "pool_target": 2},
        "players": ["A", "B", "C"],
        "first_dealer": 0,
        "deals": [{"outcome": closed}, {"outcome": closed}, {"outcome": closed}, {"outcome": closed}],
    });
    let (s, v) = http(&addr, "POST", "/api/keeper/import", Some(&doc), None).await;
    assert_eq!(
        (s, v["message"].as_str()),
        (
            422,
            Some("deal 4: the game is over: every pool is closed (R9.4)")
        ),
        "{v}"
    );
    assert_eq!(view(&addr, &k.id).await.deals.len(), 3, "nothing changed");
}

/// Opening and importing sheets spend one budget of the client's address, every request on
/// a sheet (its view, a check, a change, a stream) another: over each, `429 rate_limited`
/// with the documented body, and nothing is opened.
#[tokio::test]
async fn budgets_refuse_each_address_over_its_own() {
    let (addr, _dir) = server("keeper-budgets", |c| {
        c.limits.keeper_sheets_per_ip_per_minute = 1;
        c.limits.keeper_sheet_burst_per_ip = 2;
        c.limits.keeper_requests_per_ip_per_second = 1;
        c.limits.keeper_request_burst_per_ip = 3;
    })
    .await;
    let body = json!({"players": ["Anna", "Boris", "Vera"]});
    let (s, v) = http(&addr, "POST", "/api/keeper", Some(&body), None).await;
    assert_eq!(s, 201, "{v}");
    let k: KeeperCreated = strict(&v);
    let doc = json!({"format": "pref-record/1", "profile": "sochi", "players": ["A", "B", "C"],
        "first_dealer": 0, "deals": []});
    assert_eq!(
        http(&addr, "POST", "/api/keeper/import", Some(&doc), None)
            .await
            .0,
        201
    );
    let over = "too many scorekeeping sheets opened or imported from this address; try again in";
    refused_over(
        http(&addr, "POST", "/api/keeper", Some(&body), None).await,
        over,
    );
    refused_over(
        http(&addr, "POST", "/api/keeper/import", Some(&doc), None).await,
        over,
    );
    // Requests on the sheet: a burst of 3, then one a second.
    let started = std::time::Instant::now();
    let path = format!("/api/keeper/{}", k.id);
    let check = format!("/api/keeper/{}/check", k.id);
    let raspasy = json!({"outcome": {"kind": "raspasy", "tricks": [4, 3, 3]}});
    let mut answers = Vec::new();
    for i in 0..8 {
        answers.push(if i % 2 == 0 {
            http(&addr, "GET", &path, None, None).await
        } else {
            http(&addr, "POST", &check, Some(&raspasy), None).await
        });
    }
    let secs = started.elapsed().as_secs() as usize;
    let ok = answers.iter().filter(|(s, _)| *s == 200).count();
    assert!(answers[..3].iter().all(|(s, _)| *s == 200), "{answers:?}");
    assert!(ok <= 3 + secs, "{ok} answered in {secs} s: {answers:?}");
    let refused = answers.iter().find(|(s, _)| *s == 429).expect("a refusal");
    refused_over(
        refused.clone(),
        "too many requests on scorekeeping sheets from this address; try again in",
    );
}

/// `answer` is a `429 rate_limited` whose message begins with `words` (the seconds to wait
/// follow them).
fn refused_over(answer: (u16, Value), words: &str) {
    let (status, body) = &answer;
    assert_eq!(*status, 429, "{body}");
    assert_eq!(body["error"], "rate_limited", "{body}");
    let message = body["message"].as_str().expect("a message");
    assert!(message.starts_with(words), "{message}");
    assert_eq!(body.as_object().map(|o| o.len()), Some(2), "{body}");
}

/// An event stream from `ip` (a loopback address of its own) on `sheet`: the status, what
/// was read of the answer, and the connection while it is open.
async fn stream(addr: &str, ip: [u8; 4], sheet: &str) -> (u16, String, tokio::net::TcpStream) {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind((std::net::Ipv4Addr::from(ip), 0).into())
        .unwrap();
    let mut s = socket.connect(addr.parse().unwrap()).await.unwrap();
    let req = format!(
        "GET /api/keeper/{sheet}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    let status = loop {
        let n = tokio::time::timeout(std::time::Duration::from_secs(10), s.read(&mut buf))
            .await
            .expect("an answer in time")
            .unwrap();
        assert!(n > 0, "an answer");
        seen.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&seen);
        let status: u16 = text[9..12].parse().unwrap();
        if (status != 200 && text.contains("\"}")) || text.contains("event: sheet") {
            break status;
        }
    };
    (status, String::from_utf8_lossy(&seen).into_owned(), s)
}

/// A thousand streams from one address no longer hold a thousand descriptors: streams are
/// counted per address, per sheet and on the node, refused beyond each cap before the
/// stream starts (`429`, `503` for the node's), and a stream that ends gives its place back.
#[tokio::test]
async fn sheet_streams_are_counted_and_refused_over_each_cap() {
    let (addr, _dir) = server("keeper-streams", |c| {
        roomy(c);
        c.limits.max_streams_per_ip = 2;
        c.limits.max_streams_per_sheet = 3;
        c.limits.max_streams = 4;
    })
    .await;
    let body = json!({"players": ["Anna", "Boris", "Vera"]});
    let mut sheets = Vec::new();
    for _ in 0..2 {
        let (_, v) = http(&addr, "POST", "/api/keeper", Some(&body), None).await;
        sheets.push(strict::<KeeperCreated>(&v).id);
    }
    let (a, b) = (sheets[0].as_str(), sheets[1].as_str());
    let (s1, _, first) = stream(&addr, [127, 0, 0, 1], a).await;
    let (s2, _, _second) = stream(&addr, [127, 0, 0, 1], a).await;
    assert_eq!((s1, s2), (200, 200));
    // The address's third.
    let (s, text, _) = stream(&addr, [127, 0, 0, 1], b).await;
    assert_eq!(s, 429);
    assert!(
        text.contains(
            r#"{"error":"rate_limited","message":"too many sheet streams from this address"}"#
        ),
        "{text}"
    );
    // The sheet's fourth.
    let (s3, _, _third) = stream(&addr, [127, 0, 0, 2], a).await;
    assert_eq!(s3, 200);
    assert_eq!(stream(&addr, [127, 0, 0, 2], a).await.0, 429);
    // The node's fifth.
    let (s4, _, _fourth) = stream(&addr, [127, 0, 0, 2], b).await;
    assert_eq!(s4, 200);
    let (s, text, _) = stream(&addr, [127, 0, 0, 3], b).await;
    assert_eq!(s, 503);
    assert!(
        text.contains(r#"{"error":"full","message":"the server is full; try again later"}"#),
        "{text}"
    );
    // The first stream ends: its place comes back (once the node sees it closed).
    drop(first);
    let started = std::time::Instant::now();
    loop {
        let (s, _, _again) = stream(&addr, [127, 0, 0, 3], b).await;
        if s == 200 {
            eprintln!("the place came back after {:?}", started.elapsed());
            break;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(40),
            "the place came back"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}
