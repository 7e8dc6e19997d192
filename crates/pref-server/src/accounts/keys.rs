//! What an account's secrets are made of, and what the database keeps of them.
//!
//! - **The password** is stretched by Argon2id (its costs are settings, stored beside each
//!   account so that they can be raised later) into 32 bytes; the database keeps only the
//!   SHA-256 of those bytes under one label (the *verifier*), never the bytes.
//! - **The account's key** (32 random bytes) seals the seat tokens the account holds, so that
//!   another device signed in to the account can be given them again. The database keeps
//!   the key only wrapped: XORed with the SHA-256 of the stretched password under a second
//!   label (the *vault*), and, for each session, XORed with the SHA-256 of the session's
//!   token under a third label. Neither the verifier nor the session's stored hash gives a
//!   wrapping, so a copy of the database opens no seat.
//! - **A session** is 32 random bytes, sent as the cookie; the database keeps its SHA-256
//!   under a fourth label.
//! - **A sealed seat token** is a random 16-byte nonce and the token XORed with the SHA-256 of
//!   the account's key and the nonce; the seat's stored token hash checks what comes out.

use argon2::{Algorithm, Argon2, Params, Version};
use rand::RngCore;
use rand::rngs::OsRng;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::ids::{Secret, TokenHash, hex};

/// Argon2id's costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cost {
    /// Memory in KiB.
    pub memory_kib: u32,
    /// Passes.
    pub iterations: u32,
    /// Lanes.
    pub lanes: u32,
}

impl Cost {
    /// As stored: `m=19456,t=2,p=1`.
    pub(crate) fn text(self) -> String {
        format!(
            "m={},t={},p={}",
            self.memory_kib, self.iterations, self.lanes
        )
    }

    /// Reads [`Cost::text`]'s form.
    pub(crate) fn parse(s: &str) -> Option<Cost> {
        let mut parts = s.split(',');
        let mut next = |key: &str| parts.next()?.strip_prefix(key)?.parse().ok();
        Some(Cost {
            memory_kib: next("m=")?,
            iterations: next("t=")?,
            lanes: next("p=")?,
        })
    }

    /// The costs Argon2 takes, raised to its least where they are below it.
    fn params(self) -> Params {
        let lanes = self.lanes.max(Params::MIN_P_COST);
        Params::new(
            self.memory_kib.max(8 * lanes),
            self.iterations.max(Params::MIN_T_COST),
            lanes,
            Some(32),
        )
        .unwrap_or_default()
    }
}

/// 32 bytes as 64 lower-case hex digits.
pub(crate) fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn labelled(label: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new().chain_update(label);
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

fn xor(a: &[u8; 32], b: &[u8; 32]) -> [u8; 32] {
    std::array::from_fn(|i| a[i] ^ b[i])
}

fn random<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    OsRng.fill_bytes(&mut b);
    b
}

/// An account's key: it seals the account's seat tokens. Printed redacted.
#[derive(Clone)]
pub(crate) struct Key([u8; 32]);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(…)")
    }
}

/// What the database keeps of a password: the salt, the costs, the verifier and the vault
/// (the account's key wrapped by the stretched password).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Locked {
    /// 16 random bytes, hex.
    pub salt: String,
    /// [`Cost::text`].
    pub cost: String,
    /// SHA-256 of the stretched password, hex.
    pub verifier: String,
    /// The account's key XOR a second hash of the stretched password, hex.
    pub vault: String,
}

/// Argon2id of `password` with `salt` (on the blocking pool: it is the slow part).
fn stretch(password: &str, salt: &[u8], cost: Cost) -> [u8; 32] {
    let mut out = [0u8; 32];
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, cost.params());
    if argon
        .hash_password_into(password.as_bytes(), salt, &mut out)
        .is_err()
    {
        // Only a salt or output of the wrong length fails, and both are fixed here.
        out = labelled(
            b"pref-account unreachable/1\0",
            &[password.as_bytes(), salt],
        );
    }
    out
}

fn lock_with(stretched: &[u8; 32], salt: [u8; 16], cost: Cost, key: &Key) -> Locked {
    Locked {
        salt: to_hex(&salt),
        cost: cost.text(),
        verifier: to_hex(&labelled(b"pref-account verify/1\0", &[stretched])),
        vault: to_hex(&xor(
            &key.0,
            &labelled(b"pref-account vault/1\0", &[stretched]),
        )),
    }
}

/// A new account's password locked with a fresh salt, and the account's new key.
pub(crate) fn new_account(password: &str, cost: Cost) -> (Locked, Key) {
    let key = Key(random());
    (relock(password, cost, &key), key)
}

/// `key` locked again under `password` (a new password), with a fresh salt.
pub(crate) fn relock(password: &str, cost: Cost, key: &Key) -> Locked {
    let salt = random::<16>();
    lock_with(&stretch(password, &salt, cost), salt, cost, key)
}

/// The account's key if `password` is its password; `None` otherwise, after the same work.
pub(crate) fn unlock(locked: &Locked, password: &str) -> Option<Key> {
    let salt: [u8; 16] = hex(&locked.salt)?;
    let cost = Cost::parse(&locked.cost)?;
    let verifier: [u8; 32] = hex(&locked.verifier)?;
    let vault: [u8; 32] = hex(&locked.vault)?;
    let stretched = stretch(password, &salt, cost);
    let mine = labelled(b"pref-account verify/1\0", &[&stretched]);
    bool::from(mine.ct_eq(&verifier)).then(|| {
        Key(xor(
            &vault,
            &labelled(b"pref-account vault/1\0", &[&stretched]),
        ))
    })
}

/// The work of a password check for a name no account has, so that a refusal takes as long
/// whether or not the name exists.
pub(crate) fn unlock_nobody(password: &str, cost: Cost) {
    let _ = stretch(password, b"pref-nobody-salt", cost);
}

/// A session's token: 32 random bytes, the cookie's value as 64 hex digits.
#[derive(Clone)]
pub(crate) struct SessionToken([u8; 32]);

impl std::fmt::Debug for SessionToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionToken(…)")
    }
}

impl SessionToken {
    /// A fresh token.
    pub(crate) fn random() -> SessionToken {
        SessionToken(random())
    }

    /// Reads the cookie's value.
    pub(crate) fn parse(s: &str) -> Option<SessionToken> {
        hex(s).map(SessionToken)
    }

    /// The cookie's value.
    pub(crate) fn expose(&self) -> String {
        to_hex(&self.0)
    }

    /// What the database keeps to find the session.
    pub(crate) fn stored(&self) -> String {
        to_hex(&labelled(b"pref-session id/1\0", &[&self.0]))
    }

    /// The account's key wrapped for this session (stored with it).
    pub(crate) fn wrap(&self, key: &Key) -> String {
        to_hex(&xor(&key.0, &self.pad()))
    }

    /// The account's key from the session's stored wrapping.
    pub(crate) fn unwrap(&self, wrapped: &str) -> Option<Key> {
        hex(wrapped).map(|w| Key(xor(&w, &self.pad())))
    }

    fn pad(&self) -> [u8; 32] {
        labelled(b"pref-session vault/1\0", &[&self.0])
    }
}

/// A bot account's API token (`docs/bot-api.md`): 32 random bytes, written
/// `prefbot_` and 64 hex digits. Like a session it finds its row by a labelled hash and
/// unwraps the account's key, so a bot's seats open with it. Printed redacted.
#[derive(Clone)]
pub(crate) struct ApiToken([u8; 32]);

impl std::fmt::Debug for ApiToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiToken(…)")
    }
}

impl ApiToken {
    /// A fresh token.
    pub(crate) fn random() -> ApiToken {
        ApiToken(random())
    }

    /// Reads a bearer: `prefbot_` and 64 hex digits.
    pub(crate) fn parse(s: &str) -> Option<ApiToken> {
        s.strip_prefix(pref_protocol::TOKEN_PREFIX)
            .and_then(hex)
            .map(ApiToken)
    }

    /// The bearer, shown once.
    pub(crate) fn expose(&self) -> String {
        format!("{}{}", pref_protocol::TOKEN_PREFIX, to_hex(&self.0))
    }

    /// What the database keeps to find the token.
    pub(crate) fn stored(&self) -> String {
        to_hex(&labelled(b"pref-bot-token id/1\0", &[&self.0]))
    }

    /// The account's key wrapped for this token (stored with it).
    pub(crate) fn wrap(&self, key: &Key) -> String {
        to_hex(&xor(&key.0, &self.pad()))
    }

    /// The account's key from the token's stored wrapping.
    pub(crate) fn unwrap(&self, wrapped: &str) -> Option<Key> {
        hex(wrapped).map(|w| Key(xor(&w, &self.pad())))
    }

    fn pad(&self) -> [u8; 32] {
        labelled(b"pref-bot-token vault/1\0", &[&self.0])
    }
}

/// `token` sealed under `key`: 16 bytes of nonce and the 16 of the token, hex.
pub(crate) fn seal(key: &Key, token: &Secret) -> String {
    let nonce = random::<16>();
    let Some(plain) = hex::<16>(&token.expose()) else {
        return String::new();
    };
    let pad = labelled(b"pref-seat seal/1\0", &[&key.0, &nonce]);
    let sealed: Vec<u8> = plain.iter().zip(pad).map(|(a, b)| a ^ b).collect();
    format!("{}{}", to_hex(&nonce), to_hex(&sealed))
}

/// The token [`seal`] sealed, if `hash` is its hash (a wrong key gives another token).
pub(crate) fn open_seal(key: &Key, sealed: &str, hash: &TokenHash) -> Option<Secret> {
    let (nonce, body) = (sealed.get(..32)?, sealed.get(32..)?);
    let nonce: [u8; 16] = hex(nonce)?;
    let body: [u8; 16] = hex(body)?;
    let pad = labelled(b"pref-seat seal/1\0", &[&key.0, &nonce]);
    let plain: [u8; 16] = std::array::from_fn(|i| body[i] ^ pad[i]);
    let token = Secret::parse(&to_hex(&plain))?;
    hash.verifies(&token).then_some(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHEAP: Cost = Cost {
        memory_kib: 8,
        iterations: 1,
        lanes: 1,
    };

    #[test]
    fn a_password_unlocks_its_key_and_another_does_not() {
        let (locked, key) = new_account("correct horse", CHEAP);
        let again = unlock(&locked, "correct horse").expect("the password unlocks");
        assert_eq!(again.0, key.0);
        assert!(unlock(&locked, "correct horsE").is_none());
        // The stored form holds neither the key nor the stretched password.
        assert_ne!(locked.vault, to_hex(&key.0));
        assert_ne!(locked.verifier, locked.vault);
        let changed = relock("battery staple", CHEAP, &key);
        assert_ne!(changed.salt, locked.salt);
        assert_eq!(unlock(&changed, "battery staple").unwrap().0, key.0);
        assert!(unlock(&changed, "correct horse").is_none());
        assert_eq!(Cost::parse(&CHEAP.text()), Some(CHEAP));
    }

    #[test]
    fn a_session_wraps_the_key_and_a_seal_opens_only_with_it() {
        let (_, key) = new_account("pw", CHEAP);
        let session = SessionToken::random();
        let wrapped = session.wrap(&key);
        assert_ne!(wrapped, session.stored());
        let unwrapped = session.unwrap(&wrapped).unwrap();
        let token = Secret::random();
        let hash = TokenHash::of(&token);
        let sealed = seal(&unwrapped, &token);
        assert!(open_seal(&key, &sealed, &hash).unwrap().matches(&token));
        let other = SessionToken::random().unwrap(&wrapped).unwrap();
        assert!(open_seal(&other, &sealed, &hash).is_none(), "a wrong key");
        assert!(open_seal(&key, &sealed[..40], &hash).is_none());
        assert!(format!("{key:?}{session:?}").contains("…"));
    }

    #[test]
    fn an_api_token_reads_back_and_opens_the_key_as_a_session_does() {
        let (_, key) = new_account("pw", CHEAP);
        let token = ApiToken::random();
        let text = token.expose();
        assert!(text.starts_with("prefbot_") && text.len() == 8 + 64);
        let again = ApiToken::parse(&text).expect("reads back");
        assert_eq!(again.stored(), token.stored());
        assert_ne!(
            token.stored(),
            SessionToken(token.0).stored(),
            "its own label"
        );
        assert_eq!(again.unwrap(&token.wrap(&key)).unwrap().0, key.0);
        assert!(
            ApiToken::parse(&text[8..]).is_none(),
            "the prefix is required"
        );
        assert!(ApiToken::parse(&text[..40]).is_none());
        assert!(format!("{token:?}").contains("…"));
    }
}
