//! Why fairness data does not hold together.

/// Why fairness data does not hold together, or a contribution cannot be taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FairError {
    /// A seat contributes twice to one deal.
    #[error("seat {0} contributes twice")]
    RepeatedSeat(u8),
    /// Contributions are listed by seat, lowest first.
    #[error("contributions are listed by seat, lowest first")]
    SeatOrder,
    /// The revealed seed is not the one committed to.
    #[error("the server seed does not match its commitment")]
    SeedCommitment,
    /// The deck is not the shuffle of the seed and the contributions in time.
    #[error("the deck is not the shuffle of the server seed and the contributions")]
    Deck,
    /// The deck does not match its commitment.
    #[error("the deck does not match its commitment")]
    DeckCommitment,
    /// A hand is not the one the deck deals to that seat.
    #[error("seat {0}'s hand is not the one the deck deals")]
    Hand(u8),
    /// The talon is not the deck's last two cards.
    #[error("the talon is not the deck's last two cards")]
    Talon,
    /// Fairness data for a deal scored from its outcome, which has no cards.
    #[error("only a deal played card by card has a deck")]
    NotPlayed,
    /// Fairness data for a deal the record does not have.
    #[error("the record has no such deal")]
    NoSuchDeal,
    /// `pref-fair/2` data dealt as another deal of its game than the one it is attached to.
    #[error("its fairness data was dealt as deal {dealt}, not as this deal: deals were moved")]
    DealMoved {
        /// The deal number its values were made for.
        dealt: u32,
    },
    /// `pref-fair/2` data of another table than an earlier deal's of the same record.
    #[error(
        "its fairness data was dealt at another table than deal {first}'s: a deal of another game"
    )]
    OtherTable {
        /// The earlier deal whose table differs.
        first: usize,
    },
    /// `pref-fair/1` data after a deal dealt under `pref-fair/2`: a server that deals under
    /// the second scheme never goes back.
    #[error("a pref-fair/1 deal after deal {first}, which is pref-fair/2")]
    Downgrade {
        /// The earlier `pref-fair/2` deal.
        first: usize,
    },
}
