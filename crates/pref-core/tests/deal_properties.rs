//! Property tests over random decks and random legal play, 3 and 4 players, every rule
//! switch: deals end, cards are conserved, no view or projected event shows a card its
//! viewer may not see, and `legal_actions` agrees exactly with `apply`. Random claims and
//! answers (R6.7) are inserted too: an accepted claim ends the deal with ten tricks in all,
//! a rejected one changes nothing but the claimer's hand, now face up.
#![allow(missing_docs)]

use pref_core::{
    Action, Answer, Bid, Call, Card, CardSet, Claim, ClaimRoom, Contract, Deal, Defence, Event,
    OutcomeKind, PRESETS, Profile, Seat, Stage, Strain, Viewer, WhistCall,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::json;

/// The options that change how a deal is played, each with the value that is not Sochi's.
fn play_switches() -> [(&'static str, serde_json::Value); 11] {
    [
        ("must_overtake", json!(true)),
        ("stalingrad", json!(true)),
        ("ten_whisted", json!(false)),
        ("half_whist", json!(false)),
        ("reveal_after_deal", json!(false)),
        ("players", json!(4)),
        ("dealer_whist", json!(false)),
        ("whist_pass_half", json!(true)),
        ("raspasy_talon", json!("ignored")),
        ("surrender", json!(3)),
        ("talon_bonus", json!(true)),
    ]
}

/// Sochi with the play switches whose bit is set in `mix` (bit 11: a surrender of 2 up to
/// level 7 instead of 3 at any level).
fn mixed(mix: u32) -> Profile {
    let mut p = Profile::sochi();
    for (i, (key, value)) in play_switches().into_iter().enumerate() {
        if mix & (1 << i) != 0 {
            p = p.with(key, value).unwrap();
        }
    }
    if mix & (1 << 11) != 0 {
        p = p
            .with("surrender", 2)
            .unwrap()
            .with("surrender_max_level", 7)
            .unwrap();
    }
    p
}

/// Profiles that change play: each preset, each play switch on its own, and a few mixes.
fn profiles() -> Vec<Profile> {
    let mut out: Vec<Profile> = PRESETS
        .iter()
        .map(|n| Profile::preset(n).expect("a preset"))
        .collect();
    out.extend((0..12).map(|i| mixed(1 << i)));
    // Four players with the dealer's whist off; with must-overtake and no reveal; four
    // players with whist-pass-half, the talon ignored, surrender and the talon bonus.
    out.extend([0b110_0100_0000, 0b011_0010_1001, 0b111_1010_0000].map(mixed));
    out.push(Profile::from_json(&serde_json::json!({"preset": "sochi", "claims": false})).unwrap());
    out
}

fn random_action(rng: &mut SmallRng) -> Action {
    match rng.gen_range(0..9) {
        8 => Action::Surrender,
        0 => Action::Bid(if rng.gen_bool(0.1) {
            Call::Pass
        } else {
            let i = rng.gen_range(0..26u8);
            Call::Bid(format!("{}", ladder(i)).parse().unwrap())
        }),
        1 => {
            let n = rng.gen_range(0..4);
            Action::Discard(
                (0..n)
                    .map(|_| Card::from_index(rng.gen_range(0..32)))
                    .collect(),
            )
        }
        2 => Action::Declare(
            Contract::new(
                rng.gen_range(5..=11).clamp(6, 10),
                [
                    Strain::Spades,
                    Strain::Clubs,
                    Strain::Diamonds,
                    Strain::Hearts,
                    Strain::NoTrump,
                ][rng.gen_range(0..5)],
            )
            .unwrap(),
        ),
        3 => {
            Action::Whist([WhistCall::Whist, WhistCall::Pass, WhistCall::Half][rng.gen_range(0..3)])
        }
        4 => Action::Defence(if rng.gen_bool(0.5) {
            Defence::Open
        } else {
            Defence::Closed
        }),
        5 => Action::Play(Card::from_index(rng.gen_range(0..32))),
        6 => {
            let entries: Vec<u8> = (0..rng.gen_range(3..=4))
                .map(|_| rng.gen_range(0..=10))
                .collect();
            Action::Claim(Claim::new(&entries).unwrap())
        }
        _ => Action::Answer(if rng.gen_bool(0.5) {
            Answer::Accept
        } else {
            Answer::Reject
        }),
    }
}

/// A random split of the tricks left that `room` allows.
fn random_claim(rng: &mut SmallRng, room: ClaimRoom) -> Claim {
    let mut entries = vec![0u8; usize::from(room.seats)];
    for _ in 0..room.tricks_left {
        let seat = loop {
            let s = rng.gen_range(0..room.seats);
            if room.dealer != Some(Seat(s)) {
                break s;
            }
        };
        entries[usize::from(seat)] += 1;
    }
    Claim::new(&entries).unwrap()
}

fn ladder(i: u8) -> Bid {
    let mut b = Bid::LOWEST;
    let mut steps = Vec::new();
    loop {
        steps.push(b);
        if b.index() == 14 {
            steps.push(Bid::MISERE);
        }
        match b.next_step() {
            Some(n) => b = n,
            None => break,
        }
    }
    steps[i as usize]
}

/// Cards `viewer` may see now, decided from the rules independently of `view.rs`;
/// `claimers` is the mask of the seats that have claimed in this deal (R6.7).
fn allowed(d: &Deal, viewer: Viewer, claimers: u8) -> CardSet {
    let n = d.players();
    let finished = d.is_finished();
    if finished && d.reveals_after_deal() {
        return CardSet::FULL;
    }
    let mut ok = CardSet::EMPTY;
    for t in d.completed_tricks() {
        for &(_, c) in t.cards() {
            ok = ok.with(c);
        }
    }
    for (_, c) in d.current_trick() {
        ok = ok.with(c);
    }
    let talon = d.talon();
    let talon_seen = match (d.is_raspasy(), d.declarer()) {
        (true, _) => d.talon_shown() as usize,
        (false, Some(_)) => 2,
        (false, None) => 0,
    };
    for &c in &talon[..talon_seen] {
        ok = ok.with(c);
    }
    let playing = matches!(d.stage(), Stage::Play | Stage::Finished);
    for s in (0..n).map(Seat) {
        let own = viewer == Viewer::Seat(s);
        let defender = d.declarer().is_some_and(|dec| dec != s) && d.is_active(s);
        let misere_open = d.is_misere()
            && defender
            && playing
            && (d.declarer() != Some(d.first_hand()) || declarer_has_played(d));
        let open_defence = d.defence() == Some(Defence::Open) && defender && playing;
        let claimed = claimers & (1 << s.0) != 0;
        if own || misere_open || open_defence || claimed {
            ok = ok.or(d.hand(s));
        }
    }
    if let (Viewer::Seat(s), Some(dec)) = (viewer, d.declarer())
        && s == dec
    {
        ok = ok.or(d.discard());
    }
    ok
}

/// Whether the misère declarer has played a card yet (R6.5).
fn declarer_has_played(d: &Deal) -> bool {
    let dec = d.declarer();
    d.completed_tricks()
        .iter()
        .any(|t| t.cards().iter().any(|&(s, _)| Some(s) == dec))
        || d.current_trick().iter().any(|&(s, _)| Some(s) == dec)
}

fn viewers(players: u8) -> Vec<Viewer> {
    let mut v: Vec<Viewer> = (0..players).map(|s| Viewer::Seat(Seat(s))).collect();
    v.push(Viewer::Spectator);
    v
}

fn check_conservation(d: &Deal) {
    let mut parts: Vec<CardSet> = (0..d.players()).map(|s| d.hand(Seat(s))).collect();
    parts.push(d.discard());
    for t in d.completed_tricks() {
        parts.push(t.cards().iter().map(|&(_, c)| c).collect());
    }
    parts.push(d.current_trick().iter().map(|&(_, c)| c).collect());
    let mut seen = CardSet::EMPTY;
    let mut count = 0;
    for cs in parts {
        assert!(seen.and(cs).is_empty(), "a card is in two places");
        seen = seen.or(cs);
        count += cs.len();
    }
    // Talon cards not taken (three-player raspasy) are the only ones elsewhere.
    for c in d.talon() {
        if !seen.contains(c) {
            seen = seen.with(c);
            count += 1;
        }
    }
    assert_eq!(count, 32);
    assert_eq!(seen, CardSet::FULL);
}

/// No view of `d` shows a card its viewer may not see.
fn check_views(d: &Deal, all: &[Viewer], claimers: u8) {
    for &v in all {
        let view = d.view(v);
        let cards = view.cards();
        assert!(
            cards.minus(allowed(d, v, claimers)).is_empty(),
            "{v:?} sees {cards} at {:?}",
            d.stage()
        );
        if let Viewer::Seat(s) = v {
            assert_eq!(view.hand, Some(d.hand(s)));
        } else {
            assert_eq!(view.hand, None);
        }
    }
}

/// No projection of `events`, just applied to `d`, shows a card its viewer may not see.
fn check_events(d: &Deal, events: &[Event], all: &[Viewer], claimers: u8) {
    for &v in all {
        let ok = allowed(d, v, claimers);
        for e in events {
            let pe = e.project(v, d.players());
            assert!(pe.cards().minus(ok).is_empty(), "{v:?} told {pe:?}");
        }
    }
}

/// Makes a random claim by a random seat if that seat may claim, then answers it at random
/// (R6.7), checking the outcome: all accept, the deal ends with the claimed tricks added
/// to those taken; a reject, the deal is as before but for the claimer's open hand.
/// Returns whether it was accepted; `None` if no claim was made.
fn random_claim_and_answers(
    d: &mut Deal,
    rng: &mut SmallRng,
    claimers: &mut u8,
    all: &[Viewer],
) -> Option<bool> {
    let seat = Seat(rng.gen_range(0..d.players()));
    let room = d.legal_actions(seat).claim()?;
    let before = *d;
    let claim = random_claim(rng, room);
    let events = d.act(seat, Action::Claim(claim)).unwrap();
    *claimers |= 1 << seat.0;
    check_events(d, &events, all, *claimers);
    let mut rejected = false;
    while let Some(p) = d.pending_claim() {
        check_views(d, all, *claimers);
        let answerer = p.to_answer.unwrap();
        assert_eq!(d.to_act(), Some(answerer));
        let answer = if rng.gen_bool(0.7) {
            Answer::Accept
        } else {
            Answer::Reject
        };
        rejected = answer == Answer::Reject;
        let events = d.act(answerer, Action::Answer(answer)).unwrap();
        check_events(d, &events, all, *claimers);
    }
    if rejected {
        assert!(!d.is_finished());
        for &v in all {
            let mut expected = before.view(v);
            let hand = before.hand(seat);
            if !hand.is_empty() {
                expected.open_hands[seat.index()] = Some(hand);
            }
            assert_eq!(
                d.view(v),
                expected,
                "a rejected claim changed more than a hand"
            );
        }
        for s in (0..d.players()).map(Seat) {
            let (now, then) = (d.legal_actions(s), before.legal_actions(s));
            assert_eq!(now.to_vec(), then.to_vec());
            if s != seat {
                assert_eq!(now.claim(), then.claim());
            }
        }
        assert_eq!(
            d.legal_actions(seat).claim(),
            None,
            "one claim per boundary"
        );
    } else {
        let o = d.outcome().expect("an accepted claim ends the deal");
        let t = o.tricks.expect("with tricks");
        assert_eq!(t.iter().map(|&x| u32::from(x)).sum::<u32>(), 10);
        let taken = before.tricks_taken();
        for s in (0..d.players()).map(Seat) {
            assert_eq!(t[s.index()], taken[s.index()] + claim.of(s));
        }
        assert_eq!(d.accepted_claim().map(|c| c.claim), Some(claim));
    }
    Some(!rejected)
}

/// A random deal played to its end; with `claim_rate`, the chance of trying a random claim
/// at each step of the play. Returns the deal and how many claims were rejected.
fn walk(seed: u64, profile: &Profile, nonsense: usize, claim_rate: f64) -> (Deal, u32) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
    deck.shuffle(&mut rng);
    let dealer = Seat(rng.gen_range(0..profile.players()));
    let streak = rng.gen_range(0..4);
    let mut d = Deal::new(profile, dealer, &deck.try_into().unwrap(), streak).unwrap();
    let all = viewers(profile.players());
    let mut claimers = 0u8;
    let mut rejected = 0;
    let mut steps = 0;
    while !d.is_finished() {
        steps += 1;
        assert!(steps <= 200, "deal did not end");
        check_conservation(&d);
        check_views(&d, &all, claimers);
        // Nonsense and legal actions agree with apply.
        for _ in 0..nonsense {
            let seat = Seat(rng.gen_range(0..5));
            let a = random_action(&mut rng);
            let legal = seat.0 < d.players() && d.legal_actions(seat).contains(&a);
            let mut probe = d;
            let r = probe.apply(seat, a);
            assert_eq!(r.is_ok(), legal, "{a} by {seat}: {r:?}");
            if r.is_err() {
                assert_eq!(probe, d, "refused {a} changed the deal");
            }
        }
        if d.stage() == Stage::Play && rng.gen_bool(claim_rate) {
            let accepted = random_claim_and_answers(&mut d, &mut rng, &mut claimers, &all);
            rejected += u32::from(accepted == Some(false));
            continue;
        }
        let player = d.to_act().unwrap();
        let legal = d.legal_actions_for(player);
        assert!(!legal.is_empty(), "nothing legal at {:?}", d.stage());
        let listed = legal.to_vec();
        assert_eq!(listed.len(), legal.len());
        for (i, a) in listed.iter().enumerate() {
            assert_eq!(legal.get(i), Some(*a));
            assert!(legal.contains(a));
            assert!(!listed[..i].contains(a), "{a} listed twice");
        }
        assert_eq!(legal.get(listed.len()), None);
        // Every legal action is accepted.
        for a in legal.iter().take(12) {
            let mut probe = d;
            probe.act(player, a).unwrap();
        }
        let a = legal.get(rng.gen_range(0..legal.len())).unwrap();
        let events = d.act(player, a).unwrap();
        check_events(&d, &events, &all, claimers);
    }
    let o = d.outcome().unwrap();
    if let Some(t) = o.tricks {
        assert_eq!(t.iter().map(|&x| u32::from(x)).sum::<u32>(), 10);
    }
    match o.kind {
        OutcomeKind::Raspasy => assert!(o.tricks.is_some()),
        OutcomeKind::Misere { .. } => assert!(o.tricks.is_some()),
        OutcomeKind::Game { talon_units, .. } => {
            let bonus = profile.talon_bonus() && profile.players() == 4;
            assert_eq!(talon_units.is_some(), bonus);
        }
        OutcomeKind::Surrender { bid, .. } => {
            assert!(o.tricks.is_none());
            assert!(profile.surrender() > 0 && bid.level() <= profile.surrender_max_level());
        }
    }
    for &v in &all {
        let view = d.view(v);
        assert_eq!(view.revealed.is_some(), profile.reveal_after_deal());
    }
    (d, rejected)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_deals_keep_every_invariant(seed in any::<u64>(), which in 0usize..19) {
        let ps = profiles();
        walk(seed, &ps[which % ps.len()], 6, 0.0);
    }

    #[test]
    fn r6_7_random_claims_and_answers_keep_every_invariant(
        seed in any::<u64>(),
        which in 0usize..13,
    ) {
        let ps = profiles();
        walk(seed, &ps[which % ps.len()], 3, 0.15);
    }

    /// Any mix of the play options, as independent switches.
    #[test]
    fn random_option_mixes_keep_every_invariant(seed in any::<u64>(), mix in 0u32..(1 << 12)) {
        walk(seed, &mixed(mix), 4, 0.0);
    }
}

/// The random walk reaches every kind of ending: raspasy, misère, played, conceded and
/// half-whist games, open defence.
#[test]
fn random_walks_cover_every_kind_of_deal() {
    let ps = profiles();
    let (mut raspasy, mut misere, mut played, mut unplayed, mut open) = (0, 0, 0, 0, 0);
    let (mut surrendered, mut withdrawn) = (0, 0);
    for seed in 0..1500u64 {
        let (d, _) = walk(seed, &ps[(seed % ps.len() as u64) as usize], 0, 0.0);
        let o = d.outcome().unwrap();
        match o.kind {
            OutcomeKind::Raspasy => raspasy += 1,
            OutcomeKind::Misere { .. } => misere += 1,
            OutcomeKind::Surrender { .. } => surrendered += 1,
            OutcomeKind::Game {
                defence,
                whist,
                declarer,
                ..
            } => {
                // R5.3: the first defender withdrew to a half-whist.
                if whist[d.next_seat(declarer).index()] == Some(WhistCall::Half) {
                    withdrawn += 1;
                }
                if o.tricks.is_some() {
                    played += 1;
                } else {
                    unplayed += 1;
                }
                if defence == Some(Defence::Open) {
                    open += 1;
                }
            }
        }
    }
    for (name, n) in [
        ("raspasy", raspasy),
        ("misere", misere),
        ("played", played),
        ("unplayed", unplayed),
        ("open", open),
    ] {
        assert!(n >= 10, "only {n} {name} deals");
    }
    assert!(surrendered >= 3, "only {surrendered} surrenders");
    assert!(withdrawn >= 1, "only {withdrawn} withdrawals to half-whist");
}

/// The random claims reach both endings of R6.7: claims all accept, and rejected claims
/// after which the deal is played on.
#[test]
fn r6_7_random_claims_are_accepted_and_rejected() {
    let ps = profiles();
    let (mut accepted, mut rejected) = (0, 0);
    for seed in 0..400u64 {
        let (d, r) = walk(seed, &ps[(seed % ps.len() as u64) as usize], 0, 0.15);
        rejected += r;
        accepted += u32::from(d.accepted_claim().is_some());
    }
    assert!(accepted >= 50, "only {accepted} accepted claims");
    assert!(rejected >= 50, "only {rejected} rejected claims");
}
