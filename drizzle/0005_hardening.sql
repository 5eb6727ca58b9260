DROP INDEX "users_username_prefix_idx";--> statement-breakpoint
DROP INDEX "users_email_prefix_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "firebase_checked_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "users_username_search_idx" ON "users" USING gin (to_tsvector('simple', translate("username", '.@/-', '    '))) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
-- Avatars are https only (the pages' CSP shows no other images): older http ones are dropped.
UPDATE "users" SET "avatar" = NULL WHERE "avatar" IS NOT NULL AND "avatar" NOT LIKE 'https://%';
