//! House profiles: the agreements a table plays under (`../shared/rules/options.md`).
//!
//! A [`Profile`] is always valid: it is built from a preset or through validation of raw
//! TOML/JSON, never field by field from untrusted input.

use serde::{Deserialize, Serialize};

/// Size of the defence-shortfall entries (R8.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Responsibility {
    /// Full responsibility.
    Full,
    /// Entries at half size.
    Half,
}

/// Who writes a lone whister's trick whists on a failed contract (R8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WhistSplit {
    /// The whister writes them all.
    Greedy,
    /// The two defenders split them equally.
    Gentleman,
}

/// A validated house profile: every key of `options.md`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Profile {
    /// 3, or 4 with the dealer sitting out (R11).
    pub players: u8,
    /// Pool each player must close (R9).
    pub pool_target: u32,
    /// Overflow helps the highest unclosed pool (R9.2).
    pub pool_help: bool,
    /// Half-whist against 6 and 7 (R5.2, R8.6).
    pub half_whist: bool,
    /// Tens are whisted with quota 1 (R5.6).
    pub ten_whisted: bool,
    /// Both defenders must whist 6♠ (R5.7).
    pub stalingrad: bool,
    /// Size of the defence-shortfall entries (R8.4).
    pub whist_responsibility: Responsibility,
    /// Who writes a lone whister's trick whists on a failed contract (R8.3).
    pub whist_split: WhistSplit,
    /// Multiplies every whist entry derived from a contract value.
    pub whist_scale: u32,
    /// Multiplies every mountain entry.
    pub mountain_scale: u32,
    /// If k > 0 there is no mountain: entries become k·m whists.
    pub mountain_as_whists: u32,
    /// Worth of one pool point in whists (a multiple of 10).
    pub pool_point_whists: u32,
    /// Price per trick in the 1st, 2nd, … consecutive raspasy deal; the last repeats (R8.9).
    pub raspasy_price: Vec<u32>,
    /// Lowest bid level after 1, 2, … consecutive raspasy; the last repeats (R3.3).
    pub raspasy_exit: Vec<u8>,
    /// Pool points for taking no trick on raspasy (R8.9).
    pub raspasy_zero_bonus: u32,
    /// Subtract the lowest trick count before recording raspasy (R8.9).
    pub raspasy_amnesty: bool,
    /// Duty to beat the trick when following or trumping (R6.2).
    pub must_overtake: bool,
    /// Four players: the dealer may take over a refused defence (R11.4).
    pub dealer_whist: bool,
    /// When a deal ends, every hand, the talon and the discard are shown to everybody.
    pub reveal_after_deal: bool,
}

impl Profile {
    /// The Sochi house profile, the guide's defaults.
    #[must_use]
    pub fn sochi() -> Profile {
        Profile {
            players: 3,
            pool_target: 20,
            pool_help: true,
            half_whist: true,
            ten_whisted: true,
            stalingrad: false,
            whist_responsibility: Responsibility::Full,
            whist_split: WhistSplit::Greedy,
            whist_scale: 1,
            mountain_scale: 1,
            mountain_as_whists: 0,
            pool_point_whists: 10,
            raspasy_price: vec![1],
            raspasy_exit: vec![6],
            raspasy_zero_bonus: 1,
            raspasy_amnesty: false,
            must_overtake: false,
            dealer_whist: true,
            reveal_after_deal: true,
        }
    }

    /// The lowest bid level allowed after `raspasy_before` consecutive raspasy deals (R3.3).
    #[must_use]
    pub fn min_level(&self, raspasy_before: u32) -> u8 {
        pick(&self.raspasy_exit, raspasy_before).unwrap_or(6)
    }

    /// The price per trick of a raspasy deal that is the `nth` consecutive one (1-based, R8.9).
    #[must_use]
    pub fn raspasy_price_for(&self, nth: u32) -> u32 {
        pick(&self.raspasy_price, nth).unwrap_or(1)
    }
}

/// The entry for the `nth` (1-based) in a list whose last entry repeats; `nth = 0` means
/// "none yet", which takes the default.
fn pick<T: Copy>(list: &[T], nth: u32) -> Option<T> {
    if nth == 0 {
        return None;
    }
    let i = (nth as usize - 1).min(list.len().saturating_sub(1));
    list.get(i).copied()
}
