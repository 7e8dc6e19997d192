-- Several server nodes share one database; each table is served by the node holding its
-- lease (docs/scaling.md). A node's leases last as long as its heartbeat: `nodes.expires`,
-- always set from the database's clock, renewed with one row per node however many
-- tables it holds.
CREATE TABLE nodes (
    id TEXT PRIMARY KEY,
    addr TEXT NOT NULL,
    expires TIMESTAMPTZ NOT NULL
);
CREATE TABLE leases (
    table_no BIGINT PRIMARY KEY REFERENCES tables(no),
    node TEXT NOT NULL,
    -- Raised at every change of holder; every write of a deck or an action names the epoch
    -- its node holds, and fails once the lease has moved on.
    epoch BIGINT NOT NULL
);
CREATE INDEX leases_node ON leases (node);
