//! The scorekeeper over HTTP (`docs/protocol.md`, "Scorekeeping"): a sheet entered deal by
//! deal reaches exactly the sheet and settlement `pref replay` gives for the same outcome
//! record, for every record in `tests/records/` (played records are entered as the outcomes
//! their deals had: every preset, three and four players); corrections and deletions
//! re-score every later deal as the changed record does; the sheet survives a restart; bad
//! input is refused with a typed error and changes nothing; watchers see each change.

mod common;
mod keeper_common;

use common::{http, http_text, server, spawn_binary, strict, temp_dir};
use pref_core::Record;
use pref_protocol::{KeeperCreated, KeeperOp, KeeperView};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use keeper_common::*;

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
