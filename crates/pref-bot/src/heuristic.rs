//! Rules of thumb without search: the whole of the easy level, the discards the sampling
//! levels imagine for a declarer, and the fallback when a search has no time at all.

use pref_core::{Card, CardSet, Rank, Strain, Suit};

/// A rough count of the tricks `hand` takes as declarer in `trump` (`None`: no trumps):
/// trumps count as length, side aces as one, side kings with a guard as a half.
#[must_use]
pub fn trick_estimate(hand: CardSet, trump: Option<Suit>) -> f64 {
    let mut est = 0.0;
    for s in Suit::ALL {
        let cards = hand.of_suit(s);
        let has = |r: Rank| cards.contains(Card::new(s, r));
        if Some(s) == trump {
            est += f64::from(cards.len()) + if has(Rank::Ace) { 0.5 } else { 0.0 };
            continue;
        }
        if has(Rank::Ace) {
            est += 1.0;
            if has(Rank::King) {
                est += 1.0;
            }
        } else if has(Rank::King) && cards.len() >= 2 {
            est += 0.5;
        }
        if trump.is_none() && cards.len() >= 5 && has(Rank::Ace) {
            est += f64::from(cards.len()) - 3.0;
        }
    }
    est
}

/// The strain in which `hand` looks strongest, with its estimate.
#[must_use]
pub(crate) fn best_strain(hand: CardSet) -> (Strain, f64) {
    let mut best = (Strain::NoTrump, trick_estimate(hand, None) - 0.5);
    for (strain, s) in [
        (Strain::Spades, Suit::Spades),
        (Strain::Clubs, Suit::Clubs),
        (Strain::Diamonds, Suit::Diamonds),
        (Strain::Hearts, Suit::Hearts),
    ] {
        let e = trick_estimate(hand, Some(s));
        if e > best.1 {
            best = (strain, e);
        }
    }
    best
}

/// Two cards to discard for a trick contract in `trump`: keep trumps, aces and guarded
/// kings; throw low cards of short side suits, to make voids.
#[must_use]
pub(crate) fn trick_discard(hand: CardSet, trump: Option<Suit>) -> CardSet {
    lowest_two(hand, |c| {
        let suit = hand.of_suit(c.suit());
        let mut keep = i32::from(c.rank() as u8) + 3 * suit.len() as i32;
        if Some(c.suit()) == trump {
            keep += 100;
        }
        if c.rank() == Rank::Ace {
            keep += 50;
        }
        if c.rank() == Rank::King && suit.len() >= 2 {
            keep += 20;
        }
        keep
    })
}

/// How likely a card is to take a trick on misère: the lower cards of its suit others may
/// hold (each can be played under it), less two for each low card held with it (each is a
/// chance to duck); a card nobody can go under is safe.
fn misere_risk(hand: CardSet, c: Card) -> i32 {
    let lower = c.suit().cards().iter().filter(|x| x.rank() < c.rank());
    let (mine, theirs) = lower.fold((0, 0), |(m, t), x| {
        if hand.contains(x) {
            (m + 1, t)
        } else {
            (m, t + 1)
        }
    });
    if theirs == 0 { -10 } else { theirs - 2 * mine }
}

/// Cards of `hand` likely to take a trick on misère (risk of two or more).
#[must_use]
pub(crate) fn misere_dangers(hand: CardSet) -> usize {
    hand.iter().filter(|&c| misere_risk(hand, c) >= 2).count()
}

/// A rough count of the tricks `hand` takes on raspasy when it tries to take none: two
/// thirds of its misère dangers.
#[must_use]
pub(crate) fn raspasy_tricks(hand: CardSet) -> u8 {
    (misere_dangers(hand) * 2 / 3).min(10) as u8
}

/// The tricks `hand` is expected to take on raspasy, in twentieths of a trick: 1.75 and
/// 0.9 for each trick of [`raspasy_tricks`]. Fitted to the strong bots' own raspasy deals
/// (900 of them, 300 each at Sochi, Leningrad and Rostov, `docs/bots.md`), where the rule
/// of thumb alone averaged 1.8 tricks against the 10/3 every player averages: a hand it
/// counts at 0 took 1.7 tricks, at 2 took 3.5, at 4 took 5.5.
#[must_use]
pub(crate) fn raspasy_twentieths(hand: CardSet) -> u32 {
    (35 + 18 * u32::from(raspasy_tricks(hand))).min(200)
}

/// Two cards to discard for misère: the riskiest.
#[must_use]
pub(crate) fn misere_discard(hand: CardSet) -> CardSet {
    lowest_two(hand, |c| -misere_risk(hand, c))
}

/// A few discards for misère worth comparing: pairs among the four riskiest cards.
#[must_use]
pub(crate) fn misere_discards(hand: CardSet) -> Vec<CardSet> {
    let mut cards: Vec<Card> = hand.iter().collect();
    cards.sort_by_key(|&c| (-misere_risk(hand, c), c));
    let top = &cards[..cards.len().min(4)];
    let mut out = Vec::new();
    for i in 0..top.len() {
        for j in i + 1..top.len() {
            out.push(top[i].bit().with(top[j]));
        }
    }
    out
}

fn lowest_two(hand: CardSet, keep: impl Fn(Card) -> i32) -> CardSet {
    let mut cards: Vec<Card> = hand.iter().collect();
    cards.sort_by_key(|&c| (keep(c), c));
    cards.iter().take(2).copied().collect()
}

/// What a player wants from the trick in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Want {
    /// Win it for his side (trick contracts).
    Win,
    /// Not take it himself (raspasy, misère declarer).
    Lose,
    /// Make the misère declarer take it (misère defence): play low.
    Low,
}

/// A card by rules of thumb. `winning` is the card winning the trick so far and whether it
/// is the player's own side's; `beats` says whether a card would win the trick now.
#[must_use]
pub(crate) fn play_card(
    legal: CardSet,
    hand: CardSet,
    want: Want,
    winning: Option<(Card, bool)>,
    beats: impl Fn(Card) -> bool,
) -> Card {
    let lowest = lowest_rank(legal);
    let highest = highest_rank(legal);
    let fallback = legal.first().unwrap_or(Card::from_index(0));
    let pick = match (want, winning) {
        (Want::Win, None) => {
            // Lead the top of the longest suit.
            let suit = Suit::ALL
                .into_iter()
                .filter(|&s| !legal.of_suit(s).is_empty())
                .max_by_key(|&s| (hand.of_suit(s).len(), s as u8));
            suit.and_then(|s| legal.of_suit(s).last())
        }
        (Want::Win, Some((_, true))) => lowest,
        (Want::Win, Some(_)) => {
            let winners: CardSet = legal.iter().filter(|&c| beats(c)).collect();
            lowest_rank(winners).or(lowest)
        }
        (Want::Lose, None) | (Want::Low, _) => lowest,
        (Want::Lose, Some(_)) => {
            let losers: CardSet = legal.iter().filter(|&c| !beats(c)).collect();
            highest_rank(losers).or(highest)
        }
    };
    pick.unwrap_or(fallback)
}

fn lowest_rank(cards: CardSet) -> Option<Card> {
    cards.iter().min_by_key(|c| (c.rank(), c.suit()))
}

fn highest_rank(cards: CardSet) -> Option<Card> {
    cards.iter().max_by_key(|c| (c.rank(), c.suit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> CardSet {
        s.split_whitespace()
            .map(|c| c.parse::<Card>().unwrap())
            .collect()
    }

    #[test]
    fn discards_keep_trumps_and_aces() {
        let hand = set("AS KS QS JS TS 9S AH 7H 8D 7D AC KC");
        let d = trick_discard(hand, Some(Suit::Spades));
        assert_eq!(d.len(), 2);
        assert!(d.of_suit(Suit::Spades).is_empty());
        assert!(!d.contains("AH".parse().unwrap()));
    }

    #[test]
    fn misere_discard_throws_unguarded_high_cards() {
        let hand = set("7S 8S 9S 7C 8C 9C 7D 8D 9D 7H AH KS");
        assert_eq!(misere_discard(hand), set("AH KS"));
    }
}
