-- The conversation model's membership rows no longer key to conversations_v2 (as nothing keys to
-- the pair model's conversations since 0012): a direct conversation is created by its first message,
-- in the send path's statement with its two members and two list rows, and each key was a lookup per
-- row whose plan PGlite kept from when the table was small (docs/DECISIONS.md, "Conversations, not
-- pairs: sends write both models"). Dropping a constraint rewrites nothing.
ALTER TABLE "account_conversations" DROP CONSTRAINT "account_conversations_conversation_id_conversations_v2_id_fk";
--> statement-breakpoint
ALTER TABLE "conversation_members" DROP CONSTRAINT "conversation_members_conversation_id_conversations_v2_id_fk";
