//! The tournaments' rows (migrations `0100_tournaments.sql`), in the same SQLite or
//! PostgreSQL database as the tables: a tournament with its deals' seeds, its entrants,
//! every action an entrant made and every result. An action is written, and its commit has
//! returned, before the entrant is shown what it led to; a deal's last action and its
//! result are one transaction.
//!
//! Every node of a cluster serves every tournament from these rows (`0160_tournament_news`):
//! an entrant, a result and the close each raise the tournament's `news` count in their own
//! transaction (which locks the tournament's row until the commit, on both backends), and
//! keep the count they were written at, so a node reads only what is new since it last
//! looked ([`news_since`]). Numbers are given and results posted under that lock, and every
//! action and result has a unique key, so two nodes never give one number twice nor post
//! one result twice (a second try finds the key taken: [`Acted::Stale`]).

use crate::store::{Pool, Store, StoreError, with_pool};

/// A tournament as stored.
#[derive(Clone, Debug)]
pub(crate) struct TournamentRow {
    /// Row number (0 before it is stored).
    pub no: i64,
    /// Its id, as its link writes it.
    pub id: String,
    /// `challenge` or `daily`.
    pub kind: String,
    /// A daily tournament's day (`2026-12-01`).
    pub day: Option<String>,
    /// Title.
    pub name: String,
    /// Preset name.
    pub preset: String,
    /// The bots' level.
    pub level: String,
    /// The deals' seeds, hex, comma-separated.
    pub seeds: String,
    /// Opens, seconds since 1970.
    pub starts: i64,
    /// Closes.
    pub ends: i64,
    /// The creator's token hash (a challenge).
    pub host_token: Option<String>,
    /// When made.
    pub created: i64,
    /// The count of its changes (entrants, results, the close) so far.
    pub news: i64,
}

/// An entrant as stored.
#[derive(Clone, Debug)]
pub(crate) struct EntrantRow {
    /// Number in the tournament.
    pub entrant: i64,
    /// Name.
    pub name: String,
    /// The account, if signed in.
    pub account_no: Option<i64>,
    /// The token's hash.
    pub token: String,
}

/// A finished deal as stored.
#[derive(Clone, Debug)]
pub(crate) struct ResultRow {
    /// The entrant.
    pub entrant: i64,
    /// The deal.
    pub deal: i64,
    /// The result, exact (`"-82/3"`).
    pub result: String,
    /// The outcome's wire form, JSON.
    pub outcome: String,
}

/// What one tournament holds besides its header.
#[derive(Debug, Default)]
pub(crate) struct Contents {
    /// Its entrants, in order.
    pub entrants: Vec<EntrantRow>,
    /// Every action: (entrant, deal, the action as JSON), in order.
    pub actions: Vec<(i64, i64, String)>,
    /// Every result, in the order they were written.
    pub results: Vec<ResultRow>,
}

const COLUMNS: &str =
    "no, id, kind, day, name, preset, level, seeds, starts, ends, host_token, created, news";

type Header = (
    i64,
    String,
    String,
    Option<String>,
    String,
    String,
    String,
    String,
    i64,
    i64,
    Option<String>,
    i64,
    i64,
);

fn header(h: Header) -> TournamentRow {
    TournamentRow {
        no: h.0,
        id: h.1,
        kind: h.2,
        day: h.3,
        name: h.4,
        preset: h.5,
        level: h.6,
        seeds: h.7,
        starts: h.8,
        ends: h.9,
        host_token: h.10,
        created: h.11,
        news: h.12,
    }
}

/// What storing a new tournament gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Created {
    /// Stored, with this row number.
    Made(i64),
    /// A daily tournament of that day is there already.
    Exists,
    /// `max_open` tournaments are open already.
    Full,
}

/// Stores a new tournament unless `max_open` (when given) are open at `now` already; the
/// count and the insert run under one lock on PostgreSQL (`pg_advisory_xact_lock`), so that
/// nodes creating at once do not pass the limit together.
pub(crate) async fn create(
    store: &Store,
    t: &TournamentRow,
    max_open: Option<(u32, i64)>,
) -> Result<Created, StoreError> {
    let sql = "INSERT INTO tournaments (id, kind, day, name, preset, level, seeds, starts, ends,
               host_token, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
               ON CONFLICT DO NOTHING RETURNING no";
    let postgres = matches!(store.pool(), Pool::Postgres(_));
    with_pool!(store.pool(), pool => {
        let mut tx = pool.begin().await?;
        if let Some((max, now)) = max_open {
            if postgres {
                sqlx::query("SELECT pg_advisory_xact_lock(hashtext('pref_tournaments'))")
                    .execute(&mut *tx)
                    .await?;
            }
            let open: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM tournaments WHERE ends > $1")
                .bind(now)
                .fetch_one(&mut *tx)
                .await?;
            if open >= i64::from(max) {
                return Ok(Created::Full);
            }
        }
        let no: Option<i64> = sqlx::query_scalar(sql)
            .bind(&t.id)
            .bind(&t.kind)
            .bind(&t.day)
            .bind(&t.name)
            .bind(&t.preset)
            .bind(&t.level)
            .bind(&t.seeds)
            .bind(t.starts)
            .bind(t.ends)
            .bind(&t.host_token)
            .bind(t.created)
            .fetch_optional(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(no.map_or(Created::Exists, Created::Made))
    })
}

/// Tournaments open at `now`.
pub(crate) async fn open_count(store: &Store, now: i64) -> Result<i64, StoreError> {
    let sql = "SELECT COUNT(*) FROM tournaments WHERE ends > $1";
    Ok(with_pool!(store.pool(), pool => sqlx::query_scalar(sql)
        .bind(now)
        .fetch_one(pool)
        .await?))
}

/// The tournaments that end after `after` (seconds since 1970).
pub(crate) async fn ending_after(
    store: &Store,
    after: i64,
) -> Result<Vec<TournamentRow>, StoreError> {
    let sql = format!("SELECT {COLUMNS} FROM tournaments WHERE ends > $1 ORDER BY no");
    let rows: Vec<Header> = with_pool!(store.pool(), pool => sqlx::query_as(&sql)
        .bind(after)
        .fetch_all(pool)
        .await?);
    Ok(rows.into_iter().map(header).collect())
}

/// Tournament `id`, if stored.
pub(crate) async fn by_id(store: &Store, id: &str) -> Result<Option<TournamentRow>, StoreError> {
    let sql = format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1");
    let row: Option<Header> = with_pool!(store.pool(), pool => sqlx::query_as(&sql)
        .bind(id)
        .fetch_optional(pool)
        .await?);
    Ok(row.map(header))
}

/// Closes tournament `no` at `ends` (its creator's early close); `false` when it was
/// closed by then already.
pub(crate) async fn set_ends(store: &Store, no: i64, ends: i64) -> Result<bool, StoreError> {
    let sql = "UPDATE tournaments SET ends = $2, news = news + 1 WHERE no = $1 AND ends > $2";
    Ok(with_pool!(store.pool(), pool => sqlx::query(sql)
        .bind(no)
        .bind(ends)
        .execute(pool)
        .await?
        .rows_affected())
        == 1)
}

/// Everything tournament `no` holds.
pub(crate) async fn contents(store: &Store, no: i64) -> Result<Contents, StoreError> {
    let entrants = "SELECT entrant, name, account_no, token FROM tournament_entrants
                    WHERE tournament_no = $1 ORDER BY entrant";
    let actions = "SELECT entrant, deal, action FROM tournament_actions
                   WHERE tournament_no = $1 ORDER BY entrant, deal, seq";
    let results = "SELECT entrant, deal, result, outcome FROM tournament_results
                   WHERE tournament_no = $1 ORDER BY finished, entrant, deal";
    with_pool!(store.pool(), pool => {
        let e: Vec<(i64, String, Option<i64>, String)> =
            sqlx::query_as(entrants).bind(no).fetch_all(pool).await?;
        let a: Vec<(i64, i64, String)> = sqlx::query_as(actions).bind(no).fetch_all(pool).await?;
        let r: Vec<(i64, i64, String, String)> =
            sqlx::query_as(results).bind(no).fetch_all(pool).await?;
        Ok(Contents {
            entrants: e
                .into_iter()
                .map(|(entrant, name, account_no, token)| EntrantRow { entrant, name, account_no, token })
                .collect(),
            actions: a,
            results: r
                .into_iter()
                .map(|(entrant, deal, result, outcome)| ResultRow { entrant, deal, result, outcome })
                .collect(),
        })
    })
}

/// What entering gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entering {
    /// Entered, with this number.
    Entered(i64),
    /// The tournament is not open at that time.
    NotOpen,
    /// The account has entered already.
    Already,
    /// It has `max` entrants.
    Full,
}

/// Stores a new entrant, numbered after the last, unless the tournament is not open at
/// `now`, the account has entered or `max` have: in one transaction that first raises the
/// tournament's `news`, which holds its row until the commit, so that two nodes never give
/// one number twice.
pub(crate) async fn enter(
    store: &Store,
    no: i64,
    e: &EntrantRow,
    now: i64,
    max: u32,
) -> Result<Entering, StoreError> {
    let raise = "UPDATE tournaments SET news = news + 1
                 WHERE no = $1 AND starts <= $2 AND ends > $2 RETURNING news";
    let insert = "INSERT INTO tournament_entrants (tournament_no, entrant, name, account_no,
                  token, entered, news) VALUES ($1, $2, $3, $4, $5, $6, $7)";
    with_pool!(store.pool(), pool => {
        let mut tx = pool.begin().await?;
        let news: Option<i64> = sqlx::query_scalar(raise)
            .bind(no)
            .bind(now)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(news) = news else {
            return Ok(Entering::NotOpen);
        };
        if let Some(account) = e.account_no {
            let had: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM tournament_entrants WHERE tournament_no = $1 AND account_no = $2",
            )
            .bind(no)
            .bind(account)
            .fetch_one(&mut *tx)
            .await?;
            if had > 0 {
                return Ok(Entering::Already);
            }
        }
        let count: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM tournament_entrants WHERE tournament_no = $1")
                .bind(no)
                .fetch_one(&mut *tx)
                .await?;
        if count >= i64::from(max) {
            return Ok(Entering::Full);
        }
        sqlx::query(insert)
            .bind(no)
            .bind(count)
            .bind(&e.name)
            .bind(e.account_no)
            .bind(&e.token)
            .bind(now)
            .bind(news)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Entering::Entered(count))
    })
}

/// What storing an action gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Acted {
    /// Stored; with the tournament's `news` count of the result, when it ended the deal.
    Stored(Option<i64>),
    /// The tournament is closed.
    Closed,
    /// Another node stored this action number (or this result) first: the entrant's
    /// table here is behind; nothing was written.
    Stale,
}

/// Stores an entrant's action number `seq` on deal `deal`, and the deal's result with it
/// when the action ended the deal (`(result, outcome)`), in one transaction; a result
/// raises the tournament's `news` first (holding its row to the commit).
#[allow(clippy::too_many_arguments)]
pub(crate) async fn act(
    store: &Store,
    no: i64,
    entrant: i64,
    deal: i64,
    seq: i64,
    action: &str,
    result: Option<(&str, &str)>,
    now: i64,
) -> Result<Acted, StoreError> {
    let raise = "UPDATE tournaments SET news = news + 1 WHERE no = $1 AND ends > $2
                 RETURNING news";
    let open = "SELECT COUNT(*) FROM tournaments WHERE no = $1 AND ends > $2";
    let insert = "INSERT INTO tournament_actions (tournament_no, entrant, deal, seq, action)
                  VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING";
    let finish = "INSERT INTO tournament_results (tournament_no, entrant, deal, result, outcome,
                  finished, news) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING";
    with_pool!(store.pool(), pool => {
        let mut tx = pool.begin().await?;
        let news: Option<i64> = if result.is_some() {
            let news: Option<i64> = sqlx::query_scalar(raise)
                .bind(no)
                .bind(now)
                .fetch_optional(&mut *tx)
                .await?;
            if news.is_none() {
                return Ok(Acted::Closed);
            }
            news
        } else {
            let n: i64 = sqlx::query_scalar(open).bind(no).bind(now).fetch_one(&mut *tx).await?;
            if n == 0 {
                return Ok(Acted::Closed);
            }
            None
        };
        let stored = sqlx::query(insert)
            .bind(no)
            .bind(entrant)
            .bind(deal)
            .bind(seq)
            .bind(action)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if stored == 0 {
            return Ok(Acted::Stale);
        }
        if let (Some((result, outcome)), Some(news)) = (result, news) {
            let posted = sqlx::query(finish)
                .bind(no)
                .bind(entrant)
                .bind(deal)
                .bind(result)
                .bind(outcome)
                .bind(now)
                .bind(news)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if posted == 0 {
                return Ok(Acted::Stale);
            }
        }
        tx.commit().await?;
        Ok(Acted::Stored(news))
    })
}

/// What changed in a tournament since its `news` count was `since`.
#[derive(Debug, Default)]
pub(crate) struct News {
    /// The count now.
    pub news: i64,
    /// When it closes now.
    pub ends: i64,
    /// Entrants written since, in order.
    pub entrants: Vec<EntrantRow>,
    /// Results written since, in order.
    pub results: Vec<ResultRow>,
}

/// What changed in tournament `no` since `since`; `None` when nothing did.
pub(crate) async fn news_since(
    store: &Store,
    no: i64,
    since: i64,
) -> Result<Option<News>, StoreError> {
    let head = "SELECT news, ends FROM tournaments WHERE no = $1";
    let entrants = "SELECT entrant, name, account_no, token FROM tournament_entrants
                    WHERE tournament_no = $1 AND news > $2 ORDER BY entrant";
    let results = "SELECT entrant, deal, result, outcome FROM tournament_results
                   WHERE tournament_no = $1 AND news > $2 ORDER BY news";
    with_pool!(store.pool(), pool => {
        let h: Option<(i64, i64)> = sqlx::query_as(head).bind(no).fetch_optional(pool).await?;
        let Some((news, ends)) = h.filter(|&(n, _)| n != since) else {
            return Ok(None);
        };
        // Results before entrants: an entrant is written before his results, so every
        // result read has its entrant in the second read.
        let r: Vec<(i64, i64, String, String)> =
            sqlx::query_as(results).bind(no).bind(since).fetch_all(pool).await?;
        let e: Vec<(i64, String, Option<i64>, String)> =
            sqlx::query_as(entrants).bind(no).bind(since).fetch_all(pool).await?;
        Ok(Some(News {
            news,
            ends,
            entrants: e
                .into_iter()
                .map(|(entrant, name, account_no, token)| EntrantRow { entrant, name, account_no, token })
                .collect(),
            results: r
                .into_iter()
                .map(|(entrant, deal, result, outcome)| ResultRow { entrant, deal, result, outcome })
                .collect(),
        }))
    })
}

/// How many actions entrant `entrant` of tournament `no` has stored.
pub(crate) async fn action_count(store: &Store, no: i64, entrant: i64) -> Result<i64, StoreError> {
    let sql = "SELECT COUNT(*) FROM tournament_actions WHERE tournament_no = $1 AND entrant = $2";
    Ok(with_pool!(store.pool(), pool => sqlx::query_scalar(sql)
        .bind(no)
        .bind(entrant)
        .fetch_one(pool)
        .await?))
}

/// Entrant `entrant`'s actions: (deal, the action as JSON), in order.
pub(crate) async fn actions_of(
    store: &Store,
    no: i64,
    entrant: i64,
) -> Result<Vec<(i64, String)>, StoreError> {
    let sql = "SELECT deal, action FROM tournament_actions
               WHERE tournament_no = $1 AND entrant = $2 ORDER BY deal, seq";
    Ok(with_pool!(store.pool(), pool => sqlx::query_as(sql)
        .bind(no)
        .bind(entrant)
        .fetch_all(pool)
        .await?))
}

/// Deal `deal`'s par as kept (its wire form, JSON; `"null"` for a deal without one).
pub(crate) async fn par(store: &Store, no: i64, deal: i64) -> Result<Option<String>, StoreError> {
    let sql = "SELECT par FROM tournament_pars WHERE tournament_no = $1 AND deal = $2";
    Ok(with_pool!(store.pool(), pool => sqlx::query_scalar(sql)
        .bind(no)
        .bind(deal)
        .fetch_optional(pool)
        .await?))
}

/// Keeps deal `deal`'s par (the first node to compute it keeps its own; the same anyway).
pub(crate) async fn keep_par(
    store: &Store,
    no: i64,
    deal: i64,
    par: &str,
) -> Result<(), StoreError> {
    let sql = "INSERT INTO tournament_pars (tournament_no, deal, par) VALUES ($1, $2, $3)
               ON CONFLICT DO NOTHING";
    with_pool!(store.pool(), pool => {
        sqlx::query(sql).bind(no).bind(deal).bind(par).execute(pool).await?;
    });
    Ok(())
}

/// Tells the other nodes tournament `id` changed (PostgreSQL's `NOTIFY pref_tournaments`,
/// the id as payload); nothing on SQLite, where the node is alone.
pub(crate) async fn notify(store: &Store, id: &str) -> Result<(), StoreError> {
    if let Pool::Postgres(pool) = store.pool() {
        sqlx::query("SELECT pg_notify('pref_tournaments', $1)")
            .bind(id)
            .execute(pool)
            .await?;
    }
    Ok(())
}
