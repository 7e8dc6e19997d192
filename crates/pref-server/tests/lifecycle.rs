//! The table cap over HTTP counts live tables only: a finished game frees its slot, and its
//! link still answers. (Expiry and unloading on virtual time are in `src/lifecycle/tests.rs`.)

mod common;

use common::*;
use serde_json::json;

async fn create(addr: &str) -> (u16, serde_json::Value) {
    http(addr, "POST", "/api/tables", Some(&json!({})), None).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_frees_its_slot_and_its_link_still_answers() {
    let (addr, _) = server("lifecycle-cap", |c| c.limits.max_tables = 2).await;
    let (first, host) = lobby(&addr, json!("sochi")).await;
    let (_second, _) = lobby(&addr, json!("sochi")).await;
    let (status, body) = create(&addr).await;
    assert_eq!(
        (status, body["error"].clone()),
        (503, json!("full")),
        "{body}"
    );

    let end = format!("/api/tables/{first}/end");
    let (status, body) = http(&addr, "POST", &end, None, Some(&host)).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = create(&addr).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = create(&addr).await;
    assert_eq!(status, 503, "{body}");

    let (status, summary) = http(&addr, "GET", &format!("/api/tables/{first}"), None, None).await;
    assert_eq!((status, summary["phase"].clone()), (200, json!("over")));
}
