//! Closed hands on the wire (`dark_games`, R2.3): over real WebSockets, no client — the
//! hand's owner included — receives a card of a hand before its owner looks, neither in
//! the deal's events, nor in a snapshot after a reconnect, nor in legal actions. The look
//! (`"look"`, out of turn) shows the hand to its owner alone; a dark call (`{"dark": "6S"}`)
//! shows it to its owner right after the call; the others stay closed.

mod common;

use common::*;
use pref_core::{Action, CardSet, Deal, DealView, Seat, ViewEvent, Viewer};
use serde_json::{Value, json};

/// One client and the last version it saw.
struct Client {
    ws: Ws,
    viewer: Viewer,
    version: u64,
}

/// Every card a server message carries: a snapshot's deal view and legal actions, a deal
/// event and its turn's legal actions.
fn cards_of(m: &Value) -> CardSet {
    let mut cs = CardSet::EMPTY;
    if m["type"] == "snapshot" && !m["deal"].is_null() {
        let view: DealView = strict(&m["deal"]);
        cs = cs.or(view.cards());
    }
    if m["type"] == "event" && m["event"]["kind"] == "deal" {
        let e: ViewEvent = strict(&m["event"]["event"]);
        cs = cs.or(e.cards());
    }
    for t in [&m["turn"]["legal"]] {
        if let Ok(legal) = serde_json::from_value::<Vec<Action>>(t.clone()) {
            cs = cs.or(action_cards(&legal));
        }
    }
    cs
}

impl Client {
    /// Reads until `pred`; checks every message on the way against `hidden`: the cards this
    /// client may not receive yet.
    async fn until(&mut self, hidden: CardSet, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = next_json(&mut self.ws).await.expect("socket closed");
            if let Some(v) = m["version"].as_u64() {
                self.version = v;
            }
            let leak = cards_of(&m).and(hidden);
            assert!(
                leak.is_empty(),
                "{:?} received {leak} of a closed hand: {m}",
                self.viewer
            );
            if pred(&m) {
                return m;
            }
        }
    }

    async fn act(&mut self, action: Value) {
        let id = format!("a{}", self.version);
        send(
            &mut self.ws,
            json!({"type": "action", "id": id, "version": self.version, "action": action}),
        )
        .await;
    }
}

fn deal_event(m: &Value, kind: &str) -> bool {
    m["type"] == "event" && m["event"]["kind"] == "deal" && m["event"]["event"]["type"] == kind
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r2_3_a_closed_hand_reaches_no_client_before_its_owner_looks() {
    let (addr, dir) = server("dark-hands", |_| {}).await;
    let profile = json!({"preset": "sochi", "dark_games": true});
    let p = pref_core::Profile::from_json(&profile).unwrap();
    let info = table(&addr, profile, 3, false).await;
    let mut clients = Vec::new();
    for (i, token) in info.tokens.iter().enumerate() {
        clients.push(Client {
            ws: connect(&addr, &info.id, Some(token), "").await,
            viewer: Viewer::Seat(Seat(i as u8)),
            version: 0,
        });
    }
    clients.push(Client {
        ws: connect(&addr, &info.id, None, "").await,
        viewer: Viewer::Spectator,
        version: 0,
    });
    start_table(&addr, &info.id, &info.host).await;

    // Nobody has looked: no client may receive any card of any hand.
    let every_hand = CardSet::FULL;
    let mut dealer = None;
    for c in &mut clients {
        let m = c.until(every_hand, |m| deal_event(m, "dealt")).await;
        let e = &m["event"]["event"];
        assert!(e["hand"].is_null(), "R2.3: a closed hand in the deal: {m}");
        assert_eq!(e["closed"], true);
        dealer = Some(Seat(e["dealer"].as_u64().unwrap() as u8));
    }
    let dealer = dealer.unwrap();
    let truth = Truth::open(&dir, &info.id, p.clone()).await;
    let (deck, _) = truth.deal(0).await;
    let deal = Deal::new(&p, dealer, &deck, 0).unwrap();
    let hands = deal.dealt_hands();
    let first = deal.first_hand();
    let second = deal.next_seat(first);
    let third = deal.next_seat(second);
    let closed = |seats: &[Seat]| {
        seats
            .iter()
            .fold(CardSet::EMPTY, |a, s| a.or(hands[s.index()]))
    };

    // A reconnect before looking: the snapshot shows the owner no card of his hand.
    let mut again = Client {
        ws: connect(&addr, &info.id, Some(&info.tokens[third.index()]), "").await,
        viewer: Viewer::Seat(third),
        version: 0,
    };
    let snap = again.until(every_hand, |m| m["type"] == "snapshot").await;
    assert!(snap["deal"]["hand"].is_null(), "{snap}");
    assert_eq!(snap["deal"]["dark"]["looked"], json!([false, false, false]));

    // The second hand looks out of turn: he alone receives his hand.
    clients[second.index()].act(json!("look")).await;
    for c in &mut clients {
        let me = c.viewer;
        let hidden = if me == Viewer::Seat(second) {
            closed(&[first, third])
        } else {
            every_hand
        };
        let m = c.until(hidden, |m| deal_event(m, "looked")).await;
        let shown: Option<CardSet> =
            serde_json::from_value(m["event"]["event"]["hand"].clone()).unwrap();
        let expected = (me == Viewer::Seat(second)).then_some(hands[second.index()]);
        assert_eq!(shown, expected, "{me:?}: {m}");
    }

    // First hand calls 6♠ dark; right after it he sees his hand, and only he.
    let v = clients[second.index()].version;
    clients[first.index()].version = clients[first.index()].version.max(v);
    clients[first.index()].act(json!({"dark": "6S"})).await;
    for c in &mut clients {
        let me = c.viewer;
        let hidden = match me {
            Viewer::Seat(s) if s == first => closed(&[second, third]),
            Viewer::Seat(s) if s == second => closed(&[first, third]),
            Viewer::Seat(_) | Viewer::Spectator => every_hand,
        };
        let called = c.until(hidden, |m| deal_event(m, "called")).await;
        assert_eq!(called["event"]["event"]["dark"], true, "{called}");
        let m = c.until(hidden, |m| deal_event(m, "looked")).await;
        let shown: Option<CardSet> =
            serde_json::from_value(m["event"]["event"]["hand"].clone()).unwrap();
        let expected = (me == Viewer::Seat(first)).then_some(hands[first.index()]);
        assert_eq!(shown, expected, "{me:?}: {m}");
    }
    // The second hand passes in the light; the third hand, still closed, is to call: his
    // legal actions carry no card, and a fresh snapshot still hides his hand from him.
    let v = clients.iter().map(|c| c.version).max().unwrap();
    clients[second.index()].version = v;
    clients[second.index()].act(json!({"bid": "pass"})).await;
    for c in &mut clients {
        let hidden = match c.viewer {
            Viewer::Seat(s) if s == first => closed(&[second, third]),
            Viewer::Seat(s) if s == second => closed(&[first, third]),
            Viewer::Seat(_) | Viewer::Spectator => every_hand,
        };
        let m = c.until(hidden, |m| deal_event(m, "called")).await;
        assert_eq!(m["event"]["event"]["seat"], second.0, "{m}");
    }
    let snap = {
        let mut c = Client {
            ws: connect(&addr, &info.id, Some(&info.tokens[third.index()]), "").await,
            viewer: Viewer::Seat(third),
            version: 0,
        };
        c.until(closed(&[first, second, third]), |m| m["type"] == "snapshot")
            .await
    };
    assert!(snap["deal"]["hand"].is_null(), "{snap}");
    let legal: Vec<Action> = serde_json::from_value(snap["turn"]["legal"].clone()).unwrap();
    assert!(legal.contains(&Action::Look), "{snap}");
    assert!(
        legal.contains(&Action::Dark(pref_core::Call::Pass)),
        "{snap}"
    );
}
