-- The lobby's reads walk its public tables in the order they are shown and stop at the
-- count shown (src/lobby/store.rs, `LobbyStore::public`): the longest waiting first, and
-- the busiest games first (`pref_protocol::LiveTable::busiest_first`: spectators, then the
-- second the table was opened, then its id). Without these the database read every table
-- of the server (finished ones too) and sorted the public ones at every read.
CREATE INDEX lobby_tables_oldest ON lobby_tables (created_ms, table_no);
CREATE INDEX lobby_tables_busiest ON lobby_tables (watchers DESC, (created_ms / 1000), table_id);
