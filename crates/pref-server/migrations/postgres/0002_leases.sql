-- Several server nodes share one database; each table is served by the node holding its
-- lease (docs/scaling.md). `expires` is set from the database's clock only.
CREATE TABLE nodes (
    id TEXT PRIMARY KEY,
    addr TEXT NOT NULL,
    seen TIMESTAMPTZ NOT NULL
);
CREATE TABLE leases (
    table_no BIGINT PRIMARY KEY REFERENCES tables(no),
    node TEXT NOT NULL,
    -- Raised at every change of owner; every write of a deck or an action names the epoch
    -- its node holds, and fails once the lease has moved on.
    epoch BIGINT NOT NULL,
    expires TIMESTAMPTZ NOT NULL
);
CREATE INDEX leases_node ON leases (node);
CREATE INDEX leases_expires ON leases (expires);
