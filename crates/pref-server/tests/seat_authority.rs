//! Seat authority over real sockets: a socket whose seat has been freed never sees the next
//! occupant's cards and cannot act, chat or resync as that seat, whichever order the
//! `leave` and the socket's `resync` reach the table in.

mod common;

use std::time::Duration;

use common::{connect, http, invite, next_json, send, server, table, until};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// Everything the socket receives until it closes, and the close code.
async fn drain(ws: &mut common::Ws) -> (Vec<Value>, Option<u16>) {
    let mut got = Vec::new();
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("the socket of a freed seat stays open");
        match msg {
            Some(Ok(Message::Text(t))) => got.push(serde_json::from_str(&t).unwrap()),
            Some(Ok(Message::Close(frame))) => return (got, frame.map(|f| f.code.into())),
            None | Some(Err(_)) => return (got, None),
            Some(Ok(_)) => {}
        }
    }
}

/// Whether `m` shows a hand of seat 0 or legal actions for it: what the old socket must
/// never see once Gleb sits there.
fn shows_seat_zero_hand(m: &Value) -> bool {
    let snapshot_hand = m["type"] == "snapshot" && m["deal"]["hand"].is_array();
    let dealt = m["event"]["event"]["type"] == "dealt";
    let legal = m["turn"]["legal"].as_array().is_some_and(|l| !l.is_empty());
    snapshot_hand || dealt || legal
}

/// The order the two requests are sent in.
#[derive(Clone, Copy, Debug)]
enum Order {
    /// The socket's `resync` is written first, then `leave` is posted.
    ResyncFirst,
    /// `leave` is answered first, then the socket writes `resync`, an action and a chat line.
    LeaveFirst,
    /// Both at once.
    Together,
}

async fn leave_and_resync(order: Order) {
    let (addr, _dir) = server("seat-race", |_| {}).await;
    let info = table(&addr, json!("sochi"), 3, false).await;
    let base = format!("/api/tables/{}", info.id);
    let mut anna = connect(&addr, &info.id, Some(&info.tokens[0]), "").await;
    let first = next_json(&mut anna).await.unwrap();
    assert_eq!(first["type"], "snapshot");
    // Boris, seated, sees every item, chat included.
    let mut watcher = connect(&addr, &info.id, Some(&info.tokens[1]), "").await;
    until(&mut watcher, |m| m["type"] == "snapshot").await;

    let leave = async {
        let (status, body) = http(
            &addr,
            "POST",
            &format!("{base}/leave"),
            None,
            Some(&info.tokens[0]),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    };
    let resync = json!({"type": "resync"});
    match order {
        Order::ResyncFirst => {
            send(&mut anna, resync).await;
            leave.await;
        }
        Order::LeaveFirst => {
            leave.await;
            // The socket may already be closed by now; what it sends then goes nowhere.
            for m in [
                resync,
                json!({"type": "chat", "text": "I am Gleb"}),
                json!({"type": "action", "id": "x", "version": 1000, "action": {"bid": "pass"}}),
            ] {
                let _ = futures_util::SinkExt::send(&mut anna, Message::Text(m.to_string().into()))
                    .await;
            }
        }
        Order::Together => {
            let ((), ()) = tokio::join!(leave, send(&mut anna, resync));
        }
    }

    let (status, gleb) = http(
        &addr,
        "POST",
        &format!("{base}/seats"),
        Some(&json!({"name": "Gleb", "seat": 0, "invite": invite(&info.host)})),
        None,
    )
    .await;
    assert_eq!(status, 200, "{gleb}");
    let (status, body) = http(
        &addr,
        "POST",
        &format!("{base}/start"),
        None,
        Some(&info.host),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    // The watcher sees the deal start, so everything the old socket could have been sent
    // has been published.
    until(&mut watcher, |m| m["event"]["event"]["type"] == "dealt").await;

    let (got, code) = drain(&mut anna).await;
    assert_eq!(code, Some(4000), "{order:?}: {got:?}");
    assert!(
        !got.iter().any(shows_seat_zero_hand),
        "{order:?}: the old socket saw seat 0's cards: {got:?}"
    );
    let freed = got
        .iter()
        .position(|m| m["event"]["kind"] == "seat_freed")
        .unwrap_or_else(|| panic!("{order:?}: no seat_freed before the close: {got:?}"));
    assert_eq!(
        freed + 1,
        got.len(),
        "{order:?}: items after seat_freed: {got:?}"
    );

    // Nothing was said in seat 0's name: the first chat line Boris sees is Gleb's.
    let chat = json!({"type": "chat", "text": "hello"});
    let mut gleb_ws = connect(&addr, &info.id, gleb["token"].as_str(), "").await;
    let snap = until(&mut gleb_ws, |m| m["type"] == "snapshot").await;
    assert_eq!(snap["table"]["seats"][0]["name"], "Gleb");
    assert_eq!(snap["deal"]["hand"].as_array().unwrap().len(), 10);
    send(&mut gleb_ws, chat).await;
    let said = until(&mut watcher, |m| m["event"]["kind"] == "chat").await;
    assert_eq!(said["event"]["text"], "hello", "{order:?}: {said}");
    assert_eq!(said["event"]["from"], json!({"seat": 0}));
}

#[tokio::test]
async fn resync_sent_before_leave_does_not_keep_the_seat() {
    leave_and_resync(Order::ResyncFirst).await;
}

#[tokio::test]
async fn resync_and_actions_after_leave_are_refused() {
    leave_and_resync(Order::LeaveFirst).await;
}

#[tokio::test]
async fn leave_and_resync_together_never_leak_the_next_hand() {
    for _ in 0..10 {
        leave_and_resync(Order::Together).await;
    }
}
