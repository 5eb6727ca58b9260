-- Counts on the message rows, from which unread counts come in a few index probes however many are
-- unread (docs/design/conversations.md 3.6; docs/DECISIONS.md, "Conversations, not pairs: unread
-- from ordinals"). Each message gets its place among the conversation's messages (`ordinal`) and
-- among its sender's there (`sender_ordinal`); each head the conversation's number of messages.
-- Nullable in this release: nodes of the release before may still run while it rolls out, and what
-- they store has none. Nothing reads them yet; the next release's migration numbers everything
-- again (as 0019 did the seqs), makes them required, and only then do counts come from them.
ALTER TABLE "messages" ADD COLUMN "ordinal" bigint;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "sender_ordinal" bigint;--> statement-breakpoint
ALTER TABLE "conversations_v2" ADD COLUMN "message_count" bigint;--> statement-breakpoint
UPDATE "messages" SET "ordinal" = numbered."ordinal", "sender_ordinal" = numbered."sender_ordinal"
FROM (
  SELECT "id",
    row_number() OVER (PARTITION BY "conversation_id" ORDER BY "seq") AS "ordinal",
    row_number() OVER (PARTITION BY "conversation_id", "sender_id" ORDER BY "seq") AS "sender_ordinal"
  FROM "messages"
) numbered
WHERE numbered."id" = "messages"."id";--> statement-breakpoint
UPDATE "conversations_v2" SET "message_count" = counted."count"
FROM (SELECT "conversation_id", count(*) AS "count" FROM "messages" GROUP BY "conversation_id") counted
WHERE counted."conversation_id" = "conversations_v2"."id";--> statement-breakpoint
UPDATE "conversations_v2" SET "message_count" = 0 WHERE "message_count" IS NULL;--> statement-breakpoint
CREATE INDEX "message_hidden_conversation_idx" ON "message_hidden" USING btree ("user_id","conversation_id");--> statement-breakpoint
CREATE INDEX "messages_conversation_sender_idx" ON "messages" USING btree ("conversation_id","sender_id","seq");--> statement-breakpoint
CREATE INDEX "messages_unsent_idx" ON "messages" USING btree ("conversation_id","seq") WHERE "messages"."deleted_at" is not null;
