// The conversation list as pure functions: one row per person, newest last message first.
import type { Conversation, MessagePayload, UserSummary } from '@/lib/contract';

function time(message: MessagePayload): number {
  const parsed = Date.parse(message.created_at);
  return Number.isNaN(parsed) ? 0 : parsed;
}

/** Positive when `a` is newer: by time, then by id (the server's ids grow with time). */
export function compareMessages(a: MessagePayload, b: MessagePayload): number {
  return time(a) - time(b) || a.id - b.id;
}

function sortConversations(list: readonly Conversation[]): Conversation[] {
  return [...list].sort((a, b) => compareMessages(b.last_message, a.last_message));
}

/**
 * Rows read from the server merged into what we show. A row whose last message is older than
 * ours arrived after a live update, so ours is kept; otherwise the server's row (and its unread
 * count, which the server owns) wins.
 */
export function mergeConversations(list: readonly Conversation[], rows: readonly Conversation[], hidden: ReadonlySet<number> = new Set()): Conversation[] {
  const byPeer = new Map<number, Conversation>(list.map((row) => [row.user.id, row]));
  for (const row of rows) {
    const ours = byPeer.get(row.user.id);
    if (ours && hidden.has(row.last_message.id)) {
      // Read before a deletion for oneself heard since: our row already shows what it shows now.
      byPeer.set(row.user.id, { ...ours, user: row.user });
    } else if (ours && compareMessages(ours.last_message, row.last_message) > 0) {
      byPeer.set(row.user.id, { ...ours, user: row.user });
    } else if (ours && ours.last_message.id === row.last_message.id && ours.last_message.version > row.last_message.version) {
      // The same message, changed since the row was read (an edit heard live meanwhile): the server's row, our copy of it.
      byPeer.set(row.user.id, { ...row, last_message: ours.last_message });
    } else {
      byPeer.set(row.user.id, row);
    }
  }
  return sortConversations([...byPeer.values()]);
}

/**
 * The first page read again (a reconnect, a refresh): rows the server no longer lists are dropped
 * (someone blocked on a device that missed the event, an account gone). The page holds every
 * conversation whose last message lies in its range (all of them when it is the only page), so a
 * local row inside that range but absent from it is gone; a row newer than the page arrived live
 * after the read and is kept, and one older than the page lies on a later page.
 */
export function dropUnlisted(list: readonly Conversation[], page: readonly Conversation[], lastPage: boolean): Conversation[] {
  if (page.length === 0) return list as Conversation[];
  const listed = new Set(page.map((row) => row.user.id));
  const ids = page.map((row) => row.last_message.id);
  const newest = ids.length > 0 ? Math.max(...ids) : -Infinity;
  const oldest = lastPage ? -Infinity : Math.min(...ids);
  const kept = list.filter((row) => listed.has(row.user.id) || row.last_message.id > newest || row.last_message.id < oldest);
  return kept.length === list.length ? (list as Conversation[]) : kept;
}

/** Until the person's profile arrives, a new conversation shows them by id only. */
function unknownUser(id: number): UserSummary {
  return { id, username: null, avatar: null, is_following: false, follows_you: false, deleted: false };
}

/**
 * A live message with `peerId` (incoming or the user's own): it becomes the row's last message,
 * the row moves to the top, and `unread` adds to its badge. The same message twice changes nothing.
 */
export function applyMessage(
  list: readonly Conversation[],
  peerId: number,
  message: MessagePayload,
  unread: number,
): Conversation[] {
  const ours = list.find((row) => row.user.id === peerId);
  if (ours?.last_message.id === message.id) return list as Conversation[];
  const newer = !ours || compareMessages(message, ours.last_message) > 0;
  const row: Conversation = {
    user: ours?.user ?? unknownUser(peerId),
    last_message: newer ? message : ours.last_message,
    unread_count: (ours?.unread_count ?? 0) + unread,
    muted: ours?.muted ?? false,
  };
  return sortConversations([row, ...list.filter((other) => other.user.id !== peerId)]);
}

/**
 * Several peers' newest messages at once (a sync page), none of them unread: like applyMessage
 * for each, with one sort at the end.
 */
export function applyMessages(list: readonly Conversation[], newest: ReadonlyMap<number, MessagePayload>): Conversation[] {
  let changed = false;
  const byPeer = new Map<number, Conversation>(list.map((row) => [row.user.id, row]));
  for (const [peerId, message] of newest) {
    const ours = byPeer.get(peerId);
    if (ours && (ours.last_message.id === message.id || compareMessages(message, ours.last_message) <= 0)) continue;
    byPeer.set(peerId, {
      user: ours?.user ?? unknownUser(peerId),
      last_message: message,
      unread_count: ours?.unread_count ?? 0,
      muted: ours?.muted ?? false,
    });
    changed = true;
  }
  return changed ? sortConversations([...byPeer.values()]) : (list as Conversation[]);
}

export function setUnread(list: readonly Conversation[], peerId: number, count: number): Conversation[] {
  return list.map((row) => (row.user.id === peerId ? { ...row, unread_count: Math.max(0, count) } : row));
}
