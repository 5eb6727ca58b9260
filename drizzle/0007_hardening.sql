DROP INDEX "users_username_prefix_idx";--> statement-breakpoint
DROP INDEX "users_email_prefix_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "firebase_checked_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "users_username_search_idx" ON "users" USING gin (to_tsvector('simple', translate("username", '.@/-', '    '))) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
-- Avatars are https only (the pages' CSP shows no other images): older http ones are dropped.
UPDATE "users" SET "avatar" = NULL WHERE "avatar" IS NOT NULL AND "avatar" NOT LIKE 'https://%';
--> statement-breakpoint
-- Names are stored without invisible characters (lib/contract/display-text.ts). Older ones lose
-- those that never belong in a name (bidi controls, zero-width space, word joiner, invisible
-- operators, BOM, soft hyphen); the whole rule applies at each user's next sign-in.
UPDATE "users" SET "username" = NULLIF(btrim(regexp_replace("username", '[\u061C\u00AD\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]', '', 'g')), '')
  WHERE "username" ~ '[\u061C\u00AD\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]';--> statement-breakpoint
UPDATE "uploads" SET "name" = COALESCE(NULLIF(btrim(regexp_replace("name", '[\u061C\u00AD\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]', '', 'g')), ''), 'file')
  WHERE "name" ~ '[\u061C\u00AD\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]';
