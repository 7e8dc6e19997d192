//! How hard a bot thinks: the levels and the number of layouts each samples.

/// How hard a bot thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Rules of thumb, no search.
    Easy,
    /// Sampling with few layouts.
    Normal,
    /// Sampling with many layouts.
    Strong,
}

impl Level {
    /// Most layouts sampled for one card.
    pub(crate) fn play_samples(self) -> usize {
        match self {
            Level::Easy => 0,
            Level::Normal => 10,
            Level::Strong => 40,
        }
    }

    /// Most layouts sampled for one raspasy card with the wider raspasy sample
    /// (`Bot::wide_raspasy`): the raspasy model's cards are the ones sampling gets most
    /// wrong, and its positions are cheap to solve once the talon's tricks are played.
    pub(crate) fn raspasy_samples(self) -> usize {
        match self {
            Level::Easy => 0,
            Level::Normal => 10,
            Level::Strong => 100,
        }
    }

    /// Most layouts sampled for a bidding, discard, contract or whist decision.
    pub(crate) fn contract_samples(self) -> usize {
        match self {
            Level::Easy => 0,
            Level::Normal => 6,
            Level::Strong => 20,
        }
    }
}
