//! The trick rules again, at the bit level, as the search plays them: a hand is a 32-bit
//! mask (card index = suit * 8 + rank), a card a `u8`, and [`Rules`] the goal reduced to
//! what a trick needs (R6.2, R6.3, R7.2, R7.3, R11.3).

/// The goal as the search uses it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rules {
    pub(super) target: u8,
    /// The target minimises (misère, raspasy) instead of maximising.
    pub(super) minimise: bool,
    /// Trump suit index, or 4.
    pub(super) trump: u8,
    /// Raspasy: first hand and the talon suits.
    pub(super) raspasy: Option<(u8, [u8; 2])>,
    /// Four-player raspasy: the talon cards leading tricks 1 and 2 (R11.3).
    pub(super) talon_cards: Option<[u8; 2]>,
    /// The trump suit's cards (none in no trumps).
    pub(super) trump_bits: u32,
    /// The first trick played by the plain rules (the suit of its first card to follow, no
    /// talon card, its winner to lead the next): 2 in raspasy (R7.2, R7.3, R11.3), else 0.
    pub(super) plain_from: u8,
}

const SUIT_MASK: u32 = 0xFF;

pub(super) fn suit_of(c: u8) -> u8 {
    c >> 3
}

pub(super) fn suit_bits(s: u8) -> u32 {
    SUIT_MASK << (s * 8)
}

/// The cards above card index `c` (in any suit; callers mask the suit).
pub(super) fn above(c: u8) -> u32 {
    u32::MAX.checked_shl(u32::from(c) + 1).unwrap_or(0)
}

pub(super) fn highest(bits: u32) -> u8 {
    31 - bits.leading_zeros() as u8
}

/// `Node::win` when the four-player dealer's talon card wins the trick (R11.3); also the
/// "player" who then wins it.
pub(super) const DEALER: u8 = 3;

/// The player `steps` places clockwise after `player` (`steps` < 3).
#[inline]
pub(super) fn next_player(player: u8, steps: u8) -> u8 {
    let p = player + steps;
    if p >= 3 { p - 3 } else { p }
}

impl Rules {
    /// The suit that must be followed on trick `trick_no` given its first card (R7.2 makes
    /// it the talon card's suit on raspasy tricks 1 and 2).
    pub(super) fn led_suit(&self, first: u8, trick_no: u8) -> u8 {
        match self.raspasy {
            Some((_, talon)) if trick_no < 2 => talon[trick_no as usize],
            _ => suit_of(first),
        }
    }

    pub(super) fn legal(&self, hand: u32, trick: &[u8; 3], len: usize, trick_no: u8) -> u32 {
        if len == 0 {
            if let Some((_, talon)) = self.raspasy
                && trick_no < 2
            {
                let x = hand & suit_bits(talon[trick_no as usize]);
                return if x == 0 { hand } else { x };
            }
            return hand;
        }
        let follow = hand & suit_bits(self.led_suit(trick[0], trick_no));
        if follow != 0 {
            return follow;
        }
        if self.trump < 4 {
            let t = hand & suit_bits(self.trump);
            if t != 0 {
                return t;
            }
        }
        hand
    }

    /// Index in the trick of the card winning it so far (R6.3, R7.2).
    pub(super) fn winning(&self, trick: &[u8; 3], len: usize, trick_no: u8) -> usize {
        let led = self.led_suit(trick[0], trick_no);
        let first = suit_of(trick[0]);
        let mut best = 0;
        let mut best_key = self.card_key(trick[0], led, first);
        for (i, &c) in trick.iter().enumerate().take(len).skip(1) {
            let k = self.card_key(c, led, first);
            if k > best_key {
                best = i;
                best_key = k;
            }
        }
        best
    }

    /// A card's strength in a trick: trumps above the suit to follow (the talon suit on
    /// raspasy tricks 1–2) above the suit of the first card; other suits never win (key 0
    /// class). Within a class, rank decides.
    pub(super) fn card_key(&self, c: u8, led: u8, first: u8) -> u8 {
        let s = suit_of(c);
        let class = if s == self.trump {
            3
        } else if s == led {
            2
        } else if s == first {
            1
        } else {
            return 0;
        };
        class << 3 | (c & 7)
    }

    /// The talon card leading trick `trick_no`, if the dealer's card leads it (R11.3).
    pub(super) fn talon_lead(&self, trick_no: u8) -> Option<u8> {
        match self.talon_cards {
            Some(cards) if trick_no < 2 => Some(cards[trick_no as usize]),
            _ => None,
        }
    }

    /// Who leads trick `trick_no` after `winner` took the one before (R6.1, R7.3).
    pub(super) fn next_leader(&self, winner: u8, trick_no: u8) -> u8 {
        match self.raspasy {
            Some((first, _)) if trick_no < 3 => first,
            _ => winner,
        }
    }

    pub(super) fn maximises(&self, player: u8) -> bool {
        (player == self.target) != self.minimise
    }

    /// Context bits of the transposition key (bits 82..96): everything but the cards and
    /// the leader. Misère and raspasy from trick 4 on play by the same rules (the target
    /// minimises, no trumps, the winner leads), so they share entries.
    pub(super) fn context(&self, trick_no: u8) -> u128 {
        let mode = if self.minimise { 5 } else { self.trump };
        let mut c = u128::from(self.target) | u128::from(mode) << 2;
        if let Some((first, talon)) = self.raspasy
            && trick_no < 3
        {
            c |= 1 << 5 | u128::from(trick_no) << 6 | u128::from(first) << 8;
            c |= u128::from(talon[0]) << 10 | u128::from(talon[1]) << 12;
        }
        c << 82
    }
}
