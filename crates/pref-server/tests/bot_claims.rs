//! Bots answer claims at a live table from their seat's view (R6.7): a person declares
//! against two bots, claims every trick while a bot's side is sure of the trump ace (a
//! hopeless claim: it is rejected and play goes on), then gives the defence every trick left
//! (a certain claim: every bot accepts and the deal ends with it).

mod common;

use common::*;
use pref_core::{Action, Answer, Call, Card, CardSet, Claim, ClaimRoom, Contract, Rank};
use serde_json::{Value, json};

/// The person's socket and what it was told last.
struct Person {
    ws: Ws,
    version: u64,
    turn: Value,
    hand: CardSet,
    next_id: u32,
}

impl Person {
    /// Reads to the next item that carries a turn; keeps the version, the turn and the hand.
    async fn next_turn(&mut self) -> Vec<Value> {
        let mut items = Vec::new();
        loop {
            let m = next_json(&mut self.ws).await.expect("socket closed");
            match m["type"].as_str().unwrap() {
                "snapshot" => {
                    self.version = m["version"].as_u64().unwrap();
                    self.turn = m["turn"].clone();
                    if let Ok(h) = serde_json::from_value(m["deal"]["hand"].clone()) {
                        self.hand = h;
                    }
                    return items;
                }
                "event" => {
                    self.version = m["version"].as_u64().unwrap();
                    let e = &m["event"]["event"];
                    match e["type"].as_str() {
                        Some("dealt") => {
                            self.hand = serde_json::from_value(e["hand"].clone()).unwrap()
                        }
                        Some("talon_turned") if self.declarer() => {
                            let talon: CardSet =
                                serde_json::from_value(e["cards"].clone()).unwrap();
                            self.hand = self.hand.or(talon);
                        }
                        Some("discarded") if e["seat"] == 0 => {
                            let gone: CardSet = serde_json::from_value(e["cards"].clone()).unwrap();
                            self.hand = CardSet(self.hand.0 & !gone.0);
                        }
                        Some("played") if e["seat"] == 0 => {
                            let card = serde_json::from_value(e["card"].clone()).unwrap();
                            self.hand = self.hand.without(card);
                        }
                        _ => {}
                    }
                    items.push(m["event"].clone());
                    if let Some(t) = m.get("turn") {
                        self.turn = t.clone();
                        return items;
                    }
                }
                "ack" | "rejected" => items.push(m),
                other => panic!("unexpected {other}: {m}"),
            }
        }
    }

    fn declarer(&self) -> bool {
        self.turn["deal"]["declarer"] == 0
    }

    async fn send(&mut self, action: Action) -> String {
        self.next_id += 1;
        let id = format!("p{}", self.next_id);
        let version = self.version;
        send(
            &mut self.ws,
            json!({"type": "action", "id": id, "version": version, "action": action}),
        )
        .await;
        id
    }
}

/// The person's choice in the auction and the declaration: bid once, the lowest trick bid,
/// then pass; declare the lowest suit contract whose ace is not in the hand (so a bot holds
/// it); pass every whist; play the first legal card; accept any bot's claim.
fn choose(legal: &[Action], hand: CardSet, bid_made: &mut bool) -> Action {
    let find = |f: &dyn Fn(&Action) -> bool| legal.iter().copied().find(|a| f(a));
    if let Some(bid) = find(&|a| matches!(a, Action::Bid(Call::Bid(b)) if b.contract().is_some()))
        && !*bid_made
    {
        *bid_made = true;
        return bid;
    }
    let ace_out = |c: &Contract| trump_ace_out(*c, hand);
    find(&|a| *a == Action::Bid(Call::Pass))
        .or_else(|| find(&|a| matches!(a, Action::Declare(c) if ace_out(c))))
        .or_else(|| find(&|a| *a == Action::Answer(Answer::Accept)))
        .or_else(|| find(&|a| matches!(a, Action::Whist(pref_core::WhistCall::Pass))))
        .or_else(|| {
            find(&|a| matches!(a, Action::Discard(d) if !d.iter().any(|c| c.rank() == Rank::Ace)))
        })
        .or_else(|| legal.first().copied())
        .expect("something to do")
}

/// Whether `c` has trumps whose ace is not in `hand` (the person never discards an ace, so
/// a bot then holds it).
fn trump_ace_out(c: Contract, hand: CardSet) -> bool {
    c.strain()
        .trump()
        .is_some_and(|s| !hand.contains(Card::new(s, Rank::Ace)))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_reject_a_hopeless_claim_and_accept_a_certain_one() {
    // The bots wait a little before acting, so that a claim at a trick boundary is in
    // before the next card.
    let (addr, _) = server("bot-claims", |c| {
        c.limits.bot_delay_min_ms = pref_server::config::Millis(150);
        c.limits.bot_delay_max_ms = pref_server::config::Millis(150);
        c.limits.messages_per_second = 1000;
        c.limits.message_burst = 1000;
    })
    .await;
    let (id, host) = lobby(&addr, json!({"preset": "sochi", "pool_target": 50})).await;
    let (status, seat) = http(
        &addr,
        "POST",
        &format!("/api/tables/{id}/seats"),
        Some(&json!({"name": "Anna", "seat": 0, "invite": invite(&host)})),
        None,
    )
    .await;
    assert_eq!(status, 200, "{seat}");
    seat_bots(&addr, &id, &host, &[1, 2], "normal").await;
    let token = seat["token"].as_str().unwrap();
    let mut me = Person {
        ws: connect(&addr, &id, Some(token), "").await,
        version: 0,
        turn: Value::Null,
        hand: CardSet::EMPTY,
        next_id: 0,
    };
    me.next_turn().await;
    start_table(&addr, &id, &host).await;

    let (mut rejected, mut accepted) = (false, false);
    // A claim accepted in the deal being played: its outcome must carry it.
    let mut accepted_now = false;
    let mut bid_made = false;
    let mut claimed_at: Option<u8> = None;
    for _ in 0..3000 {
        let items = me.next_turn().await;
        for it in &items {
            if it["type"] == "rejected" {
                // A claim a bot's card overtook is refused as stale: it was never made.
                claimed_at = None;
            }
            let e = &it["event"];
            if e["type"] == "answered" && e["seat"] != 0 && claimed_at.is_some() {
                // Only a claim of ours is answered by the bots here.
                if e["answer"] == "reject" {
                    assert_eq!(claimed_at, Some(10), "a certain claim was rejected: {e}");
                    rejected = true;
                    claimed_at = None;
                }
            }
            if e["type"] == "claim_accepted" && claimed_at.is_some() {
                assert_ne!(claimed_at, Some(10), "a hopeless claim was accepted: {e}");
                accepted = true;
                accepted_now = true;
            }
            if it["kind"] == "deal_finished" {
                claimed_at = None;
                bid_made = false;
                if std::mem::take(&mut accepted_now) {
                    let outcome = &it["score"]["outcome"];
                    assert_eq!(outcome["claim"]["seat"], 0, "{outcome}");
                    assert_eq!(outcome["claim"]["claim"][0], 0, "{outcome}");
                }
                if rejected && accepted {
                    return;
                }
                if it["game_over"] != true {
                    let v = me.version;
                    send(
                        &mut me.ws,
                        json!({"type": "next_deal", "id": "n", "version": v}),
                    )
                    .await;
                }
            }
        }
        let status = &me.turn["deal"];
        let room: Option<ClaimRoom> =
            serde_json::from_value(me.turn["claim"].clone()).unwrap_or(None);
        // Our own claims, as the declarer of a trick contract a bot defends.
        if let Some(room) = room
            && me.declarer()
            && status["kind"] == "game"
        {
            let ace_out = serde_json::from_value::<Contract>(status["contract"].clone())
                .is_ok_and(|c| trump_ace_out(c, me.hand));
            let claim = if !rejected && room.tricks_left == 10 && ace_out {
                // Every trick to a declarer whose trump ace a defender holds: hopeless.
                claimed_at = Some(10);
                Claim::new(&[10, 0, 0])
            } else if !accepted && room.tricks_left < 10 {
                // None of the rest to the declarer: the defence cannot do better.
                claimed_at = Some(room.tricks_left);
                let mut e = [0u8; 3];
                let defender = if status["whist"][1] == "whist" { 1 } else { 2 };
                e[defender] = room.tricks_left;
                Claim::new(&e)
            } else {
                None
            };
            if let Some(claim) = claim {
                me.send(Action::Claim(claim)).await;
                continue;
            }
        }
        if me.turn["to_act"] != 0 {
            continue;
        }
        let legal: Vec<Action> = serde_json::from_value(me.turn["legal"].clone()).unwrap();
        if legal.is_empty() {
            continue;
        }
        let action = choose(&legal, me.hand, &mut bid_made);
        me.send(action).await;
    }
    panic!(
        "no deal let the person claim against the bots (rejected {rejected}, accepted {accepted})"
    );
}
