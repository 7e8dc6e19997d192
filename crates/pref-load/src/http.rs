//! A small JSON client for the server's HTTP API over plain HTTP/1.1 with keep-alive
//! (hyper's pooled client: setting up thousands of tables reuses a few connections instead
//! of leaving thousands of sockets in TIME_WAIT). The pool is kept small and short-lived:
//! every idle connection is a descriptor the server cannot spend on a WebSocket.

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Method, Request};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioTimer};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A client bound to one server.
#[derive(Clone, Debug)]
pub(crate) struct Api {
    /// `http://host:port`.
    base: String,
    /// The pooled connections.
    client: Client<HttpConnector, Full<Bytes>>,
}

impl Api {
    /// A client for the server at `addr` (`host:port`).
    pub(crate) fn new(addr: &str) -> Api {
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        let client = Client::builder(TokioExecutor::new())
            .pool_max_idle_per_host(8)
            .pool_idle_timeout(std::time::Duration::from_secs(5))
            .pool_timer(TokioTimer::new())
            .build(connector);
        Api {
            base: format!("http://{addr}"),
            client,
        }
    }

    /// Sends one request with `body` as JSON; returns the status and the body.
    pub(crate) async fn call<B: Serialize>(
        &self,
        method: Method,
        path: &str,
        body: Option<&B>,
        bearer: Option<&str>,
    ) -> Result<(u16, Bytes), String> {
        let mut req = Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base))
            .header("content-type", "application/json");
        if let Some(token) = bearer {
            req = req.header("authorization", format!("Bearer {token}"));
        }
        let body = match body {
            Some(b) => serde_json::to_string(b).map_err(|e| e.to_string())?,
            None => String::new(),
        };
        let req = req
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| e.to_string())?;
        let res = self
            .client
            .request(req)
            .await
            .map_err(|e| format!("{path}: {e}"))?;
        let status = res.status().as_u16();
        let bytes = res
            .into_body()
            .collect()
            .await
            .map_err(|e| format!("{path}: {e}"))?
            .to_bytes();
        Ok((status, bytes))
    }

    /// Like [`Api::call`], but anything other than `expect` is an error naming the body.
    /// The answer is read as the protocol's `T`.
    pub(crate) async fn expect<T: DeserializeOwned, B: Serialize>(
        &self,
        expect: u16,
        method: Method,
        path: &str,
        body: Option<&B>,
        bearer: Option<&str>,
    ) -> Result<T, String> {
        let (status, bytes) = self.call(method, path, body, bearer).await?;
        let text = String::from_utf8_lossy(&bytes);
        if status != expect {
            return Err(format!("{path}: HTTP {status}: {text}"));
        }
        serde_json::from_slice(&bytes)
            .map_err(|e| format!("{path}: unreadable answer ({e}): {text}"))
    }
}
