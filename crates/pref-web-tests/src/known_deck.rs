//! A table whose first deal is a deck the test chose, for the browser tests of a deal that
//! random decks almost never give (a no-talon deal, R3.10).
//!
//! Why this way: the server deals every deck from a provably fair shuffle (a seed from the OS
//! and the players' contributions, `docs/fairness.md`), and no request may choose cards —
//! a stranger could deal himself the hand he likes. So the deck is not asked for over HTTP:
//! this harness writes the table straight into the data directory of a server it has not
//! started yet, through the store's public API (the same rows a table in play has: its seats,
//! its first deck, its state), and the server then restores it at start-up as it restores
//! every unfinished table after a restart. Only code that holds the server's database can do
//! this, which is exactly who could rewrite a deck anyway.

use std::path::Path;

use pref_core::Card;
use pref_server::ids::{Secret, TokenHash};
use pref_server::store::{Store, Stored};
use serde_json::Value;

/// The table written: its id, the host token, and the person's seat and token.
#[derive(Clone, Debug)]
pub struct KnownTable {
    /// The table id (`/t/{id}`).
    pub id: String,
    /// The host token.
    pub host: String,
    /// The person's seat.
    pub seat: u8,
    /// The person's seat token.
    pub token: String,
}

/// Writes, into the store in `dir`, a started table with `profile` whose deal 0 is `deck`
/// (dealt as the core deals: ten cards each from the first hand on, the last two the
/// talon) with `first_dealer` dealing: `person` (seat, name) is a person, every other seat a
/// bot of `bot_level`; the person is the host. Start the server on `dir` afterwards (`server_with` with
/// `data_dir`), and seat the browser with [`KnownTable::sit_script`].
///
/// # Panics
/// If the store cannot be opened or written.
pub async fn table_with_deck(
    dir: &Path,
    profile: &Value,
    deck: &[Card; 32],
    first_dealer: u8,
    person: (u8, &str),
    bot_level: &str,
) -> KnownTable {
    let store = Store::open(dir).await.expect("the store opens");
    let (id, host, token) = (Secret::random(), Secret::random(), Secret::random());
    let invite = TokenHash::of(&host.invite_key());
    let no = store
        .create_table(
            &id,
            (&TokenHash::of(&host), &invite),
            profile,
            false,
            first_dealer,
        )
        .await
        .expect("the table is written");
    let players = profile_players(profile);
    for seat in 0..players {
        let (name, token, bot) = if seat == person.0 {
            (person.1.to_owned(), TokenHash::of(&token), None)
        } else {
            let bot = Secret::random();
            (
                format!("Bot {}", seat + 1),
                TokenHash::of(&bot),
                Some(bot_level),
            )
        };
        // The person is the host, in the seat he claimed with his token.
        store
            .put_seat((no, seat), &name, &token, bot, 0, bot.is_none())
            .await
            .expect("a seat is written");
    }
    store
        .set_state(no, Stored::Playing)
        .await
        .expect("the state is written");
    store
        .put_deal(no, 0, deck)
        .await
        .expect("the deck is written");
    KnownTable {
        id: id.expose(),
        host: host.expose(),
        seat: person.0,
        token: token.expose(),
    }
}

/// The number of players a profile request asks for (3 unless it says `players`).
fn profile_players(profile: &Value) -> u8 {
    profile
        .get("players")
        .and_then(Value::as_u64)
        .and_then(|p| u8::try_from(p).ok())
        .unwrap_or(3)
}

impl KnownTable {
    /// The script that keeps the person's seat token where the page looks for it
    /// (`web/js/store.js`), to run on any page of the server before opening the table.
    #[must_use]
    pub fn sit_script(&self) -> String {
        format!(
            "localStorage.setItem('pref:{id}:seat', JSON.stringify({{ seat: {seat}, token: '{token}' }}));
             localStorage.setItem('pref:{id}:host', '{host}');",
            id = self.id,
            seat = self.seat,
            token = self.token,
            host = self.host,
        )
    }
}
