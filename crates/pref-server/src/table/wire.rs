//! What a table broadcasts inside the server, and how each item reaches one viewer.
//!
//! The protocol's messages themselves are the `pref-protocol` crate's. [`News`] is what the
//! table broadcasts internally: it may hold a full [`Event`] and is deliberately not
//! `Serialize`; [`News::visible`] is the one way out, through the core's projection.

use pref_core::{Action, ClaimRoom, Event, Seat, Viewer};
use pref_protocol::clock::ClockView;
use pref_protocol::server::DealTag;
use pref_protocol::{DealStatus, Item, Public, TurnView};

/// What the table broadcasts internally. Holds full deal events: never serialized.
#[derive(Clone, Debug)]
pub enum News {
    /// A deal event in full.
    Deal {
        /// The deal's number.
        deal_no: u32,
        /// The event, with every hidden card.
        event: Event,
    },
    /// News without cards.
    Public(Public),
}

impl News {
    /// The news as `viewer` may see it; `None` means the viewer gets a stub (the version
    /// number alone). A seat whose occupant holds it from deal `from_deal` on sees an
    /// earlier deal's events as a spectator does (they are his predecessor's). Spectators see
    /// the chat only where the host lets them take part.
    #[must_use]
    pub fn visible(
        &self,
        viewer: Viewer,
        from_deal: u32,
        players: u8,
        spectator_chat: bool,
    ) -> Option<Item> {
        match self {
            News::Deal { deal_no, event } => {
                let viewer = match viewer {
                    Viewer::Seat(_) if *deal_no < from_deal => Viewer::Spectator,
                    Viewer::Seat(_) | Viewer::Spectator => viewer,
                };
                Some(Item::Deal {
                    kind: DealTag::Deal,
                    deal_no: *deal_no,
                    event: event.project(viewer, players),
                })
            }
            News::Public(Public::Chat { .. }) if viewer == Viewer::Spectator && !spectator_chat => {
                None
            }
            News::Public(p) => Some(Item::Public(p.clone())),
        }
    }
}

/// The turn after an action, for every viewer: who acts and that player's legal actions.
#[derive(Clone, Debug, Default)]
pub struct Turn {
    /// The player to act.
    pub to_act: Option<Seat>,
    /// That player's legal actions.
    pub legal: Vec<Action>,
    /// What each seat may claim now (R6.7), index = seat; any player of the deal may claim
    /// at a trick boundary, not only the one to act.
    pub claims: [Option<ClaimRoom>; 4],
    /// The shown deal's public state, for the turn an event carries.
    pub deal: Option<DealStatus>,
    /// The clock, at a table with one.
    pub clock: Option<Box<ClockView>>,
    /// The seat the autopilot moved for, when it made the action this turn follows.
    pub autopilot: Option<Seat>,
}

impl Turn {
    /// The turn as `viewer` may see it: legal actions only for the player to act.
    #[must_use]
    pub fn view(&self, viewer: Viewer) -> TurnView {
        TurnView {
            to_act: self.to_act,
            legal: match self.to_act {
                Some(s) if viewer == Viewer::Seat(s) => self.legal.clone(),
                Some(_) | None => Vec::new(),
            },
            claim: match viewer {
                Viewer::Seat(s) => self.claims.get(s.index()).copied().flatten(),
                Viewer::Spectator => None,
            },
            deal: self.deal.clone(),
            clock: self.clock.clone(),
            autopilot: self.autopilot,
        }
    }
}

/// A broadcast item: its version, the news, and for the last item of an action the turn.
#[derive(Clone, Debug)]
pub struct Stamped {
    /// The version number.
    pub version: u64,
    /// What happened.
    pub news: News,
    /// The turn after this item, on the last item of a batch.
    pub turn: Option<Turn>,
}
