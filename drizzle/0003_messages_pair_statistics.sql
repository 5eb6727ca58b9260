-- The planner treats least(...) = a and greatest(...) = b as independent and underestimates busy
-- pairs, which can make it sort a whole thread instead of reading messages_pair_idx backwards.
-- Statistics on the pair itself (PostgreSQL 14+) give it the real row counts of common pairs.
CREATE STATISTICS IF NOT EXISTS "messages_pair_stats" (mcv, ndistinct)
  ON least("sender_id", "recipient_id"), greatest("sender_id", "recipient_id") FROM "messages";
