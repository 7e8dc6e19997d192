//! Random legal deals from the shuffled deck to the last trick.
#![allow(missing_docs)]
use criterion::{Criterion, criterion_group, criterion_main};
fn deals(_c: &mut Criterion) {}
criterion_group!(benches, deals);
criterion_main!(benches);
