//! The tournaments' rows (migrations `0100_tournaments.sql`), in the same SQLite or
//! PostgreSQL database as the tables: a tournament with its deals' seeds, its entrants,
//! every action an entrant made and every result. An action is written, and its commit has
//! returned, before the entrant is shown what it led to; a deal's last action and its
//! result are one transaction.

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
    "no, id, kind, day, name, preset, level, seeds, starts, ends, host_token, created";

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
    }
}

/// Stores a new tournament; its row number, or `None` when a daily tournament of that day
/// is there already.
pub(crate) async fn create(store: &Store, t: &TournamentRow) -> Result<Option<i64>, StoreError> {
    let sql = "INSERT INTO tournaments (id, kind, day, name, preset, level, seeds, starts, ends,
               host_token, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
               ON CONFLICT DO NOTHING RETURNING no";
    Ok(with_pool!(store.pool(), pool => sqlx::query_scalar(sql)
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
        .fetch_optional(pool)
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

/// Closes tournament `no` at `ends` (its creator's early close).
pub(crate) async fn set_ends(store: &Store, no: i64, ends: i64) -> Result<(), StoreError> {
    let sql = "UPDATE tournaments SET ends = $2 WHERE no = $1";
    with_pool!(store.pool(), pool => {
        sqlx::query(sql).bind(no).bind(ends).execute(pool).await?;
    });
    Ok(())
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

/// Stores an entrant; `false` if the account has entered already.
pub(crate) async fn enter(
    store: &Store,
    no: i64,
    e: &EntrantRow,
    entered: i64,
) -> Result<bool, StoreError> {
    let sql = "INSERT INTO tournament_entrants (tournament_no, entrant, name, account_no, token,
               entered) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING";
    let rows = with_pool!(store.pool(), pool => sqlx::query(sql)
        .bind(no)
        .bind(e.entrant)
        .bind(&e.name)
        .bind(e.account_no)
        .bind(&e.token)
        .bind(entered)
        .execute(pool)
        .await?
        .rows_affected());
    Ok(rows == 1)
}

/// Stores an entrant's action number `seq` on deal `deal`, and the deal's result with it
/// when the action ended the deal, in one transaction.
pub(crate) async fn act(
    store: &Store,
    no: i64,
    entrant: i64,
    deal: i64,
    seq: i64,
    action: &str,
    result: Option<(&str, &str, i64)>,
) -> Result<(), StoreError> {
    let insert = "INSERT INTO tournament_actions (tournament_no, entrant, deal, seq, action)
                  VALUES ($1, $2, $3, $4, $5)";
    let finish = "INSERT INTO tournament_results (tournament_no, entrant, deal, result, outcome,
                  finished) VALUES ($1, $2, $3, $4, $5, $6)";
    with_pool!(store.pool(), pool => {
        let mut tx = pool.begin().await?;
        sqlx::query(insert)
            .bind(no)
            .bind(entrant)
            .bind(deal)
            .bind(seq)
            .bind(action)
            .execute(&mut *tx)
            .await?;
        if let Some((result, outcome, finished)) = result {
            sqlx::query(finish)
                .bind(no)
                .bind(entrant)
                .bind(deal)
                .bind(result)
                .bind(outcome)
                .bind(finished)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
    });
    Ok(())
}
