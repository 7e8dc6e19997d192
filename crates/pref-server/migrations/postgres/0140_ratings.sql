-- Ratings (docs/ratings.md, src/ratings/): a rated table's family; each account's rating
-- per family (the people's and the bots' boards follow from `accounts.bot`); and one row per
-- account per rated game, written in the transaction that ends the game. Its key
-- (table_id, account_no) is what makes a game change a rating once: a second end of the
-- same game (a restart, another node) finds the rows and changes nothing. `party` is the
-- game's accounts, sorted, for the weight of games among the same players in a day.
CREATE TABLE rated_tables (
    table_no BIGINT PRIMARY KEY REFERENCES tables(no),
    family TEXT NOT NULL
);
CREATE TABLE ratings (
    account_no BIGINT NOT NULL REFERENCES accounts(no),
    family TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    last_played BIGINT NOT NULL,
    PRIMARY KEY (account_no, family)
);
CREATE INDEX ratings_board ON ratings (family, mu);
CREATE TABLE rating_changes (
    table_id TEXT NOT NULL,
    account_no BIGINT NOT NULL REFERENCES accounts(no),
    family TEXT NOT NULL,
    party TEXT NOT NULL,
    at BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    place BIGINT NOT NULL,
    weight DOUBLE PRECISION NOT NULL,
    mu_before DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after DOUBLE PRECISION NOT NULL,
    sigma_after DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    PRIMARY KEY (table_id, account_no)
);
CREATE INDEX rating_changes_account ON rating_changes (account_no, family, at);
CREATE INDEX rating_changes_party ON rating_changes (party, at);
