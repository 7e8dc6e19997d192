//! Every JSON example in `docs/protocol.md` is read here into the protocol's types and
//! written back, and must come out exactly as the doc wrote it: the doc cannot describe a
//! message the types do not produce, and every message kind must have an example.
//!
//! Fenced examples name their type after `json` (`json server`, `json client` — one message
//! per line —, `json summary`, …). In the two tables of items, the third column of the
//! `kind` table holds an [`Item`] (or a stub event) and the second column of the deal-event
//! table a [`ViewEvent`] (up to the ` — ` that starts a remark).

use std::collections::BTreeSet;

use pref_core::ViewEvent;
use pref_protocol::{
    ApiErrorBody, AttachSeats, Attached, ChangePassword, Claim, Claimed, ClientMessage,
    CreateKeeper, CreateTable, Created, Credentials, DeleteAccount, GamesPage, Item, KeeperCheck,
    KeeperChecked, KeeperCreated, KeeperDealBody, KeeperOp, KeeperStop, Left, Me, PlayerProfile,
    PlayerStats, SaveProfile, SavedProfile, SeatBot, SeatToken, ServerMessage, SetHidden, Summary,
    TablePlayers,
};
use pref_protocol::{
    CreateTournament, DealComparisonView, EnterTournament, Entered, EntrantTable, PlayAction,
    TournamentCreated, TournamentList, TournamentPage,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

fn doc() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/protocol.md");
    std::fs::read_to_string(path).expect("docs/protocol.md is readable")
}

/// Reads `v` as `T`, writes it back and checks nothing changed; returns the `T`.
fn round_trip<T: DeserializeOwned + Serialize>(what: &str, v: &Value) -> T {
    let t: T = serde_json::from_value(v.clone())
        .unwrap_or_else(|e| panic!("{what}: the doc's example does not read: {e}\n{v}"));
    let back = serde_json::to_value(&t).unwrap();
    assert_eq!(
        &back, v,
        "{what}: the example does not come back as written"
    );
    t
}

fn parse(what: &str, text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: not JSON: {e}\n{text}"))
}

/// The fenced blocks tagged `json <kind>`: (kind, body).
fn fenced(doc: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in doc.lines() {
        match current.as_mut() {
            Some((_, body)) if line.trim_start() != "```" => {
                body.push_str(line);
                body.push('\n');
            }
            Some(_) => out.extend(current.take()),
            None => {
                if let Some(info) = line.trim_start().strip_prefix("```") {
                    let mut words = info.split_whitespace();
                    let kind = match (words.next(), words.next()) {
                        (Some("json"), Some(kind)) => kind.to_owned(),
                        (Some("json"), None) => panic!("a JSON example without its type: {line}"),
                        _ => "other".to_owned(),
                    };
                    current = Some((kind, String::new()));
                }
            }
        }
    }
    out
}

/// The inline code spans of the rows of the table whose header starts with `header`, in
/// column `column` (0-based).
fn table_cells(doc: &str, header: &str, column: usize) -> Vec<String> {
    let mut rows = doc
        .lines()
        .skip_while(|l| !l.starts_with(header))
        .skip(2)
        .take_while(|l| l.starts_with('|'));
    let mut out = Vec::new();
    for row in rows.by_ref() {
        let cell = row.split(" | ").nth(column).unwrap_or_default();
        let cell = cell.split(" — ").next().unwrap_or_default().trim();
        let code = cell.trim_matches('|').trim();
        if let Some(span) = code.strip_prefix('`').and_then(|c| c.split('`').next()) {
            out.push(span.to_owned());
        }
    }
    out
}

fn tag(v: &Value, key: &str) -> String {
    match &v[key] {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[test]
fn every_example_in_the_protocol_doc_round_trips() {
    let doc = doc();
    let mut server = BTreeSet::new();
    let mut client = BTreeSet::new();
    let mut items = BTreeSet::new();
    let mut events = BTreeSet::new();
    let mut http = BTreeSet::new();
    for (kind, body) in fenced(&doc) {
        match kind.as_str() {
            "client" => {
                for line in body.lines().filter(|l| !l.trim().is_empty()) {
                    let v = parse("client", line);
                    round_trip::<ClientMessage>("client", &v);
                    client.insert(tag(&v, "type"));
                }
            }
            "lobby-server" | "lobby-client" => {
                for line in body.lines().filter(|l| !l.trim().is_empty()) {
                    let v = parse(&kind, line);
                    if kind == "lobby-server" {
                        round_trip::<pref_protocol::LobbyMessage>(&kind, &v);
                    } else {
                        round_trip::<pref_protocol::LobbyRequest>(&kind, &v);
                    }
                    http.insert(format!("{kind} {}", tag(&v, "type")));
                }
            }
            "server" => {
                let v = parse("server", &body);
                let m: ServerMessage = round_trip("server", &v);
                server.insert(tag(&v, "type"));
                if let ServerMessage::Event {
                    event: Some(item), ..
                } = m
                {
                    items.insert(tag(&serde_json::to_value(item).unwrap(), "kind"));
                }
            }
            other => {
                let v = parse(other, &body);
                match other {
                    "error" => drop(round_trip::<ApiErrorBody>(other, &v)),
                    "create-table" => drop(round_trip::<CreateTable>(other, &v)),
                    "created" => drop(round_trip::<Created>(other, &v)),
                    "summary" => drop(round_trip::<Summary>(other, &v)),
                    "claim" => drop(round_trip::<Claim>(other, &v)),
                    "claimed" => drop(round_trip::<Claimed>(other, &v)),
                    "left" => drop(round_trip::<Left>(other, &v)),
                    "seat-bot" => drop(round_trip::<SeatBot>(other, &v)),
                    "stop" => drop(round_trip::<pref_protocol::StopRequest>(other, &v)),
                    "keeper-create" => drop(round_trip::<CreateKeeper>(other, &v)),
                    "keeper-created" => drop(round_trip::<KeeperCreated>(other, &v)),
                    "keeper-op" => drop(round_trip::<KeeperOp>(other, &v)),
                    "keeper-deal" => drop(round_trip::<KeeperDealBody>(other, &v)),
                    "keeper-stop" => drop(round_trip::<KeeperStop>(other, &v)),
                    "keeper-check" => drop(round_trip::<KeeperCheck>(other, &v)),
                    "keeper-checked" => drop(round_trip::<KeeperChecked>(other, &v)),
                    "save-profile" => drop(round_trip::<SaveProfile>(other, &v)),
                    "saved-profile" => drop(round_trip::<SavedProfile>(other, &v)),
                    "credentials" => drop(round_trip::<Credentials>(other, &v)),
                    "me" => drop(round_trip::<Me>(other, &v)),
                    "change-password" => drop(round_trip::<ChangePassword>(other, &v)),
                    "delete-account" => drop(round_trip::<DeleteAccount>(other, &v)),
                    "set-hidden" => drop(round_trip::<SetHidden>(other, &v)),
                    "seat-token" => drop(round_trip::<SeatToken>(other, &v)),
                    "attach-seats" => drop(round_trip::<AttachSeats>(other, &v)),
                    "attached" => drop(round_trip::<Attached>(other, &v)),
                    "player" => drop(round_trip::<PlayerProfile>(other, &v)),
                    "games-page" => drop(round_trip::<GamesPage>(other, &v)),
                    "player-stats" => drop(round_trip::<PlayerStats>(other, &v)),
                    "table-players" => drop(round_trip::<TablePlayers>(other, &v)),
                    "create-tournament" => drop(round_trip::<CreateTournament>(other, &v)),
                    "tournament-created" => drop(round_trip::<TournamentCreated>(other, &v)),
                    "tournament-list" => drop(round_trip::<TournamentList>(other, &v)),
                    "tournament-page" => drop(round_trip::<TournamentPage>(other, &v)),
                    "enter-tournament" => drop(round_trip::<EnterTournament>(other, &v)),
                    "entered" => drop(round_trip::<Entered>(other, &v)),
                    "entrant-table" => drop(round_trip::<EntrantTable>(other, &v)),
                    "play-action" => drop(round_trip::<PlayAction>(other, &v)),
                    "deal-comparison" => drop(round_trip::<DealComparisonView>(other, &v)),
                    "lobby" => drop(round_trip::<pref_protocol::LobbyView>(other, &v)),
                    "table-ratings" => drop(round_trip::<pref_protocol::TableRatings>(other, &v)),
                    "leaderboard" => drop(round_trip::<pref_protocol::Leaderboard>(other, &v)),
                    "player-ratings" => {
                        drop(round_trip::<pref_protocol::PlayerRatings>(other, &v));
                    }
                    "etude-list" => drop(round_trip::<pref_protocol::EtudeList>(other, &v)),
                    "etude-moves" => drop(round_trip::<pref_protocol::EtudeMoves>(other, &v)),
                    "etude-attempt" => drop(round_trip::<pref_protocol::EtudeAttempt>(other, &v)),
                    _ => panic!("an example of unknown type `json {other}`"),
                }
                http.insert(other.to_owned());
            }
        }
    }
    for span in table_cells(&doc, "| `kind` |", 2) {
        let v = parse("item", &span);
        if v["type"] == "event" {
            round_trip::<ServerMessage>("stub", &v);
            items.insert("stub".to_owned());
        } else {
            round_trip::<Item>("item", &v);
            items.insert(tag(&v, "kind"));
        }
    }
    for span in table_cells(&doc, "| `type` |", 1) {
        let v = parse("deal event", &span);
        round_trip::<ViewEvent>("deal event", &v);
        events.insert(tag(&v, "type"));
    }
    let set = |names: &[&str]| {
        names
            .iter()
            .map(|s| (*s).to_owned())
            .collect::<BTreeSet<_>>()
    };
    assert_eq!(
        server,
        set(&[
            "snapshot",
            "event",
            "score_page",
            "ack",
            "rejected",
            "hint",
            "error"
        ])
    );
    assert_eq!(
        client,
        set(&[
            "action",
            "next_deal",
            "chat",
            "resync",
            "back",
            "score_page",
            "hint",
            "fair_join",
            "fair_commit",
            "fair_reveal"
        ])
    );
    assert_eq!(
        items,
        set(&[
            "deal",
            "seat_taken",
            "seat_freed",
            "presence",
            "chat",
            "profile_changed",
            "started",
            "deal_finished",
            "game_over",
            "spectators",
            "rematch",
            "clock_paused",
            "stop_vote",
            "clock_back",
            "fair_seed",
            "fair_commitments",
            "fair_deck",
            "fair_revealed",
            "stub",
        ])
    );
    assert_eq!(
        events,
        set(&[
            "dealt",
            "looked",
            "talon_seen",
            "called",
            "auction_won",
            "all_passed",
            "talon_turned",
            "discarded",
            "declared",
            "surrendered",
            "whisted",
            "defence_chosen",
            "hand_opened",
            "talon_card_turned",
            "played",
            "trick_taken",
            "claimed",
            "answered",
            "claim_accepted",
            "deal_over",
            "revealed",
        ])
    );
    assert_eq!(
        http,
        set(&[
            "error",
            "create-table",
            "created",
            "summary",
            "claim",
            "claimed",
            "left",
            "seat-bot",
            "stop",
            "keeper-create",
            "keeper-created",
            "keeper-op",
            "keeper-deal",
            "keeper-stop",
            "leaderboard",
            "keeper-check",
            "keeper-checked",
            "save-profile",
            "saved-profile",
            "credentials",
            "me",
            "change-password",
            "delete-account",
            "set-hidden",
            "seat-token",
            "attach-seats",
            "attached",
            "player",
            "player-ratings",
            "games-page",
            "player-stats",
            "table-players",
            "table-ratings",
            "create-tournament",
            "tournament-created",
            "tournament-list",
            "tournament-page",
            "enter-tournament",
            "entered",
            "entrant-table",
            "play-action",
            "deal-comparison",
            "lobby",
            "etude-list",
            "etude-moves",
            "etude-attempt",
            "lobby-server snapshot",
            "lobby-server listed",
            "lobby-server unlisted",
            "lobby-server live_changed",
            "lobby-server seeking",
            "lobby-server waiting",
            "lobby-server paired",
            "lobby-server error",
            "lobby-client seek",
            "lobby-client cancel",
            "lobby-client resync"
        ])
    );
}

/// Every action kind of the client examples is one the core reads (the action grammar is
/// the core's; this checks the doc names each kind once).
#[test]
fn the_client_examples_show_every_kind_of_action() {
    let doc = doc();
    let mut kinds = BTreeSet::new();
    for (kind, body) in fenced(&doc) {
        if kind != "client" {
            continue;
        }
        for line in body.lines().filter(|l| !l.trim().is_empty()) {
            if let ClientMessage::Action { action, .. } = serde_json::from_str(line).unwrap() {
                match serde_json::to_value(action).unwrap() {
                    Value::String(bare) => {
                        kinds.insert(bare);
                    }
                    v => kinds.extend(v.as_object().unwrap().keys().cloned()),
                }
            }
        }
    }
    let want: BTreeSet<String> = [
        "bid",
        "discard",
        "declare",
        "whist",
        "defence",
        "play",
        "surrender",
        "claim",
        "answer",
        "dark",
        "look",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    assert_eq!(kinds, want);
}

/// Every JSON example of `docs/bot-api.md` reads into the protocol's types and comes back
/// as written, and the doc shows each of the bot API's bodies.
#[test]
fn every_example_in_the_bot_api_doc_round_trips() {
    use pref_protocol::{Invitations, InviteBot, NewToken, Revoked, TokenMade, Tokens};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/bot-api.md");
    let doc = std::fs::read_to_string(path).expect("docs/bot-api.md is readable");
    let mut kinds = BTreeSet::new();
    for (kind, body) in fenced(&doc) {
        match kind.as_str() {
            "client" => {
                for line in body.lines().filter(|l| !l.trim().is_empty()) {
                    round_trip::<ClientMessage>("client", &parse("client", line));
                }
            }
            other => {
                let v = parse(other, &body);
                match other {
                    "server" => drop(round_trip::<ServerMessage>(other, &v)),
                    "me" => drop(round_trip::<Me>(other, &v)),
                    "new-token" => drop(round_trip::<NewToken>(other, &v)),
                    "token-made" => drop(round_trip::<TokenMade>(other, &v)),
                    "tokens" => drop(round_trip::<Tokens>(other, &v)),
                    "revoked" => drop(round_trip::<Revoked>(other, &v)),
                    "invite-bot" => drop(round_trip::<InviteBot>(other, &v)),
                    "invitations" => drop(round_trip::<Invitations>(other, &v)),
                    "error" => drop(round_trip::<ApiErrorBody>(other, &v)),
                    "claim" => drop(round_trip::<Claim>(other, &v)),
                    "claimed" => drop(round_trip::<Claimed>(other, &v)),
                    "lobby-seek" => drop(round_trip::<pref_protocol::LobbyRequest>(other, &v)),
                    _ => panic!("an example of unknown type `json {other}`"),
                }
            }
        }
        kinds.insert(kind);
    }
    let want: BTreeSet<String> = [
        "me",
        "new-token",
        "token-made",
        "tokens",
        "revoked",
        "error",
        "invite-bot",
        "invitations",
        "claim",
        "claimed",
        "lobby-seek",
        "server",
        "client",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    assert_eq!(kinds, want);
}
