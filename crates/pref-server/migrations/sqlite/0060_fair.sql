-- Provably fair deals (docs/fairness.md): each deal's server seed, written before its
-- commitment is published, and each seat's contribution as it comes.
CREATE TABLE fair_seeds (
    table_no INTEGER NOT NULL REFERENCES tables(no),
    deal_no INTEGER NOT NULL,
    seed TEXT NOT NULL,
    commits_closed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_no, deal_no)
);
CREATE TABLE fair_contributions (
    table_no INTEGER NOT NULL REFERENCES tables(no),
    deal_no INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    commitment TEXT NOT NULL,
    value TEXT,
    late INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_no, deal_no, seat)
);
