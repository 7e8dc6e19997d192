-- Scorekeeping sheets for games played with real cards (`src/keeper/`), as in SQLite's
-- migration, with PostgreSQL's types (every integer BIGINT, decoded as i64 by both).
CREATE TABLE keeper_sheets (
    no BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    keeper_token TEXT NOT NULL,
    header TEXT NOT NULL,
    created BIGINT NOT NULL
);
CREATE TABLE keeper_changes (
    sheet_no BIGINT NOT NULL REFERENCES keeper_sheets(no),
    version BIGINT NOT NULL,
    at BIGINT NOT NULL,
    change TEXT NOT NULL,
    PRIMARY KEY (sheet_no, version)
);
