//! What other nodes change in a tournament, and how this node learns it (`docs/scaling.md`,
//! "Tournaments on several nodes"). The rows are the truth (`store.rs`); a node's [`Room`]
//! is what it has read of them. An entrant, a result or the close raises the tournament's
//! `news` count; [`Room::catch_up`] reads what was written since the count this node last
//! saw, and a node that writes one runs `NOTIFY pref_tournaments` with the tournament's id,
//! which every node `LISTEN`s to ([`Tournaments::follow`], PostgreSQL only; on SQLite the
//! node is alone). A notification lost while a listener reconnects is made up by a slow
//! tick. An entrant's own table is checked against his stored actions before each of his
//! requests ([`Room::refresh`]), so he may play on at any node.

use std::sync::Arc;
use std::time::Duration;

use pref_core::Action;

use super::Tournaments;
use super::room::{Room, Seat0};
use super::store;
use crate::api::error::ApiError;

/// How often a node reads every open tournament's news without being told.
const TICK: Duration = Duration::from_secs(5);

impl Room {
    /// Reads what other nodes (or this one) wrote since the last look: new entrants, new
    /// results, a new closing time.
    ///
    /// # Errors
    /// The database's; a stored row that does not read is `500`.
    pub(crate) async fn catch_up(&self) -> Result<(), ApiError> {
        let since = self.lock().news;
        let Some(news) = store::news_since(&self.store, self.no, since).await? else {
            return Ok(());
        };
        let mut s = self.lock();
        for e in &news.entrants {
            s.admit(e, self.deals.len());
        }
        for r in &news.results {
            s.post(r).map_err(ApiError::Internal)?;
        }
        s.ends = news.ends;
        s.news = s.news.max(news.news);
        Ok(())
    }

    /// Tells the other nodes this tournament changed.
    pub(crate) async fn tell(&self) {
        if let Err(e) = store::notify(&self.store, &self.id).await {
            tracing::warn!(error = %e, "the other nodes were not told of a tournament's change");
        }
    }

    /// Makes `seat` what the rows say: when the entrant has stored actions this node has not
    /// seen (he played at another node), his table is rebuilt from them.
    ///
    /// # Errors
    /// The database's; stored actions that no longer replay are `500`.
    pub(crate) async fn refresh(&self, seat: &mut Seat0) -> Result<(), ApiError> {
        let e = seat.entrant;
        let stored = store::action_count(&self.store, self.no, e as i64).await?;
        let known: usize = seat.actions.iter().map(Vec::len).sum();
        if usize::try_from(stored).ok() == Some(known) {
            return Ok(());
        }
        self.catch_up().await?;
        let mut actions: Vec<Vec<Action>> = vec![Vec::new(); self.deals.len()];
        for (d, text) in store::actions_of(&self.store, self.no, e as i64).await? {
            let a: Action =
                serde_json::from_str(&text).map_err(|x| ApiError::Internal(x.to_string()))?;
            actions
                .get_mut(usize::try_from(d).unwrap_or(usize::MAX))
                .ok_or_else(|| ApiError::Internal("an action off the tournament".into()))?
                .push(a);
        }
        let played = self.lock().played.get(e).cloned().unwrap_or_default();
        let (profile, level, deals) = (self.profile.clone(), self.level, self.deals.clone());
        let rebuilt = tokio::task::spawn_blocking(move || {
            Seat0::rebuilt(&profile, level, &deals, e, &played, actions)
        })
        .await
        .map_err(|x| ApiError::Internal(x.to_string()))?
        .map_err(ApiError::Internal)?;
        *seat = rebuilt;
        Ok(())
    }
}

impl Tournaments {
    /// On PostgreSQL, follows the other nodes until the runtime stops: at every
    /// `NOTIFY pref_tournaments` the tournament named is read (loaded when new here), and
    /// every [`TICK`] every open one and any new one.
    pub(crate) fn follow(tournaments: &Arc<Tournaments>) {
        let Some(pool) = tournaments.store.postgres().cloned() else {
            return;
        };
        let weak = Arc::downgrade(tournaments);
        tokio::spawn(async move {
            let mut listener = match sqlx::postgres::PgListener::connect_with(&pool).await {
                Ok(l) => l,
                Err(e) => {
                    tracing::error!(error = %e, "tournaments cannot listen; they follow by the tick");
                    return;
                }
            };
            if listener.listen("pref_tournaments").await.is_err() {
                return;
            }
            while let Ok(n) = listener.recv().await {
                let Some(t) = weak.upgrade() else { return };
                t.heard(n.payload()).await;
            }
        });
        let weak = Arc::downgrade(tournaments);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(TICK);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(t) = weak.upgrade() else { return };
                if let Err(e) = t.look().await {
                    tracing::warn!(error = %e, "tournaments not read");
                }
            }
        });
    }

    /// Another node changed tournament `id`.
    async fn heard(&self, id: &str) {
        match self.get(id, None).await {
            Ok(room) => {
                if let Err(e) = room.catch_up().await {
                    tracing::warn!(tournament = %id, error = %e, "tournament not read");
                }
            }
            Err(e) => tracing::warn!(tournament = %id, error = %e, "tournament not loaded"),
        }
    }

    /// Loads the tournaments other nodes made, and reads every open one.
    async fn look(&self) -> Result<(), ApiError> {
        let now = crate::store::now();
        for row in store::ending_after(&self.store, now).await? {
            let room = self.get(&row.id, None).await?;
            room.catch_up().await?;
        }
        Ok(())
    }
}
