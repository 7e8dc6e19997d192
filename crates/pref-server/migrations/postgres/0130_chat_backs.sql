-- What a table's viewers saw that is not a game's action, kept across a restart: the last
-- chat lines (`chat_lines`, at most `limits.chat_history_lines` a table; `seat` NULL for a
-- spectator; `no` counts the table's lines) and each "I'm back" (`clock_backs`: before
-- action `seq` of deal `deal_no`, `seat` left the autopilot), which the clock's replay
-- applies where it was said.
CREATE TABLE chat_lines (
    table_no BIGINT NOT NULL REFERENCES tables(no),
    no BIGINT NOT NULL,
    seat BIGINT,
    text TEXT NOT NULL,
    PRIMARY KEY (table_no, no)
);
CREATE TABLE clock_backs (
    table_no BIGINT NOT NULL REFERENCES tables(no),
    deal_no BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    PRIMARY KEY (table_no, deal_no, seq, seat)
);
