//! How long a bot may think about one decision: by the level's default, by a node count
//! (deterministic), or by what the table's clock leaves the seat.
//!
//! A budget is a pure value: the host picks it per decision and the bot stops searching
//! when either of its limits runs out, falling back on the easy level's rules when nothing
//! was solved in time, so a decision is always on time.

use std::time::Duration;

use super::level::Level;

/// How long one decision may take: wall-clock time, solver nodes, or both (whichever runs
/// out first). A decision always returns a legal action; with the budget gone before the
/// first layout is solved it falls back on the easy level's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Wall-clock limit; `None` for none (searches are then deterministic for a seed).
    pub time: Option<Duration>,
    /// Solver nodes for the whole decision.
    pub nodes: u64,
}

/// What a decision under a clock leaves untouched: the action's way through the table's
/// inbox and a loaded host's scheduling must fit in it before the deadline.
pub const CLOCK_MARGIN: Duration = Duration::from_millis(500);

/// A decision under a clock takes at most this fraction (1/n) of the time left after the
/// margin, so a seat short of time keeps some for its next decisions.
const CLOCK_SHARE: u32 = 4;

impl Budget {
    /// A node limit only: the same seed always gives the same decisions.
    #[must_use]
    pub const fn nodes(nodes: u64) -> Budget {
        Budget { time: None, nodes }
    }

    /// The default for a level: well under the 300 ms a decision may take on one core.
    #[must_use]
    pub const fn for_level(level: Level) -> Budget {
        match level {
            Level::Easy => Budget::nodes(0),
            Level::Normal => Budget {
                time: Some(Duration::from_millis(100)),
                nodes: 1_000_000,
            },
            Level::Strong => Budget {
                time: Some(Duration::from_millis(200)),
                nodes: 3_000_000,
            },
        }
    }

    /// The budget for a decision when the table's clock leaves the seat `left` before it
    /// runs out (the move's allowance plus what is left of the bank, less what this turn
    /// has already used, a bot's pace delay included). It is the level's default
    /// ([`Budget::for_level`]) when time is plentiful, and never more; under a tight clock
    /// the time limit is a quarter of what is left beyond [`CLOCK_MARGIN`]; with no more
    /// than the margin left, no search at all (the easy level's rules, at once). A table
    /// without a clock uses [`Budget::for_level`].
    #[must_use]
    pub fn for_clock(level: Level, left: Duration) -> Budget {
        let default = Budget::for_level(level);
        let Some(time) = default.time else {
            return default;
        };
        let spare = left.saturating_sub(CLOCK_MARGIN) / CLOCK_SHARE;
        if spare.is_zero() {
            return Budget::nodes(0);
        }
        Budget {
            time: Some(time.min(spare)),
            nodes: default.nodes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// The level's default while the clock has room for it: a 30 s move (the "normal"
    /// control) or the 2 s an away seat's autopilot gets both leave strong its 200 ms.
    #[test]
    fn a_roomy_clock_gives_the_levels_default() {
        for level in [Level::Easy, Level::Normal, Level::Strong] {
            for left in [ms(1_300), ms(2_000), ms(30_000), ms(3_600_000)] {
                let want = Budget::for_level(level);
                assert_eq!(Budget::for_clock(level, left), want, "{level:?} {left:?}");
            }
        }
    }

    /// A tight clock: a quarter of what is left beyond the 500 ms margin, the level's
    /// nodes kept; nothing beyond the margin means no search.
    #[test]
    fn a_tight_clock_cuts_the_time() {
        let strong = Budget::for_level(Level::Strong).nodes;
        let normal = Budget::for_level(Level::Normal).nodes;
        let cases = [
            (
                Level::Strong,
                1_299,
                Budget {
                    time: Some(ms(199) + Duration::from_micros(750)),
                    nodes: strong,
                },
            ),
            (
                Level::Strong,
                900,
                Budget {
                    time: Some(ms(100)),
                    nodes: strong,
                },
            ),
            (
                Level::Strong,
                504,
                Budget {
                    time: Some(ms(1)),
                    nodes: strong,
                },
            ),
            (
                Level::Normal,
                800,
                Budget {
                    time: Some(ms(75)),
                    nodes: normal,
                },
            ),
            (
                Level::Normal,
                900,
                Budget {
                    time: Some(ms(100)),
                    nodes: normal,
                },
            ),
            (Level::Strong, 500, Budget::nodes(0)),
            (Level::Strong, 0, Budget::nodes(0)),
            (Level::Easy, 0, Budget::nodes(0)),
        ];
        for (level, left, want) in cases {
            assert_eq!(
                Budget::for_clock(level, ms(left)),
                want,
                "{level:?} {left} ms"
            );
        }
    }

    /// More time left never gives a smaller budget, and a decision never plans to use more
    /// than what is left beyond the margin.
    #[test]
    fn the_clock_budget_grows_with_the_time_left_and_keeps_the_margin() {
        for level in [Level::Easy, Level::Normal, Level::Strong] {
            let mut last = Duration::ZERO;
            for left in (0..3_000).step_by(7).map(ms) {
                let b = Budget::for_clock(level, left);
                let time = b.time.unwrap_or_default();
                assert!(time >= last, "{level:?} {left:?}");
                assert!(
                    time + CLOCK_MARGIN <= left || time.is_zero(),
                    "{level:?} {left:?}"
                );
                assert!(b.nodes <= Budget::for_level(level).nodes);
                last = time;
            }
        }
    }
}
