//! A tournament's deals: every deck drawn when the tournament is made, by the fair-deal
//! scheme (`pref-fair/2`, the server's seed alone), its commitments published at once and
//! its seed revealed at the close; where each deal sits (its place, its dealer, the
//! entrant's seat) and the one-deal record of an entrant's play that `pref verify` checks.

use pref_core::fair::{Fairness, Place, Scheme, Seed, TableTag, deck_commitment, shuffle};
use pref_core::{Card, Profile, Record, Seat};
use pref_protocol::DealCommitment;
use rand::RngCore;

/// The seat every entrant plays.
pub(crate) const ENTRANT: Seat = Seat(0);

/// One deal, fixed when the tournament is made.
#[derive(Clone, Debug)]
pub(crate) struct FixedDeal {
    /// The deal's place: the table `<tournament id>-<k>`, deal 0.
    pub scheme: Scheme,
    /// The server's seed (secret until the close).
    pub seed: Seed,
    /// The deck it shuffles to.
    pub deck: [Card; 32],
    /// The dealer.
    pub dealer: Seat,
}

/// The table name deal `k` of tournament `id` is dealt at.
pub(crate) fn place_name(id: &str, k: u32) -> String {
    format!("{id}-{k}")
}

/// Deal `k`'s dealer: the seat before the entrant's, turned by `k`; under four players
/// never the entrant (who always plays).
pub(crate) fn dealer(players: u8, k: u32) -> Seat {
    if players == 4 {
        Seat(1 + ((k + 2) % 3) as u8)
    } else {
        Seat(((k + 2) % 3) as u8)
    }
}

impl FixedDeal {
    /// Deal `k` of tournament `id` on `seed`.
    pub(crate) fn new(id: &str, k: u32, seed: Seed, profile: &Profile) -> FixedDeal {
        let scheme = Scheme::V2(Place {
            table: TableTag::of(&place_name(id, k)),
            deal: 0,
        });
        FixedDeal {
            scheme,
            deck: shuffle(&scheme, &seed, &[]),
            seed,
            dealer: dealer(profile.players(), k),
        }
    }

    /// A fresh seed from the operating system.
    pub(crate) fn fresh_seed() -> Seed {
        let mut bytes = [0u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        Seed::from_bytes(bytes)
    }

    /// The bots' seed for this deal: fixed by the deal's secret seed, so every entrant
    /// meets the same bots.
    pub(crate) fn bot_seed(&self) -> u64 {
        let bytes = self.seed.to_bytes();
        u64::from_le_bytes(std::array::from_fn(|i| bytes[i]))
    }

    /// The commitments, with the seed when `revealed`.
    pub(crate) fn commitment(&self, k: u32, revealed: bool) -> DealCommitment {
        let table = self
            .scheme
            .place()
            .map(|p| p.table.to_string())
            .unwrap_or_default();
        DealCommitment {
            deal: k,
            table,
            seed_commitment: self.seed.commitment(&self.scheme).to_string(),
            deck_commitment: deck_commitment(&self.scheme, &self.deck, &self.seed).to_string(),
            seed: revealed.then(|| self.seed.to_string()),
        }
    }

    /// The revealed fairness data of the deal.
    pub(crate) fn fairness(&self) -> Fairness {
        Fairness::new(
            self.scheme,
            self.seed.commitment(&self.scheme),
            deck_commitment(&self.scheme, &self.deck, &self.seed),
            self.seed,
            Vec::new(),
            self.deck,
        )
        .expect("a deck shuffled from its own seed verifies")
    }

    /// The one-deal record of a finished play (`game` holds that deal only), with the
    /// deal's fairness data: what `pref verify` reads.
    ///
    /// # Errors
    /// The record's refusal, as text (a bug: the game was played by the core).
    pub(crate) fn record(
        &self,
        game: &pref_core::Game,
        names: &[String],
    ) -> Result<String, String> {
        let mut record = Record::from_game(game, names).map_err(|e| e.to_string())?;
        record
            .set_fairness(0, self.fairness())
            .map_err(|e| e.to_string())?;
        Ok(record.to_json_string())
    }
}
