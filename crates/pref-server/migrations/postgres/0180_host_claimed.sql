-- Whether the host claimed the seat with the host token (his own seat): the host's end
-- of the game asks every other person seated (R10.3) but not this seat. Seats stored
-- before keep 0 (their people are asked).
ALTER TABLE seats ADD COLUMN host_claimed BIGINT NOT NULL DEFAULT 0;
