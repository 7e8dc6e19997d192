//! The run's latency histogram in microseconds: an HDR histogram (`hdrhistogram`) with three
//! significant digits (0.1 %), so a worker records every action in constant time and sends
//! its counts to the parent, which merges them.
//!
//! Quantiles answer the highest value of their bucket, at most the largest value recorded,
//! so they never flatter. On the wire a histogram is its non-empty buckets as
//! `[value, count]` pairs with the exact maximum.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Significant decimal digits kept.
const DIGITS: u8 = 3;
/// The largest latency kept apart, in µs (an hour); longer ones count as an hour.
const HIGHEST: u64 = 3_600_000_000;

/// Counts of latencies in microseconds.
#[derive(Clone, Debug)]
pub struct Histogram {
    /// The counts.
    hdr: hdrhistogram::Histogram<u64>,
    /// Largest value recorded, exact (the histogram keeps its bucket's).
    max: u64,
}

impl Default for Histogram {
    fn default() -> Histogram {
        Histogram {
            hdr: hdrhistogram::Histogram::new_with_bounds(1, HIGHEST, DIGITS)
                .expect("constant bounds are valid"),
            max: 0,
        }
    }
}

impl Histogram {
    /// Records one value.
    pub fn record(&mut self, micros: u64) {
        self.hdr.saturating_record(micros);
        self.max = self.max.max(micros);
    }

    /// Adds another histogram's counts.
    pub fn merge(&mut self, other: &Histogram) {
        for v in other.hdr.iter_recorded() {
            self.hdr
                .saturating_record_n(v.value_iterated_to(), v.count_at_value());
        }
        self.max = self.max.max(other.max);
    }

    /// Values recorded.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.hdr.len()
    }

    /// Whether nothing was recorded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.hdr.is_empty()
    }

    /// The largest value.
    #[must_use]
    pub fn max(&self) -> u64 {
        self.max
    }

    /// The value at quantile `q` (0..=1), as the highest value of its bucket, at most the
    /// max.
    #[must_use]
    pub fn quantile(&self, q: f64) -> u64 {
        if self.is_empty() {
            return 0;
        }
        self.hdr.value_at_quantile(q).min(self.max)
    }
}

/// A histogram as it travels from a worker to the parent.
#[derive(Serialize, Deserialize)]
struct Wire {
    /// Each non-empty bucket's highest value and count.
    buckets: Vec<(u64, u64)>,
    /// The exact maximum.
    max: u64,
}

impl Serialize for Histogram {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Wire {
            buckets: self
                .hdr
                .iter_recorded()
                .map(|v| (v.value_iterated_to(), v.count_at_value()))
                .collect(),
            max: self.max,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Histogram {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Histogram, D::Error> {
        let wire = Wire::deserialize(d)?;
        let mut h = Histogram::default();
        for (value, count) in wire.buckets {
            h.hdr.saturating_record_n(value, count);
        }
        h.max = wire.max;
        Ok(h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_stay_within_a_thousandth_above_the_value() {
        for v in [
            0, 1, 1023, 1024, 1025, 2047, 2048, 5_000, 20_000, 1_000_000, 60_000_000,
        ] {
            let mut h = Histogram::default();
            h.record(v);
            h.record(v.saturating_mul(2));
            let q = h.quantile(0.5);
            assert!(q >= v, "{v} above its bucket's edge {q}");
            assert!(q as f64 <= v as f64 * 1.001 + 1.0, "{v} → {q}");
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

    #[test]
    fn a_histogram_sent_to_the_parent_reads_back_the_same() {
        let mut a = Histogram::default();
        for v in [3, 3, 700, 12_345, 987_654] {
            a.record(v);
        }
        let text = serde_json::to_string(&a).unwrap();
        let b: Histogram = serde_json::from_str(&text).unwrap();
        assert_eq!(b.len(), 5);
        assert_eq!(b.max(), 987_654);
        for q in [0.0, 0.2, 0.5, 0.7, 0.9, 1.0] {
            assert_eq!(a.quantile(q), b.quantile(q), "quantile {q}");
        }
    }
}
