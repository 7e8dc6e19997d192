-- Practice tables (docs/protocol.md, "Practice tables"): a table opened as practice has a
-- row here (never rated; its summary and record say so), and every hint a seat asked for
-- is counted per deal, so that the per-deal budget and the record's counts outlive a restart.
CREATE TABLE practice_tables (
    table_no BIGINT PRIMARY KEY REFERENCES tables(no)
);
CREATE TABLE practice_hints (
    table_no BIGINT NOT NULL REFERENCES tables(no),
    deal_no BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    hints BIGINT NOT NULL,
    PRIMARY KEY (table_no, deal_no, seat)
);
