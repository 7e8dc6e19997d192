-- Duplicate tournaments (`src/tournaments/`): the tournament with every deal's server seed
-- (secret until it closes), its entrants, every action an entrant made (the bots' replies
-- are recomputed: they are fixed by their seeds), and each finished deal's result.
-- As in SQLite's migration, with PostgreSQL's types (every integer BIGINT).
CREATE TABLE tournaments (
    no BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    day TEXT UNIQUE,
    name TEXT NOT NULL,
    preset TEXT NOT NULL,
    level TEXT NOT NULL,
    seeds TEXT NOT NULL,
    starts BIGINT NOT NULL,
    ends BIGINT NOT NULL,
    host_token TEXT,
    created BIGINT NOT NULL
);
CREATE INDEX tournaments_ends ON tournaments (ends);
CREATE TABLE tournament_entrants (
    tournament_no BIGINT NOT NULL REFERENCES tournaments(no),
    entrant BIGINT NOT NULL,
    name TEXT NOT NULL,
    account_no BIGINT,
    token TEXT NOT NULL,
    entered BIGINT NOT NULL,
    PRIMARY KEY (tournament_no, entrant),
    UNIQUE (tournament_no, account_no)
);
CREATE TABLE tournament_actions (
    tournament_no BIGINT NOT NULL REFERENCES tournaments(no),
    entrant BIGINT NOT NULL,
    deal BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (tournament_no, entrant, deal, seq)
);
CREATE TABLE tournament_results (
    tournament_no BIGINT NOT NULL REFERENCES tournaments(no),
    entrant BIGINT NOT NULL,
    deal BIGINT NOT NULL,
    result TEXT NOT NULL,
    outcome TEXT NOT NULL,
    finished BIGINT NOT NULL,
    PRIMARY KEY (tournament_no, entrant, deal)
);
