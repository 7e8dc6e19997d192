//! The lobby as a node last read it, and what changed since: the numbered items its
//! sockets are sent. A public table is listed while it is in the lobby with a free seat;
//! a public game in progress is in the live list, busiest first, with its preview as its
//! node last stored it.

use std::collections::BTreeMap;

use pref_protocol::{LiveTable, LobbyMessage, LobbyView, PublicTable, RatingShown, SeekCount};

use super::store::PublicRow;

/// A step that read only the seeks sends the grid's counts alone only when none went out
/// for this long (ms). With fifty seeks a second nearly every step of the follower changes
/// them, and each change was one more frame to every lobby socket (fourteen a second each at
/// full load, seven with the counts held to one per 250 ms). A read of the public tables
/// (every tick, `lobby.lobby_tick_ms`, and at a public table's change) takes the counts
/// along with its own items, in the same write to each socket; so on a busy lobby the
/// counts go with the ticks, and in a quiet one a seek is counted at once. Longer than the
/// default tick (500 ms), so a seek's step does not slip a lone frame between two ticks.
pub(super) const SEEKING_EVERY_MS: i64 = 750;

/// The lobby as last read, with the number of its last item.
#[derive(Debug, Default)]
pub(super) struct Known {
    /// The last item's number.
    n: u64,
    lobby: Read,
    /// The grid's counts as last sent, and when (ms since 1970; `None` before the first).
    seeking_sent: (Vec<SeekCount>, Option<i64>),
}

/// The lobby read from the database once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Read {
    /// The listed tables by id, each with when it was opened (`waiting_secs` left 0).
    tables: BTreeMap<String, (PublicTable, i64)>,
    live: Vec<LiveTable>,
    seeking: Vec<SeekCount>,
}

/// The number of a shared item; `None` for what concerns one socket only.
pub(super) fn number(item: &LobbyMessage) -> Option<u64> {
    match item {
        LobbyMessage::Listed { n, .. }
        | LobbyMessage::Unlisted { n, .. }
        | LobbyMessage::LiveChanged { n, .. }
        | LobbyMessage::Seeking { n, .. } => Some(*n),
        LobbyMessage::Snapshot { .. }
        | LobbyMessage::Waiting { .. }
        | LobbyMessage::Paired { .. }
        | LobbyMessage::Error { .. } => None,
    }
}

/// The grid's counts of `counts` (seekers per preset and clock).
fn seeking(counts: &[(String, String, i64)]) -> Vec<SeekCount> {
    counts
        .iter()
        .map(|(preset, clock, n)| SeekCount {
            preset: preset.clone(),
            clock: clock.clone(),
            seeking: u32::try_from(*n).unwrap_or(u32::MAX),
        })
        .collect()
}

/// The item numbered `n` that turns the live list `old` into `fresh`: the entries new or
/// changed (in `fresh`'s order) and the ids gone; `None` when nothing changed. Only what
/// changed is sent: the whole list is 14 KB for fifty games with their previews, resent to
/// every lobby socket at every change of one of them (`docs/performance.md`).
fn live_changed(old: &[LiveTable], fresh: &[LiveTable], n: u64) -> Option<LobbyMessage> {
    let before: std::collections::HashMap<&str, &LiveTable> =
        old.iter().map(|l| (l.id.as_str(), l)).collect();
    let now: std::collections::HashSet<&str> = fresh.iter().map(|l| l.id.as_str()).collect();
    let games: Vec<LiveTable> = fresh
        .iter()
        .filter(|l| before.get(l.id.as_str()) != Some(l))
        .cloned()
        .collect();
    let gone: Vec<String> = old
        .iter()
        .filter(|l| !now.contains(l.id.as_str()))
        .map(|l| l.id.clone())
        .collect();
    (!games.is_empty() || !gone.is_empty()).then_some(LobbyMessage::LiveChanged { n, games, gone })
}

fn waited(created_ms: i64, now_ms: i64) -> u64 {
    u64::try_from((now_ms - created_ms) / 1000).unwrap_or(0)
}

impl Known {
    /// The lobby of `rows` (public tables), `seats` (`(table_no, seat, name)`), `rated`
    /// (the ratings at rated tables, `(table_no, seat, rating)`) and `counts` (seekers per
    /// preset and clock), keeping the `max_listed` longest waiting tables and the `max_live`
    /// busiest games.
    pub(super) fn read(
        rows: &[PublicRow],
        seats: &[(i64, u8, String)],
        rated: &[(i64, u8, RatingShown)],
        counts: &[(String, String, i64)],
        (max_listed, max_live): (u32, u32),
    ) -> Read {
        // The seats by table, read once: a thousand public games have three thousand seats.
        let mut by_table: std::collections::HashMap<i64, Vec<(u8, &String)>> =
            std::collections::HashMap::new();
        for (no, seat, name) in seats {
            by_table.entry(*no).or_default().push((*seat, name));
        }
        let names = |r: &PublicRow| {
            let mut names = vec![None; usize::from(r.players)];
            for (seat, name) in by_table.get(&r.no).into_iter().flatten() {
                if let Some(place) = names.get_mut(usize::from(*seat)) {
                    *place = Some((*name).clone());
                }
            }
            names
        };
        let ratings = |r: &PublicRow| {
            if r.rated.is_none() {
                return Vec::new();
            }
            let mut ratings = vec![None; usize::from(r.players)];
            for (_, seat, rating) in rated.iter().filter(|(no, _, _)| *no == r.no) {
                if let Some(place) = ratings.get_mut(usize::from(*seat)) {
                    *place = Some(*rating);
                }
            }
            ratings
        };
        let mut tables = BTreeMap::new();
        let mut live = Vec::new();
        for r in rows {
            let seats = names(r);
            match r.state.as_str() {
                "lobby"
                    if seats.iter().any(Option::is_none)
                        && tables.len() < usize::try_from(max_listed).unwrap_or(usize::MAX) =>
                {
                    let table = PublicTable {
                        id: r.id.clone(),
                        preset: r.preset.clone(),
                        differs: serde_json::from_str(&r.differs).unwrap_or_default(),
                        clock: r.clock.clone(),
                        players: r.players,
                        seats,
                        host: r.host.clone(),
                        waiting_secs: 0,
                        rated: r.rated.clone(),
                        ratings: ratings(r),
                    };
                    tables.insert(r.id.clone(), (table, r.created_ms));
                }
                "playing" => live.push((
                    LiveTable {
                        id: r.id.clone(),
                        preset: r.preset.clone(),
                        clock: r.clock.clone(),
                        seats: seats.into_iter().map(Option::unwrap_or_default).collect(),
                        spectators: u32::try_from(r.watchers).unwrap_or(0),
                        opened: u64::try_from(r.created_ms / 1000).unwrap_or(0),
                        rated: r.rated.clone(),
                        ratings: ratings(r),
                        preview: None,
                    },
                    r.preview.as_deref(),
                )),
                _ => {}
            }
        }
        // Busiest first; the older game first among equals, as a client orders the list.
        live.sort_by(|(a, _), (b, _)| a.busiest_first(b));
        live.truncate(usize::try_from(max_live).unwrap_or(usize::MAX));
        // The previews of the games listed only: the others' are not read.
        let live = live
            .into_iter()
            .map(|(l, preview)| LiveTable {
                preview: preview.and_then(|p| serde_json::from_str(p).ok()),
                ..l
            })
            .collect();
        let seeking = seeking(counts);
        Read {
            tables,
            live,
            seeking,
        }
    }

    /// Takes `fresh` as the lobby; returns the items that tell what changed, numbered: the
    /// grid's counts among them whenever they differ from those last sent, however
    /// recently ([`SEEKING_EVERY_MS`] holds back only a step that read the seeks alone).
    pub(super) fn update(&mut self, fresh: Read, now_ms: i64) -> Vec<LobbyMessage> {
        let mut items = Vec::new();
        let old = std::mem::replace(&mut self.lobby, fresh);
        for id in old
            .tables
            .keys()
            .filter(|id| !self.lobby.tables.contains_key(*id))
        {
            self.n += 1;
            items.push(LobbyMessage::Unlisted {
                n: self.n,
                id: id.clone(),
            });
        }
        for (id, (table, created)) in &self.lobby.tables {
            if old.tables.get(id).map(|(t, _)| t) != Some(table) {
                self.n += 1;
                items.push(LobbyMessage::Listed {
                    n: self.n,
                    table: PublicTable {
                        waiting_secs: waited(*created, now_ms),
                        ..table.clone()
                    },
                });
            }
        }
        if let Some(item) = live_changed(&old.live, &self.lobby.live, self.n + 1) {
            self.n += 1;
            items.push(item);
        }
        items.extend(self.seeking_item(now_ms, 0));
        items
    }

    /// The item telling the grid's counts, numbered, if they differ from those last sent
    /// and those were sent at least `hold` ms before `now_ms`.
    fn seeking_item(&mut self, now_ms: i64, hold: i64) -> Option<LobbyMessage> {
        let (sent, at) = &self.seeking_sent;
        if *sent == self.lobby.seeking || at.is_some_and(|at| now_ms - at < hold) {
            return None;
        }
        self.seeking_sent = (self.lobby.seeking.clone(), Some(now_ms));
        self.n += 1;
        Some(LobbyMessage::Seeking {
            n: self.n,
            seeking: self.lobby.seeking.clone(),
        })
    }

    /// Takes `counts` as the grid's counts at `now_ms`, the tables as last read (a step
    /// that read only the seeks); returns the item that tells the change, numbered, if the
    /// counts differ from those last sent and those were sent long enough ago
    /// ([`SEEKING_EVERY_MS`]).
    pub(super) fn update_seeking(
        &mut self,
        counts: &[(String, String, i64)],
        now_ms: i64,
    ) -> Option<LobbyMessage> {
        self.lobby.seeking = seeking(counts);
        self.seeking_item(now_ms, SEEKING_EVERY_MS)
    }

    /// Whether the game that just started on public table `id` (listed at `created_ms`,
    /// no spectator yet) changes the lobby as last read, of at most `max_live` games: it
    /// leaves the listed tables if it was one, and it enters the live list if the list has
    /// room or it would come before the list's last game
    /// ([`LiveTable::busiest_first`]). A game without a spectator, opened after the
    /// others, comes last: in a full list of games it changes nothing, and reading every
    /// public table for it found nothing new (a paired table starts at every pairing).
    pub(super) fn changed_by_start(&self, (id, created_ms): (&str, i64), max_live: u32) -> bool {
        let live = &self.lobby.live;
        if self.lobby.tables.contains_key(id)
            || live.len() < usize::try_from(max_live).unwrap_or(usize::MAX)
        {
            return true;
        }
        let Some(last) = live.last() else {
            return false;
        };
        let opened = u64::try_from(created_ms / 1000).unwrap_or(0);
        // As `busiest_first(new game, last)`.
        let order = last
            .spectators
            .cmp(&0)
            .then(opened.cmp(&last.opened))
            .then_with(|| id.cmp(last.id.as_str()));
        order == std::cmp::Ordering::Less
    }

    /// The whole lobby at `now_ms`, longest waiting table first.
    pub(super) fn view(&self, now_ms: i64) -> LobbyView {
        let mut tables: Vec<_> = self.lobby.tables.values().collect();
        tables.sort_by_key(|(t, created)| (*created, t.id.clone()));
        LobbyView {
            n: self.n,
            tables: tables
                .into_iter()
                .map(|(t, created)| PublicTable {
                    waiting_secs: waited(*created, now_ms),
                    ..t.clone()
                })
                .collect(),
            live: self.lobby.live.clone(),
            seeking: self.lobby.seeking.clone(),
        }
    }
}
