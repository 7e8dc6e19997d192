-- The public lobby (src/lobby/, docs/protocol.md "The lobby"). A public table is listed
-- while it is in the lobby with a free seat; its row keeps the invite key in plain text,
-- since anybody may take a seat there, the client's address that opened it (for
-- `lobby.max_public_tables_per_ip`), its spectators as its node last counted them, and
-- what the list shows (the nearest preset, the options that differ, the clock's preset).
CREATE TABLE lobby_tables (
    table_id TEXT PRIMARY KEY,
    table_no BIGINT NOT NULL REFERENCES tables(no),
    invite_key TEXT NOT NULL,
    host_name TEXT,
    preset TEXT,
    differs TEXT NOT NULL,
    clock TEXT,
    players BIGINT NOT NULL,
    address TEXT,
    created_ms BIGINT NOT NULL,
    watchers BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX lobby_tables_no ON lobby_tables (table_no);
-- Seeks of quick pairing, first come first seated by `no`. A seek belongs to one lobby
-- socket of node `node` (`socket`), which marks `seen_ms` while it lives; a seek whose
-- node stopped marking is stale and dropped. `table_id` is set when the seek is taken for
-- a table (`pending` while the table is being opened), `seat` and `token` once seated:
-- the seeker's node hands the token over its socket and deletes the row.
CREATE TABLE lobby_seeks (
    no BIGSERIAL PRIMARY KEY,
    node TEXT NOT NULL,
    socket BIGINT NOT NULL,
    choice TEXT NOT NULL,
    label TEXT,
    profile TEXT NOT NULL,
    clock TEXT NOT NULL,
    players BIGINT NOT NULL,
    name TEXT NOT NULL,
    address TEXT,
    account_no BIGINT,
    bots_after_ms BIGINT,
    created_ms BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL,
    table_id TEXT,
    seat BIGINT,
    token TEXT
);
CREATE INDEX lobby_seeks_choice ON lobby_seeks (choice, no);
CREATE INDEX lobby_seeks_node ON lobby_seeks (node, socket);
