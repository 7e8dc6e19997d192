-- One rated table at a time (docs/ratings.md, "Abuse"): the account holding a seat at a
-- rated table whose game goes on, one row per account. The row is written in the
-- transaction that writes the seat, so the key on `account_no` is what refuses a second
-- rated seat, on any node and however close the two requests come; it goes with the seat
-- (freed, or taken by somebody else) and with the game (over, or the lobby expired).
CREATE TABLE rated_seats (
    account_no BIGINT PRIMARY KEY REFERENCES accounts(no),
    table_no BIGINT NOT NULL REFERENCES tables(no),
    seat BIGINT NOT NULL
);
CREATE INDEX rated_seats_table ON rated_seats (table_no, seat);
-- The seats held before this row was kept: the first of an account's (two, if the race
-- the key closes gave two) stands.
INSERT INTO rated_seats (account_no, table_no, seat)
SELECT DISTINCT ON (a.account_no) a.account_no, t.no, a.seat FROM account_seats a
JOIN tables t ON t.id = a.table_id
JOIN rated_tables r ON r.table_no = t.no
JOIN seats s ON s.table_no = t.no AND s.seat = a.seat AND s.token = a.token_hash
WHERE t.state IN ('lobby', 'playing')
ORDER BY a.account_no, t.no, a.seat
ON CONFLICT DO NOTHING;
