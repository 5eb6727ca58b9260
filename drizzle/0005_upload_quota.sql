CREATE TABLE "upload_reservations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "upload_reservations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "attached_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "upload_reservations" ADD CONSTRAINT "upload_reservations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "upload_reservations_user_id_idx" ON "upload_reservations" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "uploads_unattached_idx" ON "uploads" USING btree ("created_at") WHERE "uploads"."attached_at" is null;--> statement-breakpoint
-- Hand-written: uploads that messages already carry count as attached since their first message,
-- so the sweeper never takes them for leftovers.
UPDATE "uploads" SET "attached_at" = "first"."created_at"
FROM (SELECT "attachment_id", min("created_at") AS "created_at" FROM "messages" WHERE "attachment_id" IS NOT NULL GROUP BY "attachment_id") AS "first"
WHERE "first"."attachment_id" = "uploads"."id";
