-- Clocks: a table's time control and pause (JSON, NULL without a clock), and the moment of
-- every deal and action with whether the autopilot made it, so that a restart rebuilds each
-- seat's bank and the running deadline instead of starting them over.
ALTER TABLE tables ADD COLUMN clock TEXT;
ALTER TABLE deals ADD COLUMN at_ms INTEGER;
ALTER TABLE actions ADD COLUMN at_ms INTEGER;
ALTER TABLE actions ADD COLUMN auto INTEGER NOT NULL DEFAULT 0;
