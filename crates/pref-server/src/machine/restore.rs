//! Bringing a stored table back, and its record: the two places the machine meets the
//! game's whole history.

use pref_core::{Game, Record};

use super::{Machine, NewTable, Occupant, RecordError, Stage, StoredDeal, StoredSeat, settlement};

impl Machine {
    /// Rebuilds a stored table by replaying its decks and actions through the core; `over`
    /// says the table was stored as over.
    ///
    /// # Errors
    /// A message if a stored deal or action no longer replays.
    pub fn restore(
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
    /// game only where `reveal_after_deal` shows finished deals to everybody anyway.
    ///
    /// # Errors
    /// [`RecordError`].
    pub fn record(&self) -> Result<String, RecordError> {
        let game = self.game().ok_or(RecordError::NotStarted)?;
        let over = matches!(self.stage, Stage::Over { .. });
        if !over && !self.profile.reveal_after_deal() {
            return Err(RecordError::Hidden);
        }
        let names: Vec<String> = (0..self.players())
            .map(|s| match self.occupant(s) {
                Some(o) => o.name.clone(),
                None => format!("seat {s}"),
            })
            .collect();
        let agreed = match &self.stage {
            Stage::Over { settlement, .. } => settlement.agreed,
            Stage::Lobby | Stage::Playing { .. } | Stage::BetweenDeals { .. } => false,
        };
        let record = Record::from_game(game, &names)
            .map_err(|e| RecordError::Internal(e.to_string()))?
            .with_agreed_stop(agreed);
        Ok(record.to_json_string())
    }
}
