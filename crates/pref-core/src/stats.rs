//! How a player plays, in exact numbers: per-seat statistics folded from game records.
//!
//! A player's page shows how often he declares and makes what he declares, how his misères
//! and whists go, how he fares on raspasy and what his games settled at. Those figures are
//! rules questions (who declared, who whisted, who fell short of the whist quota, what the
//! settlement was), so the core answers them from a [`Record`], replayed through [`Game`]
//! like any record, and never from a second reading of the sheet. Every total is an integer
//! count and every share or average an exact [`Ratio`]; there is no float anywhere.
//!
//! [`SeatStats`] adds up: one game's figures per seat ([`of_record`]) are summed into a
//! player's ([`SeatStats::add`]), so a server keeps one row per game and one running total
//! per player instead of replaying every record on each request. [`Figures`] are the shares
//! and averages a page shows, computed from the totals; [`running_balance`] turns the
//! games' settlements into the balance over time.

use num_rational::Ratio;
use serde::{Deserialize, Serialize};

use crate::action::WhistCall;
use crate::bid::Seat;
use crate::game::Game;
use crate::line::{Column, Line, Why};
use crate::outcome::{Outcome, OutcomeKind};
use crate::record::{Record, RecordError};

/// The lowest contract level; `levels[0]` counts sixes.
pub const LOWEST_LEVEL: u8 = 6;

/// Contracts of one level a seat declared: how many were played and how many made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelStats {
    /// Declared at this level (a surrender counts, as failed: R4.5).
    pub played: u64,
    /// Made (R8.1; a conceded or half-whisted contract is made, R8.5, R8.6).
    pub made: u64,
}

/// One seat's totals over one or more games. Every field adds up across games.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatStats {
    /// Games counted.
    pub games: u64,
    /// Of those, games that ended with a settlement (over, or stopped by agreement, R10.3).
    pub settled: u64,
    /// Deals the seat played in (a four-player dealer sits his deals out, R11.1).
    pub deals: u64,
    /// Deals the seat declared: a trick contract, a misère or a surrender.
    pub declared: u64,
    /// Trick contracts declared, by level: `levels[0]` is 6, …, `levels[4]` is 10.
    pub levels: [LevelStats; 5],
    /// Misères declared (R8.8).
    pub misere_played: u64,
    /// Of those, misères caught: the declarer took a trick.
    pub misere_caught: u64,
    /// Deals the seat whisted (`whist`, with responsibility for the quota, R5).
    pub whists: u64,
    /// Of those, whists without a shortfall charged to the seat (R8.4).
    pub whists_kept: u64,
    /// Raspasy the seat played (R7).
    pub raspasy: u64,
    /// Tricks the seat took on raspasy.
    pub raspasy_tricks: u64,
    /// Whists the seat wrote on the sheet, on every opponent (R8.2, R8.3, R8.6, R9.2, R11.6).
    pub whist_points: i64,
    /// The sum of the seat's settlements, in whists (R10), of the settled games.
    #[serde(with = "ratio_text")]
    pub balance: Ratio<i64>,
    /// Deals of the analysed games in which the seat chose a card that the solver valued
    /// (the analysis runs after the game: `pref-analysis`'s `accuracy`; absent in totals
    /// stored before it was kept).
    #[serde(default)]
    pub analysed_deals: u64,
    /// The tricks the seat's own cards lost to the solver in those deals: the sum of each
    /// card's cost (0 for a best card).
    #[serde(default)]
    pub tricks_lost: u64,
}

/// The shares and averages of a seat's totals; `None` where the count below is zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figures {
    /// Declared deals per deal played.
    pub declared_share: Option<Ratio<i64>>,
    /// Made contracts per declared trick contract, by level (as [`SeatStats::levels`]).
    pub made_share: [Option<Ratio<i64>>; 5],
    /// Caught misères per misère declared.
    pub misere_caught_share: Option<Ratio<i64>>,
    /// Kept whists per whist.
    pub whist_success: Option<Ratio<i64>>,
    /// Raspasy per deal played.
    pub raspasy_share: Option<Ratio<i64>>,
    /// Tricks per raspasy.
    pub raspasy_average_tricks: Option<Ratio<i64>>,
    /// Whists written per deal played.
    pub whists_per_deal: Option<Ratio<i64>>,
    /// Whists written per game.
    pub whists_per_game: Option<Ratio<i64>>,
    /// "Accuracy": tricks lost to the solver per analysed deal (0 for perfect play).
    pub tricks_lost_per_deal: Option<Ratio<i64>>,
}

/// `n / d` exactly, `None` when `d` is zero.
fn share(n: i64, d: u64) -> Option<Ratio<i64>> {
    let d = i64::try_from(d).ok().filter(|&d| d != 0)?;
    Some(Ratio::new(n, d))
}

/// A count as the numerator of a share (counts never come near `i64::MAX`).
fn count(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl SeatStats {
    /// Adds `other`'s totals to these (another game of the same player).
    pub fn add(&mut self, other: &SeatStats) {
        self.games += other.games;
        self.settled += other.settled;
        self.deals += other.deals;
        self.declared += other.declared;
        for (mine, theirs) in self.levels.iter_mut().zip(other.levels) {
            mine.played += theirs.played;
            mine.made += theirs.made;
        }
        self.misere_played += other.misere_played;
        self.misere_caught += other.misere_caught;
        self.whists += other.whists;
        self.whists_kept += other.whists_kept;
        self.raspasy += other.raspasy;
        self.raspasy_tricks += other.raspasy_tricks;
        self.whist_points += other.whist_points;
        self.balance += other.balance;
        self.analysed_deals += other.analysed_deals;
        self.tricks_lost += other.tricks_lost;
    }

    /// Counts one finished deal for `seat`: its outcome and the lines it wrote.
    pub fn deal(&mut self, seat: Seat, outcome: &Outcome, lines: &[Line]) {
        let i = seat.index();
        if outcome.players == 4 && outcome.dealer == seat {
            // The four-player dealer sits the deal out (R11.1); whists he writes still
            // count below (his consolations, R11.2; his talon tricks on raspasy, R11.3).
            self.whist_points += written_whists(seat, lines);
            return;
        }
        self.deals += 1;
        self.whist_points += written_whists(seat, lines);
        match outcome.kind {
            OutcomeKind::Game {
                declarer,
                contract,
                whist,
                ..
            } => {
                if declarer == seat {
                    self.declared += 1;
                    let level = &mut self.levels[usize::from(contract.level() - LOWEST_LEVEL)];
                    level.played += 1;
                    level.made += u64::from(outcome.made() == Some(true));
                } else if whist[i] == Some(WhistCall::Whist) {
                    self.whists += 1;
                    let short = lines
                        .iter()
                        .any(|l| l.seat == seat && matches!(l.why, Why::Shortfall { .. }));
                    self.whists_kept += u64::from(!short);
                }
            }
            OutcomeKind::Surrender { declarer, bid } if declarer == seat => {
                self.declared += 1;
                self.levels[usize::from(bid.level() - LOWEST_LEVEL)].played += 1;
            }
            OutcomeKind::Misere { declarer } if declarer == seat => {
                self.declared += 1;
                self.misere_played += 1;
                self.misere_caught += u64::from(outcome.made() == Some(false));
            }
            OutcomeKind::Surrender { .. } | OutcomeKind::Misere { .. } => {}
            OutcomeKind::Raspasy => {
                self.raspasy += 1;
                self.raspasy_tricks += outcome.tricks.map_or(0, |t| u64::from(t[i]));
            }
        }
    }

    /// The shares and averages of these totals.
    #[must_use]
    pub fn figures(&self) -> Figures {
        Figures {
            declared_share: share(count(self.declared), self.deals),
            made_share: self.levels.map(|l| share(count(l.made), l.played)),
            misere_caught_share: share(count(self.misere_caught), self.misere_played),
            whist_success: share(count(self.whists_kept), self.whists),
            raspasy_share: share(count(self.raspasy), self.deals),
            raspasy_average_tricks: share(count(self.raspasy_tricks), self.raspasy),
            whists_per_deal: share(self.whist_points, self.deals),
            whists_per_game: share(self.whist_points, self.games),
            tricks_lost_per_deal: share(count(self.tricks_lost), self.analysed_deals),
        }
    }
}

/// The whists `seat` wrote in `lines`: every line in its whist columns.
fn written_whists(seat: Seat, lines: &[Line]) -> i64 {
    lines
        .iter()
        .filter(|l| l.seat == seat && matches!(l.column, Column::Whists { .. }))
        .map(|l| l.amount)
        .sum()
}

/// One game's totals, seat by seat (index = seat), and its settlement when it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStats {
    /// Each seat's totals in this game (`games` is 1 for every seat).
    pub seats: Vec<SeatStats>,
    /// Each seat's settlement (R10), when the game is over or stopped by agreement.
    pub settlement: Option<Vec<Ratio<i64>>>,
}

/// Folds a record into each seat's totals: every finished deal, replayed through the rules
/// (so a record that does not replay is refused, not counted).
///
/// # Errors
/// The [`RecordError`] of the first deal the rules refuse.
pub fn of_record(record: &Record) -> Result<GameStats, RecordError> {
    let players = record.players().len();
    let mut seats = vec![
        SeatStats {
            games: 1,
            ..SeatStats::default()
        };
        players
    ];
    let game = record.replay(|_, game| fold_last(game, &mut seats))?;
    let settlement = if record.agreed_stop() {
        Some(game.agreed_settlement())
    } else {
        game.settlement()
    };
    if let Some(balance) = &settlement {
        for (s, b) in seats.iter_mut().zip(balance) {
            s.settled = 1;
            s.balance = *b;
        }
    }
    Ok(GameStats { seats, settlement })
}

/// Counts the game's last finished deal for every seat.
fn fold_last(game: &Game, seats: &mut [SeatStats]) {
    let (Some(outcome), Some(score)) = (
        game.history().last().and_then(|d| d.outcome()),
        game.scores().last(),
    ) else {
        return;
    };
    for (i, s) in seats.iter_mut().enumerate() {
        let seat = Seat(u8::try_from(i).unwrap_or(u8::MAX));
        s.deal(seat, outcome, &score.lines);
    }
}

/// The balance after each game, from each game's settlement in the order played.
#[must_use]
pub fn running_balance(settlements: impl IntoIterator<Item = Ratio<i64>>) -> Vec<Ratio<i64>> {
    settlements
        .into_iter()
        .scan(Ratio::from_integer(0), |sum, b| {
            *sum += b;
            Some(*sum)
        })
        .collect()
}

/// An exact number as text: `"7"`, `"-35/3"`, as settlements are written everywhere.
#[must_use]
pub fn ratio_to_text(r: &Ratio<i64>) -> String {
    r.to_string()
}

/// Reads [`ratio_to_text`]'s form back; `None` for anything else (a zero denominator too).
#[must_use]
pub fn ratio_from_text(s: &str) -> Option<Ratio<i64>> {
    let (n, d) = s.split_once('/').unwrap_or((s, "1"));
    let (n, d) = (n.parse().ok()?, d.parse().ok()?);
    (d != 0).then(|| Ratio::new(n, d))
}

/// Serde for a [`Ratio`] as [`ratio_to_text`]'s text.
mod ratio_text {
    use num_rational::Ratio;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(r: &Ratio<i64>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::ratio_to_text(r))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Ratio<i64>, D::Error> {
        let text = String::deserialize(d)?;
        super::ratio_from_text(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("not an exact number: {text}")))
    }
}

#[cfg(test)]
mod tests;
