-- Conversations first, the expand step (docs/design/conversations.md, docs/DECISIONS.md "Conversations,
-- not pairs"): the conversation model's tables and columns beside the pair model, which still serves
-- every query, and a backfill from the pairs. One direct conversation per pair that has messages;
-- its messages numbered 1, 2, 3... in id order (the order they were stored); its head; two members,
-- each with the pair's unread state as a position (read up to the message before their first unread
-- one, else all), their newest read receipt, whether they wrote, their mute, and for a deleted
-- account the end of its membership; the account's list of conversations; reactions and hidden
-- messages with their message's conversation. Nothing reads these yet; a node of the previous
-- release stores messages without them during a rolling deploy, which the next migration fills.
CREATE TABLE "account_conversations" (
	"user_id" integer NOT NULL,
	"conversation_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"peer_id" integer,
	"left_at" timestamp with time zone,
	CONSTRAINT "account_conversations_user_id_conversation_id_pk" PRIMARY KEY("user_id","conversation_id"),
	CONSTRAINT "account_conversations_kind_check" CHECK ("account_conversations"."kind" in ('direct', 'group') and ("account_conversations"."kind" = 'direct') = ("account_conversations"."peer_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "account_events" (
	"user_id" integer NOT NULL,
	"seq" bigint NOT NULL,
	"conversation_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"state" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_events_user_id_seq_pk" PRIMARY KEY("user_id","seq"),
	CONSTRAINT "account_events_kind_check" CHECK ("account_events"."kind" in ('read', 'hide', 'joined', 'removed', 'left', 'muted'))
);
--> statement-breakpoint
CREATE TABLE "conversation_events" (
	"conversation_id" bigint NOT NULL,
	"seq" bigint NOT NULL,
	"message_id" bigint,
	"actor_id" integer NOT NULL,
	"kind" text NOT NULL,
	"state" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversation_events_conversation_id_seq_pk" PRIMARY KEY("conversation_id","seq"),
	CONSTRAINT "conversation_events_kind_check" CHECK ("conversation_events"."kind" in ('reaction', 'edit', 'unsend', 'member_added', 'member_removed', 'member_left', 'role', 'title'))
);
--> statement-breakpoint
CREATE TABLE "conversation_members" (
	"conversation_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"read_seq" bigint DEFAULT 0 NOT NULL,
	"seen_seq" bigint DEFAULT 0 NOT NULL,
	"seen_at" timestamp with time zone,
	"wrote" boolean DEFAULT false NOT NULL,
	"muted" boolean DEFAULT false NOT NULL,
	"joined_seq" bigint DEFAULT 0 NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"added_by" integer,
	"left_seq" bigint,
	"left_at" timestamp with time zone,
	"left_reason" text,
	CONSTRAINT "conversation_members_conversation_id_user_id_pk" PRIMARY KEY("conversation_id","user_id"),
	CONSTRAINT "conversation_members_role_check" CHECK ("conversation_members"."role" in ('member', 'admin')),
	CONSTRAINT "conversation_members_left_check" CHECK (("conversation_members"."left_at" is null) = ("conversation_members"."left_reason" is null) and "conversation_members"."left_reason" in ('left', 'removed', 'deleted'))
);
--> statement-breakpoint
CREATE TABLE "conversations_v2" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "conversations_v2_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"direct_low" integer,
	"direct_high" integer,
	"title" text,
	"avatar_upload_id" text,
	"created_by" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_seq" bigint DEFAULT 0 NOT NULL,
	"last_message_seq" bigint,
	"last_message_id" bigint,
	"last_message_at" timestamp with time zone,
	"member_count" integer DEFAULT 0 NOT NULL,
	"members_version" integer DEFAULT 0 NOT NULL,
	"changed_xid" "xid8",
	CONSTRAINT "conversations_v2_kind_check" CHECK ("conversations_v2"."kind" in ('direct', 'group')),
	CONSTRAINT "conversations_v2_direct_pair_check" CHECK (("conversations_v2"."kind" = 'direct') = ("conversations_v2"."direct_low" is not null and "conversations_v2"."direct_high" is not null and "conversations_v2"."direct_low" < "conversations_v2"."direct_high")),
	CONSTRAINT "conversations_v2_member_count_check" CHECK ("conversations_v2"."member_count" between 0 and 256)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "account_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "message_hidden" ADD COLUMN "conversation_id" bigint;--> statement-breakpoint
ALTER TABLE "message_reactions" ADD COLUMN "conversation_id" bigint;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "conversation_id" bigint;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "seq" bigint;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "version" bigint;--> statement-breakpoint
ALTER TABLE "account_conversations" ADD CONSTRAINT "account_conversations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_conversations" ADD CONSTRAINT "account_conversations_conversation_id_conversations_v2_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations_v2"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_members" ADD CONSTRAINT "conversation_members_conversation_id_conversations_v2_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations_v2"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_members" ADD CONSTRAINT "conversation_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations_v2" ADD CONSTRAINT "conversations_v2_avatar_upload_id_uploads_id_fk" FOREIGN KEY ("avatar_upload_id") REFERENCES "public"."uploads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations_v2" ADD CONSTRAINT "conversations_v2_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_conversations_peer_idx" ON "account_conversations" USING btree ("user_id","peer_id") WHERE "account_conversations"."peer_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_v2_direct_pair_idx" ON "conversations_v2" USING btree ("direct_low","direct_high") WHERE "conversations_v2"."kind" = 'direct';--> statement-breakpoint

INSERT INTO "conversations_v2" ("kind", "direct_low", "direct_high", "created_at", "member_count", "changed_xid")
SELECT 'direct', least("sender_id", "recipient_id"), greatest("sender_id", "recipient_id"), min("created_at"), 2, pg_current_xact_id()
FROM "messages"
WHERE "sender_id" <> "recipient_id"
GROUP BY least("sender_id", "recipient_id"), greatest("sender_id", "recipient_id")
ORDER BY min("id");--> statement-breakpoint
UPDATE "messages" SET "conversation_id" = numbered."conversation_id", "seq" = numbered."seq", "version" = numbered."seq"
FROM (
  SELECT m."id", c."id" AS "conversation_id", row_number() OVER (PARTITION BY c."id" ORDER BY m."id") AS "seq"
  FROM "messages" m
  JOIN "conversations_v2" c ON c."kind" = 'direct'
    AND c."direct_low" = least(m."sender_id", m."recipient_id") AND c."direct_high" = greatest(m."sender_id", m."recipient_id")
) numbered
WHERE numbered."id" = "messages"."id";--> statement-breakpoint
UPDATE "conversations_v2" SET "last_seq" = head."seq", "last_message_seq" = head."seq", "last_message_id" = head."id", "last_message_at" = head."created_at"
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
WHERE c."kind" = 'direct';--> statement-breakpoint
INSERT INTO "account_conversations" ("user_id", "conversation_id", "kind", "peer_id", "left_at")
SELECT m."user_id", m."conversation_id", 'direct', CASE WHEN m."user_id" = c."direct_low" THEN c."direct_high" ELSE c."direct_low" END, m."left_at"
FROM "conversation_members" m JOIN "conversations_v2" c ON c."id" = m."conversation_id";--> statement-breakpoint
UPDATE "message_reactions" SET "conversation_id" = m."conversation_id" FROM "messages" m WHERE m."id" = "message_reactions"."message_id";--> statement-breakpoint
UPDATE "message_hidden" SET "conversation_id" = m."conversation_id" FROM "messages" m WHERE m."id" = "message_hidden"."message_id";--> statement-breakpoint
CREATE INDEX "messages_conversation_seq_idx" ON "messages" USING btree ("conversation_id","seq");
