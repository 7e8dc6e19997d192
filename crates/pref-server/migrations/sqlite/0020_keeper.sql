-- Scorekeeping sheets for games played with real cards (`src/keeper/`): the sheet's
-- header, and every change the keeper made, in order. The deals on the sheet are the
-- changes replayed; nothing is stored twice.
CREATE TABLE IF NOT EXISTS keeper_sheets (
    no INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    keeper_token TEXT NOT NULL,
    header TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS keeper_changes (
    sheet_no INTEGER NOT NULL REFERENCES keeper_sheets(no),
    version INTEGER NOT NULL,
    at INTEGER NOT NULL,
    change TEXT NOT NULL,
    PRIMARY KEY (sheet_no, version)
);
