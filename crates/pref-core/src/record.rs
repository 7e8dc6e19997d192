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
//! assert_eq!(e.to_string(), "deal 0: the tricks add up to 11, not 10 (R6.1)");
//! ```
//!
//! The folder: this file holds the [`Record`] and its [`RecordDeal`]s and takes a record
//! from a game; `error.rs` the located [`RecordError`]; `read.rs` the strict reader that
//! replays every deal, on `field.rs`'s checks of one field; `write.rs` the writer; `form.rs`
//! one action and one outcome both ways, `fairness.rs` a deal's optional fairness object and
//! `timing.rs` the clock's per-action fields.

use std::str::FromStr;

use crate::action::Action;
use crate::bid::Seat;
use crate::card::{Card, CardSet};
use crate::game::{DealEntry, Game};
use crate::outcome::Outcome;
use crate::profile::{PRESETS, Profile};

mod error;
mod fairness;
mod field;
mod form;
mod practice;
mod rated;
mod read;
mod timing;
mod write;

pub use self::error::{Location, Reason, RecordError};
pub use self::timing::ActionTime;

use self::error::Result;
// The checks of one field, for the reader's helpers beside it (`form.rs`, `fairness.rs`).
use self::field::{known_keys, need, read_card, read_cards, read_seat, wrong};

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
    /// The seats a program played (a house bot or a bot account), ascending.
    bots: Vec<Seat>,
    /// The deals that carry fairness data (`record/fairness.rs`), by index.
    fairness: fairness::FairnessByDeal,
    /// The deals whose actions carry the clock's fields (`record/timing.rs`), by index.
    timing: timing::TimingByDeal,
    /// Whether a practice table played it (`record/practice.rs`).
    practice: bool,
    /// The hints each seat asked for, by deal index, at a practice table.
    hints: practice::HintsByDeal,
    /// The rating family a rated game counted in (`record/rated.rs`).
    rated: Option<String>,
}

impl Record {
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
            bots: Vec::new(),
            fairness: fairness::FairnessByDeal::new(),
            timing: timing::TimingByDeal::new(),
            practice: false,
            hints: practice::HintsByDeal::new(),
            rated: None,
        })
    }

    /// Marks `seats` as played by programs (house bots, bot accounts): written `"bots"`.
    #[must_use]
    pub fn with_bots(mut self, seats: &[Seat]) -> Record {
        let mut seats = seats.to_vec();
        seats.sort_unstable();
        seats.dedup();
        self.bots = seats;
        self
    }

    /// The seats played by programs, ascending.
    #[must_use]
    pub fn bots(&self) -> &[Seat] {
        &self.bots
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
}

impl FromStr for Record {
    type Err = RecordError;

    /// As [`Record::from_json_str`].
    fn from_str(s: &str) -> Result<Record> {
        Record::from_json_str(s)
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
