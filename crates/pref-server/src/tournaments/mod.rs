//! Duplicate tournaments (`docs/tournaments.md`): a fixed list of deals under one preset,
//! every deck committed when the tournament is made and revealed at its close; each entrant
//! plays the deals in order at his own table, in seat 0, against bots of one level, and is
//! scored against everyone who held the same cards (`pref_core::duplicate`).
//!
//! - `deals.rs`: the decks, their commitments and places, the one-deal records.
//! - `table.rs`: an entrant's table for one deal (the core's game and the bots).
//! - `room.rs`: one tournament in memory: its entrants, their tables, the standings kept
//!   up to date as each deal ends, and what each viewer may see of them.
//! - `views.rs`: what a viewer may see: the page with its standings, a deal's comparison
//!   with the solver's par.
//! - `store.rs`: its rows; `http.rs`: its routes; `daily.rs`: the server's daily one.
//! - `news.rs`: what other nodes change, read from the rows when `NOTIFY`'d.
//!
//! The rows are the truth, shared by every node of a cluster; each node holds what it has
//! read of them (at start: every tournament that closed less than [`KEPT_DAYS`] ago; another
//! when its link is asked for or another node tells of it), rebuilt from the rows: the
//! entrants' stored actions replayed through the same bots.

pub(crate) mod daily;
mod deals;
pub(crate) mod http;
mod news;
mod room;
mod store;
mod table;
mod views;

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use pref_core::Profile;
use pref_core::fair::Seed;
use pref_protocol::{BotLevel, CreateTournament, TournamentBrief, TournamentKind, TournamentList};

use crate::api::budgets::ClientBudget;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::config::Tournaments as Settings;
use crate::ids::{Secret, TokenHash};
use crate::store::Store;
use deals::FixedDeal;
use room::Room;
use store::{Created, TournamentRow};

/// Days after its close a tournament is loaded at start (and listed among the past ones).
pub(crate) const KEPT_DAYS: i64 = 7;

/// The longest title.
const NAME_MAX_CHARS: usize = 60;

/// Every tournament this node serves.
#[derive(Debug)]
pub(crate) struct Tournaments {
    store: Store,
    settings: Settings,
    rooms: RwLock<HashMap<String, Arc<Room>>>,
    creates: ClientBudget,
    entries: ClientBudget,
    /// Old tournaments read back for a client (`old_loads_per_ip_per_minute`).
    old_loads: ClientBudget,
    /// The old ones held, first read first (at most `max_old_loaded`).
    old: std::sync::Mutex<std::collections::VecDeque<String>>,
}

impl Tournaments {
    /// Loads every tournament that closed less than [`KEPT_DAYS`] ago.
    ///
    /// # Errors
    /// The database's. A tournament whose rows no longer replay is logged and skipped.
    pub(crate) async fn load(
        store: Store,
        settings: &Settings,
    ) -> Result<Tournaments, crate::store::StoreError> {
        let now = crate::store::now();
        let mut rooms = HashMap::new();
        for row in store::ending_after(&store, now - KEPT_DAYS * 86_400).await? {
            let id = row.id.clone();
            match Room::restore(&store, row).await {
                Ok(room) => {
                    rooms.insert(id, Arc::new(room));
                }
                Err(e) => tracing::error!(tournament = %id, error = %e, "tournament skipped"),
            }
        }
        let every_hour = std::time::Duration::from_secs(3600);
        Ok(Tournaments {
            store,
            creates: ClientBudget::new(
                "challenges created",
                every_hour / settings.challenges_per_ip_per_hour.max(1),
                settings.challenge_burst_per_ip,
            ),
            entries: ClientBudget::per_minute(
                "tournament entries",
                settings.entries_per_ip_per_minute,
                settings.entry_burst_per_ip,
            ),
            old_loads: ClientBudget::per_minute(
                "old tournaments read",
                settings.old_loads_per_ip_per_minute,
                settings.old_loads_per_ip_per_minute,
            ),
            old: std::sync::Mutex::new(std::collections::VecDeque::new()),
            settings: settings.clone(),
            rooms: RwLock::new(rooms),
        })
    }

    /// The settings.
    pub(crate) fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Tournament `id`: in memory, or read from the database (one another node made, or
    /// an old one: then for `client`'s budget, and held among the `max_old_loaded` last).
    ///
    /// # Errors
    /// `404 no_tournament`; `429 rate_limited` for an old one beyond `client`'s budget
    /// (nothing is read); the database's.
    pub(crate) async fn get(
        &self,
        id: &str,
        client: Option<Client>,
    ) -> Result<Arc<Room>, ApiError> {
        let key = Secret::parse(id).ok_or(ApiError::NoTournament)?.expose();
        if let Some(room) = self.rooms.read().expect("rooms").get(&key) {
            return Ok(Arc::clone(room));
        }
        let row = store::by_id(&self.store, &key)
            .await?
            .ok_or(ApiError::NoTournament)?;
        let old = row.ends <= crate::store::now() - KEPT_DAYS * 86_400;
        if old && let Some(client) = client {
            self.old_loads.spend(client)?;
        }
        let room = Arc::new(
            Room::restore(&self.store, row)
                .await
                .map_err(ApiError::Internal)?,
        );
        let mut rooms = self.rooms.write().expect("rooms");
        let room = Arc::clone(rooms.entry(key.clone()).or_insert(room));
        if old {
            let mut held = self.old.lock().expect("old tournaments");
            held.push_back(key);
            while held.len() > self.settings.max_old_loaded.max(1) as usize {
                if let Some(gone) = held.pop_front() {
                    rooms.remove(&gone);
                }
            }
        }
        Ok(room)
    }

    /// Makes a challenge; its id and the creator's token.
    ///
    /// # Errors
    /// `429 rate_limited`, `400 bad_request` for a bad title, count or span,
    /// `422 bad_profile` for an unknown preset, `503 full` when too many are open.
    pub(crate) async fn create(
        &self,
        client: Client,
        body: CreateTournament,
    ) -> Result<(String, Secret), ApiError> {
        let name = body.name.trim().to_owned();
        if name.is_empty() || name.chars().count() > NAME_MAX_CHARS {
            return Err(ApiError::BadRequest(format!(
                "a tournament's name has 1 to {NAME_MAX_CHARS} characters"
            )));
        }
        if body.deals == 0 || body.deals > self.settings.max_tournament_deals {
            return Err(ApiError::BadRequest(format!(
                "a tournament has 1 to {} deals",
                self.settings.max_tournament_deals
            )));
        }
        if body.hours == 0 || body.hours > self.settings.max_tournament_hours {
            return Err(ApiError::BadRequest(format!(
                "a challenge stays open 1 to {} hours",
                self.settings.max_tournament_hours
            )));
        }
        if Profile::preset(&body.preset).is_none() {
            return Err(ApiError::BadRequest(format!(
                "no preset named {:?}",
                body.preset
            )));
        }
        let now = crate::store::now();
        let max_open = self.settings.max_open_tournaments;
        if store::open_count(&self.store, now).await? >= i64::from(max_open) {
            return Err(ApiError::Full);
        }
        self.creates.spend(client)?;
        let host = Secret::random();
        let row = new_row(
            TournamentKind::Challenge,
            None,
            name,
            body.preset,
            body.level,
            body.deals,
            (now, now + i64::from(body.hours) * 3600),
            Some(TokenHash::of(&host).expose()),
        );
        let id = row.id.clone();
        match self.insert(row, Some((max_open, now))).await? {
            Created::Made(_) => Ok((id, host)),
            Created::Exists => Err(ApiError::Internal(
                "a challenge's id was drawn twice".into(),
            )),
            Created::Full => Err(ApiError::Full),
        }
    }

    /// Stores `row` (unless `max_open` are open, when given) and serves it, and tells the
    /// other nodes.
    async fn insert(
        &self,
        mut row: TournamentRow,
        max_open: Option<(u32, i64)>,
    ) -> Result<Created, ApiError> {
        let made = store::create(&self.store, &row, max_open).await?;
        let Created::Made(no) = made else {
            return Ok(made);
        };
        row.no = no;
        let id = row.id.clone();
        let room = Room::restore(&self.store, row)
            .await
            .map_err(ApiError::Internal)?;
        let room = Arc::new(room);
        self.rooms
            .write()
            .expect("rooms")
            .insert(id, Arc::clone(&room));
        room.tell().await;
        Ok(made)
    }

    /// The open tournaments (soonest to close first) and the latest closed ones.
    pub(crate) fn list(&self) -> TournamentList {
        let now = crate::store::now();
        let rooms: Vec<Arc<Room>> = self
            .rooms
            .read()
            .expect("rooms")
            .values()
            .cloned()
            .collect();
        let mut open: Vec<TournamentBrief> = Vec::new();
        let mut past: Vec<TournamentBrief> = Vec::new();
        for r in rooms {
            let brief = r.brief(now);
            if brief.closed {
                past.push(brief);
            } else if brief.starts <= now {
                open.push(brief);
            }
        }
        open.sort_by(|a, b| a.ends.cmp(&b.ends).then_with(|| a.id.cmp(&b.id)));
        past.sort_by(|a, b| b.ends.cmp(&a.ends).then_with(|| a.id.cmp(&b.id)));
        past.truncate(self.settings.past_tournaments_listed as usize);
        TournamentList { open, past }
    }

    /// Spends one entry of `client`'s budget.
    ///
    /// # Errors
    /// `429 rate_limited`.
    pub(crate) fn spend_entry(&self, client: Client) -> Result<(), ApiError> {
        self.entries.spend(client)
    }

    /// The store.
    pub(crate) fn store(&self) -> &Store {
        &self.store
    }
}

/// A new tournament's row, its seeds drawn from the operating system.
#[allow(clippy::too_many_arguments)]
fn new_row(
    kind: TournamentKind,
    day: Option<String>,
    name: String,
    preset: String,
    level: BotLevel,
    deals: u32,
    (starts, ends): (i64, i64),
    host_token: Option<String>,
) -> TournamentRow {
    let seeds: Vec<String> = (0..deals)
        .map(|_| FixedDeal::fresh_seed().to_string())
        .collect();
    TournamentRow {
        no: 0,
        id: Secret::table_id().expose(),
        kind: kind.as_str().to_owned(),
        day,
        name,
        preset,
        level: level.as_str().to_owned(),
        seeds: seeds.join(","),
        starts,
        ends,
        host_token,
        created: crate::store::now(),
        news: 0,
    }
}

/// Reads stored seeds.
fn read_seeds(text: &str) -> Option<Vec<Seed>> {
    text.split(',').map(|s| s.parse().ok()).collect()
}
