//! Claims over the real protocol (R6.7): a claim and its answers are actions like any other
//! (acked, refused with a typed reason and the rule id, numbered with versions), the pending
//! claim is in every viewer's events and snapshot with the claimer's hand face up, a reject
//! lets play go on, and an accepted claim ends the deal, which is scored with the claim.

mod common;

use common::*;
use pref_core::{
    Action, Answer, Call, CardSet, Claim, DealView, Defence, Profile, Seat, WhistCall,
};
use serde_json::{Value, json};

/// Three players and a spectator on their sockets, each with the last turn it was sent.
struct Room {
    seats: Vec<Ws>,
    spectator: Ws,
    /// The last version each socket saw (seats, then the spectator).
    versions: Vec<u64>,
    /// The last `turn` each socket saw.
    turns: Vec<Value>,
    /// Every event item each socket saw, in order.
    items: Vec<Vec<Value>>,
    next_id: u32,
}

impl Room {
    async fn open(addr: &str, info: &TableInfo) -> Room {
        let mut seats = Vec::new();
        for t in &info.tokens {
            seats.push(connect(addr, &info.id, Some(t), "").await);
        }
        let spectator = connect(addr, &info.id, None, "").await;
        let mut room = Room {
            seats,
            spectator,
            versions: vec![0; 4],
            turns: vec![Value::Null; 4],
            items: vec![Vec::new(); 4],
            next_id: 0,
        };
        for i in 0..4 {
            let snap = until(room.ws(i), |m| m["type"] == "snapshot").await;
            room.versions[i] = snap["version"].as_u64().unwrap();
        }
        room
    }

    fn ws(&mut self, i: usize) -> &mut Ws {
        if i < self.seats.len() {
            &mut self.seats[i]
        } else {
            &mut self.spectator
        }
    }

    /// Reads socket `i` up to the item that carries the turn (the last of a batch); with
    /// `ack`, also up to the ack of that action, or its rejection, returned as the error.
    /// Versions must follow one another.
    async fn settle(&mut self, i: usize, ack: Option<&str>) -> Result<(), Value> {
        let (mut turned, mut acked) = (false, ack.is_none());
        while !(turned && acked) {
            let m = next_json(self.ws(i)).await.expect("socket closed");
            match m["type"].as_str().unwrap() {
                "event" => {
                    let v = m["version"].as_u64().unwrap();
                    assert_eq!(v, self.versions[i] + 1, "socket {i}: gap before {m}");
                    self.versions[i] = v;
                    self.items[i].push(m["event"].clone());
                    if let Some(t) = m.get("turn") {
                        self.turns[i] = t.clone();
                        turned = true;
                    }
                }
                "ack" => {
                    assert_eq!(Some(m["id"].as_str().unwrap()), ack, "{m}");
                    acked = true;
                }
                "rejected" if !turned => {
                    assert_eq!(Some(m["id"].as_str().unwrap()), ack, "{m}");
                    return Err(m);
                }
                other => panic!("socket {i}: unexpected {other}: {m}"),
            }
        }
        Ok(())
    }

    /// Sends `action` for `seat`; on acceptance every socket reads to the new turn, on a
    /// refusal nobody is sent anything but the refusal.
    async fn act(&mut self, seat: u8, action: Action) -> Result<(), Value> {
        self.next_id += 1;
        let id = format!("c{}", self.next_id);
        let i = usize::from(seat);
        let version = self.versions[i];
        send(
            self.ws(i),
            json!({"type": "action", "id": id, "version": version, "action": action}),
        )
        .await;
        self.settle(i, Some(&id)).await?;
        for j in 0..4 {
            if j != i {
                self.settle(j, None).await.unwrap();
            }
        }
        Ok(())
    }

    /// The seat to act, and its legal actions.
    fn to_act(&self) -> Option<(u8, Vec<Action>)> {
        let seat = self.turns[3]["to_act"].as_u64()? as u8;
        let legal = serde_json::from_value(self.turns[usize::from(seat)]["legal"].clone()).unwrap();
        Some((seat, legal))
    }

    /// The deal's public state as the last turn gave it (the same on every socket).
    fn status(&self) -> &Value {
        &self.turns[3]["deal"]
    }

    /// A spectator's fresh snapshot, over a new socket.
    async fn spectator_snapshot(addr: &str, id: &str) -> Value {
        let mut ws = connect(addr, id, None, "").await;
        until(&mut ws, |m| m["type"] == "snapshot").await
    }
}

/// The choice that leads the deal to a whisted trick contract in closed defence: the first
/// bidder bids the lowest contract, the others pass, both defenders whist.
fn choose(legal: &[Action], bid_made: &mut bool) -> Action {
    let pick = |f: &dyn Fn(&Action) -> bool| legal.iter().copied().find(|a| f(a));
    let bid = pick(&|a| matches!(a, Action::Bid(Call::Bid(b)) if b.contract().is_some()));
    if !*bid_made && let Some(b) = bid {
        *bid_made = true;
        return b;
    }
    pick(&|a| *a == Action::Bid(Call::Pass))
        .or_else(|| pick(&|a| matches!(a, Action::Discard(_) | Action::Declare(_))))
        .or_else(|| pick(&|a| *a == Action::Whist(WhistCall::Whist)))
        .or_else(|| pick(&|a| *a == Action::Defence(Defence::Closed)))
        .or_else(|| pick(&|a| matches!(a, Action::Play(_))))
        .unwrap_or_else(|| panic!("nothing to choose in {legal:?}"))
}

/// Plays until the deal is in play at a trick boundary with `tricks` tricks completed.
async fn play_to(room: &mut Room, tricks: u8, bid_made: &mut bool) {
    loop {
        let status = room.status().clone();
        let items = &room.items[3];
        let done = items
            .iter()
            .filter(|e| e["event"]["type"] == "trick_taken")
            .count();
        let in_trick = items
            .iter()
            .rev()
            .take_while(|e| e["event"]["type"] != "trick_taken")
            .filter(|e| e["event"]["type"] == "played")
            .count();
        if status["stage"] == "play" && done == usize::from(tricks) && in_trick == 0 {
            return;
        }
        let (seat, legal) = room.to_act().expect("nobody to act");
        let action = choose(&legal, bid_made);
        room.act(seat, action).await.unwrap();
    }
}

fn rule_refusal(r: &Value) -> &str {
    assert_eq!(r["reason"], "rule", "{r}");
    r["rule"].as_str().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r6_7_claims_go_through_the_protocol_and_an_accepted_claim_is_scored() {
    let (addr, dir) = server("claims", |c| {
        c.limits.messages_per_second = 1000;
        c.limits.message_burst = 1000;
    })
    .await;
    let profile = json!({"preset": "sochi", "pool_target": 10});
    let info = table(&addr, profile, 3, false).await;
    let truth = Truth::open(&dir, &info.id, Profile::sochi()).await;
    let mut room = Room::open(&addr, &info).await;
    let (status, body) = http(
        &addr,
        "POST",
        &format!("/api/tables/{}/start", info.id),
        None,
        Some(&info.host),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    for i in 0..4 {
        room.settle(i, None).await.unwrap();
    }
    let mut bid_made = false;
    play_to(&mut room, 0, &mut bid_made).await;
    assert_eq!(room.status()["kind"], "game", "{}", room.status());
    let declarer = room.status()["declarer"].as_u64().unwrap() as u8;
    let left = Seat(declarer).next(3).0;
    let right = Seat(left).next(3).0;
    assert_eq!(room.status()["whist"][usize::from(left)], "whist");
    assert_eq!(room.status()["whist"][usize::from(right)], "whist");

    // At the first lead every player of the deal may claim ten tricks' splits; spectators not.
    for s in 0..3 {
        assert_eq!(
            room.turns[s]["claim"],
            json!({"tricks_left": 10, "seats": 3, "dealer": null}),
            "seat {s}"
        );
    }
    assert!(room.turns[3].get("claim").is_none(), "{}", room.turns[3]);

    // Mid-trick: refused with R6.7, and nothing changes (the next item follows on).
    let (leader, legal) = room.to_act().unwrap();
    let lead = legal[0];
    room.act(leader, lead).await.unwrap();
    assert!(room.turns[usize::from(declarer)].get("claim").is_none());
    let refusal = room
        .act(declarer, Action::Claim(Claim::new(&[9, 1, 0]).unwrap()))
        .await
        .unwrap_err();
    assert_eq!(rule_refusal(&refusal), "R6.7");
    play_to(&mut room, 1, &mut bid_made).await;

    // A wrong total and a wrong number of entries are refused, by rule.
    for bad in [&[10, 0, 0][..], &[9, 0, 0, 0][..], &[0, 0, 0][..]] {
        let refusal = room
            .act(declarer, Action::Claim(Claim::new(bad).unwrap()))
            .await
            .unwrap_err();
        assert_eq!(rule_refusal(&refusal), "R6.7", "{bad:?}");
    }

    // The declarer claims every remaining trick: everybody sees the claim and his hand.
    let mut all = [0u8; 3];
    all[usize::from(declarer)] = 9;
    let claim = Claim::new(&all).unwrap();
    let before = room.versions.clone();
    room.act(declarer, Action::Claim(claim)).await.unwrap();
    let (deck, actions) = truth.deal(0).await;
    let dealt = room.items[3]
        .iter()
        .find(|e| e["event"]["type"] == "dealt")
        .unwrap();
    let dealer: Seat = serde_json::from_value(dealt["event"]["dealer"].clone()).unwrap();
    let (deal, _) = truth.replay(dealer, &deck, &actions, actions.len(), 0);
    let hand = deal
        .view(pref_core::Viewer::Seat(Seat(declarer)))
        .hand
        .unwrap();
    for (i, was) in before.iter().enumerate() {
        let new: Vec<&Value> = room.items[i][room.items[i].len() - 2..].iter().collect();
        assert_eq!(room.versions[i], was + 2, "socket {i}");
        assert_eq!(
            new[0]["event"],
            json!({"type": "claimed", "seat": declarer, "claim": all})
        );
        let shown: CardSet = serde_json::from_value(new[1]["event"]["hand"].clone()).unwrap();
        assert_eq!(new[1]["event"]["type"], "hand_opened");
        assert_eq!(shown, hand, "socket {i}");
        assert_eq!(
            room.turns[i]["deal"]["claim"],
            json!({"seat": declarer, "claim": all, "accepted": [], "to_answer": left}),
            "socket {i}"
        );
        assert!(
            room.turns[i].get("claim").is_none(),
            "no claim while one is pending"
        );
    }
    assert_eq!(room.turns[3]["to_act"], json!(left));
    assert_eq!(
        room.turns[usize::from(left)]["legal"],
        json!([{"answer": "accept"}, {"answer": "reject"}])
    );
    // The snapshot shows the same: the claim, and the claimer's hand and no other face up.
    let snap = Room::spectator_snapshot(&addr, &info.id).await;
    let view: DealView = serde_json::from_value(snap["deal"].clone()).unwrap();
    assert_eq!(view.claim.as_ref().unwrap().seat, Seat(declarer));
    for s in 0..3u8 {
        let expected = (s == declarer).then_some(hand);
        assert_eq!(view.open_hands[usize::from(s)], expected, "seat {s}");
    }

    // While the claim is pending: no card, no second claim, no answer out of turn.
    let card = room.turns[usize::from(declarer)]["deal"]["turn"]
        .as_u64()
        .unwrap() as u8;
    let refusals = [
        (declarer, Action::Answer(Answer::Accept)),
        (right, Action::Answer(Answer::Accept)),
        (right, Action::Claim(Claim::new(&[0, 0, 0]).unwrap())),
    ];
    for (seat, a) in refusals {
        let r = room.act(seat, a).await.unwrap_err();
        assert_eq!(rule_refusal(&r), "R6.7", "{seat} {a:?}: {r}");
    }
    let own: Vec<Action> =
        serde_json::from_value(room.turns[usize::from(card)]["legal"].clone()).unwrap();
    assert!(
        own.iter().all(|a| matches!(a, Action::Answer(_))),
        "{own:?}"
    );
    let leader_hand = deal.view(pref_core::Viewer::Seat(Seat(card))).hand.unwrap();
    let lead = leader_hand.iter().next().unwrap();
    let r = room.act(card, Action::Play(lead)).await.unwrap_err();
    assert_eq!(rule_refusal(&r), "R6.7", "{r}");

    // A reject: play goes on, the claimer's hand stays face up, and he may not claim again
    // at this trick boundary.
    room.act(left, Action::Answer(Answer::Reject))
        .await
        .unwrap();
    let last = room.items[3].last().unwrap();
    assert_eq!(
        last["event"],
        json!({"type": "answered", "seat": left, "answer": "reject"})
    );
    assert_eq!(room.status()["claim"], Value::Null);
    assert_eq!(room.status()["stage"], "play");
    assert!(room.turns[usize::from(declarer)].get("claim").is_none());
    assert!(room.turns[usize::from(left)].get("claim").is_some());
    let again = room.act(declarer, Action::Claim(claim)).await.unwrap_err();
    assert_eq!(rule_refusal(&again), "R6.7");
    let snap = Room::spectator_snapshot(&addr, &info.id).await;
    let view: DealView = serde_json::from_value(snap["deal"].clone()).unwrap();
    assert!(view.claim.is_none());
    assert_eq!(view.open_hands[usize::from(declarer)], Some(hand));

    // The next trick, then a claim that both defenders accept: the deal ends with it.
    play_to(&mut room, 2, &mut bid_made).await;
    let snap = Room::spectator_snapshot(&addr, &info.id).await;
    let taken: Vec<u64> = serde_json::from_value(snap["deal"]["tricks_taken"].clone()).unwrap();
    assert_eq!(taken.iter().sum::<u64>(), 2);
    let mut split = [0u8; 3];
    split[usize::from(declarer)] = 6;
    split[usize::from(left)] = 1;
    split[usize::from(right)] = 1;
    let claim = Claim::new(&split).unwrap();
    room.act(declarer, Action::Claim(claim)).await.unwrap();
    room.act(left, Action::Answer(Answer::Accept))
        .await
        .unwrap();
    assert_eq!(
        room.status()["claim"],
        json!({"seat": declarer, "claim": split, "accepted": [left], "to_answer": right})
    );
    assert_eq!(room.turns[3]["to_act"], json!(right));
    room.act(right, Action::Answer(Answer::Accept))
        .await
        .unwrap();
    let tricks: Vec<u64> = (0..3).map(|s| taken[s] + u64::from(split[s])).collect();
    let kinds: Vec<&str> = room.items[3]
        .iter()
        .rev()
        .take_while(|e| e["event"]["type"] != "claimed")
        .map(|e| {
            e["event"]["type"]
                .as_str()
                .or(e["kind"].as_str())
                .unwrap_or("?")
        })
        .collect();
    assert!(kinds.contains(&"claim_accepted"), "{kinds:?}");
    assert!(kinds.contains(&"deal_over"), "{kinds:?}");
    let finished = room.items[3]
        .iter()
        .rev()
        .find(|e| e["kind"] == "deal_finished")
        .expect("the deal finished")
        .clone();
    let accepted = room.items[3]
        .iter()
        .find(|e| e["event"]["type"] == "claim_accepted")
        .unwrap();
    assert_eq!(accepted["event"]["tricks"], json!(tricks));
    let outcome = &finished["score"]["outcome"];
    assert_eq!(outcome["tricks"], json!(tricks));
    assert_eq!(outcome["claim"], json!({"seat": declarer, "claim": split}));
    assert_eq!(outcome["declarer"], json!(declarer));
    // Six and seven of eight: the declarer's count decides the contract, as if played.
    let contract_level = u64::from(outcome["contract"].as_str().unwrap().as_bytes()[0] - b'0');
    let made = tricks[usize::from(declarer)] >= contract_level;
    let first = &finished["score"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["seat"] == json!(declarer) && l["column"] != "whists")
        .cloned()
        .unwrap();
    assert_eq!(first["reason"], if made { "made" } else { "failed" });

    // Every viewer saw the same score; the snapshot keeps the claim in the log and the deal.
    for i in 0..3 {
        let f = room.items[i]
            .iter()
            .rev()
            .find(|e| e["kind"] == "deal_finished")
            .unwrap();
        assert_eq!(f["score"], finished["score"], "socket {i}");
    }
    let snap = Room::spectator_snapshot(&addr, &info.id).await;
    assert_eq!(snap["score_log"][0], finished["score"]);
    assert_eq!(
        snap["deal"]["claim"],
        json!({"seat": declarer, "claim": split, "accepted": [left, right], "to_answer": null})
    );
    assert_eq!(snap["deal"]["tricks_taken"], json!(tricks));

    // The record carries the claims and answers, and reads back through the core.
    assert_eq!(record(&addr, &info.id).await.deals().len(), 1);
    let (_, stored) = truth.deal(0).await;
    let said: Vec<Action> = stored
        .iter()
        .map(|&(_, a)| a)
        .filter(|a| matches!(a, Action::Claim(_) | Action::Answer(_)))
        .collect();
    let all = Action::Claim(Claim::new(&all).unwrap());
    let split = Action::Claim(Claim::new(&split).unwrap());
    let (accept, reject) = (
        Action::Answer(Answer::Accept),
        Action::Answer(Answer::Reject),
    );
    assert_eq!(said, [all, reject, split, accept, accept]);
}
