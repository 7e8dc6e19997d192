//! Property tests over random decks and random legal play with `dark_games` and
//! `misere_without_talon` on, 3 and 4 players: deals end with ten tricks, `legal_actions`
//! agrees with `apply`, a closed hand reaches no viewer (its owner included) before he looks
//! (R2.3), a dark misère's talon reaches its declarer alone and its defenders stay closed
//! (R4.7.1), no talon is taken after MWT or 9WT (R4.6), the deal is dark exactly when the
//! declarer's first call was (R3.9.1), a dark deal's entries are its light entries doubled
//! (R8.11), and a game's record reads back to the same sheet.
#![allow(missing_docs)]

use pref_core::{
    Action, Card, CardSet, Deal, Game, OutcomeKind, Profile, Record, Seat, Sheet, Stage, Viewer,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::json;

/// Both options on, with 3 or 4 players, with or without the reveal and the talon bonus.
fn profile(which: usize) -> Profile {
    let mut v = json!({
        "preset": "sochi", "dark_games": true, "misere_without_talon": true, "pool_target": 1000
    });
    if which & 1 != 0 {
        v["players"] = json!(4);
        v["talon_bonus"] = json!(true);
    }
    if which & 2 != 0 {
        v["reveal_after_deal"] = json!(false);
    }
    if which & 4 != 0 {
        v["surrender"] = json!(2);
    }
    Profile::from_json(&v).unwrap()
}

fn viewers(players: u8) -> Vec<Viewer> {
    (0..players)
        .map(|s| Viewer::Seat(Seat(s)))
        .chain([Viewer::Spectator])
        .collect()
}

/// The cards `v` may see now.
fn allowed(d: &Deal, v: Viewer) -> CardSet {
    let all = d.dealt_hands().iter().fold(CardSet::EMPTY, |a, &h| a.or(h));
    let talon: CardSet = d.talon().into_iter().collect();
    if d.is_finished() && d.reveals_after_deal() {
        return all.or(talon);
    }
    let mut cs = CardSet::EMPTY;
    for s in 0..d.players() {
        if d.open_seats() & (1 << s) != 0 {
            cs = cs.or(d.hand(Seat(s)));
        }
    }
    for t in d.completed_tricks() {
        for &(_, c) in t.cards() {
            cs = cs.with(c);
        }
    }
    for (_, c) in d.current_trick() {
        cs = cs.with(c);
    }
    for (i, c) in d.talon().into_iter().enumerate() {
        if usize::from(d.talon_shown()) > i {
            cs = cs.with(c);
        }
    }
    if let Viewer::Seat(s) = v {
        if d.looked(s) {
            cs = cs.or(d.hand(s));
        }
        if d.declarer() == Some(s) {
            cs = cs.or(d.discard());
            if d.is_dark_misere() && !d.is_no_talon() {
                cs = cs.or(talon);
            }
        }
    }
    cs
}

/// One random deal under `p`; returns the deal and whether each seat's first call was dark.
fn walk(seed: u64, p: &Profile) -> (Deal, u8) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
    deck.shuffle(&mut rng);
    let dealer = Seat(rng.gen_range(0..p.players()));
    let mut d = Deal::new(p, dealer, &deck.try_into().unwrap(), 0).unwrap();
    let all = viewers(p.players());
    let mut first_dark = 0u8;
    let mut called = 0u8;
    let mut steps = 0;
    for &v in &all {
        assert!(d.deal_event().project(v, p.players()).cards().is_empty());
    }
    while !d.is_finished() {
        steps += 1;
        assert!(steps <= 200, "deal did not end");
        for &v in &all {
            let shown = d.view(v).cards();
            assert_eq!(
                shown.minus(allowed(&d, v)),
                CardSet::EMPTY,
                "{v:?} at {:?}",
                d.stage()
            );
            if let Viewer::Seat(s) = v
                && !d.looked(s)
            {
                assert_eq!(d.view(v).hand, None, "R2.3: closed hand of {s}");
            }
        }
        if d.is_dark_misere() || d.is_no_talon() {
            assert_eq!(d.talon_shown(), 0, "R4.6, R4.7.1");
        }
        if d.is_dark_misere() {
            assert_eq!(d.open_seats(), 0, "R4.7.1: the defenders stay closed");
        }
        if d.is_no_talon() {
            let talon: CardSet = d.talon().into_iter().collect();
            for s in 0..d.players() {
                assert!(
                    d.hand(Seat(s)).and(talon).is_empty(),
                    "R4.6: nobody takes it"
                );
            }
        }
        // A look now and then, by anybody who may.
        if d.stage() == Stage::Auction && rng.gen_bool(0.2) {
            let s = Seat(rng.gen_range(0..p.players()));
            let legal = d.legal_actions(s).contains(&Action::Look);
            let mut probe = d;
            assert_eq!(probe.apply(s, Action::Look).is_ok(), legal);
            if !legal {
                assert_eq!(probe, d);
            }
        }
        let player = d.to_act().unwrap();
        let legal = d.legal_actions_for(player);
        assert!(!legal.is_empty(), "nothing legal at {:?}", d.stage());
        for a in legal.iter().take(12) {
            let mut probe = d;
            probe.act(player, a).unwrap();
        }
        let a = legal.get(rng.gen_range(0..legal.len())).unwrap();
        if matches!(a, Action::Bid(_) | Action::Dark(_)) && called & (1 << player.0) == 0 {
            called |= 1 << player.0;
            if matches!(a, Action::Dark(_)) {
                first_dark |= 1 << player.0;
            }
        }
        let events = d.act(player, a).unwrap();
        for e in &events {
            for &v in &all {
                let shown = e.project(v, p.players()).cards();
                assert_eq!(
                    shown.minus(allowed(&d, v)),
                    CardSet::EMPTY,
                    "{e:?} to {v:?}"
                );
            }
        }
    }
    let o = d.outcome().unwrap();
    if let Some(t) = o.tricks {
        assert_eq!(t.iter().map(|&x| u32::from(x)).sum::<u32>(), 10);
    }
    let dark = match o.kind {
        OutcomeKind::Raspasy => false,
        OutcomeKind::Game { declarer, .. }
        | OutcomeKind::Misere { declarer }
        | OutcomeKind::Surrender { declarer, .. } => first_dark & (1 << declarer.0) != 0,
    };
    assert_eq!(o.dark, dark, "R3.9.1");
    if let OutcomeKind::Game { talon_units, .. } = o.kind {
        assert_eq!(
            talon_units.is_some(),
            p.talon_bonus() && p.players() == 4 && !o.no_talon,
            "R11.6"
        );
    }
    (d, first_dark)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_house_deals_keep_every_invariant(seed in any::<u64>(), which in 0usize..8) {
        walk(seed, &profile(which));
    }

    #[test]
    fn r8_11_a_dark_deal_writes_its_light_entries_doubled(seed in any::<u64>(), which in 0usize..8) {
        let p = profile(which);
        let (d, _) = walk(seed, &p);
        let mut o = d.outcome().unwrap();
        if o.kind == OutcomeKind::Raspasy {
            return Ok(());
        }
        o.dark = false;
        let light = Sheet::new(p.players()).record_explained(&p, &o, 0);
        o.dark = true;
        let dark = Sheet::new(p.players()).record_explained(&p, &o, 0);
        prop_assert_eq!(light.len(), dark.len());
        for (l, k) in light.iter().zip(&dark) {
            prop_assert_eq!(l.amount * 2, k.amount);
            prop_assert!(k.dark && !l.dark);
            prop_assert_eq!((l.seat, l.column, l.why), (k.seat, k.column, k.why));
        }
    }

    #[test]
    fn house_games_read_back_from_their_records(seed in any::<u64>(), which in 0usize..8) {
        let p = profile(which);
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut g = Game::new(p.clone(), Seat(0)).unwrap();
        for _ in 0..3 {
            let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
            deck.shuffle(&mut rng);
            g.start_deal(&deck.try_into().unwrap()).unwrap();
            while let Some(d) = g.deal() {
                let s = d.turn().unwrap();
                let legal = d.legal_actions(s);
                let a = legal.get(rng.gen_range(0..legal.len())).unwrap();
                g.apply(s, a).unwrap();
            }
        }
        let names: Vec<String> = (0..p.players()).map(|i| format!("P{i}")).collect();
        let r = Record::from_game(&g, &names).unwrap();
        let text = r.to_json_string();
        let (again, replayed) = Record::read(&text).unwrap();
        prop_assert_eq!(&again, &r);
        prop_assert_eq!(replayed.sheet(), g.sheet());
    }
}

#[test]
fn random_walks_reach_every_house_case() {
    let (mut dark, mut dark_misere, mut mwt, mut nwt, mut looked_before) = (0, 0, 0, 0, 0);
    for seed in 0..400 {
        let (d, first_dark) = walk(seed, &profile(seed as usize % 8));
        dark += u32::from(d.is_dark());
        dark_misere += u32::from(d.is_dark_misere());
        mwt += u32::from(d.is_no_talon() && d.is_misere());
        nwt += u32::from(d.is_no_talon() && !d.is_misere());
        looked_before += u32::from(first_dark == 0);
    }
    assert!(
        dark > 0 && dark_misere > 0 && mwt > 0 && nwt > 0 && looked_before > 0,
        "dark {dark}, dark misère {dark_misere}, MWT {mwt}, 9WT {nwt}"
    );
}
