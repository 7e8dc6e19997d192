//! The bot API's tokens over real HTTP and WebSockets (`docs/bot-api.md`): a revoked token
//! is refused by the next request and closes the socket opened with it at once (on another
//! node, PostgreSQL: at its next message); only a fresh account becomes a bot; a table for
//! people only refuses bots; tokens and requests with them have their limits.

mod bot_api_common;
mod common;

use bot_api_common::*;
use common::*;
use futures_util::StreamExt;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

#[tokio::test]
async fn a_revoked_token_is_refused_at_once_and_its_socket_closes() {
    let (addr, _) = server("bot-api-revoke", quick).await;
    let (owner, token) = bot_account(&addr, "Robo").await;
    let (id, host) = lobby(&addr, json!("sochi")).await;
    let claim = format!("/api/tables/{id}/seats");
    let body = json!({"name": "x", "invite": invite(&host)});
    let (status, seat) = as_bot(&addr, &token, "POST", &claim, Some(body.clone())).await;
    assert_eq!(status, 200, "{seat}");
    let mut ws = bot_socket(&addr, &id, &token).await;
    let snap = next_json(&mut ws).await.unwrap();
    assert_eq!(snap["you"], json!({"seat": 0}), "{snap}");

    let (_, tokens) = owner.send("GET", "/api/me/tokens", None).await;
    let no = tokens["tokens"][0]["id"].as_i64().unwrap();
    let (status, revoked) = owner
        .send("POST", &format!("/api/me/tokens/{no}/revoke"), None)
        .await;
    assert_eq!((status, revoked), (200, json!({"revoked": true})));
    // The open socket is closed with 4003 without a message of its own.
    let close = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                Some(Ok(_)) => {}
                _ => return None,
            }
        }
    })
    .await
    .expect("the socket stays open after the revocation");
    assert_eq!(close, Some(4003));
    // Every request with it is refused in the documented shape, and a new socket too.
    for (method, path) in [
        ("GET", "/api/bot"),
        ("GET", "/api/bot/invitations"),
        ("POST", claim.as_str()),
    ] {
        let (status, err) = as_bot(&addr, &token, method, path, Some(body.clone())).await;
        assert_eq!(
            (status, err["error"].as_str()),
            (401, Some("bad_token")),
            "{path}: {err}"
        );
        assert!(err["message"].is_string());
    }
    let mut req = format!("ws://{addr}/api/tables/{id}/ws")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_err());
    // Revoked twice is nothing to revoke; the list no longer holds it.
    let (status, _) = owner
        .send("POST", &format!("/api/me/tokens/{no}/revoke"), None)
        .await;
    assert_eq!(status, 409);
    let (_, tokens) = owner.send("GET", "/api/me/tokens", None).await;
    assert_eq!(tokens, json!({"tokens": []}));
}

#[tokio::test]
async fn only_a_fresh_account_becomes_a_bot_and_no_bot_sits_at_a_table_for_people_only() {
    let (addr, _) = server("bot-api-people", quick).await;
    // An account that has held a seat stays a person's.
    let anna = Browser::sign_up(&addr, "Anna").await;
    let (id, host) = lobby(&addr, json!("sochi")).await;
    let claim = format!("/api/tables/{id}/seats");
    let (status, _) = anna
        .send(
            "POST",
            &claim,
            Some(json!({"name": "A", "invite": invite(&host)})),
        )
        .await;
    assert_eq!(status, 200);
    let (status, err) = anna.send("POST", "/api/me/bot", None).await;
    assert_eq!(
        (status, err["error"].as_str()),
        (409, Some("conflict")),
        "{err}"
    );
    let (status, err) = anna
        .send("POST", "/api/me/tokens", Some(json!({"name": "t"})))
        .await;
    assert_eq!(status, 409, "a person's account makes no token: {err}");

    let (_, token) = bot_account(&addr, "Robo").await;
    let (status, created) = http(
        &addr,
        "POST",
        "/api/tables",
        Some(&json!({"people_only": true})),
        None,
    )
    .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["table"]["people_only"], true);
    let (pid, phost) = (
        created["id"].as_str().unwrap(),
        created["host_token"].as_str().unwrap(),
    );
    let claim = format!("/api/tables/{pid}/seats");
    let (status, err) = as_bot(
        &addr,
        &token,
        "POST",
        &claim,
        Some(json!({"name": "x", "invite": invite(phost)})),
    )
    .await;
    assert_eq!(
        (status, err["error"].as_str()),
        (403, Some("people_only")),
        "{err}"
    );
    let invite_path = format!("/api/tables/{pid}/seats/0/invite");
    let (status, err) = http(
        &addr,
        "POST",
        &invite_path,
        Some(&json!({"name": "Robo"})),
        Some(phost),
    )
    .await;
    assert_eq!(
        (status, err["error"].as_str()),
        (403, Some("people_only")),
        "{err}"
    );
    let (_, summary) = http(&addr, "GET", &format!("/api/tables/{pid}"), None, None).await;
    assert!(
        summary["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["name"].is_null()),
        "{summary}"
    );
    // A person still sits there.
    let (status, _) = http(
        &addr,
        "POST",
        &claim,
        Some(&json!({"name": "Anna", "invite": invite(phost)})),
        None,
    )
    .await;
    assert_eq!(status, 200);
    // A malformed bot token is refused as unknown, not read as a seat token.
    let (status, err) = as_bot(&addr, "prefbot_zz", "GET", "/api/bot", None).await;
    assert_eq!((status, err["error"].as_str()), (401, Some("bad_token")));
}

#[tokio::test]
async fn a_token_revoked_on_one_node_is_refused_by_another_and_its_socket_closes_at_the_next_message()
 {
    let Some(url) = postgres("botapi").await else {
        return;
    };
    let (one, _) = server("bot-api-pg-1", |c| {
        quick(c);
        c.database = Some(url.clone());
    })
    .await;
    let (two, _) = server("bot-api-pg-2", |c| {
        quick(c);
        c.database = Some(url.clone());
    })
    .await;
    let (owner, token) = bot_account(&one, "Robo").await;
    let (id, host) = lobby(&one, json!("sochi")).await;
    let claim = format!("/api/tables/{id}/seats");
    let (status, seat) = as_bot(
        &one,
        &token,
        "POST",
        &claim,
        Some(json!({"name": "x", "invite": invite(&host)})),
    )
    .await;
    assert_eq!(status, 200, "{seat}");
    let mut ws = bot_socket(&one, &id, &token).await;
    assert_eq!(next_json(&mut ws).await.unwrap()["you"], json!({"seat": 0}));
    // The owner revokes it on the other node: this node's next check refuses it.
    let owner_there = Browser {
        addr: two.clone(),
        headers: owner.headers.replace(&one, &two),
    };
    let (_, tokens) = owner_there.send("GET", "/api/me/tokens", None).await;
    let no = tokens["tokens"][0]["id"].as_i64().unwrap();
    let (status, _) = owner_there
        .send("POST", &format!("/api/me/tokens/{no}/revoke"), None)
        .await;
    assert_eq!(status, 200);
    let (status, err) = as_bot(&one, &token, "GET", "/api/bot", None).await;
    assert_eq!((status, err["error"].as_str()), (401, Some("bad_token")));
    send(&mut ws, json!({"type": "resync"})).await;
    let close = loop {
        match ws.next().await {
            Some(Ok(Message::Close(frame))) => break frame.map(|f| u16::from(f.code)),
            // Items already on their way may come; the resync is not answered.
            Some(Ok(Message::Text(t))) => assert!(!t.contains("snapshot"), "answered: {t}"),
            Some(Ok(_)) => {}
            _ => break None,
        }
    };
    assert_eq!(close, Some(4003));
}

#[tokio::test]
async fn tokens_and_requests_with_them_have_their_limits() {
    let (addr, _) = server("bot-api-limits", |c| {
        quick(c);
        c.accounts.bot_tokens_per_account = 2;
        c.accounts.bot_requests_per_token_per_minute = 1;
        c.accounts.bot_request_burst_per_token = 3;
    })
    .await;
    let (owner, token) = bot_account(&addr, "Robo").await;
    let (status, _) = owner
        .send("POST", "/api/me/tokens", Some(json!({"name": "two"})))
        .await;
    assert_eq!(status, 200);
    let (status, err) = owner
        .send("POST", "/api/me/tokens", Some(json!({"name": "three"})))
        .await;
    assert_eq!(
        (status, err["error"].as_str()),
        (409, Some("conflict")),
        "{err}"
    );
    let (status, err) = owner
        .send("POST", "/api/me/tokens", Some(json!({"name": ""})))
        .await;
    assert_eq!(status, 400, "{err}");
    // A token's budget: three at once, then refused; another token has its own.
    for _ in 0..3 {
        assert_eq!(as_bot(&addr, &token, "GET", "/api/bot", None).await.0, 200);
    }
    let (status, err) = as_bot(&addr, &token, "GET", "/api/bot/invitations", None).await;
    assert_eq!(
        (status, err["error"].as_str()),
        (429, Some("rate_limited")),
        "{err}"
    );
    // Token-made requests need no Origin, but the owner's need his session: a token is no
    // session.
    let (status, _) = as_bot(&addr, &token, "GET", "/api/me/tokens", None).await;
    assert_eq!(status, 401);
}
