//! What every HTTP answer goes through on its way out, whatever route (or no route) made it:
//! the security headers of every page and answer, the WebSocket upgrade's Origin policy, and
//! the documented JSON error shape for the errors axum and tower-http answer by themselves
//! (an unknown path, a wrong method, a body over the limit, a query string or path that does
//! not parse), which would otherwise go out as plain text or an empty body, and the deadline
//! by which a request's body must have arrived.

pub(crate) mod http;
pub(crate) mod serve;
pub(crate) mod shutdown;
pub(crate) mod socket;

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody, to_bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use pref_protocol::ApiErrorBody;

use crate::api::error::ApiError;
use crate::api::origin::origin_allowed;
use crate::config::Security;

/// The pages' Content-Security-Policy. The web client is same-origin ES modules and
/// stylesheets with no inline script or style, so nothing else may load, and no other site
/// may frame a page (clickjacking the host's buttons). `'self'` covers the same host's
/// `ws:`/`wss:` socket.
pub(crate) const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; \
base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Longest body of a plain-text error that is kept as the JSON error's message.
const MESSAGE_MAX: usize = 512;

/// Adds the security headers to every answer.
pub(crate) async fn security_headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // A table's link is its id: it must not leave in a Referer.
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    res
}

/// The short code of an error status that no handler of ours chose.
fn code_of(status: StatusCode) -> &'static str {
    match status {
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported_media_type",
        StatusCode::REQUEST_TIMEOUT => "timeout",
        StatusCode::TOO_MANY_REQUESTS => "too_many_requests",
        s if s.is_server_error() => "internal",
        _ => "bad_request",
    }
}

/// Rewrites every error answer that is not JSON yet into the documented shape
/// (`{"error": code, "message": text}`), keeping its status.
pub(crate) async fn json_errors(req: Request, next: Next) -> Response {
    let res = next.run(req).await;
    let status = res.status();
    let json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return res;
    }
    let (parts, body) = res.into_parts();
    let text = to_bytes(body, MESSAGE_MAX * 8).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let mut message: String = text.trim().chars().take(MESSAGE_MAX).collect();
    if message.is_empty() {
        message = status.canonical_reason().unwrap_or("error").to_lowercase();
    }
    let body = ApiErrorBody {
        error: code_of(status).to_owned(),
        message,
    };
    let mut out = (status, axum::Json(body)).into_response();
    // Keep what the error said about the request (`Allow` on a 405), not its old body's type.
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            out.headers_mut().insert(name.clone(), value.clone());
        }
    }
    out
}

/// Refuses a WebSocket upgrade from a page the Origin policy does not allow, before the
/// request is served here or forwarded to the node that serves its table.
pub(crate) async fn origin_policy(
    State(policy): State<Security>,
    req: Request,
    next: Next,
) -> Response {
    let upgrade = req
        .headers()
        .get(header::UPGRADE)
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"websocket"));
    if upgrade && !origin_allowed(&policy, text(req.headers(), header::ORIGIN), host(&req)) {
        return ApiError::Forbidden("this page's origin may not open a socket here")
            .into_response();
    }
    next.run(req).await
}

fn text(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

fn host(req: &Request) -> Option<&str> {
    text(req.headers(), header::HOST).or_else(|| req.uri().authority().map(|a| a.as_str()))
}

/// How long a request's body may take to arrive whole, from the moment its head was read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BodyDeadline(pub Duration);

/// Gives every request's body one deadline for all of it, counted from its head: a client
/// that stalls mid-body, or trickles it a byte at a time, holds its connection no longer
/// than that. The route reading the body then fails, and the answer is replaced by `408`
/// with the JSON error `timeout` (the connection is closed: the rest of its body is
/// unread). A deadline for the whole body, rather than tower-http's `RequestBodyTimeout`,
/// which waits that long again for each piece. Requests without a body (the WebSocket
/// upgrade among them) pass untouched, and the time a route spends after reading its body
/// (an analysis) does not count.
pub(crate) async fn body_deadline(
    State(BodyDeadline(limit)): State<BodyDeadline>,
    req: Request,
    next: Next,
) -> Response {
    if req.body().is_end_stream() {
        return next.run(req).await;
    }
    let late = Arc::new(AtomicBool::new(false));
    let req = req.map(|inner| {
        Body::new(Deadlined {
            inner,
            expiry: Box::pin(tokio::time::sleep(limit)),
            late: Arc::clone(&late),
        })
    });
    let res = next.run(req).await;
    if !late.load(Ordering::Acquire) {
        return res;
    }
    let body = ApiErrorBody {
        error: code_of(StatusCode::REQUEST_TIMEOUT).to_owned(),
        message: format!(
            "the request body did not arrive within {} ms",
            limit.as_millis()
        ),
    };
    let mut out = (StatusCode::REQUEST_TIMEOUT, axum::Json(body)).into_response();
    out.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    out
}

/// A request body that fails once its deadline has passed, and says so in `late`.
struct Deadlined {
    inner: Body,
    expiry: Pin<Box<tokio::time::Sleep>>,
    late: Arc<AtomicBool>,
}

impl HttpBody for Deadlined {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            return Poll::Ready(frame);
        }
        if this.expiry.as_mut().poll(cx).is_ready() {
            this.late.store(true, Ordering::Release);
            return Poll::Ready(Some(Err(axum::Error::new("the request body is late"))));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// The answer to a path under `/api/` that names no route.
pub(crate) async fn api_not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        axum::Json(ApiErrorBody {
            error: "not_found".to_owned(),
            message: "no such API path".to_owned(),
        }),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(same_origin: bool, allowed: &[&str]) -> Security {
        Security {
            same_origin,
            allowed_origins: allowed.iter().map(|s| (*s).to_owned()).collect(),
            trusted_proxies: Vec::new(),
        }
    }

    #[test]
    fn the_same_origin_passes_and_a_foreign_one_does_not() {
        let p = policy(true, &[]);
        let host = Some("192.168.1.5:8080");
        assert!(origin_allowed(&p, Some("http://192.168.1.5:8080"), host));
        assert!(origin_allowed(&p, Some("https://192.168.1.5:8080"), host));
        assert!(!origin_allowed(&p, Some("https://evil.example"), host));
        assert!(!origin_allowed(&p, Some("http://192.168.1.5"), host));
        assert!(!origin_allowed(&p, Some("null"), host));
        assert!(origin_allowed(&p, None, host), "no Origin: not a page");
        assert!(!origin_allowed(&p, Some("http://192.168.1.5:8080"), None));
        for loopback in [
            "127.0.0.1:8080",
            "localhost:8080",
            "[::1]:8080",
            "pref.localhost",
        ] {
            let origin = format!("http://{loopback}");
            assert!(
                origin_allowed(&p, Some(&origin), Some(loopback)),
                "{loopback}"
            );
        }
    }

    #[test]
    fn a_rebinding_page_whose_origin_is_its_host_is_refused() {
        // evil.example resolved to this server: the browser sends Origin and Host alike.
        let p = policy(true, &[]);
        for name in [
            "evil.example:8080",
            "evil.example",
            "localhost.evil.example:80",
        ] {
            let origin = format!("http://{name}");
            assert!(!origin_allowed(&p, Some(&origin), Some(name)), "{name}");
        }
        // The site's own DNS name passes once it is listed.
        let site = policy(true, &["https://pref.example"]);
        assert!(origin_allowed(
            &site,
            Some("https://pref.example"),
            Some("pref.example")
        ));
        assert!(!origin_allowed(
            &site,
            Some("http://evil.example"),
            Some("evil.example")
        ));
    }

    #[test]
    fn listed_origins_and_the_wildcard_pass() {
        let p = policy(false, &["https://pref.example"]);
        assert!(origin_allowed(
            &p,
            Some("https://pref.example"),
            Some("x:1")
        ));
        assert!(
            !origin_allowed(&p, Some("http://x:1"), Some("x:1")),
            "same origin off"
        );
        assert!(origin_allowed(
            &policy(false, &["*"]),
            Some("https://any"),
            None
        ));
    }

    #[tokio::test]
    async fn plain_errors_become_the_json_shape_and_keep_their_status() {
        let app = axum::Router::new()
            .route("/x", axum::routing::get(|| async { "ok" }))
            .route(
                "/big",
                axum::routing::get(|| async {
                    (StatusCode::PAYLOAD_TOO_LARGE, "length limit exceeded").into_response()
                }),
            )
            .layer(axum::middleware::from_fn(json_errors));
        let send = |method: &str, uri: &str| {
            let req = Request::builder()
                .method(method)
                .uri(uri)
                .body(axum::body::Body::empty())
                .unwrap();
            let app = app.clone();
            async move {
                let res = tower::ServiceExt::oneshot(app, req).await.unwrap();
                let status = res.status();
                let allow = res.headers().get(header::ALLOW).cloned();
                let bytes = to_bytes(res.into_body(), 4096).await.unwrap();
                (status, allow, bytes)
            }
        };
        let (status, allow, bytes) = send("POST", "/x").await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(allow.unwrap(), "GET,HEAD");
        let body: ApiErrorBody = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(body.error, "method_not_allowed");
        let (status, _, bytes) = send("GET", "/big").await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        let body: ApiErrorBody = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(
            (body.error.as_str(), body.message.as_str()),
            ("too_large", "length limit exceeded")
        );
        let (status, _, bytes) = send("GET", "/x").await;
        assert_eq!((status, &bytes[..]), (StatusCode::OK, &b"ok"[..]));
    }
}
