// What a push for one message needs, read after the message is stored and acknowledged: the
// recipient's browsers, what they allow a notification to show, who wrote, and whether the
// recipient muted that conversation.
import { sql } from 'drizzle-orm';
import type { Db } from './open-database';
import { listPushSubscriptions } from './push-subscriptions';
import { rows } from './raw-rows';
import type { PushSubscriptionRow } from './schema';

export interface PushTargets {
  subscriptions: PushSubscriptionRow[];
  recipient: { language: string; preview: string; sound: boolean };
  sender: { username: string | null; avatar: string | null };
}

interface TargetRow {
  language: string;
  notification_preview: string;
  notification_sound: boolean;
  sender_username: string | null;
  sender_avatar: string | null;
  muted: boolean;
}

/**
 * Null when nothing is to be pushed: the recipient has no browser registered (the common case,
 * one indexed lookup), is deactivated, or muted the conversation with the sender.
 */
export async function findPushTargets(db: Db, recipientId: number, senderId: number): Promise<PushTargets | null> {
  const subscriptions = await listPushSubscriptions(db, recipientId);
  if (subscriptions.length === 0) return null;
  const [row] = await rows<TargetRow>(
    db,
    sql`select r.language, r.notification_preview, r.notification_sound,
          s.username as sender_username, s.avatar as sender_avatar,
          ${conversationMuted(sql`c`)} as muted
        from users r
        join users s on s.id = ${senderId}
        left join conversations c on c.user_id = r.id and c.peer_id = s.id
        where r.id = ${recipientId} and r.is_active`,
  );
  if (!row || row.muted) return null;
  return {
    subscriptions,
    recipient: { language: row.language, preview: row.notification_preview, sound: row.notification_sound },
    sender: { username: row.sender_username, avatar: row.sender_avatar },
  };
}

/**
 * Whether the recipient muted the conversation: its `muted` column, which the conversation safety
 * work adds; until that column exists no conversation is muted. Read through the row's JSON so
 * this query runs on either schema; once the column is in server/db/schema.ts, read it directly.
 */
function conversationMuted(row: ReturnType<typeof sql>) {
  return sql`coalesce((to_jsonb(${row}) ->> 'muted')::boolean, false)`;
}
