//! A table keeps the rules it was created with: it stores its resolved profile (every key),
//! not the request naming a preset, so a preset file edited between two runs of the server
//! changes no game in progress. Tables stored before, with the request, still load.

mod common;

use std::path::Path;

use common::*;
use pref_core::Profile;
use serde_json::{Value, json};
use sqlx::Row;

/// The database the server writes, opened for reading and writing while no server runs.
async fn database(dir: &Path) -> sqlx::SqlitePool {
    let url = format!("sqlite://{}", dir.join("pref.sqlite3").display());
    sqlx::sqlite::SqlitePoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .unwrap()
}

async fn stored(db: &sqlx::SqlitePool, id: &str) -> Value {
    let text: String = sqlx::query("SELECT profile FROM tables WHERE id = ?")
        .bind(id)
        .fetch_one(db)
        .await
        .unwrap()
        .get(0);
    serde_json::from_str(&text).unwrap()
}

async fn store(db: &sqlx::SqlitePool, id: &str, profile: &Value) {
    sqlx::query("UPDATE tables SET profile = ? WHERE id = ?")
        .bind(profile.to_string())
        .bind(id)
        .execute(db)
        .await
        .unwrap();
}

async fn profile_served(addr: &str, id: &str) -> Value {
    let (status, summary) = http(addr, "GET", &format!("/api/tables/{id}"), None, None).await;
    assert_eq!(status, 200, "{summary}");
    summary["profile"].clone()
}

fn stop(mut child: std::process::Child) {
    child.kill().unwrap();
    child.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_table_keeps_its_rules_after_the_preset_file_changed() {
    let dir = temp_dir("stored-profile");
    let (child, addr) = spawn_binary(&dir, &[]);
    let request = json!({"preset": "sochi", "pool_target": 30});
    let created = table(&addr, request.clone(), 3, true).await;
    let lobby_request = json!({"preset": "leningrad", "whist_scale": 2});
    let (lobby_id, lobby_host) = lobby(&addr, json!("sochi")).await;
    let (status, body) = http(
        &addr,
        "PUT",
        &format!("/api/tables/{lobby_id}/profile"),
        Some(&lobby_request),
        Some(&lobby_host),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    stop(child);

    // What is stored is every key with its value, with no preset left to resolve again.
    let db = database(&dir).await;
    let resolved = Profile::from_json(&request).unwrap().to_json();
    assert_eq!(stored(&db, &created.id).await, resolved);
    assert!(stored(&db, &created.id).await.get("preset").is_none());
    let lobby_resolved = Profile::from_json(&lobby_request).unwrap().to_json();
    assert_eq!(stored(&db, &lobby_id).await, lobby_resolved);

    // The preset files are part of the binary, so an edited `sochi.toml` is a new build whose
    // sochi differs from the one the table was created with. Make the stored profile differ
    // from today's sochi in every way an edit could (what an older sochi resolved to): a
    // server that resolved the preset again would serve today's values.
    let mut older = resolved.clone();
    older["half_whist"] = json!(false);
    older["whist_split"] = json!("gentleman");
    older["raspasy_price"] = json!([1, 2, 3]);
    older["raspasy_exit"] = json!([6, 7, 8]);
    let older_profile = Profile::from_resolved(&older).unwrap();
    assert_ne!(older_profile.to_json(), resolved);
    store(&db, &created.id, &older).await;
    db.close().await;

    let (child, addr) = spawn_binary(&dir, &[]);
    assert_eq!(profile_served(&addr, &created.id).await, older);
    assert_eq!(profile_served(&addr, &lobby_id).await, lobby_resolved);
    stop(child);
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_stored_with_its_request_still_loads() {
    let dir = temp_dir("stored-request");
    let (child, addr) = spawn_binary(&dir, &[]);
    let started = table(&addr, json!("sochi"), 3, true).await;
    let (lobby_id, _) = lobby(&addr, json!("leningrad")).await;
    stop(child);

    // Rows written before tables kept their resolved profile hold the request: a preset's
    // name, or an object naming a preset and the keys that differ from it.
    let db = database(&dir).await;
    let request = json!({"preset": "sochi", "pool_target": 30, "whist_scale": 2});
    store(&db, &started.id, &request).await;
    store(&db, &lobby_id, &json!("rostov")).await;
    db.close().await;

    let (child, addr) = spawn_binary(&dir, &[]);
    assert_eq!(
        profile_served(&addr, &started.id).await,
        Profile::from_json(&request).unwrap().to_json()
    );
    assert_eq!(
        profile_served(&addr, &lobby_id).await,
        Profile::preset("rostov").unwrap().to_json()
    );
    stop(child);
    std::fs::remove_dir_all(&dir).ok();
}
