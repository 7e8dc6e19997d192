//! The bot API tests' shared pieces (`bot_api*.rs`): requests with a cookie or an API
//! token, a bot account made as its owner would, the bot's socket, and a seat's client that
//! plays random legal actions and judges every card it receives against the stored deals.
#![allow(dead_code, unreachable_pub)]

use std::sync::Arc;

use super::common::*;
use pref_core::{Action, CardSet, DealView, Seat, ViewEvent, Viewer};
use pref_protocol::{Me, ServerMessage, TokenMade};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// Cheap password hashes, bots at once, budgets no test reaches unless it means to.
pub fn quick(c: &mut pref_server::config::Config) {
    cheap(c);
    c.limits.messages_per_second = 10_000;
    c.limits.message_burst = 10_000;
}

/// One request with extra header lines; status, lower-cased head and JSON body.
pub async fn raw(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
    headers: &str,
) -> (u16, String, Value) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap();
    (
        head[9..12].parse().unwrap(),
        head.to_ascii_lowercase(),
        serde_json::from_str(rest).unwrap_or(Value::Null),
    )
}

/// A signed-in browser: its cookie and this site's Origin.
pub struct Browser {
    pub addr: String,
    pub headers: String,
}

impl Browser {
    pub async fn sign_up(addr: &str, name: &str) -> Browser {
        let origin = format!("Origin: http://{addr}\r\n");
        let body = json!({"name": name, "password": "a long password"});
        let (status, head, made) = raw(addr, "POST", "/api/accounts", Some(body), &origin).await;
        assert_eq!(status, 201, "{made}");
        let cookie = head
            .lines()
            .find_map(|l| l.strip_prefix("set-cookie:"))
            .and_then(|c| c.split(';').next())
            .unwrap()
            .trim()
            .to_owned();
        Browser {
            addr: addr.to_owned(),
            headers: format!("{origin}Cookie: {cookie}\r\n"),
        }
    }

    pub async fn send(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let (status, _, body) = raw(&self.addr, method, path, body, &self.headers).await;
        (status, body)
    }
}

/// A request with the bot's API token.
pub async fn as_bot(
    addr: &str,
    token: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let (status, _, body) = raw(
        addr,
        method,
        path,
        body,
        &format!("Authorization: Bearer {token}\r\n"),
    )
    .await;
    (status, body)
}

/// A bot account named `name` with one token: the browser and the token.
pub async fn bot_account(addr: &str, name: &str) -> (Browser, String) {
    let owner = Browser::sign_up(addr, name).await;
    let (status, me) = owner.send("POST", "/api/me/bot", None).await;
    assert_eq!(status, 200, "{me}");
    let me: Me = strict(&me);
    assert!(me.bot);
    let (status, made) = owner
        .send("POST", "/api/me/tokens", Some(json!({"name": "laptop"})))
        .await;
    assert_eq!(status, 200, "{made}");
    let made: TokenMade = strict(&made);
    assert!(made.token.starts_with("prefbot_"));
    (owner, made.token)
}

/// The bot's socket: the browser's upgrade with `Authorization: Bearer` instead of a seat
/// token in the subprotocol.
pub async fn bot_socket(addr: &str, id: &str, token: &str) -> Ws {
    let mut req = format!("ws://{addr}/api/tables/{id}/ws")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

/// One seat's client: plays random legal actions and judges every card it receives.
pub struct Seated {
    pub ws: Ws,
    pub viewer: Viewer,
    pub truth: Arc<Truth>,
    pub rng: StdRng,
    pub version: u64,
    /// The deal watched, its dealer and the actions completed in it.
    pub deal: Option<(u32, Seat, usize)>,
    /// The person drives the next deals up to a cap; says whether the game ended itself.
    pub driver: Option<(u32, mpsc::UnboundedSender<bool>)>,
    /// Cards checked.
    pub cards: usize,
}

impl Seated {
    fn check(&mut self, cards: CardSet, ok: CardSet, m: &Value) {
        let extra = CardSet(cards.0 & !ok.0);
        assert!(
            extra.is_empty(),
            "{:?} received {extra} it may not see: {m}",
            self.viewer
        );
        self.cards += cards.len() as usize;
    }

    async fn allowed_after(&self, deal_no: u32, dealer: Seat, k: usize) -> CardSet {
        let (deck, actions) = self.truth.deal(deal_no).await;
        let streak = self.truth.raspasy_before(deal_no).await;
        allowed(
            self.viewer,
            &self.truth.replay(dealer, &deck, &actions, k, streak).1,
        )
    }

    /// Plays until the game is over; the cards checked.
    pub async fn run(mut self) -> usize {
        loop {
            let m = next_json(&mut self.ws)
                .await
                .expect("socket closed before the game ended");
            let _: ServerMessage = strict(&m);
            match m["type"].as_str().unwrap() {
                "snapshot" => self.snapshot(&m).await,
                "event" if self.event(&m).await => return self.cards,
                _ => {}
            }
        }
    }

    async fn snapshot(&mut self, m: &Value) {
        self.version = m["version"].as_u64().unwrap();
        assert_eq!(strict::<Viewer>(&m["you"]), self.viewer, "{m}");
        if m["deal"].is_null() {
            return;
        }
        let view: DealView = strict(&m["deal"]);
        let deal_no = m["deal_no"].as_u64().unwrap() as u32;
        let (k, ok) = self
            .truth
            .matching(deal_no, self.viewer, &view)
            .await
            .unwrap_or_else(|| panic!("snapshot matches no stored state: {m}"));
        self.check(view.cards(), ok, m);
        self.deal = Some((deal_no, view.dealer, k));
        self.act(m).await;
    }

    async fn event(&mut self, m: &Value) -> bool {
        self.version = m["version"].as_u64().unwrap();
        let has_turn = m.get("turn").is_some();
        let e = &m["event"];
        assert!(!e.is_null(), "a stub to a seat: {m}");
        if e["kind"] == "deal" {
            let event: ViewEvent = strict(&e["event"]);
            let deal_no = e["deal_no"].as_u64().unwrap() as u32;
            let k = if let ViewEvent::Dealt { dealer, .. } = event {
                self.deal = Some((deal_no, dealer, 0));
                0
            } else {
                let (_, dealer, done) = self.deal.expect("a deal event before the deal");
                if has_turn {
                    self.deal = Some((deal_no, dealer, done + 1));
                }
                done + 1
            };
            let (_, dealer, _) = self.deal.unwrap();
            let ok = self.allowed_after(deal_no, dealer, k).await;
            self.check(event.cards(), ok, m);
        } else {
            if has_turn && let Some((d, dealer, done)) = self.deal {
                self.deal = Some((d, dealer, done + 1));
            }
            match e["kind"].as_str().unwrap() {
                "game_over" => return true,
                "deal_finished" => {
                    if let Some((cap, done)) = &self.driver {
                        let deal_no = e["deal_no"].as_u64().unwrap() as u32;
                        if e["game_over"] == true {
                            done.send(true).unwrap();
                        } else if deal_no + 1 < *cap {
                            let next =
                                json!({"type": "next_deal", "id": "n", "version": self.version});
                            send(&mut self.ws, next).await;
                        } else {
                            done.send(false).unwrap();
                        }
                    }
                }
                _ => {}
            }
        }
        if has_turn {
            self.act(m).await;
        }
        false
    }

    async fn act(&mut self, m: &Value) {
        let legal: Vec<Action> = serde_json::from_value(m["turn"]["legal"].clone()).unwrap();
        if let Some((d, dealer, done)) = self.deal {
            let ok = self.allowed_after(d, dealer, done).await;
            self.check(action_cards(&legal), ok, m);
        }
        if let Some(a) = legal.choose(&mut self.rng) {
            let msg = json!({"type": "action", "id": "a", "version": self.version, "action": a});
            send(&mut self.ws, msg).await;
        }
    }
}
