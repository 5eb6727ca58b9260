// What a push for one message needs, read after the message is stored and acknowledged: the
// recipient's browsers, what they allow a notification to show, who wrote, and whether anything
// says this message must not notify (muted, blocked, account gone, device signed out).
import { and, eq, sql } from 'drizzle-orm';
import type { SessionRules } from './session-rules';
import type { Db } from './engine/open-database';
import { rows } from './engine/raw-rows';
import { blockedEitherWay } from './safety-rules';
import { pushSubscriptions, sessions, type PushSubscriptionRow } from './schema';
import { live } from './sessions';

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
  blocked: boolean;
}

/**
 * The recipient's subscriptions whose session is still live: a device whose session was revoked
 * (signed out, Firebase account gone) or expired (idle or too old) is nobody's any more, even if
 * its row was not removed yet.
 */
async function liveSubscriptions(db: Db, userId: number, rules: Pick<SessionRules, 'idleMs' | 'maxMs'>): Promise<PushSubscriptionRow[]> {
  const found = await db
    .select({ subscription: pushSubscriptions })
    .from(pushSubscriptions)
    .innerJoin(sessions, eq(sessions.id, pushSubscriptions.sessionId))
    .where(and(eq(pushSubscriptions.userId, userId), live(rules)));
  return found.map((row) => row.subscription);
}

/**
 * Null when nothing is to be pushed: the recipient has no live browser registered (the common
 * case, one indexed lookup), is deactivated or deleted, muted the conversation with the sender,
 * or either of the two blocked the other (the send is refused then; a block made between the
 * send and its push wins too).
 */
export async function findPushTargets(
  db: Db,
  recipientId: number,
  senderId: number,
  rules: Pick<SessionRules, 'idleMs' | 'maxMs'>,
): Promise<PushTargets | null> {
  const subscriptions = await liveSubscriptions(db, recipientId, rules);
  if (subscriptions.length === 0) return null;
  const [row] = await rows<TargetRow>(
    db,
    sql`select r.language, r.notification_preview, r.notification_sound,
          s.username as sender_username, s.avatar as sender_avatar,
          coalesce(c.muted, false) as muted,
          ${blockedEitherWay(sql`r.id`, sql`s.id`)} as blocked
        from users r
        join users s on s.id = ${senderId}
        left join account_conversations a on a.user_id = r.id and a.peer_id = s.id
        left join conversation_members c on c.conversation_id = a.conversation_id and c.user_id = r.id
        where r.id = ${recipientId} and r.is_active and r.deleted_at is null`,
  );
  if (!row || row.muted || row.blocked) return null;
  return {
    subscriptions,
    recipient: { language: row.language, preview: row.notification_preview, sound: row.notification_sound },
    sender: { username: row.sender_username, avatar: row.sender_avatar },
  };
}
