//! An outcome's one serde form: the record's outcome form (`docs/game-record.md`), which
//! the record writer, the score log on the wire, the rules guide, the analysis and the
//! `pref` command all write, each adding its own keys beside it rather than writing the
//! outcome again. It holds no card: an outcome has none.

use serde::{Deserialize, Serialize};

use super::{Outcome, OutcomeKind};
use crate::action::{Defence, WhistCall};
use crate::bid::{Contract, Seat};

/// The `kind` of an outcome's form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FormKind {
    /// A trick contract: played, conceded, or ended by a standing half-whist.
    Game,
    /// The declarer surrendered (R4.5).
    Surrender,
    /// Misère (R8.8).
    Misere,
    /// All passed (R7).
    Raspasy,
}

/// A finished deal in short, as a record's outcome form writes it: the keys in this order,
/// each only where it has a value.
///
/// Reading it back gives the form, not an [`Outcome`]: a record's outcome is read and
/// checked by [`crate::Record::read`], which says where and why it is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeForm {
    /// The kind of deal.
    pub kind: FormKind,
    /// The declarer (not on raspasy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declarer: Option<Seat>,
    /// The named contract of a trick contract.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contract: Option<Contract>,
    /// The surrendered winning bid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bid: Option<Contract>,
    /// The auction was won with MWT (a misère) or 9WT (a game): no talon (R4.6).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_talon: bool,
    /// A dark deal, every entry doubled (R3.9.1, R8.11).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dark: bool,
    /// Each seat's final whist decision (`null` for the declarer and a four-player dealer
    /// who stayed out), when anybody decided: not on an unwhisted ten (R5.6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whist: Option<Vec<Option<WhistCall>>>,
    /// Open or closed, when one whister played (R5.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defence: Option<Defence>,
    /// The talon's units for the four-player dealer's talon bonus (R11.6), where the
    /// profile has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub talon_units: Option<u8>,
    /// Tricks per seat, when cards were played (a claim's tricks count as taken).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tricks: Option<Vec<u8>>,
}

impl OutcomeForm {
    /// The form of `o`.
    #[must_use]
    pub fn of(o: &Outcome) -> OutcomeForm {
        let seats = usize::from(o.players);
        let mut form = OutcomeForm {
            kind: FormKind::Raspasy,
            declarer: None,
            contract: None,
            bid: None,
            no_talon: o.no_talon,
            dark: o.dark,
            whist: None,
            defence: None,
            talon_units: None,
            tricks: o.tricks.map(|t| t[..seats].to_vec()),
        };
        match o.kind {
            OutcomeKind::Game {
                declarer,
                contract,
                whist,
                defence,
                talon_units,
            } => {
                form.kind = FormKind::Game;
                form.declarer = Some(declarer);
                form.contract = Some(contract);
                form.whist = whist
                    .iter()
                    .any(Option::is_some)
                    .then(|| whist[..seats].to_vec());
                form.defence = defence;
                form.talon_units = talon_units;
            }
            OutcomeKind::Surrender { declarer, bid } => {
                form.kind = FormKind::Surrender;
                form.declarer = Some(declarer);
                form.bid = Some(bid);
            }
            OutcomeKind::Misere { declarer } => {
                form.kind = FormKind::Misere;
                form.declarer = Some(declarer);
            }
            OutcomeKind::Raspasy => {}
        }
        form
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(o: &Outcome) -> String {
        serde_json::to_string(&o.form()).unwrap()
    }

    #[test]
    fn r5_6_r11_6_each_key_only_where_it_has_a_value() {
        let whisted = Outcome {
            dark: false,
            no_talon: false,
            players: 4,
            dealer: Seat(3),
            kind: OutcomeKind::Game {
                declarer: Seat(0),
                contract: "6S".parse().unwrap(),
                whist: [None, Some(WhistCall::Whist), Some(WhistCall::Pass), None],
                defence: Some(Defence::Closed),
                talon_units: Some(2),
            },
            tricks: Some([6, 3, 1, 0]),
        };
        assert_eq!(
            text(&whisted),
            r#"{"kind":"game","declarer":0,"contract":"6S","whist":[null,"whist","pass",null],"defence":"closed","talon_units":2,"tricks":[6,3,1,0]}"#
        );
        let unwhisted_ten = Outcome {
            dark: false,
            no_talon: false,
            players: 3,
            dealer: Seat(2),
            kind: OutcomeKind::Game {
                declarer: Seat(1),
                contract: "10NT".parse().unwrap(),
                whist: [None; 4],
                defence: None,
                talon_units: None,
            },
            tricks: None,
        };
        assert_eq!(
            text(&unwhisted_ten),
            r#"{"kind":"game","declarer":1,"contract":"10NT"}"#
        );
        let surrender = Outcome {
            dark: false,
            no_talon: false,
            players: 3,
            dealer: Seat(2),
            kind: OutcomeKind::Surrender {
                declarer: Seat(0),
                bid: "7H".parse().unwrap(),
            },
            tricks: None,
        };
        assert_eq!(
            text(&surrender),
            r#"{"kind":"surrender","declarer":0,"bid":"7H"}"#
        );
        let raspasy = Outcome {
            dark: false,
            no_talon: false,
            players: 3,
            dealer: Seat(2),
            kind: OutcomeKind::Raspasy,
            tricks: Some([0, 5, 5, 0]),
        };
        assert_eq!(text(&raspasy), r#"{"kind":"raspasy","tricks":[0,5,5]}"#);
    }
}
