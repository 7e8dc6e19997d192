//! Socket tests over an in-memory socket that can be held back: what a freed seat's or a
//! lagging socket's client is sent, message by message.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use futures_util::stream::BoxStream;
use pref_core::Seat;
use tokio::sync::{Semaphore, mpsc};

use super::*;
use crate::api::budgets::{Budgets, Spender};
use crate::edge::shutdown::Shutdown;
use crate::ids::{Secret, TokenHash};
use crate::store::Store;
use crate::table::actor::test_table;
use crate::table::command::HostRequest;
use crate::table::registry::Registry;

type BoxSink = Pin<Box<dyn Sink<Message, Error = axum::Error> + Send>>;

/// A socket in memory whose writes wait for a gate, to hold the socket back.
struct Fake {
    sink: BoxSink,
    stream: BoxStream<'static, Result<Message, axum::Error>>,
}

impl Sink<Message> for Fake {
    type Error = axum::Error;
    fn poll_ready(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.get_mut().sink.as_mut().poll_ready(cx)
    }
    fn start_send(self: Pin<&mut Self>, item: Message) -> Result<(), Self::Error> {
        self.get_mut().sink.as_mut().start_send(item)
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.get_mut().sink.as_mut().poll_flush(cx)
    }
    fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.get_mut().sink.as_mut().poll_close(cx)
    }
}

impl Stream for Fake {
    type Item = Result<Message, axum::Error>;
    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut().stream.as_mut().poll_next(cx)
    }
}

/// A socket in memory whose writes wait for the returned gate, and the messages it wrote.
fn gated() -> (Fake, Arc<Semaphore>, mpsc::UnboundedReceiver<Message>) {
    let gate = Arc::new(Semaphore::new(0));
    let (out_tx, out_rx) = mpsc::unbounded_channel::<Message>();
    let g = gate.clone();
    let sink = futures_util::sink::unfold(out_tx, move |tx, msg: Message| {
        let g = g.clone();
        async move {
            g.acquire().await.map_err(axum::Error::new)?.forget();
            tx.send(msg).map_err(axum::Error::new)?;
            Ok::<_, axum::Error>(tx)
        }
    });
    let fake = Fake {
        sink: Box::pin(sink),
        stream: Box::pin(futures_util::stream::pending()),
    };
    (fake, gate, out_rx)
}

/// Each written message in short: `"snapshot 3"`, `"event 4 seat_freed"`, `"lagged"`,
/// `"close 4000"`; `dealt` events name the cards they show.
async fn written(out: &mut mpsc::UnboundedReceiver<Message>) -> Vec<String> {
    let mut kinds = Vec::new();
    while let Some(msg) = out.recv().await {
        let kind = match msg {
            Message::Text(t) => {
                let v: serde_json::Value = serde_json::from_str(t.as_str()).unwrap();
                match v["type"].as_str().unwrap() {
                    "error" => v["code"].as_str().unwrap().to_owned(),
                    "event" => format!(
                        "event {} {}",
                        v["version"],
                        v["event"]["kind"].as_str().unwrap_or("stub")
                    ),
                    other => format!("{other} {}", v["version"]),
                }
            }
            Message::Close(frame) => format!("close {}", frame.map_or(0, |f| f.code)),
            Message::Binary(_) | Message::Ping(_) | Message::Pong(_) => continue,
        };
        kinds.push(kind);
    }
    kinds
}

/// The shared budget of `token`'s seat (or of the spectators) at table `id`.
fn budget(id: Secret, token: Option<Secret>) -> Shared {
    let who = token.map_or(Spender::Spectators, |t| Spender::Seat(TokenHash::of(&t)));
    Shared::new(Arc::new(Budgets::new(&Limits::default())), id, who)
}

/// Takes a seat at `handle` for `name`, seated by `host`; its token.
async fn claim(handle: &TableHandle, host: Secret, name: &str) -> Secret {
    let name = name.to_owned();
    let (_, token) = handle
        .ask(|reply| Command::Claim {
            name,
            seat: None,
            host: Some(host),
            invite: None,
            account: None,
            reply,
        })
        .await
        .unwrap()
        .unwrap();
    token
}

/// Seat 0's socket is held back while its seat is freed and taken by Gleb, who is
/// dealt a hand. Whether the socket's queue overflows (`queue` 2) or not, it never writes
/// anything after the `seat_freed` item, and the old token can no longer act, chat or
/// resync as seat 0.
async fn freed_while_held_back(queue: usize) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("pref-freed-{}", Secret::random().expose()));
    let store = Store::open(&dir).await.unwrap();
    let limits = Limits {
        queue,
        ..Limits::default()
    };
    let (id, no, host, table) = test_table(&store, &limits).await;
    let registry = Registry::new(store, limits.clone());
    registry.spawn(id, no, table);
    let handle = registry.get(&id).unwrap();
    let anna = claim(&handle, host, "Anna").await;
    let boris = claim(&handle, host, "Boris").await;
    let vera = claim(&handle, host, "Vera").await;
    let session = handle
        .ask(|reply| Command::Connect {
            token: Some(anna),
            resume: None,
            reply,
        })
        .await
        .unwrap()
        .unwrap();
    let (fake, gate, mut out) = gated();
    let going = Shutdown::new();
    tokio::spawn(run(
        fake,
        handle.clone(),
        session,
        (limits, budget(id, Some(anna))),
        going.watch(),
    ));

    handle
        .ask(|reply| Command::Leave { token: anna, reply })
        .await
        .unwrap()
        .unwrap();
    let gleb = claim(&handle, host, "Gleb").await;
    assert_ne!(gleb, anna);
    handle
        .ask(|reply| Command::Host {
            token: host,
            op: HostRequest::Start,
            reply,
        })
        .await
        .unwrap()
        .unwrap();

    let old = Caller::seat(Seat(0), anna);
    let resync = handle
        .ask(|reply| Command::Resync { caller: old, reply })
        .await
        .unwrap();
    assert!(resync.is_err(), "a freed seat's token resyncs");
    let chat = handle
        .ask(|reply| Command::Chat {
            caller: old,
            text: "I am Gleb".into(),
            reply,
        })
        .await
        .unwrap();
    assert_eq!(chat, Err(TableError::SeatLost));
    // Seat 1 (left of the dealer, seat 0) and seat 2 pass: seat 0 is to bid (R3).
    let pass = pref_core::Action::Bid(pref_core::Call::Pass);
    let act = |seat: u8, token: Secret| {
        let handle = handle.clone();
        async move {
            // The table's last version: neither stale nor from the future.
            let version = handle.ask(Command::Summary).await.unwrap().version;
            handle
                .ask(|reply| Command::Act {
                    seat: Seat(seat),
                    token,
                    version,
                    action: pass,
                    reply,
                })
                .await
                .unwrap()
        }
    };
    for (seat, token) in [(1, boris), (2, vera)] {
        assert!(act(seat, token).await.is_ok());
    }
    assert_eq!(
        act(0, anna).await.err(),
        Some(TableError::SeatLost),
        "a freed seat's token acts"
    );
    assert!(act(0, gleb).await.is_ok());
    let next = handle
        .ask(|reply| Command::NextDeal {
            seat: Seat(0),
            token: anna,
            version: 100,
            reply,
        })
        .await
        .unwrap();
    assert_eq!(next.err(), Some(TableError::SeatLost));

    gate.add_permits(1000);
    written(&mut out).await
}

#[tokio::test]
async fn a_freed_seat_s_socket_stops_at_seat_freed() {
    // Snapshot at version 3 (three seats taken), then seat_freed at 4; Gleb's seat_taken
    // (5), started (6) and his dealt hand (7) never reach the old socket.
    assert_eq!(
        freed_while_held_back(64).await,
        ["snapshot 3", "event 4 seat_freed", "close 4000"]
    );
}

#[tokio::test]
async fn a_lagging_socket_whose_seat_was_freed_gets_no_snapshot() {
    // Its queue overflowed: the seat_freed item is lost with the others, and instead of
    // the `lagged` snapshot (which would show Gleb's hand) the socket is closed.
    assert_eq!(freed_while_held_back(2).await, ["snapshot 3", "close 4000"]);
}

#[tokio::test]
async fn a_lagging_socket_gets_a_snapshot_not_a_gap() {
    let dir = std::env::temp_dir().join(format!("pref-lag-{}", Secret::random().expose()));
    let store = Store::open(&dir).await.unwrap();
    let limits = Limits {
        queue: 2,
        ..Limits::default()
    };
    let (id, no, host, table) = test_table(&store, &limits).await;
    let registry = Registry::new(store, limits.clone());
    registry.spawn(id, no, table);
    let handle = registry.get(&id).unwrap();
    let anna = claim(&handle, host, "Anna").await;
    let session = handle
        .ask(|reply| Command::Connect {
            token: None,
            resume: None,
            reply,
        })
        .await
        .unwrap()
        .unwrap();
    let (fake, gate, mut out_rx) = gated();
    let going = Shutdown::new();
    tokio::spawn(run(
        fake,
        handle.clone(),
        session,
        (limits, budget(id, None)),
        going.watch(),
    ));
    // The socket is stuck writing its snapshot while ten items go out on a queue of two.
    for i in 0..10 {
        let text = format!("line {i}");
        let caller = Caller::seat(Seat(0), anna);
        assert_eq!(
            handle
                .ask(|reply| Command::Chat {
                    caller,
                    text,
                    reply
                })
                .await
                .unwrap(),
            Ok(())
        );
    }
    gate.add_permits(100);
    let mut kinds = Vec::new();
    while let Some(Message::Text(t)) = out_rx.recv().await {
        let v: serde_json::Value = serde_json::from_str(t.as_str()).unwrap();
        let kind = match v["type"].as_str().unwrap() {
            "error" => v["code"].as_str().unwrap().to_owned(),
            other => format!("{other} {}", v["version"]),
        };
        kinds.push(kind);
        if v["type"] == "snapshot" && v["version"] == 12 {
            break;
        }
    }
    // Version 2 is the spectator count this socket's own arrival made; then ten lines.
    assert_eq!(kinds, ["snapshot 1", "lagged", "snapshot 12"]);
}
