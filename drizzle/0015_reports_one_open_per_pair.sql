ALTER TABLE "reports" ADD COLUMN "filings" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "last_filed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "reports" SET "last_filed_at" = "created_at";--> statement-breakpoint
-- Open reports filed more than once by one reporter against one person become one: the first,
-- counting the others as filings (and taking a message from them if it had none), the others go.
WITH "groups" AS (
  SELECT min("id") AS "keep", count(*) AS "filings", max("created_at") AS "last_filed_at",
    (array_agg("message_id" ORDER BY "id") FILTER (WHERE "message_id" IS NOT NULL))[1] AS "message_id",
    (array_agg("message_text" ORDER BY "id") FILTER (WHERE "message_text" IS NOT NULL))[1] AS "message_text"
  FROM "reports" WHERE "resolved_at" IS NULL
  GROUP BY "reporter_id", "reported_user_id" HAVING count(*) > 1
)
UPDATE "reports" SET "filings" = "groups"."filings", "last_filed_at" = "groups"."last_filed_at",
  "message_id" = coalesce("reports"."message_id", "groups"."message_id"),
  "message_text" = coalesce("reports"."message_text", "groups"."message_text")
FROM "groups" WHERE "reports"."id" = "groups"."keep";--> statement-breakpoint
DELETE FROM "reports" AS "r" USING "reports" AS "first"
WHERE "r"."resolved_at" IS NULL AND "first"."resolved_at" IS NULL
  AND "first"."reporter_id" = "r"."reporter_id" AND "first"."reported_user_id" = "r"."reported_user_id"
  AND "first"."id" < "r"."id";--> statement-breakpoint
CREATE UNIQUE INDEX "reports_open_pair_idx" ON "reports" USING btree ("reporter_id","reported_user_id") WHERE "reports"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "reports_reported_idx" ON "reports" USING btree ("reported_user_id");
