-- Conversations first, the backfill again (docs/design/conversations.md 4.1–4.2; docs/DECISIONS.md,
-- "Conversations, not pairs: the backfill again"). Runs when this release starts, once no node of
-- the release before conversations is left: while those ran beside the release that writes both
-- models, they stored messages without a conversation, reactions and hidden messages without one,
-- reads, receipts, edits, unsendings and mutes in the pair model only. Nothing reads the
-- conversation model yet, so it is rebuilt from the pairs, which every release has kept whole:
-- a direct conversation for every pair with messages (the existing ones keep their ids); every
-- conversation's messages numbered 1…n again in the order stored, each message's version its seq;
-- the streams of changes and of each account's private items start again empty (their state is
-- in the rows: reactions, text, unsendings, hides, positions, mutes); heads, members and list rows
-- recomputed as 0017 made them. Then what must hold from now on: every message, reaction and hidden
-- message in a conversation, one message per (conversation, seq).
--
-- The tables are locked first, users first as every writer locks them: a node still writing both
-- models waits for the migration and then carries on from the rebuilt heads.
LOCK TABLE "users", "conversations", "messages", "message_reactions", "message_hidden", "conversations_v2", "conversation_members", "account_conversations", "conversation_events", "account_events" IN EXCLUSIVE MODE;--> statement-breakpoint
INSERT INTO "conversations_v2" ("kind", "direct_low", "direct_high", "created_at", "member_count", "changed_xid")
SELECT 'direct', least(m."sender_id", m."recipient_id"), greatest(m."sender_id", m."recipient_id"), min(m."created_at"), 2, pg_current_xact_id()
FROM "messages" m
WHERE m."sender_id" <> m."recipient_id" AND NOT EXISTS (
  SELECT 1 FROM "conversations_v2" c
  WHERE c."kind" = 'direct' AND c."direct_low" = least(m."sender_id", m."recipient_id") AND c."direct_high" = greatest(m."sender_id", m."recipient_id"))
GROUP BY least(m."sender_id", m."recipient_id"), greatest(m."sender_id", m."recipient_id")
ORDER BY min(m."id");--> statement-breakpoint
TRUNCATE "conversation_events", "account_events";--> statement-breakpoint
UPDATE "users" SET "account_seq" = 0 WHERE "account_seq" <> 0;--> statement-breakpoint
UPDATE "messages" SET "conversation_id" = numbered."conversation_id", "seq" = numbered."seq", "version" = numbered."seq"
FROM (
  SELECT m."id", c."id" AS "conversation_id", row_number() OVER (PARTITION BY c."id" ORDER BY m."id") AS "seq"
  FROM "messages" m
  JOIN "conversations_v2" c ON c."kind" = 'direct'
    AND c."direct_low" = least(m."sender_id", m."recipient_id") AND c."direct_high" = greatest(m."sender_id", m."recipient_id")
) numbered
WHERE numbered."id" = "messages"."id"
  AND ("messages"."conversation_id" IS DISTINCT FROM numbered."conversation_id" OR "messages"."seq" IS DISTINCT FROM numbered."seq"
    OR "messages"."version" IS DISTINCT FROM numbered."seq");--> statement-breakpoint
UPDATE "conversations_v2" SET "last_seq" = head."seq", "last_message_seq" = head."seq", "last_message_id" = head."id",
  "last_message_at" = head."created_at", "member_count" = 2, "changed_xid" = pg_current_xact_id()
FROM (
  SELECT DISTINCT ON ("conversation_id") "conversation_id", "seq", "id", "created_at"
  FROM "messages" WHERE "conversation_id" IS NOT NULL
  ORDER BY "conversation_id", "seq" DESC
) head
WHERE head."conversation_id" = "conversations_v2"."id";--> statement-breakpoint
INSERT INTO "conversation_members" ("conversation_id", "user_id", "read_seq", "seen_seq", "seen_at", "wrote", "muted", "joined_seq", "joined_at", "left_seq", "left_at", "left_reason")
WITH "received" AS (
  SELECT "conversation_id", "recipient_id" AS "user_id",
    min("seq") FILTER (WHERE "read_at" IS NULL) AS "first_unread",
    max("seq") FILTER (WHERE "seen_at" IS NOT NULL) AS "seen_seq",
    (array_agg("seen_at" ORDER BY "seq" DESC) FILTER (WHERE "seen_at" IS NOT NULL))[1] AS "seen_at"
  FROM "messages" WHERE "conversation_id" IS NOT NULL
  GROUP BY "conversation_id", "recipient_id"
), "sent" AS (
  SELECT DISTINCT "conversation_id", "sender_id" AS "user_id" FROM "messages" WHERE "conversation_id" IS NOT NULL
)
SELECT c."id", side."user_id",
  coalesce(received."first_unread" - 1, c."last_seq"),
  coalesce(received."seen_seq", 0), received."seen_at",
  sent."user_id" IS NOT NULL,
  coalesce(pair."muted", false),
  0, c."created_at",
  CASE WHEN u."deleted_at" IS NOT NULL THEN c."last_seq" END,
  u."deleted_at",
  CASE WHEN u."deleted_at" IS NOT NULL THEN 'deleted' END
FROM "conversations_v2" c
CROSS JOIN LATERAL (VALUES (c."direct_low", c."direct_high"), (c."direct_high", c."direct_low")) AS side("user_id", "peer_id")
JOIN "users" u ON u."id" = side."user_id"
LEFT JOIN "received" ON "received"."conversation_id" = c."id" AND "received"."user_id" = side."user_id"
LEFT JOIN "sent" ON "sent"."conversation_id" = c."id" AND "sent"."user_id" = side."user_id"
LEFT JOIN "conversations" pair ON pair."user_id" = side."user_id" AND pair."peer_id" = side."peer_id"
WHERE c."kind" = 'direct'
ON CONFLICT ("conversation_id", "user_id") DO UPDATE SET
  "read_seq" = excluded."read_seq", "seen_seq" = excluded."seen_seq", "seen_at" = excluded."seen_at", "wrote" = excluded."wrote",
  "muted" = excluded."muted", "left_seq" = excluded."left_seq", "left_at" = excluded."left_at", "left_reason" = excluded."left_reason";--> statement-breakpoint
INSERT INTO "account_conversations" ("user_id", "conversation_id", "kind", "peer_id", "left_at")
SELECT m."user_id", m."conversation_id", 'direct', CASE WHEN m."user_id" = c."direct_low" THEN c."direct_high" ELSE c."direct_low" END, m."left_at"
FROM "conversation_members" m JOIN "conversations_v2" c ON c."id" = m."conversation_id"
ON CONFLICT ("user_id", "conversation_id") DO UPDATE SET "kind" = excluded."kind", "peer_id" = excluded."peer_id", "left_at" = excluded."left_at";--> statement-breakpoint
UPDATE "message_reactions" SET "conversation_id" = m."conversation_id" FROM "messages" m
WHERE m."id" = "message_reactions"."message_id" AND "message_reactions"."conversation_id" IS DISTINCT FROM m."conversation_id";--> statement-breakpoint
UPDATE "message_hidden" SET "conversation_id" = m."conversation_id" FROM "messages" m
WHERE m."id" = "message_hidden"."message_id" AND "message_hidden"."conversation_id" IS DISTINCT FROM m."conversation_id";--> statement-breakpoint
DROP INDEX "messages_conversation_seq_idx";--> statement-breakpoint
ALTER TABLE "message_hidden" ALTER COLUMN "conversation_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "message_reactions" ALTER COLUMN "conversation_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "conversation_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "version" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_conversation_seq_idx" ON "messages" USING btree ("conversation_id","seq");