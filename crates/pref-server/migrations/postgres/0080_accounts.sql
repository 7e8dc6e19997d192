-- Accounts (src/accounts/, docs/security.md "Accounts and sessions"). `folded` is the user
-- name case-folded, unique among live accounts; a deleted account keeps its row (its games
-- still name it as "deleted player") with its name, password and key erased.
CREATE TABLE accounts (
    no BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    folded TEXT UNIQUE,
    salt TEXT NOT NULL,
    cost TEXT NOT NULL,
    verifier TEXT NOT NULL,
    vault TEXT NOT NULL,
    created BIGINT NOT NULL,
    hidden BIGINT NOT NULL DEFAULT 0,
    deleted BIGINT
);
-- Sessions: the SHA-256 of the cookie's token, the account's key wrapped by the token, and
-- when the session ends and was last used (seconds since 1970).
CREATE TABLE account_sessions (
    id TEXT PRIMARY KEY,
    account_no BIGINT NOT NULL REFERENCES accounts(no),
    vault TEXT NOT NULL,
    created BIGINT NOT NULL,
    expires BIGINT NOT NULL,
    used BIGINT NOT NULL
);
CREATE INDEX account_sessions_account ON account_sessions (account_no, created);
-- Seats tied to accounts: the seat's token hash (as in `seats.token`: the link is the
-- current occupant's only while they are equal) and the token sealed under the account's
-- key, so another device of the account can be given it. `no` orders a player's games;
-- `counted` is set once the finished game's figures are in `account_games`.
CREATE TABLE account_seats (
    no BIGSERIAL PRIMARY KEY,
    account_no BIGINT NOT NULL REFERENCES accounts(no),
    table_id TEXT NOT NULL,
    seat BIGINT NOT NULL,
    token_hash TEXT NOT NULL,
    sealed TEXT,
    at BIGINT NOT NULL,
    counted BIGINT NOT NULL DEFAULT 0,
    UNIQUE (account_no, table_id)
);
CREATE INDEX account_seats_table ON account_seats (table_id, seat);
CREATE INDEX account_seats_list ON account_seats (account_no, no);
CREATE INDEX account_seats_uncounted ON account_seats (account_no, no) WHERE counted = 0;
-- Each finished game's figures for the account's seat (pref_core::stats, JSON) and its
-- settlement, counted once; `account_stats` holds their running sum per account.
CREATE TABLE account_games (
    account_no BIGINT NOT NULL REFERENCES accounts(no),
    table_id TEXT NOT NULL,
    counted BIGINT NOT NULL,
    result TEXT,
    stats TEXT NOT NULL,
    PRIMARY KEY (account_no, table_id)
);
CREATE INDEX account_games_counted ON account_games (account_no, counted);
CREATE TABLE account_stats (
    account_no BIGINT PRIMARY KEY REFERENCES accounts(no),
    totals TEXT NOT NULL
);
