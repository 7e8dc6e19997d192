//! Bots and claims (R6.7): a bot answers from its seat's view only, and when that view
//! makes the rest of the deal certain (every hand it needs is face up), it accepts exactly
//! the claims that cost its side nothing against the open-hand solver on the true deal,
//! and claims itself with the solver's result.
#![allow(missing_docs)]

use pref_bot::{Bot, Budget, Goal, Level, Position, Solver};
use pref_core::{
    Action, Answer, Call, Card, Claim, Deal, Defence, Event, Profile, Seat, Viewer, WhistCall,
};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// A deal and every event so far, for feeding a bot that joins now.
struct Played {
    deal: Deal,
    events: Vec<Event>,
}

impl Played {
    fn new(seed: u64) -> Played {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
        deck.shuffle(&mut rng);
        let deal = Deal::new(&Profile::sochi(), Seat(2), &deck.try_into().unwrap(), 0).unwrap();
        let events = vec![deal.deal_event()];
        Played { deal, events }
    }

    fn act(&mut self, player: u8, action: Action) {
        let ev = self.deal.act(Seat(player), action).unwrap();
        self.events.extend(ev);
    }

    /// Seat 0 wins the auction with `bid`, the others passing, and discards two cards.
    fn won_by_first_hand(seed: u64, bid: pref_core::Bid) -> Played {
        let mut p = Played::new(seed);
        p.act(0, Action::Bid(Call::Bid(bid)));
        p.act(1, Action::Bid(Call::Pass));
        p.act(2, Action::Bid(Call::Pass));
        let discard = p.deal.hand(Seat(0)).iter().take(2).collect();
        p.act(0, Action::Discard(discard));
        p
    }

    /// Seat 0 declares misère (R6.5: the defenders open after his first card).
    fn misere(seed: u64) -> Played {
        Played::won_by_first_hand(seed, pref_core::Bid::MISERE)
    }

    /// Seat 0 plays 6♠; seat 1 whists alone and defends open (R5.5).
    fn open_six(seed: u64) -> Played {
        let mut p = Played::won_by_first_hand(seed, pref_core::Bid::LOWEST);
        p.act(0, Action::Declare("6S".parse().unwrap()));
        p.act(1, Action::Whist(WhistCall::Whist));
        p.act(2, Action::Whist(WhistCall::Pass));
        p.act(1, Action::Defence(Defence::Open));
        p
    }

    /// For an even seed a misère, for an odd one an open defence; with the seed's generator
    /// for the random play.
    fn either(seed: u64) -> (SmallRng, bool, Played) {
        let misere = seed % 2 == 0;
        let p = if misere {
            Played::misere(seed)
        } else {
            Played::open_six(seed)
        };
        (SmallRng::seed_from_u64(seed), misere, p)
    }

    /// Plays `tricks` tricks of random legal cards.
    fn play(&mut self, rng: &mut SmallRng, tricks: usize) {
        for _ in 0..tricks * 3 {
            let p = self.deal.to_act().unwrap();
            let legal = self.deal.legal_actions_for(p).to_vec();
            self.act(p.0, legal[rng.gen_range(0..legal.len())]);
        }
    }

    /// The declarer's tricks to come with best play on every side, every card known.
    fn solved(&self) -> u8 {
        let d = &self.deal;
        let declarer = d.declarer().unwrap().index();
        let goal = match d.contract() {
            Some(c) => Goal::Tricks {
                declarer,
                trump: c.strain().trump(),
            },
            None => Goal::Misere { declarer },
        };
        let pos = Position {
            hands: [d.hand(Seat(0)), d.hand(Seat(1)), d.hand(Seat(2))],
            leader: d.turn().unwrap().index(),
            trick: Vec::new(),
            tricks_done: d.tricks_taken().iter().sum(),
            goal,
        };
        Solver::new().solve(&pos).unwrap()
    }

    /// A normal bot in `seat` that has seen every event of the deal.
    fn bot(&self, seat: Seat) -> Bot {
        let mut bot = Bot::new(seat, Level::Normal, &Profile::sochi(), 7).claiming(true);
        for e in &self.events {
            bot.observe(&e.project(Viewer::Seat(seat), 3));
        }
        bot
    }

    fn decide(&self, seat: Seat) -> Action {
        let legal = self.deal.legal_actions_for(seat);
        let action = self.bot(seat).decide(
            &self.deal.view(Viewer::Seat(seat)),
            &legal,
            Budget::nodes(5_000_000),
        );
        assert!(legal.contains(&action), "{action} is not legal");
        action
    }
}

/// A claim giving the declarer `mine` of the tricks left and the defence the rest.
fn claim_of(d: &Deal, mine: u8) -> Action {
    let left = 10 - d.tricks_taken().iter().sum::<u8>();
    let mut entries = [0u8; 3];
    entries[0] = mine;
    entries[1] = left - mine;
    Action::Claim(Claim::new(&entries).unwrap())
}

/// Random misère and open-defence deals, a claim at a random boundary by a player whose
/// claim leaves the first to answer seeing every hand: a claim one trick short of the
/// solver's result on the true deal for the answerer's side is rejected; the exact claim
/// and one a trick better for his side are accepted.
#[test]
fn r6_7_a_bot_that_sees_every_hand_never_accepts_a_claim_that_costs_its_side_a_trick() {
    let (mut rejected, mut accepted) = (0, 0);
    for seed in 0..24u64 {
        let (mut rng, misere, mut p) = Played::either(seed);
        let tricks = rng.gen_range(2..=7);
        p.play(&mut rng, tricks);
        let best = p.solved();
        let left = 10 - p.deal.tricks_taken().iter().sum::<u8>();
        // The declarer claims (his hand opens for the defender who answers), or a defender
        // claims and the declarer, who sees the defenders' open hands, answers.
        let (claimer, answerer) = match (seed % 4 < 2, misere) {
            (true, _) => (0, 1),
            (false, true) => (2, 0),
            (false, false) => (1, 0),
        };
        for mine in best.saturating_sub(1)..=(best + 1).min(left) {
            let mut q = Played {
                deal: p.deal,
                events: p.events.clone(),
            };
            q.act(claimer, claim_of(&q.deal, mine));
            assert_eq!(q.deal.to_act(), Some(Seat(answerer)));
            let more_is_better = (answerer == 0) != misere;
            let costs = if more_is_better {
                mine < best
            } else {
                mine > best
            };
            let expected = if costs {
                rejected += 1;
                Answer::Reject
            } else {
                accepted += 1;
                Answer::Accept
            };
            assert_eq!(
                q.decide(Seat(answerer)),
                Action::Answer(expected),
                "seed {seed}: the declarer gets {mine} of {left}, best play gives {best}"
            );
        }
    }
    assert!(rejected >= 15 && accepted >= 30, "{rejected} {accepted}");
}

/// A declarer who sees every hand (the defenders' are face up) claims at a trick boundary
/// on lead: in a misère always, with the solver's count; in a trick contract only when he
/// takes every remaining trick. Otherwise he plays a card.
#[test]
fn r6_7_a_bot_claims_when_every_layout_gives_the_same_result() {
    let mut claims = 0;
    for seed in 0..24u64 {
        let (mut rng, misere, mut p) = Played::either(seed);
        p.play(&mut rng, 1);
        while p.deal.turn() != Some(Seat(0)) && p.deal.tricks_taken().iter().sum::<u8>() < 8 {
            p.play(&mut rng, 1);
        }
        if p.deal.turn() != Some(Seat(0)) {
            continue;
        }
        let best = p.solved();
        let left = 10 - p.deal.tricks_taken().iter().sum::<u8>();
        let action = p.decide(Seat(0));
        if misere {
            let rest = left - best;
            let expected = Claim::new(&[best, rest - rest / 2, rest / 2]).unwrap();
            assert_eq!(action, Action::Claim(expected), "seed {seed}");
        } else if best == left {
            assert_eq!(action, claim_of(&p.deal, left), "seed {seed}");
        } else {
            assert!(matches!(action, Action::Play(_)), "seed {seed}: {action}");
            continue;
        }
        claims += 1;
        // The whister or defender who answers sees the declarer's hand now: he accepts.
        p.act(0, action);
        assert_eq!(
            p.decide(Seat(1)),
            Action::Answer(Answer::Accept),
            "seed {seed}"
        );
    }
    assert!(claims >= 8, "only {claims} claims");
}
