//! Quick pairing: the seekers of one choice who get a table now are taken from the line
//! (first come, first seated: `store.rs`'s `take`, one transaction under a lock on the
//! choice, so no seeker is taken twice on any node), a table is opened on this node with
//! the lobby as its host, each taken seeker is seated in his place in the line, bots take
//! the seats left when the seekers allowed it, and the seats are written back to the seeks
//! all at once, with the table's listing in the same transaction: the seekers' nodes hand
//! them over. The game starts once every seat is
//! taken and open ([`start_when_open`]); a seat its seeker has not opened within
//! `lobby.open_grace_secs` is freed, and the others wait at the table, listed in the lobby,
//! for somebody to take it. The opening runs as its own task, so the
//! follower keeps publishing the lobby's items meanwhile. A seeker gone meanwhile undoes the
//! handing: the others wait again in their places, and the table, never started, expires
//! as an idle lobby does. At a rated table each seat's write claims its seeker's one rated
//! seat (`store/rated.rs`): a seeker who sat at another rated table since he sought is
//! refused there, his seek goes and the others wait again; and the seats of a paired rated
//! table that does not start are freed, so that they hold no rated seat.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use pref_core::Profile;
use pref_protocol::BotLevel;

use super::Lobby;
use super::choice;
use super::now_ms;
use super::store::{NewPublic, SeekRow, Waiting, pick};
use crate::api::error::ApiError;
use crate::api::table_id;
use crate::ids::Secret;
use crate::table::command::{Command, HostRequest};
use crate::table::machine::TableError;
use crate::table::open::Opener;

/// Pairs every line of `waiting` (the seeks as this step read them, first come first) as
/// often as it fills a table; returns the seeks taken. A line is taken from the database
/// (one transaction, which reads it again under its lock) only when what was read fills a
/// table: a step that pairs nobody writes nothing.
///
/// # Errors
/// [`ApiError::Internal`] if the database refuses.
pub(super) async fn pair(
    lobby: &Arc<Lobby>,
    waiting: &[Waiting],
    now_ms: i64,
) -> Result<HashSet<i64>, ApiError> {
    let mut lines: BTreeMap<&str, Vec<SeekRow>> = BTreeMap::new();
    for w in waiting {
        lines.entry(&w.choice).or_default().push(w.row.clone());
    }
    let mut gone = HashSet::new();
    for (choice, mut line) in lines {
        while !pick(&line, now_ms).is_empty() {
            let taken = lobby.rows.take(choice, now_ms).await?;
            if taken.is_empty() {
                // Another node took them meanwhile.
                break;
            }
            gone.extend(taken.iter().map(|s| s.no));
            line.retain(|s| !gone.contains(&s.no));
            // Opened and seated beside the follower, which goes on reading the lobby:
            // a table's opening does not hold up the lobby's items.
            let lobby = Arc::clone(lobby);
            let rated = choice::rated_family(choice);
            let bots = choice::is_bots_line(choice);
            tokio::spawn(async move {
                // A table seated is published, which tells every node.
                if let Err(e) = seat(&lobby, &taken, rated, bots).await {
                    // Back in their places; tried again at the next step.
                    tracing::warn!(error = %e, "a paired table could not be opened");
                    let seeks: Vec<i64> = taken.iter().map(|s| s.no).collect();
                    if let Err(e) = lobby.rows.release(&seeks).await {
                        tracing::warn!(error = %e, "paired seeks were not put back");
                    }
                    lobby.changed_seeks().await;
                }
            });
        }
    }
    Ok(gone)
}

/// Opens the table of `taken` (rated in `rated`'s family, if given) and seats them (as bot
/// accounts, marked so in their seats, when `bots`); `false` when one of them left
/// meanwhile.
async fn seat(
    lobby: &Arc<Lobby>,
    taken: &[SeekRow],
    rated: Option<pref_rating::Family>,
    bots: bool,
) -> Result<bool, ApiError> {
    let first = taken
        .first()
        .ok_or_else(|| ApiError::Internal("nobody to seat".into()))?;
    let request: serde_json::Value = serde_json::from_str(&first.profile)
        .map_err(|e| ApiError::Internal(format!("a stored seek's profile: {e}")))?;
    let profile = Profile::from_resolved(&request)?;
    let clock = choice::control(&first.clock)?;
    let opener = Opener {
        tables: &lobby.tables,
        store: &lobby.store,
        limits: &lobby.config.limits,
        base_url: &lobby.base_url,
    };
    let (created, no) = opener
        .open(profile.clone(), clock.clone(), false, false)
        .await?;
    let id = table_id(&created.id)?;
    let host = Secret::parse(&created.host_token)
        .ok_or_else(|| ApiError::Internal("a new host token does not read back".into()))?;
    let handle = lobby.tables.get(&id)?;
    if let Some(family) = rated {
        handle
            .ask(|reply| Command::Rated { family, reply })
            .await??;
    }
    let invite = Some(host.invite_key());
    let nos: Vec<i64> = taken.iter().map(|s| s.no).collect();
    let accounts = lobby.rows.accounts_of(&nos).await?;
    let mut seats = Vec::with_capacity(taken.len());
    for ((place, s), account) in (0u8..).zip(taken).zip(accounts) {
        let (name, seat) = (s.name.clone(), Some(place));
        let claimed = if bots {
            let account = account
                .ok_or_else(|| ApiError::Internal("a bot seek without its account".into()))?;
            handle
                .ask(|reply| Command::BotClaim {
                    name,
                    seat,
                    invite,
                    invited: false,
                    account,
                    reply,
                })
                .await?
        } else {
            // At a rated table the seat's write claims the seeker's one rated seat.
            handle
                .ask(|reply| Command::Claim {
                    name,
                    seat,
                    host: Some(host),
                    invite: None,
                    account,
                    reply,
                })
                .await?
        };
        let (seat, token) = match claimed {
            Ok(claimed) => claimed,
            Err(e) => {
                unseat(&handle, host, &seats).await;
                if e == TableError::RatedElsewhere {
                    // He sat at another rated table since he sought: his seek goes, the
                    // others wait again in their places.
                    lobby.rows.drop_seek(s.no).await?;
                    lobby.changed().await;
                }
                return Err(e.into());
            }
        };
        seats.push((s.no, seat, token.expose()));
    }
    for seat in (0u8..profile.players()).skip(taken.len()) {
        let op = HostRequest::Bot {
            seat,
            level: BotLevel::Normal,
        };
        handle
            .ask(|reply| Command::Host {
                token: host,
                op,
                reply,
            })
            .await??;
    }
    // The seekers' seats and the table's listing in one write: the writer is the tables'.
    let key = created.invite_key().unwrap_or_default().to_owned();
    let row = choice::public_row((&created.id, no), &profile, clock.as_ref(), None, now_ms());
    let listed = NewPublic {
        row: &row,
        invite_key: &key,
        address: None,
    };
    if !lobby.rows.seat(&created.id, &seats, &listed).await? {
        if rated.is_some() {
            // The table never starts: its seats hold no rated seat meanwhile.
            unseat(&handle, host, &seats).await;
        }
        return Ok(false);
    }
    let people: Vec<u8> = seats.iter().map(|(_, seat, _)| *seat).collect();
    let listing = (created.id.clone(), row.created_ms);
    tokio::spawn(start_when_open(
        Arc::clone(lobby),
        (handle, host),
        listing,
        people,
    ));
    // Only the seeks changed for the lobby's lists: the table is full (it is not listed)
    // and not started (it is not live yet); its start, or a seat freed after the grace,
    // tells the tables' change (`start_when_open`). A full read of the public tables here,
    // one per pairing, changed nothing.
    lobby.changed_seeks().await;
    tracing::info!(table = no, seekers = taken.len(), "seekers paired");
    Ok(true)
}

/// Frees the `seats` (seek, seat, token) taken at a paired table that does not start (as its
/// host, with `host`): at a rated table each held its account's one rated seat.
async fn unseat(
    handle: &crate::table::registry::TableHandle,
    host: Secret,
    seats: &[(i64, u8, String)],
) {
    for &(_, seat, _) in seats {
        if !free(handle, host, seat).await {
            tracing::warn!(
                seat,
                "a seat of a paired table that does not start was not freed"
            );
        }
    }
}

/// Frees `seat` of the paired table of `handle` as its host (with `host`): whether it was.
async fn free(handle: &crate::table::registry::TableHandle, host: Secret, seat: u8) -> bool {
    let freed = handle
        .ask(|reply| Command::Host {
            token: host,
            op: HostRequest::Remove(seat),
            reply,
        })
        .await;
    matches!(freed, Ok(Ok(_)))
}

/// Starts the paired table of `handle` (whose host is the lobby, with `host`; its id and its
/// listing's `created_ms` given for the lobby's news) once every
/// seat is taken and open (a bot's always is); the seats of `people` (the seekers') not seen
/// open at any tick within `lobby.open_grace_secs` are freed at its end, so that a seeker
/// whose page never opens the table does not hold the others forever: they keep their
/// seats, and the table, public, is listed with the free ones. Ends when the game starts
/// or the table is gone (an idle lobby expires).
async fn start_when_open(
    lobby: Arc<Lobby>,
    (handle, host): (crate::table::registry::TableHandle, Secret),
    (id, created_ms): (String, i64),
    mut unopened: Vec<u8>,
) {
    let limits = &lobby.config.lobby;
    let grace = tokio::time::Instant::now() + limits.open_grace_secs.duration();
    let tick = limits
        .lobby_tick_ms
        .at_least(std::time::Duration::from_millis(10));
    loop {
        let Ok(summary) = handle.ask(Command::Summary).await else {
            return;
        };
        if summary.phase != pref_protocol::Phase::Lobby {
            return;
        }
        unopened.retain(|&s| {
            !summary
                .seats
                .get(usize::from(s))
                .is_some_and(|seat| seat.connected)
        });
        if summary
            .seats
            .iter()
            .all(|s| s.name.is_some() && s.connected)
        {
            let started = handle
                .ask(|reply| Command::Host {
                    token: host,
                    op: HostRequest::Start,
                    reply,
                })
                .await;
            if let Ok(Ok(_)) = started {
                lobby.changed_by_start(&id, created_ms).await;
                return;
            }
        }
        if !unopened.is_empty() && tokio::time::Instant::now() >= grace {
            for seat in unopened.drain(..) {
                if !free(&handle, host, seat).await {
                    tracing::warn!(seat, "an unopened paired seat was not freed");
                }
            }
            tracing::info!("a paired table freed the seats nobody opened");
            lobby.changed().await;
        }
        tokio::time::sleep(tick).await;
    }
}
