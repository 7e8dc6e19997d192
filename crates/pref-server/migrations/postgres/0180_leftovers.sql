-- Whether the host claimed the seat with the host token (his own seat): the host's end
-- of the game asks every other person seated (R10.3) but not this seat. Seats stored
-- before keep 0 (their people are asked).
ALTER TABLE seats ADD COLUMN host_claimed BIGINT NOT NULL DEFAULT 0;
-- Whether an account's game has had its analysis counted (the "accuracy" of the player
-- page: the tricks his cards lost to the solver). Games counted before wait for it (0).
ALTER TABLE account_games ADD COLUMN analysed BIGINT NOT NULL DEFAULT 0;
