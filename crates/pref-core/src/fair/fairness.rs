//! A deal's shuffle while contributions come in ([`Shuffle`]), and the fairness data that
//! holds together once it is finished or read back ([`Fairness`]).

use crate::bid::Seat;
use crate::card::Card;

use super::deck::{deck_commitment, shuffle};

use super::error::FairError;
use super::values::{Arrival, Contributed, Contribution, Digest, Scheme, Seed};

/// Checks that contributions name each seat once, lowest seat first.
fn check_seats(contributions: &[Contributed]) -> Result<(), FairError> {
    for pair in contributions.windows(2) {
        match pair[0].seat.0.cmp(&pair[1].seat.0) {
            std::cmp::Ordering::Less => {}
            std::cmp::Ordering::Equal => return Err(FairError::RepeatedSeat(pair[1].seat.0)),
            std::cmp::Ordering::Greater => return Err(FairError::SeatOrder),
        }
    }
    Ok(())
}

/// A deal's shuffle while the server collects contributions: the seed is fixed, the deck is
/// not yet.
#[derive(Clone, Debug)]
pub struct Shuffle {
    scheme: Scheme,
    seed: Seed,
    contributions: Vec<Contributed>,
}

impl Shuffle {
    /// Opens a deal's shuffle under `scheme` (the server's: `pref-fair/2` at the deal's
    /// place) on the server's fresh seed.
    #[must_use]
    pub fn new(scheme: Scheme, seed: Seed) -> Shuffle {
        Shuffle {
            scheme,
            seed,
            contributions: Vec::new(),
        }
    }

    /// The seed's commitment, to publish before asking for contributions.
    #[must_use]
    pub fn seed_commitment(&self) -> Digest {
        self.seed.commitment(&self.scheme)
    }

    /// Takes a seat's revealed contribution (the caller has checked it against the seat's
    /// commitment and decided whether it came in time).
    ///
    /// # Errors
    /// [`FairError::RepeatedSeat`] if the seat has contributed already; nothing changes.
    pub fn contribute(
        &mut self,
        seat: Seat,
        value: Contribution,
        arrival: Arrival,
    ) -> Result<(), FairError> {
        match self
            .contributions
            .binary_search_by_key(&seat.0, |c| c.seat.0)
        {
            Ok(_) => Err(FairError::RepeatedSeat(seat.0)),
            Err(at) => {
                let c = Contributed {
                    seat,
                    value,
                    arrival,
                };
                self.contributions.insert(at, c);
                Ok(())
            }
        }
    }

    /// Closes the contributions and shuffles: the deal's whole fairness data.
    #[must_use]
    pub fn finish(self) -> Fairness {
        let deck = shuffle(&self.scheme, &self.seed, &self.contributions);
        Fairness {
            scheme: self.scheme,
            seed_commitment: self.seed.commitment(&self.scheme),
            deck_commitment: deck_commitment(&self.scheme, &deck, &self.seed),
            server_seed: self.seed,
            contributions: self.contributions,
            deck,
        }
    }
}

/// Everything needed to recompute and check one deal's deck: what was published before the
/// deal (the two commitments) and what is revealed after it (the seed, the contributions
/// and the deck). A value of this type always holds together: it is made by
/// [`Shuffle::finish`] or checked by [`Fairness::new`]. It is hidden information until the
/// deal's cards may all be seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fairness {
    scheme: Scheme,
    seed_commitment: Digest,
    deck_commitment: Digest,
    server_seed: Seed,
    contributions: Vec<Contributed>,
    deck: [Card; 32],
}

impl Fairness {
    /// Checks revealed values against each other, in this order: the seats of the
    /// contributions, the seed against its commitment, the deck against the shuffle of the
    /// seed and the contributions in time, the deck against its commitment.
    ///
    /// # Errors
    /// The first [`FairError`] found.
    pub fn new(
        scheme: Scheme,
        seed_commitment: Digest,
        deck_commitment: Digest,
        server_seed: Seed,
        contributions: Vec<Contributed>,
        deck: [Card; 32],
    ) -> Result<Fairness, FairError> {
        check_seats(&contributions)?;
        if server_seed.commitment(&scheme) != seed_commitment {
            return Err(FairError::SeedCommitment);
        }
        if shuffle(&scheme, &server_seed, &contributions) != deck {
            return Err(FairError::Deck);
        }
        if crate::fair::deck_commitment(&scheme, &deck, &server_seed) != deck_commitment {
            return Err(FairError::DeckCommitment);
        }
        Ok(Fairness {
            scheme,
            seed_commitment,
            deck_commitment,
            server_seed,
            contributions,
            deck,
        })
    }

    /// The scheme the deal was dealt under, with its place under `pref-fair/2`.
    #[must_use]
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The same values with a late contribution added (it changes no commitment and not
    /// the deck).
    ///
    /// # Errors
    /// [`FairError::RepeatedSeat`] if the seat has contributed already.
    pub fn with_late(&self, seat: Seat, value: Contribution) -> Result<Fairness, FairError> {
        let mut contributions = self.contributions.clone();
        match contributions.binary_search_by_key(&seat.0, |c| c.seat.0) {
            Ok(_) => Err(FairError::RepeatedSeat(seat.0)),
            Err(at) => {
                let late = Contributed {
                    seat,
                    value,
                    arrival: Arrival::Late,
                };
                contributions.insert(at, late);
                Ok(Fairness {
                    contributions,
                    ..self.clone()
                })
            }
        }
    }

    /// The seed's commitment, published when the deal opened.
    #[must_use]
    pub fn seed_commitment(&self) -> Digest {
        self.seed_commitment
    }

    /// The deck's commitment, published before the first card.
    #[must_use]
    pub fn deck_commitment(&self) -> Digest {
        self.deck_commitment
    }

    /// The server's seed (hidden until the deal's cards may all be seen).
    #[must_use]
    pub fn server_seed(&self) -> Seed {
        self.server_seed
    }

    /// Every contribution received, by seat, late ones included.
    #[must_use]
    pub fn contributions(&self) -> &[Contributed] {
        &self.contributions
    }

    /// The seats whose contributions are in the deck, lowest first.
    pub fn in_deck(&self) -> impl Iterator<Item = Seat> + '_ {
        self.seats(Arrival::InTime)
    }

    /// The seats whose contributions came late and are not in the deck.
    pub fn late(&self) -> impl Iterator<Item = Seat> + '_ {
        self.seats(Arrival::Late)
    }

    fn seats(&self, arrival: Arrival) -> impl Iterator<Item = Seat> + '_ {
        self.contributions
            .iter()
            .filter(move |c| c.arrival == arrival)
            .map(|c| c.seat)
    }

    /// The deck, for `Game::start_deal` (hidden information).
    #[must_use]
    pub fn deck(&self) -> &[Card; 32] {
        &self.deck
    }
}
