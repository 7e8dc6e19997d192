-- The bot API (src/accounts/bot_api.rs, docs/bot-api.md). A bot account is an account
-- marked `bot` for good; a table may be for people only; an API token is kept as the
-- SHA-256 of the token under a label (`id`) with the account's key wrapped by the token
-- (`vault`, as a session's), its name, when it was made, last used (to the minute) and
-- revoked (a revoked token's row stays, refused).
ALTER TABLE accounts ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN people_only INTEGER NOT NULL DEFAULT 0;
CREATE TABLE bot_tokens (
    no INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account_no INTEGER NOT NULL REFERENCES accounts(no),
    name TEXT NOT NULL,
    vault TEXT NOT NULL,
    created INTEGER NOT NULL,
    used INTEGER,
    revoked INTEGER
);
CREATE INDEX bot_tokens_account ON bot_tokens (account_no, no);
-- Seats hosts keep for a bot account (the seat's reservation itself is the table's): the
-- bot lists them (`GET /api/bot/invitations`) and takes one with its token.
CREATE TABLE bot_invitations (
    account_no INTEGER NOT NULL REFERENCES accounts(no),
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (account_no, table_id)
);
CREATE INDEX bot_invitations_table ON bot_invitations (table_id);
