//! Table ids and tokens: 128 random bits from the operating system, shown as 32 hex digits.
//! A new table's id is a random (version 4) UUID made by the `uuid` crate, written in its
//! 32-digit form; its hyphenated form names the same table, and the ids of tables made
//! before (128 random bits, not UUIDs) keep working.
//!
//! A [`Secret`] compares in constant time and prints as `Secret(…)` in `Debug`, so a token can
//! neither be guessed by timing nor leak into a log line by accident. Table ids are secrets
//! too: whoever has the link may watch, so the id is as good as an invitation.
//!
//! Tokens are kept only as their [`TokenHash`] (SHA-256 of the 16 bytes), in memory and in
//! the database: a copy of the database, or of a table's memory, does not let anyone act as
//! a player or host. 128 random bits need no salt or slow hash: they cannot be guessed.

use std::fmt;

use rand::RngCore;
use rand::rngs::OsRng;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use uuid::Uuid;

/// `N` bytes written as exactly `2 * N` hex digits; anything else is `None`.
pub(crate) fn hex<const N: usize>(s: &str) -> Option<[u8; N]> {
    let s = s.as_bytes();
    if s.len() != 2 * N {
        return None;
    }
    let mut b = [0u8; N];
    for (i, pair) in s.chunks(2).enumerate() {
        let hi = (pair[0] as char).to_digit(16)?;
        let lo = (pair[1] as char).to_digit(16)?;
        b[i] = (hi * 16 + lo) as u8;
    }
    Some(b)
}

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

    /// A fresh table id: a random (version 4) UUID, from the operating system's CSPRNG.
    #[must_use]
    pub fn table_id() -> Secret {
        Secret(Uuid::new_v4().into_bytes())
    }

    /// Reads 32 hex digits, or a hyphenated UUID (`8-4-4-4-12` hex digits); anything else
    /// is `None`.
    #[must_use]
    pub fn parse(s: &str) -> Option<Secret> {
        if s.len() == 36 {
            return Uuid::try_parse(s).ok().map(|u| Secret(u.into_bytes()));
        }
        hex(s).map(Secret)
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

    /// The table's invite key, when this is its host token: whoever holds the key may take
    /// a seat in the lobby; the table id alone (the watch link) may only watch. It is made
    /// from the token itself (SHA-256 of a label and the 16 bytes, cut to 128 bits), so the
    /// host's page can always be given it again, while the server stores only the key's own
    /// hash beside the token's: neither hash gives the key, so a copy of the database does
    /// not seat anyone.
    #[must_use]
    pub fn invite_key(&self) -> Secret {
        let d = Sha256::new()
            .chain_update(b"pref invite/2\0")
            .chain_update(self.0)
            .finalize();
        let mut b = [0u8; 16];
        b.copy_from_slice(&d[..16]);
        Secret(b)
    }
}

/// A fixed invite key for the machine's unit tests, which build tables without a host
/// token's key.
#[cfg(test)]
pub(crate) const TEST_INVITE: Secret = Secret([0x11; 16]);

/// The SHA-256 of a token's 16 bytes: what the server keeps of a host or seat token.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TokenHash([u8; 32]);

impl TokenHash {
    /// The hash of `token`.
    #[must_use]
    pub fn of(token: &Secret) -> TokenHash {
        TokenHash(Sha256::digest(token.0).into())
    }

    /// Whether `token` hashes to this, in time independent of where they differ.
    #[must_use]
    pub fn verifies(&self, token: &Secret) -> bool {
        self.matches(&TokenHash::of(token))
    }

    /// Whether `other` is this hash, in time independent of where they differ.
    #[must_use]
    pub fn matches(&self, other: &TokenHash) -> bool {
        self.0.ct_eq(&other.0).into()
    }

    /// Reads a stored token: 64 hex digits are a hash; 32 hex digits are a token stored in
    /// plain text before tokens were hashed, and are hashed here. Anything else is `None`.
    #[must_use]
    pub fn read_stored(s: &str) -> Option<TokenHash> {
        if s.len() == 32 {
            return Secret::parse(s).map(|t| TokenHash::of(&t));
        }
        hex(s).map(TokenHash)
    }

    /// The invite key of a table stored before the key had a column of its own, when this
    /// is its host token's hash: it was made from the hash, so a copy of the database gives
    /// it. Such a table keeps this key (its links keep working); a table opened since has
    /// [`Secret::invite_key`], made from the token.
    #[must_use]
    pub fn legacy_invite_key(&self) -> Secret {
        let d = Sha256::new()
            .chain_update(b"pref invite\0")
            .chain_update(self.0)
            .finalize();
        let mut b = [0u8; 16];
        b.copy_from_slice(&d[..16]);
        Secret(b)
    }

    /// The 64 hex digits, as stored.
    #[must_use]
    pub fn expose(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl From<Secret> for TokenHash {
    fn from(token: Secret) -> TokenHash {
        TokenHash::of(&token)
    }
}

impl fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenHash(…)")
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

    #[test]
    fn a_token_is_kept_as_its_sha256_and_a_plain_stored_token_still_verifies() {
        let t = Secret::parse("000102030405060708090a0b0c0d0e0f").unwrap();
        let h = TokenHash::of(&t);
        // SHA-256 of the bytes 00..0f.
        assert_eq!(
            h.expose(),
            "be45cb2605bf36bebde684841a28f0fd43c69850a3dce5fedba69928ee3a8991"
        );
        assert!(h.verifies(&t));
        assert!(!h.verifies(&Secret::random()));
        // A hash as stored reads back as itself; a plain token stored before reads as its hash.
        assert!(TokenHash::read_stored(&h.expose()).unwrap().matches(&h));
        assert!(TokenHash::read_stored(&t.expose()).unwrap().matches(&h));
        assert!(TokenHash::read_stored("xyz").is_none());
        assert!(TokenHash::read_stored(&"g".repeat(64)).is_none());
        assert_eq!(format!("{h:?}"), "TokenHash(…)");
    }

    #[test]
    fn table_ids_are_uuid_v4_and_read_in_both_forms() {
        let id = Secret::table_id();
        let uuid = Uuid::from_bytes(id.0);
        assert_eq!(uuid.get_version(), Some(uuid::Version::Random));
        assert_eq!(uuid.get_variant(), uuid::Variant::RFC4122);
        assert_eq!(id.expose(), uuid.simple().to_string());
        let hyphenated = uuid.hyphenated().to_string();
        assert!(Secret::parse(&hyphenated).unwrap().matches(&id));
        assert!(Secret::parse(&id.expose()).unwrap().matches(&id));
        // An id made before (version nibble 0: not a UUID v4) still reads in both forms.
        let old = Secret::parse("0123456789abcdef0123456789abcdef").unwrap();
        assert_eq!(old.expose(), "0123456789abcdef0123456789abcdef");
        assert!(
            Secret::parse("01234567-89ab-cdef-0123-456789abcdef")
                .unwrap()
                .matches(&old)
        );
        assert!(Secret::parse("01234567-89ab-cdef-0123-456789abcdeg").is_none());
        assert!(Secret::parse("0123456789abcdef0123456789abcdefabcd").is_none());
    }

    #[test]
    fn a_token_in_upper_case_or_hyphenated_is_the_same_token_and_other_forms_are_refused() {
        let token = Secret::random();
        let lower = token.expose();
        let upper = lower.to_ascii_uppercase();
        let hyphenated = Uuid::from_bytes(token.0).hyphenated().to_string();
        for form in [&upper, &hyphenated, &hyphenated.to_ascii_uppercase()] {
            assert!(Secret::parse(form).unwrap().matches(&token), "{form}");
            // The hash it is checked by is the one of the token itself.
            assert!(TokenHash::of(&Secret::parse(form).unwrap()).matches(&TokenHash::of(&token)));
        }
        // Written back, always 32 lower-case digits.
        assert_eq!(Secret::parse(&upper).unwrap().expose(), lower);
        // Hyphens elsewhere, braces, a URN, spaces, a sign: refused.
        let moved = format!("{}-{}", &lower[..9], &lower[9..]);
        let moved = format!(
            "{}-{}-{}-{}",
            &moved[..14],
            &moved[14..18],
            &moved[18..22],
            &moved[22..]
        );
        for bad in [
            moved,
            format!("{{{hyphenated}}}"),
            format!("urn:uuid:{hyphenated}"),
            format!(" {}", &lower[1..]),
            format!("+{}", &lower[1..]),
        ] {
            assert!(Secret::parse(&bad).is_none(), "{bad}");
        }
    }
}
