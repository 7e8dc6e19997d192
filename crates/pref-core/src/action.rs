//! What a player can do in a deal: the verbs of the game record (`bid`, `discard`, `declare`,
//! `whist`, `defence`, `play`, `surrender`, `claim`, `answer`, `look`; a dark call is a `bid`
//! with `"dark": true`) as one enum.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::bid::{Call, Contract};
use crate::card::{Card, CardSet};
use crate::claim::{Answer, Claim};

/// A whist decision (R5): whist, pass, or half-whist.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WhistCall {
    /// Defend, with responsibility for the quota.
    Whist,
    /// Refuse the defence.
    Pass,
    /// Half-whist (R5.2): only the second defender, against 6 and 7, after the first passed.
    Half,
}

impl fmt::Display for WhistCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WhistCall::Whist => "whist",
            WhistCall::Pass => "pass",
            WhistCall::Half => "half",
        })
    }
}

impl FromStr for WhistCall {
    type Err = String;
    fn from_str(s: &str) -> Result<WhistCall, String> {
        match s {
            "whist" => Ok(WhistCall::Whist),
            "pass" => Ok(WhistCall::Pass),
            "half" => Ok(WhistCall::Half),
            other => Err(format!("unknown whist decision {other:?}")),
        }
    }
}

/// How a lone whister defends (R5.4, R5.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Defence {
    /// Both defenders' hands face up; the whister plays both.
    Open,
    /// Each defender plays his own hidden hand.
    Closed,
}

impl fmt::Display for Defence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Defence::Open => "open",
            Defence::Closed => "closed",
        })
    }
}

/// One action of a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// A call in the auction (R3).
    Bid(Call),
    /// The declarer's discard (R4.2); legal only with exactly two cards.
    Discard(CardSet),
    /// The trick-contract declarer names the contract (R4.3).
    Declare(Contract),
    /// A whist decision (R5), or a four-player dealer's decision (R11.4).
    Whist(WhistCall),
    /// A lone whister chooses open or closed defence (R5.4).
    Defence(Defence),
    /// A card played to the trick (R6).
    Play(Card),
    /// A claim of the remaining tricks, by a player of the deal in his own name (R6.7).
    Claim(Claim),
    /// An answer to the pending claim, by a player of the deal in his own name (R6.7).
    Answer(Answer),
    /// The declarer surrenders after taking the talon, before naming the contract (R4.5).
    Surrender,
    /// A dark call: a seat's first call made before looking at its hand (R3.9,
    /// `dark_games`). On the wire `{"dark": "6S"}`.
    Dark(Call),
    /// The seat looks at its closed hand (R2.3, `dark_games`): before its first call, at its
    /// turn or not; it uses no turn. On the wire `"look"`.
    Look,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Bid(c) => write!(f, "bid {c}"),
            Action::Discard(cs) => write!(f, "discard {cs}"),
            Action::Declare(c) => write!(f, "declare {}", c.pretty()),
            Action::Whist(w) => write!(f, "whist {w}"),
            Action::Defence(d) => write!(f, "defence {d}"),
            Action::Play(c) => write!(f, "play {}", c.pretty()),
            Action::Claim(c) => write!(f, "claim {c}"),
            Action::Answer(a) => write!(f, "answer {a}"),
            Action::Surrender => f.write_str("surrender"),
            Action::Dark(c) => write!(f, "dark {c}"),
            Action::Look => f.write_str("look"),
        }
    }
}
