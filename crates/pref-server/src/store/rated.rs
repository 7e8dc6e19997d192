//! Rated games' rows (migration `0140_ratings.sql`, `docs/ratings.md`): a rated table's
//! family, and the rating step of the write that ends a rated game. In the transaction that
//! ends the game ([`super::Store::set_over`]) each player's rating in the family is aged by
//! the days he was idle, the game's finishes are read from the settlement (a player away at
//! the end, on the clock's autopilot, abandoned it and is last), the change is weighted down
//! for the same accounts' games earlier that UTC day, and the new ratings are stored with one
//! history row per player. The history's key (table id, account) makes the step happen once:
//! a game ended again (a restart, another node) finds its rows and changes nothing.
//!
//! One rated table at a time (migration `0190_rated_seats.sql`): the write of a seat at a
//! rated table claims the account's row in `rated_seats` in the same transaction, and the
//! key on the account refuses a second ([`StoreError::RatedElsewhere`]) on any node; the
//! row goes when the seat is freed or taken by another, and when the game is over or its
//! lobby expires.

use pref_rating::{Finish, Rating};

use super::{Pool, Store, StoreError};
use crate::ids::TokenHash;

/// Seconds in a day: the same-players count and idle days are by UTC day.
pub(super) const DAY: i64 = 86_400;

/// Whole days from `last` to `at` (0 for a first game or a clock that went back).
pub(super) fn idle_days(last: i64, at: i64) -> u32 {
    u32::try_from((at - last).max(0) / DAY).unwrap_or(u32::MAX)
}

/// The accounts of a game, sorted and joined: the same three (or four) players whatever
/// their seats.
pub(super) fn party(accounts: &[i64]) -> String {
    let mut sorted = accounts.to_vec();
    sorted.sort_unstable();
    sorted
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// A seat's part in a game's figures: the seat, its settlement (`ratio_to_text`'s form) and
/// whether its player abandoned the game.
pub(super) type Seated<'a> = (u8, Option<&'a str>, bool);

/// The game's players to rate, by seat: the account and how it finished. `None` unless
/// every seat of `figures` is held by an account of `holders` (account, seat) and has a
/// settlement: a rated game rates all of its players or none.
pub(super) fn players<'a>(
    holders: &[(i64, i64)],
    figures: impl IntoIterator<Item = Seated<'a>>,
) -> Option<Vec<(i64, u8, Finish)>> {
    let got: Option<Vec<_>> = figures
        .into_iter()
        .map(|(seat, result, abandoned)| {
            let account = holders.iter().find(|(_, s)| *s == i64::from(seat))?.0;
            let finish = if abandoned {
                Finish::Abandoned
            } else {
                Finish::Balance(pref_core::stats::ratio_from_text(result?)?)
            };
            Some((account, seat, finish))
        })
        .collect();
    got.filter(|p| !p.is_empty())
}

/// A stored rating row (mu, sigma, games, last played).
type RatingRow = (f64, f64, i64, i64);

/// The rating a stored row says, aged to `at`; a new player's without one.
pub(super) fn aged(row: Option<RatingRow>, at: i64) -> Rating {
    let params = pref_rating::Params::STANDARD;
    match row {
        Some((mu, sigma, games, last)) => Rating {
            mu,
            sigma,
            games: u32::try_from(games).unwrap_or(u32::MAX),
        }
        .after_idle(idle_days(last, at), &params),
        None => Rating::new(&params),
    }
}

/// Rates the game at table `$table` (id) of family `$family` once, inside `$tx`: `$holders`
/// are the (account, seat) pairs whose links hold the seats, `$figures` the game's figures.
macro_rules! rate_in {
    ($tx:expr, $table:expr, $family:expr, $holders:expr, $figures:expr, $at:expr) => {{
        let table: &str = $table;
        let family: &str = $family;
        let at: i64 = $at;
        let seated = $figures.iter().map(|f| (f.seat, f.result.as_deref(), f.abandoned));
        match crate::store::rated::players($holders, seated) {
            None => tracing::warn!(table, "a rated game without a settled account per seat is not rated"),
            Some(players) => {
                let done: i64 =
                    sqlx::query_scalar("SELECT COUNT(*) FROM rating_changes WHERE table_id = $1")
                        .bind(table)
                        .fetch_one(&mut *$tx)
                        .await?;
                if done == 0 {
                    let accounts: Vec<i64> = players.iter().map(|p| p.0).collect();
                    let party = crate::store::rated::party(&accounts);
                    let earlier: i64 = sqlx::query_scalar(
                        "SELECT COUNT(DISTINCT table_id) FROM rating_changes
                         WHERE party = $1 AND family = $2 AND at >= $3",
                    )
                    .bind(&party)
                    .bind(family)
                    .bind(at - at.rem_euclid(crate::store::rated::DAY))
                    .fetch_one(&mut *$tx)
                    .await?;
                    let weight = pref_rating::same_trio_weight(
                        u32::try_from(earlier).unwrap_or(u32::MAX),
                    );
                    let mut before = Vec::with_capacity(players.len());
                    for (account, _, _) in &players {
                        let row: Option<(f64, f64, i64, i64)> = sqlx::query_as(
                            "SELECT mu, sigma, games, last_played FROM ratings
                             WHERE account_no = $1 AND family = $2",
                        )
                        .bind(account)
                        .bind(family)
                        .fetch_optional(&mut *$tx)
                        .await?;
                        before.push(crate::store::rated::aged(row, at));
                    }
                    let finishes: Vec<pref_rating::Finish> =
                        players.iter().map(|p| p.2).collect();
                    let places = pref_rating::places(&finishes);
                    let after = pref_rating::rate(
                        &before,
                        &finishes,
                        weight,
                        &pref_rating::Params::STANDARD,
                    );
                    for (i, (account, seat, _)) in players.iter().enumerate() {
                        let (old, new) = (before[i], after[i]);
                        let added = sqlx::query(
                            "INSERT INTO rating_changes (table_id, account_no, family, party, at,
                             seat, place, weight, mu_before, sigma_before, mu_after, sigma_after,
                             games) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
                             ON CONFLICT DO NOTHING",
                        )
                        .bind(table)
                        .bind(account)
                        .bind(family)
                        .bind(&party)
                        .bind(at)
                        .bind(i64::from(*seat))
                        .bind(i64::try_from(places[i]).unwrap_or(i64::MAX))
                        .bind(weight)
                        .bind(old.mu)
                        .bind(old.sigma)
                        .bind(new.mu)
                        .bind(new.sigma)
                        .bind(i64::from(new.games))
                        .execute(&mut *$tx)
                        .await?
                        .rows_affected();
                        if added == 1 {
                            sqlx::query(
                                "INSERT INTO ratings (account_no, family, mu, sigma, games, last_played)
                                 VALUES ($1, $2, $3, $4, $5, $6)
                                 ON CONFLICT (account_no, family) DO UPDATE SET mu = excluded.mu,
                                 sigma = excluded.sigma, games = excluded.games,
                                 last_played = excluded.last_played",
                            )
                            .bind(account)
                            .bind(family)
                            .bind(new.mu)
                            .bind(new.sigma)
                            .bind(i64::from(new.games))
                            .bind(at)
                            .execute(&mut *$tx)
                            .await?;
                        }
                    }
                }
            }
        }
    }};
}
pub(super) use rate_in;

/// Claims, inside `$tx` that writes seat `$seat` of table `$no`, the one rated seat of
/// account `$account` (`Option<i64>`: nothing for `None`): the seat's former holder's
/// claim goes, the account's row is added unless it has one, and a row naming another
/// table refuses the seat with [`StoreError::RatedElsewhere`] (`$tx`, dropped, writes
/// nothing). The row's key on the account makes two claims, however close, one seat: on
/// PostgreSQL the second insert waits for the first's commit and then finds its row.
macro_rules! claim_in {
    ($tx:expr, $no:expr, $seat:expr, $account:expr) => {{
        if let Some(account) = $account {
            let (no, seat): (i64, i64) = ($no, i64::from($seat));
            sqlx::query(
                "DELETE FROM rated_seats WHERE table_no = $1 AND seat = $2 AND account_no <> $3",
            )
            .bind(no)
            .bind(seat)
            .bind(account)
            .execute(&mut *$tx)
            .await?;
            sqlx::query(
                "INSERT INTO rated_seats (account_no, table_no, seat) VALUES ($1, $2, $3)
                 ON CONFLICT (account_no) DO NOTHING",
            )
            .bind(account)
            .bind(no)
            .bind(seat)
            .execute(&mut *$tx)
            .await?;
            let held: i64 =
                sqlx::query_scalar("SELECT table_no FROM rated_seats WHERE account_no = $1")
                    .bind(account)
                    .fetch_one(&mut *$tx)
                    .await?;
            if held != no {
                return Err(StoreError::RatedElsewhere);
            }
        }
    }};
}
pub(super) use claim_in;

impl Store {
    /// Marks table `no` as rated in `family` (`pref_rating::Family::as_str`).
    ///
    /// # Errors
    /// [`StoreError::Db`] if the database refuses, [`StoreError::NotOwner`] once another node
    /// holds the table.
    pub async fn set_rated(&self, no: i64, family: &str) -> Result<(), StoreError> {
        self.fenced(no)?;
        with_pool!(&self.pool, pool => {
            sqlx::query("INSERT INTO rated_tables (table_no, family) VALUES ($1, $2)
                         ON CONFLICT DO NOTHING")
                .bind(no)
                .bind(family)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Gives `seat` of rated table `no` to account `account` (a person or a bot account,
    /// from deal `from_deal` on; `host` as [`Store::put_seat`] says), claiming the
    /// account's one rated seat in the same transaction.
    ///
    /// # Errors
    /// [`StoreError::RatedElsewhere`] (nothing is written) while the account holds a seat
    /// at another rated table whose game goes on; [`StoreError::Db`], or
    /// [`StoreError::NotOwner`] once another node holds the table.
    pub async fn put_rated_seat(
        &self,
        (no, seat): (i64, u8),
        (name, token): (&str, &TokenHash),
        from_deal: u32,
        host: bool,
        account: i64,
    ) -> Result<(), StoreError> {
        self.put_seat_as(
            (no, seat),
            (name, token),
            (None, from_deal, host),
            Some(account),
        )
        .await
    }

    /// The rated table (its row number) at which `account` holds a seat, if any.
    ///
    /// # Errors
    /// [`StoreError::Db`] if the database refuses.
    pub async fn rated_seat_of(&self, account: i64) -> Result<Option<i64>, StoreError> {
        Ok(with_pool!(&self.pool, pool => {
            sqlx::query_scalar("SELECT table_no FROM rated_seats WHERE account_no = $1")
                .bind(account)
                .fetch_optional(pool)
                .await?
        }))
    }

    /// Table `no`'s rating family, when it is rated.
    ///
    /// # Errors
    /// [`StoreError::Db`] if the database refuses.
    pub async fn rated_family(&self, no: i64) -> Result<Option<String>, StoreError> {
        Ok(with_pool!(&self.pool, pool => {
            sqlx::query_scalar("SELECT family FROM rated_tables WHERE table_no = $1")
                .bind(no)
                .fetch_optional(pool)
                .await?
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_players_count_less_from_their_fourth_game_of_a_day() {
        let w: Vec<f64> = (0..8).map(pref_rating::same_trio_weight).collect();
        assert_eq!(w, [1.0, 1.0, 1.0, 0.5, 0.25, 0.125, 0.125, 0.125]);
    }

    #[test]
    fn idle_days_are_whole_days_and_never_negative() {
        assert_eq!(idle_days(0, DAY - 1), 0);
        assert_eq!(idle_days(0, 3 * DAY + 5), 3);
        assert_eq!(idle_days(5 * DAY, 0), 0);
    }

    #[test]
    fn a_party_is_its_accounts_whatever_their_seats() {
        assert_eq!(party(&[7, 2, 5]), "2,5,7");
        assert_eq!(party(&[5, 7, 2]), party(&[2, 5, 7]));
    }

    #[test]
    fn an_away_player_abandoned_and_a_seat_without_an_account_rates_nobody() {
        let figures = [
            (0, Some("10"), false),
            (1, Some("-3/2"), true),
            (2, Some("-17/2"), false),
        ];
        let holders = [(4, 0), (9, 1), (3, 2)];
        let got = players(&holders, figures).unwrap();
        assert_eq!(
            got.iter().map(|p| (p.0, p.1, p.2)).collect::<Vec<_>>(),
            vec![
                (4, 0, Finish::Balance(num_rational::Ratio::new(10, 1))),
                (9, 1, Finish::Abandoned),
                (3, 2, Finish::Balance(num_rational::Ratio::new(-17, 2))),
            ]
        );
        // The abandoner is last though his balance is second.
        let finishes: Vec<Finish> = got.iter().map(|p| p.2).collect();
        assert_eq!(pref_rating::places(&finishes), vec![1, 3, 2]);
        assert_eq!(players(&holders[..2], figures), None);
        assert_eq!(players(&holders, []), None);
        // A seat without a settlement rates nobody either.
        assert_eq!(players(&holders, [(0, None, false)]), None);
    }
}
