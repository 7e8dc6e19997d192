//! How a seat token reaches the WebSocket without being in its URL: the client offers the
//! subprotocols `pref` and `pref.token.TOKEN` in `Sec-WebSocket-Protocol`, and the server
//! answers with `pref`. A URL is written to access logs and browser history; a header is
//! not, and a browser's `new WebSocket(url, protocols)` can set this one (and no other).

/// The subprotocol every client offers and the server selects.
pub const PROTOCOL: &str = "pref";

/// The prefix of the subprotocol that carries a seat token.
pub const TOKEN_PREFIX: &str = "pref.token.";

/// The `Sec-WebSocket-Protocol` value a client sends: `pref`, and the token for a seat.
#[must_use]
pub fn offer(token: Option<&str>) -> String {
    match token {
        Some(t) => format!("{PROTOCOL}, {TOKEN_PREFIX}{t}"),
        None => PROTOCOL.to_owned(),
    }
}

/// The token offered in a `Sec-WebSocket-Protocol` value, if any (not yet checked for
/// form: an empty or malformed one is returned as it is, for the server to refuse).
#[must_use]
pub fn offered_token(header: &str) -> Option<&str> {
    header
        .split(',')
        .map(str::trim)
        .find_map(|p| p.strip_prefix(TOKEN_PREFIX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_travels_as_a_subprotocol_and_is_read_back() {
        let t = "0123456789abcdef0123456789abcdef";
        assert_eq!(offer(None), "pref");
        assert_eq!(offer(Some(t)), format!("pref, pref.token.{t}"));
        assert_eq!(offered_token(&offer(Some(t))), Some(t));
        assert_eq!(offered_token("pref"), None);
        assert_eq!(offered_token("pref.token."), Some(""));
        assert_eq!(offered_token("chat,pref.token.abc , pref"), Some("abc"));
    }
}
