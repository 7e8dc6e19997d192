//! A seat's picture never holds a deal dealt before its occupant sat: at a table that keeps
//! hands hidden (`reveal_after_deal = false`), a person seated between deals sees the last
//! finished deal as a spectator does, not as his predecessor in the seat saw it: not in the
//! shown deal, not in a replayed deal event, not after a restore.

use pref_core::{Action, Call, Card, CardSet, Profile, Seat, Viewer, WhistCall};
use pref_protocol::Item;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use super::*;
use crate::ids::Secret;
use crate::table::wire::News;

fn deck(seed: u64) -> [Card; 32] {
    let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
    deck.shuffle(&mut StdRng::seed_from_u64(seed));
    deck.try_into().unwrap()
}

/// The action a test player takes: the first to speak bids the lowest bid and the others
/// pass; the declarer surrenders (R4.5) as soon as he may, so the deal ends with every hand
/// and the discard unplayed; otherwise the first legal action.
fn policy(legal: &[Action], bid_made: bool) -> Action {
    let bid = legal
        .iter()
        .find(|a| matches!(a, Action::Bid(Call::Bid(_))) && !bid_made);
    let pass = legal
        .iter()
        .find(|a| matches!(a, Action::Bid(Call::Pass) | Action::Whist(WhistCall::Pass)));
    let surrender = legal.iter().find(|a| matches!(a, Action::Surrender));
    *surrender.or(bid).or(pass).unwrap_or(&legal[0])
}

/// Three people at a sochi table with hidden hands, the first deal played to its end:
/// the machine, the host token, the seat tokens and the items the deal broadcast.
fn one_deal_played() -> (Machine, Secret, Vec<Secret>, Vec<News>) {
    let host = Secret::random();
    let profile =
        Profile::from_json(&serde_json::json!({"preset": "sochi", "reveal_after_deal": false}))
            .unwrap();
    let mut m = Machine::new(NewTable {
        host: host.into(),
        invite: crate::ids::TokenHash::of(&crate::ids::TEST_INVITE),
        profile,
        spectator_chat: false,
        first_dealer: Seat(0),
    });
    let mut tokens = Vec::new();
    for name in ["Anna", "Boris", "Vera"] {
        let token = Secret::random();
        m.apply(Op::Claim {
            name: name.into(),
            seat: None,
            host: Some(host),
            invite: None,
            token,
        })
        .unwrap();
        tokens.push(token);
    }
    let mut news = m
        .apply(Op::Host {
            host,
            op: HostOp::Start { deck: deck(7) },
        })
        .unwrap()
        .news;
    let mut bid_made = false;
    while let Stage::Playing { game, .. } = m.stage() {
        let deal = game.deal().unwrap();
        let seat = deal.to_act().unwrap();
        let legal: Vec<Action> = deal.legal_actions_for(seat).into_iter().collect();
        let action = policy(&legal, bid_made);
        bid_made |= matches!(action, Action::Bid(Call::Bid(_)));
        let change = m
            .apply(Op::Act {
                seat,
                token: tokens[seat.index()],
                version: m.version(),
                action,
            })
            .unwrap();
        news.extend(change.news);
    }
    assert_eq!(m.phase(), pref_protocol::Phase::BetweenDeals);
    (m, host, tokens, news)
}

/// The cards `viewer` is shown of the last finished deal.
fn shown(m: &Machine, viewer: Viewer) -> CardSet {
    m.shown_view(viewer)
        .map(|(_, v)| v.cards())
        .unwrap_or_default()
}

#[test]
fn a_newcomer_sees_his_predecessor_s_deal_as_a_spectator_does() {
    let (mut m, host, _, news) = one_deal_played();
    let vera = Viewer::Seat(Seat(2));
    let spectator = shown(&m, Viewer::Spectator);
    // Vera's own cards, which no spectator is shown: what the test guards.
    let secret = shown(&m, vera).minus(spectator);
    assert!(!secret.is_empty(), "Vera sees cards of her own");
    m.apply(Op::Host {
        host,
        op: HostOp::Remove(2),
    })
    .unwrap();
    let change = m
        .apply(Op::Claim {
            name: "Gleb".into(),
            seat: Some(2),
            host: Some(host),
            invite: None,
            token: Secret::random(),
        })
        .unwrap();
    // He holds the seat from the next deal on, and the store is told so.
    assert!(change.writes.iter().any(|w| matches!(
        w,
        Write::Seat {
            seat: 2,
            from_deal: 1,
            ..
        }
    )));
    assert_eq!(m.occupant(2).unwrap().from_deal, 1);
    assert_eq!(m.occupant(2).unwrap().since, change.first);
    assert_eq!(m.deal_viewer(vera, 0), Viewer::Spectator);
    assert_eq!(m.deal_viewer(vera, 1), vera);
    // Anna has sat since the start: her view of deal 0 stays hers.
    assert_eq!(
        m.deal_viewer(Viewer::Seat(Seat(0)), 0),
        Viewer::Seat(Seat(0))
    );
    let (deal_no, gleb) = m.shown_view(vera).unwrap();
    assert_eq!(deal_no, 0);
    assert_eq!(gleb.hand, None);
    assert_eq!(gleb.cards(), spectator);
    assert_eq!(gleb.cards().and(secret), CardSet::default());
    // The deal's events, replayed to him, are a spectator's too: his `dealt` has no hand.
    let dealt = news
        .iter()
        .find(|n| matches!(n, News::Deal { event, .. } if matches!(event, pref_core::Event::Dealt { .. })))
        .unwrap();
    let hand = |from_deal| match dealt.visible(vera, from_deal, 3, false) {
        Some(Item::Deal { event, .. }) => event.cards(),
        other => panic!("a dealt event became {other:?}"),
    };
    assert_eq!(hand(1), CardSet::default());
    assert_eq!(
        hand(0).and(secret),
        secret,
        "Vera's own dealt event held her hand"
    );
}

#[test]
fn a_restored_newcomer_still_sees_the_deal_before_him_as_a_spectator() {
    let (m, _, tokens, _) = one_deal_played();
    let vera = Viewer::Seat(Seat(2));
    let spectator = shown(&m, Viewer::Spectator);
    let secret = shown(&m, vera).minus(spectator);
    let game = m.game().unwrap();
    let deals: Vec<StoredDeal> = game
        .history()
        .iter()
        .map(|d| match d {
            pref_core::DealEntry::Played { actions, .. } => (deck(7), actions.clone()),
            pref_core::DealEntry::Scored { .. } => panic!("a played deal"),
        })
        .collect();
    let seats = ["Anna", "Boris", "Gleb"]
        .iter()
        .zip(0..)
        .map(|(name, seat)| StoredSeat {
            seat,
            name: (*name).to_owned(),
            token: tokens[usize::from(seat)].into(),
            bot: None,
            bot_account: false,
            from_deal: u32::from(seat == 2),
            host: false,
        })
        .collect();
    let restored = Machine::restore(
        NewTable {
            host: Secret::random().into(),
            invite: crate::ids::TokenHash::of(&crate::ids::TEST_INVITE),
            profile: m.profile().clone(),
            spectator_chat: false,
            first_dealer: Seat(0),
        },
        seats,
        &deals,
        true,
        false,
    )
    .unwrap();
    assert_eq!(shown(&restored, vera), spectator);
    assert_eq!(shown(&restored, vera).and(secret), CardSet::default());
    let anna = Viewer::Seat(Seat(0));
    assert_eq!(shown(&restored, anna), shown(&m, anna));
}
