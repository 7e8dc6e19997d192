//! A table rebuilt from the database after a restart or a panic: the stored profile and
//! seats, every deal replayed through the core, the clock and the fair deals restored.

use pref_core::{Profile, ProfileError, Seat};
use pref_protocol::BotLevel;

use super::{Table, clock, fair};
use crate::config::Limits;
use crate::ids::{Secret, TokenHash};
use crate::store::{Outage, Store, Stored, TableRow};
use crate::table::machine::clock::Clock;
use crate::table::machine::{Machine, NewTable, Stage, StoredSeat};

impl Table {
    /// Rebuilds a stored table by replaying its decks and actions through the core.
    ///
    /// # Errors
    /// A message if the stored profile or a stored action no longer replays.
    pub fn restore(row: TableRow, store: Store, limits: Limits) -> Result<Table, String> {
        Table::restore_from(row, store, limits, None)
    }

    /// [`Table::restore`], with the clock's mapping of the runtime's clock to Unix
    /// milliseconds given (`origin`, for the tests: a table restored on the timeline of the
    /// one it replaces) or taken now (`None`).
    ///
    /// # Errors
    /// As [`Table::restore`].
    pub(super) fn restore_from(
        row: TableRow,
        store: Store,
        limits: Limits,
        origin: Option<(tokio::time::Instant, u64)>,
    ) -> Result<Table, String> {
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
                bot_account: s.bot_account,
                from_deal: s.from_deal,
                host: s.host,
            });
        }
        let decks: Vec<_> = row.deals.iter().map(|d| d.deck).collect();
        let mut timed: Vec<_> = row
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
                // A table stored before the key had a column keeps the key made from the hash.
                invite: row
                    .invite
                    .unwrap_or_else(|| TokenHash::of(&row.host.legacy_invite_key())),
                profile,
                spectator_chat: row.spectator_chat,
                first_dealer: Seat(row.first_dealer),
            },
            seats,
            &deals,
            row.state == Stored::Playing,
            row.state == Stored::Over,
        )?;
        machine.set_people_only(row.people_only);
        machine.set_fair_table(pref_core::fair::TableTag::of(&row.id.expose()));
        if let Some(hints) = row.practice {
            machine.set_practice(hints);
        }
        if let Some(family) = row.rated.as_deref().and_then(pref_rating::Family::parse) {
            machine.set_rated(family);
        }
        machine.restore_fair(fair::stored(row.fair)?, &decks)?;
        let mut table = Table::with(row.no, machine, store, limits);
        if let Some(origin) = origin {
            table.origin = origin;
        }
        table.bot_keys = bot_keys;
        table.restore_chat(row.chat);
        if let Some(clock) = row.clock {
            let info: pref_protocol::clock::ClockInfo =
                serde_json::from_value(clock).map_err(|e| format!("stored clock: {e}"))?;
            let playing = matches!(table.machine.stage(), Stage::Playing { .. });
            let now = table.now_ms();
            let outages: Vec<_> = row
                .outages
                .iter()
                .map(|o| (o.deal_no, o.seq, o.ms))
                .collect();
            crate::table::machine::clock::credit_outages(&mut timed, &outages);
            table.times = clock::times(&timed);
            let backs: Vec<_> = row
                .backs
                .iter()
                .map(|b| (b.deal_no, b.seq, Seat(b.seat)))
                .collect();
            let mut replayed =
                Clock::replay_with(info.control, info.paused, &timed, &backs, playing, now);
            // Nobody served the table from its last mark until now: the running turn is
            // moved by that time, and the move is stored when the table runs.
            if let (Some(served), Some((_, last))) = (row.served_ms, timed.last()) {
                let ms = replayed.resume(served, now);
                if ms > 0 {
                    table.outage = Some(Outage {
                        deal_no: (timed.len() - 1) as u32,
                        seq: last.len() as u32,
                        ms,
                    });
                }
            }
            table.clock = Some(replayed);
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
