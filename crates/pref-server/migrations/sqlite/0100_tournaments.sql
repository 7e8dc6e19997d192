-- Duplicate tournaments (`src/tournaments/`): the tournament with every deal's server seed
-- (secret until it closes), its entrants, every action an entrant made (the bots' replies
-- are recomputed: they are fixed by their seeds), and each finished deal's result.
CREATE TABLE IF NOT EXISTS tournaments (
    no INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    day TEXT UNIQUE,
    name TEXT NOT NULL,
    preset TEXT NOT NULL,
    level TEXT NOT NULL,
    seeds TEXT NOT NULL,
    starts INTEGER NOT NULL,
    ends INTEGER NOT NULL,
    host_token TEXT,
    created INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS tournaments_ends ON tournaments (ends);
CREATE TABLE IF NOT EXISTS tournament_entrants (
    tournament_no INTEGER NOT NULL REFERENCES tournaments(no),
    entrant INTEGER NOT NULL,
    name TEXT NOT NULL,
    account_no INTEGER,
    token TEXT NOT NULL,
    entered INTEGER NOT NULL,
    PRIMARY KEY (tournament_no, entrant),
    UNIQUE (tournament_no, account_no)
);
CREATE TABLE IF NOT EXISTS tournament_actions (
    tournament_no INTEGER NOT NULL REFERENCES tournaments(no),
    entrant INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (tournament_no, entrant, deal, seq)
);
CREATE TABLE IF NOT EXISTS tournament_results (
    tournament_no INTEGER NOT NULL REFERENCES tournaments(no),
    entrant INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    result TEXT NOT NULL,
    outcome TEXT NOT NULL,
    finished INTEGER NOT NULL,
    PRIMARY KEY (tournament_no, entrant, deal)
);
