//! Game records in the `pref-record/1` format (`docs/game-record.md`).
//!
//! A [`Record`] exists only after every deal in it has been replayed through the rules: it
//! is read by [`Record::from_json_str`], which checks keys strictly and replays each deal as
//! it reads it, or taken from a running [`Game`] by [`Record::from_game`]. Writing
//! ([`Record::to_json_string`]) and reading back give the same record and so the same game.
//!
//! Every error says where it is, in the spec's words: `record: …` for anything outside the
//! deals, `deal 3: …` for a deal that is wrong before its first action (hands, talon,
//! outcome, a deal after the end), `deal 3, action 17: …` for an action (0-based indices).
//!
//! ```
//! use pref_core::Record;
//!
//! let text = r#"{"format": "pref-record/1", "profile": {"preset": "sochi", "pool_target": 6},
//!   "players": ["Anna", "Boris", "Vera"], "first_dealer": 2, "deals": [
//!   {"outcome": {"kind": "raspasy", "tricks": [0, 5, 5]}}]}"#;
//! let (record, game) = Record::read(text).unwrap();
//! assert_eq!(game.sheet().mountain(), [0, 5, 5]);
//! assert_eq!(Record::from_json_str(&record.to_json_string()), Ok(record));
//!
//! let bad = text.replace("[0, 5, 5]", "[0, 5, 6]");
//! let e = Record::from_json_str(&bad).unwrap_err();
//! assert_eq!(e.to_string(), "deal 0: the tricks add up to 11, not 10");
//! ```

use std::fmt;
use std::str::FromStr;

use serde_json::{Map, Value};

use crate::action::Action;
use crate::bid::Seat;
use crate::card::{Card, CardSet};
use crate::error::{DealError, RuleError};
use crate::game::{DealEntry, Game, GameError};
use crate::json::{Out, parse_strict};
use crate::outcome::Outcome;
use crate::profile::{PRESETS, Profile, ProfileError};

mod fairness;
mod form;
mod timing;

pub use self::timing::ActionTime;

use self::form::{action_out, outcome_out, read_action, read_outcome};

/// The value of the `format` key.
pub const FORMAT: &str = "pref-record/1";

/// One deal of a record. Two deals are equal when they are the same deal: the order in
/// which a hand's cards are written does not matter.
#[derive(Clone, Debug)]
pub enum RecordDeal {
    /// Played card by card: the deal's outcome follows from its actions.
    Played {
        /// The cards dealt to each seat, as written (an empty hand for a four-player dealer).
        hands: Vec<Vec<Card>>,
        /// The two talon cards.
        talon: [Card; 2],
        /// Every action, in record semantics: for a card, the seat whose card it is.
        actions: Vec<(Seat, Action)>,
    },
    /// Scored from its outcome alone (scorekeeping with real cards). The outcome's dealer
    /// is the one the rotation gives.
    Scored(Outcome),
}

impl PartialEq for RecordDeal {
    fn eq(&self, other: &RecordDeal) -> bool {
        let set = |h: &Vec<Card>| h.iter().copied().collect::<CardSet>();
        match (self, other) {
            (
                RecordDeal::Played {
                    hands,
                    talon,
                    actions,
                },
                RecordDeal::Played {
                    hands: other_hands,
                    talon: other_talon,
                    actions: other_actions,
                },
            ) => {
                hands.len() == other_hands.len()
                    && hands.iter().map(set).eq(other_hands.iter().map(set))
                    && talon == other_talon
                    && actions == other_actions
            }
            (RecordDeal::Scored(a), RecordDeal::Scored(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for RecordDeal {}

impl RecordDeal {
    /// The deal as a record writes it (`{"outcome": {...}}` or the played form), on its
    /// own: what a scorekeeper stores per deal and a record lists.
    #[must_use]
    pub fn to_json_string(&self) -> String {
        let mut s = String::new();
        deal_out(self).write(0, &mut s);
        s
    }
}

/// A whole game (a *pulka*) as a record: profile, players and deals, each deal checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The preset the profile is written against; the profile differs from it only in
    /// the keys the record overrides.
    preset: String,
    profile: Profile,
    players: Vec<String>,
    first_dealer: Seat,
    deals: Vec<RecordDeal>,
    agreed: bool,
    /// The deals that carry fairness data (`record/fairness.rs`), by index.
    fairness: fairness::FairnessByDeal,
    /// The deals whose actions carry the clock's fields (`record/timing.rs`), by index.
    timing: timing::TimingByDeal,
}

/// Where an error in a record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Location {
    /// Outside the deals: the document, its profile, players, dealer or stop.
    Record,
    /// A deal (0-based), before any of its actions: hands, talon, outcome.
    Deal(usize),
    /// An action (0-based) of a deal (0-based); for a deal that stops short, the index the
    /// next action would have had.
    Action {
        /// The deal.
        deal: usize,
        /// The action.
        action: usize,
    },
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Record => f.write_str("record"),
            Location::Deal(d) => write!(f, "deal {d}"),
            Location::Action { deal, action } => write!(f, "deal {deal}, action {action}"),
        }
    }
}

/// Why a record is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Not JSON, or a key given twice in one object (the parser's message).
    Json(String),
    /// The document is not a JSON object.
    NotAnObject,
    /// `format` is not [`FORMAT`].
    Format(String),
    /// A required key is missing.
    Missing(&'static str),
    /// A key the format does not have.
    UnknownKey(String),
    /// A value of the wrong kind.
    WrongType {
        /// The key (or the item, for list entries).
        key: &'static str,
        /// What it must be, in words.
        expected: &'static str,
    },
    /// The profile is invalid.
    Profile(ProfileError),
    /// The number of names does not match the table.
    PlayerCount {
        /// Names given.
        given: usize,
        /// Players at the table.
        players: u8,
    },
    /// A seat number that is not at the table.
    Seat(u64),
    /// `stop` is not `"agreed"`.
    Stop(String),
    /// A card that is not rank + suit (`QS`, `TH`, `10H`).
    UnknownCard(String),
    /// An action key that is neither `seat` nor a verb.
    UnknownVerb(String),
    /// An action without a verb, or with more than one.
    VerbCount(usize),
    /// A verb's value that is not one of its values.
    BadValue {
        /// The verb.
        verb: &'static str,
        /// The value, as written.
        value: String,
    },
    /// The deal has both played keys and `outcome`, or neither.
    DealForm,
    /// The deal cannot be set up (hands, talon).
    Deal(DealError),
    /// An action the rules refuse.
    Rule(RuleError),
    /// An outcome that does not fit the rules.
    Outcome(String),
    /// The actions stop before the deal ends.
    NotFinished,
    /// A deal after the deal that closed the last pool.
    AfterEnd,
    /// An error of the game that a well-formed record cannot cause.
    Game(String),
    /// A deal's fairness data does not hold together or does not deal its cards.
    Fairness(crate::fair::FairError),
    /// Clock fields given for a deal that is not played, or not one per action (the number
    /// given).
    Timing(usize),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Json(e) => write!(f, "not valid JSON: {e}"),
            Reason::NotAnObject => f.write_str("a record is a JSON object"),
            Reason::Format(s) => write!(f, "format {s:?} is not {FORMAT:?}"),
            Reason::Missing(k) => write!(f, "missing key {k:?}"),
            Reason::UnknownKey(k) => write!(f, "unknown key {k:?}"),
            Reason::WrongType { key, expected } => write!(f, "{key:?} must be {expected}"),
            Reason::Profile(e) => write!(f, "{e}"),
            Reason::PlayerCount { given, players } => {
                write!(f, "{given} players named for a table of {players}")
            }
            Reason::Seat(s) => write!(f, "seat {s} is not at the table"),
            Reason::Stop(s) => write!(f, "stop {s:?} is not \"agreed\""),
            Reason::UnknownCard(c) => write!(f, "unknown card {c:?}"),
            Reason::UnknownVerb(v) => write!(f, "unknown verb {v:?}"),
            Reason::VerbCount(0) => f.write_str("an action needs a verb"),
            Reason::VerbCount(n) => write!(f, "an action has one verb, not {n}"),
            Reason::BadValue { verb, value } => {
                let noun = match *verb {
                    "declare" => "contract",
                    "whist" => "whist decision",
                    other => other,
                };
                write!(f, "unknown {noun} {value}")
            }
            Reason::DealForm => f.write_str(
                "a deal is either played (\"hands\", \"talon\", \"actions\") or an \"outcome\"",
            ),
            Reason::Deal(e) => write!(f, "{e}"),
            Reason::Rule(e) => f.write_str(&rule_message(e)),
            Reason::Outcome(s) => f.write_str(s),
            Reason::NotFinished => f.write_str("the deal is not finished"),
            Reason::AfterEnd => f.write_str("the game is over: every pool is closed"),
            Reason::Game(s) => f.write_str(s),
            Reason::Fairness(e) => write!(f, "{e}"),
            Reason::Timing(n) => write!(
                f,
                "{n} clock entries do not match the deal's actions one to one"
            ),
        }
    }
}

/// A rule error's message without its trailing rule id: records name the place and the
/// reason; the id stays available from [`RecordError::rule`].
fn rule_message(e: &RuleError) -> String {
    let s = e.to_string();
    match e.rule() {
        Some(r) => s
            .strip_suffix(&format!(" ({r})"))
            .map_or_else(|| s.clone(), str::to_owned),
        None => s,
    }
}

/// A record that cannot be read: where, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {reason}")]
pub struct RecordError {
    /// Where the error is.
    pub location: Location,
    /// What is wrong.
    pub reason: Reason,
}

impl RecordError {
    fn at(location: Location, reason: Reason) -> RecordError {
        RecordError { location, reason }
    }

    /// The id of the rule an action breaks (`"R6.2"`), if it is a rule error.
    #[must_use]
    pub fn rule(&self) -> Option<&'static str> {
        match &self.reason {
            Reason::Rule(e) => e.rule(),
            _ => None,
        }
    }
}

type Result<T, E = RecordError> = std::result::Result<T, E>;

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

    /// The record of `game` so far, with the players' names. Deals still in progress are
    /// left out; the profile is written against the preset it differs least from.
    ///
    /// # Errors
    /// [`Reason::PlayerCount`] if `names` does not name every seat.
    pub fn from_game(game: &Game, names: &[String]) -> Result<Record> {
        let profile = game.profile().clone();
        if names.len() != usize::from(profile.players()) {
            return Err(RecordError::at(
                Location::Record,
                Reason::PlayerCount {
                    given: names.len(),
                    players: profile.players(),
                },
            ));
        }
        let mut deals = Vec::new();
        for entry in game.history() {
            match entry {
                DealEntry::Played {
                    hands,
                    talon,
                    actions,
                    outcome: Some(_),
                    ..
                } => deals.push(RecordDeal::Played {
                    hands: hands[..usize::from(profile.players())]
                        .iter()
                        .map(|h| written_hand(*h))
                        .collect(),
                    talon: *talon,
                    actions: actions.clone(),
                }),
                DealEntry::Played { outcome: None, .. } => {}
                DealEntry::Scored { outcome, .. } => deals.push(RecordDeal::Scored(*outcome)),
            }
        }
        let first_dealer = game
            .history()
            .first()
            .map_or(game.dealer(), DealEntry::dealer);
        Ok(Record {
            preset: nearest_preset(&profile),
            profile,
            players: names.to_vec(),
            first_dealer,
            deals,
            agreed: false,
            fairness: fairness::FairnessByDeal::new(),
            timing: timing::TimingByDeal::new(),
        })
    }

    /// Marks the record as stopped by agreement after its last deal (R10.3).
    #[must_use]
    pub fn with_agreed_stop(mut self, agreed: bool) -> Record {
        self.agreed = agreed;
        self
    }

    /// The profile the game is played under.
    #[must_use]
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// The preset the profile is written against.
    #[must_use]
    pub fn preset(&self) -> &str {
        &self.preset
    }

    /// The players' names, index = seat.
    #[must_use]
    pub fn players(&self) -> &[String] {
        &self.players
    }

    /// The dealer of the first deal.
    #[must_use]
    pub fn first_dealer(&self) -> Seat {
        self.first_dealer
    }

    /// The deals in order.
    #[must_use]
    pub fn deals(&self) -> &[RecordDeal] {
        &self.deals
    }

    /// Whether the players agreed to stop after the last deal (R10.3).
    #[must_use]
    pub fn agreed_stop(&self) -> bool {
        self.agreed
    }

    /// The record as `pref-record/1` JSON, one deal and one action per line.
    #[must_use]
    pub fn to_json_string(&self) -> String {
        let mut fields = vec![
            ("format".to_owned(), Out::str(FORMAT)),
            ("profile".to_owned(), self.profile_out()),
            (
                "players".to_owned(),
                Out::List(self.players.iter().map(Out::str).collect()),
            ),
            (
                "first_dealer".to_owned(),
                Out::Raw(self.first_dealer.0.to_string()),
            ),
            (
                "deals".to_owned(),
                Out::List(
                    (self.deals.iter().enumerate())
                        .map(|(i, d)| {
                            let deal = timing::with_timing_out(deal_out(d), self.timing(i));
                            fairness::with_fairness_out(deal, self.fairness(i))
                        })
                        .collect(),
                ),
            ),
        ];
        if self.agreed {
            fields.push(("stop".to_owned(), Out::str("agreed")));
        }
        let mut s = String::new();
        Out::Object(fields).write(0, &mut s);
        s.push('\n');
        s
    }

    fn profile_out(&self) -> Out {
        let base = Profile::preset(&self.preset).unwrap_or_else(Profile::sochi);
        let overrides = self.profile.overrides_from(&base);
        if overrides.is_empty() {
            return Out::str(&self.preset);
        }
        let mut fields = vec![("preset".to_owned(), Out::str(&self.preset))];
        fields.extend(overrides.iter().map(|(k, v)| (k.clone(), Out::value(v))));
        Out::Object(fields)
    }
}

impl FromStr for Record {
    type Err = RecordError;

    /// As [`Record::from_json_str`].
    fn from_str(s: &str) -> Result<Record> {
        Record::from_json_str(s)
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

/// The preset that needs the fewest overrides to give `profile`.
fn nearest_preset(profile: &Profile) -> String {
    PRESETS
        .iter()
        .filter_map(|name| Profile::preset(name).map(|p| (*name, p)))
        .min_by_key(|(_, p)| profile.overrides_from(p).len())
        .map_or_else(|| "sochi".to_owned(), |(name, _)| name.to_owned())
}

/// A hand as written: by suit ♠ ♣ ♦ ♥, high cards first.
fn written_hand(hand: CardSet) -> Vec<Card> {
    let mut cards: Vec<Card> = hand.iter().collect();
    cards.sort_by_key(|c| (c.suit(), std::cmp::Reverse(c.rank())));
    cards
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
        fairness: fairness::FairnessByDeal::new(),
        timing: timing::TimingByDeal::new(),
    };
    Ok((record, raw_deals))
}

fn wrong(key: &'static str, expected: &'static str) -> Reason {
    Reason::WrongType { key, expected }
}

fn need<'a>(obj: &'a Map<String, Value>, key: &'static str) -> Result<&'a Value, Reason> {
    obj.get(key).ok_or(Reason::Missing(key))
}

fn known_keys(obj: &Map<String, Value>, known: &[&str]) -> Result<(), Reason> {
    match obj.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => Err(Reason::UnknownKey(k.clone())),
        None => Ok(()),
    }
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

fn read_seat(v: &Value, key: &'static str, players: u8) -> Result<Seat, Reason> {
    let n = v.as_u64().ok_or(wrong(key, "a seat number"))?;
    if n >= u64::from(players) {
        return Err(Reason::Seat(n));
    }
    Ok(Seat(n as u8))
}

/// Reads a card in the record form: rank `7 8 9 T J Q K A` (or `10`) then suit `S C D H`.
fn read_card(v: &Value) -> Result<Card, Reason> {
    let Value::String(s) = v else {
        return Err(Reason::UnknownCard(v.to_string()));
    };
    match s.parse::<Card>() {
        Ok(c) if c.to_string() == *s || format!("10{}", c.suit().letter()) == *s => Ok(c),
        _ => Err(Reason::UnknownCard(s.clone())),
    }
}

fn read_cards(v: &Value, key: &'static str, expected: &'static str) -> Result<Vec<Card>, Reason> {
    let Value::Array(items) = v else {
        return Err(wrong(key, expected));
    };
    items.iter().map(read_card).collect()
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
    known_keys(m, &["hands", "talon", "actions", "fairness"])?;
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

fn deal_out(deal: &RecordDeal) -> Out {
    let cards = |cs: &mut dyn Iterator<Item = Card>| {
        Out::List(cs.map(|c| Out::str(c.to_string())).collect())
    };
    match deal {
        RecordDeal::Played {
            hands,
            talon,
            actions,
        } => Out::Object(vec![
            (
                "hands".to_owned(),
                Out::List(
                    hands
                        .iter()
                        .map(|h| cards(&mut h.iter().copied()))
                        .collect(),
                ),
            ),
            ("talon".to_owned(), cards(&mut talon.iter().copied())),
            (
                "actions".to_owned(),
                Out::List(actions.iter().map(|&(s, a)| action_out(s, a)).collect()),
            ),
        ]),
        RecordDeal::Scored(o) => Out::Object(vec![("outcome".to_owned(), outcome_out(o))]),
    }
}
