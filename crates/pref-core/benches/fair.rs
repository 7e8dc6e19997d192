//! The cost of a provably fair deal (`docs/fairness.md`): the server's shuffle with its two
//! commitments for four contributions, and reading back a record whose deals carry fairness
//! data (every deck recomputed and checked, every deal replayed), beside the same record
//! without it.
//!
//! `cargo bench -p pref-core --bench fair` prints the time per shuffle and per record.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use pref_core::fair::{Arrival, Contribution, Place, Scheme, Seed, Shuffle, TableTag};
use pref_core::{Record, Seat};

fn fair(c: &mut Criterion) {
    c.bench_function("fair_shuffle_four_contributions", |b| {
        let mut n = 0u8;
        b.iter(|| {
            n = n.wrapping_add(1);
            let place = Place {
                table: TableTag::from_bytes([7; 32]),
                deal: u32::from(n),
            };
            let mut s = Shuffle::new(Scheme::V2(place), Seed::from_bytes([n; 32]));
            for seat in 0..4 {
                let value = Contribution::from_bytes([seat ^ n; 32]);
                s.contribute(Seat(seat), value, Arrival::InTime)
                    .expect("each seat once");
            }
            s.finish()
        });
    });
    let text = include_str!("../../../tests/records/fair-deals.json");
    c.bench_function("read_fair_deals_record", |b| {
        b.iter(|| Record::from_json_str(text).expect("the record reads"));
    });
    // The same record without its fairness objects: the difference is the checking.
    let mut doc: serde_json::Value = serde_json::from_str(text).expect("the record is JSON");
    for deal in doc["deals"].as_array_mut().expect("deals") {
        deal.as_object_mut().expect("a deal").remove("fairness");
    }
    let plain = doc.to_string();
    c.bench_function("read_same_record_without_fairness", |b| {
        b.iter(|| Record::from_json_str(&plain).expect("the record reads"));
    });
}

criterion_group!(benches, fair);
criterion_main!(benches);
