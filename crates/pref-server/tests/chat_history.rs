//! The chat outlives a reload: a table keeps its last `limits.chat_history_lines` lines and
//! sends them in every snapshot, to the players and (where spectators may read the chat) to
//! the spectators; where they may not, a spectator's snapshot holds none. The lines are
//! stored, so a restart of the server keeps them.

mod common;

use common::{connect, http, invite, lobby, send, server, until};
use serde_json::{Value, json};

/// The player holding `token` at table `id` writes `lines`, each seen to come back.
async fn write(addr: &str, id: &str, token: &str, lines: &[&str]) {
    let mut ws = connect(addr, id, Some(token), "").await;
    until(&mut ws, |m| m["type"] == "snapshot").await;
    for text in lines {
        send(&mut ws, json!({"type": "chat", "text": text})).await;
        until(&mut ws, |m| {
            m["type"] == "event" && m["event"]["kind"] == "chat" && m["event"]["text"] == *text
        })
        .await;
    }
}

/// The chat of a fresh snapshot for `token` (a spectator without one).
async fn snapshot_chat(addr: &str, id: &str, token: Option<&str>) -> Value {
    let mut ws = connect(addr, id, token, "").await;
    let snap = until(&mut ws, |m| m["type"] == "snapshot").await;
    snap.get("chat").cloned().unwrap_or(json!(null))
}

/// A lobby with `spectator_chat` as asked and Anna in seat 0; its id and Anna's token.
async fn table_with_anna(addr: &str, spectator_chat: bool) -> (String, String) {
    let (id, host) = if spectator_chat {
        let (status, created) = http(
            addr,
            "POST",
            "/api/tables",
            Some(&json!({"profile": "sochi", "spectator_chat": true})),
            None,
        )
        .await;
        assert_eq!(status, 201, "{created}");
        (
            created["id"].as_str().unwrap().to_owned(),
            created["host_token"].as_str().unwrap().to_owned(),
        )
    } else {
        lobby(addr, json!("sochi")).await
    };
    let (status, seat) = http(
        addr,
        "POST",
        &format!("/api/tables/{id}/seats"),
        Some(&json!({"name": "Anna", "invite": invite(&host)})),
        None,
    )
    .await;
    assert_eq!(status, 200, "{seat}");
    (id, seat["token"].as_str().unwrap().to_owned())
}

#[tokio::test]
async fn the_last_chat_lines_come_in_the_snapshot_capped_and_only_to_those_who_may_read_them() {
    let (addr, _) = server("chat-history", |c| {
        c.limits.chat_history_lines = 3;
        c.limits.seat_heavy_burst = 100;
        c.limits.spectators_heavy_burst = 100;
    })
    .await;
    // Players only: Anna's reload reads the last three lines; a spectator reads none.
    let (id, anna) = table_with_anna(&addr, false).await;
    assert_eq!(snapshot_chat(&addr, &id, Some(&anna)).await, json!(null));
    write(&addr, &id, &anna, &["one", "two", "three", "four", "five"]).await;
    let line = |text: &str| json!({"from": {"seat": 0}, "text": text});
    assert_eq!(
        snapshot_chat(&addr, &id, Some(&anna)).await,
        json!([line("three"), line("four"), line("five")]),
        "the last limits.chat_history_lines lines, first to last"
    );
    assert_eq!(
        snapshot_chat(&addr, &id, None).await,
        json!(null),
        "a spectator at a table without spectator chat reads no line"
    );
    // Spectators in the chat: a late spectator reads the players' and spectators' lines.
    let (id, anna) = table_with_anna(&addr, true).await;
    write(&addr, &id, &anna, &["hello"]).await;
    let mut watcher = connect(&addr, &id, None, "").await;
    until(&mut watcher, |m| m["type"] == "snapshot").await;
    send(&mut watcher, json!({"type": "chat", "text": "hi all"})).await;
    until(&mut watcher, |m| {
        m["type"] == "event" && m["event"]["kind"] == "chat"
    })
    .await;
    assert_eq!(
        snapshot_chat(&addr, &id, None).await,
        json!([line("hello"), {"from": "spectator", "text": "hi all"}])
    );
}

/// The chat outlives a restart of the server (killed, not stopped): the kept lines are
/// stored, at most `limits.chat_history_lines` of them, and read back with the table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_chat_outlives_a_restart_capped() {
    let dir = common::temp_dir("chat-restart");
    let env = [
        ("PREF_CHAT_HISTORY_LINES", "3"),
        ("PREF_SEAT_HEAVY_BURST", "100"),
    ];
    let (mut child, addr) = common::spawn_binary(&dir, &env);
    let (id, anna) = table_with_anna(&addr, false).await;
    write(&addr, &id, &anna, &["one", "two", "three", "four"]).await;
    let before = snapshot_chat(&addr, &id, Some(&anna)).await;
    child.kill().unwrap();
    let _ = child.wait();
    let (mut child, addr) = common::spawn_binary(&dir, &env);
    let line = |text: &str| json!({"from": {"seat": 0}, "text": text});
    let after = snapshot_chat(&addr, &id, Some(&anna)).await;
    assert_eq!(after, json!([line("two"), line("three"), line("four")]));
    assert_eq!(after, before);
    // Lines written after the restart follow the restored ones, still capped.
    write(&addr, &id, &anna, &["five"]).await;
    assert_eq!(
        snapshot_chat(&addr, &id, Some(&anna)).await,
        json!([line("three"), line("four"), line("five")])
    );
    let _ = child.kill();
}
