//! The score sheet (R8–R9): each player's pool and mountain and the whists the players write
//! on each other, as running totals in exact integers.
//!
//! A deal's entries come from `scoring.rs` (R8); this file writes them in R8.10's order and
//! closes the pool (R9): help for the highest unclosed pool, then the conversion of what is
//! left into mountain points. The settlement (R10) is in `settlement.rs`.

use crate::bid::Seat;
use crate::line::{Column, Converted, Line, Why};
use crate::outcome::{Outcome, OutcomeKind};
use crate::profile::Profile;
use crate::scoring::Entries;

/// Whists a help point is worth (R9.2), whatever the profile's scales.
const HELP_WHISTS: i64 = 10;

/// A pulka's score sheet.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sheet {
    /// 3 or 4; the arrays below are used up to this many seats.
    players: u8,
    pool: [i64; 4],
    /// Always zero under `mountain_as_whists`, which writes mountain entries as whists.
    mountain: [i64; 4],
    /// `whists[a][b]`: whists `a` wrote on `b`.
    whists: [[i64; 4]; 4],
}

impl Sheet {
    /// An empty sheet for `players` (3 or 4; fewer are taken as 3, more as 4).
    #[must_use]
    pub fn new(players: u8) -> Sheet {
        Sheet {
            players: players.clamp(3, 4),
            pool: [0; 4],
            mountain: [0; 4],
            whists: [[0; 4]; 4],
        }
    }

    /// Players on the sheet.
    #[must_use]
    pub fn players(&self) -> u8 {
        self.players
    }

    fn n(&self) -> usize {
        self.players as usize
    }

    /// Each seat's pool.
    #[must_use]
    pub fn pool(&self) -> &[i64] {
        &self.pool[..self.n()]
    }

    /// Each seat's mountain.
    #[must_use]
    pub fn mountain(&self) -> &[i64] {
        &self.mountain[..self.n()]
    }

    /// Whists `writer` wrote on `on` (0 for a seat not on the sheet).
    #[must_use]
    pub fn whists(&self, writer: Seat, on: Seat) -> i64 {
        self.whists
            .get(writer.index())
            .and_then(|row| row.get(on.index()))
            .copied()
            .unwrap_or(0)
    }

    /// All whists, `[writer][on]`; the diagonal is zero.
    #[must_use]
    pub fn whist_matrix(&self) -> Vec<Vec<i64>> {
        self.whists[..self.n()]
            .iter()
            .map(|row| row[..self.n()].to_vec())
            .collect()
    }

    /// Scores one finished deal: R8's entries in R8.10's order (mountain, whists, then pool
    /// points seat by seat from first hand clockwise), the pool closed as R9 says.
    /// `raspasy_streak` counts the consecutive raspasy deals just before this one (R8.9).
    ///
    /// The outcome is taken as consistent ([`crate::Game::record_outcome`] checks outcomes
    /// written by hand); unreadable whist decisions are scored as two passes, and an outcome
    /// for another table size or with a seat off the table is not scored at all.
    pub fn record(&mut self, profile: &Profile, outcome: &Outcome, raspasy_streak: u32) {
        self.record_explained(profile, outcome, raspasy_streak);
    }

    /// [`Sheet::record`], returning what it wrote: every line in the order written, each
    /// already applied with [`Sheet::apply`] (so the old sheet plus the lines is the new
    /// sheet). Empty when the outcome is not scored.
    pub fn record_explained(
        &mut self,
        profile: &Profile,
        outcome: &Outcome,
        raspasy_streak: u32,
    ) -> Vec<Line> {
        let declarer = match outcome.kind {
            OutcomeKind::Game { declarer, .. }
            | OutcomeKind::Misere { declarer }
            | OutcomeKind::Surrender { declarer, .. } => declarer,
            OutcomeKind::Raspasy => outcome.dealer,
        };
        if outcome.players != self.players || outcome.dealer.0.max(declarer.0) >= self.players {
            return Vec::new();
        }
        let entries = Entries::of(profile, outcome, raspasy_streak).lines;
        let mut written = Vec::with_capacity(entries.len() + 4);
        for line in entries.iter().filter(|l| l.column == Column::Mountain) {
            self.add_mountain(profile, *line, &mut written);
        }
        for line in entries
            .iter()
            .filter(|l| matches!(l.column, Column::Whists { .. }))
        {
            self.write(*line, &mut written);
        }
        // R8.10: first hand first; the dealer (last of the round) comes last.
        let mut seat = outcome.dealer.next(self.players);
        for _ in 0..self.n() {
            for line in entries
                .iter()
                .filter(|l| l.column == Column::Pool && l.seat == seat)
            {
                self.earn(profile, *line, &mut written);
            }
            seat = seat.next(self.players);
        }
        written
    }

    /// Adds one line to the sheet, as it says; a line for a seat not on the sheet, or whists
    /// on oneself, change nothing.
    pub fn apply(&mut self, line: &Line) {
        let (s, n) = (line.seat.index(), self.n());
        if s >= n {
            return;
        }
        match line.column {
            Column::Pool => self.pool[s] += line.amount,
            Column::Mountain => self.mountain[s] += line.amount,
            Column::Whists { on } if on.index() < n && on.index() != s => {
                self.whists[s][on.index()] += line.amount;
            }
            Column::Whists { .. } => {}
        }
    }

    /// Applies `line` and keeps it in `written`.
    fn write(&mut self, line: Line, written: &mut Vec<Line>) {
        self.apply(&line);
        written.push(line);
    }

    /// Whether every pool has reached the target (R9.4).
    #[must_use]
    pub fn all_closed(&self, profile: &Profile) -> bool {
        let target = i64::from(profile.pool_target());
        self.pool().iter().all(|&p| p >= target)
    }

    /// A mountain entry (the line's amount `m` on its seat `s`); under
    /// `mountain_as_whists = k` it becomes k·m whists by every other player on `s` (a
    /// negative entry: k·|m| whists by `s` on every other).
    pub(crate) fn add_mountain(&mut self, profile: &Profile, line: Line, written: &mut Vec<Line>) {
        let k = profile.mountain_as_whists();
        if line.amount == 0 {
            return;
        }
        if k == 0 {
            self.write(line, written);
            return;
        }
        let (s, m) = (line.seat, line.amount);
        let converted = Some(Converted {
            seat: s,
            mountain: m,
            factor: k,
        });
        for o in (0..self.players).map(Seat).filter(|&o| o != s) {
            let (writer, on) = if m >= 0 { (o, s) } else { (s, o) };
            let whists = Line {
                seat: writer,
                column: Column::Whists { on },
                amount: i64::from(k) * m.abs(),
                why: line.why,
                converted,
                dark: line.dark,
            };
            self.write(whists, written);
        }
    }

    /// R9: the pool points of `line` (earned by its seat `s`).
    fn earn(&mut self, profile: &Profile, line: Line, written: &mut Vec<Line>) {
        let (earner, points) = (line.seat, line.amount);
        let s = earner.index();
        let target = i64::from(profile.pool_target());
        let own = points.min(target - self.pool[s]).max(0);
        if own > 0 {
            self.write(
                Line {
                    amount: own,
                    ..line
                },
                written,
            );
        }
        let mut rest = points - own;
        if profile.pool_help() {
            while rest > 0 {
                let Some(r) = self.help_receiver(s, target) else {
                    break;
                };
                // The receiver stays the highest unclosed pool until it closes.
                let given = rest.min(target - self.pool[r]);
                let why = Why::Help {
                    earner,
                    points: given,
                };
                self.write(Line::new(Seat(r as u8), Column::Pool, given, why), written);
                let on = Column::Whists { on: Seat(r as u8) };
                self.write(Line::new(earner, on, HELP_WHISTS * given, why), written);
                rest -= given;
            }
        }
        if rest > 0 {
            self.convert_overflow(profile, earner, rest, written);
        }
    }
    /// R9.2: the unclosed pool with the highest record; on a tie, the nearest clockwise from
    /// the earner.
    fn help_receiver(&self, earner: usize, target: i64) -> Option<usize> {
        let n = self.n();
        let mut best: Option<usize> = None;
        for r in (1..n).map(|i| (earner + i) % n) {
            if self.pool[r] < target && best.is_none_or(|b| self.pool[r] > self.pool[b]) {
                best = Some(r);
            }
        }
        best
    }

    /// R9.3: `points` left over become `pool_point_whists / 10` mountain points each, taken
    /// off the earner's mountain; what his mountain cannot absorb goes on each opponent's.
    fn convert_overflow(
        &mut self,
        profile: &Profile,
        earner: Seat,
        points: i64,
        written: &mut Vec<Line>,
    ) {
        let m = points * i64::from(profile.pool_point_whists()) / 10;
        let why = Why::Overflow { earner, points };
        if profile.mountain_as_whists() > 0 {
            let line = Line::new(earner, Column::Mountain, -m, why);
            self.add_mountain(profile, line, written);
            return;
        }
        let off = m.min(self.mountain[earner.index()]);
        if off != 0 {
            self.write(Line::new(earner, Column::Mountain, -off, why), written);
        }
        let over = m - off;
        if over != 0 {
            for o in (0..self.players).map(Seat).filter(|&o| o != earner) {
                self.write(Line::new(o, Column::Mountain, over, why), written);
            }
        }
    }
}
