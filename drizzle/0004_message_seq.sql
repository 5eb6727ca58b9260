-- Per-account message sequences (docs/DELIVERY.md). Existing messages are numbered in id order for
-- each account, as they were stored; users.last_seq then holds each account's newest.
ALTER TABLE "messages" ADD COLUMN "sender_seq" bigint;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "recipient_seq" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
WITH sides AS (
  SELECT "id", "sender_id" AS "user_id", true AS "is_sender" FROM "messages"
  UNION ALL
  SELECT "id", "recipient_id", false FROM "messages"
), numbered AS (
  SELECT "id", "is_sender", row_number() OVER (PARTITION BY "user_id" ORDER BY "id") AS "seq" FROM sides
)
UPDATE "messages" SET "sender_seq" = sent."seq", "recipient_seq" = received."seq"
FROM numbered sent, numbered received
WHERE sent."id" = "messages"."id" AND sent."is_sender"
  AND received."id" = "messages"."id" AND NOT received."is_sender";--> statement-breakpoint
UPDATE "users" SET "last_seq" = (
  SELECT count(*) FROM "messages" WHERE "messages"."sender_id" = "users"."id" OR "messages"."recipient_id" = "users"."id"
);--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "sender_seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "recipient_seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_sender_seq_unique" UNIQUE("sender_id","sender_seq");--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_recipient_seq_unique" UNIQUE("recipient_id","recipient_seq");
