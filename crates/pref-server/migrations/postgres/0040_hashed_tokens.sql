-- Tokens are kept as the SHA-256 of their 16 bytes (64 hex digits), never in plain text.
-- Tokens stored before are 32 hex digits; they are hashed here, so their holders keep
-- their seats, host rights and sheets. (SQLite has no SHA-256 function: the server
-- rewrites its plain tokens when it opens the database, `store/hashed.rs`.)
UPDATE tables SET host_token = encode(sha256(decode(host_token, 'hex')), 'hex')
    WHERE length(host_token) = 32;
UPDATE seats SET token = encode(sha256(decode(token, 'hex')), 'hex')
    WHERE length(token) = 32;
UPDATE keeper_sheets SET keeper_token = encode(sha256(decode(keeper_token, 'hex')), 'hex')
    WHERE length(keeper_token) = 32;
