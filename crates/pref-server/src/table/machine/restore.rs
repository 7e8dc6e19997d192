//! Bringing a stored table back, its record and the record of one finished deal for its
//! analysis: the places the machine meets the game's whole history.

use pref_core::{ActionTime, Game, Record};

use crate::store::SeatFigures;

use super::{
    DealHidden, Machine, NewTable, Occupant, RecordError, Stage, StoredDeal, StoredSeat, settlement,
};

impl Machine {
    /// Rebuilds a stored table by replaying its decks and actions through the core; `over`
    /// says the table was stored as over.
    ///
    /// # Errors
    /// A message if a stored deal or action no longer replays.
    pub(crate) fn restore(
        t: NewTable,
        seats: Vec<StoredSeat>,
        deals: &[StoredDeal],
        started: bool,
        over: bool,
    ) -> Result<Machine, String> {
        let mut m = Machine::new(t);
        for s in seats {
            if let Some(slot) = m.seats.get_mut(usize::from(s.seat)) {
                *slot = Some(Occupant {
                    name: s.name,
                    token: s.token,
                    sockets: 0,
                    bot: s.bot,
                    bot_account: s.bot_account,
                    host: s.host,
                    from_deal: s.from_deal,
                    since: 0,
                });
            }
        }
        if over && deals.is_empty() {
            m.stage = Stage::Over {
                game: None,
                last: None,
                deals: 0,
                settlement: settlement::<String>(true, &[], None),
            };
            return Ok(m);
        }
        if !started && !over {
            return Ok(m);
        }
        let mut game =
            Box::new(Game::new(m.profile.clone(), m.first_dealer).map_err(|e| e.to_string())?);
        let mut last = None;
        let mut seq = 0;
        for (i, (deck, actions)) in deals.iter().enumerate() {
            game.start_deal(deck)
                .map_err(|e| format!("deal {i}: {e}"))?;
            let mut shadow = *game.deal().ok_or("no deal after start")?;
            for (k, &(player, action)) in actions.iter().enumerate() {
                game.act(player, action)
                    .map_err(|e| format!("deal {i} action {k}: {e}"))?;
                let _ = shadow.act(player, action);
            }
            if game.deal().is_none() {
                last = Some(Box::new(shadow));
            }
            seq = actions.len() as u32;
        }
        let deals = deals.len() as u32;
        // A crash between the last action and the state change leaves a finished game
        // stored as playing; the replay knows better.
        m.stage = if let Some(balance) = game.settlement() {
            let settlement = settlement(false, &balance, Some(&game));
            Stage::Over {
                game: Some(game),
                last,
                deals,
                settlement,
            }
        } else if over {
            // Over without a closed pool: the host ended it by agreement (R10.3).
            let balance = game.agreed_settlement();
            let settlement = settlement(true, &balance, Some(&game));
            Stage::Over {
                game: Some(game),
                last,
                deals,
                settlement,
            }
        } else if game.deal().is_some() {
            Stage::Playing {
                game,
                deal_no: deals - 1,
                seq,
            }
        } else {
            Stage::BetweenDeals { game, last, deals }
        };
        Ok(m)
    }

    /// The record of the finished deals: all of them once the game is over; during the
    /// game only where `reveal_after_deal` shows finished deals to everybody anyway. `times`
    /// gives, per deal, the clock's fields of its actions (a table with a clock keeps them).
    ///
    /// # Errors
    /// [`RecordError`].
    pub(crate) fn record(&self, times: &[Vec<ActionTime>]) -> Result<String, RecordError> {
        let game = self.game().ok_or(RecordError::NotStarted)?;
        let over = matches!(self.stage, Stage::Over { .. });
        if !over && !self.profile.reveal_after_deal() {
            return Err(RecordError::Hidden);
        }
        let mut record = self.bare_record(game)?;
        let finished = record.deals().len();
        for (deal, t) in times.iter().enumerate().take(finished) {
            record
                .set_timing(deal, t.clone())
                .map_err(|e| RecordError::Internal(e.to_string()))?;
        }
        let record = self.with_fairness(record).map_err(RecordError::Internal)?;
        let record = self.with_hints(record).map_err(RecordError::Internal)?;
        Ok(record.to_json_string())
    }

    /// The record of `game`'s finished deals, without the clock's fields or the fairness
    /// proofs.
    fn bare_record(&self, game: &Game) -> Result<Record, RecordError> {
        let agreed = match &self.stage {
            Stage::Over { settlement, .. } => settlement.agreed,
            Stage::Lobby | Stage::Playing { .. } | Stage::BetweenDeals { .. } => false,
        };
        Ok(Record::from_game(game, &self.names())
            .map_err(|e| RecordError::Internal(e.to_string()))?
            .with_agreed_stop(agreed)
            .with_bots(&self.program_seats())
            .with_rated(self.rated.map(pref_rating::Family::as_str)))
    }

    /// Every seat's figures in a game that is over, for the accounts its seats are tied to
    /// (none for a game ended in the lobby, or whose record does not replay: a bug, logged).
    pub(crate) fn final_figures(&self) -> Vec<SeatFigures> {
        let Some(game) = self.game() else {
            return Vec::new();
        };
        match self.bare_record(game).and_then(|r| {
            SeatFigures::of_record(&r).map_err(|e| RecordError::Internal(e.to_string()))
        }) {
            Ok(f) => f,
            Err(e) => {
                tracing::error!(error = %e, "a finished game's figures are not counted");
                Vec::new()
            }
        }
    }

    /// The record (as [`Machine::record`] writes it) for the analysis of finished deal
    /// `deal`, once every card of it may be seen by every viewer: at the end of the deal
    /// where `reveal_after_deal` shows the hands to everybody, otherwise once the game is
    /// over. Whoever asks, seat or spectator, the answer is the same: a seat sees no more of
    /// a finished deal than a spectator does until the hands are shown to all.
    ///
    /// # Errors
    /// [`DealHidden`]: the game has not started, the deal is not finished (or not dealt),
    /// or its hands are still hidden.
    pub(crate) fn deal_record(&self, deal: usize) -> Result<Record, DealHidden> {
        let game = self.game().ok_or(DealHidden::NotStarted)?;
        // The deal in progress is already in the history (its actions are kept as they
        // come); only the ones before it are finished.
        let finished = game.history().len() - usize::from(game.deal().is_some());
        if deal >= finished {
            return Err(DealHidden::NotFinished { deal, finished });
        }
        let over = matches!(self.stage, Stage::Over { .. });
        if !over && !self.profile.reveal_after_deal() {
            return Err(DealHidden::Hidden);
        }
        let record = Record::from_game(game, &self.names())
            .map_err(|e| DealHidden::Internal(e.to_string()))?;
        self.with_fairness(record).map_err(DealHidden::Internal)
    }

    /// The players' names as the record gives them (`seat N` for an empty seat).
    fn names(&self) -> Vec<String> {
        (0..self.players())
            .map(|s| match self.occupant(s) {
                Some(o) => o.name.clone(),
                None => format!("seat {s}"),
            })
            .collect()
    }
}
