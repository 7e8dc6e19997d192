-- When a scorekeeping sheet and a saved profile were last used (seconds since 1970): a sheet
-- or profile nobody used for `limits.keeper_expire_days` / `limits.profile_expire_days` is
-- deleted (docs/security.md). A sheet stored before counts from its last change; a profile,
-- which had no date, from this migration.
ALTER TABLE keeper_sheets ADD COLUMN used INTEGER NOT NULL DEFAULT 0;
UPDATE keeper_sheets SET used = COALESCE(
    (SELECT MAX(at) FROM keeper_changes WHERE keeper_changes.sheet_no = keeper_sheets.no),
    created);
CREATE INDEX keeper_sheets_used ON keeper_sheets (used);
ALTER TABLE profiles ADD COLUMN used INTEGER NOT NULL DEFAULT 0;
UPDATE profiles SET used = CAST(strftime('%s', 'now') AS INTEGER);
CREATE INDEX profiles_used ON profiles (used);
