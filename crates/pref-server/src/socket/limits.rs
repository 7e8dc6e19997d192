//! The per-socket message budget: a token bucket, and how many refused messages in a row
//! close the socket.

use tokio::time::Instant;

use crate::config::Limits;

/// Rate-limit strikes after which the socket is closed.
pub(super) const MAX_STRIKES: u32 = 100;
/// A token bucket: `burst` messages at once, refilled at `rate` per second.
#[derive(Debug)]
pub(super) struct Bucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    last: Instant,
}

impl Bucket {
    pub(super) fn new(limits: &Limits) -> Bucket {
        let burst = f64::from(limits.message_burst.max(1));
        Bucket {
            tokens: burst,
            rate: f64::from(limits.messages_per_second.max(1)),
            burst,
            last: Instant::now(),
        }
    }

    pub(super) fn take(&mut self) -> bool {
        let now = Instant::now();
        let dt = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}
