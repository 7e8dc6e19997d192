//! The score log: what each finished deal wrote on the sheet, line by line with the rule
//! that wrote it, and the running totals after it. The server builds it from the game
//! (the core's [`pref_core::Game::scores`]); it holds no card, so every viewer gets the same
//! log, in a snapshot and, one entry at a time, in `deal_finished`.

use pref_core::{
    Action, Answer, Claim, Contract, DealEntry, Defence, Game, Line, Outcome, OutcomeKind,
    WhistCall,
};
use serde::{Deserialize, Serialize};

use crate::table::SheetView;

/// One line a deal wrote, with its rule id: the core's [`Line`] (seat, column, amount,
/// reason and its numbers, flattened) and `rule`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineView {
    /// The line.
    #[serde(flatten)]
    pub line: Line,
    /// The rule that wrote it (`"R8.3"`), an anchor of the guide.
    pub rule: String,
}

impl LineView {
    /// The lines as sent.
    #[must_use]
    pub fn all(lines: &[Line]) -> Vec<LineView> {
        lines
            .iter()
            .map(|&line| LineView {
                line,
                rule: line.rule().to_owned(),
            })
            .collect()
    }
}

/// The kind of a finished deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DealKind {
    /// A trick contract: played, conceded, or ended by a standing half-whist.
    Game,
    /// The declarer surrendered (R4.5).
    Surrender,
    /// Misère.
    Misere,
    /// All passed.
    Raspasy,
}

/// A finished deal in short, as the record's outcome form writes it (no card).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutcomeView {
    /// The kind of deal.
    pub kind: DealKind,
    /// The declarer (not on raspasy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declarer: Option<u8>,
    /// The named contract of a trick contract.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contract: Option<Contract>,
    /// The surrendered winning bid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bid: Option<Contract>,
    /// Each seat's final whist decision (`null` for the declarer, a dealer who stayed out,
    /// everybody on an unwhisted ten).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whist: Option<Vec<Option<WhistCall>>>,
    /// Open or closed, when one whister played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defence: Option<Defence>,
    /// Tricks per seat, when the deal was played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tricks: Option<Vec<u8>>,
    /// The claim every player of the deal accepted, when the deal ended by one (R6.7):
    /// `tricks` then counts the claimed tricks as taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<AcceptedClaim>,
}

/// A claim that ended a deal (R6.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcceptedClaim {
    /// The claimer.
    pub seat: u8,
    /// The remaining tricks per seat as claimed.
    pub claim: Claim,
}

impl AcceptedClaim {
    /// The claim that ended `deal`, if its last action accepted one.
    #[must_use]
    pub fn of(deal: &DealEntry) -> Option<AcceptedClaim> {
        let DealEntry::Played {
            actions,
            outcome: Some(_),
            ..
        } = deal
        else {
            return None;
        };
        let (_, last) = actions.last()?;
        if *last != Action::Answer(Answer::Accept) {
            return None;
        }
        actions.iter().rev().find_map(|&(seat, a)| match a {
            Action::Claim(claim) => Some(AcceptedClaim {
                seat: seat.0,
                claim,
            }),
            Action::Bid(_)
            | Action::Discard(_)
            | Action::Declare(_)
            | Action::Whist(_)
            | Action::Defence(_)
            | Action::Surrender
            | Action::Play(_)
            | Action::Answer(_) => None,
        })
    }
}

impl OutcomeView {
    /// The outcome in short.
    #[must_use]
    pub fn of(o: &Outcome) -> OutcomeView {
        let seats = usize::from(o.players);
        let mut v = OutcomeView {
            kind: DealKind::Raspasy,
            declarer: None,
            contract: None,
            bid: None,
            whist: None,
            defence: None,
            tricks: o.tricks.map(|t| t[..seats].to_vec()),
            claim: None,
        };
        match o.kind {
            OutcomeKind::Game {
                declarer,
                contract,
                whist,
                defence,
                ..
            } => {
                v.kind = DealKind::Game;
                v.declarer = Some(declarer.0);
                v.contract = Some(contract);
                v.whist = Some(whist[..seats].to_vec());
                v.defence = defence;
            }
            OutcomeKind::Surrender { declarer, bid } => {
                v.kind = DealKind::Surrender;
                v.declarer = Some(declarer.0);
                v.bid = Some(bid);
            }
            OutcomeKind::Misere { declarer } => {
                v.kind = DealKind::Misere;
                v.declarer = Some(declarer.0);
            }
            OutcomeKind::Raspasy => {}
        }
        v
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
            outcome: OutcomeView {
                claim: AcceptedClaim::of(deal),
                ..OutcomeView::of(deal.outcome()?)
            },
            lines: LineView::all(&score.lines),
            sheet: SheetView::of(&score.sheet),
        })
    }
}
