ALTER TABLE "users" ADD COLUMN "show_presence" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_seen_at" timestamp (3) with time zone;