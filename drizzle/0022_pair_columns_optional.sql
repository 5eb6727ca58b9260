-- The pair model no longer written (docs/design/conversations.md 4.1, R3; docs/DECISIONS.md,
-- "Conversations, not pairs: the pair model no longer written"). From this release on a message
-- has no per-account seqs, and a group's has no recipient, so the three columns become optional;
-- rows written before keep their values until the contract step drops the columns. The partial
-- index of unread rows goes now: read_at is no longer set, so every new message would stay in it
-- for good, one more index entry per send. A node of the previous release still reading a
-- conversation during the rollout finds those rows by the recipient's seq index instead: slower,
-- the same answer.
DROP INDEX "messages_unread_by_pair_idx";--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "recipient_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "sender_seq" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "recipient_seq" DROP NOT NULL;
