//! The Origin policy's one test, shared by the socket upgrade (`edge`) and every
//! state-changing request a session cookie authenticates (`accounts`): whether a page's
//! origin is this server's own or one the settings allow.

use crate::config::Security;

/// Whether the page at `origin` may open a socket on a server reached as `host`.
///
/// A browser always sends `Origin` with a WebSocket upgrade and a page cannot forge it, so
/// this stops another site's page from opening sockets with its visitors' browsers. A
/// request without `Origin` is not from a page (the load generator, another node) and
/// passes: such a client could send any `Origin` it liked.
///
/// A page whose origin names the `Host` asked for is this server's own only when that host
/// is an IP address or a loopback name (`localhost`, `*.localhost`): a DNS-rebinding page
/// (`evil.example` made to resolve to this server) has `Origin` equal to `Host` too, so a
/// site reached by its DNS name lists its origin in `security.allowed_origins`.
#[must_use]
pub(crate) fn origin_allowed(policy: &Security, origin: Option<&str>, host: Option<&str>) -> bool {
    let Some(origin) = origin else {
        return true;
    };
    if policy
        .allowed_origins
        .iter()
        .any(|o| o == "*" || o == origin)
    {
        return true;
    }
    // The same origin: `scheme://host[:port]` whose authority is the Host asked for.
    let authority = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    policy.same_origin
        && authority.is_some()
        && authority == host
        && authority.is_some_and(cannot_be_rebound)
}

/// Whether the host of `authority` (`host[:port]`) is one that no DNS answer can point
/// elsewhere: an IP address, or a loopback name that browsers resolve themselves.
fn cannot_be_rebound(authority: &str) -> bool {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest
            .split_once(']')
            .is_some_and(|(ip, _)| ip.parse::<std::net::Ipv6Addr>().is_ok());
    }
    let name = match authority.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => authority,
    };
    let name = name.to_ascii_lowercase();
    let name = name.strip_suffix('.').unwrap_or(&name);
    name.parse::<std::net::Ipv4Addr>().is_ok()
        || name == "localhost"
        || name.ends_with(".localhost")
}
