//! How a record writes one action and one outcome, both ways: the verbs of the played form
//! and the kinds of the outcome form (`docs/game-record.md`), read strictly here and written
//! through the outcome's one serde form ([`crate::outcome::OutcomeForm`]).

use serde_json::Value;

use super::{Reason, known_keys, need, read_card, read_cards, read_seat, wrong};
use crate::action::{Action, Defence, WhistCall};
use crate::bid::{Call, Contract, Seat};
use crate::claim::{Answer, Claim};
use crate::json::Out;
use crate::outcome::{Outcome, OutcomeKind};
use crate::profile::Profile;

const VERBS: [&str; 10] = [
    "bid",
    "discard",
    "declare",
    "whist",
    "defence",
    "play",
    "surrender",
    "claim",
    "answer",
    "look",
];

/// An action's keys besides its verb: the seat, and the clock's optional time used (`ms`)
/// and autopilot mark (`auto`).
const NOT_VERBS: [&str; 4] = ["seat", "ms", "auto", "dark"];

pub(super) fn read_action(v: &Value, players: u8) -> Result<(Seat, Action), Reason> {
    let Value::Object(m) = v else {
        return Err(wrong("actions", "a list of action objects"));
    };
    if let Some(k) = m
        .keys()
        .find(|k| !NOT_VERBS.contains(&k.as_str()) && !VERBS.contains(&k.as_str()))
    {
        return Err(Reason::UnknownVerb(k.clone()));
    }
    // The clock's fields change no score: checked, then left aside.
    if let Some(ms) = m.get("ms")
        && ms.as_u64().is_none()
    {
        return Err(Reason::BadValue {
            verb: "ms",
            value: ms.to_string(),
        });
    }
    if let Some(auto) = m.get("auto")
        && *auto != Value::Bool(true)
    {
        return Err(Reason::BadValue {
            verb: "auto",
            value: auto.to_string(),
        });
    }
    // R3.9: `"dark": true` marks a bid as a dark call; on any other verb it is an error.
    let dark = match m.get("dark") {
        None => false,
        Some(Value::Bool(true)) if m.contains_key("bid") => true,
        Some(other) => {
            return Err(Reason::BadValue {
                verb: "dark",
                value: other.to_string(),
            });
        }
    };
    let seat = read_seat(need(m, "seat")?, "seat", players)?;
    let verbs: Vec<(&String, &Value)> = m
        .iter()
        .filter(|(k, _)| !NOT_VERBS.contains(&k.as_str()))
        .collect();
    let [(verb, value)] = verbs[..] else {
        return Err(Reason::VerbCount(verbs.len()));
    };
    let bad = |verb: &'static str| Reason::BadValue {
        verb,
        value: value.to_string(),
    };
    let text = value.as_str();
    let action = match verb.as_str() {
        "bid" => {
            let call = text
                .and_then(|s| s.parse::<Call>().ok().filter(|c| c.to_string() == s))
                .ok_or_else(|| bad("bid"))?;
            if dark {
                Action::Dark(call)
            } else {
                Action::Bid(call)
            }
        }
        "look" => match value {
            Value::Bool(true) => Action::Look,
            _ => return Err(bad("look")),
        },
        "discard" => {
            let cards = read_cards(value, "discard", "a list of two cards")?;
            Action::Discard(cards.into_iter().collect())
        }
        "declare" => Action::Declare(
            text.and_then(|s| s.parse::<Contract>().ok().filter(|c| c.to_string() == s))
                .ok_or_else(|| bad("declare"))?,
        ),
        "whist" => Action::Whist(
            text.and_then(|s| s.parse::<WhistCall>().ok())
                .ok_or_else(|| bad("whist"))?,
        ),
        "defence" => Action::Defence(match text {
            Some("open") => Defence::Open,
            Some("closed") => Defence::Closed,
            _ => return Err(bad("defence")),
        }),
        "surrender" => match value {
            Value::Bool(true) => Action::Surrender,
            _ => return Err(bad("surrender")),
        },
        "claim" => Action::Claim(read_claim(value, players).ok_or_else(|| bad("claim"))?),
        "answer" => Action::Answer(
            text.and_then(|s| s.parse::<Answer>().ok())
                .ok_or_else(|| bad("answer"))?,
        ),
        _ => Action::Play(read_card(value)?),
    };
    Ok((seat, action))
}

/// A claim's entries: one count of tricks per seat (R6.7); whether they fit the deal is the
/// rules' check when the action is replayed.
fn read_claim(v: &Value, players: u8) -> Option<Claim> {
    let entries = v
        .as_array()?
        .iter()
        .map(|n| n.as_u64().filter(|&n| n <= 10).map(|n| n as u8))
        .collect::<Option<Vec<u8>>>()?;
    Claim::new(&entries).filter(|c| c.entries().len() == usize::from(players))
}

pub(super) fn read_outcome(v: &Value, profile: &Profile) -> Result<Outcome, Reason> {
    let Value::Object(m) = v else {
        return Err(wrong("outcome", "an object"));
    };
    let players = profile.players();
    let kind = match need(m, "kind")? {
        Value::String(k) if k == "game" => {
            known_keys(
                m,
                &[
                    "kind",
                    "declarer",
                    "contract",
                    "whist",
                    "defence",
                    "tricks",
                    "talon_units",
                    "no_talon",
                    "dark",
                ],
            )?;
            let contract = read_contract(need(m, "contract")?, "declare")?;
            let mut whist = [None; 4];
            if let Some(w) = m.get("whist") {
                let calls = match w {
                    Value::Array(items) if items.len() == usize::from(players) => items,
                    _ => return Err(wrong("whist", "a list with a decision or null per seat")),
                };
                for (slot, call) in whist.iter_mut().zip(calls) {
                    *slot = match call {
                        Value::Null => None,
                        Value::String(s) => {
                            Some(s.parse::<WhistCall>().map_err(|_| Reason::BadValue {
                                verb: "whist",
                                value: call.to_string(),
                            })?)
                        }
                        _ => return Err(wrong("whist", "a list with a decision or null per seat")),
                    };
                }
            }
            let defence = match m.get("defence") {
                None => None,
                Some(Value::String(s)) if s == "open" => Some(Defence::Open),
                Some(Value::String(s)) if s == "closed" => Some(Defence::Closed),
                Some(other) => {
                    return Err(Reason::BadValue {
                        verb: "defence",
                        value: other.to_string(),
                    });
                }
            };
            let talon_units = match m.get("talon_units") {
                None => None,
                Some(u) => Some(
                    u.as_u64()
                        .and_then(|u| u8::try_from(u).ok())
                        .ok_or(wrong("talon_units", "a number of units from 0 to 3"))?,
                ),
            };
            OutcomeKind::Game {
                declarer: read_seat(need(m, "declarer")?, "declarer", players)?,
                contract,
                whist,
                defence,
                talon_units,
            }
        }
        Value::String(k) if k == "misere" => {
            if m.contains_key("whist") {
                return Err(Reason::Outcome(
                    "a misère has no whist decisions: whist is for trick contracts only (R5)"
                        .to_owned(),
                ));
            }
            known_keys(m, &["kind", "declarer", "tricks", "no_talon", "dark"])?;
            OutcomeKind::Misere {
                declarer: read_seat(need(m, "declarer")?, "declarer", players)?,
            }
        }
        Value::String(k) if k == "surrender" => {
            known_keys(m, &["kind", "declarer", "bid", "dark"])?;
            OutcomeKind::Surrender {
                declarer: read_seat(need(m, "declarer")?, "declarer", players)?,
                bid: read_contract(need(m, "bid")?, "bid")?,
            }
        }
        Value::String(k) if k == "raspasy" => {
            known_keys(m, &["kind", "tricks"])?;
            OutcomeKind::Raspasy
        }
        _ => {
            return Err(wrong(
                "kind",
                "\"game\", \"misere\", \"raspasy\" or \"surrender\"",
            ));
        }
    };
    let tricks = match m.get("tricks") {
        None => None,
        Some(t) => {
            let counts = match t {
                Value::Array(items) if items.len() == usize::from(players) => items,
                _ => return Err(wrong("tricks", "a list with a trick count per seat")),
            };
            let mut tricks = [0u8; 4];
            for (slot, n) in tricks.iter_mut().zip(counts) {
                *slot = n
                    .as_u64()
                    .filter(|&n| n <= 10)
                    .ok_or(wrong("tricks", "a list with a trick count per seat"))?
                    as u8;
            }
            Some(tricks)
        }
    };
    Ok(Outcome {
        players,
        dealer: Seat(0),
        kind,
        tricks,
        dark: read_flag(m, "dark", profile.dark_games())?,
        no_talon: read_flag(m, "no_talon", profile.misere_without_talon())?,
    })
}

/// An outcome's optional `dark` or `no_talon`: `true` or `false` where the profile has its
/// option (R3.9.1, R4.6), an unknown key at a table without it.
fn read_flag(
    m: &serde_json::Map<String, Value>,
    key: &'static str,
    on: bool,
) -> Result<bool, Reason> {
    match m.get(key) {
        None => Ok(false),
        Some(_) if !on => Err(Reason::UnknownKey(key.to_owned())),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(Reason::BadValue {
            verb: key,
            value: other.to_string(),
        }),
    }
}

pub(super) fn action_out(seat: Seat, action: Action) -> Out {
    let (verb, value) = match action {
        Action::Bid(c) => ("bid", Out::str(c.to_string())),
        Action::Look => ("look", Out::Raw("true".to_owned())),
        Action::Dark(c) => {
            return Out::Object(vec![
                ("seat".to_owned(), Out::Raw(seat.0.to_string())),
                ("bid".to_owned(), Out::str(c.to_string())),
                ("dark".to_owned(), Out::Raw("true".to_owned())),
            ]);
        }
        Action::Discard(cs) => (
            "discard",
            Out::List(cs.iter().map(|c| Out::str(c.to_string())).collect()),
        ),
        Action::Declare(c) => ("declare", Out::str(c.to_string())),
        Action::Whist(w) => ("whist", Out::str(w.to_string())),
        Action::Defence(d) => ("defence", Out::str(d.to_string())),
        Action::Play(c) => ("play", Out::str(c.to_string())),
        Action::Surrender => ("surrender", Out::Raw("true".to_owned())),
        Action::Claim(c) => (
            "claim",
            Out::List(
                c.entries()
                    .iter()
                    .map(|n| Out::Raw(n.to_string()))
                    .collect(),
            ),
        ),
        Action::Answer(a) => ("answer", Out::str(a.to_string())),
    };
    Out::Object(vec![
        ("seat".to_owned(), Out::Raw(seat.0.to_string())),
        (verb.to_owned(), value),
    ])
}

/// The outcome as the record writes it: its one serde form, in the layout of `json.rs`.
pub(super) fn outcome_out(o: &Outcome) -> Out {
    Out::of(&o.form())
}

/// A contract as records write it (`"7H"`); `verb` names it in the error.
fn read_contract(v: &Value, verb: &'static str) -> Result<Contract, Reason> {
    v.as_str()
        .and_then(|s| s.parse::<Contract>().ok().filter(|c| c.to_string() == s))
        .ok_or_else(|| Reason::BadValue {
            verb,
            value: v.to_string(),
        })
}
