//! One tournament in memory: its fixed deals, its entrants and their tables, and the
//! standings, updated as each deal ends (one comparison per result already in on that deal,
//! `pref_core::duplicate::Standings::finish`), never recomputed from the records.
//!
//! Each entrant's table sits behind its own lock, held while the bots answer and the action
//! is written, so entrants never wait for each other; the tournament's shared state (the
//! entrants, the standings) is behind a short lock never held across an `.await`. What other
//! nodes change comes in through `news.rs`.

use std::collections::HashMap;
use std::sync::Mutex;

use pref_core::duplicate::{Exact, Standings, deal_result};
use pref_core::{Action, Profile, Seat};
use pref_protocol::{
    BotLevel, DealPlayed, EntrantTable, OutcomeView, TournamentBrief, TournamentKind,
};
use tokio::sync::{Mutex as AsyncMutex, OnceCell};

use super::deals::{ENTRANT, FixedDeal};
use super::store::{self, EntrantRow, TournamentRow};
use super::table::{DealTable, PlayError};
use crate::api::error::ApiError;
use crate::ids::{Secret, TokenHash};
use crate::store::Store;

/// An entrant's own table: where he is in the tournament and every action he made.
#[derive(Debug)]
pub(crate) struct Seat0 {
    /// His number.
    pub(crate) entrant: usize,
    /// The deal he is on (the number of deals he has finished).
    pub(crate) deal: u32,
    /// The deal's table, once he has reached it.
    table: Option<DealTable>,
    /// His actions, per deal reached.
    pub(crate) actions: Vec<Vec<Action>>,
    /// The deal he finished last.
    last: Option<DealPlayed>,
}

/// An entrant.
#[derive(Debug)]
pub(crate) struct Entrant {
    /// Name.
    pub(crate) name: String,
    /// The account, if signed in.
    pub(crate) account: Option<i64>,
    /// His table.
    pub(crate) seat: std::sync::Arc<AsyncMutex<Seat0>>,
}

/// What entrants change.
#[derive(Debug)]
pub(crate) struct Shared {
    /// Closes (seconds since 1970); the creator may bring it forward.
    pub(crate) ends: i64,
    /// Every entrant, by number.
    pub(crate) entrants: Vec<Entrant>,
    /// Entrant by token hash.
    by_token: HashMap<String, usize>,
    /// The scores.
    pub(crate) standings: Standings,
    /// `played[e][d]`: entrant `e`'s deal `d`, once finished.
    pub(crate) played: Vec<Vec<Option<DealPlayed>>>,
    /// The tournament's `news` count this node has read up to (`store.rs`).
    pub(crate) news: i64,
}

/// One tournament.
#[derive(Debug)]
pub(crate) struct Room {
    pub(crate) no: i64,
    pub(crate) id: String,
    pub(crate) kind: TournamentKind,
    pub(crate) name: String,
    pub(crate) preset: String,
    pub(crate) profile: Profile,
    pub(crate) level: BotLevel,
    pub(crate) deals: Vec<FixedDeal>,
    pub(crate) starts: i64,
    host: Option<TokenHash>,
    pub(crate) shared: Mutex<Shared>,
    /// The database its rows are in.
    pub(crate) store: Store,
    /// Each deal's par, computed when first asked for.
    pub(crate) par: Vec<OnceCell<Option<pref_protocol::ParView>>>,
}

impl Seat0 {
    /// Entrant `e`'s table from his stored actions, per deal, and the deals he has
    /// finished (`played`): on the first unfinished deal, replayed through the bots.
    ///
    /// # Errors
    /// A stored action that no longer applies, as text.
    pub(crate) fn rebuilt(
        profile: &Profile,
        level: BotLevel,
        deals: &[FixedDeal],
        e: usize,
        played: &[Option<DealPlayed>],
        mut actions: Vec<Vec<Action>>,
    ) -> Result<Seat0, String> {
        let done = played.iter().take_while(|p| p.is_some()).count();
        actions.resize_with(deals.len().max(done + 1), Vec::new);
        actions.truncate(done + 1);
        let table = match actions.get(done) {
            Some(a) if !a.is_empty() => Some(
                DealTable::replay(profile, level, &deals[done], a).map_err(|e| e.to_string())?,
            ),
            Some(_) | None => None,
        };
        Ok(Seat0 {
            entrant: e,
            deal: done as u32,
            table,
            actions,
            last: done.checked_sub(1).and_then(|d| played[d].clone()),
        })
    }
}

impl Shared {
    /// Puts a stored result into the standings; `false` when it was in already.
    ///
    /// # Errors
    /// A result that does not read or names no entrant or deal, as text.
    pub(crate) fn post(&mut self, r: &store::ResultRow) -> Result<bool, String> {
        let slot = usize::try_from(r.entrant)
            .ok()
            .zip(usize::try_from(r.deal).ok());
        let (e, d) = slot.ok_or("a negative number")?;
        let result = read_exact(&r.result).ok_or("a result does not read")?;
        let outcome: OutcomeView = serde_json::from_str(&r.outcome).map_err(|e| e.to_string())?;
        let cell = self
            .played
            .get_mut(e)
            .and_then(|p| p.get_mut(d))
            .ok_or("a result off the tournament")?;
        if cell.is_some() {
            return Ok(false);
        }
        *cell = Some(DealPlayed {
            deal: d as u32,
            outcome,
            result: r.result.clone(),
        });
        Ok(self.standings.finish(e, d, result))
    }

    /// Adds a stored entrant, when he is the next by number; whether he was.
    pub(crate) fn admit(&mut self, e: &EntrantRow, deals: usize) -> bool {
        let next = self.entrants.len();
        if e.entrant != next as i64 {
            return false;
        }
        self.standings.enter();
        self.played.push(vec![None; deals]);
        self.by_token.insert(e.token.clone(), next);
        self.entrants.push(Entrant {
            name: e.name.clone(),
            account: e.account_no,
            seat: std::sync::Arc::new(AsyncMutex::new(Seat0 {
                entrant: next,
                deal: 0,
                table: None,
                actions: vec![Vec::new()],
                last: None,
            })),
        });
        true
    }
}

/// A result as text: `"-82/3"`, `"75"`.
pub(crate) fn exact(r: Exact) -> String {
    r.to_string()
}

/// Reads [`exact`]'s text.
fn read_exact(s: &str) -> Option<Exact> {
    match s.split_once('/') {
        Some((n, d)) => {
            let d: i64 = d.parse().ok()?;
            (d != 0).then_some(Exact::new(n.parse().ok()?, d))
        }
        None => s.parse().ok().map(Exact::from_integer),
    }
}

impl Room {
    /// The tournament of `row`, with everything stored for it replayed.
    ///
    /// # Errors
    /// Why the rows do not hold together (the database's, an unknown preset, an action
    /// that no longer applies), as text.
    pub(crate) async fn restore(store: &Store, row: TournamentRow) -> Result<Room, String> {
        let profile = Profile::preset(&row.preset).ok_or("unknown preset")?;
        let level = BotLevel::parse(&row.level).ok_or("unknown level")?;
        let kind = TournamentKind::parse(&row.kind).ok_or("unknown kind")?;
        let seeds = super::read_seeds(&row.seeds).ok_or("seeds do not read")?;
        let deals: Vec<FixedDeal> = (0u32..)
            .zip(seeds)
            .map(|(k, s)| FixedDeal::new(&row.id, k, s, &profile))
            .collect();
        let n = deals.len();
        let contents = store::contents(store, row.no)
            .await
            .map_err(|e| e.to_string())?;
        let mut shared = Shared {
            ends: row.ends,
            entrants: Vec::new(),
            by_token: HashMap::new(),
            standings: Standings::new(n),
            played: Vec::new(),
            news: row.news,
        };
        let mut actions: Vec<Vec<Vec<Action>>> = Vec::new();
        for (i, e) in contents.entrants.iter().enumerate() {
            if e.entrant != i as i64 {
                return Err(format!("entrant {} out of order", e.entrant));
            }
            shared.standings.enter();
            shared.played.push(vec![None; n]);
            shared.by_token.insert(e.token.clone(), i);
            actions.push(vec![Vec::new(); n]);
        }
        for (e, d, text) in &contents.actions {
            let a: Action = serde_json::from_str(text).map_err(|e| e.to_string())?;
            let slot = usize::try_from(*e).ok().zip(usize::try_from(*d).ok());
            let (e, d) = slot.ok_or("a negative number")?;
            actions
                .get_mut(e)
                .and_then(|r| r.get_mut(d))
                .ok_or("an action off the tournament")?
                .push(a);
        }
        for r in &contents.results {
            if !shared.post(r)? {
                return Err(format!(
                    "result of entrant {} on deal {} repeated",
                    r.entrant, r.deal
                ));
            }
        }
        for (i, e) in contents.entrants.into_iter().enumerate() {
            let mine = std::mem::take(&mut actions[i]);
            let seat = Seat0::rebuilt(&profile, level, &deals, i, &shared.played[i], mine)?;
            shared.entrants.push(Entrant {
                name: e.name,
                account: e.account_no,
                seat: std::sync::Arc::new(AsyncMutex::new(seat)),
            });
        }
        let host = row.host_token.as_deref().and_then(TokenHash::read_stored);
        Ok(Room {
            no: row.no,
            id: row.id,
            kind,
            name: row.name,
            preset: row.preset,
            level,
            par: (0..n).map(|_| OnceCell::new()).collect(),
            deals,
            profile,
            starts: row.starts,
            host,
            shared: Mutex::new(shared),
            store: store.clone(),
        })
    }

    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().expect("tournament state")
    }

    /// Whether it is closed at `now`.
    pub(crate) fn closed(&self, now: i64) -> bool {
        now >= self.lock().ends
    }

    /// In a list.
    pub(crate) fn brief(&self, now: i64) -> TournamentBrief {
        let s = self.lock();
        TournamentBrief {
            id: self.id.clone(),
            name: self.name.clone(),
            kind: self.kind,
            preset: self.preset.clone(),
            level: self.level,
            deals: self.deals.len() as u32,
            starts: self.starts,
            ends: s.ends,
            closed: now >= s.ends,
            entrants: s.entrants.len() as u32,
        }
    }

    /// The entrant whose token is `token`.
    pub(crate) fn entrant_of(&self, token: &Secret) -> Option<usize> {
        self.lock()
            .by_token
            .get(&TokenHash::of(token).expose())
            .copied()
    }

    /// Enters a guest named `name`, or the account `account` under its user name; the
    /// entrant's number and token. The number is given by the database (`store::enter`), so
    /// entrants entering at several nodes at once are numbered in one order.
    ///
    /// # Errors
    /// `409 conflict` before the start, after the close or for an account that entered
    /// already; `503 full` at `max` entrants; the database's. Refused, nothing is written.
    pub(crate) async fn enter(
        &self,
        store: &Store,
        name: String,
        account: Option<i64>,
        max: u32,
        now: i64,
    ) -> Result<(u32, Secret), ApiError> {
        let token = Secret::random();
        let row = EntrantRow {
            entrant: 0,
            name,
            account_no: account,
            token: TokenHash::of(&token).expose(),
        };
        let number = match store::enter(store, self.no, &row, now, max).await? {
            store::Entering::Entered(n) => n,
            store::Entering::NotOpen => {
                return Err(ApiError::Conflict("the tournament is not open".into()));
            }
            store::Entering::Already => {
                return Err(ApiError::Conflict("you have entered already".into()));
            }
            store::Entering::Full => return Err(ApiError::Full),
        };
        self.catch_up().await?;
        self.tell().await;
        Ok((number as u32, token))
    }

    /// Entrant `e`'s table.
    pub(crate) fn seat(&self, e: usize) -> Option<std::sync::Arc<AsyncMutex<Seat0>>> {
        self.lock()
            .entrants
            .get(e)
            .map(|x| std::sync::Arc::clone(&x.seat))
    }

    /// What the entrant sees of his table. With `reach`, the deal he is on is dealt now if
    /// it is not yet (his asking for it is his reaching it); without, it is not (the answer
    /// to the action that finished the previous deal shows that deal's result only).
    ///
    /// # Errors
    /// `500` if a bot errs (a bug).
    pub(crate) async fn table(
        &self,
        seat: &mut Seat0,
        reach: bool,
        now: i64,
    ) -> Result<EntrantTable, ApiError> {
        let n = self.deals.len() as u32;
        if reach && !self.closed(now) && seat.deal < n && seat.table.is_none() {
            let (profile, level) = (self.profile.clone(), self.level);
            let deal = self.deals[seat.deal as usize].clone();
            // The bots think within the cores' share (`thinking.rs`), like a table's.
            let _thinking = crate::thinking::thinkers()
                .acquire()
                .await
                .map_err(|e| ApiError::Internal(e.to_string()))?;
            let table = tokio::task::spawn_blocking(move || DealTable::new(&profile, level, &deal))
                .await
                .map_err(|e| ApiError::Internal(e.to_string()))?
                .map_err(|e| ApiError::Internal(e.to_string()))?;
            seat.table = Some(table);
        }
        let open = !self.closed(now);
        let table = seat.table.as_ref().filter(|_| open);
        Ok(EntrantTable {
            deal: seat.deal,
            deals: n,
            seat: ENTRANT,
            view: table.and_then(DealTable::view),
            legal: table.map(DealTable::legal).unwrap_or_default(),
            last: seat.last.clone(),
        })
    }

    /// The entrant's action on deal `deal`, the bots' replies, written before it is shown;
    /// when the deal ends, its result goes into the standings.
    ///
    /// # Errors
    /// `409 conflict` when closed, for another deal than his, out of turn or for an action
    /// the rules refuse (nothing changes); the database's (nothing changes either).
    pub(crate) async fn act(
        &self,
        store: &Store,
        seat: &mut Seat0,
        deal: u32,
        action: Action,
        now: i64,
    ) -> Result<(), ApiError> {
        if self.closed(now) {
            return Err(ApiError::Conflict("the tournament is closed".into()));
        }
        if deal != seat.deal || seat.table.is_none() {
            return Err(ApiError::Conflict(format!(
                "you are on deal {} and have {} it",
                seat.deal,
                if seat.table.is_some() {
                    "reached"
                } else {
                    "not reached"
                }
            )));
        }
        let Some(mut table) = seat.table.take() else {
            return Err(ApiError::Conflict("no deal is in progress".into()));
        };
        let thinking = crate::thinking::thinkers()
            .acquire()
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        let (table, played) = tokio::task::spawn_blocking(move || {
            let r = table.act(action);
            (table, r)
        })
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
        drop(thinking);
        let k = seat.deal as usize;
        match played {
            Ok(()) => {}
            Err(e @ (PlayError::NotYourTurn | PlayError::Rule(_))) => {
                seat.table = Some(table);
                return Err(ApiError::Conflict(e.to_string()));
            }
            Err(PlayError::Broken(e)) => {
                seat.table = self.replayed(k, &seat.actions[k]).ok();
                return Err(ApiError::Internal(e));
            }
        }
        let finished = table.outcome().map(|o| {
            let result = deal_result(&self.profile, &o)[usize::from(ENTRANT.0)];
            let view = table
                .game()
                .history()
                .first()
                .and_then(OutcomeView::of)
                .expect("a finished deal has an outcome");
            (result, view)
        });
        let text = serde_json::to_string(&action).map_err(|e| ApiError::Internal(e.to_string()))?;
        let result_text = finished
            .as_ref()
            .map(|(r, v)| (exact(*r), serde_json::to_string(v).unwrap_or_default()));
        let seq = seat.actions[k].len() as i64;
        let written = store::act(
            store,
            self.no,
            seat.entrant as i64,
            k as i64,
            seq,
            &text,
            result_text.as_ref().map(|(r, o)| (r.as_str(), o.as_str())),
            now,
        )
        .await;
        let news = match written {
            Ok(store::Acted::Stored(news)) => news,
            Ok(store::Acted::Closed) => {
                seat.table = self.replayed(k, &seat.actions[k]).ok();
                self.catch_up().await?;
                return Err(ApiError::Conflict("the tournament is closed".into()));
            }
            Ok(store::Acted::Stale) => {
                // The entrant played on at another node: his table here is read again.
                self.refresh(seat).await?;
                return Err(ApiError::Conflict(
                    "your table moved on elsewhere; here it is as it stands".into(),
                ));
            }
            Err(e) => {
                // Nothing was written: the table goes back to what the entrant was shown.
                seat.table = self.replayed(k, &seat.actions[k]).ok();
                return Err(e.into());
            }
        };
        seat.actions[k].push(action);
        match finished {
            None => seat.table = Some(table),
            Some((result, outcome)) => {
                let played = DealPlayed {
                    deal: k as u32,
                    outcome,
                    result: exact(result),
                };
                {
                    let mut s = self.lock();
                    if s.played[seat.entrant][k].is_none() {
                        s.standings.finish(seat.entrant, k, result);
                        s.played[seat.entrant][k] = Some(played.clone());
                    }
                    if news == Some(s.news + 1) {
                        s.news += 1;
                    }
                }
                seat.last = Some(played);
                seat.deal += 1;
                seat.actions.push(Vec::new());
                self.tell().await;
            }
        }
        Ok(())
    }

    /// Deal `k`'s table after `actions`.
    fn replayed(&self, k: usize, actions: &[Action]) -> Result<DealTable, PlayError> {
        DealTable::replay(&self.profile, self.level, &self.deals[k], actions)
    }

    /// Closes the challenge now, with its creator's token.
    ///
    /// # Errors
    /// `403 forbidden` without the creator's token; `409 conflict` when closed already.
    pub(crate) async fn close(
        &self,
        store: &Store,
        token: &Secret,
        now: i64,
    ) -> Result<(), ApiError> {
        if !self.host.is_some_and(|h| h.verifies(token)) {
            return Err(ApiError::Forbidden(
                "only the creator's token closes a challenge",
            ));
        }
        if self.closed(now) {
            return Err(ApiError::Conflict(
                "the tournament is closed already".into(),
            ));
        }
        if !store::set_ends(store, self.no, now).await? {
            self.catch_up().await?;
            return Err(ApiError::Conflict(
                "the tournament is closed already".into(),
            ));
        }
        self.lock().ends = now;
        self.tell().await;
        Ok(())
    }

    /// Entrant `e`'s one-deal record of deal `k`, with its fairness data, once closed.
    ///
    /// # Errors
    /// `409 conflict` while open; `404` for an entrant who did not finish the deal.
    pub(crate) async fn record(&self, e: usize, k: usize, now: i64) -> Result<String, ApiError> {
        if !self.closed(now) {
            return Err(ApiError::Conflict(
                "the decks are revealed when the tournament closes".into(),
            ));
        }
        let (seat, name) = {
            let s = self.lock();
            let entrant = s.entrants.get(e).ok_or(ApiError::NoTournament)?;
            if s.played[e].get(k).is_none_or(Option::is_none) {
                return Err(ApiError::BadRequest(format!(
                    "entrant {e} did not finish deal {k}"
                )));
            }
            (std::sync::Arc::clone(&entrant.seat), entrant.name.clone())
        };
        let actions = seat.lock().await.actions[k].clone();
        let table = self
            .replayed(k, &actions)
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        let players = self.profile.players();
        let names: Vec<String> = (0..players)
            .map(|s| {
                if Seat(s) == ENTRANT {
                    name.clone()
                } else {
                    format!("bot {s}")
                }
            })
            .collect();
        self.deals[k]
            .record(table.game(), &names)
            .map_err(ApiError::Internal)
    }
}
