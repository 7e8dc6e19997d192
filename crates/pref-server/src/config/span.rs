//! Spans of time in the settings. The file and the variables write a whole number in the
//! unit the key names (`cluster.lease_ms`, `limits.idle_timeout_secs`,
//! `limits.keeper_expire_days`); the server reads a [`Duration`]. One type per unit, so a
//! value is never read in another unit than the one it was written in.

use std::time::Duration;

use serde::Deserialize;

macro_rules! span {
    ($(#[$doc:meta])* $name:ident, $to:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub u64);

        impl $name {
            /// The span as a duration.
            #[must_use]
            pub const fn duration(self) -> Duration {
                $to(self.0)
            }

            /// The span, but never shorter than `least` (a zero timer would fire at once).
            #[must_use]
            pub fn at_least(self, least: Duration) -> Duration {
                self.duration().max(least)
            }

            /// The span in whole seconds, for the database's clocks (saturating).
            #[must_use]
            pub fn as_secs_i64(self) -> i64 {
                i64::try_from(self.duration().as_secs()).unwrap_or(i64::MAX)
            }
        }
    };
}

/// `n` days, saturating.
const fn days(n: u64) -> Duration {
    Duration::from_secs(n.saturating_mul(86_400))
}

span!(
    /// Milliseconds (`…_ms` keys).
    Millis,
    Duration::from_millis
);
span!(
    /// Seconds (`…_secs` keys).
    Secs,
    Duration::from_secs
);
span!(
    /// Days (`…_days` keys).
    Days,
    days
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_unit_reads_as_its_duration() {
        assert_eq!(Millis(1500).duration(), Duration::from_millis(1500));
        assert_eq!(Secs(60).duration(), Duration::from_secs(60));
        assert_eq!(Days(2).duration(), Duration::from_secs(2 * 86_400));
        assert_eq!(Days(2).as_secs_i64(), 172_800);
        assert_eq!(
            Millis(0).at_least(Duration::from_millis(1)),
            Duration::from_millis(1)
        );
        assert_eq!(Days(u64::MAX).duration(), Duration::from_secs(u64::MAX));
        assert_eq!(Days(u64::MAX).as_secs_i64(), i64::MAX);
    }

    #[test]
    fn the_file_writes_a_bare_number() {
        #[derive(Deserialize)]
        struct S {
            lease_ms: Millis,
        }
        let s: S = toml::from_str("lease_ms = 250").unwrap();
        assert_eq!(s.lease_ms, Millis(250));
        assert!(toml::from_str::<S>("lease_ms = \"250ms\"").is_err());
    }
}
