-- Profiles a host saved under a name, shared by link (docs/protocol.md, `/api/profiles`).
-- `profile` is the request a table takes: `{"preset": …}` with the options that differ.
CREATE TABLE profiles (
    no INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    profile TEXT NOT NULL
);
