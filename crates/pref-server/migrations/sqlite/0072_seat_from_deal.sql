-- The first deal each seat's occupant holds it for: a deal dealt before he sat is shown to
-- him as to a spectator, never as his predecessor saw it. Seats stored before keep 0 (the
-- occupant sees every deal as before).
ALTER TABLE seats ADD COLUMN from_deal INTEGER NOT NULL DEFAULT 0;
