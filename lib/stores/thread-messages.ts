// A thread's messages as pure functions: pages arrive newest first, the UI shows them oldest
// first, and the same message may arrive several times (page, live event, ack, retry).
import type { MessagePayload, SendRefusal, ThreadPage } from '@/lib/contract';

type MessageStatus = 'sending' | 'sent' | 'failed';

export interface ThreadMessage extends Omit<MessagePayload, 'id' | 'seq' | 'version'> {
  /** The server's id; null until the server has stored the message. */
  id: number | null;
  /** Its place in its conversation's stream (lib/stores/held-messages.ts); null until stored. */
  seq: number | null;
  /** The conversation seq of the latest change this copy reflects (MessagePayload.version); null until stored. */
  version: number | null;
  status: MessageStatus;
  /** Why sending failed (the server's error message); null otherwise. */
  error: string | null;
  /** Refused for good (failed, and asking again would be refused again): why. Absent otherwise. */
  refusal?: SendRefusal;
}

/** What a message the user composed carries before the server has it: nothing changed yet. */
export const UNCHANGED = { edited_at: null, deleted: false, reactions: [], version: null } as const satisfies Partial<ThreadMessage>;

/** Unique per message even before it is stored: the server dedups on the same pair. */
export function messageKey(message: Pick<MessagePayload, 'sender_id' | 'client_id'>): string {
  return `${message.sender_id}:${message.client_id}`;
}

export function fromServer(message: MessagePayload): ThreadMessage {
  return { ...message, status: 'sent', error: null };
}

/**
 * Stored messages in the order the server stored them: a conversation's ids increase in commit
 * order (both accounts are locked while a message is stored), which a created_at taken at the
 * start of a transaction that then waited could contradict.
 */
function chronological(a: ThreadMessage, b: ThreadMessage): number {
  return (a.id ?? 0) - (b.id ?? 0);
}

/** Stored messages in time order, then the ones not stored yet in the order they were written. */
function ordered(messages: Iterable<ThreadMessage>): ThreadMessage[] {
  const stored: ThreadMessage[] = [];
  const unsent: ThreadMessage[] = [];
  for (const message of messages) (message.id === null ? unsent : stored).push(message);
  return [...stored.sort(chronological), ...unsent];
}

/**
 * Server messages (a page in any order, or one live message) merged into a thread without
 * duplicates: a message already there by id or by (sender, client id) is replaced by the
 * server's copy, which also settles a local "sending"/"failed" one, unless the held copy reflects
 * a newer change to it (its version).
 */
export function mergeMessages(existing: readonly ThreadMessage[], incoming: readonly MessagePayload[]): ThreadMessage[] {
  if (incoming.length === 0) return existing as ThreadMessage[];
  const byKey = new Map<string, ThreadMessage>();
  const keyById = new Map<number, string>();
  for (const message of existing) {
    byKey.set(messageKey(message), message);
    if (message.id !== null) keyById.set(message.id, messageKey(message));
  }
  for (const message of incoming) {
    const key = messageKey(message);
    const previousKey = keyById.get(message.id);
    const held = byKey.get(previousKey ?? key);
    // A copy read before a change the thread already applied (a page answered late) is older.
    if (held?.version != null && held.version > message.version) continue;
    if (previousKey !== undefined && previousKey !== key) byKey.delete(previousKey);
    byKey.set(key, fromServer(message));
    keyById.set(message.id, key);
  }
  return ordered(byKey.values());
}

/** Adds a message not stored yet (the optimistic one) at the end. */
export function appendLocal(existing: readonly ThreadMessage[], message: ThreadMessage): ThreadMessage[] {
  return [...existing.filter((other) => messageKey(other) !== messageKey(message)), message];
}

export function updateLocal(
  existing: readonly ThreadMessage[],
  key: string,
  patch: Partial<Pick<ThreadMessage, 'status' | 'error' | 'refusal'>>,
): ThreadMessage[] {
  return existing.map((message) => (messageKey(message) === key && message.id === null ? { ...message, ...patch } : message));
}

/** A message not stored yet leaves the thread (a refused one the user removed). */
export function removeLocal(existing: readonly ThreadMessage[], key: string): ThreadMessage[] {
  return existing.filter((message) => !(messageKey(message) === key && message.id === null));
}

/** The ack's stored message takes the place of the local one it answers. */
export function settleLocal(existing: readonly ThreadMessage[], key: string, stored: MessagePayload): ThreadMessage[] {
  return mergeMessages(removeLocal(existing, key), [stored]);
}

/**
 * A thread holds its stored messages without a hole: from its oldest held to the newest, older
 * ones coming by paging (nextCursor). `messages` kept from `oldestId` on (and those not stored yet).
 */
export function fromOldest<T extends { id: number | null }>(messages: readonly T[], oldestId: number | undefined): readonly T[] {
  return oldestId === undefined ? messages : messages.filter((message) => message.id === null || message.id >= oldestId);
}

/** The lowest id among stored messages; undefined when none is stored. */
export function oldestStored(messages: readonly { id: number | null }[]): number | undefined {
  let oldest: number | undefined;
  for (const { id } of messages) if (id !== null && (oldest === undefined || id < oldest)) oldest = id;
  return oldest;
}

/** A thread's newest page merged into what it held: what is older than the page goes when there is more history beyond it. */
export function withNewestPage(held: readonly ThreadMessage[], page: ThreadPage): ThreadMessage[] {
  return mergeMessages(page.next_cursor === null ? held : fromOldest(held, oldestStored(page.results)), page.results);
}
