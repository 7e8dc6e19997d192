-- The schema the server has always made. `IF NOT EXISTS` lets a database created before
-- migrations existed (no `_sqlx_migrations` table yet) take this migration as applied.
CREATE TABLE IF NOT EXISTS tables (
    no INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    host_token TEXT NOT NULL,
    profile TEXT NOT NULL,
    spectator_chat INTEGER NOT NULL,
    first_dealer INTEGER NOT NULL,
    state TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_no INTEGER NOT NULL REFERENCES tables(no),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token TEXT NOT NULL,
    bot TEXT,
    PRIMARY KEY (table_no, seat)
);
CREATE TABLE IF NOT EXISTS deals (
    table_no INTEGER NOT NULL REFERENCES tables(no),
    deal_no INTEGER NOT NULL,
    deck TEXT NOT NULL,
    PRIMARY KEY (table_no, deal_no)
);
CREATE TABLE IF NOT EXISTS actions (
    table_no INTEGER NOT NULL REFERENCES tables(no),
    deal_no INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    player INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_no, deal_no, seq)
);
