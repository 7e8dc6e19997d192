//! A latency histogram in microseconds with about 1.6 % precision and a fixed size, so a
//! worker can record every action without allocating and send its counts to the parent.
//!
//! Values below 1,024 µs have a bucket each; above that every power of two is split into 64
//! buckets. Quantiles answer the upper edge of their bucket, so they never flatter.

use serde::{Deserialize, Serialize};

/// Sub-buckets per power of two above the exact range.
const SUB: u64 = 64;
/// Values below this are counted exactly.
const EXACT: u64 = 1024;
/// Powers of two covered above the exact range (up to about 2^(10+30) µs).
const OCTAVES: usize = 30;
/// Total buckets.
const BUCKETS: usize = EXACT as usize + OCTAVES * SUB as usize;

/// Counts of latencies in microseconds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Histogram {
    /// Count per bucket; sparse (index, count) pairs when serialized would be smaller, but
    /// a worker sends one of these once per run.
    counts: Vec<u64>,
    /// Largest value recorded, exact.
    max: u64,
    /// Values recorded.
    total: u64,
}

impl Default for Histogram {
    fn default() -> Histogram {
        Histogram {
            counts: vec![0; BUCKETS],
            max: 0,
            total: 0,
        }
    }
}

fn bucket(v: u64) -> usize {
    if v < EXACT {
        return v as usize;
    }
    let octave = u64::from(63 - v.leading_zeros()) - 10;
    let sub = (v >> (octave + 4)) - SUB;
    (EXACT + octave * SUB + sub).min(BUCKETS as u64 - 1) as usize
}

fn upper(i: usize) -> u64 {
    let i = i as u64;
    if i < EXACT {
        return i;
    }
    let octave = (i - EXACT) / SUB;
    let sub = (i - EXACT) % SUB;
    ((SUB + sub + 1) << (octave + 4)) - 1
}

impl Histogram {
    /// Records one value.
    pub fn record(&mut self, micros: u64) {
        self.counts[bucket(micros)] += 1;
        self.max = self.max.max(micros);
        self.total += 1;
    }

    /// Adds another histogram's counts.
    pub fn merge(&mut self, other: &Histogram) {
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
        self.max = self.max.max(other.max);
        self.total += other.total;
    }

    /// Values recorded.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.total
    }

    /// Whether nothing was recorded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The largest value.
    #[must_use]
    pub fn max(&self) -> u64 {
        self.max
    }

    /// The value at quantile `q` (0..=1), as the upper edge of its bucket, at most the max.
    #[must_use]
    pub fn quantile(&self, q: f64) -> u64 {
        if self.total == 0 {
            return 0;
        }
        let rank = ((q * self.total as f64).ceil() as u64).clamp(1, self.total);
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return upper(i).min(self.max);
            }
        }
        self.max
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_cover_their_values_within_two_percent() {
        for v in [
            0, 1, 1023, 1024, 1025, 2047, 2048, 5_000, 20_000, 1_000_000, 60_000_000,
        ] {
            let b = bucket(v);
            assert!(upper(b) >= v, "{v} above its bucket's edge {}", upper(b));
            if b > 0 {
                assert!(upper(b - 1) < v, "{v} belongs lower");
            }
            assert!(
                upper(b) as f64 <= v as f64 * 1.02 + 1.0,
                "{v} → {}",
                upper(b)
            );
        }
    }

    #[test]
    fn quantiles_and_merge() {
        let mut a = Histogram::default();
        for v in 1..=100 {
            a.record(v);
        }
        let mut b = Histogram::default();
        b.record(50_000);
        a.merge(&b);
        assert_eq!(a.len(), 101);
        assert_eq!(a.quantile(0.5), 51);
        assert_eq!(a.quantile(0.99), 100);
        assert_eq!(a.quantile(1.0), 50_000);
        assert_eq!(a.max(), 50_000);
    }
}
