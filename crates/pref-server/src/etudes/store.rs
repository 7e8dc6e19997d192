//! The études found in games, in the server's database (migration `0170_etudes.sql`): one
//! row per position, its étude as JSON with its answer (never sent), and the finished tables
//! the scan has read.

use pref_analysis::etude::{Aim, Etude};
use pref_core::{Card, CardSet, Suit};
use serde_json::{Value, json};
use sqlx::Row;

use crate::store::{Pool, Store, StoreError, with_pool};

/// The most found études the list shows, the easiest first.
pub(crate) const LISTED: i64 = 100;

/// Finished tables not read by the scan yet, oldest first, at most `n`: (row, id).
pub(crate) async fn unscanned(store: &Store, n: i64) -> Result<Vec<(i64, String)>, StoreError> {
    let sql = "SELECT no, id FROM tables WHERE state = 'over'
               AND no NOT IN (SELECT table_no FROM etude_scans) ORDER BY no LIMIT $1";
    Ok(with_pool!(store.pool(), pool => {
        sqlx::query(sql)
            .bind(n)
            .fetch_all(pool)
            .await?
            .into_iter()
            .map(|r| Ok((r.try_get("no")?, r.try_get("id")?)))
            .collect::<Result<Vec<_>, sqlx::Error>>()?
    }))
}

/// Marks table `no` read and stores its études (a position stored before is kept as it
/// was), in one transaction.
pub(crate) async fn scanned(
    store: &Store,
    no: i64,
    found: &[(Etude, u64)],
    at: i64,
) -> Result<(), StoreError> {
    let mark = "INSERT INTO etude_scans (table_no) VALUES ($1) ON CONFLICT DO NOTHING";
    let insert = "INSERT INTO found_etudes (id, etude, nodes, found_at) VALUES ($1, $2, $3, $4)
                  ON CONFLICT DO NOTHING";
    with_pool!(store.pool(), pool => {
        let mut tx = pool.begin().await?;
        sqlx::query(mark).bind(no).execute(&mut *tx).await?;
        for (e, nodes) in found {
            sqlx::query(insert)
                .bind(&e.id)
                .bind(to_json(e).to_string())
                .bind(i64::try_from(*nodes).unwrap_or(i64::MAX))
                .bind(at)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
    });
    Ok(())
}

/// The found études, the easiest (fewest nodes) first, at most [`LISTED`].
pub(crate) async fn listed(store: &Store) -> Result<Vec<(Etude, u64)>, StoreError> {
    let sql = "SELECT etude, nodes FROM found_etudes ORDER BY nodes, id LIMIT $1";
    let rows: Vec<(String, i64)> = with_pool!(store.pool(), pool => {
        sqlx::query(sql)
            .bind(LISTED)
            .fetch_all(pool)
            .await?
            .into_iter()
            .map(|r| Ok((r.try_get("etude")?, r.try_get("nodes")?)))
            .collect::<Result<Vec<_>, sqlx::Error>>()?
    });
    Ok(rows
        .into_iter()
        .filter_map(|(text, nodes)| Some((from_json(&text)?, u64::try_from(nodes).ok()?)))
        .collect())
}

/// Found étude `id`, if stored.
pub(crate) async fn one(store: &Store, id: &str) -> Result<Option<(Etude, u64)>, StoreError> {
    let sql = "SELECT etude, nodes FROM found_etudes WHERE id = $1";
    let row: Option<(String, i64)> = with_pool!(store.pool(), pool => {
        match sqlx::query(sql).bind(id).fetch_optional(pool).await? {
            Some(r) => Some((r.try_get("etude")?, r.try_get("nodes")?)),
            None => None,
        }
    });
    Ok(row.and_then(|(text, nodes)| Some((from_json(&text)?, u64::try_from(nodes).ok()?))))
}

fn to_json(e: &Etude) -> Value {
    let (kind, declarer, trump, tricks) = match e.aim {
        Aim::CatchMisere { declarer } => ("catch_misere", declarer, None, 0),
        Aim::Make {
            declarer,
            trump,
            tricks,
        } => ("make", declarer, trump, tricks),
        Aim::Defend {
            declarer,
            trump,
            tricks,
        } => ("defend", declarer, trump, tricks),
    };
    json!({
        "id": e.id,
        "hands": e.hands,
        "leader": e.leader,
        "goal": kind,
        "declarer": declarer,
        "trump": trump.map(|s| s.letter().to_string()),
        "tricks": tricks,
        "answer": e.answer,
    })
}

fn from_json(text: &str) -> Option<Etude> {
    let v: Value = serde_json::from_str(text).ok()?;
    let declarer = usize::try_from(v["declarer"].as_u64()?).ok()?;
    let tricks = u8::try_from(v["tricks"].as_u64()?).ok()?;
    let trump = match v["trump"].as_str() {
        None => None,
        Some(l) => Some(
            Suit::ALL
                .into_iter()
                .find(|s| s.letter().to_string() == l)?,
        ),
    };
    let aim = match v["goal"].as_str()? {
        "catch_misere" => Aim::CatchMisere { declarer },
        "make" => Aim::Make {
            declarer,
            trump,
            tricks,
        },
        "defend" => Aim::Defend {
            declarer,
            trump,
            tricks,
        },
        _ => return None,
    };
    let hands: [CardSet; 3] = serde_json::from_value(v["hands"].clone()).ok()?;
    let answer: Card = serde_json::from_value(v["answer"].clone()).ok()?;
    Some(Etude {
        id: v["id"].as_str()?.to_owned(),
        hands,
        leader: usize::try_from(v["leader"].as_u64()?).ok()?,
        aim,
        answer,
    })
}
