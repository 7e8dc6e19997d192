//! The writer: a record as `pref-record/1` JSON in the compact, line-per-item layout of
//! `json.rs` (one deal and one action per line), which reads back to the same record.

use super::form::{action_out, outcome_out};
use super::{FORMAT, Record, RecordDeal, fairness, practice, timing};
use crate::card::Card;
use crate::json::Out;
use crate::profile::Profile;

impl RecordDeal {
    /// The deal as a record writes it (`{"outcome": {...}}` or the played form), on its
    /// own: what a scorekeeper stores per deal and a record lists.
    #[must_use]
    pub fn to_json_string(&self) -> String {
        let mut s = String::new();
        deal_out(self).write(0, &mut s);
        s
    }
}

impl Record {
    /// The record as `pref-record/1` JSON, one deal and one action per line.
    #[must_use]
    pub fn to_json_string(&self) -> String {
        let mut fields = vec![
            ("format".to_owned(), Out::str(FORMAT)),
            ("profile".to_owned(), self.profile_out()),
            (
                "players".to_owned(),
                Out::List(self.players.iter().map(Out::str).collect()),
            ),
            (
                "first_dealer".to_owned(),
                Out::Raw(self.first_dealer.0.to_string()),
            ),
            (
                "deals".to_owned(),
                Out::List(
                    (self.deals.iter().enumerate())
                        .map(|(i, d)| {
                            let deal = timing::with_timing_out(deal_out(d), self.timing(i));
                            let deal = fairness::with_fairness_out(deal, self.fairness(i));
                            practice::with_hints_out(deal, self.hints(i))
                        })
                        .collect(),
                ),
            ),
        ];
        if self.agreed {
            fields.push(("stop".to_owned(), Out::str("agreed")));
        }
        if !self.bots.is_empty() {
            let seats = self
                .bots
                .iter()
                .map(|s| Out::Raw(s.0.to_string()))
                .collect();
            fields.push(("bots".to_owned(), Out::List(seats)));
        }
        if self.practice {
            fields.push(("practice".to_owned(), Out::Raw("true".to_owned())));
        }
        if let Some(family) = &self.rated {
            fields.push(("rated".to_owned(), Out::str(family)));
        }
        let mut s = String::new();
        Out::Object(fields).write(0, &mut s);
        s.push('\n');
        s
    }

    fn profile_out(&self) -> Out {
        let base = Profile::preset(&self.preset).unwrap_or_else(Profile::sochi);
        let overrides = self.profile.overrides_from(&base);
        if overrides.is_empty() {
            return Out::str(&self.preset);
        }
        let mut fields = vec![("preset".to_owned(), Out::str(&self.preset))];
        fields.extend(overrides.iter().map(|(k, v)| (k.clone(), Out::value(v))));
        Out::Object(fields)
    }
}

fn deal_out(deal: &RecordDeal) -> Out {
    let cards = |cs: &mut dyn Iterator<Item = Card>| {
        Out::List(cs.map(|c| Out::str(c.to_string())).collect())
    };
    match deal {
        RecordDeal::Played {
            hands,
            talon,
            actions,
        } => Out::Object(vec![
            (
                "hands".to_owned(),
                Out::List(
                    hands
                        .iter()
                        .map(|h| cards(&mut h.iter().copied()))
                        .collect(),
                ),
            ),
            ("talon".to_owned(), cards(&mut talon.iter().copied())),
            (
                "actions".to_owned(),
                Out::List(actions.iter().map(|&(s, a)| action_out(s, a)).collect()),
            ),
        ]),
        RecordDeal::Scored(o) => Out::Object(vec![("outcome".to_owned(), outcome_out(o))]),
    }
}
