//! A deal that ended by a claim all accepted (R6.7), weighed against open-hand play: from
//! the trick boundary of the claim, what best play by everybody would have given the
//! declarer, against what the claim gave him. A claim that gave a side fewer tricks than
//! that cost it those tricks (or was a gift from the other side).

use pref_bot::{Position, Solver};
use pref_core::{AcceptedClaim, Card, Claim, Outcome, Seat};

use crate::line::value;

/// Which side of a contract or misère.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The declarer.
    Declarer,
    /// The defence (the other players of the deal together).
    Defence,
}

/// An accepted claim (the core's [`AcceptedClaim`]: `seat` and `claim`) against open-hand
/// play from its trick boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClaimAnalysis {
    /// The claimer.
    pub seat: Seat,
    /// The claim: the remaining tricks per seat.
    pub claim: Claim,
    /// Tricks completed when the claim was made.
    pub trick: u8,
    /// The declarer, whose tricks the values count.
    pub declarer: Seat,
    /// The declarer's tricks for the deal as the claim settled them.
    pub claimed: u8,
    /// The declarer's tricks for the deal with best open-hand play from the claim on.
    pub open_hand: u8,
    /// The side the claim gave fewer tricks than open-hand play would have, and how many
    /// fewer; `None` when the claim gave exactly what best play gives.
    pub fewer: Option<(Side, u8)>,
}

/// Weighs the claim `accepted` that ended a deal whose play as the solver sees it
/// is `start` and the cards `line` (whole tricks: a claim is made at a trick boundary);
/// `active` maps the solver's players to seats, `outcome` is the deal's.
pub(crate) fn analyse(
    solver: &mut Solver,
    accepted: AcceptedClaim,
    start: &Position,
    line: &[Card],
    active: &[Seat],
    outcome: &Outcome,
) -> Option<ClaimAnalysis> {
    let mut pos = start.clone();
    let mut taken = [0u8; 3];
    for &card in line {
        let (next, won) = pos.play(card).ok()?;
        if let Some(Some(w)) = won {
            taken[w] += 1;
        }
        pos = next;
    }
    let target = pos.target();
    let declarer = active[target];
    let open_hand = value(solver, &pos, taken[target]);
    let claimed = outcome.tricks?[declarer.index()];
    let fewer = match claimed.cmp(&open_hand) {
        std::cmp::Ordering::Less => Some((Side::Declarer, open_hand - claimed)),
        std::cmp::Ordering::Greater => Some((Side::Defence, claimed - open_hand)),
        std::cmp::Ordering::Equal => None,
    };
    Some(ClaimAnalysis {
        seat: accepted.seat,
        claim: accepted.claim,
        trick: pos.tricks_done,
        declarer,
        claimed,
        open_hand,
        fewer,
    })
}
