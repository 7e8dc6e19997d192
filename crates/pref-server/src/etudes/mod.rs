//! Études on the server (`docs/protocol.md`, "Études"): the catalogue the études page lists, the day's
//! étude, and attempts played against the solver's best replies.
//!
//! An attempt keeps no state here: each request carries the player's cards so far and is
//! replayed by `pref_analysis::attempt`, in the analyses' lane (`analysis::Analyses::solve`,
//! beside the bots' thinking permits, bounded in running and waiting work) with at most
//! `limits.hint_nodes` solver nodes. What one address may ask is its own budget
//! (`limits.etude_requests_per_ip_per_minute`, `limits.etude_request_burst_per_ip`), so a
//! stranger cannot take the lane from the others.
//!
//! Beside the project's collection, the list holds études found in the games played here
//! (`scan.rs`, stored by `store.rs`), rated by the solver's nodes.

pub(crate) mod http;
pub(crate) mod scan;
pub(crate) mod store;

use pref_analysis::etude::{self, Aim, Etude};
use pref_bot::Solver;
use pref_protocol::{EtudeGoal, EtudeSource, EtudeView};

use crate::api::budgets::ClientBudget;
use crate::config::Limits;

/// An étude and what the catalogue says of it.
#[derive(Clone, Debug)]
pub(crate) struct Listed {
    /// The étude, its answer with it (never sent).
    pub etude: Etude,
    /// Where it comes from.
    pub source: EtudeSource,
    /// The solver's nodes to prove its answer.
    pub nodes: u64,
}

/// The études of this server: the project's collection, and the attempts' budget.
#[derive(Debug)]
pub(crate) struct Etudes {
    collection: Vec<Listed>,
    /// Attempt requests per client address.
    pub budget: ClientBudget,
    /// Solver nodes one request may search.
    pub nodes: u64,
}

impl Etudes {
    /// The collection, rated by the nodes the solver needs to find each answer, and the
    /// budgets of `limits`.
    #[must_use]
    pub(crate) fn new(limits: &Limits) -> Etudes {
        let collection = etude::collection()
            .into_iter()
            .map(|e| Listed {
                nodes: proof_nodes(&e),
                etude: e,
                source: EtudeSource::Collection,
            })
            .collect();
        Etudes {
            collection,
            budget: ClientBudget::per_minute(
                "étude moves",
                limits.etude_requests_per_ip_per_minute,
                limits.etude_request_burst_per_ip,
            ),
            nodes: limits.hint_nodes,
        }
    }

    /// The project's collection, in order.
    pub(crate) fn collection(&self) -> &[Listed] {
        &self.collection
    }

    /// The étude of the day `day` (days since 1970-01-01, UTC): the collection's étude at
    /// the day's number modulo its length.
    pub(crate) fn daily(&self, day: u64) -> Option<&Listed> {
        let n = self.collection.len() as u64;
        (n > 0).then(|| &self.collection[(day % n) as usize])
    }
}

/// The nodes the solver searches to find `e`'s keys from a fresh table.
pub(crate) fn proof_nodes(e: &Etude) -> u64 {
    let mut solver = Solver::new();
    let _ = e.keys(&mut solver);
    solver.stats().nodes
}

/// The wire form of `l`, without its answer.
pub(crate) fn view(l: &Listed) -> EtudeView {
    let e = &l.etude;
    let (goal, declarer, trump, tricks) = match e.aim {
        Aim::CatchMisere { declarer } => (EtudeGoal::CatchMisere, declarer, None, None),
        Aim::Make {
            declarer,
            trump,
            tricks,
        } => (EtudeGoal::Make, declarer, trump, Some(tricks)),
        Aim::Defend {
            declarer,
            trump,
            tricks,
        } => (EtudeGoal::Defend, declarer, trump, Some(tricks)),
    };
    EtudeView {
        id: e.id.clone(),
        goal,
        declarer,
        trump: trump.map(|s| s.letter().to_string()),
        tricks,
        hands: e.hands,
        leader: e.leader,
        plays: (0..3).filter(|&p| e.aim.players(p)).collect(),
        source: l.source,
        nodes: l.nodes,
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod daily_tests {
    use super::*;

    #[test]
    fn the_day_s_etude_turns_with_the_date_and_no_answer_is_sent() {
        let e = Etudes::new(&Limits::default());
        let n = e.collection().len() as u64;
        assert_eq!(n, 5);
        assert_eq!(e.daily(20_789).map(|l| l.etude.id.as_str()), Some("m5"));
        assert_eq!(e.daily(20_790).map(|l| l.etude.id.as_str()), Some("m1"));
        assert_eq!(e.daily(20_789 + n).map(|l| l.etude.id.as_str()), Some("m5"));
        let v = view(&e.collection()[0]);
        assert_eq!(v.plays, vec![0, 1]);
        assert_eq!(v.goal, EtudeGoal::CatchMisere);
        assert!(v.nodes > 0);
        let json = serde_json::to_string(&v).unwrap();
        assert!(!json.contains("answer"), "{json}");
    }
}
