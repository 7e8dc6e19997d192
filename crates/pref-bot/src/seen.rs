//! What one seat has seen of a deal, from its stream of [`ViewEvent`]s: the cards played,
//! the voids shown, the talon cards turned, each seat's calls in the auction, and how many
//! raspasy deals came in a row before this one. The rest (hands, trick in progress, tricks
//! taken) is read from the seat's [`pref_core::DealView`] when a decision is asked for.

use pref_core::{Bid, Call, Card, CardSet, Seat, Suit, ViewEvent};

/// What a seat's calls said about its hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Calls {
    /// The highest trick bid it made.
    pub(crate) bid: Option<Bid>,
    /// Whether it bid misère.
    pub(crate) misere: bool,
    /// The lowest bid it could have made when it passed without having bid (R3.5).
    pub(crate) passed_at: Option<Bid>,
}

/// The seat's memory of the current deal.
#[derive(Clone, Debug, Default)]
pub(crate) struct Seen {
    /// Every card played so far (raspasy talon cards not included).
    pub(crate) played: CardSet,
    /// The cards each seat has played.
    pub(crate) played_by: [CardSet; 4],
    /// Suits each seat has shown it lacks (bit = suit index).
    pub(crate) voids: [u8; 4],
    /// Raspasy talon cards turned so far (R7.2, R11.3).
    pub(crate) talon_turned: [Option<Card>; 2],
    /// Whether the deal is raspasy.
    pub(crate) raspasy: bool,
    /// The trump suit once the contract is named.
    pub(crate) trump: Option<Suit>,
    /// The suit to follow in the trick in progress.
    led: Option<Suit>,
    /// Each seat's calls.
    pub(crate) calls: [Calls; 4],
    /// The standing bid.
    standing: Option<Bid>,
    /// Whether the deal was seen to its end.
    over: bool,
    /// Consecutive raspasy deals before this one (R8.9 prices, R3.3 exits).
    pub(crate) raspasy_before: u32,
}

impl Seen {
    /// Updates the memory with one event.
    pub(crate) fn observe(&mut self, event: &ViewEvent) {
        match event {
            ViewEvent::Dealt { .. } => {
                let streak = match (self.over, self.raspasy) {
                    (true, true) => self.raspasy_before + 1,
                    (true, false) => 0,
                    (false, _) => self.raspasy_before,
                };
                *self = Seen {
                    raspasy_before: streak,
                    ..Seen::default()
                };
            }
            ViewEvent::AllPassed => self.raspasy = true,
            ViewEvent::Called { seat, call, .. } => self.called(*seat, *call),
            ViewEvent::DealOver => self.over = true,
            ViewEvent::TalonCardTurned { trick, card } => {
                if let Some(slot) = self.talon_turned.get_mut(*trick as usize) {
                    *slot = Some(*card);
                }
                // Four players: the talon card leads (R11.3); three: its suit is followed (R7.2).
                self.led = Some(card.suit());
            }
            ViewEvent::Declared { contract, .. } => self.trump = contract.strain().trump(),
            ViewEvent::Played { seat, card } => self.played_card(*seat, *card),
            ViewEvent::TrickTaken { .. } => {
                self.led = None;
            }
            ViewEvent::AuctionWon { .. }
            | ViewEvent::Looked { .. }
            | ViewEvent::TalonSeen { .. }
            | ViewEvent::TalonTurned { .. }
            | ViewEvent::Discarded { .. }
            | ViewEvent::Surrendered { .. }
            | ViewEvent::Whisted { .. }
            | ViewEvent::DefenceChosen { .. }
            | ViewEvent::HandOpened { .. }
            | ViewEvent::Claimed { .. }
            | ViewEvent::Answered { .. }
            | ViewEvent::ClaimAccepted { .. }
            | ViewEvent::Revealed(_) => {}
        }
    }

    fn called(&mut self, seat: Seat, call: Call) {
        let Some(c) = self.calls.get_mut(seat.index()) else {
            return;
        };
        match call {
            Call::Pass => {
                if c.bid.is_none() && !c.misere {
                    let floor = match self.standing {
                        None => Some(Bid::LOWEST),
                        Some(b) => b.next_step(),
                    };
                    c.passed_at = floor
                        .filter(|b| !b.is_misere())
                        .or(floor.and_then(Bid::next_step));
                }
            }
            // MWT is a misère without the talon (R3.10.1).
            Call::Bid(b) if b.is_any_misere() => {
                c.misere = true;
                self.standing = Some(self.standing.map_or(b, |s| s.max(b)));
            }
            Call::Bid(b) => {
                // 9WT promises nine tricks without the talon: a nine, for what it says of
                // the hand (R3.10.2).
                let said = if b.is_nine_no_talon() {
                    Bid::lowest_of_level(9)
                } else {
                    b
                };
                c.bid = Some(c.bid.map_or(said, |old| old.max(said)));
                self.standing = Some(self.standing.map_or(b, |s| s.max(b)));
            }
        }
    }

    fn played_card(&mut self, seat: Seat, card: Card) {
        self.played = self.played.with(card);
        let s = seat.index().min(3);
        self.played_by[s] = self.played_by[s].with(card);
        match self.led {
            Some(led) if card.suit() != led => {
                self.voids[s] |= 1 << led as u8;
                if let Some(t) = self.trump
                    && card.suit() != t
                {
                    self.voids[s] |= 1 << t as u8;
                }
            }
            Some(_) => {}
            None => self.led = Some(card.suit()),
        }
    }

    /// The cards a seat may still hold, given its voids.
    pub(crate) fn possible(&self, seat: Seat) -> CardSet {
        let mut set = CardSet::FULL;
        for s in Suit::ALL {
            if self.voids[seat.index().min(3)] & (1 << s as u8) != 0 {
                set = set.minus(s.cards());
            }
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use pref_core::{Profile, Seat, ViewEvent};

    use crate::bot::{Bot, Level};

    fn feed(bot: &mut Bot, events: &[ViewEvent]) {
        for e in events {
            bot.observe(e);
        }
    }

    /// R8.9, R3.3: the count of raspasy deals in a row before the current one rises with
    /// each raspasy deal seen to its end, goes back to zero after any other deal seen to
    /// its end, stands when a deal was not seen to its end, and takes the host's count when
    /// told after a deal's first event (a bot seated mid-pulka), counting on from it.
    #[test]
    fn r8_9_the_raspasy_count_follows_the_deals_seen_and_the_hosts_word() {
        let dealt = ViewEvent::Dealt {
            closed: false,
            dealer: Seat(2),
            hand: None,
        };
        let raspasy = [dealt.clone(), ViewEvent::AllPassed, ViewEvent::DealOver];
        let contract = [dealt.clone(), ViewEvent::DealOver];
        let mut bot = Bot::new(Seat(0), Level::Normal, &Profile::sochi(), 1);
        let count = |bot: &Bot| bot.seen.raspasy_before;
        feed(&mut bot, &raspasy);
        assert_eq!(count(&bot), 0);
        feed(&mut bot, &raspasy);
        assert_eq!(count(&bot), 1);
        feed(&mut bot, std::slice::from_ref(&dealt));
        assert_eq!(count(&bot), 2);
        // That deal was not seen to its end: the next one keeps the count.
        feed(&mut bot, &contract);
        assert_eq!(count(&bot), 2);
        feed(&mut bot, std::slice::from_ref(&dealt));
        assert_eq!(count(&bot), 0);
        // The host's count, then the bot's own from there.
        bot.set_raspasy_before(3);
        assert_eq!(count(&bot), 3);
        feed(
            &mut bot,
            &[ViewEvent::AllPassed, ViewEvent::DealOver, dealt],
        );
        assert_eq!(count(&bot), 4);
    }
}
