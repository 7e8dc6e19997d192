//! The invite key against a copy of the database, over real HTTP to the real binary: the key
//! is made from the host token, which the database does not hold, so a key computed from a
//! stored row seats nobody; the host is given his link again; a table stored before the key
//! had a column keeps the key it had then, also after a restart.

mod common;

use common::*;
use pref_server::ids::TokenHash;
use serde_json::{Value, json};
use sqlx::Row;

/// Reads a table's stored host-token hash and invite column.
async fn stored_row(dir: &std::path::Path, id: &str) -> (String, Option<String>) {
    let url = format!("sqlite://{}", dir.join("pref.sqlite3").display());
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    let row = sqlx::query("SELECT host_token, invite FROM tables WHERE id = ?")
        .bind(id)
        .fetch_one(&pool)
        .await
        .unwrap();
    (row.get(0), row.get(1))
}

async fn claim(addr: &str, id: &str, name: &str, key: &str) -> (u16, Value) {
    http(
        addr,
        "POST",
        &format!("/api/tables/{id}/seats"),
        Some(&json!({"name": name, "invite": key})),
        None,
    )
    .await
}

#[tokio::test]
async fn a_key_computed_from_the_stored_row_seats_nobody_and_old_tables_keep_their_key() {
    let dir = temp_dir("invite");
    let (mut child, addr) = spawn_binary(&dir, &[]);
    let (id, host) = lobby(&addr, json!("sochi")).await;
    let (old_id, old_host) = lobby(&addr, json!("sochi")).await;

    // What a copy of the database gives: the host token's hash and the key's own hash.
    let (stored_host, stored_invite) = stored_row(&dir, &id).await;
    let from_the_row = TokenHash::read_stored(&stored_host)
        .unwrap()
        .legacy_invite_key()
        .expose();
    let stored_invite = stored_invite.expect("a new table stores its key's hash");
    assert_ne!(stored_invite, invite(&host), "the key itself is not stored");
    for key in [from_the_row.as_str(), &stored_invite[..32]] {
        let (status, body) = claim(&addr, &id, "Mallory", key).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (403, Some("invite_required")),
            "{body}"
        );
    }
    let (status, body) = claim(&addr, &id, "Anna", &invite(&host)).await;
    assert_eq!(status, 200, "{body}");
    let anna = body["token"].as_str().unwrap().to_owned();

    // The host is given his link again; a seat token is not.
    let path = format!("/api/tables/{id}/invite");
    let (status, body) = http(&addr, "GET", &path, None, Some(&host)).await;
    assert_eq!(status, 200, "{body}");
    assert!(
        body["invite"]
            .as_str()
            .unwrap()
            .ends_with(&format!("/t/{id}#invite={}", invite(&host))),
        "{body}"
    );
    let (status, body) = http(&addr, "GET", &path, None, Some(&anna)).await;
    assert_eq!((status, body["error"].as_str()), (403, Some("forbidden")));

    // A table stored before the key had a column (no hash in it) keeps its old key.
    let _ = child.kill();
    let _ = child.wait();
    let url = format!("sqlite://{}", dir.join("pref.sqlite3").display());
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    sqlx::query("UPDATE tables SET invite = NULL WHERE id = ?")
        .bind(&old_id)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let (mut child, addr) = spawn_binary(&dir, &[]);
    let old_key = TokenHash::read_stored(&stored_row(&dir, &old_id).await.0)
        .unwrap()
        .legacy_invite_key()
        .expose();
    let (status, body) = claim(&addr, &old_id, "Boris", &invite(&old_host)).await;
    assert_eq!(
        status, 403,
        "the new kind of key is not an old table's: {body}"
    );
    let (status, body) = claim(&addr, &old_id, "Boris", &old_key).await;
    assert_eq!(status, 200, "the old table's link still seats: {body}");
    let path = format!("/api/tables/{old_id}/invite");
    let (status, body) = http(&addr, "GET", &path, None, Some(&old_host)).await;
    assert_eq!(status, 200, "{body}");
    assert!(
        body["invite"]
            .as_str()
            .unwrap()
            .ends_with(&format!("#invite={old_key}")),
        "{body}"
    );
    // The new table's key survives the restart too.
    let (status, body) = claim(&addr, &id, "Vera", &invite(&host)).await;
    assert_eq!(status, 200, "{body}");
    let _ = child.kill();
    let _ = child.wait();
}
