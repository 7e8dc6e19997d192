//! The open-hand position of a deal in play, as a seat's view shows it once the hidden
//! cards are filled in: the bot builds one per sampled layout, and the double-dummy measure
//! of the examples builds one from the true hands.

use pref_core::view::DealKind;
use pref_core::{Card, CardSet, DealView, Seat, Suit};

use crate::solver::{Goal, Position};

/// Whose tricks the solver counts in the deal the view shows: the declarer's (trick
/// contract, misère), or on raspasy the player to move (the raspasy model). `None` before
/// the play.
#[must_use]
pub fn target(view: &DealView) -> Option<Seat> {
    match view.kind {
        DealKind::Game | DealKind::Misere => view.declarer,
        DealKind::Raspasy => view.turn,
        DealKind::Auction => None,
    }
}

/// The position of the trick in progress with `hands` (index = seat) in the active seats'
/// hands, and `hidden_talon` as the raspasy talon card not yet turned. `None` if the view
/// is not in play or the cards do not make a valid position.
#[must_use]
pub fn position(
    view: &DealView,
    hands: &[CardSet; 4],
    hidden_talon: Option<Card>,
) -> Option<Position> {
    let turn = view.turn?;
    let target = target(view)?;
    // Active seats in seat order are the solver's players 0, 1, 2 (clockwise, R11.1).
    let active: Vec<Seat> = (0..view.players)
        .map(Seat)
        .filter(|&s| !(view.players == 4 && s == view.dealer))
        .collect();
    let player = |s: Seat| active.iter().position(|&a| a == s);
    // Four-player raspasy tricks 1–2: the dealer's talon card leading the trick is the
    // goal's, not a player's card (R11.3).
    let players_cards: Vec<_> = view
        .trick
        .iter()
        .filter(|sc| !(view.players == 4 && sc.seat == view.dealer))
        .collect();
    let leader = players_cards.first().map_or(turn, |sc| sc.seat);
    let goal = match view.kind {
        DealKind::Game => Goal::Tricks {
            declarer: player(target)?,
            trump: view.contract.and_then(|c| c.strain().trump()),
        },
        DealKind::Misere => Goal::Misere {
            declarer: player(target)?,
        },
        DealKind::Raspasy => {
            let cards = [
                view.talon[0].or(hidden_talon),
                view.talon[1].or(hidden_talon),
            ];
            let talon_cards = match cards {
                [Some(c0), Some(c1)] if view.players == 4 => Some([c0, c1]),
                _ => None,
            };
            Goal::Raspasy {
                player: player(target)?,
                first_hand: player(view.first_hand)?,
                talon: cards.map(|c| c.map_or(Suit::Spades, Card::suit)),
                talon_cards,
            }
        }
        DealKind::Auction => return None,
    };
    let pos = Position {
        hands: [0, 1, 2].map(|i| active.get(i).map_or(CardSet::EMPTY, |s| hands[s.index()])),
        leader: player(leader)?,
        trick: players_cards.iter().map(|sc| sc.card).collect(),
        tricks_done: view.tricks_taken.iter().sum(),
        goal,
    };
    pos.validate().is_ok().then_some(pos)
}
