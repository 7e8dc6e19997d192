//! The auction's history as everybody may see it: every call in order, with *here* named,
//! so that a client that connects mid-deal or after it can show the whole auction and not
//! only each seat's last call (the deal's view keeps no more).

use pref_core::{Action, Bid, Call, Seat};
use serde::{Deserialize, Serialize};

/// One call of the auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuctionCall {
    /// Who called.
    pub seat: Seat,
    /// The call.
    pub call: Call,
    /// Whether it is *here*: the standing bid said again (R3.4); absent when not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub here: bool,
    /// Whether it is a dark call (R3.9); absent when not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dark: bool,
}

impl AuctionCall {
    /// The calls among a deal's accepted actions (the game's history of the deal), in order.
    #[must_use]
    pub fn log(actions: &[(Seat, Action)]) -> Vec<AuctionCall> {
        let mut standing: Option<Bid> = None;
        let mut out = Vec::new();
        for &(seat, action) in actions {
            let (call, dark) = match action {
                Action::Bid(call) => (call, false),
                Action::Dark(call) => (call, true),
                _ => continue,
            };
            out.push(AuctionCall {
                seat,
                call,
                here: call.is_here(standing),
                dark,
            });
            if let Call::Bid(b) = call {
                standing = Some(b);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(s: &str) -> Call {
        s.parse().expect("a call")
    }

    /// R3.4's example: A 6♠, B 6♣, C pass, A 6♣ (here), B 6♦, A 6♦ (here), B 6♥, A 6♥ (here),
    /// B pass; the cards after the auction are no calls.
    #[test]
    fn r3_4_the_rules_example_names_each_here() {
        let (a, b, c) = (Seat(0), Seat(1), Seat(2));
        let calls = [
            (a, "6S"),
            (b, "6C"),
            (c, "pass"),
            (a, "6C"),
            (b, "6D"),
            (a, "6D"),
            (b, "6H"),
            (a, "6H"),
            (b, "pass"),
        ];
        let mut actions: Vec<(Seat, Action)> = calls
            .iter()
            .map(|&(s, x)| (s, Action::Bid(call(x))))
            .collect();
        actions.push((a, Action::Play("7S".parse().expect("a card"))));
        let log = AuctionCall::log(&actions);
        let here: Vec<bool> = log.iter().map(|c| c.here).collect();
        assert_eq!(
            here,
            [false, false, false, true, false, true, false, true, false]
        );
        assert_eq!(log.len(), 9);
        assert_eq!(log[3].seat, a);
        assert_eq!(
            serde_json::to_value(log[3]).expect("JSON"),
            serde_json::json!({"seat": 0, "call": "6C", "here": true})
        );
        assert_eq!(
            serde_json::to_value(log[4]).expect("JSON"),
            serde_json::json!({"seat": 1, "call": "6D"})
        );
    }

    /// A misère after a bid is no *here*, nor is the next step over it (R3.6).
    #[test]
    fn r3_6_misere_is_never_here() {
        let actions = [
            (Seat(0), Action::Bid(call("6S"))),
            (Seat(1), Action::Bid(call("misere"))),
            (Seat(2), Action::Bid(call("9S"))),
        ];
        assert!(AuctionCall::log(&actions).iter().all(|c| !c.here));
    }

    /// R3.9: a dark call is in the log with `"dark": true`; a look is no call.
    #[test]
    fn r3_9_dark_calls_are_marked_and_looks_are_no_calls() {
        let actions = [
            (Seat(1), Action::Look),
            (Seat(0), Action::Dark(call("6S"))),
            (Seat(1), Action::Bid(call("pass"))),
        ];
        let log = AuctionCall::log(&actions);
        assert_eq!(log.len(), 2);
        assert!(log[0].dark && !log[1].dark);
        assert_eq!(
            serde_json::to_value(log[0]).unwrap(),
            serde_json::json!({"seat": 0, "call": "6S", "dark": true})
        );
    }
}
