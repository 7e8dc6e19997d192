//! The optional `fairness` object of a played deal (`docs/fairness.md`): read strictly,
//! checked against itself, against the deal's hands and talon and (`pref-fair/2`) against
//! the deal's place in the record, and written back. It lives beside the record's reader so
//! that a [`Record`] never holds fairness data that does not match its deals.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::{
    Location, Reason, Record, RecordDeal, RecordError, known_keys, need, read_seat, wrong,
};
use crate::bid::Seat;
use crate::card::{Card, CardSet};
use crate::deal::{first_hand, next_active};
use crate::fair::{Arrival, Contributed, FairError, Fairness, Place, SCHEME_1, SCHEME_2, Scheme};
use crate::json::Out;
use crate::profile::Profile;

/// Per deal index, the deals that carry fairness data.
pub(super) type FairnessByDeal = BTreeMap<usize, Fairness>;

impl Record {
    /// The fairness data of deal `deal` (0-based), if the record has it.
    #[must_use]
    pub fn fairness(&self, deal: usize) -> Option<&Fairness> {
        self.fairness.get(&deal)
    }

    /// Attaches a deal's fairness data, as the server does once the deal's cards may be
    /// seen: `record.set_fairness(i, fairness)?` on a record from [`Record::from_game`].
    ///
    /// # Errors
    /// At [`Location::Deal`]: [`FairError::NoSuchDeal`] for an index past the last deal,
    /// [`FairError::NotPlayed`] for a deal in outcome form, the [`FairError`] of a
    /// hand or talon that the fairness data's deck does not deal, and of a place
    /// ([`check_place`]) that is not the deal's. The record is unchanged.
    pub fn set_fairness(&mut self, deal: usize, fairness: Fairness) -> Result<(), RecordError> {
        let at_deal = |e| RecordError::at(Location::Deal(deal), Reason::Fairness(e));
        let Some(RecordDeal::Played { hands, talon, .. }) = self.deals.get(deal) else {
            let e = if deal < self.deals.len() {
                FairError::NotPlayed
            } else {
                FairError::NoSuchDeal
            };
            return Err(at_deal(e));
        };
        let game = self.replay(|_, _| {})?;
        let dealer = game.history()[deal].dealer();
        check_deal(&fairness, self.profile.players(), dealer, hands, *talon).map_err(at_deal)?;
        check_place(&fairness, deal, &self.fairness).map_err(at_deal)?;
        self.fairness.insert(deal, fairness);
        Ok(())
    }
}

/// Checks that `pref-fair/2` data sits at its place: it was dealt as deal `index` (0-based),
/// at the table of every other `pref-fair/2` deal in `others`, and no `pref-fair/1` deal
/// comes after a `pref-fair/2` one (a server dealing under the second scheme never goes
/// back, so an older deal there was spliced in).
///
/// # Errors
/// [`FairError::DealMoved`], [`FairError::OtherTable`] or [`FairError::Downgrade`].
fn check_place(
    fairness: &Fairness,
    index: usize,
    others: &FairnessByDeal,
) -> Result<(), FairError> {
    let placed = |(&i, f): (&usize, &Fairness)| f.scheme().place().map(|p| (i, p));
    let mut v2 = others.iter().filter_map(placed);
    match fairness.scheme() {
        Scheme::V1 => match v2.find(|&(i, _)| i < index) {
            Some((first, _)) => Err(FairError::Downgrade { first }),
            None => Ok(()),
        },
        Scheme::V2(Place { table, deal }) => {
            if usize::try_from(deal).ok() != Some(index) {
                return Err(FairError::DealMoved { dealt: deal });
            }
            match v2.find(|(_, p)| p.table != table) {
                Some((first, _)) => Err(FairError::OtherTable { first }),
                None => Ok(()),
            }
        }
    }
}

/// Reads a played deal's `fairness` key, if it has one, and checks it against the deal's
/// cards and its place: `dealer` is the deal's dealer, `index` its index in the record and
/// `earlier` the fairness data of the deals before it.
pub(super) fn read_fairness(
    raw: &Value,
    deal: &RecordDeal,
    profile: &Profile,
    dealer: Seat,
    (index, earlier): (usize, &FairnessByDeal),
) -> Result<Option<Fairness>, Reason> {
    let (Some(v), RecordDeal::Played { hands, talon, .. }) = (raw.get("fairness"), deal) else {
        return Ok(None);
    };
    let Value::Object(m) = v else {
        return Err(wrong("fairness", "an object"));
    };
    let scheme = match need(m, "scheme")? {
        Value::String(s) if s == SCHEME_1 => Scheme::V1,
        Value::String(s) if s == SCHEME_2 => Scheme::V2(read_place(m)?),
        _ => return Err(wrong("scheme", "\"pref-fair/1\" or \"pref-fair/2\"")),
    };
    let place_keys: &[&str] = match scheme {
        Scheme::V1 => &[],
        Scheme::V2(_) => &["table", "deal"],
    };
    let keys = [
        "scheme",
        "seed_commitment",
        "contributions",
        "deck_commitment",
        "server_seed",
        "deck",
    ];
    known_keys(m, &[&keys[..], place_keys].concat())?;
    let Value::Array(raw_contributions) = need(m, "contributions")? else {
        return Err(wrong("contributions", "a list of contributions"));
    };
    let contributions = raw_contributions
        .iter()
        .map(|c| read_contribution(c, profile.players()))
        .collect::<Result<Vec<_>, _>>()?;
    let fairness = Fairness::new(
        scheme,
        hex_of(m, "seed_commitment")?,
        hex_of(m, "deck_commitment")?,
        hex_of(m, "server_seed")?,
        contributions,
        read_deck(need(m, "deck")?)?,
    )
    .map_err(Reason::Fairness)?;
    check_deal(&fairness, profile.players(), dealer, hands, *talon).map_err(Reason::Fairness)?;
    check_place(&fairness, index, earlier).map_err(Reason::Fairness)?;
    Ok(Some(fairness))
}

/// A `pref-fair/2` object's place: `table` (its tag, 64 lowercase hex digits) and `deal`
/// (the deal's number in its game).
fn read_place(m: &Map<String, Value>) -> Result<Place, Reason> {
    let deal = need(m, "deal")?
        .as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or(wrong("deal", "a deal number (0 for the first deal)"))?;
    Ok(Place {
        table: hex_of(m, "table")?,
        deal,
    })
}

/// A value written as 64 lowercase hex digits.
fn hex_of<T: std::str::FromStr>(m: &Map<String, Value>, key: &'static str) -> Result<T, Reason> {
    need(m, key)?
        .as_str()
        .and_then(|s| s.parse().ok())
        .ok_or(wrong(key, "64 lowercase hex digits"))
}

fn read_contribution(v: &Value, players: u8) -> Result<Contributed, Reason> {
    let Value::Object(m) = v else {
        return Err(wrong("contributions", "a list of contribution objects"));
    };
    known_keys(m, &["seat", "value", "late"])?;
    let arrival = match m.get("late") {
        None => Arrival::InTime,
        Some(Value::Bool(true)) => Arrival::Late,
        Some(_) => return Err(wrong("late", "true (absent for a contribution in time)")),
    };
    Ok(Contributed {
        seat: read_seat(need(m, "seat")?, "seat", players)?,
        value: hex_of(m, "value")?,
        arrival,
    })
}

/// The deck, written as in the deck commitment's text: 32 cards, one space between two.
fn read_deck(v: &Value) -> Result<[Card; 32], Reason> {
    let expected = "32 cards separated by single spaces";
    let text = v.as_str().ok_or(wrong("deck", expected))?;
    let cards = text
        .split(' ')
        .map(|c| match c.parse::<Card>() {
            Ok(card) if card.to_string() == c => Ok(card),
            _ => Err(Reason::UnknownCard(c.to_owned())),
        })
        .collect::<Result<Vec<Card>, Reason>>()?;
    cards.try_into().map_err(|_| wrong("deck", expected))
}

/// Checks that the deck deals the written hands and talon: cards 0–9 to first hand, 10–19
/// and 20–29 to the next active seats clockwise, 30–31 to the talon (as `Deal::new` deals).
fn check_deal(
    fairness: &Fairness,
    players: u8,
    dealer: Seat,
    hands: &[Vec<Card>],
    talon: [Card; 2],
) -> Result<(), FairError> {
    let deck = fairness.deck();
    let mut dealt = [CardSet::EMPTY; 4];
    let mut seat = first_hand(players, dealer);
    for chunk in deck[..30].chunks(10) {
        dealt[seat.index()] = chunk.iter().copied().collect();
        seat = next_active(players, dealer, seat);
    }
    for (s, hand) in hands.iter().enumerate() {
        let written: CardSet = hand.iter().copied().collect();
        if hand.len() != written.len() as usize || written != dealt[s] {
            return Err(FairError::Hand(s as u8));
        }
    }
    if talon != [deck[30], deck[31]] {
        return Err(FairError::Talon);
    }
    Ok(())
}

/// A played deal's JSON with its `fairness` object added.
pub(super) fn with_fairness_out(deal: Out, fairness: Option<&Fairness>) -> Out {
    match (deal, fairness) {
        (Out::Object(mut fields), Some(f)) => {
            fields.push(("fairness".to_owned(), fairness_out(f)));
            Out::Object(fields)
        }
        (deal, _) => deal,
    }
}

impl Fairness {
    /// The `fairness` object exactly as records write it (`docs/game-record.md`), for the
    /// message that reveals a finished deal: a browser checks the same object it will find
    /// in the record.
    #[must_use]
    pub fn to_json_string(&self) -> String {
        let mut s = String::new();
        fairness_out(self).write(0, &mut s);
        s
    }
}

/// The `fairness` object, keys in the order the values are published: before the deal,
/// then after it.
fn fairness_out(f: &Fairness) -> Out {
    let contributions = f
        .contributions()
        .iter()
        .map(|c| {
            let mut entry = vec![
                ("seat".to_owned(), Out::Raw(c.seat.0.to_string())),
                ("value".to_owned(), Out::str(c.value.to_string())),
            ];
            if c.arrival == Arrival::Late {
                entry.push(("late".to_owned(), Out::Raw("true".to_owned())));
            }
            Out::Object(entry)
        })
        .collect();
    let deck: Vec<String> = f.deck().iter().map(Card::to_string).collect();
    let mut fields = vec![("scheme".to_owned(), Out::str(f.scheme().name()))];
    if let Some(p) = f.scheme().place() {
        fields.push(("table".to_owned(), Out::str(p.table.to_string())));
        fields.push(("deal".to_owned(), Out::Raw(p.deal.to_string())));
    }
    fields.extend([
        (
            "seed_commitment".to_owned(),
            Out::str(f.seed_commitment().to_string()),
        ),
        ("contributions".to_owned(), Out::List(contributions)),
        (
            "deck_commitment".to_owned(),
            Out::str(f.deck_commitment().to_string()),
        ),
        (
            "server_seed".to_owned(),
            Out::str(f.server_seed().to_string()),
        ),
        ("deck".to_owned(), Out::str(deck.join(" "))),
    ]);
    Out::Object(fields)
}
