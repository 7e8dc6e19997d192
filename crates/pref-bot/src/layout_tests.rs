//! The layouts a bot samples never contradict its seat's view: on every preset, at every
//! card a normal bot plays, each sampled hidden hand has the size the view shows, holds no
//! card the seat can see elsewhere (its hand, hands opened to all, cards played, the turned
//! raspasy talon, its own discard), and none of a suit its owner has shown a void in.
//!
//! The voids are worked out here from the full events by R6.1–R6.2 (follow suit, else trump
//! in a trick contract), apart from the bot's own reading of its projected events.

use pref_core::view::DealKind;
use pref_core::{Card, CardSet, Deal, Event, PRESETS, Profile, Seat, Suit, Viewer};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

use crate::bot::{Bot, Budget, Level};

/// Voids shown so far: `voids[seat]` is a set of suits' cards.
#[derive(Default)]
struct Shown {
    voids: [CardSet; 4],
    led: Option<Suit>,
    trump: Option<Suit>,
}

impl Shown {
    fn see(&mut self, e: &Event) {
        match e {
            Event::Declared { contract, .. } => self.trump = contract.strain().trump(),
            Event::TalonCardTurned { card, .. } => self.led = Some(card.suit()),
            Event::Played { seat, card } => match self.led {
                None => self.led = Some(card.suit()),
                Some(led) if led != card.suit() => {
                    let v = &mut self.voids[seat.index()];
                    *v = v.or(led.cards());
                    if let Some(t) = self.trump
                        && card.suit() != t
                    {
                        *v = v.or(t.cards());
                    }
                }
                Some(_) => {}
            },
            Event::TrickTaken { .. } => self.led = None,
            _ => {}
        }
    }
}

#[test]
fn r6_1_sampled_layouts_respect_voids_and_the_view_on_every_preset() {
    let mut rng = SmallRng::seed_from_u64(77);
    let mut deck: [Card; 32] = std::array::from_fn(|i| Card::from_index(i as u8));
    let mut checked = 0;
    let mut voids_seen = 0;
    for name in PRESETS {
        let profile = Profile::preset(name).expect("a preset");
        let n = profile.players();
        for i in 0..25u64 {
            deck.shuffle(&mut rng);
            let mut deal = Deal::new(&profile, Seat((i % 3) as u8), &deck, 0).expect("valid");
            let mut bots: Vec<Bot> = (0..n)
                .map(|s| Bot::new(Seat(s), Level::Normal, &profile, i))
                .collect();
            let mut shown = Shown::default();
            let mut played = CardSet::EMPTY;
            let first = deal.deal_event();
            for b in &mut bots {
                b.observe(&first.project(Viewer::Seat(b.seat()), n));
            }
            while let Some(p) = deal.to_act() {
                let view = deal.view(Viewer::Seat(p));
                let legal = deal.legal_actions_for(p);
                let bot = bots.iter_mut().find(|b| b.seat() == p).expect("a bot");
                if view.stage == pref_core::Stage::Play {
                    let mut visible = view.hand.unwrap_or_default().or(played);
                    for h in view.open_hands.iter().flatten() {
                        visible = visible.or(*h);
                    }
                    if view.kind == DealKind::Raspasy {
                        visible = visible.or(view.talon.iter().flatten().copied().collect());
                    }
                    if view.declarer == Some(p) {
                        visible = visible.or(view.discard.unwrap_or_default());
                    }
                    for layout in bot.layouts(&view, 12) {
                        for (seat, pile) in layout {
                            assert_eq!(pile.cards.len(), pile.size);
                            assert_eq!(pile.cards.and(visible), CardSet::EMPTY, "{name}");
                            if let Some(s) = seat {
                                assert_ne!(s, p);
                                assert_eq!(pile.size, u32::from(view.hand_sizes[s.index()]));
                                assert_eq!(
                                    pile.cards.and(shown.voids[s.index()]),
                                    CardSet::EMPTY,
                                    "{name}: {s} showed a void"
                                );
                                voids_seen += usize::from(!shown.voids[s.index()].is_empty());
                            }
                        }
                        checked += 1;
                    }
                }
                let action = bot.decide(&view, &legal, Budget::nodes(2_000));
                for e in deal.act(p, action).expect("legal") {
                    shown.see(&e);
                    if let Event::Played { card, .. } = e {
                        played = played.with(card);
                    }
                    for b in &mut bots {
                        b.observe(&e.project(Viewer::Seat(b.seat()), n));
                    }
                }
            }
        }
    }
    // The check must have met real voids, many times.
    assert!(checked > 5_000, "{checked}");
    assert!(voids_seen > 1_000, "{voids_seen}");
}
