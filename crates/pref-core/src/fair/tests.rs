//! The fair deal's values, deck and checks.

use super::*;
use crate::bid::Seat;

#[test]
fn hex_has_one_spelling() {
    let d = Digest::from_bytes(std::array::from_fn(|i| i as u8 * 8));
    let text = d.to_string();
    assert_eq!(&text[..8], "00081018");
    assert_eq!(text.parse::<Digest>(), Ok(d));
    assert!(text.to_uppercase().parse::<Digest>().is_err());
    assert!(text[..62].parse::<Digest>().is_err());
    assert!(format!("{text}0").parse::<Digest>().is_err());
    assert!(format!("0x{}", &text[2..]).parse::<Digest>().is_err());
}

#[test]
fn the_seed_is_not_in_its_debug_form() {
    let seed = Seed::from_bytes([0xab; 32]);
    assert!(!format!("{:?}", Shuffle::new(Scheme::V1, seed)).contains("abab"));
}

#[test]
fn below_is_uniform_at_the_edge_of_the_word() {
    // For n = 3 the largest multiple of 3 at most 2^32 is 2^32 - 1: the word u32::MAX
    // would favour remainder 0 and is skipped.
    let limit = |n: u32| u32::MAX - (u32::MAX % n + 1) % n;
    assert_eq!(limit(3), u32::MAX - 1);
    assert_eq!(limit(32), u32::MAX);
    assert_eq!(limit(2), u32::MAX);
    assert_eq!(u64::from(limit(31)) + 1, (1u64 << 32) - (1u64 << 32) % 31);
}

#[test]
fn a_seat_contributes_once() {
    let mut s = Shuffle::new(Scheme::V1, Seed::from_bytes([1; 32]));
    let c = Contribution::from_bytes([2; 32]);
    s.contribute(Seat(2), c, Arrival::InTime).unwrap();
    s.contribute(Seat(0), c, Arrival::Late).unwrap();
    let e = s.contribute(Seat(2), c, Arrival::Late);
    assert_eq!(e, Err(FairError::RepeatedSeat(2)));
    let f = s.finish();
    assert_eq!(f.in_deck().collect::<Vec<_>>(), [Seat(2)]);
    assert_eq!(f.late().collect::<Vec<_>>(), [Seat(0)]);
}
