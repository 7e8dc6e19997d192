//! What everybody may see of the table, read off the machine: phase, summary, the deal
//! shown, whose turn it is, and the lobby's preview.

use pref_core::view::{SeatCard, TrickView, ViewEvent};
use pref_core::{Card, Deal, DealEntry, DealView, Seat, Viewer};
use pref_protocol::{
    AuctionCall, DealSoFar, DealStatus, Phase, SeatInfo, SheetView, Summary, TablePreview,
};

use super::{Machine, Stage};
use crate::table::wire::Turn;

impl Machine {
    /// The deal to show and its number: the one in progress, or the last one finished.
    #[must_use]
    pub(crate) fn shown_deal(&self) -> Option<(u32, &Deal)> {
        match &self.stage {
            Stage::Lobby => None,
            Stage::Playing { game, deal_no, .. } => game.deal().map(|d| (*deal_no, d)),
            Stage::BetweenDeals { last, deals, .. } | Stage::Over { last, deals, .. } => {
                last.as_deref().map(|d| (deals.saturating_sub(1), d))
            }
        }
    }

    /// The shown deal as `viewer` may see it, built by the core's projection: a seat whose
    /// occupant sat after the deal was dealt sees it as a spectator does.
    #[must_use]
    pub(crate) fn shown_view(&self, viewer: Viewer) -> Option<(u32, DealView)> {
        self.shown_deal()
            .map(|(n, d)| (n, d.view(self.deal_viewer(viewer, n))))
    }

    /// Whom deal `deal_no` is projected for when `viewer` looks at it: the seat itself while
    /// its occupant has held it since before that deal was dealt, otherwise (a newcomer
    /// looking at the deal his predecessor played, or an empty seat) a spectator.
    #[must_use]
    pub(crate) fn deal_viewer(&self, viewer: Viewer, deal_no: u32) -> Viewer {
        match viewer {
            Viewer::Spectator => Viewer::Spectator,
            Viewer::Seat(seat) => match self.occupant(seat.0) {
                Some(o) if o.from_deal <= deal_no => viewer,
                Some(_) | None => Viewer::Spectator,
            },
        }
    }

    /// Deals dealt so far, the one in progress included: the first deal a person seated
    /// now would hold his seat for.
    #[must_use]
    pub(crate) fn deals_dealt(&self) -> u32 {
        match &self.stage {
            Stage::Lobby => 0,
            Stage::Playing { deal_no, .. } => deal_no + 1,
            Stage::BetweenDeals { deals, .. } | Stage::Over { deals, .. } => *deals,
        }
    }

    /// The shown deal's auction, every call in order, from the game's history of the deal
    /// (the deal's own state keeps only each seat's last call).
    #[must_use]
    pub(crate) fn auction_log(&self) -> Vec<AuctionCall> {
        let shown = match &self.stage {
            Stage::Playing { .. } => true,
            Stage::BetweenDeals { last, .. } | Stage::Over { last, .. } => last.is_some(),
            Stage::Lobby => false,
        };
        match self.game().and_then(|g| g.history().last()) {
            Some(DealEntry::Played { actions, .. }) if shown => AuctionCall::log(actions),
            Some(DealEntry::Played { .. } | DealEntry::Scored { .. }) | None => Vec::new(),
        }
    }

    /// The shown deal's completed tricks and the talon cards everybody was shown, replayed
    /// from the game's history of the deal and projected for `viewer` (as the snapshot's
    /// deal is), so a reload or a late viewer can look back over the deal.
    #[must_use]
    pub(crate) fn so_far(&self, viewer: Viewer) -> DealSoFar {
        let mut out = DealSoFar::default();
        let (Some((deal_no, _)), Some(game)) = (self.shown_deal(), self.game()) else {
            return out;
        };
        let Some(DealEntry::Played {
            dealer,
            hands,
            talon,
            actions,
            ..
        }) = game.history().last()
        else {
            return out;
        };
        let players = self.players();
        let hands: Vec<Vec<Card>> = hands[..usize::from(players)]
            .iter()
            .map(|h| h.iter().collect())
            .collect();
        let Ok(mut deal) = Deal::from_hands(
            game.profile(),
            *dealer,
            &hands,
            talon,
            game.raspasy_streak(),
        ) else {
            return out;
        };
        let viewer = self.deal_viewer(viewer, deal_no);
        let mut trick: Vec<SeatCard> = Vec::new();
        for &(seat, action) in actions {
            let Ok(events) = deal.apply(seat, action) else {
                break;
            };
            for e in events.iter() {
                match e.project(viewer, players) {
                    ViewEvent::TalonTurned { cards } => out.talon = cards.to_vec(),
                    // A dark misère's talon, shown to its declarer alone (R4.7.1).
                    ViewEvent::TalonSeen {
                        cards: Some(cards), ..
                    } => out.talon = cards.to_vec(),
                    ViewEvent::TalonCardTurned { card, .. } => {
                        out.talon.push(card);
                        // At four, the dealer's talon card leads the trick (R11.3).
                        if players == 4 {
                            trick.push(SeatCard {
                                seat: *dealer,
                                card,
                            });
                        }
                    }
                    ViewEvent::Played { seat, card } => trick.push(SeatCard { seat, card }),
                    ViewEvent::TrickTaken { seat, .. } => out.tricks.push(TrickView {
                        cards: std::mem::take(&mut trick),
                        winner: seat,
                    }),
                    ViewEvent::Dealt { .. }
                    | ViewEvent::Looked { .. }
                    | ViewEvent::TalonSeen { cards: None, .. }
                    | ViewEvent::Called { .. }
                    | ViewEvent::AuctionWon { .. }
                    | ViewEvent::AllPassed
                    | ViewEvent::Discarded { .. }
                    | ViewEvent::Declared { .. }
                    | ViewEvent::Surrendered { .. }
                    | ViewEvent::Whisted { .. }
                    | ViewEvent::DefenceChosen { .. }
                    | ViewEvent::HandOpened { .. }
                    | ViewEvent::Claimed { .. }
                    | ViewEvent::Answered { .. }
                    | ViewEvent::ClaimAccepted { .. }
                    | ViewEvent::DealOver
                    | ViewEvent::Revealed(_) => {}
                }
            }
        }
        out
    }

    /// The protocol's name of the phase.
    #[must_use]
    pub(crate) fn phase(&self) -> Phase {
        match self.stage {
            Stage::Lobby => Phase::Lobby,
            Stage::Playing { .. } => Phase::Playing,
            Stage::BetweenDeals { .. } => Phase::BetweenDeals,
            Stage::Over { .. } => Phase::Over,
        }
    }

    /// Deals finished so far.
    #[must_use]
    pub(crate) fn deals_finished(&self) -> u32 {
        match &self.stage {
            Stage::Lobby => 0,
            Stage::Playing { deal_no, .. } => *deal_no,
            Stage::BetweenDeals { deals, .. } | Stage::Over { deals, .. } => *deals,
        }
    }

    /// The public summary.
    #[must_use]
    pub(crate) fn summary(&self) -> Summary {
        Summary {
            phase: self.phase(),
            players: self.players(),
            profile: self.profile.to_json(),
            seats: (0..self.players())
                .map(|s| {
                    let o = self.occupant(s);
                    SeatInfo {
                        seat: s,
                        name: o.map(|o| o.name.clone()),
                        connected: o.is_some_and(|o| o.sockets > 0 || o.bot.is_some()),
                        bot: o.and_then(|o| o.bot),
                        bot_account: o.is_some_and(|o| o.bot_account),
                        reserved: self.reserved(s).map(str::to_owned),
                    }
                })
                .collect(),
            deals_finished: self.deals_finished(),
            spectator_chat: self.spectator_chat,
            people_only: self.people_only,
            version: self.version,
            sheet: self.game().map(|g| SheetView::of(g.sheet())),
            settlement: match &self.stage {
                Stage::Over { settlement, .. } => Some(settlement.clone()),
                Stage::Lobby | Stage::Playing { .. } | Stage::BetweenDeals { .. } => None,
            },
            preset: self.preset_name(),
            practice: self.practice(),
            rated: self.rated.map(|f| f.as_str().to_owned()),
            // The count as the viewers were last told it, so that a snapshot and the
            // items before it agree at every version.
            spectators: self.spectators_told,
            rematch: self.rematch.clone(),
            clock: None,
            stop: self.stop_view(),
        }
    }

    /// The lobby's preview of the game (`pref_protocol::preview`): the shown deal as a
    /// spectator sees it and the sheet; `None` in the lobby, before the game starts.
    #[must_use]
    pub(crate) fn preview(&self) -> Option<TablePreview> {
        let game = self.game()?;
        Some(TablePreview::of(
            self.shown_deal(),
            game.sheet(),
            game.profile(),
            self.practice(),
        ))
    }

    /// The spectators as the viewers were last told them (the summary's count).
    #[must_use]
    pub(crate) fn summary_spectators(&self) -> u32 {
        self.spectators_told
    }

    /// Whose turn it is, that player's legal actions, and the shown deal's public state.
    #[must_use]
    pub(crate) fn turn(&self) -> Turn {
        let deal = self
            .shown_deal()
            .map(|(_, d)| DealStatus::of(&d.view(Viewer::Spectator)));
        Turn {
            deal,
            ..self.to_act()
        }
    }

    fn to_act(&self) -> Turn {
        match &self.stage {
            Stage::Playing { game, .. } => match game.deal() {
                Some(deal) => {
                    let to_act = deal.to_act();
                    Turn {
                        to_act,
                        legal: to_act
                            .map(|p| deal.legal_actions_for(p).into_iter().collect())
                            .unwrap_or_default(),
                        claims: [0, 1, 2, 3].map(|s| deal.claim_room(Seat(s))),
                        ..Turn::default()
                    }
                }
                None => Turn::default(),
            },
            Stage::Lobby | Stage::BetweenDeals { .. } | Stage::Over { .. } => Turn::default(),
        }
    }
}
