-- Clocks over downtime (docs/protocol.md, "Clocks and the autopilot"): each node writes,
-- once a second, until when it has served its tables (`served`, one row per node, the
-- node's own Unix ms), so that a table restored after an outage moves its running turn by
-- the time nobody served it; each such move is kept (`clock_outages`: before action `seq`
-- of deal `deal_no`, `ms` were not the player's), so that a later restart replays it.
CREATE TABLE served (
    node TEXT PRIMARY KEY,
    until_ms BIGINT NOT NULL
);
CREATE TABLE clock_outages (
    table_no BIGINT NOT NULL REFERENCES tables(no),
    deal_no BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    ms BIGINT NOT NULL,
    PRIMARY KEY (table_no, deal_no, seq)
);
