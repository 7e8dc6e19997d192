//! One tournament in memory: its fixed deals, its entrants and their tables, and the
//! standings, updated as each deal ends (one comparison per result already in on that deal,
//! `pref_core::duplicate::Standings::finish`), never recomputed from the records.
//!
//! Each entrant's table sits behind its own lock, held while the bots answer and the action
//! is written, so entrants never wait for each other; the tournament's shared state (the
//! entrants, the standings) is behind a short lock never held across an `.await`.

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
    /// Serialises entries, so numbers are given in order.
    entering: AsyncMutex<()>,
    /// Each deal's par, computed when first asked for.
    pub(crate) par: Vec<OnceCell<Option<pref_protocol::ParView>>>,
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
            let (e, d) = (r.entrant as usize, r.deal as usize);
            let result = read_exact(&r.result).ok_or("a result does not read")?;
            let outcome: OutcomeView =
                serde_json::from_str(&r.outcome).map_err(|e| e.to_string())?;
            if !shared.standings.finish(e, d, result) {
                return Err(format!("result of entrant {e} on deal {d} repeated"));
            }
            shared.played[e][d] = Some(DealPlayed {
                deal: d as u32,
                outcome,
                result: r.result.clone(),
            });
        }
        for (i, e) in contents.entrants.into_iter().enumerate() {
            let done = shared.played[i].iter().take_while(|p| p.is_some()).count();
            let mut mine = std::mem::take(&mut actions[i]);
            mine.truncate(done + 1);
            let table = match mine.get(done) {
                Some(a) if !a.is_empty() => Some(
                    DealTable::replay(&profile, level, &deals[done], a)
                        .map_err(|e| e.to_string())?,
                ),
                Some(_) | None => None,
            };
            let last = done
                .checked_sub(1)
                .and_then(|d| shared.played[i][d].clone());
            let seat = Seat0 {
                entrant: i,
                deal: done as u32,
                table,
                actions: mine,
                last,
            };
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
            entering: AsyncMutex::new(()),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
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
    /// entrant's number and token.
    ///
    /// # Errors
    /// `409 conflict` before the start, after the close or for an account that entered
    /// already; `503 full` at `max` entrants; the database's.
    pub(crate) async fn enter(
        &self,
        store: &Store,
        name: String,
        account: Option<i64>,
        max: u32,
        now: i64,
    ) -> Result<(u32, Secret), ApiError> {
        let _one = self.entering.lock().await;
        let number = {
            let s = self.lock();
            if now < self.starts || now >= s.ends {
                return Err(ApiError::Conflict("the tournament is not open".into()));
            }
            if account.is_some() && s.entrants.iter().any(|e| e.account == account) {
                return Err(ApiError::Conflict("you have entered already".into()));
            }
            if s.entrants.len() >= max as usize {
                return Err(ApiError::Full);
            }
            s.entrants.len()
        };
        let token = Secret::random();
        let hash = TokenHash::of(&token).expose();
        let row = EntrantRow {
            entrant: number as i64,
            name: name.clone(),
            account_no: account,
            token: hash.clone(),
        };
        if !store::enter(store, self.no, &row, now).await? {
            return Err(ApiError::Conflict("you have entered already".into()));
        }
        let mut s = self.lock();
        s.standings.enter();
        s.played.push(vec![None; self.deals.len()]);
        s.by_token.insert(hash, number);
        s.entrants.push(Entrant {
            name,
            account,
            seat: std::sync::Arc::new(AsyncMutex::new(Seat0 {
                entrant: number,
                deal: 0,
                table: None,
                actions: vec![Vec::new()],
                last: None,
            })),
        });
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
            result_text
                .as_ref()
                .map(|(r, o)| (r.as_str(), o.as_str(), now)),
        )
        .await;
        if let Err(e) = written {
            // Nothing was written: the table goes back to what the entrant was shown.
            seat.table = self.replayed(k, &seat.actions[k]).ok();
            return Err(e.into());
        }
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
                    s.standings.finish(seat.entrant, k, result);
                    s.played[seat.entrant][k] = Some(played.clone());
                }
                seat.last = Some(played);
                seat.deal += 1;
                seat.actions.push(Vec::new());
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
        store::set_ends(store, self.no, now).await?;
        self.lock().ends = now;
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
