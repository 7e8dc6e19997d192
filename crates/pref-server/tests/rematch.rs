//! After the game and around it, over the real protocol: the host's rematch opens a new
//! table with the same profile, chat rule and bots, keeps each person's seat for his name,
//! every viewer of the old table is told its link, and only once; and every viewer is told
//! how many spectators are watching.

mod common;

use common::*;
use pref_protocol::{Created, Summary};
use serde_json::{Value, json};

async fn summary(addr: &str, id: &str) -> Summary {
    let (status, body) = http(addr, "GET", &format!("/api/tables/{id}"), None, None).await;
    assert_eq!(status, 200, "{body}");
    strict(&body)
}

async fn post(addr: &str, path: &str, body: Option<&Value>, bearer: Option<&str>) -> (u16, Value) {
    http(addr, "POST", path, body, bearer).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hosts_rematch_copies_profile_chat_and_bots_and_every_viewer_gets_its_link() {
    let addr = quick_server("rematch").await;
    let (status, created) = post(
        &addr,
        "/api/tables",
        Some(
            &json!({"profile": {"preset": "leningrad", "pool_target": 20}, "spectator_chat": true}),
        ),
        None,
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let created: Created = strict(&created);
    let (id, host) = (created.id, created.host_token);
    let (status, seat) = post(
        &addr,
        &format!("/api/tables/{id}/seats"),
        Some(&json!({"name": "Anna", "seat": 0, "invite": invite(&host)})),
        None,
    )
    .await;
    assert_eq!(status, 200, "{seat}");
    let anna = seat["token"].as_str().unwrap().to_owned();
    for (s, level) in [(1, "easy"), (2, "strong")] {
        let path = format!("/api/tables/{id}/seats/{s}/bot");
        let (status, body) =
            post(&addr, &path, Some(&json!({ "level": level })), Some(&host)).await;
        assert_eq!(status, 200, "{body}");
    }
    let rematch = format!("/api/tables/{id}/rematch");
    // Not before the game is over, and only by the host.
    let (status, body) = post(&addr, &rematch, None, Some(&host)).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (409, Some("conflict")),
        "{body}"
    );
    let mut spectator = connect(&addr, &id, None, "").await;
    until(&mut spectator, |m| m["type"] == "snapshot").await;
    let (status, body) = post(&addr, &format!("/api/tables/{id}/end"), None, Some(&host)).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = post(&addr, &rematch, None, Some(&anna)).await;
    assert_eq!(status, 403, "a seat token is not the host's: {body}");
    let kept = format!("/api/tables/{id}/rematch/seat");
    let (status, body) = post(&addr, &kept, None, Some(&anna)).await;
    assert_eq!(status, 409, "no rematch is open yet: {body}");

    let (status, body) = post(&addr, &rematch, None, Some(&host)).await;
    assert_eq!(status, 201, "{body}");
    let again: Created = strict(&body);
    assert_ne!(again.id, id);
    assert_ne!(again.host_token, host);
    assert!(
        again.invite.ends_with(&format!(
            "/t/{}#invite={}",
            again.id,
            invite(&again.host_token)
        )),
        "{}",
        again.invite
    );
    let old = summary(&addr, &id).await;
    let new = summary(&addr, &again.id).await;
    assert_eq!(
        new, again.table,
        "the answer carries the new table as it stands"
    );
    assert_eq!(new.profile, old.profile, "the same profile");
    assert!(new.spectator_chat, "the same chat rule");
    assert_eq!(json!(new.phase), json!("lobby"));
    let seats: Vec<Value> = new.seats.iter().map(|s| json!([s.name, s.bot])).collect();
    assert_eq!(
        seats,
        [
            json!([null, null]),
            json!(["Bot 2", "easy"]),
            json!(["Bot 3", "strong"])
        ],
        "the bots sit again at their levels; the person takes a seat by the link"
    );
    // Every viewer of the old table is told the new table, and a late one reads it in the
    // summary and the snapshot.
    let news = until(&mut spectator, |m| m["event"]["kind"] == "rematch").await;
    assert_eq!(news["event"]["table"], json!(again.id));
    assert_eq!(old.rematch.as_deref(), Some(again.id.as_str()));
    let mut late = connect(&addr, &id, None, "").await;
    let snap = until(&mut late, |m| m["type"] == "snapshot").await;
    assert_eq!(snap["table"]["rematch"], json!(again.id));
    // Once only.
    let (status, body) = post(&addr, &rematch, None, Some(&host)).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(summary(&addr, &id).await.rematch, old.rematch);
    // Anna's seat is kept for her: nobody else takes it, by number or as the first free one.
    assert_eq!(new.seats[0].reserved.as_deref(), Some("Anna"));
    assert!(new.seats[1..].iter().all(|s| s.reserved.is_none()));
    let seats = format!("/api/tables/{}/seats", again.id);
    let (status, body) = post(
        &addr,
        &seats,
        Some(&json!({"name": "Boris", "seat": 0, "invite": invite(&again.host_token)})),
        None,
    )
    .await;
    assert_eq!(status, 409, "{body}");
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.contains("kept for Anna")),
        "{body}"
    );
    let (status, body) = post(
        &addr,
        &seats,
        Some(&json!({"name": "Boris", "invite": invite(&again.host_token)})),
        None,
    )
    .await;
    assert_eq!(status, 409, "no free seat is kept for nobody: {body}");
    // Her name alone does not take it: anyone with the new invite could give that name.
    for claim in [
        json!({"name": "Anna", "seat": 0, "invite": invite(&again.host_token)}),
        json!({"name": "anna", "invite": invite(&again.host_token)}),
    ] {
        let (status, body) = post(&addr, &seats, Some(&claim), None).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (409, Some("conflict")),
            "{claim}: {body}"
        );
    }
    let (status, body) = post(
        &addr,
        &seats,
        Some(&json!({"name": "Anna", "seat": 0, "invite": invite(&again.host_token)})),
        None,
    )
    .await;
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.contains("kept for Anna, who takes it from the finished table")),
        "{status} {body}"
    );
    assert_eq!(summary(&addr, &again.id).await.seats[0].name, None);
    // She takes it with her seat token at the old table, which stands for the invite link
    // only the host was given; nobody else's token does (the host's holds no seat there).
    let (status, body) = post(&addr, &kept, None, Some(&host)).await;
    assert_eq!(
        status, 403,
        "the host holds no seat at the old table: {body}"
    );
    let (status, body) = post(&addr, &kept, None, Some(&anna)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["table"], json!(again.id));
    assert_eq!(body["seat"], 0);
    let anna_again = body["token"].as_str().unwrap().to_owned();
    assert_ne!(anna_again, anna, "a new token for the new table");
    let (status, body) = post(&addr, &kept, None, Some(&anna)).await;
    assert_eq!(status, 409, "the seat is hers already: {body}");
    // Every kept seat is back and the bots sit: the table starts the rematch itself, nobody
    // presses Start again (the host's Start finds it started).
    assert_eq!(summary(&addr, &again.id).await.seats[0].reserved, None);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while summary(&addr, &again.id).await.phase == pref_protocol::Phase::Lobby {
        assert!(
            std::time::Instant::now() < deadline,
            "the rematch did not start by itself"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let (status, body) = post(
        &addr,
        &format!("/api/tables/{}/start", again.id),
        None,
        Some(&again.host_token),
    )
    .await;
    assert_eq!(status, 409, "started already: {body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_viewer_is_told_the_spectator_count() {
    let addr = quick_server("spectators").await;
    let t = table(&addr, json!("sochi"), 3, false).await;
    let mut player = connect(&addr, &t.id, Some(&t.tokens[0]), "").await;
    let snap = until(&mut player, |m| m["type"] == "snapshot").await;
    assert!(
        snap["table"].get("spectators").is_none(),
        "absent while none"
    );
    let count = |m: &Value| m["event"]["kind"] == "spectators";
    let mut first = connect(&addr, &t.id, None, "").await;
    assert_eq!(until(&mut player, count).await["event"]["count"], 1);
    let mut second = connect(&addr, &t.id, None, "").await;
    assert_eq!(until(&mut player, count).await["event"]["count"], 2);
    until(&mut second, |m| m["type"] == "snapshot").await;
    // The first spectator is told of itself, then of the second; the summary counts both.
    assert_eq!(until(&mut first, count).await["event"]["count"], 1);
    assert_eq!(until(&mut first, count).await["event"]["count"], 2);
    assert_eq!(summary(&addr, &t.id).await.spectators, 2);
    second.close(None).await.unwrap();
    assert_eq!(until(&mut player, count).await["event"]["count"], 1);
    assert_eq!(until(&mut first, count).await["event"]["count"], 1);
    // A seat's own socket is presence, not a spectator.
    let mut again = connect(&addr, &t.id, Some(&t.tokens[1]), "").await;
    until(&mut again, |m| m["type"] == "snapshot").await;
    let m = until(&mut player, |m| m["event"]["kind"] == "presence").await;
    assert_eq!(m["event"]["seat"], 1);
    assert_eq!(summary(&addr, &t.id).await.spectators, 1);
}
