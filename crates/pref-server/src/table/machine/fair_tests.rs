//! The fair-deal window in the pure machine (`fair.rs`, `docs/fairness.md`): who is waited
//! for, what is published in which order, that a seat's value is in the deck, that a wrong
//! or late value changes nothing in the deck, and that a restore in the window keeps the seed.

use pref_core::fair::{Arrival, Contributed, Contribution, Place, Scheme, Seed, TableTag};
use pref_core::{Profile, Seat};
use pref_protocol::Public;

use super::*;
use crate::ids::{Secret, TokenHash};
use crate::table::wire::News;

/// The kinds of what a change told, in order.
fn told(change: &Change) -> Vec<&'static str> {
    change
        .news
        .iter()
        .map(|n| match n {
            News::Deal { .. } => "deal",
            News::Public(Public::FairSeed { .. }) => "fair_seed",
            News::Public(Public::FairCommitments { .. }) => "fair_commitments",
            News::Public(Public::FairDeck { .. }) => "fair_deck",
            News::Public(Public::FairRevealed(_)) => "fair_revealed",
            News::Public(Public::Started { .. }) => "started",
            News::Public(_) => "other",
        })
        .collect()
}

/// A full lobby of three people; `joined` seats contribute. Host token and seat tokens.
fn lobby(joined: &[u8]) -> (Machine, Secret, Vec<Secret>) {
    let host = Secret::random();
    let mut m = Machine::new(NewTable {
        host: TokenHash::of(&host),
        invite: crate::ids::TokenHash::of(&crate::ids::TEST_INVITE),
        profile: Profile::sochi(),
        spectator_chat: false,
        first_dealer: Seat(0),
    });
    m.set_fair_table(TABLE);
    let mut tokens = Vec::new();
    for name in ["Anna", "Boris", "Vera"] {
        let token = Secret::random();
        let op = Op::Claim {
            name: name.into(),
            seat: None,
            host: None,
            invite: Some(crate::ids::TEST_INVITE),
            token,
        };
        m.apply(op).unwrap();
        tokens.push(token);
    }
    for &s in joined {
        let token = tokens[usize::from(s)];
        m.apply(Op::Fair(FairOp::Join {
            seat: Seat(s),
            token,
        }))
        .unwrap();
    }
    (m, host, tokens)
}

const SEED: Seed = Seed::from_bytes([7; 32]);

/// The tests' table.
const TABLE: TableTag = TableTag::from_bytes([9; 32]);

/// Deal `deal` of the tests' table (`pref-fair/2`).
fn at(deal: u32) -> Scheme {
    Scheme::V2(Place { table: TABLE, deal })
}

/// The deck of deal `deal` at the tests' table.
fn shuffle(deal: u32, seed: &Seed, contributions: &[Contributed]) -> [pref_core::Card; 32] {
    pref_core::fair::shuffle(&at(deal), seed, contributions)
}

fn open(m: &mut Machine, host: Secret) -> Change {
    m.apply(Op::Fair(FairOp::Open {
        opening: Opening::Start { host },
        seed: SEED,
        window_ms: 3000,
    }))
    .unwrap()
}

fn commit(
    m: &mut Machine,
    seat: u8,
    token: Secret,
    value: Contribution,
) -> Result<Change, TableError> {
    m.apply(Op::Fair(FairOp::Commit {
        seat: Seat(seat),
        token,
        deal_no: 0,
        commitment: value.commitment(Seat(seat)),
    }))
}

fn reveal(
    m: &mut Machine,
    seat: u8,
    token: Secret,
    value: Contribution,
) -> Result<Change, TableError> {
    m.apply(Op::Fair(FairOp::Reveal {
        seat: Seat(seat),
        token,
        deal_no: 0,
        value,
    }))
}

fn dealt_deck(m: &Machine) -> [pref_core::Card; 32] {
    assert!(
        m.game().and_then(|g| g.deal()).is_some(),
        "the deal is dealt"
    );
    m.fair_deck(0).expect("the deal's fairness data")
}

#[test]
fn with_nobody_joined_the_deal_is_dealt_at_once_commitments_first() {
    let (mut m, host, _) = lobby(&[]);
    let change = open(&mut m, host);
    assert_eq!(told(&change), ["fair_seed", "fair_deck", "started", "deal"]);
    assert!(matches!(
        change.writes[0],
        Write::Fair(FairWrite::Seed { deal_no: 0, .. })
    ));
    assert_eq!(dealt_deck(&m), shuffle(0, &SEED, &[]));
}

#[test]
fn a_joined_seat_is_waited_for_and_its_value_changes_the_deck() {
    let (mut m, host, tokens) = lobby(&[1]);
    assert_eq!(told(&open(&mut m, host)), ["fair_seed"]);
    assert!(
        m.game().is_none(),
        "nothing is dealt while the window is open"
    );
    let value = Contribution::from_bytes([9; 32]);
    // A seat not asked, and a spectator-like wrong token, are refused.
    assert!(matches!(
        commit(&mut m, 0, tokens[0], value),
        Err(TableError::Fair(_))
    ));
    assert_eq!(
        commit(&mut m, 1, tokens[0], value).unwrap_err(),
        TableError::SeatLost
    );
    assert_eq!(
        told(&commit(&mut m, 1, tokens[1], value).unwrap()),
        ["fair_commitments"]
    );
    // A value that does not match the commitment changes nothing.
    let other = Contribution::from_bytes([8; 32]);
    let before = m.version();
    assert!(matches!(
        reveal(&mut m, 1, tokens[1], other),
        Err(TableError::Fair(_))
    ));
    assert_eq!(m.version(), before);
    let change = reveal(&mut m, 1, tokens[1], value).unwrap();
    assert_eq!(told(&change), ["fair_deck", "started", "deal"]);
    let mine = Contributed {
        seat: Seat(1),
        value,
        arrival: Arrival::InTime,
    };
    assert_eq!(dealt_deck(&m), shuffle(0, &SEED, &[mine]));
    assert_ne!(dealt_deck(&m), shuffle(0, &SEED, &[]));
}

#[test]
fn after_the_deadline_a_value_is_late_and_out_of_the_deck_and_a_commitment_is_refused() {
    let (mut m, host, tokens) = lobby(&[0, 2]);
    open(&mut m, host);
    let value = Contribution::from_bytes([4; 32]);
    commit(&mut m, 0, tokens[0], value).unwrap();
    let closed = m.apply(Op::Fair(FairOp::Deadline { deal_no: 0 })).unwrap();
    assert_eq!(told(&closed), ["fair_commitments"]);
    assert_eq!(
        commit(&mut m, 2, tokens[2], value).unwrap_err(),
        TableError::FairLate
    );
    let dealt = m.apply(Op::Fair(FairOp::Deadline { deal_no: 0 })).unwrap();
    assert_eq!(told(&dealt), ["fair_deck", "started", "deal"]);
    let change = reveal(&mut m, 0, tokens[0], value).unwrap();
    assert!(change.news.is_empty());
    assert!(m.fair_late(0, Seat(0)));
    assert_eq!(dealt_deck(&m), shuffle(0, &SEED, &[]));
}

#[test]
fn seats_and_the_profile_wait_while_a_deal_opens() {
    let (mut m, host, tokens) = lobby(&[0]);
    open(&mut m, host);
    let leave = m.apply(Op::Leave { token: tokens[2] });
    assert_eq!(leave.unwrap_err(), TableError::DealInProgress);
    let remove = m.apply(Op::Host {
        host,
        op: HostOp::Remove(1),
    });
    assert_eq!(remove.unwrap_err(), TableError::DealInProgress);
}

#[test]
fn a_restore_in_the_window_keeps_the_seed_and_the_commitments() {
    let (mut m, host, tokens) = lobby(&[0, 1]);
    open(&mut m, host);
    let (v0, v1) = (
        Contribution::from_bytes([1; 32]),
        Contribution::from_bytes([2; 32]),
    );
    commit(&mut m, 0, tokens[0], v0).unwrap();
    commit(&mut m, 1, tokens[1], v1).unwrap();
    reveal(&mut m, 0, tokens[0], v0).unwrap();
    let before = m.fair_view(8).unwrap().window.unwrap();
    // The stored rows, as the table wrote them.
    let stored = vec![StoredFair {
        deal_no: 0,
        seed: SEED,
        placed: true,
        commits_closed: true,
        contributions: vec![
            (0, v0.commitment(Seat(0)), Some(v0), false),
            (1, v1.commitment(Seat(1)), None, false),
        ],
    }];
    let seats = ["Anna", "Boris", "Vera"]
        .iter()
        .enumerate()
        .map(|(i, n)| StoredSeat {
            seat: i as u8,
            name: (*n).into(),
            token: TokenHash::of(&tokens[i]),
            bot: None,
            bot_account: false,
            from_deal: 0,
            host: false,
        })
        .collect();
    let t = NewTable {
        host: TokenHash::of(&host),
        invite: crate::ids::TokenHash::of(&crate::ids::TEST_INVITE),
        profile: Profile::sochi(),
        spectator_chat: false,
        first_dealer: Seat(0),
    };
    let mut back = Machine::restore(t, seats, &[], false, false).unwrap();
    back.set_fair_table(TABLE);
    back.restore_fair(stored, &[]).unwrap();
    let after = back.fair_view(8).unwrap().window.unwrap();
    assert_eq!(after.seed_commitment, before.seed_commitment);
    assert_eq!(after.commitments, before.commitments);
    assert!(after.revealing);
    let change = reveal(&mut back, 1, tokens[1], v1).unwrap();
    assert_eq!(told(&change), ["fair_deck", "started", "deal"]);
    let both = [
        Contributed {
            seat: Seat(0),
            value: v0,
            arrival: Arrival::InTime,
        },
        Contributed {
            seat: Seat(1),
            value: v1,
            arrival: Arrival::InTime,
        },
    ];
    assert_eq!(dealt_deck(&back), shuffle(0, &SEED, &both));
}

/// A table restored with `n` finished deals, each shuffled from its own seed with no
/// contribution, and the fairness of each.
fn finished_deals(n: u8, reveal: bool) -> Machine {
    finished_deals_under(n, reveal, true)
}

/// [`finished_deals`], stored under `pref-fair/2` if `placed`, else under `pref-fair/1`.
fn finished_deals_under(n: u8, reveal: bool, placed: bool) -> Machine {
    let seeds: Vec<Seed> = (0..n).map(|i| Seed::from_bytes([i; 32])).collect();
    let scheme = |deal: u32| if placed { at(deal) } else { Scheme::V1 };
    let decks: Vec<_> = (0..)
        .zip(&seeds)
        .map(|(deal, s)| pref_core::fair::shuffle(&scheme(deal), s, &[]))
        .collect();
    let profile = Profile::from_json(&serde_json::json!({
        "preset": "sochi",
        "reveal_after_deal": reveal,
    }))
    .unwrap();
    let with_end: Vec<_> = decks.iter().map(|&d| (d, true)).collect();
    let deals = super::deal_record_tests::played_with(&profile, &with_end);
    let mut m = super::deal_record_tests::table(reveal, &deals, false);
    assert_eq!(m.deals_finished(), u32::from(n), "every deal is finished");
    m.set_fair_table(TABLE);
    let stored = seeds
        .iter()
        .zip(0..)
        .map(|(&seed, deal_no)| StoredFair {
            deal_no,
            seed,
            placed,
            commits_closed: true,
            contributions: Vec::new(),
        })
        .collect();
    m.restore_fair(stored, &decks).unwrap();
    m
}

#[test]
fn a_snapshot_lists_the_last_deals_only_and_the_record_has_them_all() {
    let m = finished_deals(12, true);
    let view = m.fair_view(8).unwrap();
    let numbers: Vec<u32> = view.revealed.iter().map(|r| r.deal_no).collect();
    assert_eq!(numbers, (4..12).collect::<Vec<_>>(), "the last 8 of 12");
    assert!(view.dealt.is_empty() && view.window.is_none());
    let record = pref_core::Record::from_json_str(&m.record(&[]).unwrap()).unwrap();
    assert_eq!(record.deals().len(), 12);
    for r in &view.revealed {
        let f = record.fairness(r.deal_no as usize).unwrap();
        let text: serde_json::Value = serde_json::from_str(&f.to_json_string()).unwrap();
        assert_eq!(r.fairness, text, "deal {} as the record has it", r.deal_no);
    }
    for deal_no in 0..12 {
        let seed = Seed::from_bytes([deal_no as u8; 32]);
        let f = record
            .fairness(deal_no)
            .expect("every deal's values in the record");
        assert_eq!(f.server_seed(), seed);
    }
    let all = m.fair_view(100).unwrap();
    assert_eq!(
        all.revealed.len(),
        12,
        "a cap above the count keeps everything"
    );
    assert_eq!(all.revealed[4..], view.revealed[..]);
}

#[test]
fn a_snapshot_lists_the_last_hidden_deals_only() {
    let m = finished_deals(5, false);
    let view = m.fair_view(2).unwrap();
    let numbers: Vec<u32> = view.dealt.iter().map(|d| d.deal_no).collect();
    assert_eq!(numbers, [3, 4]);
    assert!(
        view.revealed.is_empty(),
        "nothing is revealed before the game's end"
    );
    for d in &view.dealt {
        let seed = Seed::from_bytes([d.deal_no as u8; 32]);
        assert_eq!(
            d.seed_commitment,
            seed.commitment(&at(d.deal_no)).to_string()
        );
    }
    assert_eq!(m.fair_view(0), None, "a cap of 0 lists nothing");
}

#[test]
fn deals_open_at_their_place_and_deals_stored_under_the_first_scheme_restore_under_it() {
    // A new deal: its seed row says pref-fair/2, and its published seed commitment names
    // the table and the deal.
    let (mut m, host, _) = lobby(&[]);
    let change = open(&mut m, host);
    assert!(matches!(
        change.writes[0],
        Write::Fair(FairWrite::Seed { deal_no: 0, scheme, .. }) if scheme == at(0)
    ));
    let Some(News::Public(Public::FairSeed {
        seed_commitment, ..
    })) = change.news.first()
    else {
        panic!("the seed commitment comes first");
    };
    assert_eq!(*seed_commitment, SEED.commitment(&at(0)).to_string());
    assert_ne!(*seed_commitment, SEED.commitment(&Scheme::V1).to_string());
    // Deals stored before pref-fair/2 come back under pref-fair/1, and the record says so.
    let m = finished_deals_under(3, true, false);
    let record = pref_core::Record::from_json_str(&m.record(&[]).unwrap()).unwrap();
    for deal in 0..3 {
        assert_eq!(record.fairness(deal).map(|f| f.scheme()), Some(Scheme::V1));
    }
    let m = finished_deals(3, true);
    let record = pref_core::Record::from_json_str(&m.record(&[]).unwrap()).unwrap();
    assert_eq!(record.fairness(2).map(|f| f.scheme()), Some(at(2)));
}
