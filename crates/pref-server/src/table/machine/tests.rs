//! The table machine alone, without tokio, database or sockets: the lobby and host rules
//! named one by one, and random op sequences checked for gapless versions, the phase
//! invariants, and refused ops that change nothing.

use pref_core::{Action, Call, Card, Profile, Seat, Viewer};
use pref_protocol::{BotLevel, Phase, Public};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use super::*;
use crate::ids::{Secret, TokenHash};
use crate::table::wire::News;

fn deck(seed: u64) -> [Card; 32] {
    let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
    deck.shuffle(&mut StdRng::seed_from_u64(seed));
    deck.try_into().unwrap()
}

/// A Sochi table in its lobby, seat 0 dealing first, `host` its host.
pub(super) fn lobby(host: Secret) -> Machine {
    Machine::new(NewTable {
        host: host.into(),
        invite: crate::ids::TokenHash::of(&crate::ids::TEST_INVITE),
        profile: Profile::sochi(),
        spectator_chat: false,
        first_dealer: Seat(0),
    })
}

fn claim(m: &mut Machine, name: &str) -> Result<(u8, Secret), TableError> {
    let token = Secret::random();
    let change = m.apply(Op::Claim {
        name: name.into(),
        seat: None,
        host: None,
        invite: Some(crate::ids::TEST_INVITE),
        token,
    })?;
    match change.news.as_slice() {
        [News::Public(Public::SeatTaken { seat, .. })] => Ok((*seat, token)),
        other => panic!("a claim told {other:?}"),
    }
}

/// Three seats taken and the game started: the host token and the seat tokens.
fn started() -> (Machine, Secret, Vec<Secret>) {
    let host = Secret::random();
    let mut m = lobby(host);
    let tokens = ["Anna", "Boris", "Vera"]
        .iter()
        .map(|n| claim(&mut m, n).unwrap().1)
        .collect();
    m.apply(Op::Host {
        host,
        op: HostOp::Start { deck: deck(1) },
    })
    .unwrap();
    (m, host, tokens)
}

#[test]
fn seats_fill_in_order_and_a_full_table_refuses() {
    let mut m = lobby(Secret::random());
    assert_eq!(claim(&mut m, "Anna").unwrap().0, 0);
    assert_eq!(claim(&mut m, "  Boris ").unwrap().0, 1);
    assert_eq!(m.occupant(1).unwrap().name, "Boris");
    assert_eq!(claim(&mut m, "").unwrap_err(), TableError::BadName);
    assert_eq!(claim(&mut m, "a\u{7}b").unwrap_err(), TableError::BadName);
    // Spoofing: a bidi override turns text around, zero-width characters make twins.
    for spoof in [
        "Anna\u{202e}",
        "An\u{200b}na",
        "\u{2066}Anna\u{2069}",
        "An\u{feff}na",
    ] {
        assert_eq!(
            claim(&mut m, spoof).unwrap_err(),
            TableError::BadName,
            "{spoof:?}"
        );
    }
    assert_eq!(claim(&mut m, "Vera").unwrap().0, 2);
    assert_eq!(claim(&mut m, "Gleb").unwrap_err(), TableError::Full);
    let seat_3 = m.apply(Op::Claim {
        name: "Gleb".into(),
        seat: Some(3),
        host: None,
        invite: Some(crate::ids::TEST_INVITE),
        token: Secret::random(),
    });
    assert_eq!(seat_3.unwrap_err(), TableError::NoSuchSeat(3));
    assert_eq!(m.version(), 3);
}

#[test]
fn only_the_host_starts_and_only_with_every_seat_taken() {
    let host = Secret::random();
    let mut m = lobby(host);
    claim(&mut m, "Anna").unwrap();
    let start = |m: &mut Machine, host| {
        m.apply(Op::Host {
            host,
            op: HostOp::Start { deck: deck(2) },
        })
    };
    assert_eq!(start(&mut m, host).unwrap_err(), TableError::SeatsFree);
    claim(&mut m, "Boris").unwrap();
    claim(&mut m, "Vera").unwrap();
    assert_eq!(
        start(&mut m, Secret::random()).unwrap_err(),
        TableError::NotHost
    );
    let change = start(&mut m, host).unwrap();
    assert_eq!(change.first, 4);
    assert_eq!(change.news.len(), 2, "started, then dealt");
    assert_eq!(
        change.writes.first(),
        Some(&Write::Playing),
        "the start is stored first"
    );
    assert_eq!(m.phase(), Phase::Playing);
    assert_eq!(m.turn().to_act, Some(Seat(1)), "first hand bids first (R3)");
    assert_eq!(start(&mut m, host).unwrap_err(), TableError::Started);
}

#[test]
fn in_the_lobby_a_seat_needs_the_invite_key_or_the_host_token() {
    let host = Secret::random();
    let table = |invite: Secret| {
        Machine::new(NewTable {
            host: host.into(),
            invite: TokenHash::of(&invite),
            profile: Profile::sochi(),
            spectator_chat: false,
            first_dealer: Seat(0),
        })
    };
    let mut m = table(host.invite_key());
    // The key is made from the host token, which only the host holds: the host's page is
    // given it again, another token is not, and the key made from the stored hash (what a
    // copy of the database gives) seats nobody.
    let key = m.invite_key(&host).unwrap();
    assert!(key.matches(&host.invite_key()));
    assert_eq!(m.invite_key(&Secret::random()), Err(TableError::NotHost));
    let from_the_row = TokenHash::of(&host).legacy_invite_key();
    assert!(!m.invites(&from_the_row));
    // A table stored before the key had a column keeps its old key, and its host is given it.
    let legacy = table(from_the_row);
    assert!(legacy.invites(&from_the_row));
    assert!(!legacy.invites(&host.invite_key()));
    assert!(legacy.invite_key(&host).unwrap().matches(&from_the_row));
    let before = format!("{m:?}");
    for invite in [None, Some(Secret::random()), Some(from_the_row)] {
        let refused = m.apply(Op::Claim {
            name: "Mallory".into(),
            seat: None,
            host: None,
            invite,
            token: Secret::random(),
        });
        assert_eq!(refused.unwrap_err(), TableError::InviteRequired);
    }
    assert_eq!(
        format!("{m:?}"),
        before,
        "a refused claim changed the table"
    );
    let by_invite = m.apply(Op::Claim {
        name: "Anna".into(),
        seat: None,
        host: None,
        invite: Some(key),
        token: Secret::random(),
    });
    assert_eq!(by_invite.unwrap().first, 1);
    let by_host = m.apply(Op::Claim {
        name: "Boris".into(),
        seat: None,
        host: Some(host),
        invite: None,
        token: Secret::random(),
    });
    assert_eq!(by_host.unwrap().first, 2);
}

#[test]
fn once_started_only_the_host_seats_a_player_and_never_during_a_deal() {
    let (mut m, host, tokens) = started();
    let leave = m.apply(Op::Leave { token: tokens[0] });
    assert_eq!(leave.unwrap_err(), TableError::DealInProgress);
    let by_anyone = m.apply(Op::Claim {
        name: "Gleb".into(),
        seat: None,
        host: None,
        invite: Some(crate::ids::TEST_INVITE),
        token: Secret::random(),
    });
    assert_eq!(by_anyone.unwrap_err(), TableError::HostSeats);
    let by_host = m.apply(Op::Claim {
        name: "Gleb".into(),
        seat: None,
        host: Some(host),
        invite: None,
        token: Secret::random(),
    });
    assert_eq!(by_host.unwrap_err(), TableError::Full);
}

#[test]
fn a_freed_seat_s_token_can_neither_act_nor_chat() {
    let host = Secret::random();
    let mut m = lobby(host);
    let (_, anna) = claim(&mut m, "Anna").unwrap();
    let change = m.apply(Op::Leave { token: anna }).unwrap();
    assert_eq!(change.freed, Some((0, 2)));
    assert_eq!(change.writes, vec![Write::Free(0)]);
    let (seat, gleb) = claim(&mut m, "Gleb").unwrap();
    assert_eq!(seat, 0);
    assert!(m.holds(Viewer::Seat(Seat(0)), Some(&gleb)));
    assert!(!m.holds(Viewer::Seat(Seat(0)), Some(&anna)));
    let chat = m.apply(Op::Chat {
        viewer: Viewer::Seat(Seat(0)),
        token: Some(anna),
        text: "I am Gleb".into(),
    });
    assert_eq!(chat.unwrap_err(), TableError::SeatLost);
    let act = m.apply(Op::Act {
        seat: Seat(0),
        token: anna,
        version: 100,
        action: Action::Bid(Call::Pass),
    });
    assert_eq!(act.unwrap_err(), TableError::SeatLost);
}

#[test]
fn stale_and_future_actions_are_refused_and_a_legal_one_advances_the_turn() {
    let (mut m, _, tokens) = started();
    let at = m.state_version();
    let stale = m.apply(Op::Act {
        seat: Seat(1),
        token: tokens[1],
        version: at - 1,
        action: Action::Bid(Call::Pass),
    });
    assert_eq!(stale.unwrap_err(), TableError::Stale { at, yours: at - 1 });
    let last = m.version();
    let future = m.apply(Op::Act {
        seat: Seat(1),
        token: tokens[1],
        version: last + 1000,
        action: Action::Bid(Call::Pass),
    });
    assert_eq!(
        future.unwrap_err(),
        TableError::FutureVersion {
            at: last,
            yours: last + 1000
        }
    );
    assert_eq!(m.version(), last, "a refusal changes nothing");
    let wrong = m.apply(Op::Act {
        seat: Seat(2),
        token: tokens[2],
        version: at,
        action: Action::Bid(Call::Pass),
    });
    assert!(
        matches!(wrong, Err(TableError::NotYourTurn(_))),
        "{wrong:?}"
    );
    let before = m.version();
    let change = m
        .apply(Op::Act {
            seat: Seat(1),
            token: tokens[1],
            version: at,
            action: Action::Bid(Call::Pass),
        })
        .unwrap();
    assert_eq!(change.first, before + 1);
    assert_eq!(m.state_version(), before + 1);
    assert_eq!(change.turn.unwrap().to_act, Some(Seat(2)));
}

#[test]
fn the_host_ends_by_agreement_between_deals_only() {
    let (mut m, host, _) = started();
    let end = m.apply(Op::Host {
        host,
        op: HostOp::End,
    });
    assert_eq!(end.unwrap_err(), TableError::DealInProgress);
    let mut lobby_table = lobby(host);
    let change = lobby_table
        .apply(Op::Host {
            host,
            op: HostOp::End,
        })
        .unwrap();
    assert_eq!(change.writes, vec![Write::Over]);
    assert_eq!(lobby_table.phase(), Phase::Over);
    let summary = lobby_table.summary();
    assert!(summary.settlement.unwrap().agreed);
}

/// One op of a random sequence, as choices resolved against the table when applied.
#[derive(Clone, Debug)]
enum Pick {
    Claim {
        seat: Option<u8>,
        as_host: bool,
    },
    Leave {
        seat: u8,
        real: bool,
    },
    Start {
        real_host: bool,
    },
    Profile {
        four: bool,
    },
    Remove {
        seat: u8,
    },
    Bot {
        seat: u8,
    },
    End,
    Act {
        choice: u16,
        right_seat: bool,
        stale: bool,
    },
    NextDeal {
        seat: u8,
        stale: bool,
    },
    Chat {
        seat: Option<u8>,
    },
    Presence {
        seat: u8,
        connected: bool,
    },
}

fn pick() -> impl Strategy<Value = Pick> {
    prop_oneof![
        2 => (proptest::option::of(0u8..5), any::<bool>())
            .prop_map(|(seat, as_host)| Pick::Claim { seat, as_host }),
        1 => (0u8..4, any::<bool>()).prop_map(|(seat, real)| Pick::Leave { seat, real }),
        2 => any::<bool>().prop_map(|real_host| Pick::Start { real_host }),
        1 => any::<bool>().prop_map(|four| Pick::Profile { four }),
        1 => (0u8..4).prop_map(|seat| Pick::Remove { seat }),
        1 => (0u8..4).prop_map(|seat| Pick::Bot { seat }),
        1 => Just(Pick::End),
        12 => (any::<u16>(), prop::bool::weighted(0.9), prop::bool::weighted(0.1))
            .prop_map(|(choice, right_seat, stale)| Pick::Act { choice, right_seat, stale }),
        2 => (0u8..4, any::<bool>()).prop_map(|(seat, stale)| Pick::NextDeal { seat, stale }),
        1 => proptest::option::of(0u8..4).prop_map(|seat| Pick::Chat { seat }),
        1 => (0u8..4, any::<bool>()).prop_map(|(seat, connected)| Pick::Presence { seat, connected }),
    ]
}

/// The op a pick stands for at table `m`.
/// Every token handed out is kept in `keys`: the machine keeps only their hashes.
fn resolve(m: &Machine, host: Secret, keys: &mut Vec<Secret>, pick: &Pick, seed: u64) -> Op {
    let fresh = Secret::random();
    keys.push(fresh);
    let keys = &*keys;
    let token_of = |s: u8| {
        m.occupant(s)
            .and_then(|o| keys.iter().find(|k| o.token.verifies(k)).copied())
            .unwrap_or_else(Secret::random)
    };
    match *pick {
        Pick::Claim { seat, as_host } => Op::Claim {
            name: format!("p{seed}"),
            seat,
            host: as_host.then_some(host),
            invite: (!as_host).then_some(crate::ids::TEST_INVITE),
            token: fresh,
        },
        Pick::Leave { seat, real } => Op::Leave {
            token: if real {
                token_of(seat)
            } else {
                Secret::random()
            },
        },
        Pick::Start { real_host } => Op::Host {
            host: if real_host { host } else { Secret::random() },
            op: HostOp::Start { deck: deck(seed) },
        },
        Pick::Profile { four } => {
            let name = if four { "sochi4" } else { "sochi" };
            Op::Host {
                host,
                op: HostOp::Profile(Profile::preset(name).unwrap()),
            }
        }
        Pick::Remove { seat } => Op::Host {
            host,
            op: HostOp::Remove(seat),
        },
        Pick::Bot { seat } => Op::Host {
            host,
            op: HostOp::Bot {
                seat,
                level: BotLevel::Easy,
                token: fresh,
            },
        },
        Pick::End => Op::Host {
            host,
            op: HostOp::End,
        },
        Pick::Act {
            choice,
            right_seat,
            stale,
        } => {
            let turn = m.turn();
            let seat = match turn.to_act {
                Some(s) if right_seat => s,
                Some(s) => Seat((s.0 + 1) % m.players()),
                None => Seat((choice % 4) as u8),
            };
            let action = if turn.legal.is_empty() {
                Action::Bid(Call::Pass)
            } else {
                turn.legal[usize::from(choice) % turn.legal.len()]
            };
            Op::Act {
                seat,
                token: token_of(seat.0),
                version: if stale {
                    m.state_version().saturating_sub(1)
                } else {
                    m.version()
                },
                action,
            }
        }
        Pick::NextDeal { seat, stale } => Op::NextDeal {
            seat: Seat(seat),
            token: token_of(seat),
            version: if stale {
                m.state_version().saturating_sub(1)
            } else {
                m.version()
            },
            deck: deck(seed),
        },
        Pick::Chat { seat } => Op::Chat {
            viewer: seat.map_or(Viewer::Spectator, |s| Viewer::Seat(Seat(s))),
            token: seat.map(token_of),
            text: "hi".into(),
        },
        Pick::Presence { seat, connected } => Op::Presence {
            seat: Seat(seat),
            token: token_of(seat),
            connected,
        },
    }
}

/// The invariants of every reachable table.
fn check_invariants(m: &Machine) {
    let players = m.players();
    for s in players..4 {
        assert!(m.occupant(s).is_none(), "seat {s} beyond {players} players");
    }
    assert!(m.state_version() <= m.version() + 1);
    match m.stage() {
        Stage::Lobby => assert!(m.game().is_none()),
        Stage::Playing { game, deal_no, .. } => {
            assert!(game.deal().is_some(), "playing without a deal");
            assert_eq!(m.shown_deal().map(|(n, _)| n), Some(*deal_no));
        }
        Stage::BetweenDeals { game, .. } => assert!(game.deal().is_none()),
        Stage::Over { settlement, .. } => {
            let total = settlement
                .balance
                .iter()
                .map(|b| b.parse::<num_rational::Ratio<i64>>().unwrap())
                .sum::<num_rational::Ratio<i64>>();
            assert_eq!(
                total,
                num_rational::Ratio::from_integer(0),
                "R10 balances sum to 0"
            );
        }
    }
    let summary = m.summary();
    assert_eq!(summary.seats.len(), usize::from(players));
    assert_eq!(summary.version, m.version());
    let turn = m.turn();
    if let Some(s) = turn.to_act {
        assert!(
            !turn.legal.is_empty(),
            "seat {s:?} to act with nothing legal"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random ops: each accepted one numbers its items from the next version without a
    /// gap; each refused one leaves the table exactly as it was; the invariants hold after
    /// every op.
    #[test]
    fn random_ops_keep_versions_gapless_and_refusals_change_nothing(
        picks in proptest::collection::vec((pick(), any::<u64>()), 1..300)
    ) {
        let host = Secret::random();
        let mut m = lobby(host);
        let mut keys = Vec::new();
        for (pick, seed) in &picks {
            let op = resolve(&m, host, &mut keys, pick, *seed);
            let before = format!("{m:?}");
            let version = m.version();
            match m.apply(op) {
                Ok(change) => {
                    let n = change.news.len() as u64;
                    prop_assert_eq!(m.version(), version + n);
                    if n > 0 {
                        prop_assert_eq!(change.first, version + 1);
                    }
                    if let Some((_, at)) = change.freed {
                        prop_assert!(at > version && at <= m.version());
                    }
                }
                Err(_) => prop_assert_eq!(format!("{m:?}"), before, "a refused op changed the table"),
            }
            check_invariants(&m);
        }
    }
}
