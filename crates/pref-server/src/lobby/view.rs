//! The lobby as a node last read it, and what changed since: the numbered items its
//! sockets are sent. A public table is listed while it is in the lobby with a free seat;
//! a public game in progress is in the live list, busiest first, with its preview as its
//! node last stored it.

use std::collections::BTreeMap;

use pref_protocol::{LiveTable, LobbyMessage, LobbyView, PublicTable, RatingShown, SeekCount};

use super::store::PublicRow;

/// The lobby as last read, with the number of its last item.
#[derive(Debug, Default)]
pub(super) struct Known {
    /// The last item's number.
    n: u64,
    lobby: Read,
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
        | LobbyMessage::Live { n, .. }
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
                        rated: r.rated.clone(),
                        ratings: ratings(r),
                        preview: None,
                    },
                    r.preview.as_deref(),
                )),
                _ => {}
            }
        }
        // Busiest first; the older game first among equals (the rows come oldest first).
        live.sort_by_key(|(l, _)| std::cmp::Reverse(l.spectators));
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

    /// Takes `fresh` as the lobby; returns the items that tell what changed, numbered.
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
        if old.live != self.lobby.live {
            self.n += 1;
            items.push(LobbyMessage::Live {
                n: self.n,
                live: self.lobby.live.clone(),
            });
        }
        if old.seeking != self.lobby.seeking {
            self.n += 1;
            items.push(LobbyMessage::Seeking {
                n: self.n,
                seeking: self.lobby.seeking.clone(),
            });
        }
        items
    }

    /// Takes `counts` as the grid's counts, the tables as last read; returns the item that
    /// tells the change, numbered, if they changed (a step that read only the seeks).
    pub(super) fn update_seeking(
        &mut self,
        counts: &[(String, String, i64)],
    ) -> Option<LobbyMessage> {
        let fresh = seeking(counts);
        if fresh == self.lobby.seeking {
            return None;
        }
        self.lobby.seeking = fresh;
        self.n += 1;
        Some(LobbyMessage::Seeking {
            n: self.n,
            seeking: self.lobby.seeking.clone(),
        })
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
