-- The same tables as SQLite's, with PostgreSQL's types (every integer is BIGINT so that
-- both backends decode it as i64).
CREATE TABLE tables (
    no BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    host_token TEXT NOT NULL,
    profile TEXT NOT NULL,
    spectator_chat BOOLEAN NOT NULL,
    first_dealer BIGINT NOT NULL,
    state TEXT NOT NULL
);
CREATE TABLE seats (
    table_no BIGINT NOT NULL REFERENCES tables(no),
    seat BIGINT NOT NULL,
    name TEXT NOT NULL,
    token TEXT NOT NULL,
    bot TEXT,
    PRIMARY KEY (table_no, seat)
);
CREATE TABLE deals (
    table_no BIGINT NOT NULL REFERENCES tables(no),
    deal_no BIGINT NOT NULL,
    deck TEXT NOT NULL,
    PRIMARY KEY (table_no, deal_no)
);
CREATE TABLE actions (
    table_no BIGINT NOT NULL REFERENCES tables(no),
    deal_no BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    player BIGINT NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_no, deal_no, seq)
);
