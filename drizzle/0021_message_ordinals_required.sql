-- The ordinals required (docs/design/conversations.md 3.6; docs/DECISIONS.md, "Conversations, not
-- pairs: unread counts from ordinals, required"). While the previous release rolled out, nodes of the release
-- before it stored messages without ordinals, and this one's numbered theirs after heads that had
-- missed those; so every message is numbered again from the order of its seqs (only rows whose
-- numbers differ are written), every head counted again, and then the three are required. From
-- this release on, unread counts and totals come from them. The tables a send writes are locked
-- first, users first as every writer locks them: a node of the release before, still sending during
-- the rollout, would otherwise number a message from a head this migration is counting again
-- (reads go on; on PGlite, one connection, it changes nothing).
LOCK TABLE "users", "messages", "conversations_v2" IN EXCLUSIVE MODE;--> statement-breakpoint
UPDATE "messages" SET "ordinal" = numbered."ordinal", "sender_ordinal" = numbered."sender_ordinal"
FROM (
  SELECT "id",
    row_number() OVER (PARTITION BY "conversation_id" ORDER BY "seq") AS "ordinal",
    row_number() OVER (PARTITION BY "conversation_id", "sender_id" ORDER BY "seq") AS "sender_ordinal"
  FROM "messages"
) numbered
WHERE numbered."id" = "messages"."id"
  AND ("messages"."ordinal" IS DISTINCT FROM numbered."ordinal" OR "messages"."sender_ordinal" IS DISTINCT FROM numbered."sender_ordinal");--> statement-breakpoint
UPDATE "conversations_v2" SET "message_count" = coalesce(counted."count", 0)
FROM "conversations_v2" c LEFT JOIN (SELECT "conversation_id", count(*) AS "count" FROM "messages" GROUP BY "conversation_id") counted
  ON counted."conversation_id" = c."id"
WHERE c."id" = "conversations_v2"."id" AND "conversations_v2"."message_count" IS DISTINCT FROM coalesce(counted."count", 0);--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "ordinal" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "sender_ordinal" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations_v2" ALTER COLUMN "message_count" SET DEFAULT 0;--> statement-breakpoint
ALTER TABLE "conversations_v2" ALTER COLUMN "message_count" SET NOT NULL;