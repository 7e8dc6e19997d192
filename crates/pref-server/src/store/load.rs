//! Reading tables back: every unfinished table at start, one table on takeover, a finished
//! game on demand.

use std::str::FromStr;

use pref_core::{Action, Card, Seat};
use sqlx::Row;

use super::{Pool, Stamp, Store, StoreError, Stored};
use crate::ids::{Secret, TokenHash};

/// A table as read back at start.
#[derive(Debug)]
pub struct TableRow {
    /// Row number: the table's label in logs.
    pub no: i64,
    /// The table id.
    pub id: Secret,
    /// The host token's hash.
    pub host: TokenHash,
    /// The invite key's hash; `None` for a table stored before the key had a column, whose
    /// key is [`TokenHash::legacy_invite_key`] of the host token's hash.
    pub invite: Option<TokenHash>,
    /// The resolved profile (every key); a table stored before tables kept their resolved
    /// profile holds the request (`{"preset": …, option: value, …}`) instead.
    pub profile: serde_json::Value,
    /// Whether spectators take part in the chat.
    pub spectator_chat: bool,
    /// People only: bot accounts may not sit.
    pub people_only: bool,
    /// Dealer of the first deal.
    pub first_dealer: u8,
    /// Lobby, playing or over.
    pub state: Stored,
    /// Occupied seats.
    pub seats: Vec<SeatRow>,
    /// Deals in order, each with its actions.
    pub deals: Vec<DealRow>,
    /// Each deal's fairness rows (`store/fair.rs`).
    pub fair: Vec<super::FairRow>,
    /// The clock (`ClockInfo` as JSON), at a table with one.
    pub clock: Option<serde_json::Value>,
    /// Until when the table was last served (`store/served.rs`), if that was marked.
    pub served_ms: Option<u64>,
    /// The turns its clock moved after outages.
    pub outages: Vec<super::Outage>,
    /// Its last chat lines, oldest first (`store/kept.rs`).
    pub chat: Vec<super::ChatRow>,
    /// Its seats' "I'm back"s, in order.
    pub backs: Vec<super::Back>,
    /// A practice table's hint counts (`None` for any other table).
    pub practice: Option<super::HintCounts>,
    /// A rated table's family (`store/rated.rs`; `None` for any other table).
    pub rated: Option<String>,
}

/// An occupied seat as stored.
#[derive(Debug)]
pub struct SeatRow {
    /// The seat.
    pub seat: u8,
    /// The player's name.
    pub name: String,
    /// The seat token's hash.
    pub token: TokenHash,
    /// The bot's level (`easy`, `normal`, `strong`) when a bot holds the seat.
    pub bot: Option<String>,
    /// A bot account holds it (its seat is tied to an account marked as a bot).
    pub bot_account: bool,
    /// The first deal the occupant holds the seat for (0 for a seat stored before this was
    /// kept: such an occupant sees the deals before his own, as every occupant did then).
    pub from_deal: u32,
    /// The host claimed the seat with the host token (his own seat; `false` for a seat
    /// stored before this was kept).
    pub host: bool,
}

/// A deal as stored.
#[derive(Debug)]
pub struct DealRow {
    /// The shuffled deck.
    pub deck: [Card; 32],
    /// Accepted actions in order: the acting player and the action.
    pub actions: Vec<(Seat, Action)>,
    /// When the deal was dealt, in Unix milliseconds (absent for rows older than clocks).
    pub at_ms: Option<u64>,
    /// Per action, in the same order, when it was made and whether by the autopilot.
    pub stamps: Vec<Stamp>,
}

impl Store {
    /// Every live table (lobby or playing: not over, not expired), with its seats, decks and actions.
    ///
    /// # Errors
    /// [`StoreError`] if the database cannot be read or a row does not parse.
    pub async fn unfinished(&self) -> Result<Vec<TableRow>, StoreError> {
        let nos: Vec<i64> = with_pool!(&self.pool, pool => {
            sqlx::query_scalar(
                "SELECT no FROM tables WHERE state IN ('lobby', 'playing') ORDER BY no",
            )
                .fetch_all(pool)
                .await?
        });
        let mut out = Vec::with_capacity(nos.len());
        for no in nos {
            out.extend(self.table(no).await?);
        }
        Ok(out)
    }

    /// Table `no` with its seats, decks and actions, unless it is over, expired or unknown.
    ///
    /// # Errors
    /// [`StoreError`] if the database cannot be read or a row does not parse.
    pub async fn table(&self, no: i64) -> Result<Option<TableRow>, StoreError> {
        self.load(no, false).await
    }

    /// The finished game of table `id`, with every deal, to show its settlement and record
    /// again after a restart; `None` if there is no such table or it is not over.
    ///
    /// # Errors
    /// [`StoreError`] if the database cannot be read or a row does not parse.
    pub async fn finished(&self, id: &Secret) -> Result<Option<TableRow>, StoreError> {
        let no: Option<i64> = with_pool!(&self.pool, pool => {
            sqlx::query_scalar("SELECT no FROM tables WHERE id = $1 AND state = 'over'")
                .bind(id.expose())
                .fetch_optional(pool)
                .await?
        });
        match no {
            Some(no) => self.load(no, true).await,
            None => Ok(None),
        }
    }

    /// Table `no` as stored, with its fairness rows; a finished one only when `over` is set.
    async fn load(&self, no: i64, over: bool) -> Result<Option<TableRow>, StoreError> {
        let mut row = self.load_row(no, over).await?;
        if let Some(r) = &mut row {
            r.fair = self.fair_rows(no).await?;
            r.served_ms = self.served_until(no).await?;
            r.outages = self.outages(no).await?;
            r.chat = self.chat_lines(no).await?;
            r.backs = self.backs(no).await?;
            r.practice = self.practice(no).await?;
            r.rated = self.rated_family(no).await?;
        }
        Ok(row)
    }

    /// Table `no`'s own rows, seats, decks and actions.
    async fn load_row(&self, no: i64, over: bool) -> Result<Option<TableRow>, StoreError> {
        let query = if over {
            "SELECT no, id, host_token, profile, spectator_chat, first_dealer, state, clock, invite,
                 people_only
             FROM tables WHERE no = $1 AND state = 'over'"
        } else {
            "SELECT no, id, host_token, profile, spectator_chat, first_dealer, state, clock, invite,
                 people_only
             FROM tables WHERE no = $1 AND state IN ('lobby', 'playing')"
        };
        with_pool!(&self.pool, pool => {
            let Some(r) = sqlx::query(query)
            .bind(no)
            .fetch_optional(pool)
            .await?
            else {
                return Ok(None);
            };
            let damaged = |why: String| StoreError::Damaged { table: no, why };
            let secret = |s: String| Secret::parse(&s).ok_or_else(|| damaged("bad secret".into()));
            let id = secret(r.get(1))?;
            let token = |s: String| {
                TokenHash::read_stored(&s).ok_or_else(|| damaged("bad token".into()))
            };
            let host = token(r.get(2))?;
            let invite = r.get::<Option<String>, _>(8).map(token).transpose()?;
            let profile =
                serde_json::from_str(&r.get::<String, _>(3)).map_err(|e| damaged(e.to_string()))?;
            let state = match r.get::<String, _>(6).as_str() {
                "lobby" => Stored::Lobby,
                "over" => Stored::Over,
                _ => Stored::Playing,
            };
            let mut seats = Vec::new();
            for s in sqlx::query(
                "SELECT s.seat, s.name, s.token, s.bot, s.from_deal, s.host_claimed,
                     (SELECT COUNT(*) FROM tables t
                      JOIN account_seats l ON l.table_id = t.id
                      JOIN accounts a ON a.no = l.account_no
                      WHERE t.no = s.table_no AND l.seat = s.seat AND l.token_hash = s.token
                          AND a.bot = 1)
                 FROM seats s WHERE s.table_no = $1 ORDER BY s.seat",
            )
            .bind(no)
            .fetch_all(pool)
            .await?
            {
                seats.push(SeatRow {
                    seat: s.get::<i64, _>(0) as u8,
                    name: s.get(1),
                    token: token(s.get(2))?,
                    bot: s.get(3),
                    bot_account: s.get::<i64, _>(6) > 0,
                    from_deal: u32::try_from(s.get::<i64, _>(4))
                        .map_err(|e| damaged(e.to_string()))?,
                    host: s.get::<i64, _>(5) != 0,
                });
            }
            let clock = r
                .get::<Option<String>, _>(7)
                .map(|c| serde_json::from_str(&c))
                .transpose()
                .map_err(|e| damaged(e.to_string()))?;
            let decks = sqlx::query("SELECT deal_no, deck, at_ms FROM deals WHERE table_no = $1 ORDER BY deal_no")
                .bind(no)
                .fetch_all(pool)
                .await?;
            // One query for every action of the table, split by deal below.
            let all_actions = sqlx::query(
                "SELECT deal_no, player, action, at_ms, auto FROM actions WHERE table_no = $1 ORDER BY deal_no, seq",
            )
            .bind(no)
            .fetch_all(pool)
            .await?;
            let mut deals = Vec::new();
            for d in decks {
                let deal_no: i64 = d.get(0);
                let cards: Result<Vec<Card>, _> = d
                    .get::<String, _>(1)
                    .split(' ')
                    .map(Card::from_str)
                    .collect();
                let deck: [Card; 32] = cards
                    .map_err(|e| damaged(e.to_string()))?
                    .try_into()
                    .map_err(|_| damaged("a deck is not 32 cards".into()))?;
                let mut actions = Vec::new();
                let mut stamps = Vec::new();
                for a in all_actions.iter().filter(|a| a.get::<i64, _>(0) == deal_no) {
                    let action: Action = serde_json::from_str(&a.get::<String, _>(2))
                        .map_err(|e| damaged(e.to_string()))?;
                    actions.push((Seat(a.get::<i64, _>(1) as u8), action));
                    stamps.push(Stamp {
                        at_ms: a.get::<Option<i64>, _>(3).map(|t| t as u64),
                        auto: a.get::<i64, _>(4) != 0,
                    });
                }
                let at_ms = d.get::<Option<i64>, _>(2).map(|t| t as u64);
                deals.push(DealRow { deck, actions, at_ms, stamps });
            }
            Ok(Some(TableRow {
                no,
                id,
                host,
                invite,
                profile,
                spectator_chat: r.get(4),
                people_only: r.get::<i64, _>(9) != 0,
                first_dealer: r.get::<i64, _>(5) as u8,
                state,
                seats,
                deals,
                fair: Vec::new(),
                clock,
                served_ms: None,
                outages: Vec::new(),
                chat: Vec::new(),
                backs: Vec::new(),
                practice: None,
                rated: None,
            }))
        })
    }
}
