//! The measurement behind `docs/performance.md` ("A player with 10,000 games"): a player
//! whose page lists 10,000 finished games gets the first page of his games and his
//! statistics, over real HTTP, in less than 20 ms and 200 ms. The games are written straight
//! into the database (tables, seats, the account's links, each game's counted figures), as
//! 10,000 played and counted games would leave it.
//!
//! `cargo test -p pref-server --release --test accounts_bench -- --ignored --nocapture`

mod common;

use std::time::{Duration, Instant};

use common::*;
use pref_core::Profile;
use pref_core::stats::SeatStats;
use serde_json::json;
use sqlx::Row;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const GAMES: usize = 10_000;

/// One GET; its status, body length and time.
async fn get(addr: &str, path: &str) -> (u16, usize, Duration) {
    let start = Instant::now();
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.unwrap();
    let took = start.elapsed();
    let status = String::from_utf8_lossy(&raw[9..12]).parse().unwrap();
    (status, raw.len(), took)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run it in release with --ignored --nocapture"]
async fn a_player_with_ten_thousand_games_gets_his_first_page_and_his_stats_in_time() {
    let (addr, dir) = server("acc-bench", |c| {
        c.accounts.argon2_memory_kib = 8;
        c.accounts.argon2_iterations = 1;
    })
    .await;
    let (status, _) = http(
        &addr,
        "POST",
        "/api/accounts",
        Some(&json!({"name": "Anna", "password": "a long password"})),
        None,
    )
    .await;
    assert_eq!(status, 201);

    let pool =
        sqlx::SqlitePool::connect(&format!("sqlite://{}", dir.join("pref.sqlite3").display()))
            .await
            .unwrap();
    let account: i64 = sqlx::query("SELECT no FROM accounts WHERE folded = 'anna'")
        .fetch_one(&pool)
        .await
        .unwrap()
        .get(0);
    let profile = Profile::sochi().to_json().to_string();
    let mut game = SeatStats {
        games: 1,
        settled: 1,
        deals: 24,
        declared: 6,
        whists: 5,
        whists_kept: 4,
        raspasy: 3,
        raspasy_tricks: 7,
        whist_points: 140,
        ..SeatStats::default()
    };
    game.levels[0].played = 4;
    game.levels[0].made = 3;
    let mut totals = SeatStats::default();
    let start = Instant::now();
    let mut tx = pool.begin().await.unwrap();
    for i in 0..GAMES {
        let id = format!("{:032x}", 0xa000_0000_0000_0000_u128 + i as u128);
        let no: i64 = sqlx::query(
            "INSERT INTO tables (id, host_token, profile, spectator_chat, first_dealer, state)
             VALUES ($1, $2, $3, 0, 0, 'over') RETURNING no",
        )
        .bind(&id)
        .bind(format!("{:064x}", i))
        .bind(&profile)
        .fetch_one(&mut *tx)
        .await
        .unwrap()
        .get(0);
        for seat in 0..3_i64 {
            let (name, bot) = if seat == 0 {
                ("Anna", None)
            } else {
                ("Bot", Some("easy"))
            };
            sqlx::query(
                "INSERT INTO seats (table_no, seat, name, token, bot) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(no)
            .bind(seat)
            .bind(name)
            .bind(format!("{:060x}{seat:04x}", i))
            .bind(bot)
            .execute(&mut *tx)
            .await
            .unwrap();
        }
        let at = 1_764_000_000 + i as i64 * 600;
        sqlx::query(
            "INSERT INTO account_seats (account_no, table_id, seat, token_hash, sealed, at, counted)
             VALUES ($1, $2, 0, $3, NULL, $4, 1)",
        )
        .bind(account)
        .bind(&id)
        .bind(format!("{:060x}{:04x}", i, 0))
        .bind(at)
        .execute(&mut *tx)
        .await
        .unwrap();
        let result = format!("{}/3", (i as i64 % 41) - 20);
        // Marked analysed: these games have no record for the background analysis to read.
        sqlx::query(
            "INSERT INTO account_games (account_no, table_id, counted, result, stats, analysed)
             VALUES ($1, $2, $3, $4, $5, 1)",
        )
        .bind(account)
        .bind(&id)
        .bind(at + 3000)
        .bind(&result)
        .bind(serde_json::to_string(&game).unwrap())
        .execute(&mut *tx)
        .await
        .unwrap();
        totals.add(&game);
    }
    sqlx::query("INSERT INTO account_stats (account_no, totals) VALUES ($1, $2)")
        .bind(account)
        .bind(serde_json::to_string(&totals).unwrap())
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    println!("{GAMES} games written in {:?}", start.elapsed());

    let (mut pages, mut stats) = (Vec::new(), Vec::new());
    let (mut page_bytes, mut stats_bytes) = (0, 0);
    for _ in 0..21 {
        let (status, bytes, took) = get(&addr, "/api/players/anna/games").await;
        assert_eq!(status, 200);
        pages.push(took);
        page_bytes = bytes;
        let (status, bytes, took) = get(&addr, "/api/players/anna/stats").await;
        assert_eq!(status, 200);
        stats.push(took);
        stats_bytes = bytes;
    }
    let (page, stat) = (median(pages), median(stats));
    println!(
        "first page of games: median {page:?} ({page_bytes} bytes); stats: median {stat:?} ({stats_bytes} bytes), of 21 each"
    );
    assert!(
        page < Duration::from_millis(20),
        "the first page took {page:?}"
    );
    assert!(stat < Duration::from_millis(200), "the stats took {stat:?}");
}
