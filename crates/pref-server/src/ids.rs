//! Table ids and tokens: 128 random bits from the operating system, shown as 32 hex digits.
//!
//! A [`Secret`] compares in constant time and prints as `Secret(…)` in `Debug`, so a token can
//! neither be guessed by timing nor leak into a log line by accident. Table ids are secrets
//! too: whoever has the link may watch, so the id is as good as an invitation.

use std::fmt;

use rand::RngCore;
use rand::rngs::OsRng;
use subtle::ConstantTimeEq;

/// 128 random bits: a table id, a host token or a seat token.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Secret([u8; 16]);

impl Secret {
    /// A fresh secret from the operating system's CSPRNG.
    #[must_use]
    pub fn random() -> Secret {
        let mut b = [0u8; 16];
        OsRng.fill_bytes(&mut b);
        Secret(b)
    }

    /// Reads 32 hex digits; anything else is `None`.
    #[must_use]
    pub fn parse(s: &str) -> Option<Secret> {
        let s = s.as_bytes();
        if s.len() != 32 {
            return None;
        }
        let mut b = [0u8; 16];
        for (i, pair) in s.chunks(2).enumerate() {
            let hi = (pair[0] as char).to_digit(16)?;
            let lo = (pair[1] as char).to_digit(16)?;
            b[i] = (hi * 16 + lo) as u8;
        }
        Some(Secret(b))
    }

    /// Whether `other` is this secret, in time independent of where they differ.
    #[must_use]
    pub fn matches(&self, other: &Secret) -> bool {
        self.0.ct_eq(&other.0).into()
    }

    /// The 32 hex digits (for the client that owns it and for the database, never for logs).
    #[must_use]
    pub fn expose(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_redacts() {
        let s = Secret::random();
        let hex = s.expose();
        assert_eq!(hex.len(), 32);
        assert!(Secret::parse(&hex).unwrap().matches(&s));
        assert!(!Secret::random().matches(&s));
        assert_eq!(format!("{s:?}"), "Secret(…)");
        assert!(Secret::parse("xyz").is_none());
        assert!(Secret::parse(&"g".repeat(32)).is_none());
    }
}
