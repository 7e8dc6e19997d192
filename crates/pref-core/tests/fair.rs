//! Provably fair deals (`docs/fairness.md`): the shuffle is a permutation and a function of
//! its inputs alone, every contribution in time changes the deck and a late one does not, the
//! known answers hold, the worked example of the documentation is what the code computes
//! (its shell commands are run), `tests/records/fair-deals.json` (`pref-fair/2`) and
//! `tests/records/fair-deals-v1.json` (`pref-fair/1`) are what their generator makes, and a
//! `pref-fair/2` deal moved within its record or spliced from another table is refused.
#![allow(missing_docs)]

use std::collections::HashSet;

use pref_core::fair::{
    self, Arrival, Contributed, Contribution, Digest, FairError, Fairness, Place, Scheme, Seed,
    Shuffle, TableTag,
};
use pref_core::{Card, Game, Location, Profile, Reason, Record, RecordDeal, Seat, Stage};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The worked example's values (`docs/fairness.md`): its table, then the values of its
/// first deal.
const TABLE_ID: &str = "7c1e4a9f03b2d65e8a4f1c07b9d3e562";
const TABLE_TAG: &str = "e780fa268ac4d3d67c9d02e91b2fa6348ac88a0477b2ff2b1102d2e73fd1950e";
const SEED: &str = "3ba377d71fa6983ab584b02f864178e9c3f5fc3b08f184712ee3e766037fd3a5";
const ANNA: &str = "9246910974c1c086eab801325618ccd0d685318cd2b8419893ac67191f3a9bbe";
const BORIS: &str = "f1a6e469b06d69e1b76afa6fc81afe00a45fbaffabe2cc819705635797a50ec8";
const VERA: &str = "09fb93230371286dde2e0969c50a70f9a17f55144d40ba5fa334b149b2d2c215";
const SEED_COMMITMENT: &str = "b5e29ed889c96fb7512c6f97d3fcd98c921a1b53eb00d25e9600ca5c3363c923";
const CONTRIBUTION_COMMITMENTS: [&str; 3] = [
    "2d7c375812afc0b15d51d89d5acbba4d67d359747b38af36a3c1e66df5bdd0c0",
    "6018351fbe60462c473d5114ae0e7a8e6f842992cdb356a982cb09a1a5bc137e",
    "ce30f930e71ae5a5c87b7202b5afc2efdbe94781ca9566892e2da665562614df",
];
const DECK: &str = "KD AD QD QH 8H KH TH 9S 8D AS TC 7H 8C 7S 7C TS JH AH 7D QS 9H JS 9C AC JD KS KC TD JC 8S QC 9D";
const DECK_COMMITMENT: &str = "9cfa13935fb587eb1b34413541d44cd6b8996707ee9352b7402caeb30a4a44aa";
/// The same values under `pref-fair/1`, which names no place (the example of older pages).
const SEED_COMMITMENT_1: &str = "2f1c0024734aaac7795644fb0996085ae12e51e2d4c83520b48c2c458a4f6344";
const DECK_1: &str = "9H 9S TD TH 7S JS KD KS TC 9C TS QS 9D AS AD QC KH 7D QH AH KC JC 8C 7H QD 8H 7C 8D JD 8S AC JH";
const DECK_COMMITMENT_1: &str = "4806bb67fd43af33262c5983f68b1b4054e5ff898dcd24978d3c8f49ed74875f";

/// Deal `deal` of the worked example's table, under `pref-fair/2`.
fn at(deal: u32) -> Scheme {
    Scheme::V2(Place {
        table: TableTag::of(TABLE_ID),
        deal,
    })
}

fn deck_text(deck: &[Card; 32]) -> String {
    let cards: Vec<String> = deck.iter().map(Card::to_string).collect();
    cards.join(" ")
}

fn contributed(seat: u8, value: &str, arrival: Arrival) -> Contributed {
    Contributed {
        seat: Seat(seat),
        value: value.parse().unwrap(),
        arrival,
    }
}

/// The worked example: Anna and Boris in time, Vera late, deal 0 of its table.
fn example() -> Fairness {
    example_under(at(0))
}

/// The worked example's values under `scheme`.
fn example_under(scheme: Scheme) -> Fairness {
    let mut s = Shuffle::new(scheme, SEED.parse().unwrap());
    for c in [
        contributed(0, ANNA, Arrival::InTime),
        contributed(1, BORIS, Arrival::InTime),
        contributed(2, VERA, Arrival::Late),
    ] {
        s.contribute(c.seat, c.value, c.arrival).unwrap();
    }
    s.finish()
}

/// The `sh` blocks of the documentation and the `text` block that follows each.
fn shell_blocks(doc: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut rest = doc;
    while let Some(start) = rest.find("```sh\n") {
        let body = &rest[start + 6..];
        let end = body.find("```\n").unwrap();
        let after = &body[end + 4..];
        let out_start = after.find("```text\n").unwrap();
        let out_body = &after[out_start + 8..];
        let out_end = out_body.find("```\n").unwrap();
        blocks.push((body[..end].to_owned(), out_body[..out_end].to_owned()));
        rest = &out_body[out_end..];
    }
    blocks
}

#[test]
fn the_worked_example_of_the_documentation_is_what_the_code_computes() {
    assert_eq!(TableTag::of(TABLE_ID).to_string(), TABLE_TAG);
    let f = example();
    assert_eq!(f.seed_commitment().to_string(), SEED_COMMITMENT);
    for (seat, (value, commitment)) in [ANNA, BORIS, VERA]
        .iter()
        .zip(CONTRIBUTION_COMMITMENTS)
        .enumerate()
    {
        let c: Contribution = value.parse().unwrap();
        assert_eq!(c.commitment(Seat(seat as u8)).to_string(), commitment);
    }
    assert_eq!(deck_text(f.deck()), DECK);
    assert_eq!(f.deck_commitment().to_string(), DECK_COMMITMENT);
    assert_eq!(f.in_deck().collect::<Vec<_>>(), [Seat(0), Seat(1)]);
    assert_eq!(f.late().collect::<Vec<_>>(), [Seat(2)]);

    let doc = include_str!("../../../docs/fairness.md");
    for value in [
        TABLE_ID,
        TABLE_TAG,
        SEED,
        ANNA,
        BORIS,
        VERA,
        SEED_COMMITMENT,
        DECK,
        DECK_COMMITMENT,
    ]
    .into_iter()
    .chain(CONTRIBUTION_COMMITMENTS)
    {
        assert!(doc.contains(value), "docs/fairness.md lacks {value}");
    }
    let blocks = shell_blocks(doc);
    assert_eq!(blocks.len(), 6, "the worked example's command blocks");
    // All blocks run in one shell, as a reader would type them; a marker line separates
    // the output of one block from the next.
    let marker = "=== next block ===";
    let script: String = blocks
        .iter()
        .map(|(commands, _)| format!("{commands}echo '{marker}'\n"))
        .collect();
    let dir = std::env::temp_dir().join(format!("pref-fair-doc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = std::process::Command::new("bash")
        .args(["-c", &script])
        .current_dir(&dir)
        .output()
        .expect("bash runs the documentation's commands");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let printed: Vec<&str> = stdout.split(&format!("{marker}\n")).collect();
    assert_eq!(printed.len(), blocks.len() + 1);
    for ((commands, expected), got) in blocks.iter().zip(printed) {
        assert_eq!(got, expected, "the output of\n{commands}");
    }
}

#[test]
fn the_first_scheme_computes_as_it_always_did() {
    // pref-fair/1's worked example, as docs/fairness.md printed it before pref-fair/2.
    let f = example_under(Scheme::V1);
    assert_eq!(f.seed_commitment().to_string(), SEED_COMMITMENT_1);
    assert_eq!(deck_text(f.deck()), DECK_1);
    assert_eq!(f.deck_commitment().to_string(), DECK_COMMITMENT_1);
    // The same values at another place, or at another deal of the same table, are another
    // deal: every commitment and the deck differ.
    let elsewhere = example_under(Scheme::V2(Place {
        table: TableTag::of("00000000000000000000000000000000"),
        deal: 0,
    }));
    for other in [elsewhere, example_under(at(1)), f] {
        let e = example();
        assert_ne!(other.seed_commitment(), e.seed_commitment());
        assert_ne!(other.deck(), e.deck());
        assert_ne!(other.deck_commitment(), e.deck_commitment());
    }
}

#[test]
fn known_answer_zero_seed_alone() {
    // Computed independently with the documentation's shell commands.
    let seed = Seed::from_bytes([0; 32]);
    assert_eq!(
        seed.commitment(&Scheme::V1).to_string(),
        "bbf0d0c676f61dd8229e698cd86951aa75e799ce8568edfff13aa54910393331"
    );
    assert_eq!(
        deck_text(&fair::shuffle(&Scheme::V1, &seed, &[])),
        "TS JH AH 8D KC JS KH 7S 7C QS QC TH AD AC AS JC 9C 7H KD KS 7D TD 9H QH 8S 9D 8H JD TC 8C 9S QD"
    );
    assert_eq!(
        fair::shuffle_text(&Scheme::V1, &seed, &[]),
        format!("pref-fair/1 shuffle\nserver {}\n", "0".repeat(64))
    );
    assert_eq!(
        fair::shuffle_text(&at(3), &seed, &[]),
        format!(
            "pref-fair/2 shuffle\ntable {TABLE_TAG}\ndeal 3\nserver {}\n",
            "0".repeat(64)
        )
    );
}

#[test]
fn a_late_contribution_is_not_in_the_deck_and_is_kept() {
    let seed: Seed = SEED.parse().unwrap();
    let in_time = [
        contributed(0, ANNA, Arrival::InTime),
        contributed(1, BORIS, Arrival::InTime),
    ];
    let f = example();
    assert_eq!(f.deck(), &fair::shuffle(&at(0), &seed, &in_time));
    assert_eq!(f.contributions().len(), 3);
    assert_eq!(f.contributions()[2], contributed(2, VERA, Arrival::Late));
    // In time, the same value would change the deck.
    let all = [
        in_time[0],
        in_time[1],
        contributed(2, VERA, Arrival::InTime),
    ];
    assert_ne!(f.deck(), &fair::shuffle(&at(0), &seed, &all));
}

#[test]
fn contributions_are_kept_by_seat_whatever_their_order_of_arrival() {
    let mut s = Shuffle::new(at(0), SEED.parse().unwrap());
    s.contribute(Seat(2), VERA.parse().unwrap(), Arrival::Late)
        .unwrap();
    s.contribute(Seat(1), BORIS.parse().unwrap(), Arrival::InTime)
        .unwrap();
    s.contribute(Seat(0), ANNA.parse().unwrap(), Arrival::InTime)
        .unwrap();
    assert_eq!(s.finish(), example());
}

#[test]
fn fairness_data_that_does_not_hold_together_is_refused() {
    let f = example();
    let parts = || {
        (
            f.seed_commitment(),
            f.deck_commitment(),
            f.server_seed(),
            f.contributions().to_vec(),
            *f.deck(),
        )
    };
    let (sc, dc, seed, contributions, deck) = parts();
    assert_eq!(
        Fairness::new(at(0), sc, dc, seed, contributions.clone(), deck),
        Ok(f.clone())
    );
    let other: Digest = VERA.parse().unwrap();
    assert_eq!(
        Fairness::new(at(0), other, dc, seed, contributions.clone(), deck),
        Err(FairError::SeedCommitment)
    );
    assert_eq!(
        Fairness::new(at(0), sc, other, seed, contributions.clone(), deck),
        Err(FairError::DeckCommitment)
    );
    let mut swapped = deck;
    swapped.swap(0, 1);
    assert_eq!(
        Fairness::new(at(0), sc, dc, seed, contributions.clone(), swapped),
        Err(FairError::Deck)
    );
    let mut on_time = contributions.clone();
    on_time[2].arrival = Arrival::InTime;
    assert_eq!(
        Fairness::new(at(0), sc, dc, seed, on_time, deck),
        Err(FairError::Deck)
    );
    let mut twice = contributions.clone();
    twice[1].seat = Seat(0);
    assert_eq!(
        Fairness::new(at(0), sc, dc, seed, twice, deck),
        Err(FairError::RepeatedSeat(0))
    );
    let reversed: Vec<Contributed> = contributions.iter().rev().copied().collect();
    assert_eq!(
        Fairness::new(at(0), sc, dc, seed, reversed, deck),
        Err(FairError::SeatOrder)
    );
    // The values of deal 0 read as deal 1's, or as another table's, do not hold.
    assert_eq!(
        Fairness::new(at(1), sc, dc, seed, contributions.clone(), deck),
        Err(FairError::SeedCommitment)
    );
    assert_eq!(
        Fairness::new(Scheme::V1, sc, dc, seed, contributions, deck),
        Err(FairError::SeedCommitment)
    );
}

fn bytes() -> impl Strategy<Value = [u8; 32]> {
    any::<[u8; 32]>()
}

fn contributions() -> impl Strategy<Value = Vec<Contributed>> {
    proptest::collection::vec((bytes(), any::<bool>()), 4).prop_flat_map(|values| {
        proptest::sample::subsequence((0..4u8).collect::<Vec<_>>(), 0..=4).prop_map(move |seats| {
            seats
                .into_iter()
                .map(|s| {
                    let (value, late) = values[usize::from(s)];
                    Contributed {
                        seat: Seat(s),
                        value: Contribution::from_bytes(value),
                        arrival: if late { Arrival::Late } else { Arrival::InTime },
                    }
                })
                .collect()
        })
    })
}

proptest! {
    #[test]
    fn the_shuffle_is_a_permutation_and_a_function_of_its_inputs(
        seed in bytes(), cs in contributions(), deal in 0..200u32
    ) {
        let seed = Seed::from_bytes(seed);
        let scheme = at(deal);
        let deck = fair::shuffle(&scheme, &seed, &cs);
        let distinct: HashSet<u8> = deck.iter().map(|c| c.index()).collect();
        prop_assert_eq!(distinct.len(), 32);
        prop_assert_eq!(fair::shuffle(&scheme, &seed, &cs), deck);
        // The same inputs through the server's builder give the same deck and commitments.
        let mut s = Shuffle::new(scheme, seed);
        for c in &cs {
            s.contribute(c.seat, c.value, c.arrival).unwrap();
        }
        let f = s.finish();
        prop_assert_eq!(f.deck(), &deck);
        prop_assert_eq!(f.deck_commitment(), fair::deck_commitment(&scheme, &deck, &seed));
        let again = Fairness::new(
            scheme, f.seed_commitment(), f.deck_commitment(), seed, cs.clone(), deck,
        );
        prop_assert_eq!(again, Ok(f));
    }

    #[test]
    fn every_contribution_in_time_changes_the_deck(
        seed in bytes(), cs in contributions(), which in any::<prop::sample::Index>(),
        bit in 0..256usize,
    ) {
        let seed = Seed::from_bytes(seed);
        let s = at(0);
        let deck = fair::shuffle(&s, &seed, &cs);
        let in_time: Vec<usize> = (0..cs.len()).filter(|&i| cs[i].arrival == Arrival::InTime).collect();
        prop_assume!(!in_time.is_empty());
        let i = in_time[which.index(in_time.len())];
        let mut changed = cs.clone();
        let mut value = changed[i].value.to_bytes();
        value[bit / 8] ^= 1 << (bit % 8);
        changed[i].value = Contribution::from_bytes(value);
        prop_assert_ne!(fair::shuffle(&s, &seed, &changed), deck);
        // Leaving it out changes the deck too, and so does changing the server seed.
        let mut without = cs.clone();
        without.remove(i);
        prop_assert_ne!(fair::shuffle(&s, &seed, &without), deck);
        let mut other = seed.to_bytes();
        other[bit / 8] ^= 1 << (bit % 8);
        prop_assert_ne!(fair::shuffle(&s, &Seed::from_bytes(other), &cs), deck);
    }

    #[test]
    fn a_late_contribution_never_changes_the_deck(seed in bytes(), cs in contributions()) {
        let seed = Seed::from_bytes(seed);
        let in_time: Vec<Contributed> =
            cs.iter().copied().filter(|c| c.arrival == Arrival::InTime).collect();
        prop_assert_eq!(fair::shuffle(&at(0), &seed, &cs), fair::shuffle(&at(0), &seed, &in_time));
    }
}

/// Plays out the deal in progress with legal actions chosen by `rng` (mostly passes in the
/// auction, so that games stay short).
fn play_out(game: &mut Game, rng: &mut SmallRng) {
    while let Some(deal) = game.deal() {
        let seat = deal.turn().unwrap();
        let legal = deal.legal_actions(seat).to_vec();
        let pass = pref_core::Action::Bid(pref_core::Call::Pass);
        let action =
            if deal.stage() == Stage::Auction && legal.contains(&pass) && rng.gen_ratio(2, 3) {
                pass
            } else {
                legal[rng.gen_range(0..legal.len())]
            };
        game.apply(seat, action).unwrap();
    }
}

/// `tests/records/fair-deals.json`: four deals with fairness data: the worked example
/// (Vera late), a deal with no contribution, one with all three, and one with seat 0 late,
/// under `pref-fair/2` at the worked example's table.
fn fair_deals() -> Record {
    fair_deals_under(at, FAIR_DEALS_RNG)
}

/// The seed of the moves of `fair-deals.json`: one whose four deals all have played cards,
/// for the tests that tamper with them.
const FAIR_DEALS_RNG: u64 = 20;

/// The same four deals, each under `scheme(deal)`: `tests/records/fair-deals-v1.json` is
/// them under `pref-fair/1`.
fn fair_deals_under(scheme: fn(u32) -> Scheme, moves: u64) -> Record {
    let mut game = Game::new(Profile::sochi(), Seat(2)).unwrap();
    let mut rng = SmallRng::seed_from_u64(moves);
    let mut all = vec![example_under(scheme(0))];
    game.start_deal(all[0].deck()).unwrap();
    play_out(&mut game, &mut rng);
    let arrivals: [&[(u8, Arrival)]; 3] = [
        &[],
        &[
            (0, Arrival::InTime),
            (1, Arrival::InTime),
            (2, Arrival::InTime),
        ],
        &[(0, Arrival::Late), (1, Arrival::InTime)],
    ];
    for (deal, seats) in (1..).zip(arrivals) {
        let mut s = Shuffle::new(scheme(deal), Seed::from_bytes(rng.r#gen()));
        for &(seat, arrival) in seats {
            let value = Contribution::from_bytes(rng.r#gen());
            s.contribute(Seat(seat), value, arrival).unwrap();
        }
        let f = s.finish();
        game.start_deal(f.deck()).unwrap();
        play_out(&mut game, &mut rng);
        all.push(f);
    }
    let names = ["Anna", "Boris", "Vera"].map(str::to_owned);
    let mut record = Record::from_game(&game, &names).unwrap();
    for (i, f) in all.into_iter().enumerate() {
        record.set_fairness(i, f).unwrap();
    }
    record
}

/// Checks that the record file `name` is `record` (`PREF_BLESS=1` writes it) and returns
/// its text.
fn on_disk(name: &str, record: &Record) -> String {
    let text = record.to_json_string();
    let path = format!("{}/../../tests/records/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("PREF_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == text,
        "{path} is not what the generator makes: PREF_BLESS=1"
    );
    on_disk
}

#[test]
fn the_first_scheme_s_record_is_what_its_generator_makes_and_reads_back() {
    let record = fair_deals_under(|_| Scheme::V1, 19);
    let text = on_disk("fair-deals-v1.json", &record);
    let read = Record::from_json_str(&text).unwrap();
    assert_eq!(read, record);
    assert_eq!(read.fairness(0), Some(&example_under(Scheme::V1)));
    assert_eq!(read.fairness(3).map(Fairness::scheme), Some(Scheme::V1));
}

#[test]
fn the_fair_deals_record_is_what_its_generator_makes_and_reads_back() {
    let record = fair_deals();
    let on_disk = on_disk("fair-deals.json", &record);
    let read = Record::from_json_str(&on_disk).unwrap();
    assert_eq!(read, record);
    assert_eq!(read.fairness(0), Some(&example()));
    assert_eq!(read.fairness(4), None);
    // The reveal message's object is the record's, value for value.
    let doc: serde_json::Value = serde_json::from_str(&on_disk).unwrap();
    for (i, deal) in doc["deals"].as_array().unwrap().iter().enumerate() {
        let object: serde_json::Value =
            serde_json::from_str(&read.fairness(i).unwrap().to_json_string()).unwrap();
        assert_eq!(object, deal["fairness"], "deal {i}");
    }
    let RecordDeal::Played { hands, talon, .. } = &read.deals()[0] else {
        panic!("deal 0 is played");
    };
    let anna: Vec<String> = hands[0].iter().map(Card::to_string).collect();
    let mut expected: Vec<&str> = DECK.split(' ').take(10).collect();
    let mut anna: Vec<&str> = anna.iter().map(String::as_str).collect();
    anna.sort_unstable();
    expected.sort_unstable();
    assert_eq!(anna, expected, "Anna, first hand, holds cards 0–9");
    assert_eq!(talon.map(|c| c.to_string()), ["QC", "9D"]);
}

#[test]
fn an_older_record_reads_without_fairness_and_fairness_needs_a_played_deal() {
    let text = include_str!("../../../tests/records/spec-replay.json");
    let record = Record::from_json_str(text).unwrap();
    assert!((0..record.deals().len()).all(|i| record.fairness(i).is_none()));
    let mut record = record;
    let before = record.clone();
    let e = record.set_fairness(0, example()).unwrap_err();
    assert_eq!(
        (e.location, e.reason),
        (Location::Deal(0), Reason::Fairness(FairError::NotPlayed))
    );
    let past = record.deals().len();
    let e = record.set_fairness(past, example()).unwrap_err();
    assert_eq!(e.reason, Reason::Fairness(FairError::NoSuchDeal));
    assert_eq!(record, before, "a refused attachment changes nothing");
}

#[test]
fn fairness_for_other_cards_is_refused_at_its_deal() {
    let mut record = fair_deals();
    let before = record.clone();
    // Deal 1's fairness data does not deal deal 0's cards: first hand's hand differs first.
    let other = record.fairness(1).unwrap().clone();
    let e = record.set_fairness(0, other).unwrap_err();
    assert_eq!(record, before, "a refused attachment changes nothing");
    assert_eq!(
        (e.location, e.reason),
        (Location::Deal(0), Reason::Fairness(FairError::Hand(0)))
    );
}

#[test]
fn with_four_players_the_deck_skips_the_dealer() {
    // R11.1: the dealer (seat 1) sits out; first hand is seat 2, then seats 3 and 0.
    let mut game = Game::new(Profile::preset("sochi4").unwrap(), Seat(1)).unwrap();
    let f = example();
    game.start_deal(f.deck()).unwrap();
    play_out(&mut game, &mut SmallRng::seed_from_u64(4));
    let names = ["Anna", "Boris", "Vera", "Gleb"].map(str::to_owned);
    let mut record = Record::from_game(&game, &names).unwrap();
    record.set_fairness(0, f.clone()).unwrap();
    let RecordDeal::Played { hands, .. } = &record.deals()[0] else {
        panic!("deal 0 is played");
    };
    let cards = |h: &Vec<Card>| h.iter().copied().collect::<pref_core::CardSet>();
    let dealt = |from: usize| f.deck()[from..from + 10].iter().copied().collect();
    assert_eq!(hands[1].len(), 0);
    assert_eq!(
        [cards(&hands[2]), cards(&hands[3]), cards(&hands[0])],
        [dealt(0), dealt(10), dealt(20)]
    );
    let read = Record::from_json_str(&record.to_json_string()).unwrap();
    assert_eq!(read.fairness(0), Some(&f));
}

/// The record's deals as JSON, with `edit` applied, read back.
fn read_edited(
    record: &Record,
    edit: impl FnOnce(&mut Vec<serde_json::Value>),
) -> RecordReadResult {
    let mut doc: serde_json::Value = serde_json::from_str(&record.to_json_string()).unwrap();
    edit(doc["deals"].as_array_mut().unwrap());
    Record::from_json_str(&doc.to_string())
        .map(|_| ())
        .map_err(|e| (e.location, e.reason))
}

type RecordReadResult = Result<(), (Location, Reason)>;

#[test]
fn a_second_scheme_deal_moved_within_its_record_is_refused() {
    // Deals 0 and 3 have the same dealer (Vera): swapped whole, each still deals its own
    // hands, and under pref-fair/1 the record reads.
    let swap = |deals: &mut Vec<serde_json::Value>| deals.swap(0, 3);
    assert_eq!(
        read_edited(&fair_deals_under(|_| Scheme::V1, 19), swap),
        Ok(())
    );
    assert_eq!(
        read_edited(&fair_deals(), swap),
        Err((
            Location::Deal(0),
            Reason::Fairness(FairError::DealMoved { dealt: 3 })
        ))
    );
    // Renumbering the moved deal's fairness data breaks its seed commitment.
    let renumbered = |deals: &mut Vec<serde_json::Value>| {
        deals.swap(0, 3);
        deals[0]["fairness"]["deal"] = 0.into();
    };
    assert_eq!(
        read_edited(&fair_deals(), renumbered),
        Err((
            Location::Deal(0),
            Reason::Fairness(FairError::SeedCommitment)
        ))
    );
}

#[test]
fn a_second_scheme_deal_of_another_table_spliced_into_a_record_is_refused() {
    // Deal 2 of another table's game with the same seats and first dealer.
    fn elsewhere(deal: u32) -> Scheme {
        Scheme::V2(Place {
            table: TableTag::of("ffffffffffffffffffffffffffffffff"),
            deal,
        })
    }
    let other: serde_json::Value =
        serde_json::from_str(&fair_deals_under(elsewhere, FAIR_DEALS_RNG).to_json_string())
            .unwrap();
    let splice = |deals: &mut Vec<serde_json::Value>| deals[2] = other["deals"][2].clone();
    assert_eq!(
        read_edited(&fair_deals(), splice),
        Err((
            Location::Deal(2),
            Reason::Fairness(FairError::OtherTable { first: 0 })
        ))
    );
    // An older scheme's deal, which names no table, spliced after a pref-fair/2 deal.
    let v1: serde_json::Value =
        serde_json::from_str(&fair_deals_under(|_| Scheme::V1, 19).to_json_string()).unwrap();
    let downgrade = |deals: &mut Vec<serde_json::Value>| deals[3] = v1["deals"][3].clone();
    assert_eq!(
        read_edited(&fair_deals(), downgrade),
        Err((
            Location::Deal(3),
            Reason::Fairness(FairError::Downgrade { first: 0 })
        ))
    );
}
