//! The `[cluster]` settings: how a node shares PostgreSQL with others.

use super::span::{Millis, Secs};
use serde::Deserialize;

/// How a node shares PostgreSQL with others (`docs/scaling.md`).
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Cluster {
    /// The `host:port` other nodes forward this node's tables to; the bound address when
    /// unset (right on one host, wrong behind NAT or with `0.0.0.0`).
    pub node_addr: Option<String>,
    /// How long a table's lease lasts past its last renewal, in milliseconds: how long a
    /// dead node's tables wait before another node takes them.
    pub lease_ms: Millis,
    /// The secret every node of the cluster shares: a forwarded request carries it, and a
    /// request claiming to be forwarded without it is refused (`docs/security.md`).
    pub secret: Option<String>,
    /// Database lookups per second for tables this node does not serve (burst: twice).
    pub lookups_per_second: u32,
    /// How long an id found not to exist answers `no_table` without a lookup, in seconds.
    pub miss_cache_secs: Secs,
    /// How long the forwarding pump waits to hand one message on, in milliseconds.
    pub forward_send_timeout_ms: Millis,
}

impl Default for Cluster {
    fn default() -> Cluster {
        Cluster {
            node_addr: None,
            lease_ms: Millis(10_000),
            secret: None,
            lookups_per_second: 200,
            miss_cache_secs: Secs(60),
            forward_send_timeout_ms: Millis(10_000),
        }
    }
}
