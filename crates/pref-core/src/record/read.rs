//! The strict reader: a record's JSON read key by key (an unknown or doubled key is an
//! error), every deal replayed through the rules as it is read, so that a [`Record`] exists
//! only once its whole game is known to follow the rules.

use serde_json::Value;

use super::error::Result;
use super::field::{known_keys, need, read_cards, read_seat, wrong};
use super::form::{read_action, read_outcome};
use super::{
    FORMAT, Location, Reason, Record, RecordDeal, RecordError, fairness, practice, rated, timing,
};
use crate::bid::Seat;
use crate::error::{DealError, RuleError};
use crate::game::{Game, GameError};
use crate::json::parse_strict;
use crate::outcome::Outcome;
use crate::profile::Profile;

impl Record {
    /// Reads a record strictly and replays every deal through the rules.
    ///
    /// # Errors
    /// A [`RecordError`] naming the first problem in reading order: broken JSON, an unknown
    /// key, a wrong value, a card or action the rules refuse, an unfinished deal, a deal
    /// after the end of the game.
    pub fn from_json_str(text: &str) -> Result<Record> {
        Record::read(text).map(|(r, _)| r)
    }

    /// Reads a record as [`Record::from_json_str`] does and also returns the game it
    /// replays to.
    ///
    /// # Errors
    /// As [`Record::from_json_str`].
    pub fn read(text: &str) -> Result<(Record, Game)> {
        let top = |reason| RecordError::at(Location::Record, reason);
        let doc = parse_strict(text).map_err(|e| top(Reason::Json(e.to_string())))?;
        let (mut record, raw_deals) = read_header(&doc).map_err(top)?;
        let mut game = new_game(&record.profile, record.first_dealer)?;
        for (i, raw) in raw_deals.iter().enumerate() {
            let at_deal = |reason| RecordError::at(Location::Deal(i), reason);
            if game.is_over() {
                return Err(at_deal(Reason::AfterEnd));
            }
            let (mut deal, malformed) = read_deal(raw, &record.profile).map_err(at_deal)?;
            let place = (i, &record.fairness);
            let fair = fairness::read_fairness(raw, &deal, &record.profile, game.dealer(), place)
                .map_err(at_deal)?;
            if let RecordDeal::Scored(o) = &mut deal {
                o.dealer = game.dealer();
            }
            replay_deal(&mut game, i, &deal, malformed.is_none())?;
            if let Some((action, reason)) = malformed {
                return Err(RecordError::at(
                    Location::Action { deal: i, action },
                    reason,
                ));
            }
            record.deals.push(deal);
            if let Some(fair) = fair {
                record.fairness.insert(i, fair);
            }
            if let Some(times) = timing::read_timing(raw) {
                record.timing.insert(i, times);
            }
            if let Some(hints) =
                practice::read_hints(raw, record.practice, record.profile.players())
                    .map_err(at_deal)?
            {
                record.hints.insert(i, hints);
            }
        }
        Ok((record, game))
    }

    /// Replays the record from its first deal, calling `each(i, &game)` after deal `i` is
    /// scored, and returns the game after the last deal.
    ///
    /// # Errors
    /// None for a record that was read or exported; the error of the first deal the rules
    /// refuse otherwise.
    pub fn replay(&self, mut each: impl FnMut(usize, &Game)) -> Result<Game> {
        let mut game = new_game(&self.profile, self.first_dealer)?;
        for (i, deal) in self.deals.iter().enumerate() {
            replay_deal(&mut game, i, deal, true)?;
            each(i, &game);
        }
        Ok(game)
    }
}

fn new_game(profile: &Profile, first_dealer: Seat) -> Result<Game> {
    Game::new(profile.clone(), first_dealer)
        .map_err(|e| RecordError::at(Location::Record, Reason::Game(e.to_string())))
}

/// Plays or scores deal `i` of a record in `game`; `complete` says whether a played deal's
/// actions must take it to its end.
fn replay_deal(game: &mut Game, i: usize, deal: &RecordDeal, complete: bool) -> Result<()> {
    let at_deal = |reason| RecordError::at(Location::Deal(i), reason);
    if game.is_over() {
        return Err(at_deal(Reason::AfterEnd));
    }
    match deal {
        RecordDeal::Played {
            hands,
            talon,
            actions,
        } => {
            game.start_deal_from_hands(hands, talon)
                .map_err(|e| at_deal(game_reason(e)))?;
            for (a, &(seat, action)) in actions.iter().enumerate() {
                let at_action =
                    |reason| RecordError::at(Location::Action { deal: i, action: a }, reason);
                if game.deal().is_none() {
                    return Err(at_action(Reason::Rule(RuleError::DealOver)));
                }
                game.apply(seat, action)
                    .map_err(|e| at_action(game_reason(e)))?;
            }
            if complete && game.deal().is_some() {
                return Err(RecordError::at(
                    Location::Action {
                        deal: i,
                        action: actions.len(),
                    },
                    Reason::NotFinished,
                ));
            }
        }
        RecordDeal::Scored(outcome) => {
            let outcome = Outcome {
                players: game.profile().players(),
                dealer: game.dealer(),
                ..*outcome
            };
            game.record_outcome(outcome)
                .map_err(|e| at_deal(game_reason(e)))?;
        }
    }
    Ok(())
}

fn game_reason(e: GameError) -> Reason {
    match e {
        GameError::Rule(e) => Reason::Rule(e),
        GameError::Deal(e) => Reason::Deal(e),
        GameError::Outcome(s) => Reason::Outcome(s),
        GameError::GameOver => Reason::AfterEnd,
        other => Reason::Game(other.to_string()),
    }
}

/// Reads everything outside the deals; the record comes back with no deals yet, beside
/// the list of raw deals.
fn read_header(doc: &Value) -> Result<(Record, &Vec<Value>), Reason> {
    let Value::Object(doc) = doc else {
        return Err(Reason::NotAnObject);
    };
    match doc.get("format") {
        None => return Err(Reason::Missing("format")),
        Some(Value::String(s)) if s == FORMAT => {}
        Some(Value::String(s)) => return Err(Reason::Format(s.clone())),
        Some(_) => return Err(wrong("format", "the string \"pref-record/1\"")),
    }
    known_keys(
        doc,
        &[
            "format",
            "profile",
            "players",
            "first_dealer",
            "deals",
            "stop",
            "bots",
            "practice",
            "rated",
        ],
    )?;
    let (preset, profile) = read_profile(need(doc, "profile")?)?;
    let players = read_names(need(doc, "players")?, profile.players())?;
    let first_dealer = read_seat(
        need(doc, "first_dealer")?,
        "first_dealer",
        profile.players(),
    )?;
    let agreed = match doc.get("stop") {
        None => false,
        Some(Value::String(s)) if s == "agreed" => true,
        Some(Value::String(s)) => return Err(Reason::Stop(s.clone())),
        Some(_) => return Err(wrong("stop", "the string \"agreed\"")),
    };
    let bots = match doc.get("bots") {
        None => Vec::new(),
        Some(Value::Array(seats)) => {
            let seats = seats
                .iter()
                .map(|s| read_seat(s, "bots", profile.players()))
                .collect::<Result<Vec<_>, _>>()?;
            if seats.windows(2).any(|w| w[0] >= w[1]) {
                return Err(wrong("bots", "seat numbers in ascending order"));
            }
            seats
        }
        Some(_) => return Err(wrong("bots", "a list of seat numbers")),
    };
    let Value::Array(raw_deals) = need(doc, "deals")? else {
        return Err(wrong("deals", "a list of deals"));
    };
    let record = Record {
        preset,
        profile,
        players,
        first_dealer,
        deals: Vec::with_capacity(raw_deals.len()),
        agreed,
        bots,
        fairness: fairness::FairnessByDeal::new(),
        timing: timing::TimingByDeal::new(),
        practice: practice::read_practice(doc)?,
        hints: practice::HintsByDeal::new(),
        rated: rated::read_rated(doc)?,
    };
    Ok((record, raw_deals))
}

fn read_profile(v: &Value) -> Result<(String, Profile), Reason> {
    let preset = match v {
        Value::String(name) => name.clone(),
        Value::Object(m) => match m.get("preset") {
            Some(Value::String(name)) => name.clone(),
            Some(_) => return Err(wrong("preset", "a preset name")),
            None => return Err(Reason::Missing("preset")),
        },
        _ => {
            return Err(wrong(
                "profile",
                "a preset name or an object with \"preset\"",
            ));
        }
    };
    let profile = Profile::from_json(v).map_err(Reason::Profile)?;
    Ok((preset, profile))
}

fn read_names(v: &Value, players: u8) -> Result<Vec<String>, Reason> {
    let names = match v {
        Value::Array(items) => items
            .iter()
            .map(|n| n.as_str().map(str::to_owned))
            .collect::<Option<Vec<String>>>(),
        _ => None,
    }
    .ok_or(wrong("players", "a list of names"))?;
    if names.len() != usize::from(players) {
        return Err(Reason::PlayerCount {
            given: names.len(),
            players,
        });
    }
    Ok(names)
}

/// Reads a deal. A played deal's actions are read up to the first malformed one, whose
/// index and reason come back beside the deal: the actions before it are replayed first, so
/// that an earlier illegal action is reported before a later malformed one.
fn read_deal(
    v: &Value,
    profile: &Profile,
) -> Result<(RecordDeal, Option<(usize, Reason)>), Reason> {
    let Value::Object(m) = v else {
        return Err(wrong("deals", "a list of deal objects"));
    };
    if m.contains_key("outcome") {
        if ["hands", "talon", "actions"]
            .iter()
            .any(|k| m.contains_key(*k))
        {
            return Err(Reason::DealForm);
        }
        known_keys(m, &["outcome"])?;
        return Ok((
            RecordDeal::Scored(read_outcome(&m["outcome"], profile)?),
            None,
        ));
    }
    known_keys(m, &["hands", "talon", "actions", "fairness", "hints"])?;
    if m.is_empty() {
        return Err(Reason::DealForm);
    }
    let Value::Array(raw_hands) = need(m, "hands")? else {
        return Err(wrong("hands", "a list of hands"));
    };
    let hands = raw_hands
        .iter()
        .map(|h| read_cards(h, "hands", "a list of hands, each a list of cards"))
        .collect::<Result<Vec<_>, _>>()?;
    let talon = read_cards(need(m, "talon")?, "talon", "a list of two cards")?;
    let talon = match talon[..] {
        [a, b] => [a, b],
        _ => return Err(Reason::Deal(DealError::TalonSize(talon.len()))),
    };
    let Value::Array(raw_actions) = need(m, "actions")? else {
        return Err(wrong("actions", "a list of actions"));
    };
    let mut actions = Vec::with_capacity(raw_actions.len());
    let mut malformed = None;
    for (i, raw) in raw_actions.iter().enumerate() {
        match read_action(raw, profile.players()) {
            Ok(a) => actions.push(a),
            Err(reason) => {
                malformed = Some((i, reason));
                break;
            }
        }
    }
    let deal = RecordDeal::Played {
        hands,
        talon,
        actions,
    };
    Ok((deal, malformed))
}
