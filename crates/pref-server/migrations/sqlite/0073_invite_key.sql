-- The invite key's own hash: the key is made from the host token (which only its holder
-- has), no longer from the host token's stored hash, so a copy of the database does not give
-- it. A table stored before keeps NULL here and its old key, made from the stored hash.
ALTER TABLE tables ADD COLUMN invite TEXT;
