//! The lobby's preview of a game in progress (`docs/protocol.md`, "The lobby"): the deal's
//! number, its contract, the tricks taken so far, whose turn it is, and the sheet's totals.
//!
//! A preview holds nothing a spectator of the table could not see: [`TablePreview::of`]
//! projects the deal for [`Viewer::Spectator`] itself and reads only that view and the
//! sheet (public to everybody at the table). The type has no field that could hold a card.

use pref_core::view::DealKind;
use pref_core::{Bid, Contract, Deal, Profile, Seat, Sheet, Stage, Viewer};
use serde::{Deserialize, Serialize};

/// What the live list shows of a game in progress on a public table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TablePreview {
    /// The deal shown, counted from 1: the one in progress, or between deals the last one.
    pub deal: u32,
    /// The shown deal's contract as everybody knows it.
    pub contract: PreviewContract,
    /// Where the shown deal stands.
    pub stage: Stage,
    /// The seat whose call or card is next; absent between deals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<Seat>,
    /// Tricks taken so far in the shown deal, by seat.
    pub tricks: Vec<u8>,
    /// Pool per seat.
    pub pool: Vec<i64>,
    /// Mountain per seat.
    pub mountain: Vec<i64>,
    /// Each seat's balance in whists were the game settled now (R10.1, every pool as it
    /// stands), exact (`"35/3"` where it is not whole); sums to zero.
    pub balance: Vec<String>,
    /// A practice table (hints allowed, never rated); absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub practice: bool,
}

/// The shown deal's contract, as public as the auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum PreviewContract {
    /// Still bidding: the standing bid and who holds it (absent before the first bid).
    Bidding {
        /// The standing bid.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bid: Option<Bid>,
        /// Its holder.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<Seat>,
    },
    /// A trick contract: its declarer, and the contract once named (R4.3; before, the bid
    /// that won the auction).
    Game {
        /// The declarer.
        declarer: Seat,
        /// The contract named, or the winning bid while the declarer discards.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        contract: Option<Contract>,
    },
    /// Misère.
    Misere {
        /// The declarer.
        declarer: Seat,
    },
    /// Everybody passed: raspasy.
    Raspasy,
}

impl TablePreview {
    /// The preview of a game whose shown deal is `deal` (its number from 0; `None` before
    /// the first), with `sheet` under `profile`. The deal is read only as a spectator sees
    /// it.
    #[must_use]
    pub fn of(
        deal: Option<(u32, &Deal)>,
        sheet: &Sheet,
        profile: &Profile,
        practice: bool,
    ) -> TablePreview {
        let players = sheet.pool().len();
        let (number, contract, stage, turn, tricks) = match deal {
            Some((n, deal)) => {
                let view = deal.view(Viewer::Spectator);
                (
                    n + 1,
                    PreviewContract::of(&view),
                    view.stage,
                    view.turn,
                    view.tricks_taken,
                )
            }
            None => (
                0,
                PreviewContract::Bidding {
                    bid: None,
                    by: None,
                },
                Stage::Auction,
                None,
                vec![0; players],
            ),
        };
        TablePreview {
            deal: number,
            contract,
            turn: match stage {
                Stage::Finished => None,
                Stage::Auction
                | Stage::Discard
                | Stage::Declare
                | Stage::Whist
                | Stage::Defence
                | Stage::Play => turn,
            },
            stage,
            tricks,
            pool: sheet.pool().to_vec(),
            mountain: sheet.mountain().to_vec(),
            balance: sheet
                .settlement(profile, false)
                .iter()
                .map(ToString::to_string)
                .collect(),
            practice,
        }
    }
}

impl PreviewContract {
    /// The contract a spectator's `view` of a deal shows.
    #[must_use]
    pub fn of(view: &pref_core::DealView) -> PreviewContract {
        let bidding = PreviewContract::Bidding {
            bid: view.highest.map(|h| h.bid),
            by: view.highest.map(|h| h.seat),
        };
        match view.kind {
            DealKind::Auction => bidding,
            DealKind::Game => match view.declarer {
                Some(declarer) => PreviewContract::Game {
                    declarer,
                    contract: view
                        .contract
                        .or_else(|| view.highest.and_then(|h| h.bid.contract())),
                },
                None => bidding,
            },
            DealKind::Misere => match view.declarer {
                Some(declarer) => PreviewContract::Misere { declarer },
                None => bidding,
            },
            DealKind::Raspasy => PreviewContract::Raspasy,
        }
    }
}
