//! One seat played over the socket with the server's own bot: the events the seat sees
//! feed [`Bot::observe`]; on its turn the bot asks for a snapshot (`resync`), whose view
//! and legal actions are what [`Bot::decide`] takes. Nothing here knows a rule: the server
//! says what is legal, and the bot chooses among it.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use pref_bot::{Bot, Budget, Level};
use pref_core::{ActionList, Profile, Viewer};
use pref_protocol::{ClientMessage, ErrorCode, Item, Public, ServerMessage, Snapshot};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::http::Api;

/// How the seat's game went.
#[derive(Debug, Default)]
pub(crate) struct Played {
    /// Deals finished while the bot sat.
    pub deals: u32,
    /// Actions the bot sent.
    pub actions: u32,
    /// The game ended (not only the bot's share of deals).
    pub over: bool,
}

/// The consecutive raspasy deals just before the shown deal (R3.3), as the snapshot's
/// score log tells them.
fn raspasy_before(s: &Snapshot) -> u32 {
    let kinds: Vec<bool> = s
        .score_log
        .iter()
        .map(|e| {
            serde_json::to_value(e)
                .ok()
                .is_some_and(|v| v["outcome"]["kind"] == "raspasy")
        })
        .collect();
    let streak = kinds.iter().rev().take_while(|&&r| r).count();
    u32::try_from(streak).unwrap_or(u32::MAX)
}

struct Seat {
    level: Level,
    seed: u64,
    bot: Option<Bot>,
    version: u64,
    /// A `resync` was sent for the turn and its snapshot is awaited.
    asked: bool,
}

impl Seat {
    /// The bot's decision on a snapshot's turn, if the seat is to act.
    fn decide(&mut self, s: &Snapshot) -> Result<Option<ClientMessage>, String> {
        let Viewer::Seat(seat) = s.you else {
            return Err("the token holds no seat at this table".into());
        };
        let profile = Profile::from_resolved(&s.table.profile).map_err(|e| e.to_string())?;
        let level = self.level;
        let bot = self.bot.get_or_insert_with(|| {
            Bot::new(seat, level, &profile, self.seed).claiming(profile.claims())
        });
        // Claims out of turn are left to the bot's own turn (R6.7 allows either).
        let (Some(view), false) = (&s.deal, s.turn.legal.is_empty()) else {
            return Ok(None);
        };
        bot.set_raspasy_before(raspasy_before(s));
        let legal = ActionList::read(&s.turn.legal, s.turn.claim)
            .ok_or("the server's legal actions do not read as a list")?;
        let action = bot.decide(view, &legal, Budget::for_level(level));
        Ok(Some(ClientMessage::Action {
            id: format!("a{}", s.version),
            version: s.version,
            action,
        }))
    }
}

/// Plays the seat the token holds at `table` until the game is over or `deals` deals have
/// finished (0: the whole game).
///
/// # Errors
/// What broke: the socket, a message that does not read, a seat not held.
pub(crate) async fn play(
    api: &Api,
    table: &str,
    level: Level,
    deals: u32,
) -> Result<Played, String> {
    let mut req = format!("ws://{}/api/tables/{table}/ws", api.addr)
        .into_client_request()
        .map_err(|e| e.to_string())?;
    let bearer = format!("Bearer {}", api.token)
        .parse()
        .map_err(|_| "the token is not a header value")?;
    req.headers_mut().insert("authorization", bearer);
    let (mut ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .map_err(|e| format!("socket: {e}"))?;
    let mut seat = Seat {
        level,
        seed: rand::random(),
        bot: None,
        version: 0,
        asked: false,
    };
    let mut played = Played::default();
    let resync = || Message::Text(r#"{"type":"resync"}"#.into());
    while let Some(msg) = ws.next().await {
        let text = match msg.map_err(|e| format!("socket: {e}"))? {
            Message::Text(t) => t,
            Message::Close(frame) => {
                return Err(format!("the server closed the socket: {frame:?}"));
            }
            _ => continue,
        };
        let msg: ServerMessage = serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?;
        let mut turn = false;
        match msg {
            ServerMessage::Snapshot(s) => {
                seat.version = s.version;
                seat.asked = false;
                if let Some(action) = seat.decide(&s)? {
                    let text = serde_json::to_string(&action).map_err(|e| e.to_string())?;
                    ws.send(Message::Text(text.into()))
                        .await
                        .map_err(|e| e.to_string())?;
                    played.actions += 1;
                }
            }
            ServerMessage::Event {
                version,
                event,
                turn: t,
            } => {
                seat.version = version;
                match event {
                    Some(Item::Deal { event, .. }) => {
                        if let Some(bot) = seat.bot.as_mut() {
                            bot.observe(&event);
                        }
                    }
                    Some(Item::Public(Public::DealFinished { game_over, .. })) => {
                        played.deals += 1;
                        if game_over || (deals > 0 && played.deals >= deals) {
                            played.over = game_over;
                            return Ok(played);
                        }
                    }
                    Some(Item::Public(Public::GameOver(_))) => {
                        played.over = true;
                        return Ok(played);
                    }
                    Some(Item::Public(_)) | None => {}
                }
                turn = t.is_some_and(|t| !t.legal.is_empty());
            }
            ServerMessage::Error {
                code: ErrorCode::RateLimited,
                ..
            } if seat.asked => {
                // The seat's budget for resyncs is spent for a moment: ask again.
                tokio::time::sleep(Duration::from_millis(600)).await;
                turn = true;
            }
            ServerMessage::Rejected {
                reason, message, ..
            } => eprintln!("refused ({reason:?}): {message}"),
            // A hint answers a practice table's player who asked; this client never asks.
            ServerMessage::Ack { .. }
            | ServerMessage::ScorePage(_)
            | ServerMessage::Hint { .. }
            | ServerMessage::Error { .. } => {}
        }
        if turn {
            seat.asked = true;
            ws.send(resync()).await.map_err(|e| e.to_string())?;
        }
    }
    Err("the socket closed before the game ended".into())
}
