//! What a deal wrote on the sheet, line by line, and why: the explanation a player reads
//! after each deal ("Anna: +4 to the pool, 7♥ made, R8.1").
//!
//! The lines are not computed beside the scoring but by it: `scoring.rs` makes each R8 entry
//! as a [`Line`], and [`crate::Sheet::record_explained`] writes them, and the R9 lines that
//! closing the pool adds, through one primitive ([`crate::Sheet::apply`]). A sheet is therefore
//! exactly the sum of the lines of its deals, and an explanation cannot drift from the score.

use serde::{Deserialize, Serialize};

use crate::bid::{Contract, Seat};

/// The sheet column a line is written in; in JSON `{"column": "pool"}`, `"mountain"`, or
/// `{"column": "whists", "on": 1}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "column", rename_all = "snake_case")]
pub enum Column {
    /// The seat's pool (R9).
    Pool,
    /// The seat's mountain.
    Mountain,
    /// Whists the seat writes on `on`.
    Whists {
        /// The seat the whists are written on.
        on: Seat,
    },
}

/// Who writes a consolation (R8.2) on a failed declarer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Consoler {
    /// A defender writes his own (R8.2), the passer too.
    Defender,
    /// The returner writes the half-whister's (R8.7).
    Returner,
    /// The four-player dealer writes his own (R11.2, `dealer_consolation`).
    Dealer,
    /// The four-player dealer who took the defence over writes a defender's in his place
    /// (R11.4, `dealer_whist_consolation = "all"`).
    DealerInPlace,
}

/// Why a line was written, with the numbers a sentence needs. Amounts are on the line. In
/// JSON `{"reason": "trick_whists", "contract": "7H", "tricks": 3, …}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Why {
    /// R8.1: the declarer made `contract` (with `unwhisted`, a ten played without whist, R5.6).
    Made {
        /// The contract.
        contract: Contract,
        /// A ten played without whist.
        unwhisted: bool,
    },
    /// R8.5: both defenders passed; the contract is conceded.
    Conceded {
        /// The contract.
        contract: Contract,
    },
    /// R8.6: a half-whist stood; the declarer earns the contract.
    HalfWhistStands {
        /// The contract.
        contract: Contract,
    },
    /// R8.6: the half-whister writes `v·q/2` whists on the declarer.
    HalfWhist {
        /// The contract.
        contract: Contract,
    },
    /// R8.2: the contract failed by `undertricks`; the declarer's mountain takes `v·u`.
    Failed {
        /// The contract.
        contract: Contract,
        /// Tricks short of the level.
        undertricks: u8,
        /// A ten played without whist.
        unwhisted: bool,
    },
    /// R8.2: consolation of `v·u` whists on the failed declarer, `owner`'s consolation, written
    /// by the line's seat as `by` says.
    Consolation {
        /// The contract.
        contract: Contract,
        /// Tricks short of the level.
        undertricks: u8,
        /// The seat whose consolation it is.
        owner: Seat,
        /// Who writes it in whose name.
        by: Consoler,
    },
    /// R8.3: trick whists, `v × tricks`.
    TrickWhists {
        /// The contract.
        contract: Contract,
        /// The defence tricks counted.
        tricks: u8,
        /// `whist_split = "gentleman"`: half of a lone whister's trick whists (R8.3).
        split: bool,
        /// The four-player dealer's whist over both defender hands (R11.4).
        dealer: bool,
    },
    /// R8.4: the defence fell `short` tricks below its quota; `half` under
    /// `whist_responsibility = "half"`.
    Shortfall {
        /// The contract.
        contract: Contract,
        /// Tricks charged to this seat.
        short: u8,
        /// Entries at half size.
        half: bool,
    },
    /// R8.8: misère without a trick, 10 pool points.
    MisereMade,
    /// R8.8: misère with `tricks` tricks, `10·t` on the mountain.
    MisereFailed {
        /// Tricks taken.
        tricks: u8,
    },
    /// R8.9: raspasy tricks at the deal's `price`; `charged` after `raspasy_amnesty`.
    RaspasyTricks {
        /// Tricks taken.
        tricks: u8,
        /// Tricks charged (fewer under amnesty).
        charged: u8,
        /// The deal's price per trick (R8.9's progression).
        price: u32,
        /// The four-player dealer's tricks won by the talon (R11.3).
        dealer: bool,
    },
    /// R8.9: no trick on raspasy earns the zero bonus.
    RaspasyZero {
        /// The deal's price per trick.
        price: u32,
        /// The four-player dealer (R11.3).
        dealer: bool,
    },
    /// R11.6: the four-player dealer's talon bonus, `U · v` whists on the declarer.
    TalonBonus {
        /// The named contract.
        contract: Contract,
        /// The talon's units `U`.
        units: u8,
    },
    /// R4.5: the declarer surrendered, `surrender · v(L)` on his mountain.
    Surrender {
        /// The winning bid, as a contract of its level.
        bid: Contract,
        /// The table's `surrender` factor.
        factor: u8,
    },
    /// R9.2: `earner`'s pool points beyond the target help the highest unclosed pool; the
    /// receiver's pool line, and the earner's 10 whists per point on the receiver.
    Help {
        /// Whose points they are.
        earner: Seat,
        /// Points passed to this receiver.
        points: i64,
    },
    /// R9.3: `earner`'s pool points left over become mountain points, off his own mountain,
    /// the rest on each opponent's.
    Overflow {
        /// Whose points they are.
        earner: Seat,
        /// Pool points converted.
        points: i64,
    },
    /// R10.3: an agreed early stop charges a pool `missing` points below the target
    /// (`pool_point_whists / 10` mountain points each); the settlement's adjustment only.
    OpenPool {
        /// Pool points missing to the target.
        missing: i64,
    },
}

impl Why {
    /// The rule id that gives this entry (as in `docs/rules.md`).
    #[must_use]
    pub fn rule(self) -> &'static str {
        match self {
            Why::Made { .. } => "R8.1",
            Why::Failed { .. } => "R8.2",
            Why::Consolation { by, .. } => match by {
                Consoler::Defender => "R8.2",
                Consoler::Returner => "R8.7",
                Consoler::Dealer => "R11.2",
                Consoler::DealerInPlace => "R11.4",
            },
            Why::TrickWhists { dealer: true, .. } => "R11.4",
            Why::TrickWhists { dealer: false, .. } => "R8.3",
            Why::Shortfall { .. } => "R8.4",
            Why::Conceded { .. } => "R8.5",
            Why::HalfWhistStands { .. } | Why::HalfWhist { .. } => "R8.6",
            Why::MisereMade | Why::MisereFailed { .. } => "R8.8",
            Why::RaspasyTricks { dealer: true, .. } | Why::RaspasyZero { dealer: true, .. } => {
                "R11.3"
            }
            Why::RaspasyTricks { dealer: false, .. } | Why::RaspasyZero { dealer: false, .. } => {
                "R8.9"
            }
            Why::TalonBonus { .. } => "R11.6",
            Why::Surrender { .. } => "R4.5",
            Why::Help { .. } => "R9.2",
            Why::Overflow { .. } => "R9.3",
            Why::OpenPool { .. } => "R10.3",
        }
    }
}

/// A mountain entry written as whists under `mountain_as_whists = factor`: an entry `+m` on
/// `seat` becomes `factor·m` whists by every other player on him, `−m` the reverse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Converted {
    /// The seat the mountain entry was for.
    pub seat: Seat,
    /// The mountain entry (negative for R9.3's conversion of pool points).
    pub mountain: i64,
    /// `mountain_as_whists`.
    pub factor: u32,
}

/// One entry a deal wrote: `amount` in `seat`'s `column`, for the reason `why`. In JSON the
/// column and the reason are flattened into the line:
/// `{"seat": 1, "column": "whists", "on": 0, "amount": 12, "reason": "trick_whists", …}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Line {
    /// Whose column: the owner of the pool or mountain, or the writer of the whists.
    pub seat: Seat,
    /// Where it is written.
    #[serde(flatten)]
    pub column: Column,
    /// What is added (negative only for a mountain reduced by R9.3).
    pub amount: i64,
    /// Why.
    #[serde(flatten)]
    pub why: Why,
    /// Set when the entry was a mountain entry written as whists (`mountain_as_whists`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub converted: Option<Converted>,
    /// The entry of a dark deal, doubled (R8.11); absent when not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dark: bool,
}

impl Line {
    /// A line written as the rule says, not converted.
    pub(crate) fn new(seat: Seat, column: Column, amount: i64, why: Why) -> Line {
        Line {
            seat,
            column,
            amount,
            why,
            converted: None,
            dark: false,
        }
    }

    /// The rule id of the line ([`Why::rule`]).
    #[must_use]
    pub fn rule(&self) -> &'static str {
        self.why.rule()
    }
}
