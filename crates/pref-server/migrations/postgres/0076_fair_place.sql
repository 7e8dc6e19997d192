-- Provably fair deals under pref-fair/2 (docs/fairness.md): each deal's seed row says which
-- scheme it was dealt under, 2 for every new deal (its values name the table and the deal's
-- number); rows stored before are pref-fair/1 deals and are restored as such.
ALTER TABLE fair_seeds ADD COLUMN scheme BIGINT NOT NULL DEFAULT 1;
