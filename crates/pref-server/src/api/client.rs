//! Who a request comes from, as the node computes it: the one key every per-client budget
//! and cap counts under (`budgets.rs`, `conns.rs`).
//!
//! The key is the TCP peer's address, unless the peer is one of the trusted proxies
//! (`security.trusted_proxies`): then it is the rightmost address of `X-Forwarded-For` that
//! is not a trusted proxy (a client can write anything to the left of what its proxy
//! appended, never to the right). An IPv6 client is keyed by its /64, the block one
//! subscriber is given, so that a client cannot buy fresh budgets with the addresses of its
//! own block; an IPv4-mapped IPv6 address is its IPv4 address. In a cluster the node that
//! forwards a request passes the key it computed in [`CLIENT`], and the owner believes it
//! only from a request that carries the cluster's secret ([`FORWARDED`]), so
//! the owner's budgets count the real client, not the forwarding node.
//!
//! [`identify`] computes the key once per request, before the request is forwarded or
//! served, and [`Client`] hands it to a handler.

use std::convert::Infallible;
use std::fmt;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};

use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

use crate::config::Proxy;

/// The header in which a forwarding node names the client it forwards for.
pub(crate) const CLIENT: &str = "x-pref-client";

/// The key of one client: an IPv4 address, or an IPv6 address cut to its /64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey(IpAddr);

impl ClientKey {
    /// The key of a client at `ip`: IPv4-mapped IPv6 as IPv4, other IPv6 by its /64.
    #[must_use]
    pub fn of(ip: IpAddr) -> ClientKey {
        match ip {
            IpAddr::V4(v4) => ClientKey(IpAddr::V4(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => ClientKey(IpAddr::V4(v4)),
                None => {
                    let block = u128::from(v6) & !((1u128 << 64) - 1);
                    ClientKey(IpAddr::V6(Ipv6Addr::from(block)))
                }
            },
        }
    }

    /// The address the key stands for (an IPv6 block by its first address).
    #[must_use]
    pub fn ip(self) -> IpAddr {
        self.0
    }
}

impl fmt::Display for ClientKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Marks a request one node forwarded to another (`cluster/proxy.rs`); its value is the cluster's secret.
pub(crate) const FORWARDED: &str = "x-pref-forwarded";

/// Whether `mark`, the value of [`FORWARDED`], is `secret` (compared in constant time).
#[must_use]
pub(crate) fn carries(secret: &str, mark: &HeaderValue) -> bool {
    use subtle::ConstantTimeEq;
    bool::from(secret.as_bytes().ct_eq(mark.as_bytes()))
}

/// What [`identify`] needs: the trusted proxies and the cluster's secret.
#[derive(Clone, Debug, Default)]
pub(crate) struct Identify {
    /// `security.trusted_proxies`.
    pub proxies: Arc<[Proxy]>,
    /// `cluster.secret`: only a request carrying it may name its client in [`CLIENT`].
    pub secret: Option<String>,
}

impl Identify {
    /// The key of the client of a request from `peer` with `headers`.
    #[must_use]
    pub(crate) fn key(&self, peer: IpAddr, headers: &HeaderMap) -> ClientKey {
        if self.sent_by_a_node(headers)
            && let Some(named) = headers
                .get(CLIENT)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<IpAddr>().ok())
        {
            return ClientKey::of(named);
        }
        ClientKey::of(self.forwarded_for(peer, headers))
    }

    /// Whether the request carries the cluster's secret (none set: never).
    fn sent_by_a_node(&self, headers: &HeaderMap) -> bool {
        match (&self.secret, headers.get(FORWARDED)) {
            (Some(secret), Some(mark)) => carries(secret, mark),
            _ => false,
        }
    }

    fn trusted(&self, ip: IpAddr) -> bool {
        self.proxies.iter().any(|p| p.holds(ip))
    }

    /// `peer`, or when it is a trusted proxy the rightmost untrusted address it was
    /// forwarded for. A hop that does not read stops the walk at the last one that did.
    fn forwarded_for(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let mut client = peer;
        if !self.trusted(peer) {
            return client;
        }
        let hops: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .collect();
        for hop in hops.iter().rev() {
            let Some(ip) = parse_hop(hop) else {
                return client;
            };
            client = ip;
            if !self.trusted(ip) {
                return client;
            }
        }
        client
    }
}

/// One hop of `X-Forwarded-For`: an address, perhaps with a port (`1.2.3.4:5`, `[::1]:5`).
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    hop.parse::<IpAddr>()
        .ok()
        .or_else(|| hop.parse::<SocketAddr>().ok().map(|s| s.ip()))
}

/// Middleware: computes the request's [`ClientKey`] from its peer (when the server gave
/// one) and keeps it in the request's extensions for [`Client`] and the forwarding.
pub(crate) async fn identify(
    State(how): State<Identify>,
    mut req: Request,
    next: Next,
) -> Response {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip());
    if let Some(peer) = peer {
        let key = how.key(peer, req.headers());
        req.extensions_mut().insert(key);
    }
    next.run(req).await
}

/// Extractor: the request's client, as [`identify`] computed it; `None` only where the
/// router is driven without a server (its own tests), whose requests no budget counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Client(pub Option<ClientKey>);

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Client, Infallible> {
        Ok(Client(parts.extensions.get::<ClientKey>().copied()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::BadProxy;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.append(*name, value.parse().unwrap());
        }
        h
    }

    fn behind(proxies: &[&str], secret: Option<&str>) -> Identify {
        Identify {
            proxies: proxies.iter().map(|p| p.parse().unwrap()).collect(),
            secret: secret.map(str::to_owned),
        }
    }

    #[test]
    fn ipv6_is_keyed_by_its_64_and_mapped_ipv4_as_ipv4() {
        assert_eq!(
            ClientKey::of(ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd")),
            ClientKey::of(ip("2001:db8:1:2::1"))
        );
        assert_eq!(
            ClientKey::of(ip("2001:db8:1:2::1")).to_string(),
            "2001:db8:1:2::"
        );
        assert_ne!(
            ClientKey::of(ip("2001:db8:1:2::1")),
            ClientKey::of(ip("2001:db8:1:3::1"))
        );
        assert_eq!(ClientKey::of(ip("::ffff:192.0.2.7")).ip(), ip("192.0.2.7"));
        assert_eq!(ClientKey::of(ip("192.0.2.7")).ip(), ip("192.0.2.7"));
    }

    #[test]
    fn forwarded_for_is_read_only_from_a_trusted_proxy_and_from_the_right() {
        let none = behind(&[], None);
        let nginx = behind(&["172.28.0.10", "10.0.0.0/8"], None);
        let xff = headers(&[("x-forwarded-for", "6.6.6.6, 203.0.113.5, 10.1.2.3")]);
        // A peer that is no proxy is the client, whatever it says.
        assert_eq!(none.key(ip("172.28.0.10"), &xff).ip(), ip("172.28.0.10"));
        assert_eq!(nginx.key(ip("198.51.100.1"), &xff).ip(), ip("198.51.100.1"));
        // Behind the proxy: the rightmost address that is not a proxy; what the client
        // wrote further left (6.6.6.6) is not believed.
        assert_eq!(nginx.key(ip("172.28.0.10"), &xff).ip(), ip("203.0.113.5"));
        // Several headers read as one list, in order; a port is allowed.
        let two = headers(&[
            ("x-forwarded-for", "6.6.6.6"),
            ("x-forwarded-for", "[2001:db8::9]:443"),
        ]);
        assert_eq!(nginx.key(ip("10.0.0.1"), &two).ip(), ip("2001:db8::"));
        // A garbage hop stops the walk at the last address that read.
        let junk = headers(&[("x-forwarded-for", "203.0.113.5, junk, 10.9.9.9")]);
        assert_eq!(nginx.key(ip("10.0.0.1"), &junk).ip(), ip("10.9.9.9"));
        // No header: the proxy itself.
        assert_eq!(
            nginx.key(ip("::ffff:172.28.0.10"), &HeaderMap::new()).ip(),
            ip("172.28.0.10")
        );
    }

    #[test]
    fn a_forwarded_client_is_believed_only_with_the_cluster_s_secret() {
        let named =
            |mark: &str| headers(&[("x-pref-forwarded", mark), ("x-pref-client", "203.0.113.5")]);
        let node = behind(&[], Some("s3cret"));
        assert_eq!(
            node.key(ip("10.0.0.2"), &named("s3cret")).ip(),
            ip("203.0.113.5")
        );
        assert_eq!(
            node.key(ip("10.0.0.2"), &named("guess")).ip(),
            ip("10.0.0.2")
        );
        // Without a secret set, nobody may name its client.
        let open = behind(&[], None);
        assert_eq!(
            open.key(ip("10.0.0.2"), &named("s3cret")).ip(),
            ip("10.0.0.2")
        );
        assert_eq!(
            open.key(
                ip("10.0.0.2"),
                &headers(&[("x-pref-client", "203.0.113.5")])
            )
            .ip(),
            ip("10.0.0.2")
        );
    }

    #[test]
    fn a_proxy_setting_is_an_address_or_a_block() {
        assert!(
            "10.0.0.0/8"
                .parse::<Proxy>()
                .unwrap()
                .holds(ip("10.200.0.1"))
        );
        assert!("::1".parse::<Proxy>().unwrap().holds(ip("::1")));
        assert!(
            " 172.28.0.10 "
                .parse::<Proxy>()
                .unwrap()
                .holds(ip("172.28.0.10"))
        );
        assert_eq!("nginx".parse::<Proxy>(), Err(BadProxy("nginx".to_owned())));
    }
}
