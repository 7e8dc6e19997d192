-- Études found in games played here (docs/protocol.md, "Études"): a position at a trick's
-- start where the side to lead has exactly one card that keeps its best result, kept with
-- its goal and answer (the answer is never sent) and the solver's nodes that proved it.
-- The id is made from the position's cards, so one position is stored once. Every finished
-- table the scan has read has a row in etude_scans, so that no game is read twice.
CREATE TABLE found_etudes (
    id TEXT PRIMARY KEY,
    etude TEXT NOT NULL,
    nodes BIGINT NOT NULL,
    found_at BIGINT NOT NULL
);
CREATE INDEX found_etudes_by_nodes ON found_etudes (nodes);
CREATE TABLE etude_scans (
    table_no BIGINT PRIMARY KEY REFERENCES tables(no)
);
