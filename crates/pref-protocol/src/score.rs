//! The score log: what each finished deal wrote on the sheet, line by line with the rule
//! that wrote it, and the running totals after it. The server builds it from the game
//! (the core's [`pref_core::Game::scores`]); it holds no card, so every viewer gets the same
//! log, in a snapshot and, one entry at a time, in `deal_finished`.

use pref_core::{AcceptedClaim, DealEntry, Game, OutcomeForm};
use serde::{Deserialize, Serialize};

use crate::table::{LineView, SheetView};

/// A finished deal in short, as the wire sends it (no card): the outcome's one form, the
/// record's ([`OutcomeForm`], flattened: `kind`, `declarer`, `contract` or `bid`, `whist`,
/// `defence`, `talon_units`, `tricks`), and beside it what the core says the outcome was,
/// so that no client works it out again: whether the declarer made it, by how many tricks
/// a played trick contract failed, and the claim all accepted that ended it. The record
/// has no such keys: a record is replayed, and its reader works them out itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeView {
    /// The outcome as the record writes it.
    #[serde(flatten)]
    pub form: OutcomeForm,
    /// Whether the declarer made his contract (misère: took no trick; a surrender: never),
    /// from [`pref_core::Outcome::made`]; absent on raspasy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made: Option<bool>,
    /// The tricks a played trick contract fell short of its level by (0 when made), from
    /// [`pref_core::Outcome::undertricks`]; absent when no trick contract was played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undertricks: Option<u8>,
    /// The claim every player of the deal accepted, when the deal ended by one (R6.7):
    /// `tricks` then counts the claimed tricks as taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<AcceptedClaim>,
}

impl OutcomeView {
    /// The finished deal `entry` in short; `None` while it is in progress.
    #[must_use]
    pub fn of(entry: &DealEntry) -> Option<OutcomeView> {
        let o = entry.outcome()?;
        Some(OutcomeView {
            form: o.form(),
            made: o.made(),
            undertricks: o.undertricks(),
            claim: entry.accepted_claim(),
        })
    }
}

/// A page of the score log, the answer to a client's `score_page`: the finished deals just
/// before `before`, first to last, and how many deals the log holds in all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScorePage {
    /// The deal number asked for: `entries` end just before it.
    pub before: u32,
    /// The finished deals numbered below `before`, at most a page of them (the last ones),
    /// first to last; empty when `before` is 0.
    pub entries: Vec<ScoreEntry>,
    /// Finished deals in the whole log.
    pub total: u32,
}

/// One finished deal in the score log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreEntry {
    /// The deal's number (0-based).
    pub deal_no: u32,
    /// Its dealer.
    pub dealer: u8,
    /// What happened, in short.
    pub outcome: OutcomeView,
    /// What it wrote, in the order written (R8.10, then R9).
    pub lines: Vec<LineView>,
    /// The sheet after it: the running totals.
    pub sheet: SheetView,
}

impl ScoreEntry {
    /// Every finished deal of `game`, first to last.
    #[must_use]
    pub fn log(game: &Game) -> Vec<ScoreEntry> {
        ScoreEntry::range(game, 0, game.scores().len())
    }

    /// The finished deals of `game` numbered `from` up to (not including) `to`, first to
    /// last; numbers past the last finished deal are left out.
    #[must_use]
    pub fn range(game: &Game, from: usize, to: usize) -> Vec<ScoreEntry> {
        (from..to.min(game.scores().len()))
            .filter_map(|i| ScoreEntry::of(game, i))
            .collect()
    }

    /// The last `count` finished deals of `game`, first to last: a snapshot's `score_log`.
    #[must_use]
    pub fn last(game: &Game, count: usize) -> Vec<ScoreEntry> {
        let total = game.scores().len();
        ScoreEntry::range(game, total.saturating_sub(count), total)
    }

    /// The finished deal `deal_no` of `game`, if it is finished.
    #[must_use]
    pub fn of(game: &Game, deal_no: usize) -> Option<ScoreEntry> {
        let score = game.scores().get(deal_no)?;
        let deal = game.history().get(deal_no)?;
        Some(ScoreEntry {
            deal_no: u32::try_from(deal_no).ok()?,
            dealer: deal.dealer().0,
            outcome: OutcomeView::of(deal)?,
            lines: LineView::all(&score.lines),
            sheet: SheetView::of(&score.sheet),
        })
    }
}

#[cfg(test)]
mod tests {
    use pref_core::Record;

    use super::*;

    /// The outcomes of a record in outcome form, as the wire writes them.
    fn views(deals: &str) -> Vec<String> {
        let record = format!(
            r#"{{"format": "pref-record/1", "profile": {{"preset": "sochi"}},
                "players": ["A", "B", "C"], "first_dealer": 2, "deals": [{deals}]}}"#
        );
        let (_, game) = Record::read(&record).unwrap();
        game.history()
            .iter()
            .map(|d| serde_json::to_string(&OutcomeView::of(d).unwrap()).unwrap())
            .collect()
    }

    #[test]
    fn r8_2_the_wire_says_whether_the_contract_was_made_and_by_how_much_it_failed() {
        let failed = r#"{"kind": "game", "declarer": 0, "contract": "8H",
            "whist": [null, "whist", "pass"], "defence": "open", "tricks": [5, 4, 1]}"#;
        let raspasy = r#"{"kind": "raspasy", "tricks": [2, 4, 4]}"#;
        let conceded = r#"{"kind": "game", "declarer": 1, "contract": "6S",
            "whist": ["pass", null, "pass"]}"#;
        let all = format!(
            r#"{{"outcome": {failed}}}, {{"outcome": {raspasy}}}, {{"outcome": {conceded}}}"#
        );
        assert_eq!(
            views(&all),
            [
                r#"{"kind":"game","declarer":0,"contract":"8H","whist":[null,"whist","pass"],"defence":"open","tricks":[5,4,1],"made":false,"undertricks":3}"#,
                r#"{"kind":"raspasy","tricks":[2,4,4]}"#,
                r#"{"kind":"game","declarer":1,"contract":"6S","whist":["pass",null,"pass"],"made":true}"#,
            ]
        );
        let back: OutcomeView = serde_json::from_str(&views(&all)[0]).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), views(&all)[0]);
    }
}
