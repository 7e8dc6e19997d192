//! The `[security]` settings: the WebSocket upgrade's Origin policy and the proxies whose
//! `X-Forwarded-For` is believed (`api/client.rs` reads them).

use std::net::IpAddr;
use std::str::FromStr;

use ipnet::IpNet;
use serde::Deserialize;

/// The WebSocket upgrade's Origin policy (`docs/security.md`). Browsers send `Origin` with
/// every upgrade; a request without one is not from a page and passes.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Security {
    /// Whether a page served by this host (its `Origin` names the `Host` asked for) may
    /// connect.
    pub same_origin: bool,
    /// Further origins allowed, exactly as browsers send them (`https://pref.example`);
    /// `"*"` allows any page.
    pub allowed_origins: Vec<String>,
    /// The proxies whose `X-Forwarded-For` is believed: addresses or blocks
    /// (`172.28.0.10`, `10.0.0.0/8`); none by default (`client.rs`).
    pub trusted_proxies: Vec<Proxy>,
}

impl Default for Security {
    fn default() -> Security {
        Security {
            same_origin: true,
            allowed_origins: Vec::new(),
            trusted_proxies: Vec::new(),
        }
    }
}

/// One trusted proxy: an address (`172.28.0.10`) or a block of them (`10.0.0.0/8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proxy(IpNet);

impl Proxy {
    /// Whether `ip` is this proxy, or in its block.
    #[must_use]
    pub fn holds(self, ip: IpAddr) -> bool {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            IpAddr::V4(_) => ip,
        };
        self.0.contains(&ip)
    }
}

/// A setting that is neither an address nor a block of addresses.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is neither an IP address nor a block such as 10.0.0.0/8")]
pub struct BadProxy(pub String);

impl FromStr for Proxy {
    type Err = BadProxy;

    fn from_str(s: &str) -> Result<Proxy, BadProxy> {
        let s = s.trim();
        s.parse::<IpNet>()
            .or_else(|_| s.parse::<IpAddr>().map(IpNet::from))
            .map(|net| Proxy(net.trunc()))
            .map_err(|_| BadProxy(s.to_owned()))
    }
}

impl<'de> Deserialize<'de> for Proxy {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Proxy, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}
