//! The position a caller asks about: the three hands, the trick in progress and the goal,
//! checked ([`Position::validate`]) and played card by card ([`Position::play`]) by the
//! search's own rules.

use std::fmt;

use pref_core::{Card, CardSet, Suit};

use super::rules::{Rules, suit_bits};

/// What is being played, and whose tricks are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// A trick contract: the declarer's tricks, declarer maximising (R6).
    Tricks {
        /// The declarer's player index.
        declarer: usize,
        /// The trump suit; `None` for no trumps.
        trump: Option<Suit>,
    },
    /// Misère (R6.4, R6.5): the declarer's tricks, the defence maximising.
    Misere {
        /// The declarer's player index.
        declarer: usize,
    },
    /// Raspasy (R7) seen from one player, who minimises his own tricks while the others
    /// maximise them (paranoid).
    Raspasy {
        /// The player whose tricks are counted.
        player: usize,
        /// First hand's player index: he leads tricks 1 to 3 (R7.2, R7.3).
        first_hand: usize,
        /// The suits of the two turned talon cards: the suits of tricks 1 and 2 (R7.2).
        talon: [Suit; 2],
        /// Four players (R11.3): the two talon cards themselves, which belong to the
        /// sitting-out dealer, lead tricks 1 and 2 and win them unless a player beats them
        /// in their suit (first hand plays first after them). Their suits are `talon`'s.
        /// `None` with three players (R7.2).
        talon_cards: Option<[Card; 2]>,
    },
}

/// A position to solve: hands, the trick in progress, and the goal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The cards each player holds now, by player index.
    pub hands: [CardSet; 3],
    /// Who led (or leads) the current trick.
    pub leader: usize,
    /// Cards already played to the current trick, in order from the leader (0 to 2).
    pub trick: Vec<Card>,
    /// Tricks completed in this deal (only raspasy's first three tricks depend on it).
    pub tricks_done: u8,
    /// What is being played.
    pub goal: Goal,
}

/// Why a [`Position`] cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A player index is not 0, 1 or 2.
    NoSuchPlayer(usize),
    /// A card is in two places.
    CardTwice(Card),
    /// The hands do not fit the trick: players still to play must hold one card more than
    /// those who have played.
    HandSizes,
    /// A trick holds three cards or more: it is complete, not in progress.
    TrickFull,
    /// Four-player raspasy: a talon card's suit is not the talon suit given for its trick.
    TalonSuit(Card),
    /// The card is not one the player to move may play ([`Position::legal_cards`]).
    IllegalCard(Card),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::NoSuchPlayer(p) => write!(f, "there is no player {p}"),
            PositionError::CardTwice(c) => write!(f, "card {c} is in two places"),
            PositionError::HandSizes => f.write_str("hand sizes do not fit the trick"),
            PositionError::TrickFull => f.write_str("the trick in progress is complete"),
            PositionError::TalonSuit(c) => write!(f, "talon card {c} is not of its trick's suit"),
            PositionError::IllegalCard(c) => write!(f, "{c} may not be played here"),
        }
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// The player whose tricks the value counts.
    #[must_use]
    pub fn target(&self) -> usize {
        match self.goal {
            Goal::Tricks { declarer, .. } | Goal::Misere { declarer } => declarer,
            Goal::Raspasy { player, .. } => player,
        }
    }

    /// The player to play next.
    #[must_use]
    pub fn to_play(&self) -> usize {
        (self.leader + self.trick.len()) % 3
    }

    /// Tricks left to play, the one in progress included.
    #[must_use]
    pub fn tricks_left(&self) -> u8 {
        self.hands[self.leader].len() as u8 + u8::from(!self.trick.is_empty())
    }

    /// Checks that the position is well formed.
    ///
    /// # Errors
    /// A [`PositionError`] saying what is wrong.
    pub fn validate(&self) -> Result<(), PositionError> {
        let players = match self.goal {
            Goal::Tricks { declarer, .. } | Goal::Misere { declarer } => [declarer, 0],
            Goal::Raspasy {
                player, first_hand, ..
            } => [player, first_hand],
        };
        for p in [self.leader, players[0], players[1]] {
            if p >= 3 {
                return Err(PositionError::NoSuchPlayer(p));
            }
        }
        if self.trick.len() >= 3 {
            return Err(PositionError::TrickFull);
        }
        let mut seen = CardSet::EMPTY;
        let talon_cards = match self.goal {
            Goal::Raspasy {
                talon,
                talon_cards: Some(cards),
                ..
            } => {
                for (c, s) in cards.into_iter().zip(talon) {
                    if c.suit() != s {
                        return Err(PositionError::TalonSuit(c));
                    }
                }
                cards.to_vec()
            }
            _ => Vec::new(),
        };
        for c in self
            .hands
            .iter()
            .flat_map(|h| h.iter())
            .chain(self.trick.iter().copied())
            .chain(talon_cards)
        {
            if seen.contains(c) {
                return Err(PositionError::CardTwice(c));
            }
            seen = seen.with(c);
        }
        let base = self.hands[self.leader].len() + u32::from(!self.trick.is_empty());
        for i in 0..3 {
            let p = (self.leader + i) % 3;
            let expected = if i < self.trick.len() { base - 1 } else { base };
            if self.hands[p].len() != expected {
                return Err(PositionError::HandSizes);
            }
        }
        Ok(())
    }

    /// The cards the player to move may play (R6.2, R7.2); `must_overtake` is not modelled.
    #[must_use]
    pub fn legal_cards(&self) -> CardSet {
        let rules = Rules::of(self);
        let mut trick = [0u8; 3];
        for (slot, c) in trick.iter_mut().zip(&self.trick) {
            *slot = c.index();
        }
        CardSet(rules.legal(
            self.hands[self.to_play()].0,
            &trick,
            self.trick.len(),
            self.tricks_done,
        ))
    }

    /// The position after the player to move plays `card`, and the trick's winner if the
    /// card completed it: `Some(Some(player))`, or `Some(None)` when a four-player dealer's
    /// talon card won it (R11.3). The rules are the search's own (R6.3, R7.2, R7.3).
    ///
    /// # Errors
    /// [`PositionError::IllegalCard`] if `card` is not among [`Position::legal_cards`].
    pub fn play(&self, card: Card) -> Result<(Position, Option<Option<usize>>), PositionError> {
        if !self.legal_cards().contains(card) {
            return Err(PositionError::IllegalCard(card));
        }
        let mut next = self.clone();
        let player = self.to_play();
        next.hands[player] = next.hands[player].without(card);
        next.trick.push(card);
        if next.trick.len() < 3 {
            return Ok((next, None));
        }
        let rules = Rules::of(self);
        let trick_no = self.tricks_done;
        let cards: [u8; 3] = std::array::from_fn(|i| next.trick[i].index());
        let w = rules.winning(&cards, 3, trick_no);
        let mut winner = Some((self.leader + w) % 3);
        if let Some(t) = rules.talon_lead(trick_no) {
            // The dealer's talon card is one more card of the suit to follow (R11.3).
            let led = rules.led_suit(cards[0], trick_no);
            let key = |c: u8| rules.card_key(c, led, led);
            if key(t) > key(cards[w]) {
                winner = None;
            }
        }
        next.tricks_done += 1;
        let by = winner.map_or(self.leader as u8, |p| p as u8);
        next.leader = usize::from(rules.next_leader(by, next.tricks_done));
        next.trick.clear();
        Ok((next, Some(winner)))
    }
}

impl Rules {
    /// The search's rules for a position's goal (here, so that the rules need not know
    /// positions).
    pub(super) fn of(pos: &Position) -> Rules {
        match pos.goal {
            Goal::Tricks { declarer, trump } => Rules {
                target: declarer as u8,
                minimise: false,
                trump: trump.map_or(4, |s| s as u8),
                raspasy: None,
                talon_cards: None,
                trump_bits: trump.map_or(0, |s| suit_bits(s as u8)),
                plain_from: 0,
            },
            Goal::Misere { declarer } => Rules {
                target: declarer as u8,
                minimise: true,
                trump: 4,
                raspasy: None,
                talon_cards: None,
                trump_bits: 0,
                plain_from: 0,
            },
            Goal::Raspasy {
                player,
                first_hand,
                talon,
                talon_cards,
            } => Rules {
                target: player as u8,
                minimise: true,
                trump: 4,
                raspasy: Some((first_hand as u8, [talon[0] as u8, talon[1] as u8])),
                talon_cards: talon_cards.map(|t| t.map(Card::index)),
                trump_bits: 0,
                plain_from: 2,
            },
        }
    }
}
