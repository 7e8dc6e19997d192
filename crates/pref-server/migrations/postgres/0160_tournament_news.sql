-- As in SQLite's migration, with PostgreSQL's types (every integer BIGINT).
-- Tournaments shared by every node of a cluster (`src/tournaments/store.rs`): `news` counts
-- the changes other nodes must learn (an entrant, a result, the close). It is raised in the
-- same transaction as the change, which also locks the tournament's row, so two nodes never
-- give one entrant number twice or post one result twice; each entrant and result keeps the
-- count it was written at, so a node reads only what is new since its last look. A deal's
-- par (the solver's, for the entrants' seat) is computed once, by whichever node is asked
-- first, and kept.
ALTER TABLE tournaments ADD COLUMN news BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tournament_entrants ADD COLUMN news BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tournament_results ADD COLUMN news BIGINT NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS tournament_entrants_news ON tournament_entrants (tournament_no, news);
CREATE INDEX IF NOT EXISTS tournament_results_news ON tournament_results (tournament_no, news);
CREATE TABLE IF NOT EXISTS tournament_pars (
    tournament_no BIGINT NOT NULL REFERENCES tournaments(no),
    deal BIGINT NOT NULL,
    par TEXT NOT NULL,
    PRIMARY KEY (tournament_no, deal)
);
