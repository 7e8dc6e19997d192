//! A table rebuilt from the database after a restart or a panic: the stored profile and
//! seats, every deal replayed through the core, the clock and the fair deals restored.

use pref_core::{Profile, ProfileError, Seat};
use pref_protocol::BotLevel;

use super::{Table, clock, fair};
use crate::config::Limits;
use crate::ids::{Secret, TokenHash};
use crate::machine::clock::Clock;
use crate::machine::{Machine, NewTable, Stage, StoredSeat};
use crate::store::{Store, Stored, TableRow};

impl Table {
    /// Rebuilds a stored table by replaying its decks and actions through the core.
    ///
    /// # Errors
    /// A message if the stored profile or a stored action no longer replays.
    pub fn restore(row: TableRow, store: Store, limits: Limits) -> Result<Table, String> {
        let profile = stored_profile(&row.profile).map_err(|e| e.to_string())?;
        let mut seats = Vec::with_capacity(row.seats.len());
        let mut bot_keys = [None, None, None, None];
        for s in row.seats {
            let bot = match s.bot.as_deref() {
                None => None,
                Some(name) => Some(
                    BotLevel::parse(name)
                        .ok_or_else(|| format!("seat {}: unknown bot level {name:?}", s.seat))?,
                ),
            };
            let token = match (bot, bot_keys.get_mut(usize::from(s.seat))) {
                (Some(_), Some(key)) => TokenHash::of(key.insert(Secret::random())),
                (Some(_) | None, _) => s.token,
            };
            seats.push(StoredSeat {
                seat: s.seat,
                name: s.name,
                token,
                bot,
            });
        }
        let decks: Vec<_> = row.deals.iter().map(|d| d.deck).collect();
        let timed: Vec<_> = row
            .deals
            .iter()
            .map(|d| {
                let acts = d.actions.iter().zip(&d.stamps);
                (
                    d.at_ms,
                    acts.map(|((s, _), t)| (*s, t.at_ms, t.auto)).collect(),
                )
            })
            .collect();
        let deals: Vec<_> = row.deals.into_iter().map(|d| (d.deck, d.actions)).collect();
        let mut machine = Machine::restore(
            NewTable {
                host: row.host,
                profile,
                spectator_chat: row.spectator_chat,
                first_dealer: Seat(row.first_dealer),
            },
            seats,
            &deals,
            row.state == Stored::Playing,
            row.state == Stored::Over,
        )?;
        machine.set_fair_table(pref_core::fair::TableTag::of(&row.id.expose()));
        machine.restore_fair(fair::stored(row.fair)?, &decks)?;
        let mut table = Table::with(row.no, machine, store, limits);
        table.bot_keys = bot_keys;
        if let Some(clock) = row.clock {
            let info: pref_protocol::clock::ClockInfo =
                serde_json::from_value(clock).map_err(|e| format!("stored clock: {e}"))?;
            let playing = matches!(table.machine.stage(), Stage::Playing { .. });
            let now = table.now_ms();
            table.times = clock::times(&timed);
            table.clock = Some(Clock::replay(
                info.control,
                info.paused,
                &timed,
                playing,
                now,
            ));
        }
        table.arm_fair();
        Ok(table)
    }
}

/// Reads a table's stored profile. Tables store the resolved profile ([`Profile::to_json`]:
/// every key, no preset), so a preset file edited later changes no game in progress. A table
/// stored before that kept the request (a preset's name or `{"preset": …, key: value}`),
/// which can only be resolved with today's presets.
///
/// # Errors
/// [`ProfileError`] naming the key that no longer reads.
fn stored_profile(stored: &serde_json::Value) -> Result<Profile, ProfileError> {
    match stored {
        serde_json::Value::Object(map) if !map.contains_key("preset") => {
            Profile::from_resolved(stored)
        }
        _ => Profile::from_json(stored),
    }
}
