-- Provably fair deals (docs/fairness.md): each deal's server seed, written before its
-- commitment is published, and each seat's contribution as it comes. Integers are BIGINT
-- so that both backends decode them as i64.
CREATE TABLE fair_seeds (
    table_no BIGINT NOT NULL REFERENCES tables(no),
    deal_no BIGINT NOT NULL,
    seed TEXT NOT NULL,
    commits_closed BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (table_no, deal_no)
);
CREATE TABLE fair_contributions (
    table_no BIGINT NOT NULL REFERENCES tables(no),
    deal_no BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    commitment TEXT NOT NULL,
    value TEXT,
    late BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (table_no, deal_no, seat)
);
