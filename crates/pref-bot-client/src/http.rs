//! The few HTTP requests a bot makes (`docs/bot-api.md`): plain HTTP/1.1, one connection
//! each, the API token as the bearer, JSON both ways, errors in the documented
//! `{"error","message"}` shape.

use pref_protocol::ApiErrorBody;
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The server and the token.
#[derive(Clone, Debug)]
pub(crate) struct Api {
    /// `host:port`.
    pub addr: String,
    /// `prefbot_…`.
    pub token: String,
}

impl Api {
    /// A client for `server` (`http://host:port`).
    ///
    /// # Errors
    /// A message for an address that is not `http://host:port`.
    pub(crate) fn new(server: &str, token: &str) -> Result<Api, String> {
        let addr = server
            .strip_prefix("http://")
            .ok_or("the server is http://host:port (behind TLS, run the bot beside the proxy)")?
            .trim_end_matches('/');
        Ok(Api {
            addr: addr.to_owned(),
            token: token.to_owned(),
        })
    }

    /// `method path` with `body`; the answer read as `T`.
    ///
    /// # Errors
    /// The server's refusal (`code: message`) or what broke.
    pub(crate) async fn call<T: DeserializeOwned>(
        &self,
        method: &str,
        path: &str,
        body: Option<&impl Serialize>,
    ) -> Result<T, String> {
        let body = match body {
            Some(b) => serde_json::to_string(b).map_err(|e| e.to_string())?,
            None => String::new(),
        };
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            self.token,
            body.len()
        );
        let mut s = TcpStream::connect(&self.addr)
            .await
            .map_err(|e| format!("{}: {e}", self.addr))?;
        s.write_all(request.as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).await.map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&raw);
        let (head, rest) = text.split_once("\r\n\r\n").ok_or("no HTTP answer")?;
        let status: u16 = head
            .get(9..12)
            .and_then(|s| s.parse().ok())
            .ok_or("no HTTP status")?;
        let rest = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(rest)
        } else {
            rest.to_owned()
        };
        if status >= 400 {
            let err: ApiErrorBody =
                serde_json::from_str(&rest).map_err(|_| format!("HTTP {status}: {rest}"))?;
            return Err(format!("{} {}: {}", status, err.error, err.message));
        }
        serde_json::from_str(&rest).map_err(|e| format!("{path}: {e}"))
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest.get(n + 2..).unwrap_or_default();
    }
    out
}
