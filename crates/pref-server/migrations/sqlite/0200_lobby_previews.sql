-- The preview of a public game in progress (src/lobby/, docs/protocol.md "The lobby"): the
-- table and its sheet as a spectator sees them (`pref_protocol::TablePreview` as JSON),
-- written by the table's node with the spectators; NULL until it has looked.
ALTER TABLE lobby_tables ADD COLUMN preview TEXT;
